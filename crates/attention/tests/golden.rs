#![cfg(not(target_arch = "wasm32"))]
//! Golden values for the attention engine (docs/format.md §1, §2).
//!
//! Every reference number below was derived independently of the engine:
//! either by hand (closed forms written next to them) or with a short python3
//! script using `mpmath` at 60 significant digits (its own matmul, exp,
//! softmax, sin, cos), then rounded once to the nearest f64 with `repr(float(.))`.
//! None of them was obtained by running the engine and copying its output.

use attention::{
    compute, matmul, sinusoidal, softmax_masked, HeadWeights, Mask, Matrix, Positional, Results,
    Scenario, ScenarioError, Trace, FORMAT,
};
mod common;
use common::notes_004;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// helpers

fn m<const C: usize>(rows: &[[f64; C]]) -> Matrix {
    Matrix::from_fn(rows.len(), C, |r, c| rows[r][c])
}

fn head(w_q: Matrix, w_k: Matrix, w_v: Matrix) -> HeadWeights {
    HeadWeights { w_q, w_k, w_v }
}

/// My own `x1 … xn` (docs/format.md §1 default), not the engine's.
fn labels(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("x{i}")).collect()
}

fn scenario(x: Matrix, heads: Vec<HeadWeights>) -> Scenario {
    Scenario {
        format: FORMAT.to_string(),
        tokens: labels(x.nrows()),
        x,
        heads,
        w_o: None,
        scale: false,
        mask: Mask::None,
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}

fn run(s: &Scenario) -> Trace {
    compute(s).unwrap_or_else(|e| panic!("valid scenario refused: {e}"))
}

/// `|actual − expected| ≤ rel·|expected|` entry by entry (so an expected 0
/// must be matched exactly).
#[track_caller]
fn assert_close<const C: usize>(what: &str, actual: &Matrix, expected: &[[f64; C]], rel: f64) {
    assert_eq!(
        (actual.nrows(), actual.ncols()),
        (expected.len(), C),
        "{what}: shape"
    );
    for (i, row) in expected.iter().enumerate() {
        for (j, &e) in row.iter().enumerate() {
            let a = actual[(i, j)];
            assert!(
                (a - e).abs() <= rel * e.abs(),
                "{what}[{i}][{j}] = {a:e}, expected {e:e} (relative tolerance {rel:e})"
            );
        }
    }
}

/// Exact equality, entry by entry.
#[track_caller]
fn assert_exact<const C: usize>(what: &str, actual: &Matrix, expected: &[[f64; C]]) {
    assert_close(what, actual, expected, 0.0);
}

// ---------------------------------------------------------------------------
// note 004 (seeds/004): x, W_key, W_query, W_value as printed in the note.

/// The note's printed intermediates (exact small integers, by hand:
/// e.g. key 2 = [0,2,0,2]·W_key = [0+2+0+2, 0+2+0+2, 0] = [4,4,0];
/// score(2,2) = q2·k2 = [2,2,2]·[4,4,0] = 16).
const NOTE_KEYS: [[f64; 3]; 3] = [[0., 1., 1.], [4., 4., 0.], [2., 3., 1.]];
const NOTE_QUERIES: [[f64; 3]; 3] = [[1., 0., 2.], [2., 2., 2.], [2., 1., 3.]];
const NOTE_VALUES: [[f64; 3]; 3] = [[1., 2., 3.], [2., 8., 0.], [2., 6., 3.]];
const NOTE_SCORES: [[f64; 3]; 3] = [[2., 4., 4.], [4., 16., 12.], [4., 12., 10.]];

/// softmax of each score row, mpmath at 60 digits:
/// row 1 = [e², e⁴, e⁴]/(e² + 2e⁴), row 2 = [e⁴, e¹⁶, e¹²]/Σ, row 3 = [e⁴, e¹², e¹⁰]/Σ.
const NOTE_WEIGHTS: [[f64; 3]; 3] = [
    [0.06337893833303762, 0.4683105308334812, 0.4683105308334812],
    [
        6.033664854558337e-06,
        0.9820078648958168,
        0.017986101439328644,
    ],
    [
        0.00029538722303456454,
        0.8805369017749616,
        0.11916771100200384,
    ],
];

/// weights · values, mpmath at 60 digits. Row 1 by hand: first entry is
/// w₁·1 + w₂·2 + w₃·2 = 2 − w₁ = 1.93662…
const NOTE_OUTPUTS: [[f64; 3]; 3] = [
    [1.9366210616669624, 6.683105308334812, 1.5950684074995565],
    [1.9999939663351454, 7.9639915951322156, 0.0539764053125496],
    [1.9997046127769655, 7.759892254657785, 0.3583892946751152],
];

#[test]
fn note_004_keys_queries_values_and_scores_are_exact() {
    let s = notes_004();
    assert_eq!(s.n(), 3);
    assert!(!s.scale, "the note applies softmax to QKᵀ directly");
    let t = run(&s);
    assert_eq!(t.heads.len(), 1);
    let h = &t.heads[0];
    assert_exact("k", &h.k, &NOTE_KEYS);
    assert_exact("q", &h.q, &NOTE_QUERIES);
    assert_exact("v", &h.v, &NOTE_VALUES);
    assert_exact("scores", &h.scores, &NOTE_SCORES);
    // scale is off: scaled is the scores themselves, divisor 1.
    assert_exact("scaled", &h.scaled, &NOTE_SCORES);
    assert_eq!(t.divisor, 1.0);
    assert!(t.undefined_rows.is_empty());
    assert!(!t.masked);
}

#[test]
fn note_004_softmax_matches_the_printed_values() {
    // Copied from the note (torch float32, printed with 5 significant digits).
    let printed = [
        ["6.3379e-02", "4.6831e-01", "4.6831e-01"],
        ["6.0337e-06", "9.8201e-01", "1.7986e-02"],
        ["2.9539e-04", "8.8054e-01", "1.1917e-01"],
    ];
    let t = run(&notes_004());
    let w = &t.heads[0].weights;
    for (i, row) in printed.iter().enumerate() {
        for (j, text) in row.iter().enumerate() {
            let p: f64 = text.parse().unwrap();
            let exponent: i32 = text.split('e').nth(1).unwrap().parse().unwrap();
            // Half a unit in the last printed digit.
            let half_unit = 0.5 * 10f64.powi(exponent - 4);
            assert!(
                (w[(i, j)] - p).abs() <= half_unit * 1.000_001,
                "weights[{i}][{j}] = {:e} does not print as {text}",
                w[(i, j)]
            );
        }
    }
    assert_close("weights", w, &NOTE_WEIGHTS, 1e-14);
}

#[test]
fn note_004_outputs_at_full_precision() {
    let t = run(&notes_004());
    assert_close("head output", &t.heads[0].output, &NOTE_OUTPUTS, 1e-12);
    assert_close("concat", &t.concat, &NOTE_OUTPUTS, 1e-12);
    assert_close("output", &t.output, &NOTE_OUTPUTS, 1e-12);
}

#[test]
fn note_004_full_precision_outputs_differ_from_the_notes_rounded_outputs() {
    // The note rounds the softmax to [[0,.5,.5],[0,1,0],[0,.9,.1]] and prints
    // these outputs; multiplying its rounded weights by its values gives them
    // back (by hand: 0.9·[2,8,0] + 0.1·[2,6,3] = [2, 7.8, 0.3]).
    let rounded_outputs = [[2.0, 7.0, 1.5], [2.0, 8.0, 0.0], [2.0, 7.8, 0.3]];
    let rounded_weights = m(&[[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]]);
    assert_close(
        "rounded weights · values",
        &matmul(&rounded_weights, &m(&NOTE_VALUES)),
        &rounded_outputs,
        1e-15,
    );
    // The exact outputs are not those: each row is off by more than 0.03 somewhere
    // (1.9366 vs 2, 7.9640 vs 8 / 0.0540 vs 0, 0.3584 vs 0.3).
    let t = run(&notes_004());
    for (i, row) in rounded_outputs.iter().enumerate() {
        let gap = (0..3)
            .map(|j| (t.output[(i, j)] - row[j]).abs())
            .fold(0.0, f64::max);
        assert!(
            gap > 0.03,
            "row {i}: exact output is within {gap} of the rounded one"
        );
    }
}

#[test]
fn note_004_with_scaling_divides_by_sqrt_3() {
    let mut s = notes_004();
    s.scale = true;
    let t = run(&s);
    // √3 = 1.7320508075688772 (mpmath); scaled = scores/√3 (mpmath).
    assert!((t.divisor - 1.7320508075688772).abs() <= 1e-16 * 2.0);
    let h = &t.heads[0];
    assert_exact("scores", &h.scores, &NOTE_SCORES);
    assert_close(
        "scaled",
        &h.scaled,
        &[
            [1.1547005383792515, 2.309401076758503, 2.309401076758503],
            [2.309401076758503, 9.237604307034012, 6.928203230275509],
            [2.309401076758503, 6.928203230275509, 5.773502691896257],
        ],
        1e-15,
    );
    assert_close(
        "weights",
        &h.weights,
        &[
            [0.13612579755693346, 0.4319371012215333, 0.4319371012215333],
            [
                0.0008904473906323336,
                0.9088426472149934,
                0.09026690539437421,
            ],
            [
                0.007444892377073966,
                0.7547075806414643,
                0.23784752698146175,
            ],
        ],
        1e-13,
    );
    assert_close(
        "output",
        &t.output,
        &[
            [1.8638742024430666, 6.319371012215333, 1.7041886963354003],
            [1.9991095526093676, 7.8141235048674575, 0.27347205835501964],
            [1.992555107622926, 7.479635591774633, 0.7358772580756072],
        ],
        1e-12,
    );
}

// ---------------------------------------------------------------------------
// masks, on a 4-token example with identity projections:
// x = [[1,0],[0,1],[1,1],[2,0]], W_Q = W_K = W_V = I₂, no scaling, so
// Q = K = V = x and scores = x·xᵀ (by hand):
//   [[1,0,1,2],[0,1,1,0],[1,1,2,2],[2,0,2,4]].
// Weights: softmax of each row over the allowed keys (closed forms below),
// evaluated with mpmath; outputs = weights · x (mpmath).

const MASK_SCORES: [[f64; 4]; 4] = [
    [1., 0., 1., 2.],
    [0., 1., 1., 0.],
    [1., 1., 2., 2.],
    [2., 0., 2., 4.],
];

fn mask_case(mask: Mask) -> Trace {
    let i2 = m(&[[1., 0.], [0., 1.]]);
    let mut s = scenario(
        m(&[[1., 0.], [0., 1.], [1., 1.], [2., 0.]]),
        vec![head(i2.clone(), i2.clone(), i2)],
    );
    s.mask = mask;
    let t = run(&s);
    assert_exact("scores", &t.heads[0].scores, &MASK_SCORES);
    t
}

#[track_caller]
fn assert_allowed<const N: usize>(t: &Trace, expected: [[u8; N]; N]) {
    assert_eq!((t.allowed.nrows(), t.allowed.ncols()), (N, N));
    for (i, row) in expected.iter().enumerate() {
        for (j, &e) in row.iter().enumerate() {
            assert_eq!(t.allowed[(i, j)], e == 1, "allowed[{i}][{j}]");
        }
    }
}

#[test]
fn mask_none_hand_derived() {
    let t = mask_case(Mask::None);
    assert_allowed(&t, [[1; 4]; 4]);
    assert!(!t.masked);
    assert!(t.undefined_rows.is_empty());
    // row 1: [e,1,e,e²]/(1+2e+e²) ; row 2: [1,e,e,1]/(2+2e) ;
    // row 3: [e,e,e²,e²]/(2e+2e²) ; row 4: [e²,1,e²,e⁴]/(1+2e²+e⁴).
    assert_close(
        "weights",
        &t.heads[0].weights,
        &[
            [
                0.19661193324148185,
                0.07232948812851327,
                0.19661193324148185,
                0.534446645388523,
            ],
            [
                0.13447071068499755,
                0.36552928931500245,
                0.36552928931500245,
                0.13447071068499755,
            ],
            [
                0.13447071068499755,
                0.13447071068499755,
                0.36552928931500245,
                0.36552928931500245,
            ],
            [
                0.10499358540350652,
                0.014209336618611039,
                0.10499358540350652,
                0.775803492574376,
            ],
        ],
        1e-14,
    );
    assert_close(
        "output",
        &t.output,
        &[
            [1.4621171572600098, 0.2689414213699951],
            [0.7689414213699951, 0.7310585786300049],
            [1.2310585786300048, 0.5],
            [1.7615941559557649, 0.11920292202211756],
        ],
        1e-13,
    );
}

#[test]
fn mask_causal_hand_derived() {
    let t = mask_case(Mask::Causal);
    assert_allowed(&t, [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]);
    assert!(t.masked);
    assert!(t.undefined_rows.is_empty());
    // row 1: [1] ; row 2: [1,e]/(1+e) ; row 3: [e,e,e²]/(2e+e²) ; row 4: as unmasked.
    assert_close(
        "weights",
        &t.heads[0].weights,
        &[
            [1.0, 0.0, 0.0, 0.0],
            [0.2689414213699951, 0.7310585786300049, 0.0, 0.0],
            [
                0.21194155761708544,
                0.21194155761708544,
                0.5761168847658291,
                0.0,
            ],
            [
                0.10499358540350652,
                0.014209336618611039,
                0.10499358540350652,
                0.775803492574376,
            ],
        ],
        1e-14,
    );
    assert_close(
        "output",
        &t.output,
        &[
            [1.0, 0.0],
            [0.2689414213699951, 0.7310585786300049],
            [0.7880584423829146, 0.7880584423829146],
            [1.7615941559557649, 0.11920292202211756],
        ],
        1e-13,
    );
}

#[test]
fn mask_padding_hand_derived() {
    let t = mask_case(Mask::Padding(2));
    assert_allowed(&t, [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0]]);
    assert!(t.masked);
    assert!(t.undefined_rows.is_empty());
    // only keys 0,1: row 1 [e,1]/(1+e) ; row 2 [1,e]/(1+e) ; row 3 [e,e]/2e = ½ each ;
    // row 4 [e²,1]/(1+e²).
    let w = [
        [0.7310585786300049, 0.2689414213699951, 0.0, 0.0],
        [0.2689414213699951, 0.7310585786300049, 0.0, 0.0],
        [0.5, 0.5, 0.0, 0.0],
        [0.8807970779778824, 0.11920292202211756, 0.0, 0.0],
    ];
    assert_close("weights", &t.heads[0].weights, &w, 1e-14);
    assert_close(
        "output",
        &t.output,
        &[
            [0.7310585786300049, 0.2689414213699951],
            [0.2689414213699951, 0.7310585786300049],
            [0.5, 0.5],
            [0.8807970779778824, 0.11920292202211756],
        ],
        1e-13,
    );
    // padding = n hides nothing.
    let t = mask_case(Mask::Padding(4));
    assert_allowed(&t, [[1; 4]; 4]);
    assert!(!t.masked);
}

