//! The backward pass, one function per operation of the forward pass, each
//! taking the gradient of the loss with respect to the operation's output
//! and returning it for the operation's inputs (docs/training.md,
//! "Backward"). Rows are positions (the engine's row-vector convention);
//! every product is the engine's left-to-right [`matmul`], so the gradients
//! have the same bits on every machine.

use attention::{matmul, matmul_t, Matrix};
use attention_kernels::{exp, ln};

/// `Aᵀ·B` (the engine's products, left to right).
fn t_mul(a: &Matrix, b: &Matrix) -> Matrix {
    matmul(&a.transpose(), b)
}

/// Mean cross-entropy's first step. `logits` is n × vocab (`Z = X_L·W_U`);
/// row i with a target y contributes `−log softmax(Z_i)_y`, and its gradient
/// row is `(softmax(Z_i) − one_hot(y)) · per_row` (`per_row` = 1 / the
/// number of predicted positions in the batch); rows without a target get
/// 0. Returns (the sum of the rows' losses, how many rows' argmax is their
/// target, how many rows have a target, dZ n × vocab).
pub fn cross_entropy(
    logits: &Matrix,
    targets: &[Option<usize>],
    per_row: f64,
) -> (f64, usize, usize, Matrix) {
    let mut dz = Matrix::zeros(logits.nrows(), logits.ncols());
    let (mut loss, mut right, mut count) = (0.0, 0, 0);
    for (i, y) in targets.iter().enumerate() {
        let Some(y) = *y else { continue };
        let row = logits.row(i);
        let max = row.max();
        let lse = max + ln(row.iter().map(|z| exp(z - max)).sum::<f64>());
        loss += lse - row[y];
        right += usize::from(argmax(row.iter().copied()) == y);
        count += 1;
        for (c, z) in row.iter().enumerate() {
            dz[(i, c)] = (exp(z - lse) - f64::from(u8::from(c == y))) * per_row;
        }
    }
    (loss, right, count, dz)
}

/// Binary cross-entropy of independent sigmoids (the multi-label read-out,
/// note 000 §2): row `row` of `logits`, its first `present.len()` columns,
/// one label each with target y = `present[c]`. Each label contributes
/// `−y·log σ(z) − (1 − y)·log(1 − σ(z))`, computed as
/// `max(z, 0) − y·z + log(1 + e^(−|z|))` so that no large |z| overflows,
/// and its gradient is `(σ(z) − y) · per_label` (`per_label` = 1 / the
/// number of labels in the batch); every other entry of dZ is 0. Returns
/// (the sum of the labels' losses, how many labels `σ(z) > 1/2` gets right,
/// how many labels, dZ).
pub fn binary_cross_entropy(
    logits: &Matrix,
    row: usize,
    present: &[bool],
    per_label: f64,
) -> (f64, usize, usize, Matrix) {
    let mut dz = Matrix::zeros(logits.nrows(), logits.ncols());
    let (mut loss, mut right) = (0.0, 0);
    for (c, &y) in present.iter().enumerate() {
        let (z, y) = (logits[(row, c)], f64::from(u8::from(y)));
        loss += z.max(0.0) - y * z + ln(1.0 + exp(-z.abs()));
        right += usize::from((z > 0.0) == (y == 1.0));
        dz[(row, c)] = (sigmoid(z) - y) * per_label;
    }
    (loss, right, present.len(), dz)
}

/// `1 / (1 + e^(−z))`, without overflow for large |z|.
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + exp(-z))
    } else {
        let e = exp(z);
        e / (1.0 + e)
    }
}

/// The index of the largest value (the first of equal ones).
pub fn argmax(values: impl Iterator<Item = f64>) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, v) in values.enumerate() {
        if v > best.1 {
            best = (i, v);
        }
    }
    best.0
}

/// Any product `Y = X·W` with X n × a, W a × b: `dW = Xᵀ·dY` (a × b) and
/// `dX = dY·Wᵀ` (n × a). The unembedding, W_O and the three projections are
/// this operation.
pub fn linear(x: &Matrix, w: &Matrix, dy: &Matrix) -> (Matrix, Matrix) {
    (t_mul(x, dy), matmul_t(dy, w))
}

/// Unembedding `Z = X_L·W_U` (n × d_model · d_model × vocab):
/// `dW_U = X_Lᵀ·dZ` (d_model × vocab), `dX_L = dZ·W_Uᵀ` (n × d_model).
pub fn unembedding(x_last: &Matrix, w_u: &Matrix, dz: &Matrix) -> (Matrix, Matrix) {
    linear(x_last, w_u, dz)
}

