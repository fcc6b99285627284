//! One head of self-attention, then many, then the output projection.
//!
//! For each head `r` (docs/format.md §2):
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
//! `X` here is what the projections see, `trace.input`: the scenario's `x`,
//! `x + PE` (sinusoidal positions) or `[x | I_n]` (one-hot positions, note
//! `001`: position i's `eⁱ` concatenated after `xⁱ`, so the weights have
//! d_model + n rows).
//!
//! Products are summed left to right in `f64` ([`matmul`]), so a derivation
//! shown on screen (`1·4 + 0·4 + 2·0`) adds up to exactly the stored value,
//! and native and WebAssembly builds agree bit for bit on the products.

use super::mask::{self, hides_anything};
use super::positional::sinusoidal;
use super::{HeadWeights, Matrix, Positional, Reason, Scenario, ScenarioError, Stage};
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
    /// Which positional encoding the scenario asks for (says how `pe` and
    /// `input` relate to `x`).
    pub positional: Positional,
    /// The position part: the sinusoidal encoding added to `x` (n × d_model),
    /// or the one-hot vectors `eⁱ` concatenated after it (`I_n`, n × n);
    /// `None` without positions.
    pub pe: Option<Matrix>,
    /// What the projections see: `x`, `x + pe` (n × d_model) or `[x | pe]`
    /// (n × (d_model + n)); its width is [`Scenario::d_in`].
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
    // The kernel runs many entries' sums at once, each still summing its
    // terms left to right (k = 0, 1, …) from 0.0: the same operations in the
    // same order as the plain triple loop (crates/kernels).
    let (n, p, m) = (a.nrows(), a.ncols(), b.ncols());
    let mut c = Matrix::zeros(n, m);
    attention_kernels::matmul(a.as_slice(), b.as_slice(), c.as_mut_slice(), n, p, m);
    c
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
    // As in [`matmul`]: per entry, terms k = 0, 1, … in order.
    let (n, p, m) = (a.nrows(), a.ncols(), b.nrows());
    let mut c = Matrix::zeros(n, m);
    attention_kernels::matmul_t(a.as_slice(), b.as_slice(), c.as_mut_slice(), n, p, m);
    c
}

/// `Err` naming `field` when some entry of `m` in a row not listed in
/// `skip_rows` is not finite: finite inputs whose products overflow f64.
/// The row named is the first such row.
fn expect_finite(
    field: &str,
    what: Stage,
    m: &Matrix,
    skip_rows: &[usize],
) -> Result<(), ScenarioError> {
    if attention_kernels::all_finite(m.as_slice()) {
        return Ok(());
    }
    // One pass down the stored columns (nalgebra stores columns), keeping
    // the smallest offending row.
    let n = m.nrows().max(1);
    let bad = m
        .as_slice()
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_finite())
        .map(|(at, _)| at % n)
        .filter(|r| !skip_rows.contains(r))
        .min();
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
    let (pe, input) = match scenario.positional {
        Positional::None => (None, scenario.x.clone()),
        Positional::Sinusoidal => {
            let pe = sinusoidal(n, scenario.d_model());
            let input = &scenario.x + &pe;
            expect_finite("x", Stage::Input, &input, &[])?;
            (Some(pe), input)
        }
        Positional::OneHot => {
            let e = Matrix::identity(n, n);
            let input = concat_columns(&scenario.x, &e);
            (Some(e), input)
        }
    };
    layer(
        scenario,
        LayerIn {
            pe,
            input,
            heads: &scenario.heads,
            w_o: scenario.w_o.as_ref(),
            prefix: "",
        },
    )
}

/// What one layer reads: its input (with the positions, for layer 1), its
/// weights, and the prefix that names its fields in errors (`stack[0].`).
struct LayerIn<'a> {
    pe: Option<Matrix>,
    input: Matrix,
    heads: &'a [HeadWeights],
    w_o: Option<&'a Matrix>,
    prefix: &'a str,
}

