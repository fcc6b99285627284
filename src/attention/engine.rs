//! One head of self-attention, then many, then the output projection.
//!
//! For each head `r` (CONTRACT §2):
//!
//! ```text
//! Q = X·W_Q   K = X·W_K   V = X·W_V          (n×d_k, n×d_k, n×d_v)
//! scores  = Q·Kᵀ                               (n×n, row i = query i)
//! scaled  = scores / √d_k                      (or = scores when scale is off)
//! weights = softmax of each row over the keys the mask allows
//! head_output = weights · V                    (n×d_v)
//! ```
//!
//! then `concat = [head_output_1 … head_output_h]` (n × h·d_v) and
//! `output = concat · W_O` (or `concat` when there is no `W_O`). Heads are
//! concatenated side by side and mixed by `W_O`, never averaged.
//!
//! Products are summed left to right in `f64` ([`matmul`]), so a derivation
//! shown on screen (`1·4 + 0·4 + 2·0`) adds up to exactly the stored value,
//! and native and WebAssembly builds agree bit for bit on the products.

use super::mask::{self, hides_anything};
use super::positional::sinusoidal;
use super::softmax::softmax_masked;
use super::{Matrix, Positional, Reason, Scenario, ScenarioError, Stage};
use nalgebra::DMatrix;

/// Every intermediate of one head, rows in the row-vector orientation.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadTrace {
    /// `X_in·W_Q`, n × d_k.
    pub q: Matrix,
    /// `X_in·W_K`, n × d_k.
    pub k: Matrix,
    /// `X_in·W_V`, n × d_v.
    pub v: Matrix,
    /// `Q·Kᵀ`, n × n; `(i, j)` is query i against key j.
    pub scores: Matrix,
    /// `scores / √d_k` (or `scores` when scaling is off), n × n.
    pub scaled: Matrix,
    /// Row-wise masked softmax of `scaled`, n × n. Masked entries are exactly
    /// 0; rows listed in [`Trace::undefined_rows`] are all `NaN`.
    pub weights: Matrix,
    /// `weights · V`, n × d_v; `NaN` rows for undefined queries.
    pub output: Matrix,
}

/// Everything computed from a scenario: read by the rest of the app, which
/// computes nothing itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Position labels, one per row.
    pub tokens: Vec<String>,
    /// The sinusoidal encoding added to `x`, when the scenario asks for one.
    pub pe: Option<Matrix>,
    /// What the projections see: `x + pe` (or `x`), n × d_model.
    pub input: Matrix,
    /// `(i, j)` true when query i may attend to key j (shared by all heads).
    pub allowed: DMatrix<bool>,
    /// Whether the mask hides at least one key from some query.
    pub masked: bool,
    /// Queries with no visible key: their softmax is undefined.
    pub undefined_rows: Vec<usize>,
    /// The divisor applied to scores: √d_k, or 1 when scaling is off.
    pub divisor: f64,
    /// Whether the scenario divides the scores by √d_k.
    pub scale: bool,
    /// One entry per head.
    pub heads: Vec<HeadTrace>,
    /// Head outputs side by side, n × (h·d_v).
    pub concat: Matrix,
    /// `concat · W_O`, or `concat` when the scenario has no `W_O`.
    pub output: Matrix,
}

/// `a · b` with each entry summed left to right: `Σ_k a[i,k]·b[k,j]`.
///
/// Panics if `a.ncols() != b.nrows()`; callers check shapes first
/// ([`Scenario::validate`]).
pub fn matmul(a: &Matrix, b: &Matrix) -> Matrix {
    assert_eq!(
        a.ncols(),
        b.nrows(),
        "matmul: {}×{} · {}×{}",
        a.nrows(),
        a.ncols(),
        b.nrows(),
        b.ncols()
    );
    // Storage is column-major: row i of `a` is column i of `aᵀ`, so both
    // factors are read as contiguous slices (at d_model 512 this is most of
    // the time of an edit). The order of the sum is unchanged.
    let at = a.transpose();
    Matrix::from_fn(a.nrows(), b.ncols(), |i, j| {
        dot(column(&at, i), column(b, j))
    })
}

/// Column `j` of `m` as a slice (columns are contiguous).
fn column(m: &Matrix, j: usize) -> &[f64] {
    &m.as_slice()[j * m.nrows()..(j + 1) * m.nrows()]
}

/// `Σ x[k]·y[k]`, summed left to right from `0.0`.
fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).fold(0.0, |acc, (p, q)| acc + p * q)
}

/// `a · bᵀ` summed left to right (the scores `Q·Kᵀ` without a transpose copy).
pub fn matmul_t(a: &Matrix, b: &Matrix) -> Matrix {
    assert_eq!(
        a.ncols(),
        b.ncols(),
        "matmul_t: {}×{} · ({}×{})ᵀ",
        a.nrows(),
        a.ncols(),
        b.nrows(),
        b.ncols()
    );
    let (at, bt) = (a.transpose(), b.transpose());
    Matrix::from_fn(a.nrows(), b.nrows(), |i, j| {
        dot(column(&at, i), column(&bt, j))
    })
}