#[test]
fn mask_window_hand_derived() {
    let t = mask_case(Mask::Window(1));
    assert_allowed(&t, [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]);
    assert!(t.masked);
    // row 1 [e,1]/(1+e) ; row 2 [1,e,e]/(1+2e) ; row 3 [e,e²,e²]/(e+2e²) ; row 4 [e²,e⁴]/(e²+e⁴).
    assert_close(
        "weights",
        &t.heads[0].weights,
        &[
            [0.7310585786300049, 0.2689414213699951, 0.0, 0.0],
            [
                0.15536240349696362,
                0.4223187982515182,
                0.4223187982515182,
                0.0,
            ],
            [
                0.0,
                0.15536240349696362,
                0.4223187982515182,
                0.4223187982515182,
            ],
            [0.0, 0.0, 0.11920292202211756, 0.8807970779778824],
        ],
        1e-14,
    );
    assert_close(
        "output",
        &t.output,
        &[
            [0.7310585786300049, 0.2689414213699951],
            [0.5776812017484818, 0.8446375965030364],
            [1.2669563947545546, 0.5776812017484818],
            [1.8807970779778824, 0.11920292202211756],
        ],
        1e-13,
    );
    // window 0 = only itself: weights are the identity, output = x.
    let t = mask_case(Mask::Window(0));
    assert_exact(
        "window 0 weights",
        &t.heads[0].weights,
        &[
            [1., 0., 0., 0.],
            [0., 1., 0., 0.],
            [0., 0., 1., 0.],
            [0., 0., 0., 1.],
        ],
    );
    assert_exact(
        "window 0 output",
        &t.output,
        &[[1., 0.], [0., 1.], [1., 1.], [2., 0.]],
    );
    // window n−1 hides nothing.
    assert!(!mask_case(Mask::Window(3)).masked);
}

