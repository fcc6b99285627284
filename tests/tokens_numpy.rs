#![cfg(not(target_arch = "wasm32"))]
//! The tokens lab's numbers, recomputed independently in NumPy.
//!
//! Image patches by `reshape`/`transpose`, 2-D positions from the
//! sinusoidal formula, band energies by `np.hanning` and `np.fft.rfft` on
//! zero-padded frames, the signal re-synthesised from its documented
//! formula, the standardised audio tokens, and the attention weights of
//! the lab's scenarios (`W_Q = W_K = I`, masked softmax). The Rust values
//! and inputs go to Python as JSON (which round-trips every f64 exactly);
//! each program runs under `python3 -W error`, so a NumPy warning fails
//! too.
//!
//! NumPy is required: `bash scripts/setup.sh` installs it. Without it these
//! tests fail (they never pass silently).

use attention_lab::attention::random::Rng;
use attention_lab::attention::Matrix;
use attention_lab::lesson::labs::tokens::{
    self, audio_x, band_energies, friends_mask, image_x, patch_projection, patches, people_x,
    scenario, signal, weights, FEATURES, HOP, SAMPLE_RATE, SEVEN, VOWELS, WINDOW,
};
use serde_json::{json, Value};
use std::process::Command;

mod common;
use common::python::{require_numpy, TempFile, SETUP_HINT};

/// The NumPy side, written from the documented formulas (not from the
/// Rust code): every program starts with it.
const NUMPY_LIB: &str = r#"
import json
import math
import sys
import numpy as np

DATA = json.loads(sys.stdin.read())


def sinusoidal(n, d):
    """PE(p, 2k) = sin(p / 10000^(2k/d)), PE(p, 2k+1) = cos(same)."""
    pe = np.zeros((n, d))
    p = np.arange(n, dtype=np.float64)
    for c in range(d):
        angle = p / np.power(10000.0, (c - c % 2) / d)
        pe[:, c] = np.sin(angle) if c % 2 == 0 else np.cos(angle)
    return pe


