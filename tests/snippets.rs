#![cfg(not(target_arch = "wasm32"))]
//! "Copy as code" really computes what the page shows.
//!
//! For a range of scenarios (every mask kind, scaling on and off, positional
//! encoding, several heads, W_O present and absent, rows with no visible
//! key), the NumPy snippet is written to a temporary file, a few lines that
//! print `output` as JSON are appended, and `python3 -W error` runs it (so a
//! NumPy warning fails too). Every entry must match the engine's `output` to
//! a relative 1e-12 (see [`terms`] for what it is relative to), and the rows
//! the engine leaves undefined (`NaN`) must be exactly the `null` rows.
//!
//! NumPy is required: `bash scripts/setup.sh` installs it. Without it these
//! tests fail (they never pass silently). PyTorch is not installed, so the
//! PyTorch snippet is checked as text and parsed (not run) by Python.

use attention_lab::attention::{
    compute, compute_stack, HeadWeights, Layer, Mask, Matrix, Positional, Scenario, Trace,
};
use attention_lab::lesson::presets::{self, Dims, BENCH_DIMS};
use attention_lab::lesson::snippets::{numpy_snippet, py_float, pytorch_snippet};
use serde_json::Value;
use std::process::Command;

/// Relative tolerance between the engine and NumPy: both use f64, but NumPy
/// sums products in its own order (BLAS) and has its own sin/cos/exp.
const RTOL: f64 = 1e-12;

/// The size an entry of `output` is relative to: for `concat · w_o`, the sum
/// of the absolute products `Σ_k |concat[i,k]·w_o[k,j]|`. A dot product can
/// cancel to nearly zero; rounding errors then scale with its terms, not
/// with the tiny result (in the 64-wide benchmark scenario plain relative
/// error reaches 7e-13 while this one stays below 1e-15).
fn terms(trace: &Trace, s: &Scenario, i: usize, j: usize) -> f64 {
    if !s.stack.is_empty() || s.residual {
        // Several layers: relative to the entry, or 1 for entries near 0.
        return 1.0;
    }
    match &s.w_o {
        Some(w_o) => (0..w_o.nrows())
            .map(|k| (trace.concat[(i, k)] * w_o[(k, j)]).abs())
            .sum(),
        None => 0.0,
    }
}

mod common;
use common::python::{require_numpy, TempFile, SETUP_HINT};

/// Runs `python3` on `program`, returning stdout; panics with stderr and the
/// program on failure.
fn run_python(name: &str, program: &str) -> String {
    let file = TempFile::new(name, program);
    let out = Command::new("python3")
        // Any NumPy warning (invalid value, overflow) is a failure: the
        // snippet must handle undefined rows and large scores quietly.
        .args(["-W", "error"])
        .arg(&file.0)
        .output()
        .unwrap_or_else(|e| panic!("python3 could not be started ({e}): {SETUP_HINT}"));
    assert!(
        out.status.success(),
        "{name}: python3 failed\n--- stderr ---\n{}\n--- program ---\n{program}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("python prints UTF-8")
}

/// Appended to the snippet: `output` as JSON (NaN → null) and its dtype.
const PRINT_JSON: &str = r#"
# --- appended by tests/snippets.rs ---
import json
import math
rows = [[None if math.isnan(v) else v for v in row] for row in output.tolist()]
print("DTYPE:" + str(output.dtype))
print("JSON:" + json.dumps(rows))
"#;

/// Runs the NumPy snippet of `s` and compares its `output` with the engine's.
fn check_numpy(name: &str, s: &Scenario) {
    require_numpy();
    let trace = compute(s).unwrap_or_else(|e| panic!("{name}: invalid scenario: {e}"));
    // The scenario's output: the last layer's (the one layer's trace output
    // when nothing is stacked).
    let stack = compute_stack(s).unwrap_or_else(|e| panic!("{name}: invalid stack: {e}"));
    let expected = stack.output();
    let snippet = numpy_snippet(s);
    let stdout = run_python(name, &format!("{snippet}\n{PRINT_JSON}"));
    let line = |tag: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(tag))
            .unwrap_or_else(|| panic!("{name}: no {tag} line in\n{stdout}"))
            .to_string()
    };
    assert_eq!(line("DTYPE:"), "float64", "{name}: output must be float64");
    // The snippet itself prints `output` before the appended lines.
    assert!(
        stdout.find("DTYPE:").is_some_and(|i| i > 0),
        "{name}: the snippet should print(output) itself"
    );
    let rows: Vec<Vec<Value>> = serde_json::from_str(&line("JSON:"))
        .unwrap_or_else(|e| panic!("{name}: bad JSON from python ({e})"));
    assert_eq!(
        (rows.len(), rows.first().map_or(0, Vec::len)),
        expected.shape(),
        "{name}: shape of output"
    );
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), expected.ncols(), "{name}: row {i} length");
        for (j, cell) in row.iter().enumerate() {
            let want = expected[(i, j)];
            match cell.as_f64() {
                None => {
                    assert!(cell.is_null(), "{name}: [{i}][{j}] = {cell}");
                    assert!(
                        want.is_nan(),
                        "{name}: [{i}][{j}]: NumPy has NaN, the engine {want}"
                    );
                }
                Some(got) => {
                    assert!(
                        !want.is_nan(),
                        "{name}: [{i}][{j}]: the engine has NaN, NumPy {got}"
                    );
                    let diff = (got - want).abs();
                    let size = want.abs().max(got.abs()).max(terms(&trace, s, i, j));
                    assert!(
                        diff <= RTOL * size,
                        "{name}: [{i}][{j}]: NumPy {got}, engine {want} (error {diff:e}, \
                         relative to {size:e}: {:e})",
                        diff / size
                    );
                }
            }
        }
    }
    // The NaN rows are exactly the rows the engine calls undefined.
    for (i, row) in rows.iter().enumerate() {
        let undefined = trace.undefined_rows.contains(&i);
        assert_eq!(
            row.iter().all(Value::is_null),
            undefined,
            "{name}: row {i} undefined = {undefined}"
        );
    }
}