#[test]
fn mask_custom_hand_derived() {
    let b = |r: [u8; 4]| r.iter().map(|&v| v == 1).collect::<Vec<bool>>();
    let rows = [[0, 1, 0, 1], [1, 0, 0, 0], [0, 1, 1, 1], [1, 0, 0, 0]];
    let t = mask_case(Mask::Custom(rows.iter().map(|&r| b(r)).collect()));
    assert_allowed(&t, rows);
    assert!(t.masked);
    assert!(t.undefined_rows.is_empty());
    // row 1 keys {1,3}: [1,e²]/(1+e²) ; row 2 key {0}: [1] ;
    // row 3 keys {1,2,3}: [e,e²,e²]/(e+2e²) ; row 4 key {0}: [1].
    assert_close(
        "weights",
        &t.heads[0].weights,
        &[
            [0.0, 0.11920292202211756, 0.0, 0.8807970779778824],
            [1.0, 0.0, 0.0, 0.0],
            [
                0.0,
                0.15536240349696362,
                0.4223187982515182,
                0.4223187982515182,
            ],
            [1.0, 0.0, 0.0, 0.0],
        ],
        1e-14,
    );
    assert_close(
        "output",
        &t.output,
        &[
            [1.7615941559557649, 0.11920292202211756],
            [1.0, 0.0],
            [1.2669563947545546, 0.5776812017484818],
            [1.0, 0.0],
        ],
        1e-13,
    );
}

// ---------------------------------------------------------------------------
// scaling

#[test]
fn scaling_on_divides_scores_by_sqrt_dk_before_softmax() {
    let i2 = m(&[[1., 0.], [0., 1.]]);
    let mut s = scenario(
        m(&[[1., 0.], [0., 1.], [1., 1.], [2., 0.]]),
        vec![head(i2.clone(), i2.clone(), i2)],
    );
    s.scale = true;
    let t = run(&s);
    // d_k = 2: divisor √2 = 1.4142135623730951; 1/√2 = 0.7071067811865476,
    // 2/√2 = 1.4142135623730951, 4/√2 = 2.8284271247461903 (mpmath; the first
    // two are also std's SQRT_2 and FRAC_1_SQRT_2, the third is 2·SQRT_2 exactly).
    use std::f64::consts::{FRAC_1_SQRT_2, SQRT_2};
    assert!((t.divisor - SQRT_2).abs() <= 2.3e-16);
    let (a, b, c) = (FRAC_1_SQRT_2, SQRT_2, 2.0 * SQRT_2);
    assert_exact("scores", &t.heads[0].scores, &MASK_SCORES);
    assert_close(
        "scaled",
        &t.heads[0].scaled,
        &[[a, 0., a, b], [0., a, a, 0.], [a, a, b, b], [b, 0., b, c]],
        2.3e-16,
    );
    // softmax of the scaled rows (mpmath): row 2 = [1,e^{1/√2},e^{1/√2},1]/(2+2e^{1/√2}).
    assert_close(
        "weights",
        &t.heads[0].weights,
        &[
            [
                0.22118101637021303,
                0.10905743430313004,
                0.22118101637021303,
                0.4485805329564439,
            ],
            [
                0.16511922533667153,
                0.33488077466332844,
                0.33488077466332844,
                0.16511922533667153,
            ],
            [
                0.16511922533667153,
                0.16511922533667153,
                0.33488077466332844,
                0.33488077466332844,
            ],
            [
                0.15732256840871342,
                0.03824774908432968,
                0.15732256840871342,
                0.6471071140982435,
            ],
        ],
        1e-14,
    );
    assert_close(
        "output",
        &t.output,
        &[
            [1.3395230986533138, 0.33023845067334306],
            [0.8302384506733431, 0.6697615493266569],
            [1.1697615493266569, 0.5],
            [1.6088593650139138, 0.1955703174930431],
        ],
        1e-13,
    );
}

