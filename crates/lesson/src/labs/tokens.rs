//! What can be a token (note 000 §1, §1.1, §1.2, §5.3). Self-attention
//! reads a set of vectors of one width; words are only one way to get them.
//! This module makes the vectors of three other kinds, all deterministic,
//! and hands each to the engine the same way ([`scenario`], [`weights`]):
//!
//! - **Image patches** (note 000 §5.3, as in a Vision Transformer): the
//!   image is cut into `p × p` patches, each flattened and projected to a
//!   vector, plus a 2-D position (which row, which column of patches).
//! - **Audio frames** (note 000 §1.1): one frame every 10 ms, so 1 s of
//!   audio is 100 tokens and a longer recording is more tokens; each frame
//!   is described by its loudness in a few frequency bands, plus a 1-D
//!   position.
//! - **Graph nodes** (note 000 §1.2): people in a small social network,
//!   each a vector of a few traits. A set of people has no order, so they
//!   get no position; the friendships can limit who sees whom (a mask)
//!   or not (global attention).
//!
//! The cost of attention grows with the number of tokens squared
//! ([`pairs`]), so how a signal is cut into tokens decides what attention
//! costs.

use super::masks::{self, Grid};
use attention::cost::Keys;
use attention::random::Rng;
use attention::{
    allowed_matrix, compute, default_tokens, matmul, matmul_t, sinusoidal, softmax_rows,
    HeadWeights, Mask, Matrix, Positional, Scenario, FORMAT, MAX_N,
};
use std::f64::consts::{PI, TAU};

// ---------------------------------------------------------------------
// Image → tokens
// ---------------------------------------------------------------------

/// Side of the lab's images ([`SEVEN`], [`ZERO`], [`BLANK`] and what the
/// reader draws), in pixels: 8 × 8 = 64 pixels, so even 1 × 1 patches stay
/// within the engine's [`MAX_N`] = 64 tokens.
pub const SIDE: usize = 8;

/// The token width the lab gives image patches (`d` of [`image_x`], and
/// `d_k`): the first 8 numbers carry the patch row's position, the last 8
/// its column's, and the projected pixels are added across all 16.
pub const D_MODEL: usize = 16;

/// A hand-drawn 8 × 8 greyscale "7", row-major, 0 = background, 1 = ink.
#[rustfmt::skip]
pub const SEVEN: [f64; 64] = [
    0.0, 0.9, 1.0, 1.0, 1.0, 1.0, 0.9, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.6, 1.0, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.2, 1.0, 0.5, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.8, 0.9, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.4, 1.0, 0.2, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.9, 0.7, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.3, 1.0, 0.2, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.6, 0.9, 0.0, 0.0, 0.0, 0.0,
];

/// A hand-drawn 8 × 8 greyscale "0", row-major, 0 = background, 1 = ink.
#[rustfmt::skip]
pub const ZERO: [f64; 64] = [
    0.0, 0.0, 0.4, 0.9, 0.9, 0.4, 0.0, 0.0,
    0.0, 0.5, 1.0, 0.3, 0.3, 1.0, 0.5, 0.0,
    0.0, 0.9, 0.6, 0.0, 0.0, 0.6, 0.9, 0.0,
    0.0, 1.0, 0.3, 0.0, 0.0, 0.3, 1.0, 0.0,
    0.0, 1.0, 0.3, 0.0, 0.0, 0.3, 1.0, 0.0,
    0.0, 0.9, 0.6, 0.0, 0.0, 0.6, 0.9, 0.0,
    0.0, 0.5, 1.0, 0.3, 0.3, 1.0, 0.5, 0.0,
    0.0, 0.0, 0.4, 0.9, 0.9, 0.4, 0.0, 0.0,
];

/// The sample images, for the page's buttons: [`SEVEN`], [`ZERO`].
pub const DIGITS: [[f64; 64]; 2] = [SEVEN, ZERO];
/// The names of [`DIGITS`], in order.
pub const DIGIT_NAMES: [&str; 2] = ["7", "0"];
/// An empty 8 × 8 image (to draw on).
pub const BLANK: [f64; 64] = [0.0; 64];

/// The seed of [`patch_projection`].
pub const PROJECTION_SEED: u64 = 2020;

/// The image (`side × side` pixels, row-major) cut into non-overlapping
/// `p × p` patches: one row per patch, patches in row-major order (left to
/// right, then down), each patch flattened row-major. So there are
/// `(side/p)²` rows of `p²` numbers; patch `k` is at patch row `k / (side/p)`
/// and patch column `k % (side/p)`.
///
/// `None` when `p` is 0, `p` does not divide `side`, or `image` does not
/// hold `side²` pixels (the page may offer any `p`; it never panics here).
pub fn patches(image: &[f64], side: usize, p: usize) -> Option<Matrix> {
    if p == 0 || side % p != 0 || image.len() != side * side {
        return None;
    }
    let g = side / p;
    Some(Matrix::from_fn(g * g, p * p, |k, c| {
        let (row, col) = (k / g * p + c / p, k % g * p + c % p);
        image[row * side + col]
    }))
}

