//! # Why the scores are divided by √d_k (docs/figures.md F7)
//!
//! Note 000 §4.3 and note 004 §7 argue it from the variance of a dot
//! product. Assume the entries of q and k are independent, with mean 0 and
//! variance 1. Then each product `q_c·k_c` has mean 0 and variance 1, and
//! their sum `q·k` over d_k entries has variance **d_k**: the wider the
//! query/key vectors, the more spread out the scores. Softmax of widely
//! spread scores puts almost all the weight on one key (it *saturates*), and
//! the softmax Jacobian `w_i(δ_ij − w_j)` then nearly vanishes, so little
//! gradient reaches the scores. Dividing by √d_k brings the variance back
//! to 1 whatever d_k is.
//!
//! (Note 004 §7 says the scaling prevents "overflow" and calls d_k the
//! word-vector size. d_k is the width of the queries and keys, and the
//! trouble is saturation: the page's softmax subtracts the row's maximum
//! first, so it never overflows.)
//!
//! Everything here is seeded, so the same d_k and seed give the same
//! numbers on every machine.

use crate::heads::entropy_bits;
use attention::random::Rng;
use attention::{softmax_jacobian, softmax_masked};

/// The widths the curves are drawn at.
pub const D_KS: [usize; 10] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/// `pairs` dot products `q·k` of independent standard normal vectors of
/// width `d_k`, from `seed`.
pub fn dot_samples(d_k: usize, pairs: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed ^ (d_k as u64).wrapping_mul(0x9E37_79B9));
    (0..pairs)
        .map(|_| (0..d_k).map(|_| rng.normal() * rng.normal()).sum())
        .collect()
}

/// Mean and sample variance (divided by `len − 1`); `(0, 0)` for fewer
/// than two values.
pub fn mean_variance(xs: &[f64]) -> (f64, f64) {
    if xs.len() < 2 {
        return (xs.first().copied().unwrap_or(0.0), 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var)
}

/// Counts of `xs` in `bins` equal bins over `[lo, hi)`; values outside
/// are counted in `below` and `above`.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    pub lo: f64,
    pub hi: f64,
    pub counts: Vec<usize>,
    pub below: usize,
    pub above: usize,
}

/// See [`Histogram`]. `bins` ≥ 1 and `lo < hi`.
pub fn histogram(xs: &[f64], lo: f64, hi: f64, bins: usize) -> Histogram {
    let bins = bins.max(1);
    let mut h = Histogram {
        lo,
        hi,
        counts: vec![0; bins],
        below: 0,
        above: 0,
    };
    let width = (hi - lo) / bins as f64;
    for &x in xs {
        if x < lo {
            h.below += 1;
        } else if x >= hi {
            h.above += 1;
        } else {
            let b = (((x - lo) / width) as usize).min(bins - 1);
            h.counts[b] += 1;
        }
    }
    h
}

/// What softmax does to one row of scores, averaged over many rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowStats {
    /// The largest weight of the row.
    pub max_weight: f64,
    /// The row's entropy in bits (log2 n when even, 0 when one-hot).
    pub entropy: f64,
    /// The largest entry of the softmax Jacobian, in absolute value.
    pub jacobian: f64,
}