/// The PyTorch snippet cannot be run here (no torch): check that Python
/// parses it and that it carries every number and the float64 dtype.
fn check_pytorch_text(name: &str, s: &Scenario) {
    let py = pytorch_snippet(s);
    assert!(py.starts_with("# Generated by Attention Lab"), "{name}");
    assert!(py.contains("import torch"), "{name}");
    assert!(py.contains("dtype=torch.float64)"), "{name}");
    assert!(!py.contains("np."), "{name}: NumPy in the PyTorch snippet");
    assert!(py.contains("torch.cat(head_outputs, dim=-1)"), "{name}");
    assert!(py.trim_end().ends_with("print(output)"), "{name}");
    let flat: String = py.chars().filter(|c| *c != ' ').collect();
    let mut matrices: Vec<(&str, &Matrix)> = vec![("x", &s.x)];
    for h in &s.heads {
        matrices.extend([("w_q", &h.w_q), ("w_k", &h.w_k), ("w_v", &h.w_v)]);
    }
    if let Some(w_o) = &s.w_o {
        matrices.push(("w_o", w_o));
    }
    for (m_name, m) in matrices {
        for r in 0..m.nrows() {
            let cells: Vec<String> = m.row(r).iter().map(|&v| py_float(v)).collect();
            let row = format!("[{}]", cells.join(","));
            assert!(
                flat.contains(&row),
                "{name}: {m_name} row {r} {row} missing"
            );
        }
    }
    // It is valid Python (needs no torch to parse).
    let check = "import ast, sys\nast.parse(open(sys.argv[1], encoding='utf-8').read())\n";
    let file = TempFile::new(&format!("{name}_torch"), &py);
    let out = Command::new("python3")
        .args(["-c", check])
        .arg(&file.0)
        .output()
        .unwrap_or_else(|e| panic!("python3 could not be started ({e}): {SETUP_HINT}"));
    assert!(
        out.status.success(),
        "{name}: the PyTorch snippet is not valid Python\n{}\n{py}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check_both(name: &str, s: &Scenario) {
    check_numpy(name, s);
    check_pytorch_text(name, s);
}

fn dims(n: usize, d_model: usize, d_k: usize, d_v: usize, heads: usize) -> Dims {
    Dims {
        n,
        d_model,
        d_k,
        d_v,
        heads,
    }
}

#[test]
fn notes_004() {
    check_both("notes_004", &presets::notes_004());
}

#[test]
fn scaled_two_heads_with_w_o_causal_and_positions() {
    // d_model = 5 is odd: the last PE column is a sine without its cosine.
    let mut s = presets::random(11, dims(5, 5, 3, 2, 2), true);
    s.mask = Mask::Causal;
    s.positional = Positional::Sinusoidal;
    assert!(s.scale && s.w_o.is_some());
    check_both("two_heads_causal_pe", &s);
}

#[test]
fn one_hot_positions() {
    use attention_lab::lesson::edit::{apply, Edit};
    let one_hot = Edit::Positional(Positional::OneHot);
    let s = apply(&presets::notes_004(), &one_hot, 1).unwrap();
    assert_eq!(s.heads[0].w_q.nrows(), 4 + 3);
    check_both("one_hot_004", &s);
    let mut s = presets::random(15, dims(5, 3, 2, 2, 2), true);
    s.mask = Mask::Causal;
    check_both("one_hot_two_heads", &apply(&s, &one_hot, 15).unwrap());
}

#[test]
fn window_mask() {
    let mut s = presets::random(12, dims(6, 4, 2, 3, 1), true);
    s.mask = Mask::Window(1);
    check_both("window", &s);
    s.mask = Mask::Window(0);
    s.positional = Positional::Sinusoidal;
    check_both("window_0_pe", &s);
}

#[test]
fn padding_mask() {
    let mut s = presets::random(13, dims(5, 4, 2, 2, 2), false);
    s.mask = Mask::Padding(3);
    check_both("padding", &s);
    // No real key at all: every row is undefined.
    s.mask = Mask::Padding(0);
    assert_eq!(compute(&s).unwrap().undefined_rows, vec![0, 1, 2, 3, 4]);
    check_both("padding_0", &s);
}

#[test]
fn custom_mask_with_an_all_masked_row() {
    let mut s = presets::random(14, dims(4, 5, 3, 2, 2), true);
    s.mask = Mask::Custom(vec![
        vec![true, false, true, false],
        vec![false, false, false, false],
        vec![true, true, true, true],
        vec![false, true, false, false],
    ]);
    s.positional = Positional::Sinusoidal;
    assert_eq!(compute(&s).unwrap().undefined_rows, vec![1]);
    check_both("custom", &s);
}

#[test]
fn random_scenarios() {
    check_both("random_1", &presets::random(1, dims(3, 4, 2, 2, 1), true));
    check_both("random_2", &presets::random(2, dims(8, 6, 4, 3, 4), true));
    check_both("random_3", &presets::random(3, dims(1, 1, 1, 1, 1), true));
    check_both("random_4", &presets::random(4, dims(7, 3, 5, 2, 3), false));
    let mut big = presets::random(5, BENCH_DIMS, true);
    big.mask = Mask::Causal;
    check_both("random_bench", &big);
}

#[test]
fn awkward_numbers_round_trip() {
    let mut s = presets::notes_004();
    s.x[(0, 0)] = 0.1;
    s.x[(0, 1)] = 1e-300;
    s.x[(0, 2)] = -0.0;
    s.x[(1, 0)] = 1.0 / 3.0;
    s.x[(2, 3)] = 123_456.789;
    s.heads[0].w_q[(0, 0)] = 5e-324;
    check_both("awkward", &s);
}

#[test]
fn large_scores_need_the_stable_softmax() {
    // Scores up to 16·2500 = 40000: exp() of them overflows unless the row
    // maximum is subtracted first.
    let mut s = presets::notes_004();
    s.x *= 50.0;
    let trace = compute(&s).unwrap();
    assert!(trace.heads[0].scores.max() > 710.0);
    check_both("large_scores", &s);
}

/// Three stacked layers (with W_O, residuals, a causal mask and sinusoidal
/// positions): the program loops over the layers and prints the last
/// layer's output, which must be the engine's.
#[test]
fn three_layers() {
    let mut s = presets::random(21, dims(4, 3, 2, 2, 2), true);
    s.mask = Mask::Causal;
    s.positional = Positional::Sinusoidal;
    let mut rng = attention_lab::attention::random::Rng::new(22);
    let mut layer = |heads: usize, w_o: bool, residual: bool| Layer {
        heads: (0..heads)
            .map(|_| HeadWeights {
                w_q: rng.matrix(3, 2),
                w_k: rng.matrix(3, 2),
                w_v: rng.matrix(3, 2),
            })
            .collect(),
        w_o: w_o.then(|| rng.matrix(heads * 2, 3)),
        residual,
    };
    s.residual = true;
    s.stack = vec![layer(1, true, true), layer(3, true, false)];
    let program = numpy_snippet(&s);
    assert!(
        program.contains("for heads, w_o, residual in layers:"),
        "{program}"
    );
    check_both("three_layers", &s);
}