#[test]
fn scaling_with_dk_4_halves_the_scores_exactly() {
    // x = [[1,2,3,4],[0,0,0,1]], W_Q = W_K = I₄: scores = x·xᵀ = [[30,4],[4,1]] by hand,
    // divisor √4 = 2 exactly, scaled = [[15,2],[2,0.5]]. Off: scaled = scores.
    let i4 = Matrix::identity(4, 4);
    let mut s = scenario(
        m(&[[1., 2., 3., 4.], [0., 0., 0., 1.]]),
        vec![head(i4.clone(), i4.clone(), i4)],
    );
    s.scale = true;
    let t = run(&s);
    assert_eq!(t.divisor, 2.0);
    assert_exact("scores", &t.heads[0].scores, &[[30., 4.], [4., 1.]]);
    assert_exact("scaled", &t.heads[0].scaled, &[[15., 2.], [2., 0.5]]);
    s.scale = false;
    let t = run(&s);
    assert_eq!(t.divisor, 1.0);
    assert_exact("scaled (off)", &t.heads[0].scaled, &[[30., 4.], [4., 1.]]);
    // row 2 unscaled: [e⁴, e]/(e⁴+e) = [0.9525741268224333, 0.04742587317756678] (mpmath).
    assert_close(
        "weights (off) row 2",
        &t.heads[0].weights.select_rows(&[1]),
        &[[0.9525741268224333, 0.04742587317756678]],
        1e-14,
    );
}

// ---------------------------------------------------------------------------
// sinusoidal positional encoding: PE(p,2k) = sin(p/10000^(2k/d)), PE(p,2k+1) = cos(same)

/// mpmath: d_model = 4, p = 0,1,2. Angles p and p/100 (10000^(2/4) = 100).
const PE_3X4: [[f64; 4]; 3] = [
    [0.0, 1.0, 0.0, 1.0],
    [
        0.8414709848078965,   // sin 1
        0.5403023058681398,   // cos 1
        0.009999833334166664, // sin 0.01
        0.9999500004166653,   // cos 0.01
    ],
    [
        0.9092974268256817,
        -0.4161468365471424,
        0.01999866669333308,
        0.9998000066665778,
    ],
];

#[test]
fn sinusoidal_values_match_the_formula() {
    assert_close("pe 3×4", &sinusoidal(3, 4), &PE_3X4, 1e-15);
    // d_model = 3 (odd): the last column is sin(p / 10000^(2/3)) = sin(p/464.1588833612779).
    assert_close(
        "pe 3×3",
        &sinusoidal(3, 3),
        &[
            [0.0, 1.0, 0.0],
            [0.8414709848078965, 0.5403023058681398, 0.002154433023365604],
            [
                0.9092974268256817,
                -0.4161468365471424,
                0.004308856046742812,
            ],
        ],
        1e-15,
    );
    assert_close(
        "pe 2×1",
        &sinusoidal(2, 1),
        &[[0.0], [0.8414709848078965]],
        1e-15,
    );
}

#[test]
fn positional_encoding_is_added_to_x_before_the_projections() {
    // x = 1 everywhere, W_V = I₄: input = x + PE, and V = input.
    let i4 = Matrix::identity(4, 4);
    let mut s = scenario(
        Matrix::from_element(3, 4, 1.0),
        vec![head(i4.clone(), i4.clone(), i4)],
    );
    s.positional = Positional::Sinusoidal;
    let t = run(&s);
    let pe = t.pe.as_ref().expect("pe is reported when sinusoidal");
    assert_close("trace.pe", pe, &PE_3X4, 1e-15);
    let plus_one = PE_3X4.map(|r| r.map(|v| v + 1.0));
    assert_close("input", &t.input, &plus_one, 1e-15);
    assert_close("v", &t.heads[0].v, &plus_one, 1e-15);
    // Positional none: no pe, input = x.
    s.positional = Positional::None;
    let t = run(&s);
    assert!(t.pe.is_none());
    assert_exact("input", &t.input, &[[1.0; 4]; 3]);
}

#[test]
fn positional_encoding_tells_identical_tokens_apart() {
    // Two identical tokens: without positions their outputs are identical;
    // with sinusoidal positions they are not.
    let i2 = m(&[[1., 0.], [0., 1.]]);
    let mut s = scenario(
        m(&[[1., 2.], [1., 2.], [0., 1.]]),
        vec![head(i2.clone(), i2.clone(), i2)],
    );
    let t = run(&s);
    assert_eq!(t.output.row(0), t.output.row(1));
    s.positional = Positional::Sinusoidal;
    let t = run(&s);
    assert!((t.output[(0, 0)] - t.output[(1, 0)]).abs() > 1e-3);
}

// ---------------------------------------------------------------------------
// several heads, concat, W_O

/// Two heads, causal, W_Q = 0 so every score is 0 and each query averages the
/// values it may see (by hand, exact in binary):
/// x = [[1,2],[3,4]]; head 1 W_V = I → V₁ = x; head 2 W_V = swap → V₂ = [[2,1],[4,3]].
/// head 1 output = [[1,2],[2,3]], head 2 output = [[2,1],[3,2]],
/// concat = [[1,2,2,1],[2,3,3,2]] (head 1 columns first).
fn two_uniform_heads() -> Scenario {
    let zero = Matrix::zeros(2, 2);
    let mut s = scenario(
        m(&[[1., 2.], [3., 4.]]),
        vec![
            head(
                zero.clone(),
                m(&[[5., -1.], [2., 7.]]),
                m(&[[1., 0.], [0., 1.]]),
            ),
            head(zero, m(&[[-3., 1.], [1., 1.]]), m(&[[0., 1.], [1., 0.]])),
        ],
    );
    s.mask = Mask::Causal;
    s
}

#[test]
fn two_heads_concat_in_head_order_then_w_o() {
    let mut s = two_uniform_heads();
    // W_O (4×3): output = concat·W_O; row 1 = [1,2,2]+[1,1,1] = [2,3,3],
    // row 2 = [2,3,3]+[2,2,2] = [4,5,5] (by hand).
    s.w_o = Some(m(&[[1., 0., 0.], [0., 1., 0.], [0., 0., 1.], [1., 1., 1.]]));
    let t = run(&s);
    assert_exact(
        "head 1 weights",
        &t.heads[0].weights,
        &[[1., 0.], [0.5, 0.5]],
    );
    assert_exact("head 1 output", &t.heads[0].output, &[[1., 2.], [2., 3.]]);
    assert_exact("head 2 output", &t.heads[1].output, &[[2., 1.], [3., 2.]]);
    assert_exact("concat", &t.concat, &[[1., 2., 2., 1.], [2., 3., 3., 2.]]);
    assert_exact("output", &t.output, &[[2., 3., 3.], [4., 5., 5.]]);
}