/// 2-D sinusoidal positions of a `rows × cols` grid of patches,
/// `(rows·cols) × d`, one row per patch in the order of [`patches`]: the
/// first `⌊d/2⌋` columns are the engine's 1-D encoding
/// ([`attention::sinusoidal`] of width `⌊d/2⌋`) at the patch's row, the
/// other `d − ⌊d/2⌋` columns the 1-D encoding of that width at its column.
/// Patches in the same row share the first half, patches in the same
/// column the second, so "above" and "beside" are both visible.
pub fn positions_2d(rows: usize, cols: usize, d: usize) -> Matrix {
    let h = d / 2;
    let (by_row, by_col) = (sinusoidal(rows, h), sinusoidal(cols, d - h));
    Matrix::from_fn(rows * cols, d, |k, c| {
        if c < h {
            by_row[(k / cols, c)]
        } else {
            by_col[(k % cols, c - h)]
        }
    })
}

/// The fixed patch projection, `p² × d`: seeded random numbers of mean 0
/// and standard deviation `1/p` (variance `1/p²`, one over the number of
/// pixels), from [`PROJECTION_SEED`], rounded to 4 decimals. It plays the
/// part of an untrained Vision Transformer's patch embedding: a linear map
/// that keeps similarity, since the dot product of two projected patches
/// is on average `d/p²` times the dot product of their pixels. A patch of
/// full ink gets a vector of about the same length as its 2-D position
/// (`√d` against `√(d/2)`), so both what a patch shows and where it is
/// count in the scores.
pub fn patch_projection(p: usize, d: usize) -> Matrix {
    let sd = if p == 0 { 0.0 } else { 1.0 / p as f64 };
    Rng::new(PROJECTION_SEED).normal_matrix(p * p, d, sd)
}

/// An image's tokens, `(side/p)² × d`: `patches · patch_projection +
/// positions_2d`. `None` as for [`patches`].
pub fn image_x(image: &[f64], side: usize, p: usize, d: usize) -> Option<Matrix> {
    let flat = patches(image, side, p)?;
    let g = side / p;
    Some(matmul(&flat, &patch_projection(p, d)) + positions_2d(g, g, d))
}

// ---------------------------------------------------------------------
// Audio → tokens
// ---------------------------------------------------------------------

/// Samples per second of the lab's audio: enough for speech's vowels
/// (everything up to 4000 Hz, half the rate) and small enough to compute
/// in the page.
pub const SAMPLE_RATE: usize = 8000;
/// One frame every 10 ms (note 000 §1.1): 1 s of audio is 100 frames.
pub const HOP_MS: usize = 10;
/// Each frame looks at 25 ms of sound, a common window for speech analysis:
/// long enough to hold a few periods of a voice's pitch, short enough that
/// a vowel does not change inside it. Frames start every 10 ms, so
/// neighbouring frames overlap by 15 ms.
pub const WINDOW_MS: usize = 25;
/// [`HOP_MS`] in samples (80).
pub const HOP: usize = SAMPLE_RATE * HOP_MS / 1000;
/// [`WINDOW_MS`] in samples (200).
pub const WINDOW: usize = SAMPLE_RATE * WINDOW_MS / 1000;
/// Frequency bins of a frame's spectrum, `0 … WINDOW/2` (101): bin `b` is
/// `b · SAMPLE_RATE / WINDOW = 40·b` Hz, from 0 to 4000 Hz.
pub const BINS: usize = WINDOW / 2 + 1;
/// The number of frequency bands the lab describes a frame by (the
/// `bands` of [`audio_x`], and `d_k`): 16 bands of 250 Hz tell /a/, /i/
/// and /u/ apart; with 4 bands of 1000 Hz /a/ and /u/, both loud below
/// 1 kHz, blur together.
pub const BANDS: usize = 16;
/// The longest signal [`signal`] makes, in seconds (200 frames).
pub const MAX_SECONDS: f64 = 2.0;
/// Added to every band's energy before its logarithm, so silence gives
/// `ln 10⁻⁶ ≈ −13.8` instead of `−∞`.
pub const FLOOR: f64 = 1e-6;

/// One vowel of [`signal`]: its name, its pitch `f0` (Hz), its two
/// formants `f1`, `f2` (Hz; the resonances of the mouth that make an /a/
/// sound unlike an /i/), and the part of the signal it fills, `start … end`
/// as fractions of the whole duration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vowel {
    pub name: &'static str,
    pub f0: f64,
    pub f1: f64,
    pub f2: f64,
    pub start: f64,
    pub end: f64,
}

/// The vowels of [`signal`], in order, with a short pause (8 % of the
/// duration) between them: /a/ (open: formants 700 and 1200 Hz), /i/
/// (formants 300 and 2300 Hz: much energy above 2 kHz) and /u/ (formants
/// 300 and 800 Hz: almost none there).
pub const VOWELS: [Vowel; 3] = [
    Vowel {
        name: "a",
        f0: 150.0,
        f1: 700.0,
        f2: 1200.0,
        start: 0.0,
        end: 0.28,
    },
    Vowel {
        name: "i",
        f0: 180.0,
        f1: 300.0,
        f2: 2300.0,
        start: 0.36,
        end: 0.64,
    },
    Vowel {
        name: "u",
        f0: 130.0,
        f1: 300.0,
        f2: 800.0,
        start: 0.72,
        end: 1.0,
    },
];
/// Width of a formant's bump (the standard deviation of its Gaussian), Hz.
pub const FORMANT_WIDTH: f64 = 150.0;
/// The weight of the second formant's bump (the first's is 1).
pub const F2_GAIN: f64 = 0.6;
/// The fraction of a vowel spent fading in (and again fading out).
pub const RAMP: f64 = 0.2;
/// The loudest a sample can be: the harmonics' amplitudes add up to it.
pub const PEAK: f64 = 0.9;

