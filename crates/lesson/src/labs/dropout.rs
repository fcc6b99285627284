//! Dropout on the attention weights (docs/figures.md F12, note `001`: q·k → mask →
//! softmax → dropout → ·V). In training each weight is kept with
//! probability `1 − p` and multiplied by `1/(1 − p)`, or set to 0; at
//! inference nothing changes. The rescaling keeps each weight's *expected*
//! value, so a row no longer sums to 1 in any one draw. This is a variant
//! computed beside the engine's trace, never inside it.

use crate::random::Rng;
use attention::{matmul, HeadTrace, Matrix, Trace};
use nalgebra::DMatrix;

/// The largest rate offered (p = 1 would drop everything and divide by 0).
pub const MAX_P: f64 = 0.9;

/// Which weights a draw keeps: each independently with probability `1 − p`,
/// drawn row by row from `seed`.
pub fn keep_mask(rows: usize, cols: usize, p: f64, seed: u64) -> DMatrix<bool> {
    let mut rng = Rng::new(seed);
    let mut keep = DMatrix::from_element(rows, cols, false);
    for i in 0..rows {
        for j in 0..cols {
            keep[(i, j)] = rng.unit() >= p;
        }
    }
    keep
}

/// `weights` after dropout: kept entries times `1/(1 − p)`, dropped ones 0.
/// Undefined (NaN) rows stay NaN.
pub fn apply(weights: &Matrix, keep: &DMatrix<bool>, p: f64) -> Matrix {
    let k = 1.0 / (1.0 - p);
    Matrix::from_fn(weights.nrows(), weights.ncols(), |i, j| {
        let w = weights[(i, j)];
        if w.is_nan() || keep[(i, j)] {
            w * k
        } else {
            0.0
        }
    })
}

/// One head in training mode: the weights after dropout and the outputs
/// they give (`dropped · V`).
#[derive(Clone, Debug, PartialEq)]
pub struct Dropped {
    pub keep: DMatrix<bool>,
    pub weights: Matrix,
    pub output: Matrix,
}

/// Dropout at rate `p` (0 ≤ p ≤ [`MAX_P`]) on head `h`'s weights.
pub fn train(head: &HeadTrace, p: f64, seed: u64) -> Dropped {
    let n = head.weights.nrows();
    let keep = keep_mask(n, head.weights.ncols(), p, seed);
    let weights = apply(&head.weights, &keep, p);
    let output = matmul(&weights, &head.v);
    Dropped {
        keep,
        weights,
        output,
    }
}

/// Query `i`'s numbers at each stage of the pipeline, for the strip.
#[derive(Clone, Debug, PartialEq)]
pub struct Strip {
    /// `qⁱ·kʲ`.
    pub scores: Vec<f64>,
    /// After `÷ √d_k` (equal to `scores` when scaling is off).
    pub scaled: Vec<f64>,
    /// After the mask: `None` for a hidden key (−∞).
    pub masked: Vec<Option<f64>>,
    /// After softmax.
    pub weights: Vec<f64>,
    /// After dropout (equal to `weights` at inference).
    pub dropped: Vec<f64>,
    /// Which keys survived dropout (all at inference).
    pub kept: Vec<bool>,
    /// `Σ_j dropped_j · vʲ`.
    pub output: Vec<f64>,
}

/// Query `i` of head `h` through the pipeline; `dropped` is the head's
/// draw in training mode ([`train`]), `None` at inference. Reads the
/// engine's trace; only the last product is computed here.
pub fn strip(trace: &Trace, h: usize, i: usize, dropped: Option<&Dropped>) -> Strip {
    let head = &trace.heads[h];
    let n = head.weights.ncols();
    let row = |m: &Matrix| m.row(i).iter().copied().collect::<Vec<f64>>();
    let weights = dropped.map_or(&head.weights, |d| &d.weights);
    let output = matmul(&weights.rows(i, 1).into_owned(), &head.v);
    Strip {
        scores: row(&head.scores),
        scaled: row(&head.scaled),
        masked: (0..n)
            .map(|j| trace.allowed[(i, j)].then(|| head.scaled[(i, j)]))
            .collect(),
        weights: row(&head.weights),
        dropped: row(weights),
        kept: (0..n)
            .map(|j| dropped.is_none_or(|d| d.keep[(i, j)]))
            .collect(),
        output: output.iter().copied().collect(),
    }
}

