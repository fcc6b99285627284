//! # Three ways to score a query against a key (docs/figures.md F3)
//!
//! Note 000 §4.4 and note 001 show two ways to compute α(i, j): the dot
//! product "in the left red box", and an additive score, a small network
//! `w_aᵀ·tanh(W_a·qⁱ + U_a·kʲ)` evaluated for every pair. This module
//! scores the first head's queries and keys of a scenario three ways (dot
//! product, scaled dot product, additive), and turns each into weights
//! (the engine's masked softmax) and outputs (weights · V).
//!
//! Dividing a row of scores by the same √d_k keeps their order, so the key
//! a query attends to most does not change, only how sharply; the additive
//! score is another function and may rank keys differently.

use attention::additive::additive_scores;
use attention::random::Rng;
use attention::{matmul, softmax_rows, Matrix, Trace};

/// The hidden size of the additive network.
pub const HIDDEN: usize = 3;

/// The additive network's parameters: `W_a`, `U_a` are `h × d_k`, `w_a` has `h` entries.
#[derive(Clone, Debug, PartialEq)]
pub struct Additive {
    pub w_a: Matrix,
    pub u_a: Matrix,
    pub v_a: Matrix,
}

impl Additive {
    /// Small seeded numbers (two decimals in [−1, 1]) for width `d_k`.
    pub fn seeded(d_k: usize, seed: u64) -> Additive {
        let mut rng = Rng::new(seed);
        Additive {
            w_a: rng.matrix(HIDDEN, d_k),
            u_a: rng.matrix(HIDDEN, d_k),
            v_a: rng.matrix(1, HIDDEN),
        }
    }

    /// Whether these parameters fit queries and keys of width `d_k`.
    pub fn fits(&self, d_k: usize) -> bool {
        let h = self.v_a.ncols();
        self.v_a.nrows() == 1 && self.w_a.shape() == (h, d_k) && self.u_a.shape() == (h, d_k)
    }
}

/// Scores, the weights softmax makes of them under the scenario's mask,
/// and the outputs `weights · V`.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub scores: Matrix,
    pub weights: Matrix,
    pub output: Matrix,
}

/// How much work each way of scoring does for all n² pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs {
    /// Multiply-adds of `Q·Kᵀ`: n²·d_k.
    pub dot: usize,
    /// Divisions by √d_k added by scaling: n².
    pub divisions: usize,
    /// Multiply-adds of the additive score: 2·n·h·d_k for `W_a·q` and
    /// `U_a·k` (once per position) plus n²·h for `w_aᵀ·tanh(…)`.
    pub additive: usize,
    /// tanh evaluations: n²·h.
    pub tanh: usize,
}

/// The three ways side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub dot: Scored,
    pub scaled: Scored,
    pub additive: Scored,
    pub costs: Costs,
}

/// Head `head` of `trace` scored three ways with the additive network `a`;
/// `None` when the head does not exist or `a` does not fit its d_k.
pub fn compare(trace: &Trace, head: usize, a: &Additive) -> Option<Comparison> {
    let h = trace.heads.get(head)?;
    let (n, d_k) = (h.q.nrows(), h.q.ncols());
    if !a.fits(d_k) {
        return None;
    }
    let scored = |scores: Matrix| {
        let weights = softmax_rows(&scores, &trace.allowed);
        let output = matmul(&weights, &h.v);
        Scored {
            scores,
            weights,
            output,
        }
    };
    let root = (d_k as f64).sqrt();
    let v_a: Vec<f64> = a.v_a.iter().copied().collect();
    let additive = additive_scores(&h.q, &h.k, &a.w_a, &a.u_a, &v_a)?;
    let hidden = v_a.len();
    Some(Comparison {
        dot: scored(h.scores.clone()),
        scaled: scored(h.scores.map(|s| s / root)),
        additive: scored(additive),
        costs: Costs {
            dot: n * n * d_k,
            divisions: n * n,
            additive: 2 * n * hidden * d_k + n * n * hidden,
            tanh: n * n * hidden,
        },
    })
}

/// The key each query weighs most (the first of ties); `None` for a row
/// with no weights.
pub fn strongest(weights: &Matrix) -> Vec<Option<usize>> {
    (0..weights.nrows())
        .map(|i| {
            let row = weights.row(i);
            (0..row.len())
                .filter(|&j| row[j].is_finite())
                .fold(None, |best: Option<usize>, j| match best {
                    Some(b) if row[b] >= row[j] => Some(b),
                    _ => Some(j),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{notes_004, two_heads};
    use attention::{compute, Mask};

    #[test]
    fn the_dot_product_ways_are_the_engines() {
        // Note 004 has no scaling: the dot-product weights are the page's.
        let s = notes_004();
        let t = compute(&s).unwrap();
        let c = compare(&t, 0, &Additive::seeded(3, 1)).unwrap();
        assert_eq!(c.dot.weights, t.heads[0].weights);
        assert_eq!(c.dot.output, t.heads[0].output);
        // With scaling on, the scaled way is.
        let mut s2 = notes_004();
        s2.scale = true;
        let t2 = compute(&s2).unwrap();
        let c2 = compare(&t2, 0, &Additive::seeded(3, 1)).unwrap();
        assert_eq!(c2.scaled.scores, t2.heads[0].scaled);
        assert_eq!(c2.scaled.weights, t2.heads[0].weights);
        // n = 3, d_k = 3, h = 3.
        assert_eq!(
            c.costs,
            Costs {
                dot: 27,
                divisions: 9,
                additive: 2 * 3 * 3 * 3 + 27,
                tanh: 27
            }
        );
    }

    #[test]
    fn scaling_keeps_the_strongest_key_and_flattens_the_weights() {
        for s in [notes_004(), two_heads()] {
            let t = compute(&s).unwrap();
            let d_k = t.heads[0].q.ncols();
            let c = compare(&t, 0, &Additive::seeded(d_k, 2)).unwrap();
            assert_eq!(strongest(&c.dot.weights), strongest(&c.scaled.weights));
            for i in 0..t.n() {
                let top = |w: &Matrix| {
                    w.row(i)
                        .iter()
                        .copied()
                        .filter(|x| x.is_finite())
                        .fold(0.0, f64::max)
                };
                assert!(top(&c.scaled.weights) <= top(&c.dot.weights) + 1e-15);
            }
        }
    }

    #[test]
    fn the_additive_way_follows_the_mask_and_refuses_a_wrong_shape() {
        let mut s = notes_004();
        s.mask = Mask::Causal;
        let t = compute(&s).unwrap();
        let c = compare(&t, 0, &Additive::seeded(3, 3)).unwrap();
        assert_eq!(c.additive.weights[(0, 1)], 0.0);
        assert_eq!(c.additive.weights[(0, 0)], 1.0);
        for i in 0..3 {
            let sum: f64 = c.additive.weights.row(i).iter().sum();
            assert!((sum - 1.0).abs() < 1e-12);
        }
        assert!(compare(&t, 0, &Additive::seeded(4, 3)).is_none());
        assert!(compare(&t, 1, &Additive::seeded(3, 3)).is_none());
        assert_eq!(strongest(&Matrix::from_element(1, 2, f64::NAN)), vec![None]);
    }
}