/// [`RowStats`] of `rows` rows of `n` scores `q·kʲ` (one query against n
/// keys, standard normal entries of width `d_k`), divided by √d_k when
/// `scaled`, averaged over the rows.
pub fn row_stats(d_k: usize, n: usize, rows: usize, seed: u64, scaled: bool) -> RowStats {
    let mut rng = Rng::new(seed.wrapping_add(d_k as u64));
    let divisor = if scaled { (d_k as f64).sqrt() } else { 1.0 };
    let all = vec![true; n];
    let mut sum = RowStats {
        max_weight: 0.0,
        entropy: 0.0,
        jacobian: 0.0,
    };
    for _ in 0..rows {
        let q: Vec<f64> = (0..d_k).map(|_| rng.normal()).collect();
        let scores: Vec<f64> = (0..n)
            .map(|_| q.iter().map(|x| x * rng.normal()).sum::<f64>() / divisor)
            .collect();
        let w = softmax_masked(&scores, &all).expect("every key is visible");
        sum.max_weight += w.iter().copied().fold(0.0, f64::max);
        sum.entropy += entropy_bits(w.iter().copied());
        sum.jacobian += softmax_jacobian(&w)
            .iter()
            .fold(0.0f64, |m, x| m.max(x.abs()));
    }
    let r = rows.max(1) as f64;
    RowStats {
        max_weight: sum.max_weight / r,
        entropy: sum.entropy / r,
        jacobian: sum.jacobian / r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dot_product_has_variance_d_k_and_one_after_scaling() {
        for d_k in [4, 64, 512] {
            let xs = dot_samples(d_k, 4000, 7);
            let (mean, var) = mean_variance(&xs);
            let d = d_k as f64;
            assert!((var / d - 1.0).abs() < 0.1, "d_k = {d_k}: variance {var}");
            assert!(
                mean.abs() < 4.0 * (d / 4000.0).sqrt(),
                "d_k = {d_k}: mean {mean}"
            );
            let scaled: Vec<f64> = xs.iter().map(|x| x / d.sqrt()).collect();
            let (_, v1) = mean_variance(&scaled);
            assert!((v1 - 1.0).abs() < 0.1, "d_k = {d_k}: scaled variance {v1}");
        }
        // The same seed, the same numbers.
        assert_eq!(dot_samples(8, 10, 3), dot_samples(8, 10, 3));
        assert_ne!(dot_samples(8, 10, 3), dot_samples(8, 10, 4));
    }

    #[test]
    fn normal_numbers_have_mean_0_and_variance_1() {
        let mut rng = Rng::new(11);
        let xs: Vec<f64> = (0..20_000).map(|_| rng.normal()).collect();
        let (mean, var) = mean_variance(&xs);
        assert!(
            mean.abs() < 0.03 && (var - 1.0).abs() < 0.03,
            "{mean} {var}"
        );
    }

    #[test]
    fn without_scaling_softmax_saturates_as_d_k_grows() {
        let n = 8;
        let raw: Vec<RowStats> = D_KS
            .iter()
            .map(|&d| row_stats(d, n, 300, 5, false))
            .collect();
        let scaled: Vec<RowStats> = D_KS
            .iter()
            .map(|&d| row_stats(d, n, 300, 5, true))
            .collect();
        let at = |d: usize| D_KS.iter().position(|&x| x == d).unwrap();
        // Unscaled: the largest weight grows towards 1, the entropy and the
        // Jacobian shrink towards 0.
        assert!(raw[at(256)].max_weight > 0.9 && raw[at(4)].max_weight < 0.75);
        assert!(raw[at(256)].entropy < 0.4 && raw[at(4)].entropy > 1.0);
        assert!(raw[at(256)].jacobian < raw[at(4)].jacobian / 2.0);
        // Scaled: about the same at every width.
        let (lo, hi) = scaled.iter().fold((1.0f64, 0.0f64), |(lo, hi), s| {
            (lo.min(s.max_weight), hi.max(s.max_weight))
        });
        assert!(hi - lo < 0.1, "scaled max weight between {lo} and {hi}");
        // The bounds: entropy ≤ log2 n, weights ≤ 1, |J| ≤ 1/4.
        for s in raw.iter().chain(&scaled) {
            assert!(s.entropy <= 3.0 + 1e-12 && s.max_weight <= 1.0 && s.jacobian <= 0.25);
        }
    }

    #[test]
    fn histograms_count_every_value_once() {
        let xs = [-3.0, -1.0, 0.0, 0.5, 0.99, 1.0, 7.0];
        let h = histogram(&xs, -1.0, 1.0, 4);
        // Bins [-1, -0.5), [-0.5, 0), [0, 0.5), [0.5, 1).
        assert_eq!(h.counts, vec![1, 0, 1, 2]);
        assert_eq!((h.below, h.above), (1, 2));
        assert_eq!(h.counts.iter().sum::<usize>() + h.below + h.above, xs.len());
    }
}
