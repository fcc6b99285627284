//! Softmax turns a row of scores into weights that are positive and sum to 1:
//! `w_j = exp(s_j) / Σ_m exp(s_m)`. It keeps the order of the scores and
//! exaggerates their gaps, so the best-matching key gets most of the weight.
//!
//! Computed stably: subtracting the row's largest score first leaves the
//! result unchanged mathematically (the factor `exp(−max)` cancels) but keeps
//! every `exp` at most 1, so scores of 1e300 do not overflow.

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
                (scores[j] - max).exp()
            } else {
                0.0
            }
        })
        .collect();
    let sum: f64 = exps.iter().sum();
    Some(SoftmaxParts { max, exps, sum })
}
