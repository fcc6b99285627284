//! Softmax turns a row of scores into weights that are positive and sum to 1:
//! `w_j = exp(s_j) / Σ_m exp(s_m)`. It keeps the order of the scores and
//! exaggerates their gaps, so the best-matching key gets most of the weight.
//!
//! Computed stably: subtracting the row's largest score first leaves the
//! result unchanged mathematically (the factor `exp(−max)` cancels) but keeps
//! every `exp` at most 1, so scores of 1e300 do not overflow.

/// eˣ with the same bits natively and in WebAssembly (the kernels'; every
/// softmax of the app uses it).
pub use attention_kernels::exp;

/// Softmax of `scores` over the entries where `allowed[j]` is true; masked
/// entries get exactly `0.0`.
///
/// Returns `None` when no entry is allowed: such a row has no softmax.
/// `scores` and `allowed` must have the same length (a shorter `allowed`
/// masks the rest).
pub fn softmax_masked(scores: &[f64], allowed: &[bool]) -> Option<Vec<f64>> {
    let parts = softmax_parts(scores, allowed)?;
    Some(parts.exps.iter().map(|e| e / parts.sum).collect())
}

/// The intermediate numbers of [`softmax_masked`], for showing the
/// computation: the largest visible score, `exp(s_j − max)` per entry (0 for
/// masked ones) and their sum. `weights[j] = exps[j] / sum`, exactly as the
/// engine computes them. `None` when no entry is allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct SoftmaxParts {
    pub max: f64,
    pub exps: Vec<f64>,
    pub sum: f64,
}

/// See [`SoftmaxParts`].
pub fn softmax_parts(scores: &[f64], allowed: &[bool]) -> Option<SoftmaxParts> {
    let visible = |j: usize| allowed.get(j).copied().unwrap_or(false);
    let max = (0..scores.len())
        .filter(|&j| visible(j))
        .map(|j| scores[j])
        .fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))))?;
    let exps: Vec<f64> = (0..scores.len())
        .map(|j| {
            if visible(j) {
                exp(scores[j] - max)
            } else {
                0.0
            }
        })
        .collect();
    let sum: f64 = exps.iter().sum();
    Some(SoftmaxParts { max, exps, sum })
}

/// The Jacobian of softmax at weights `w` (a row that sums to 1):
/// `J[i][j] = ∂w_i/∂s_j = w_i (δ_ij − w_j)`. When one weight approaches 1
/// (softmax saturates) every entry approaches 0: the gradient that reaches
/// the scores vanishes, which is why large scores learn slowly.
pub fn softmax_jacobian(w: &[f64]) -> super::Matrix {
    let n = w.len();
    super::Matrix::from_fn(n, n, |i, j| {
        let delta = if i == j { 1.0 } else { 0.0 };
        w[i] * (delta - w[j])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jacobian_matches_finite_differences() {
        let s = [0.3, -1.2, 2.0, 0.7];
        let all = [true; 4];
        let w = softmax_masked(&s, &all).unwrap();
        let j = softmax_jacobian(&w);
        let h = 1e-6;
        for c in 0..4 {
            let mut up = s;
            let mut down = s;
            up[c] += h;
            down[c] -= h;
            let (wu, wd) = (
                softmax_masked(&up, &all).unwrap(),
                softmax_masked(&down, &all).unwrap(),
            );
            for r in 0..4 {
                let fd = (wu[r] - wd[r]) / (2.0 * h);
                assert!(
                    (fd - j[(r, c)]).abs() < 1e-8,
                    "J[{r}][{c}] = {} vs {fd}",
                    j[(r, c)]
                );
            }
        }
        // Rows of J sum to 0 (the weights keep summing to 1).
        for r in 0..4 {
            assert!(j.row(r).iter().sum::<f64>().abs() < 1e-15);
        }
        // Saturated: a one-hot row has a zero Jacobian.
        assert!(softmax_jacobian(&[1.0, 0.0, 0.0]).iter().all(|x| *x == 0.0));
    }
}