/// One layer of attention over `l.input` with the scenario's mask and
/// scaling: every head, the concatenation and the output projection. The
/// same code for every layer, so layer l of a stack is bit for bit the one
/// layer of a scenario whose `x` is layer l's input.
fn layer(scenario: &Scenario, l: LayerIn) -> Result<Trace, ScenarioError> {
    let LayerIn {
        pe,
        input,
        heads,
        w_o,
        prefix,
    } = l;
    let n = input.nrows();
    let allowed = mask::allowed_matrix(&scenario.mask, n);
    let undefined_rows: Vec<usize> = (0..n)
        .filter(|&i| !(0..n).any(|j| allowed[(i, j)]))
        .collect();
    let d_k = heads.first().map_or(0, |h| h.w_q.ncols());
    let d_v = heads.first().map_or(0, |h| h.w_v.ncols());
    let divisor = if scenario.scale {
        (d_k as f64).sqrt()
    } else {
        1.0
    };

    let heads: Vec<HeadTrace> = heads
        .iter()
        .enumerate()
        .map(|(r, w)| {
            let field = format!("{prefix}heads[{r}]");
            let q = matmul(&input, &w.w_q);
            let k = matmul(&input, &w.w_k);
            let v = matmul(&input, &w.w_v);
            expect_finite(&field, Stage::Q, &q, &[])?;
            expect_finite(&field, Stage::K, &k, &[])?;
            expect_finite(&field, Stage::V, &v, &[])?;
            let scores = matmul_t(&q, &k);
            expect_finite(&field, Stage::Scores, &scores, &[])?;
            let scaled = if scenario.scale {
                let mut scaled = Matrix::zeros(n, n);
                attention_kernels::div_by(scores.as_slice(), divisor, scaled.as_mut_slice());
                scaled
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

    // Head r's output is columns r·d_v … r·d_v + d_v − 1: one contiguous
    // block of the column-major storage per head.
    let mut concat = Matrix::zeros(n, heads.len() * d_v);
    for (block, head) in concat
        .as_mut_slice()
        .chunks_exact_mut((n * d_v).max(1))
        .zip(&heads)
    {
        block.copy_from_slice(head.output.as_slice());
    }
    let output = match w_o {
        Some(w_o) => {
            let out = matmul(&concat, w_o);
            expect_finite(
                &format!("{prefix}w_o"),
                Stage::Output,
                &out,
                &undefined_rows,
            )?;
            out
        }
        None => concat.clone(),
    };
    Ok(Trace {
        tokens: scenario.tokens.clone(),
        positional: if prefix.is_empty() {
            scenario.positional
        } else {
            Positional::None
        },
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

/// Every layer of a scenario (docs/format.md §1b; note 000 §3.2: the next
/// layer's input is the previous layer's output, already mixed with
/// context).
#[derive(Clone, Debug, PartialEq)]
pub struct StackTrace {
    /// One trace per layer. Layer 1's is [`compute`]'s; layer l + 1 reads
    /// layer l's output (`input`), with no positions added again.
    pub layers: Vec<Trace>,
    /// Each layer's output `O_l`: `X_l + A_l` when the layer adds its input
    /// back (`residual`), else its attention output `A_l` (the trace's
    /// `output`). The last is the scenario's output.
    pub outputs: Vec<Matrix>,
}

impl StackTrace {
    /// The scenario's output, the last layer's `O_L`.
    pub fn output(&self) -> &Matrix {
        self.outputs.last().expect("a stack has at least one layer")
    }
}

/// Validates `scenario` and computes every layer: layer 1 as [`compute`],
/// then each layer of `stack` on the previous layer's output, by the same
/// code. The cost grows linearly with the number of layers.
pub fn compute_stack(scenario: &Scenario) -> Result<StackTrace, ScenarioError> {
    let first = compute(scenario)?;
    let mut out = StackTrace {
        outputs: vec![with_residual(&first, scenario.residual, "residual")?],
        layers: vec![first],
    };
    for (l, next) in scenario.stack.iter().enumerate() {
        let prefix = format!("stack[{l}].");
        let input = out.outputs[l].clone();
        let trace = layer(
            scenario,
            LayerIn {
                pe: None,
                input,
                heads: &next.heads,
                w_o: next.w_o.as_ref(),
                prefix: &prefix,
            },
        )?;
        out.outputs.push(with_residual(
            &trace,
            next.residual,
            &format!("{prefix}residual"),
        )?);
        out.layers.push(trace);
    }
    Ok(out)
}

/// A layer's output: `X + A` when it adds its input back, else `A`.
fn with_residual(t: &Trace, residual: bool, field: &str) -> Result<Matrix, ScenarioError> {
    if !residual {
        return Ok(t.output.clone());
    }
    let sum = &t.input + &t.output;
    expect_finite(field, Stage::Output, &sum, &t.undefined_rows)?;
    Ok(sum)
}

/// `[a | b]`: the columns of `b` after those of `a` (same number of rows).
pub fn concat_columns(a: &Matrix, b: &Matrix) -> Matrix {
    assert_eq!(a.nrows(), b.nrows(), "concat_columns: row counts differ");
    let d = a.ncols();
    Matrix::from_fn(a.nrows(), d + b.ncols(), |i, c| {
        if c < d {
            a[(i, c)]
        } else {
            b[(i, c - d)]
        }
    })
}

/// Row-wise masked softmax: row `i` of the result is the softmax of row `i`
/// of `scores` over the keys `allowed[(i, ·)]`; masked entries are exactly
/// 0, and a row with no visible key is all `NaN` (it has no softmax).
/// `scores` is n × m and `allowed` at least as large. Per row, the same
/// operations as [`softmax_masked`](super::softmax_masked).
pub fn softmax_rows(scores: &Matrix, allowed: &DMatrix<bool>) -> Matrix {
    let (n, m) = scores.shape();
    assert!(
        allowed.nrows() >= n && allowed.ncols() >= m,
        "softmax_rows: mask {}×{} smaller than scores {n}×{m}",
        allowed.nrows(),
        allowed.ncols()
    );
    // Row by row down the column-major storage, per row exactly the steps
    // of [`softmax_masked`](super::softmax_masked) (crates/kernels).
    let mut weights = Matrix::zeros(n, m);
    attention_kernels::softmax_rows(
        scores.as_slice(),
        allowed.as_slice(),
        allowed.nrows(),
        weights.as_mut_slice(),
        n,
        m,
    );
    weights
}

impl Trace {
    /// Number of positions.
    pub fn n(&self) -> usize {
        self.input.nrows()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HeadWeights, Mask, FORMAT};

    fn m(rows: &[&[f64]]) -> Matrix {
        Matrix::from_fn(rows.len(), rows[0].len(), |r, c| rows[r][c])
    }

    fn scenario(x: Matrix, w: HeadWeights, positional: Positional) -> Scenario {
        Scenario {
            format: FORMAT.into(),
            tokens: (1..=x.nrows()).map(|i| format!("t{i}")).collect(),
            x,
            heads: vec![w],
            w_o: None,
            scale: false,
            mask: Mask::None,
            positional,
            residual: false,
            stack: Vec::new(),
        }
    }

    /// Two tokens of width 2, one-hot positions: the projections multiply
    /// `[x | e] = [[1, 2, 1, 0], [3, 0, 0, 1]]` by 4×1 weights, worked out by
    /// hand below.
    #[test]
    fn one_hot_positions_are_concatenated_a_hand_worked_case() {
        let x = m(&[&[1.0, 2.0], &[3.0, 0.0]]);
        let w = HeadWeights {
            w_q: m(&[&[1.0], &[0.0], &[0.5], &[-1.0]]),
            w_k: m(&[&[0.0], &[1.0], &[2.0], &[0.0]]),
            w_v: m(&[&[1.0], &[1.0], &[0.0], &[10.0]]),
        };
        let s = scenario(x, w, Positional::OneHot);
        assert_eq!(s.d_in(), 4);
        let t = compute(&s).unwrap();
        assert_eq!(t.positional, Positional::OneHot);
        assert_eq!(t.pe, Some(m(&[&[1.0, 0.0], &[0.0, 1.0]])));
        assert_eq!(t.input, m(&[&[1.0, 2.0, 1.0, 0.0], &[3.0, 0.0, 0.0, 1.0]]));
        let h = &t.heads[0];
        // q¹ = 1·1 + 2·0 + 1·0.5 + 0·(−1) = 1.5;  q² = 3·1 + 0·0 + 0·0.5 + 1·(−1) = 2
        assert_eq!(h.q, m(&[&[1.5], &[2.0]]));
        // k¹ = 1·0 + 2·1 + 1·2 + 0·0 = 4;  k² = 3·0 + 0·1 + 0·2 + 1·0 = 0
        assert_eq!(h.k, m(&[&[4.0], &[0.0]]));
        // v¹ = 1 + 2 + 0 + 0 = 3;  v² = 3 + 0 + 0 + 1·10 = 13 (position 2's row)
        assert_eq!(h.v, m(&[&[3.0], &[13.0]]));
        // scores: 1.5·4 = 6, 1.5·0 = 0; 2·4 = 8, 2·0 = 0
        assert_eq!(h.scores, m(&[&[6.0, 0.0], &[8.0, 0.0]]));
        // softmax(6, 0) = (e⁶, 1)/(e⁶ + 1); output = 3·α′₁₁ + 13·α′₁₂
        let (a, b) = (6f64.exp() / (6f64.exp() + 1.0), 1.0 / (6f64.exp() + 1.0));
        assert!((h.weights[(0, 0)] - a).abs() < 1e-15);
        assert!((h.weights[(0, 1)] - b).abs() < 1e-15);
        assert!((t.output[(0, 0)] - (3.0 * a + 13.0 * b)).abs() < 1e-13);
        let (a, b) = (8f64.exp() / (8f64.exp() + 1.0), 1.0 / (8f64.exp() + 1.0));
        assert!((t.output[(1, 0)] - (3.0 * a + 13.0 * b)).abs() < 1e-13);
        // Without positions the same x would need 2-row weights.
        let e = compute(&scenario(
            t.input.columns(0, 2).clone_owned(),
            s.heads[0].clone(),
            Positional::None,
        ))
        .unwrap_err();
        assert_eq!(e.to_string(), "heads[0].w_q: expected 2×1, got 4×1");
    }

    /// A 3-token scenario with distinct inputs and 2 heads' worth of widths.
    fn three_tokens(positional: Positional, position_rows: f64) -> Scenario {
        let x = m(&[&[1.0, 0.0, 2.0], &[0.5, 1.0, 0.0], &[0.0, -1.0, 1.0]]);
        let part = |seed: f64, cols: usize| {
            Matrix::from_fn(3, cols, |r, c| ((r * 3 + c) as f64 * seed).sin())
        };
        let with_positions = |w: Matrix| {
            let pos = Matrix::from_fn(3, w.ncols(), |p, c| {
                position_rows * ((p + 1) as f64 * 0.7 - c as f64 * 0.3)
            });
            match positional {
                Positional::OneHot => Matrix::from_fn(6, w.ncols(), |r, c| {
                    if r < 3 {
                        w[(r, c)]
                    } else {
                        pos[(r - 3, c)]
                    }
                }),
                _ => w,
            }
        };
        let w = HeadWeights {
            w_q: with_positions(part(0.9, 2)),
            w_k: with_positions(part(1.3, 2)),
            w_v: with_positions(part(0.4, 2)),
        };
        let mut s = scenario(x, w, positional);
        s.scale = true;
        s
    }

    #[test]
    fn one_hot_with_zero_position_rows_is_no_positions_exactly() {
        let plain = compute(&three_tokens(Positional::None, 0.0)).unwrap();
        let zero = compute(&three_tokens(Positional::OneHot, 0.0)).unwrap();
        assert_eq!(zero.input.ncols(), 6);
        assert_eq!(zero.heads, plain.heads);
        assert_eq!(zero.output, plain.output);
        let some = compute(&three_tokens(Positional::OneHot, 1.0)).unwrap();
        assert_ne!(some.output, plain.output);
    }

    /// Token order: `perm[i]` is the old row that becomes row i.
    fn permuted(s: &Scenario, perm: &[usize]) -> Scenario {
        let mut p = s.clone();
        p.x = Matrix::from_fn(s.n(), s.d_model(), |i, c| s.x[(perm[i], c)]);
        p.tokens = perm.iter().map(|&i| s.tokens[i].clone()).collect();
        p
    }

    fn rows_permuted(m: &Matrix, perm: &[usize]) -> Matrix {
        Matrix::from_fn(m.nrows(), m.ncols(), |i, c| m[(perm[i], c)])
    }

    fn close(a: &Matrix, b: &Matrix) -> bool {
        a.shape() == b.shape() && a.iter().zip(b.iter()).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn one_hot_positions_break_permutation_equivariance() {
        let perm = [2, 0, 1];
        // Without positions, permuting the tokens permutes the outputs.
        let s = three_tokens(Positional::None, 0.0);
        let out = compute(&s).unwrap().output;
        let out_p = compute(&permuted(&s, &perm)).unwrap().output;
        assert!(close(&out_p, &rows_permuted(&out, &perm)));
        // With one-hot positions the weights see where a token is: not so.
        let s = three_tokens(Positional::OneHot, 1.0);
        let out = compute(&s).unwrap().output;
        let out_p = compute(&permuted(&s, &perm)).unwrap().output;
        assert!(!close(&out_p, &rows_permuted(&out, &perm)));
        let diff = (&out_p - rows_permuted(&out, &perm)).abs().max();
        assert!(diff > 1e-3, "{diff}");
    }

    #[test]
    fn one_hot_validation_names_the_rows_it_needs() {
        let mut s = three_tokens(Positional::None, 0.0);
        s.positional = Positional::OneHot;
        let e = s.validate().unwrap_err();
        assert_eq!(e.field, "heads[0].w_q");
        assert_eq!(
            e.to_string(),
            "heads[0].w_q: expected (d_model + n)×2 = (3 + 3)×2 = 6×2 \
             (the one-hot positions add one row per position), got 3×2"
        );
        let mut s = three_tokens(Positional::OneHot, 1.0);
        s.heads[0].w_v = s.heads[0].w_v.rows(0, 5).clone_owned();
        assert_eq!(s.validate().unwrap_err().field, "heads[0].w_v");
        // Sinusoidal keeps d_model rows.
        let mut s = three_tokens(Positional::OneHot, 1.0);
        s.positional = Positional::Sinusoidal;
        assert!(matches!(
            s.validate().unwrap_err().reason,
            Reason::Shape {
                want: (3, 2),
                got: (6, 2)
            }
        ));
    }
}