#[test]
fn without_w_o_output_is_concat() {
    let s = two_uniform_heads();
    assert!(s.w_o.is_none());
    let t = run(&s);
    assert_exact("output", &t.output, &[[1., 2., 2., 1.], [2., 3., 3., 2.]]);
    assert_eq!(t.output, t.concat);
}

#[test]
fn two_scaled_heads_with_w_o_on_the_note_inputs() {
    // head 1 = the note's projections; head 2 below; scale on (√3); W_O 6×2.
    // Everything recomputed with mpmath (its own matmul and softmax).
    let mut s = notes_004();
    s.scale = true;
    s.heads.push(head(
        m(&[[1., 1., 0.], [0., 1., 0.], [0., 0., 1.], [1., 0., 0.]]),
        m(&[[0., 1., 0.], [1., 0., 0.], [0., 0., 1.], [0., 0., -1.]]),
        m(&[[1., 0., 0.], [0., 0., 1.], [0., 1., 0.], [-1., 0., 0.]]),
    ));
    s.w_o = Some(m(&[
        [1., 0.],
        [0., 1.],
        [1., 1.],
        [-1., 0.],
        [0., -1.],
        [2., -1.],
    ]));
    let t = run(&s);
    let h2 = &t.heads[1];
    // by hand: Q₂ = x·W_Q₂, K₂ = x·W_K₂, scores₂ = Q₂K₂ᵀ.
    assert_exact("q2", &h2.q, &[[1., 1., 1.], [2., 2., 0.], [2., 2., 1.]]);
    assert_exact("k2", &h2.k, &[[0., 1., 1.], [2., 0., -2.], [1., 1., 0.]]);
    assert_exact("v2", &h2.v, &[[1., 1., 0.], [-2., 0., 2.], [0., 1., 1.]]);
    assert_exact(
        "scores2",
        &h2.scores,
        &[[2., 0., 2.], [2., 4., 4.], [3., 2., 4.]],
    );
    assert_close(
        "weights2",
        &h2.weights,
        &[
            [0.4319371012215333, 0.13612579755693346, 0.4319371012215333],
            [0.13612579755693346, 0.4319371012215333, 0.4319371012215333],
            [0.29915971231034777, 0.16794345014774442, 0.5328968375419078],
        ],
        1e-13,
    );
    assert_close(
        "concat",
        &t.concat,
        &[
            [
                1.8638742024430666,
                6.319371012215333,
                1.7041886963354003,
                0.1596855061076663,
                0.8638742024430666,
                0.7041886963354003,
            ],
            [
                1.9991095526093676,
                7.8141235048674575,
                0.27347205835501964,
                -0.727748404886133,
                0.5680628987784667,
                1.2958113036645997,
            ],
            [
                1.992555107622926,
                7.479635591774633,
                0.7358772580756072,
                -0.03672718798514107,
                0.8320565498522555,
                0.8687837378373966,
            ],
        ],
        1e-12,
    );
    assert_close(
        "output",
        &t.output,
        &[
            [4.816754785341601, 6.455496809772266],
            [5.59195262317972, 6.223721360779411],
            [4.502727029358468, 6.514672562160587],
        ],
        1e-12,
    );
}

#[test]
fn matmul_by_hand() {
    // [[1,2,3],[4,5,6]]·[[7,8],[9,10],[11,12]] = [[58,64],[139,154]].
    let p = matmul(
        &m(&[[1., 2., 3.], [4., 5., 6.]]),
        &m(&[[7., 8.], [9., 10.], [11., 12.]]),
    );
    assert_exact("product", &p, &[[58., 64.], [139., 154.]]);
}

// ---------------------------------------------------------------------------
// undefined rows

#[test]
fn padding_zero_leaves_every_row_undefined_without_panicking() {
    let mut s = notes_004();
    s.mask = Mask::Padding(0);
    let t = run(&s);
    assert_eq!(t.undefined_rows, vec![0, 1, 2]);
    assert!(t.allowed.iter().all(|a| !a));
    assert!(t.heads[0].weights.iter().all(|w| w.is_nan()));
    assert!(t.heads[0].output.iter().all(|w| w.is_nan()));
    assert!(t.output.iter().all(|w| w.is_nan()));
    // scores are still computed.
    assert_exact("scores", &t.heads[0].scores, &NOTE_SCORES);
}

fn one_blind_row() -> Scenario {
    let mut s = notes_004();
    s.mask = Mask::Custom(vec![
        vec![true, true, true],
        vec![false, false, false],
        vec![true, false, true],
    ]);
    s
}

#[test]
fn custom_row_of_false_is_undefined_and_other_rows_are_fine() {
    let t = run(&one_blind_row());
    assert_eq!(t.undefined_rows, vec![1]);
    let w = &t.heads[0].weights;
    assert!(w.row(1).iter().all(|v| v.is_nan()));
    assert!(t.heads[0].output.row(1).iter().all(|v| v.is_nan()));
    assert!(t.output.row(1).iter().all(|v| v.is_nan()));
    // Row 0 unmasked: the note's weights. Row 2 keys {0,2}: [e⁴, 0, e¹⁰]/(e⁴+e¹⁰)
    // = [0.0024726231566347743, 0, 0.9975273768433652] (mpmath);
    // output = 1·w₀·[1,2,3] + w₂·[2,6,3] (mpmath).
    assert_close("row 0", &w.select_rows(&[0]), &[NOTE_WEIGHTS[0]], 1e-14);
    assert_close(
        "row 2",
        &w.select_rows(&[2]),
        &[[0.0024726231566347743, 0.0, 0.9975273768433652]],
        1e-14,
    );
    assert_close(
        "output rows 0, 2",
        &t.output.select_rows(&[0, 2]),
        &[
            NOTE_OUTPUTS[0],
            [1.9975273768433652, 5.990109507373461, 3.0],
        ],
        1e-13,
    );
}

#[test]
fn results_json_writes_null_for_an_undefined_row() {
    let mut s = one_blind_row();
    s.w_o = Some(Matrix::identity(3, 2));
    let t = run(&s);
    let doc: Value = serde_json::from_str(&Results::from_trace(&t).to_json()).unwrap();
    assert_eq!(doc["format"], "attention-lab-results/1");
    assert_eq!(doc["undefined_rows"], json!([1]));
    let h = &doc["heads"][0];
    for name in ["weights", "head_output"] {
        assert_eq!(h[name][1], json!([null, null, null]), "heads[0].{name}[1]");
        assert!(h[name][0].as_array().unwrap().iter().all(Value::is_number));
        assert!(h[name][2].as_array().unwrap().iter().all(Value::is_number));
    }
    assert_eq!(doc["concat"][1], json!([null, null, null]));
    assert_eq!(doc["output"][1], json!([null, null]));
    assert!(doc["output"][0]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_number));
    // Scores of the blind row are still numbers: the scores exist, only the softmax does not.
    assert_eq!(h["scores"][1], json!([4, 16, 12]));
    // Masked (but defined) weight is a plain 0.
    assert_eq!(h["weights"][2][1].as_f64(), Some(0.0));
    assert_eq!(doc["tokens"], json!(["input 1", "input 2", "input 3"]));
}