/// The number of samples of `seconds` of audio: `round(seconds ·
/// SAMPLE_RATE)`, 0 for a duration that is not positive (or NaN), at most
/// that of [`MAX_SECONDS`].
pub fn sample_count(seconds: f64) -> usize {
    if seconds > 0.0 {
        (seconds.min(MAX_SECONDS) * SAMPLE_RATE as f64).round() as usize
    } else {
        0
    }
}

/// The amplitudes of vowel `v`'s harmonics `k = 1, 2, …` below 4000 Hz
/// (`k·f0 < SAMPLE_RATE/2`): `g(f1) + F2_GAIN·g(f2)` with
/// `g(F) = exp(−½((k·f0 − F)/FORMANT_WIDTH)²)` (the harmonics near a
/// formant are loud, the others nearly silent), then scaled so that they
/// add up to [`PEAK`] (so no sample exceeds it).
pub fn harmonics(v: &Vowel) -> Vec<f64> {
    let nyquist = SAMPLE_RATE as f64 / 2.0;
    let bump = |f: f64, formant: f64| (-0.5 * ((f - formant) / FORMANT_WIDTH).powi(2)).exp();
    let raw: Vec<f64> = (1..)
        .map(|k| k as f64)
        .take_while(|k| k * v.f0 < nyquist)
        .map(|k| bump(k * v.f0, v.f1) + F2_GAIN * bump(k * v.f0, v.f2))
        .collect();
    let total: f64 = raw.iter().sum();
    raw.iter().map(|a| PEAK * a / total).collect()
}

/// A signal the page makes itself, `seconds` long ([`sample_count`]
/// samples): the vowels /a/, /i/, /u/ ([`VOWELS`]) with a short silent
/// pause between them. The layout is in fractions of the duration, so
/// 0.5 s and 2 s both show three vowels and two pauses.
///
/// Sample `i` (time `t = i / SAMPLE_RATE`, place `r = i / N` of `N`
/// samples) inside vowel `v` (`v.start ≤ r < v.end`) is
/// `env(u) · Σ_k a_k · sin(2π·k·f0·t)` with `a_k` its [`harmonics`],
/// `u = (r − start)/(end − start)` and the fade
/// `env(u) = sin²(π/2 · min(1, u/RAMP, (1 − u)/RAMP))`; outside every
/// vowel it is 0. Every sample lies within ±[`PEAK`].
pub fn signal(seconds: f64) -> Vec<f64> {
    let n = sample_count(seconds);
    let amplitudes: Vec<Vec<f64>> = VOWELS.iter().map(harmonics).collect();
    (0..n)
        .map(|i| {
            let r = i as f64 / n as f64;
            let Some(at) = VOWELS.iter().position(|v| v.start <= r && r < v.end) else {
                return 0.0;
            };
            let v = &VOWELS[at];
            let u = (r - v.start) / (v.end - v.start);
            let env = (PI / 2.0 * (u / RAMP).min((1.0 - u) / RAMP).min(1.0))
                .sin()
                .powi(2);
            let t = i as f64 / SAMPLE_RATE as f64;
            let voice: f64 = amplitudes[at]
                .iter()
                .enumerate()
                .map(|(k, a)| a * (TAU * (k + 1) as f64 * v.f0 * t).sin())
                .sum();
            env * voice
        })
        .collect()
}

/// The number of frames of `samples` samples: one per 10 ms hop,
/// `samples / HOP` (so 1 s = 8000 samples is exactly 100 frames, 0.5 s is
/// 50). Frame `k` starts at sample `k·HOP` and covers [`WINDOW`] samples;
/// the last frames reach past the end, where the signal counts as 0.
pub fn frame_count(samples: usize) -> usize {
    samples / HOP
}

/// The Hann window of [`WINDOW`] samples, `w[m] = 0.5 − 0.5·cos(2π·m /
/// (WINDOW − 1))` (the symmetric form, NumPy's `np.hanning(WINDOW)`): it
/// fades each frame in and out, so the frame's sharp edges do not smear
/// its spectrum.
pub fn hann() -> Vec<f64> {
    (0..WINDOW)
        .map(|m| 0.5 - 0.5 * (TAU * m as f64 / (WINDOW - 1) as f64).cos())
        .collect()
}

/// The band (of `bands`) that frequency bin `b` (of [`BINS`]) adds to:
/// `⌊b · bands / BINS⌋`, so the bins `0 … 100` (0 … 4000 Hz) are split into
/// `bands` contiguous groups of nearly equal size, low frequencies first.
pub fn band_of(b: usize, bands: usize) -> usize {
    b * bands / BINS
}