/// `Σ` of a row, left to right.
pub fn row_sum(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |a, b| a + b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{notes_004, random, Dims};
    use attention::{compute, Mask};

    fn trace() -> Trace {
        let mut s = random(
            7,
            Dims {
                n: 6,
                d_model: 4,
                d_k: 3,
                d_v: 3,
                heads: 2,
            },
            false,
        );
        s.mask = Mask::Causal;
        compute(&s).unwrap()
    }

    #[test]
    fn a_fixed_seed_gives_a_fixed_mask() {
        let a = keep_mask(8, 8, 0.3, 42);
        assert_eq!(a, keep_mask(8, 8, 0.3, 42));
        assert_ne!(a, keep_mask(8, 8, 0.3, 43));
        // About 30 % dropped over many cells.
        let big = keep_mask(100, 100, 0.3, 1);
        let dropped = big.iter().filter(|k| !**k).count() as f64 / 10_000.0;
        assert!((dropped - 0.3).abs() < 0.02, "{dropped}");
        // p = 0 keeps everything.
        assert!(keep_mask(5, 5, 0.0, 9).iter().all(|k| *k));
    }

    #[test]
    fn rows_sum_to_one_at_p_zero_and_equal_the_engine() {
        let t = trace();
        for head in &t.heads {
            let d = train(head, 0.0, 5);
            assert_eq!(d.weights, head.weights);
            assert_eq!(d.output, head.output);
            for i in 0..d.weights.nrows() {
                let s = row_sum(&d.weights.row(i).iter().copied().collect::<Vec<_>>());
                assert!((s - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn the_expected_weights_over_many_seeds_are_the_weights() {
        let t = trace();
        let head = &t.heads[1];
        let (p, draws) = (0.4, 20_000u64);
        let mut mean = Matrix::zeros(6, 6);
        for seed in 0..draws {
            mean += train(head, p, seed).weights;
        }
        mean /= draws as f64;
        // Each entry is w·B/(1−p), B ~ Bernoulli(1−p): standard deviation
        // w·√(p/(1−p))/√draws ≤ 0.0058; allow four of them.
        let diff = (&mean - &head.weights).abs().max();
        assert!(diff < 0.025, "{diff}");
        // A single draw does not sum to 1.
        let one = train(head, p, 3).weights;
        let sums: Vec<f64> = (0..6)
            .map(|i| row_sum(&one.row(i).iter().copied().collect::<Vec<_>>()))
            .collect();
        assert!(sums.iter().any(|s| (s - 1.0).abs() > 0.05), "{sums:?}");
    }

    #[test]
    fn kept_weights_are_rescaled_and_dropped_ones_are_zero() {
        let t = trace();
        let d = train(&t.heads[0], 0.5, 11);
        for i in 0..6 {
            for j in 0..6 {
                let w = t.heads[0].weights[(i, j)];
                let expect = if d.keep[(i, j)] { w * 2.0 } else { 0.0 };
                assert_eq!(d.weights[(i, j)], expect);
            }
        }
        assert_eq!(d.output, matmul(&d.weights, &t.heads[0].v));
    }

    #[test]
    fn the_strip_reads_the_trace_and_marks_masked_keys() {
        let t = compute(&{
            let mut s = notes_004();
            s.mask = Mask::Causal;
            s
        })
        .unwrap();
        let s = strip(&t, 0, 1, None);
        assert_eq!(
            s.scores,
            vec![
                t.heads[0].scores[(1, 0)],
                t.heads[0].scores[(1, 1)],
                t.heads[0].scores[(1, 2)]
            ]
        );
        assert_eq!(s.masked[2], None);
        assert!(s.masked[0].is_some());
        assert_eq!(s.dropped, s.weights);
        assert_eq!(
            s.output,
            t.heads[0].output.row(1).iter().copied().collect::<Vec<_>>()
        );
        let tr = strip(&t, 0, 1, Some(&train(&t.heads[0], 0.5, 2)));
        assert_eq!(tr.weights, s.weights);
        for j in 0..3 {
            assert_eq!(
                tr.dropped[j],
                if tr.kept[j] { 2.0 * s.weights[j] } else { 0.0 }
            );
        }
    }
}