#[test]
fn results_json_uses_the_contract_names() {
    let mut s = notes_004();
    s.positional = Positional::Sinusoidal;
    let t = run(&s);
    let doc: Value = serde_json::from_str(&Results::from_trace(&t).to_json()).unwrap();
    for key in [
        "format",
        "tokens",
        "pe",
        "heads",
        "concat",
        "output",
        "undefined_rows",
    ] {
        assert!(doc.get(key).is_some(), "results lack {key}");
    }
    for key in ["q", "k", "v", "scores", "scaled", "weights", "head_output"] {
        assert!(
            doc["heads"][0].get(key).is_some(),
            "results lack heads[0].{key}"
        );
    }
    // pe row 1 (d_model 4): sin 1, cos 1, sin 0.01, cos 0.01 (mpmath), written in full.
    let row: Vec<f64> = doc["pe"][1]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    for (a, e) in row.iter().zip(PE_3X4[1]) {
        assert!((a - e).abs() <= 1e-15, "pe[1]: {a} vs {e}");
    }
    assert_eq!(doc["undefined_rows"], json!([]));
}

// ---------------------------------------------------------------------------
// softmax stability

#[test]
fn softmax_of_huge_scores_does_not_overflow() {
    // exp(s − max): 1e300 dominates; −1e300 and 800 vanish (exp(−1e300) = 0).
    let w = softmax_masked(&[1e300, -1e300, 800.0], &[true, true, true]).unwrap();
    assert_eq!(w, vec![1.0, 0.0, 0.0]);
    // [800, 799]: [1, e⁻¹]/(1+e⁻¹) = [0.7310585786300049, 0.2689414213699951] (mpmath);
    // naive exp(800) would be +inf.
    let w = softmax_masked(&[800.0, 799.0], &[true, true]).unwrap();
    assert!((w[0] - 0.7310585786300049).abs() <= 1e-16);
    assert!((w[1] - 0.2689414213699951).abs() <= 1e-16);
    // all equally tiny: uniform (naive exp(−1e300) = 0 would give 0/0).
    let w = softmax_masked(&[-1e300, -1e300], &[true, true]).unwrap();
    assert_eq!(w, vec![0.5, 0.5]);
    let w = softmax_masked(&[-800.0, -800.0, -800.0, -800.0], &[true; 4]).unwrap();
    assert_eq!(w, vec![0.25; 4]);
}

#[test]
fn masked_softmax_entries_are_exactly_zero() {
    // The masked 1e300 must not take the weight: [0, 1, e]/(1+e) (mpmath).
    let w = softmax_masked(&[1e300, 1.0, 2.0], &[false, true, true]).unwrap();
    assert_eq!(w[0].to_bits(), 0.0f64.to_bits());
    assert!((w[1] - 0.2689414213699951).abs() <= 1e-16);
    assert!((w[2] - 0.7310585786300049).abs() <= 1e-16);
    let w = softmax_masked(&[-1e300, 5.0, 1e300], &[true, false, false]).unwrap();
    assert_eq!(w, vec![1.0, 0.0, 0.0]);
    // No allowed entry: no softmax.
    assert_eq!(softmax_masked(&[1.0, 2.0], &[false, false]), None);
    assert_eq!(softmax_masked(&[], &[]), None);
}

#[test]
fn huge_scores_through_the_engine_stay_finite() {
    // x = [[1e100],[−1e100],[1e50]], W_Q = W_K = W_V = [1], no scaling:
    // scores = x·xᵀ = [[1e200,−1e200,1e150],…] (by hand); each query puts all
    // its weight on the key with the largest score.
    let one = m(&[[1.0]]);
    let s = scenario(
        m(&[[1e100], [-1e100], [1e50]]),
        vec![head(one.clone(), one.clone(), one)],
    );
    let t = run(&s);
    assert_exact(
        "weights",
        &t.heads[0].weights,
        &[[1., 0., 0.], [0., 1., 0.], [1., 0., 0.]],
    );
    assert_exact("output", &t.output, &[[1e100], [-1e100], [1e100]]);
}

// ---------------------------------------------------------------------------
// from_json: defaults, round trip, rejections

fn base_json() -> Value {
    // n = 3, d_model = 4, two heads, d_k = 2, d_v = 3 (so W_O has 6 rows).
    json!({
        "format": "attention-lab/1",
        "x": [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]],
        "heads": [
            {
                "w_q": [[1, 0], [0, 1], [1, 0], [0, 1]],
                "w_k": [[0, 1], [1, 0], [0, 1], [1, 0]],
                "w_v": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]]
            },
            {
                "w_q": [[1, 1], [0, 1], [1, 0], [0, 0]],
                "w_k": [[0, 0], [1, 0], [0, 1], [1, 1]],
                "w_v": [[2, 0, 0], [0, 2, 0], [0, 0, 2], [0, 0, 0]]
            }
        ]
    })
}

#[track_caller]
fn rejected(doc: &Value) -> ScenarioError {
    rejected_text(&doc.to_string())
}