/// What each frame sounds like, `frame_count × bands`: the frame times the
/// [`hann`] window, its power spectrum `|X_b|²` with
/// `X_b = Σ_m x[m]·e^(−2πi·b·m/WINDOW)` for the bins `b = 0 … WINDOW/2`
/// (a direct discrete Fourier transform), the powers of each band's bins
/// ([`band_of`]) added up, and the natural logarithm of [`FLOOR`] plus
/// that energy. The logarithm because loudness is heard logarithmically
/// (ten times the energy sounds like one step louder, not ten) and because
/// it keeps the numbers in a small range (about −14 for silence to a few
/// units for a vowel) where a vowel's quieter bands still count.
pub fn band_energies(signal: &[f64], bands: usize) -> Matrix {
    let frames = frame_count(signal.len());
    let mut out = Matrix::zeros(frames, bands);
    if bands == 0 {
        return out;
    }
    let window = hann();
    // cos and sin of 2π·m/WINDOW: the angle of bin b at sample m is that
    // of (b·m) mod WINDOW.
    let cos: Vec<f64> = (0..WINDOW)
        .map(|m| (TAU * m as f64 / WINDOW as f64).cos())
        .collect();
    let sin: Vec<f64> = (0..WINDOW)
        .map(|m| (TAU * m as f64 / WINDOW as f64).sin())
        .collect();
    let mut x = vec![0.0; WINDOW];
    for f in 0..frames {
        for (m, xm) in x.iter_mut().enumerate() {
            *xm = signal.get(f * HOP + m).copied().unwrap_or(0.0) * window[m];
        }
        let mut energy = vec![0.0; bands];
        for b in 0..BINS {
            let (mut re, mut im) = (0.0, 0.0);
            for (m, xm) in x.iter().enumerate() {
                let at = b * m % WINDOW;
                re += xm * cos[at];
                im -= xm * sin[at];
            }
            energy[band_of(b, bands)] += re * re + im * im;
        }
        for (c, e) in energy.iter().enumerate() {
            out[(f, c)] = (FLOOR + e).ln();
        }
    }
    out
}

/// Each column shifted to mean 0 and scaled to standard deviation 1 over
/// the rows: `(v − mean) / sd` with `sd = √(Σ(v − mean)² / rows)` (the
/// population form, NumPy's default), or only `v − mean` when `sd` is
/// below 1e-12 (a band that never changes). Speech systems do this per
/// recording ("cepstral mean and variance normalisation"): a band is then
/// loud or quiet *for this recording*, and silence (−13.8 in every band)
/// no longer dwarfs everything else.
pub fn standardised(m: &Matrix) -> Matrix {
    let rows = m.nrows();
    let mut out = m.clone();
    if rows == 0 {
        return out;
    }
    for mut col in out.column_iter_mut() {
        let mean = col.iter().sum::<f64>() / rows as f64;
        let sd = (col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / rows as f64).sqrt();
        let div = if sd < 1e-12 { 1.0 } else { sd };
        for v in col.iter_mut() {
            *v = (*v - mean) / div;
        }
    }
    out
}

/// The audio tokens of [`signal`]`(seconds)`, `frames × bands`:
/// [`standardised`] [`band_energies`] plus the engine's 1-D sinusoidal
/// positions of width `bands` (frame `k` at position `k`: sound has an
/// order, as text does).
pub fn audio_x(seconds: f64, bands: usize) -> Matrix {
    let e = standardised(&band_energies(&signal(seconds), bands));
    let n = e.nrows();
    e + sinusoidal(n, bands)
}

// ---------------------------------------------------------------------
// Graph → tokens
// ---------------------------------------------------------------------

/// The people of the small social network, one token each. Short names
/// that read the same in Chinese and English texts, initials A to H in
/// index order.
pub const PEOPLE: [&str; 8] = ["Ada", "Bo", "Cai", "Dan", "Eve", "Fan", "Gus", "Hui"];

/// Who is friends with whom (undirected, by index into [`PEOPLE`]): two
/// groups, Ada–Bo–Cai–Dan and Eve–Fan–Gus–Hui, joined by Dan and Eve.
/// People have different numbers of friends: Eve 4, Ada 3, Hui only 1.
pub const FRIENDS: &[(usize, usize)] = &[
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 2),
    (3, 4),
    (4, 5),
    (4, 6),
    (4, 7),
    (5, 6),
];

/// What each column of [`TRAITS`] says, as keys for the page to word.
pub const FEATURES: [&str; 4] = ["age", "games", "hiking", "activity"];

/// Each person's traits, each in −1 … 1: age (young −1, old 1), how much
/// they like games and hiking (dislike −1, love 1), and how active they
/// are online (rarely posts −1, posts daily 1). The first group is young
/// and likes games, the second older and likes hiking; Dan is in between.
#[rustfmt::skip]
pub const TRAITS: [[f64; 4]; 8] = [
    [-0.8,  0.9, -0.2,  0.9], // Ada
    [-0.9,  1.0, -0.6,  0.3], // Bo
    [-0.6,  0.7, -0.4, -0.2], // Cai
    [ 0.0,  0.4,  0.5,  0.1], // Dan
    [ 0.6, -0.3,  0.9,  0.8], // Eve
    [ 0.8, -0.6,  1.0, -0.1], // Fan
    [ 0.9, -0.8,  0.6, -0.5], // Gus
    [-0.2,  0.1,  0.3, -0.9], // Hui
];