/// `Err` naming `field` when some entry of `m` in a row not listed in
/// `skip_rows` is not finite: finite inputs whose products overflow f64.
fn expect_finite(
    field: &str,
    what: Stage,
    m: &Matrix,
    skip_rows: &[usize],
) -> Result<(), ScenarioError> {
    let bad = (0..m.nrows())
        .filter(|r| !skip_rows.contains(r))
        .find(|&r| m.row(r).iter().any(|v| !v.is_finite()));
    match bad {
        None => Ok(()),
        Some(r) => Err(ScenarioError::new(
            field,
            Reason::Overflow { row: r + 1, what },
        )),
    }
}

/// Validates `scenario` and computes every intermediate of every head.
///
/// Errors are validation errors ([`Scenario::validate`]), or finite inputs
/// so large that a product overflows f64 (then the error names the head or
/// `w_o`): a number that is not finite is never shown as if it were one. A
/// valid scenario never panics here. Undefined softmax rows (all keys
/// masked) are not an error: they are reported in [`Trace::undefined_rows`].
pub fn compute(scenario: &Scenario) -> Result<Trace, ScenarioError> {
    scenario.validate()?;
    let n = scenario.n();
    let pe = match scenario.positional {
        Positional::None => None,
        Positional::Sinusoidal => Some(sinusoidal(n, scenario.d_model())),
    };
    let input = match &pe {
        Some(pe) => &scenario.x + pe,
        None => scenario.x.clone(),
    };
    let allowed = mask::allowed_matrix(&scenario.mask, n);
    let undefined_rows: Vec<usize> = (0..n)
        .filter(|&i| !(0..n).any(|j| allowed[(i, j)]))
        .collect();
    let divisor = if scenario.scale {
        (scenario.d_k() as f64).sqrt()
    } else {
        1.0
    };

    if let Some(pe) = &pe {
        expect_finite("x", Stage::Input, &input, &[])?;
        debug_assert!(pe.iter().all(|v| v.is_finite()));
    }
    let heads: Vec<HeadTrace> = scenario
        .heads
        .iter()
        .enumerate()
        .map(|(r, w)| {
            let field = format!("heads[{r}]");
            let q = matmul(&input, &w.w_q);
            let k = matmul(&input, &w.w_k);
            let v = matmul(&input, &w.w_v);
            expect_finite(&field, Stage::Q, &q, &[])?;
            expect_finite(&field, Stage::K, &k, &[])?;
            expect_finite(&field, Stage::V, &v, &[])?;
            let scores = matmul_t(&q, &k);
            expect_finite(&field, Stage::Scores, &scores, &[])?;
            let scaled = if scenario.scale {
                scores.map(|s| s / divisor)
            } else {
                scores.clone()
            };
            let weights = softmax_rows(&scaled, &allowed);
            let output = matmul(&weights, &v);
            expect_finite(&field, Stage::HeadOutput, &output, &undefined_rows)?;
            Ok(HeadTrace {
                q,
                k,
                v,
                scores,
                scaled,
                weights,
                output,
            })
        })
        .collect::<Result<_, ScenarioError>>()?;

    let d_v = scenario.d_v();
    let concat = Matrix::from_fn(n, heads.len() * d_v, |i, c| {
        heads[c / d_v].output[(i, c % d_v)]
    });
    let output = match &scenario.w_o {
        Some(w_o) => {
            let out = matmul(&concat, w_o);
            expect_finite("w_o", Stage::Output, &out, &undefined_rows)?;
            out
        }
        None => concat.clone(),
    };
    Ok(Trace {
        tokens: scenario.tokens.clone(),
        pe,
        input,
        masked: hides_anything(&allowed),
        allowed,
        undefined_rows,
        divisor,
        scale: scenario.scale,
        heads,
        concat,
        output,
    })
}

/// Row-wise masked softmax: row `i` of the result is the softmax of row `i`
/// of `scores` over the keys `allowed[(i, ·)]`; masked entries are exactly
/// 0, and a row with no visible key is all `NaN` (it has no softmax).
/// `scores` is n × m and `allowed` at least as large.
pub fn softmax_rows(scores: &Matrix, allowed: &DMatrix<bool>) -> Matrix {
    let (n, m) = scores.shape();
    let mut weights = Matrix::from_element(n, m, f64::NAN);
    for i in 0..n {
        let row: Vec<f64> = scores.row(i).iter().copied().collect();
        let visible: Vec<bool> = (0..m).map(|j| allowed[(i, j)]).collect();
        if let Some(ws) = softmax_masked(&row, &visible) {
            for (j, wij) in ws.into_iter().enumerate() {
                weights[(i, j)] = wij;
            }
        }
    }
    weights
}

impl Trace {
    /// Number of positions.
    pub fn n(&self) -> usize {
        self.input.nrows()
    }
}
