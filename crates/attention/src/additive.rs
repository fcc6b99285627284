//! Additive scoring (Bahdanau et al.; note 000 §4.4 and note 001 compare it
//! with the dot product): a small network scores each pair,
//! `score(q, k) = w_aᵀ · tanh(W_a·q + U_a·k)`.
//!
//! With `W_a` and `U_a` of shape `h × d_k` and `w_a` of length `h`, one
//! score costs about `h·(2·d_k + 1)` multiply-adds and `h` tanh calls, and it
//! cannot be written as one matrix product of Q and Kᵀ: this is why the
//! notes and the libraries use the (scaled) dot product, which is one
//! matrix multiplication for all pairs at once.

use super::engine::matmul_t;
use super::Matrix;

/// The additive scores of every query (rows of `q`, n × d_k) against every
/// key (rows of `k`, m × d_k): an n × m matrix with
/// `s[i][j] = Σ_a w_a[a]·tanh(Σ_c W_a[a][c]·q[i][c] + Σ_c U_a[a][c]·k[j][c])`.
///
/// Returns `None` when the shapes do not fit (`W_a`, `U_a` must be
/// `h × d_k` and `w_a` of length `h`).
pub fn additive_scores(
    q: &Matrix,
    k: &Matrix,
    w_a: &Matrix,
    u_a: &Matrix,
    v: &[f64],
) -> Option<Matrix> {
    let (d, h) = (q.ncols(), v.len());
    if k.ncols() != d || w_a.shape() != (h, d) || u_a.shape() != (h, d) {
        return None;
    }
    // W_a·qⁱ and U_a·kʲ once each (the engine's product: each sum left to
    // right, as every other product on the page), then a tanh per pair and
    // hidden unit.
    let wq = matmul_t(q, w_a); // n × h
    let uk = matmul_t(k, u_a); // m × h
    Some(Matrix::from_fn(q.nrows(), k.nrows(), |i, j| {
        (0..h).fold(0.0, |acc, a| acc + v[a] * (wq[(i, a)] + uk[(j, a)]).tanh())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: &[&[f64]]) -> Matrix {
        Matrix::from_fn(rows.len(), rows[0].len(), |r, c| rows[r][c])
    }

    /// A 2×2 case worked by hand: q¹ = (1, 0), q² = (0, 1), k¹ = (1, 1),
    /// k² = (0, −1); W_a = I, U_a = I, w_a = (1, 2).
    /// Pair (1,1): W_a q¹ + U_a k¹ = (2, 1) → tanh 2 + 2 tanh 1.
    /// Pair (1,2): (1, −1) → tanh 1 − 2 tanh 1 = −tanh 1.
    /// Pair (2,1): (1, 2) → tanh 1 + 2 tanh 2.
    /// Pair (2,2): (0, 0) → 0.
    #[test]
    fn a_two_by_two_case_by_hand() {
        let q = m(&[&[1.0, 0.0], &[0.0, 1.0]]);
        let k = m(&[&[1.0, 1.0], &[0.0, -1.0]]);
        let id = m(&[&[1.0, 0.0], &[0.0, 1.0]]);
        let s = additive_scores(&q, &k, &id, &id, &[1.0, 2.0]).unwrap();
        let (t1, t2) = (1f64.tanh(), 2f64.tanh());
        let want = [[t2 + 2.0 * t1, -t1], [t1 + 2.0 * t2, 0.0]];
        for i in 0..2 {
            for j in 0..2 {
                assert!(
                    (s[(i, j)] - want[i][j]).abs() < 1e-15,
                    "s[{i}][{j}] = {}",
                    s[(i, j)]
                );
            }
        }
        // Shapes that do not fit are refused, not a panic.
        assert!(additive_scores(&q, &k, &m(&[&[1.0, 0.0]]), &id, &[1.0, 2.0]).is_none());
        assert!(additive_scores(&q, &m(&[&[1.0]]), &id, &id, &[1.0, 2.0]).is_none());
    }
}