/// The people's tokens, `8 × d`: row `i` is person `i`'s [`TRAITS`], cut to
/// the first `d` when `d < 4`, followed by zeros when `d > 4` (zero
/// columns change no dot product, so the page can use one `d` for every
/// kind). No positions: a set of people has no first or last (note 000
/// §1.2), and reordering them should only reorder the outputs.
pub fn people_x(d: usize) -> Matrix {
    Matrix::from_fn(PEOPLE.len(), d, |i, c| {
        TRAITS[i].get(c).copied().unwrap_or(0.0)
    })
}

/// "Neighbours only": each person sees their friends and themselves
/// ([`masks::graph`] of [`FRIENDS`] with self-loops). Global attention is
/// no mask at all.
pub fn friends_mask() -> Grid {
    masks::graph(PEOPLE.len(), FRIENDS, true)
}

// ---------------------------------------------------------------------
// Any kind → the engine
// ---------------------------------------------------------------------

/// The engine scenario of tokens `x` (`n × d`, positions already added
/// where the kind has them, so the scenario adds none): one head with
/// `W_Q = W_K = W_V = I` (the `d × d_k` identity: ones on the diagonal,
/// zeros elsewhere, so each projection keeps the first `d_k` numbers of a
/// token and pads with zeros past `d`), scaling by √d_k, no `W_O`, no
/// residual. With those weights a score is the dot product of two tokens'
/// vectors (over their first `d_k` numbers) divided by √d_k: tokens that
/// look alike attend to each other, and nothing learned gets in the way of
/// seeing that. `mask` is a grid of who may see whom (such as
/// [`friends_mask`]), `None` for every token seeing every token. Tokens
/// are labelled `x1 … xn`; the page may replace them.
///
/// The engine refuses more than [`MAX_N`] tokens (its editor's limit);
/// [`weights`] still computes such a scenario.
pub fn scenario(x: Matrix, mask: Option<Grid>, d_k: usize) -> Scenario {
    let (n, d) = x.shape();
    let w = Matrix::identity(d, d_k);
    Scenario {
        format: FORMAT.to_string(),
        tokens: default_tokens(n),
        x,
        heads: vec![HeadWeights {
            w_q: w.clone(),
            w_k: w.clone(),
            w_v: w,
        }],
        w_o: None,
        scale: true,
        mask: mask.map_or(Mask::None, Mask::Custom),
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}

/// The first head's attention weights, `n × n` (row `i`: how query `i`
/// shares its attention over the keys; a masked key gets exactly 0 and a
/// row with no visible key is all NaN).
///
/// Up to [`MAX_N`] tokens this is the engine's [`compute`]; `None` when the
/// engine refuses the scenario. Longer scenarios (1 s of audio is 100
/// frames) are past the engine's limit but not past its arithmetic: the
/// same steps with the engine's own functions (`Q = X·W_Q`, `K = X·W_K`,
/// `Q·Kᵀ`, `÷ √d_k`, the masked row softmax), the same numbers bit for bit,
/// for a scenario of one layer without positions whose shapes fit; `None`
/// otherwise, or when a score is not finite.
pub fn weights(s: &Scenario) -> Option<Matrix> {
    if s.n() <= MAX_N {
        return compute(s).ok()?.heads.into_iter().next().map(|h| h.weights);
    }
    long_weights(s)
}

/// [`weights`] past the engine's token limit (see there).
fn long_weights(s: &Scenario) -> Option<Matrix> {
    let h = s.heads.first()?;
    let d = s.d_model();
    let fits = s.positional == Positional::None
        && s.stack.is_empty()
        && h.w_q.nrows() == d
        && h.w_k.nrows() == d
        && h.w_q.ncols() == h.w_k.ncols()
        && match &s.mask {
            Mask::Custom(rows) => rows.len() == s.n() && rows.iter().all(|r| r.len() == s.n()),
            _ => true,
        };
    if !fits {
        return None;
    }
    let scores = matmul_t(&matmul(&s.x, &h.w_q), &matmul(&s.x, &h.w_k));
    if !scores.iter().all(|v| v.is_finite()) {
        return None;
    }
    let divisor = (h.w_q.ncols() as f64).sqrt();
    let scaled = if s.scale {
        scores.map(|v| v / divisor)
    } else {
        scores
    };
    Some(softmax_rows(&scaled, &allowed_matrix(&s.mask, s.n())))
}

/// The (query, key) pairs dense attention scores for `n` tokens, `n²` (the
/// cost module's count): 64 patches are 4096 pairs, 1 s of audio 10 000.
pub fn pairs(n: usize) -> u64 {
    Keys::All.pairs(n, n)
}

/// The pairs a mask grid lets through (the scores left to compute when
/// only those are kept): [`friends_mask`] leaves 26 of the 64.
pub fn visible_pairs(g: &Grid) -> u64 {
    g.iter().flatten().filter(|&&a| a).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn patches_of_a_four_by_four_image() {
        let image: Vec<f64> = (0..16).map(f64::from).collect();
        let p = patches(&image, 4, 2).unwrap();
        assert_eq!(p.shape(), (4, 4));
        let rows: Vec<Vec<f64>> = p.row_iter().map(|r| r.iter().copied().collect()).collect();
        assert_eq!(
            rows,
            vec![
                vec![0.0, 1.0, 4.0, 5.0],
                vec![2.0, 3.0, 6.0, 7.0],
                vec![8.0, 9.0, 12.0, 13.0],
                vec![10.0, 11.0, 14.0, 15.0],
            ]
        );
        // p = 1: every pixel a token; p = side: one token of every pixel.
        assert_eq!(patches(&image, 4, 1).unwrap().shape(), (16, 1));
        assert_eq!(
            patches(&image, 4, 4)
                .unwrap()
                .row(0)
                .iter()
                .copied()
                .collect::<Vec<_>>(),
            image
        );
        // A p that does not divide the side, p = 0 or a wrong pixel count.
        assert_eq!(patches(&image, 4, 3), None);
        assert_eq!(patches(&image, 4, 0), None);
        assert_eq!(patches(&image[..15], 4, 2), None);
        assert_eq!(image_x(&image, 4, 3, 8), None);
    }

    #[test]
    fn positions_2d_halves_are_the_1d_encoding_of_row_and_column() {
        for d in [6, 7, 16] {
            let (rows, cols) = (3, 4);
            let pos = positions_2d(rows, cols, d);
            assert_eq!(pos.shape(), (12, d));
            let (by_row, by_col) = (sinusoidal(rows, d / 2), sinusoidal(cols, d - d / 2));
            for k in 0..rows * cols {
                for c in 0..d / 2 {
                    assert_eq!(pos[(k, c)], by_row[(k / cols, c)]);
                }
                for c in d / 2..d {
                    assert_eq!(pos[(k, c)], by_col[(k % cols, c - d / 2)]);
                }
            }
            // Patch 0 is at row 0, column 0: sin 0 = 0, cos 0 = 1.
            for c in 0..d {
                let want = if c < d / 2 { c % 2 } else { (c - d / 2) % 2 };
                assert_eq!(pos[(0, c)], want as f64);
            }
        }
    }

    #[test]
    fn image_tokens_are_projected_patches_plus_positions() {
        for (p, d) in [(2, 16), (4, 8), (1, 6)] {
            let x = image_x(&SEVEN, SIDE, p, d).unwrap();
            let g = SIDE / p;
            let want =
                patches(&SEVEN, SIDE, p).unwrap() * patch_projection(p, d) + positions_2d(g, g, d);
            assert_eq!(x.shape(), (g * g, d));
            assert!((x - want).abs().max() < 1e-12);
        }
        // The projection is fixed and of the stated spread (sd 1/p).
        assert_eq!(patch_projection(2, 16), patch_projection(2, 16));
        let w = patch_projection(4, 128);
        let var = w.iter().map(|v| v * v).sum::<f64>() / w.len() as f64;
        assert!((var - 1.0 / 16.0).abs() < 0.01, "{var}");
        // The samples are images: 0 … 1, with ink and background.
        for img in [SEVEN, ZERO] {
            assert!(img.iter().all(|v| (0.0..=1.0).contains(v)));
            assert!(img.contains(&1.0) && img.contains(&0.0));
        }
    }

    #[test]
    fn frames_every_ten_milliseconds() {
        assert_eq!((HOP, WINDOW, BINS), (80, 200, 101));
        assert_eq!(frame_count(8000), 100);
        assert_eq!(frame_count(4000), 50);
        assert_eq!(frame_count(79), 0);
        assert_eq!(signal(1.0).len(), 8000);
        assert_eq!(signal(0.37).len(), 2960);
        assert_eq!(band_energies(&signal(1.0), 8).shape(), (100, 8));
        assert_eq!(band_energies(&signal(0.37), 5).shape(), (37, 5));
        assert_eq!(audio_x(0.5, 8).shape(), (50, 8));
        assert_eq!(audio_x(2.0, 4).nrows(), 200);
        // Capped, and nothing for no time.
        assert_eq!(signal(10.0).len(), 16000);
        assert!(signal(0.0).is_empty() && signal(-1.0).is_empty() && signal(f64::NAN).is_empty());
        assert_eq!(band_energies(&[], 4).shape(), (0, 4));
        assert_eq!(audio_x(0.0, 4).shape(), (0, 4));
    }

    #[test]
    fn the_bands_split_the_bins_evenly_in_order() {
        for bands in [1, 2, 4, 8, 16, 101] {
            let of: Vec<usize> = (0..BINS).map(|b| band_of(b, bands)).collect();
            assert_eq!(of[0], 0);
            assert_eq!(of[BINS - 1], bands - 1);
            assert!(of.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
            let sizes: Vec<usize> = (0..bands)
                .map(|k| of.iter().filter(|&&o| o == k).count())
                .collect();
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "{sizes:?}");
        }
    }

    #[test]
    fn a_1khz_sine_is_loudest_in_the_band_of_1khz() {
        let sine: Vec<f64> = (0..SAMPLE_RATE)
            .map(|i| (TAU * 1000.0 * i as f64 / SAMPLE_RATE as f64).sin())
            .collect();
        // 1000 Hz is bin 25 (40 Hz a bin).
        for bands in [4, 8, 16, 32] {
            let e = band_energies(&sine, bands);
            let want = band_of(25, bands);
            for f in 0..e.nrows() - 3 {
                let loudest = (0..bands)
                    .max_by(|&a, &b| e[(f, a)].total_cmp(&e[(f, b)]))
                    .unwrap();
                assert_eq!(loudest, want, "bands {bands}, frame {f}");
            }
        }
        // Parseval for a full frame: Σ over all bins of |X_b|² counts each
        // non-zero frequency once; a unit sine times the Hann window has
        // energy Σ (w·x)² ≈ WINDOW · 3/8 · 1/2, and the rfft bins hold about
        // half of the full spectrum's.
        let total = band_energies(&sine, 1)[(10, 0)].exp() - FLOOR;
        let time: f64 = hann()
            .iter()
            .enumerate()
            .map(|(m, w)| {
                let v = w * sine[10 * HOP + m];
                v * v
            })
            .sum();
        assert!(
            (total / (time * WINDOW as f64 / 2.0) - 1.0).abs() < 0.05,
            "{total} {time}"
        );
    }

    #[test]
    fn the_signal_has_three_vowels_and_two_pauses_at_any_length() {
        for seconds in [0.5, 1.0, 2.0] {
            let s = signal(seconds);
            let n = s.len();
            assert!(s.iter().all(|v| v.abs() <= PEAK));
            let at = |r: f64| s[(r * n as f64) as usize];
            // Silent in the pauses, sounding in each vowel's middle.
            for pause in [0.30, 0.34, 0.66, 0.70] {
                assert_eq!(at(pause), 0.0, "{seconds} s at {pause}");
            }
            let e = band_energies(&s, 8);
            let frames = e.nrows();
            let frame = |r: f64| (r * frames as f64) as usize;
            for v in &VOWELS {
                let mid = frame((v.start + v.end) / 2.0);
                assert!(e.row(mid).max() > 0.0, "{seconds} s: /{}/", v.name);
            }
            let pause = frame(0.29);
            assert!(e.row(pause).max() < -13.0, "{seconds} s: the pause");
            // /i/ has energy above 2 kHz (its second formant), /u/ hardly.
            let high = |f: usize| (4..8).map(|c| e[(f, c)].exp()).sum::<f64>();
            let (i_mid, u_mid) = (frame(0.5), frame(0.86));
            assert!(high(i_mid) > 100.0 * high(u_mid), "{seconds} s");
        }
        // Each vowel's harmonics add up to the peak, below 4 kHz.
        for v in &VOWELS {
            let a = harmonics(v);
            assert!(close(a.iter().sum(), PEAK));
            assert!(a.len() as f64 * v.f0 < 4000.0);
        }
    }

    #[test]
    fn standardised_columns_have_mean_0_and_sd_1() {
        let e = band_energies(&signal(1.0), 6);
        let z = standardised(&e);
        for col in z.column_iter() {
            let mean = col.sum() / col.len() as f64;
            let var = col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / col.len() as f64;
            assert!(mean.abs() < 1e-12 && (var - 1.0).abs() < 1e-12);
        }
        // A constant column is only centred.
        let c = standardised(&Matrix::from_element(3, 1, 5.0));
        assert_eq!(c, Matrix::zeros(3, 1));
        let x = audio_x(1.0, 6);
        assert!((x - z - sinusoidal(100, 6)).abs().max() < 1e-12);
    }

    #[test]
    fn the_network_has_varied_friends_and_no_positions() {
        let g = friends_mask();
        let degrees: Vec<usize> = g
            .iter()
            .enumerate()
            .map(|(i, r)| r.iter().filter(|&&a| a).count() - usize::from(r[i]))
            .collect();
        assert_eq!(degrees, vec![3, 2, 2, 2, 4, 2, 2, 1]);
        assert_eq!(masks::edges(&g).len(), FRIENDS.len());
        assert_eq!(people_x(4).shape(), (8, 4));
        assert_eq!(people_x(2), Matrix::from_fn(8, 2, |i, c| TRAITS[i][c]));
        let wide = people_x(6);
        assert!(wide.columns(4, 2).iter().all(|&v| v == 0.0));
        assert_eq!(
            scenario(people_x(4), Some(g), 4).positional,
            Positional::None
        );
    }

    #[test]
    fn masked_pairs_get_exactly_zero_and_rows_sum_to_one() {
        let g = friends_mask();
        let local = weights(&scenario(people_x(4), Some(g.clone()), 4)).unwrap();
        let global = weights(&scenario(people_x(4), None, 4)).unwrap();
        for i in 0..PEOPLE.len() {
            for j in 0..PEOPLE.len() {
                if g[i][j] {
                    assert!(local[(i, j)] > 0.0);
                } else {
                    assert_eq!(local[(i, j)], 0.0, "{} → {}", PEOPLE[i], PEOPLE[j]);
                }
                assert!(global[(i, j)] > 0.0);
            }
            assert!(close(local.row(i).sum(), 1.0));
            assert!(close(global.row(i).sum(), 1.0));
        }
        // Hui, with one friend, shares attention between Eve and herself.
        assert!(close(local[(7, 4)] + local[(7, 7)], 1.0));
        assert_eq!(visible_pairs(&g), 8 + 2 * FRIENDS.len() as u64);
        assert_eq!(visible_pairs(&g), 26);
        assert_eq!(pairs(8), 64);
        assert_eq!(pairs(100), 10_000);
    }

    #[test]
    fn every_kind_gives_weights_whose_rows_sum_to_one() {
        let kinds = [
            image_x(&SEVEN, 8, 2, 16).unwrap(),
            image_x(&ZERO, 8, 1, 8).unwrap(),
            image_x(&ZERO, 8, 4, 8).unwrap(),
            audio_x(0.5, 8),
            audio_x(1.0, 8),
            audio_x(2.0, 16),
            people_x(4),
        ];
        for x in kinds {
            let (n, d) = x.shape();
            for d_k in [d, 2] {
                let w = weights(&scenario(x.clone(), None, d_k)).unwrap();
                assert_eq!(w.shape(), (n, n));
                for i in 0..n {
                    assert!(close(w.row(i).sum(), 1.0), "n {n}, row {i}");
                    assert!(w.row(i).iter().all(|&v| (0.0..=1.0).contains(&v)));
                }
            }
        }
    }

    #[test]
    fn past_the_engines_limit_the_same_steps_give_the_same_numbers() {
        // Up to MAX_N tokens both ways are available: they agree bit for bit.
        let window = masks::grid(&Mask::Window(3), 50);
        let cases = [
            scenario(audio_x(0.5, 8), None, 8),
            scenario(audio_x(0.5, 8), Some(window), 3),
            scenario(image_x(&SEVEN, 8, 1, 12).unwrap(), None, 12),
            scenario(people_x(4), Some(friends_mask()), 4),
            Scenario {
                scale: false,
                ..scenario(people_x(5), None, 3)
            },
        ];
        for s in &cases {
            let engine = compute(s).unwrap().heads.remove(0).weights;
            assert_eq!(long_weights(s).unwrap(), engine);
            assert_eq!(weights(s).unwrap(), engine);
        }
        // 100 frames: the engine refuses, the weights are still there.
        let long = scenario(audio_x(1.0, 8), None, 8);
        assert!(long.n() > MAX_N && compute(&long).is_err());
        assert_eq!(weights(&long).unwrap().shape(), (100, 100));
        // What does not fit is refused, not guessed at.
        let mut odd = long.clone();
        odd.positional = Positional::Sinusoidal;
        assert_eq!(weights(&odd), None);
        odd = long.clone();
        odd.mask = Mask::Custom(vec![vec![true; 3]; 3]);
        assert_eq!(weights(&odd), None);
        odd = long.clone();
        odd.x[(0, 0)] = f64::INFINITY;
        assert_eq!(weights(&odd), None);
        assert_eq!(weights(&scenario(Matrix::zeros(0, 0), None, 1)), None);
    }

    #[test]
    fn frames_of_one_vowel_attend_to_that_vowel() {
        // With W_Q = W_K = I, a frame in the middle of /a/ gives most of its
        // attention to frames of /a/ (which are 28 % of the frames), and
        // likewise for /i/ and /u/, with 16 bands at 1 s and 2 s. (With 4
        // bands /a/ and /u/, both loud below 1 kHz, blur together.)
        for seconds in [1.0, 2.0] {
            let w = weights(&scenario(audio_x(seconds, BANDS), None, BANDS)).unwrap();
            let frames = w.nrows();
            for v in &VOWELS {
                let r = (v.start * frames as f64).ceil() as usize..(v.end * frames as f64) as usize;
                let mid = (r.start + r.end) / 2;
                let inside: f64 = r.clone().map(|j| w[(mid, j)]).sum();
                assert!(inside > 0.5, "{seconds} s, /{}/: {inside}", v.name);
            }
        }
    }

    #[test]
    fn inked_patches_attend_to_ink() {
        // A patch is "inked" when its mean pixel is at least 0.15. Inked
        // patches give ink more attention than its share of the patches,
        // and more than blank patches give it.
        for img in DIGITS {
            for p in [1, 2] {
                let x = image_x(&img, SIDE, p, D_MODEL).unwrap();
                let w = weights(&scenario(x, None, D_MODEL)).unwrap();
                let flat = patches(&img, SIDE, p).unwrap();
                let ink: Vec<bool> = flat.row_iter().map(|r| r.mean() >= 0.15).collect();
                let n = ink.len();
                let to_ink = |i: usize| (0..n).filter(|&j| ink[j]).map(|j| w[(i, j)]).sum::<f64>();
                let mean = |inked: bool| {
                    let q: Vec<usize> = (0..n).filter(|&i| ink[i] == inked).collect();
                    q.iter().map(|&i| to_ink(i)).sum::<f64>() / q.len() as f64
                };
                let share = ink.iter().filter(|&&b| b).count() as f64 / n as f64;
                let (on, off) = (mean(true), mean(false));
                assert!(
                    on > share && on > off,
                    "p {p}: {on} vs share {share}, blank {off}"
                );
            }
        }
    }
}