/// Residual `X_{l+1} = X_l + A_l`: the gradient reaches both terms whole,
/// `dA_l = dX_{l+1}` and `dX_l = dX_{l+1} + (what flows back through A_l)`.
/// Returns dA_l (n × d_model); the caller keeps dX_{l+1} as dX_l's start.
pub fn residual(dx_next: &Matrix) -> Matrix {
    dx_next.clone()
}

/// Output projection `A = C·W_O` (n × h·d_v · h·d_v × d_model):
/// `dW_O = Cᵀ·dA` (h·d_v × d_model), `dC = dA·W_Oᵀ` (n × h·d_v).
pub fn output_projection(concat: &Matrix, w_o: &Matrix, da: &Matrix) -> (Matrix, Matrix) {
    linear(concat, w_o, da)
}

/// The concatenation `C = [H_1 … H_h]` split back: head r's gradient
/// `dH_r` is columns `r·d_v … (r+1)·d_v − 1` of dC (each n × d_v).
pub fn concat_split(dc: &Matrix, heads: usize) -> Vec<Matrix> {
    let d_v = dc.ncols() / heads.max(1);
    (0..heads)
        .map(|r| dc.columns(r * d_v, d_v).clone_owned())
        .collect()
}

/// A head's weighted sum `H = α·V` (n × n · n × d_v):
/// `dα = dH·Vᵀ` (n × n), `dV = αᵀ·dH` (n × d_v).
pub fn weighted_sum(weights: &Matrix, v: &Matrix, dh: &Matrix) -> (Matrix, Matrix) {
    (matmul_t(dh, v), t_mul(weights, dh))
}

/// Row softmax `α_i = softmax(S_i)` over the keys the mask allows
/// (n × n): `dS_ij = α_ij·(dα_ij − Σ_k α_ik·dα_ik)`. A masked key has
/// α_ij = 0 exactly, so its score gets no gradient (as −∞ would).
pub fn softmax(weights: &Matrix, dweights: &Matrix) -> Matrix {
    let (n, m) = weights.shape();
    let mut ds = Matrix::zeros(n, m);
    for i in 0..n {
        let dot: f64 = (0..m).map(|k| weights[(i, k)] * dweights[(i, k)]).sum();
        for j in 0..m {
            ds[(i, j)] = weights[(i, j)] * (dweights[(i, j)] - dot);
        }
    }
    ds
}

/// Scaling `S = scores / √d_k` (n × n): `dscores = dS / √d_k`
/// (`divisor` is √d_k, the engine's [`Trace::divisor`](attention::Trace)).
pub fn scale(dscaled: &Matrix, divisor: f64) -> Matrix {
    dscaled / divisor
}

/// Scores `scores = Q·Kᵀ` (n × d_k · d_k × n):
/// `dQ = dscores·K` (n × d_k), `dK = dscoresᵀ·Q` (n × d_k).
pub fn scores(q: &Matrix, k: &Matrix, dscores: &Matrix) -> (Matrix, Matrix) {
    (matmul(dscores, k), t_mul(dscores, q))
}

/// A projection `Q = X·W_Q` (likewise K with W_K and V with W_V; X n ×
/// d_model, W d_model × d_k): `dW = Xᵀ·dQ` (d_model × d_k) and the part
/// `dQ·Wᵀ` (n × d_model) of dX. The three parts add up in dX.
pub fn projection(x: &Matrix, w: &Matrix, dq: &Matrix) -> (Matrix, Matrix) {
    linear(x, w, dq)
}

/// The embedding as a product, `X_1 = F·E + P` (`digits`: F n × (p² + 1)
/// holds the class token and the patches' pixels, E (p² + 1) × d_model):
/// `dE = Fᵀ·dX_1`. The gather below is the same product with one-hot rows
/// of F, done without multiplying by zeros.
pub fn embedding_product(f: &Matrix, dx: &Matrix) -> Matrix {
    t_mul(f, dx)
}

/// Embedding gather `X_1[i] = E[token_i] + P[i]` (E vocab × d_model):
/// row i of dX_1 is added to row `token_i` of dE (a token that occurs twice
/// gets both rows). The position part is `dP = dX_1` (n × d_model) when the
/// positions are learned, nothing when fixed or absent.
pub fn embedding_gather(tokens: &[usize], dx: &Matrix, de: &mut Matrix) {
    for (i, &t) in tokens.iter().enumerate() {
        for c in 0..dx.ncols() {
            de[(t, c)] += dx[(i, c)];
        }
    }
}