def patches(img, s, p):
    return img.reshape(s // p, p, s // p, p).transpose(0, 2, 1, 3).reshape(-1, p * p)


def positions_2d(g, d):
    """Row-major patches of a g x g grid: the row's encoding of width d//2,
    then the column's of width d - d//2."""
    h = d // 2
    rows = np.repeat(np.arange(g), g)
    cols = np.tile(np.arange(g), g)
    return np.concatenate([sinusoidal(g, h)[rows], sinusoidal(g, d - h)[cols]], axis=1)


def band_energies(sig, bands, hop, win):
    n = len(sig) // hop
    padded = np.concatenate([sig, np.zeros(win)])
    frames = np.stack([padded[k * hop:k * hop + win] for k in range(n)]).reshape(n, win)
    power = np.abs(np.fft.rfft(frames * np.hanning(win), axis=1)) ** 2
    band = np.arange(win // 2 + 1) * bands // (win // 2 + 1)
    energy = np.zeros((n, bands))
    for b in range(win // 2 + 1):
        energy[:, band[b]] += power[:, b]
    return np.log(1e-6 + energy)


def standardised(e):
    mean = e.mean(axis=0)
    sd = e.std(axis=0)
    sd[sd < 1e-12] = 1.0
    return (e - mean) / sd


def attention_weights(x, d_k, allowed):
    """One head, W_Q = W_K = the d x d_k identity, scores / sqrt(d_k),
    softmax over the allowed keys (masked keys get exactly 0)."""
    w = np.eye(x.shape[1], d_k)
    q, k = x @ w, x @ w
    s = q @ k.T / math.sqrt(d_k)
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def synthesise(seconds, c):
    """The lab's signal from its documented formula."""
    rate = c["rate"]
    # round half away from zero, as Rust's f64::round
    n = int(math.floor(min(seconds, c["max_seconds"]) * rate + 0.5))
    i = np.arange(n)
    r = i / n
    t = i / rate
    out = np.zeros(n)
    for v in c["vowels"]:
        f0 = v["f0"]
        k = np.arange(1, int(rate / 2 / f0) + 2, dtype=np.float64)
        k = k[k * f0 < rate / 2]
        width = c["width"]
        amp = np.exp(-0.5 * ((k * f0 - v["f1"]) / width) ** 2) + c["f2_gain"] * np.exp(
            -0.5 * ((k * f0 - v["f2"]) / width) ** 2
        )
        amp = c["peak"] * amp / amp.sum()
        inside = (v["start"] <= r) & (r < v["end"])
        u = (r[inside] - v["start"]) / (v["end"] - v["start"])
        ramp = c["ramp"]
        env = np.sin(np.pi / 2 * np.minimum(np.minimum(u / ramp, (1 - u) / ramp), 1.0)) ** 2
        # The angle 2π·k·f0·t multiplied in that order, as documented.
        angle = ((2 * np.pi * k)[None, :] * f0) * t[inside][:, None]
        out[inside] = env * (amp[None, :] * np.sin(angle)).sum(axis=1)
    return out


def emit(**results):
    print("JSON:" + json.dumps({k: np.asarray(v, dtype=np.float64).tolist() for k, v in results.items()}))
"#;

/// Runs `NUMPY_LIB` + `program` under `python3 -W error` with `data` on
/// standard input; returns the object the program printed with `emit`.
fn run_numpy(name: &str, program: &str, data: &Value) -> serde_json::Map<String, Value> {
    require_numpy();
    let text = format!("{NUMPY_LIB}\n# --- {name} ---\n{program}");
    let file = TempFile::new(name, &text);
    let mut child = Command::new("python3")
        .args(["-W", "error"])
        .arg(&file.0)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 could not be started ({e}): {SETUP_HINT}"));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("python's stdin");
        stdin
            .write_all(data.to_string().as_bytes())
            .expect("send the data to python");
    }
    let out = child.wait_with_output().expect("wait for python3");
    assert!(
        out.status.success(),
        "{name}: python3 failed\n--- stderr ---\n{}\n--- program ---\n{program}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("python prints UTF-8");
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("JSON:"))
        .unwrap_or_else(|| panic!("{name}: no JSON line in\n{stdout}"));
    match serde_json::from_str(line) {
        Ok(Value::Object(m)) => m,
        other => panic!("{name}: bad JSON from python: {other:?}"),
    }
}

fn rows(m: &Matrix) -> Vec<Vec<f64>> {
    m.row_iter().map(|r| r.iter().copied().collect()).collect()
}

/// `want` (NumPy's, a list of rows) against `got` (Rust's): the same shape
/// exactly, and each entry within `tol · max(1, |got|, |want|)`.
fn assert_matrix(name: &str, got: &Matrix, want: &Value, tol: f64) {
    let want: Vec<Vec<f64>> = serde_json::from_value(want.clone())
        .unwrap_or_else(|e| panic!("{name}: not a matrix of numbers ({e})"));
    let shape = (want.len(), want.first().map_or(got.ncols(), Vec::len));
    assert_eq!(shape, got.shape(), "{name}: shape");
    let mut worst = 0.0f64;
    for (i, row) in want.iter().enumerate() {
        assert_eq!(row.len(), got.ncols(), "{name}: row {i} length");
        for (j, &w) in row.iter().enumerate() {
            let g = got[(i, j)];
            let size = 1f64.max(g.abs()).max(w.abs());
            let err = (g - w).abs() / size;
            worst = worst.max(err);
            assert!(
                err <= tol,
                "{name}: [{i}][{j}]: Rust {g}, NumPy {w} (relative error {err:e})"
            );
        }
    }
    eprintln!("{name}: {}×{} agree, worst {worst:e}", shape.0, shape.1);
}

#[test]
fn image_patches_and_tokens() {
    let mut rng = Rng::new(8);
    let random: Vec<f64> = (0..64).map(|_| rng.unit()).collect();
    let mut cases = Vec::new();
    for (image, p, d) in [
        (&random[..], 2, 16),
        (&random[..], 4, 7),
        (&random[..], 1, 6),
        (&SEVEN[..], 2, 8),
    ] {
        cases.push(json!({
            "image": image,
            "p": p,
            "d": d,
            "projection": rows(&patch_projection(p, d)),
        }));
    }
    let program = r#"
out = {}
for n, c in enumerate(DATA["cases"]):
    img = np.array(c["image"]).reshape(8, 8)
    p, d = c["p"], c["d"]
    flat = patches(img, 8, p)
    out[f"patches{n}"] = flat
    out[f"x{n}"] = flat @ np.array(c["projection"]).reshape(p * p, d) + positions_2d(8 // p, d)
emit(**out)
"#;
    let got = run_numpy("image", program, &json!({ "cases": cases }));
    for (n, (image, p, d)) in [
        (&random[..], 2, 16),
        (&random[..], 4, 7),
        (&random[..], 1, 6),
        (&SEVEN[..], 2, 8),
    ]
    .into_iter()
    .enumerate()
    {
        let flat = patches(image, 8, p).unwrap();
        assert_eq!(flat.nrows(), (8 / p) * (8 / p));
        // Cutting copies numbers: exactly equal.
        assert_matrix(
            &format!("patches p={p}"),
            &flat,
            &got[&format!("patches{n}")],
            0.0,
        );
        let x = image_x(image, 8, p, d).unwrap();
        assert_matrix(
            &format!("image_x p={p} d={d}"),
            &x,
            &got[&format!("x{n}")],
            1e-12,
        );
    }
}

/// The documented constants of the signal, for NumPy's synthesis.
fn signal_constants() -> Value {
    let vowels: Vec<Value> = VOWELS
        .iter()
        .map(|v| json!({"f0": v.f0, "f1": v.f1, "f2": v.f2, "start": v.start, "end": v.end}))
        .collect();
    json!({
        "rate": SAMPLE_RATE,
        "max_seconds": tokens::MAX_SECONDS,
        "width": tokens::FORMANT_WIDTH,
        "f2_gain": tokens::F2_GAIN,
        "ramp": tokens::RAMP,
        "peak": tokens::PEAK,
        "vowels": vowels,
    })
}

#[test]
fn band_energies_match_numpys_rfft() {
    let cases = [(1.0, 8), (0.37, 5), (1.0, 16), (0.5, 1)];
    let data = json!({
        "hop": HOP,
        "win": WINDOW,
        "constants": signal_constants(),
        "cases": cases
            .iter()
            .map(|&(seconds, bands)| json!({"seconds": seconds, "bands": bands, "signal": signal(seconds)}))
            .collect::<Vec<_>>(),
    });
    let program = r#"
out = {}
for n, c in enumerate(DATA["cases"]):
    sig = np.array(c["signal"], dtype=np.float64)
    # The Rust signal, analysed here.
    out[f"energies{n}"] = band_energies(sig, c["bands"], DATA["hop"], DATA["win"])
    # And the signal re-synthesised from its formula.
    out[f"signal{n}"] = synthesise(c["seconds"], DATA["constants"])[None, :]
emit(**out)
"#;
    let got = run_numpy("audio", program, &data);
    for (n, &(seconds, bands)) in cases.iter().enumerate() {
        let s = signal(seconds);
        let e = band_energies(&s, bands);
        assert_eq!(e.nrows(), (seconds * 100.0f64).round() as usize);
        assert_matrix(
            &format!("band_energies {seconds} s, {bands} bands"),
            &e,
            &got[&format!("energies{n}")],
            1e-9,
        );
        let row = Matrix::from_row_slice(1, s.len(), &s);
        assert_matrix(
            &format!("signal {seconds} s"),
            &row,
            &got[&format!("signal{n}")],
            1e-12,
        );
    }
    assert_eq!(band_energies(&signal(1.0), 8).nrows(), 100);
}

#[test]
fn audio_tokens_and_the_labs_attention_weights() {
    let s = signal(1.0);
    let neighbours = friends_mask();
    let data = json!({
        "hop": HOP,
        "win": WINDOW,
        "signal": s,
        "people": rows(&people_x(FEATURES.len())),
        "friends": neighbours,
    });
    let program = r#"
sig = np.array(DATA["signal"], dtype=np.float64)
x = standardised(band_energies(sig, 8, DATA["hop"], DATA["win"])) + sinusoidal(len(sig) // DATA["hop"], 8)
people = np.array(DATA["people"])
friends = np.array(DATA["friends"], dtype=bool)
everyone = np.ones(friends.shape, dtype=bool)
emit(
    audio_x=x,
    audio_w=attention_weights(x, 8, np.ones((len(x), len(x)), dtype=bool)),
    audio_w3=attention_weights(x, 3, np.ones((len(x), len(x)), dtype=bool)),
    local=attention_weights(people, 4, friends),
    global_=attention_weights(people, 4, everyone),
    wide=attention_weights(people, 6, everyone),
)
"#;
    let got = run_numpy("attention", program, &data);
    let x = audio_x(1.0, 8);
    assert_eq!(x.shape(), (100, 8));
    assert_matrix("audio_x", &x, &got["audio_x"], 1e-9);
    // 100 frames: past the engine's limit, still the same weights.
    let w = weights(&scenario(x.clone(), None, 8)).unwrap();
    assert_matrix("audio weights d_k = 8", &w, &got["audio_w"], 1e-9);
    let w = weights(&scenario(x, None, 3)).unwrap();
    assert_matrix("audio weights d_k = 3", &w, &got["audio_w3"], 1e-9);
    let people = people_x(4);
    let local = weights(&scenario(people.clone(), Some(neighbours.clone()), 4)).unwrap();
    assert_matrix("friends only", &local, &got["local"], 1e-12);
    // Masked pairs: exactly 0 on both sides.
    for (i, row) in neighbours.iter().enumerate() {
        for (j, &seen) in row.iter().enumerate() {
            if !seen {
                assert_eq!(local[(i, j)], 0.0);
                assert_eq!(got["local"][i][j].as_f64(), Some(0.0));
            }
        }
    }
    let global = weights(&scenario(people.clone(), None, 4)).unwrap();
    assert_matrix("everyone", &global, &got["global_"], 1e-12);
    // d_k past d: the identity pads with zeros, the scores are the same
    // dot products, divided by √6.
    let wide = weights(&scenario(people, None, 6)).unwrap();
    assert_matrix("d_k = 6", &wide, &got["wide"], 1e-12);
}