#[track_caller]
fn rejected_text(text: &str) -> ScenarioError {
    match Scenario::from_json(text) {
        Ok(s) => panic!("accepted {s:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn assert_names(e: &ScenarioError, field: &str, reason_part: &str) {
    let shown = e.to_string();
    assert!(
        shown.contains(field) && shown.contains(reason_part),
        "error {shown:?} should name {field:?} and say {reason_part:?}"
    );
}

#[test]
fn from_json_fills_the_defaults() {
    let s = Scenario::from_json(&base_json().to_string()).unwrap();
    assert_eq!(s.tokens, vec!["x1", "x2", "x3"]);
    assert!(s.scale);
    assert_eq!(s.mask, Mask::None);
    assert_eq!(s.positional, Positional::None);
    assert!(s.w_o.is_none());
    assert_eq!(s.heads.len(), 2);
    assert_exact(
        "x",
        &s.x,
        &[[1., 0., 1., 0.], [0., 2., 0., 2.], [1., 1., 1., 1.]],
    );
    assert_exact(
        "heads[1].w_v",
        &s.heads[1].w_v,
        &[[2., 0., 0.], [0., 2., 0.], [0., 0., 2.], [0., 0., 0.]],
    );
    // Explicit values are read, not defaulted.
    let mut doc = base_json();
    doc["tokens"] = json!(["a", "b", "c"]);
    doc["scale"] = json!(false);
    doc["mask"] = json!({"window": 1});
    doc["positional"] = json!("sinusoidal");
    doc["w_o"] = json!([[1], [2], [3], [4], [5], [6]]);
    let s = Scenario::from_json(&doc.to_string()).unwrap();
    assert_eq!(s.tokens, vec!["a", "b", "c"]);
    assert!(!s.scale);
    assert_eq!(s.mask, Mask::Window(1));
    assert_eq!(s.positional, Positional::Sinusoidal);
    assert_exact(
        "w_o",
        s.w_o.as_ref().unwrap(),
        &[[1.], [2.], [3.], [4.], [5.], [6.]],
    );
    // Every mask spelling of docs/format.md §1.
    for (text, mask) in [
        (json!("none"), Mask::None),
        (json!("causal"), Mask::Causal),
        (json!({"padding": 2}), Mask::Padding(2)),
        (json!({"window": 0}), Mask::Window(0)),
        (
            json!({"custom": [[true, false, false], [true, true, false], [false, false, false]]}),
            Mask::Custom(vec![
                vec![true, false, false],
                vec![true, true, false],
                vec![false, false, false],
            ]),
        ),
    ] {
        let mut doc = base_json();
        doc["mask"] = text.clone();
        assert_eq!(
            Scenario::from_json(&doc.to_string()).unwrap().mask,
            mask,
            "{text}"
        );
    }
}

#[test]
fn note_004_round_trips_through_json() {
    let s = notes_004();
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    assert_eq!(Scenario::from_json(&s.to_json_compact()).unwrap(), s);
}

#[test]
fn a_full_scenario_round_trips_through_json() {
    let mut s = notes_004();
    s.tokens = vec!["I".into(), "saw".into(), "😀 ünïcode \"quoted\"".into()];
    s.x = m(&[
        [0.1, -2.5e300, 1.0 / 3.0, 5e-324],
        [0.0, -0.0, 1e-300, 7.0],
        [1e22, 3.0, -4.0, 0.5],
    ]);
    s.w_o = Some(m(&[[0.25, -1.0], [2.0, 1e-7], [3.5, 42.0]]));
    s.scale = false;
    s.positional = Positional::Sinusoidal;
    s.mask = Mask::Custom(vec![
        vec![true, false, true],
        vec![false, false, false],
        vec![true, true, true],
    ]);
    let back = Scenario::from_json(&s.to_json()).unwrap();
    assert_eq!(back, s);
    // and bit for bit (== would accept 0.0 for −0.0)
    assert!(back
        .x
        .iter()
        .zip(s.x.iter())
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!(Scenario::from_json(&s.to_json_compact()).unwrap(), s);
    for mask in [Mask::None, Mask::Causal, Mask::Padding(0), Mask::Window(7)] {
        s.mask = mask;
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    }
}

#[test]
fn rejects_a_wrong_format_tag() {
    let mut doc = base_json();
    doc["format"] = json!("attention-lab/2");
    let e = rejected(&doc);
    assert_eq!(e.field, "format");
    assert_names(&e, "format", "attention-lab/2");
    let mut doc = base_json();
    doc.as_object_mut().unwrap().remove("format");
    assert_names(&rejected(&doc), "format", "missing");
}

#[test]
fn rejects_a_ragged_x_row() {
    let mut doc = base_json();
    doc["x"][1] = json!([0, 2, 0]);
    let e = rejected(&doc);
    assert!(e.field.starts_with('x'), "field {:?}", e.field);
    assert_names(&e, "x", "row 1 has 3 numbers");
}

#[test]
fn rejects_a_head_shape_and_names_it() {
    let mut doc = base_json();
    doc["heads"][1]["w_k"] = json!([[0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]]);
    let e = rejected(&doc);
    assert_eq!(e.field, "heads[1].w_k");
    assert_eq!(e.to_string(), "heads[1].w_k: expected 4×2, got 4×3");
    assert_names(&e, "heads[1].w_k", "expected 4×2, got 4×3");
    // wrong number of rows (d_model) in a value projection
    let mut doc = base_json();
    doc["heads"][0]["w_v"] = json!([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    assert_names(&rejected(&doc), "heads[0].w_v", "expected 4×3, got 3×3");
    // a second head with another d_v
    let mut doc = base_json();
    doc["heads"][1]["w_v"] = json!([[1], [0], [0], [1]]);
    assert_names(&rejected(&doc), "heads[1].w_v", "expected 4×3, got 4×1");
}

#[test]
fn rejects_w_o_with_the_wrong_rows() {
    let mut doc = base_json();
    doc["w_o"] = json!([[1, 0], [0, 1], [1, 1], [0, 0], [2, 2]]);
    assert_names(&rejected(&doc), "w_o", "expected 6×2, got 5×2");
    doc["w_o"] = json!([[], [], [], [], [], []]);
    assert_names(&rejected(&doc), "w_o", "between 1 and 512");
    doc["w_o"] = json!(vec![vec![0.5; 513]; 6]);
    assert_names(&rejected(&doc), "w_o", "got 513");
}

#[test]
fn rejects_n_out_of_range() {
    let mut doc = base_json();
    doc["x"] = json!([]);
    assert_names(&rejected(&doc), "x", "got 0");
    doc["x"] = json!(vec![vec![1.0; 4]; 65]);
    assert_names(&rejected(&doc), "x", "got 65");
    // 64 is the limit and is accepted.
    doc["x"] = json!(vec![vec![1.0; 4]; 64]);
    let s = Scenario::from_json(&doc.to_string()).unwrap();
    assert_eq!(s.tokens.len(), 64);
    assert_eq!(s.tokens[63], "x64");
}

#[test]
fn rejects_dimensions_out_of_range() {
    let mut doc = base_json();
    doc["x"] = json!(vec![vec![1.0; 513]; 3]);
    assert_names(&rejected(&doc), "x", "got 513");
    let mut doc = base_json();
    doc["x"] = json!([[], [], []]);
    assert_names(&rejected(&doc), "x", "got 0");
    let mut doc = base_json();
    for r in 0..2 {
        doc["heads"][r]["w_q"] = json!(vec![vec![1.0; 129]; 4]);
        doc["heads"][r]["w_k"] = json!(vec![vec![1.0; 129]; 4]);
    }
    assert_names(&rejected(&doc), "heads[0].w_q", "got 129");
}

#[test]
fn rejects_nine_heads_and_zero_heads() {
    let mut doc = base_json();
    let h = doc["heads"][0].clone();
    doc["heads"] = json!(vec![h; 9]);
    assert_names(&rejected(&doc), "heads", "got 9");
    doc["heads"] = json!([]);
    assert_names(&rejected(&doc), "heads", "got 0");
    // 8 is the limit.
    let mut doc = base_json();
    let h = doc["heads"][0].clone();
    doc["heads"] = json!(vec![h; 8]);
    assert_eq!(
        Scenario::from_json(&doc.to_string()).unwrap().heads.len(),
        8
    );
}

#[test]
fn rejects_a_token_count_mismatch_and_long_labels() {
    let mut doc = base_json();
    doc["tokens"] = json!(["a", "b"]);
    assert_names(&rejected(&doc), "tokens", "expected 3 labels");
    doc["tokens"] = json!(["a", "b", "c", "d"]);
    assert_names(&rejected(&doc), "tokens", "got 4");
    doc["tokens"] = json!(["a", "b", "c".repeat(41)]);
    assert_names(&rejected(&doc), "tokens[2]", "41");
    // The limit counts characters, not bytes: 40 × "é" (80 bytes) is fine, 41 is not.
    doc["tokens"] = json!(["é".repeat(40), "b", "c"]);
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
    doc["tokens"] = json!(["é".repeat(41), "b", "c"]);
    assert_names(&rejected(&doc), "tokens[0]", "got 41");
}

#[test]
fn rejects_bad_masks() {
    let mut doc = base_json();
    doc["mask"] = json!({"padding": 4});
    assert_names(&rejected(&doc), "mask.padding", "got 4");
    doc["mask"] = json!({"padding": 3});
    assert!(Scenario::from_json(&doc.to_string()).is_ok());
    doc["mask"] = json!({"custom": [[true, true, true], [true, true, true]]});
    assert_names(&rejected(&doc), "mask.custom", "expected 3 rows, got 2");
    doc["mask"] = json!({"custom": [[true, true, true], [true, true], [true, true, true]]});
    assert_names(
        &rejected(&doc),
        "mask.custom[1]",
        "expected 3 booleans, got 2",
    );
    doc["mask"] = json!({"custom": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]});
    assert_names(&rejected(&doc), "mask", "true/false");
    for bad in [
        json!("diagonal"),
        json!("Causal"),
        json!({"padding": -1}),
        json!({"window": 1.5}),
        json!({"padding": 1, "window": 1}),
        json!({"stride": 2}),
        json!(3),
        json!(null),
    ] {
        let mut doc = base_json();
        doc["mask"] = bad.clone();
        let e = rejected(&doc);
        assert!(e.to_string().starts_with("mask"), "{bad}: {e}");
    }
    let mut doc = base_json();
    doc["mask"] = json!("diagonal");
    assert_names(&rejected(&doc), "mask", "\"diagonal\"");
}

#[test]
fn rejects_other_bad_values() {
    let mut doc = base_json();
    doc["positional"] = json!("learned");
    assert_names(&rejected(&doc), "positional", "learned");
    let mut doc = base_json();
    doc["scale"] = json!("yes");
    assert_names(&rejected(&doc), "scale", "");
    let mut doc = base_json();
    doc["x"][2][3] = json!("1");
    assert_names(&rejected(&doc), "x", "");
    assert!(Scenario::from_json("").is_err());
    assert!(Scenario::from_json("[]").is_err());
    assert!(Scenario::from_json("{\"format\": \"attention-lab/1\"").is_err());
}

#[test]
fn rejects_an_out_of_range_number() {
    let mut doc = base_json();
    doc["x"][0][1] = json!(12345.5);
    let text = doc.to_string().replace("12345.5", "1e999");
    assert!(text.contains("1e999"));
    let e = rejected_text(&text);
    assert!(e.field.starts_with('x'), "field {:?}", e.field);
    assert!(e.to_string().contains("out of range"), "{e}");
    // In a head too.
    let mut doc = base_json();
    doc["heads"][1]["w_v"][3][2] = json!(12345.5);
    let e = rejected_text(&doc.to_string().replace("12345.5", "-1e400"));
    assert!(e.field.starts_with("heads[1].w_v"), "field {:?}", e.field);
}

#[test]
fn rejects_unknown_fields() {
    let mut doc = base_json();
    doc["colour"] = json!("red");
    assert_names(&rejected(&doc), "colour", "unknown field");
    let mut doc = base_json();
    doc["heads"][0]["w_x"] = json!([[1]]);
    assert_names(&rejected(&doc), "w_x", "unknown field");
    // A key that is no name is quoted in the path, which is never empty
    // (found by the fuzz run).
    let mut doc = base_json();
    doc[""] = json!(1);
    assert_eq!(rejected(&doc).field, "[\"\"]");
    let mut doc = base_json();
    doc["heads"][0]["w q"] = json!(1);
    assert_eq!(rejected(&doc).field, "heads[0][\"w q\"]");
}

#[test]
fn validate_rejects_non_finite_numbers_built_in_code() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut s = notes_004();
        s.heads[0].w_v[(2, 1)] = bad;
        let e = s.validate().unwrap_err();
        assert_eq!(e.field, "heads[0].w_v[2][1]");
        assert_eq!(compute(&s).unwrap_err(), e);
        let mut s = notes_004();
        s.x[(0, 3)] = bad;
        assert_eq!(s.validate().unwrap_err().field, "x[0][3]");
        let mut s = notes_004();
        s.w_o = Some(Matrix::from_element(3, 2, 1.0));
        s.w_o.as_mut().unwrap()[(1, 0)] = bad;
        assert_eq!(s.validate().unwrap_err().field, "w_o[1][0]");
    }
    assert!(notes_004().validate().is_ok());
}

// ---------------------------------------------------------------------------
// Engine bugs found while writing this suite. They fail today; they are
// ignored so the suite stays green. Run them with
// `cargo test -p attention --test golden -- --ignored`.

#[test]
fn overflowing_products_are_refused_naming_the_head() {
    // Every number is finite and within limits, so validation accepts it,
    // but q = k = 1e300·10 overflows to +inf; the engine must refuse rather
    // than show NaN or inf as a number (docs/format.md §1, "never show NaN silently").
    let ten = m(&[[10.0]]);
    let s = scenario(m(&[[1e300]]), vec![head(ten.clone(), ten.clone(), ten)]);
    assert!(s.validate().is_ok());
    let e = compute(&s).unwrap_err();
    assert_eq!(e.field, "heads[0]");
    assert!(e.reason.to_string().contains("too large"), "{e}");
    // Large but representable: accepted, and the single key gets weight 1.
    let one = m(&[[1.0]]);
    let s = scenario(m(&[[1e150]]), vec![head(one.clone(), one.clone(), one)]);
    let t = compute(&s).unwrap();
    assert_eq!(t.heads[0].weights[(0, 0)], 1.0);
}

#[test]
fn export_import_keeps_every_number_exactly() {
    // Values whose shortest decimal form serde_json's default parser misreads by
    // one ulp (serde-rs/json#536, #707, #1336); Rust's own f64::from_str reads
    // them back exactly, so an exported scenario re-imports different numbers.
    let mut s = notes_004();
    s.x[(0, 0)] = 0.09144338512092887;
    s.x[(1, 1)] = 117.63331139400017;
    s.x[(2, 2)] = 1.5777777777770001;
    for v in [
        0.09144338512092887f64,
        117.63331139400017,
        1.5777777777770001,
    ] {
        assert_eq!(format!("{v}").parse::<f64>().unwrap(), v);
    }
    let back = Scenario::from_json(&s.to_json()).unwrap();
    assert_eq!(back.x, s.x);
}
