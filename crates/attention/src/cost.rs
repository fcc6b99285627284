//! What attention costs, and cheaper variants (note `000` §7; docs/figures.md F10).
//!
//! Dense attention compares every query with every key: `O(n²·(d_k + d_v))`
//! multiply-adds and `n²` stored scores per head. The variants here trade
//! that for a window (exact for the window's mask), a low-rank projection of
//! the keys and values to `r` rows (Linformer; an approximation), or a
//! feature map `φ(x) = elu(x) + 1` that turns attention into a running sum
//! (linear attention, "Transformers are RNNs"; an approximation).
//!
//! Every variant is written once, generic over [`Ops`]: [`Real`] computes
//! the numbers and counts as it goes, [`Shapes`] only counts (so the cost
//! plot can reach n = 4096 without doing the work). Both count in the same
//! kernels, so the counts on the plot are the counts of the computation the
//! page shows.

use super::engine::{matmul, matmul_t, softmax_rows};
use super::{Matrix, Scenario, Trace};
use nalgebra::DMatrix;

/// Work and memory of one computation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Multiply-adds (a running sum's additions count as one each too).
    pub madds: u64,
    /// Calls of `exp` (softmax) or of the feature map φ (linear attention).
    pub exps: u64,
    /// Score entries held at once (linear attention: its state instead).
    pub stored: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.madds += o.madds;
        self.exps += o.exps;
        self.stored += o.stored;
    }
}

/// Which keys query `i` of `n` sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    All,
    /// `j ≤ i`.
    Causal,
    /// `|i − j| ≤ W`.
    Window(usize),
}

impl Keys {
    /// The visible keys of query `i`, a contiguous range.
    pub fn range(self, i: usize, n: usize) -> std::ops::Range<usize> {
        match self {
            Keys::All => 0..n,
            Keys::Causal => 0..(i + 1).min(n),
            Keys::Window(w) => i.saturating_sub(w)..(i + w + 1).min(n),
        }
    }

    /// How many (query, key) pairs of `rows` queries and `cols` keys are
    /// visible in all.
    pub fn pairs(self, rows: usize, cols: usize) -> u64 {
        match self {
            Keys::All => (rows * cols) as u64,
            _ => (0..rows).map(|i| self.range(i, cols).len() as u64).sum(),
        }
    }

    /// As a `rows × cols` table for the engine's softmax.
    pub fn allowed(self, rows: usize, cols: usize) -> DMatrix<bool> {
        DMatrix::from_fn(rows, cols, |i, j| self.range(i, cols).contains(&j))
    }
}

/// The operations the variants are written in. Each kernel adds its own
/// work to [`Ops::counts`]: `a·b` costs `rows(a)·cols(a)·cols(b)`.
pub trait Ops {
    type M: Clone;
    fn counts(&mut self) -> &mut Counts;
    fn shape(m: &Self::M) -> (usize, usize);
    /// `a·b`.
    fn mm(&mut self, a: &Self::M, b: &Self::M) -> Self::M;
    /// `aᵀ·b`.
    fn tmm(&mut self, a: &Self::M, b: &Self::M) -> Self::M;
    /// Scores `q·kᵀ` of the visible pairs only (the others are left 0);
    /// stores those scores.
    fn scores(&mut self, q: &Self::M, k: &Self::M, keys: Keys) -> Self::M;
    /// Row softmax over the visible keys (after dividing by `divisor`).
    fn softmax(&mut self, s: &Self::M, divisor: f64, keys: Keys) -> Self::M;
    /// `Σ_j w[i,j]·v[j]` over the visible keys only.
    fn weigh(&mut self, w: &Self::M, v: &Self::M, keys: Keys) -> Self::M;
    /// The segment-mean pooling `P` (`r × n`): row `t` averages positions
    /// `⌊t·n/r⌋ … ⌊(t+1)·n/r⌋ − 1`, so `r = n` is the identity.
    fn pooling(&mut self, r: usize, n: usize) -> Self::M;
    /// Causal linear attention by its recurrence (see [`linear_recurrent`]).
    fn linear(&mut self, q: &Self::M, k: &Self::M, v: &Self::M) -> Self::M;
    /// Heads side by side.
    fn concat(&mut self, parts: &[Self::M]) -> Self::M;
}

fn mm_count(c: &mut Counts, n: usize, k: usize, m: usize) {
    c.madds += (n * k * m) as u64;
}

/// Computes and counts.
#[derive(Default)]
pub struct Real(pub Counts);

/// Counts only: a matrix is its shape.
#[derive(Default)]
pub struct Shapes(pub Counts);

impl Ops for Real {
    type M = Matrix;
    fn counts(&mut self) -> &mut Counts {
        &mut self.0
    }
    fn shape(m: &Matrix) -> (usize, usize) {
        m.shape()
    }
    fn mm(&mut self, a: &Matrix, b: &Matrix) -> Matrix {
        mm_count(&mut self.0, a.nrows(), a.ncols(), b.ncols());
        matmul(a, b)
    }
    fn tmm(&mut self, a: &Matrix, b: &Matrix) -> Matrix {
        mm_count(&mut self.0, a.ncols(), a.nrows(), b.ncols());
        matmul(&a.transpose(), b)
    }
    fn scores(&mut self, q: &Matrix, k: &Matrix, keys: Keys) -> Matrix {
        let n = q.nrows();
        self.0.stored += keys.pairs(n, k.nrows());
        if keys == Keys::All {
            mm_count(&mut self.0, n, q.ncols(), k.nrows());
            return matmul_t(q, k);
        }
        let mut s = Matrix::zeros(n, k.nrows());
        for i in 0..n {
            for j in keys.range(i, k.nrows()) {
                self.0.madds += q.ncols() as u64;
                s[(i, j)] = (0..q.ncols()).fold(0.0, |acc, c| acc + q[(i, c)] * k[(j, c)]);
            }
        }
        s
    }
    fn softmax(&mut self, s: &Matrix, divisor: f64, keys: Keys) -> Matrix {
        self.0.exps += keys.pairs(s.nrows(), s.ncols());
        let scaled = if divisor == 1.0 {
            s.clone()
        } else {
            s.map(|v| v / divisor)
        };
        softmax_rows(&scaled, &keys.allowed(s.nrows(), s.ncols()))
    }
    fn weigh(&mut self, w: &Matrix, v: &Matrix, keys: Keys) -> Matrix {
        if keys == Keys::All {
            return self.mm(w, v);
        }
        let (n, d) = (w.nrows(), v.ncols());
        let mut out = Matrix::zeros(n, d);
        for i in 0..n {
            let r = keys.range(i, v.nrows());
            self.0.madds += (r.len() * d) as u64;
            for c in 0..d {
                out[(i, c)] = r.clone().fold(0.0, |acc, j| acc + w[(i, j)] * v[(j, c)]);
            }
        }
        out
    }
    fn pooling(&mut self, r: usize, n: usize) -> Matrix {
        pooling(r, n)
    }
    fn linear(&mut self, q: &Matrix, k: &Matrix, v: &Matrix) -> Matrix {
        let steps = linear_recurrent(q, k, v);
        self.0 += linear_counts(q.nrows(), q.ncols(), v.ncols());
        Matrix::from_fn(q.nrows(), v.ncols(), |i, c| steps[i].output[c])
    }
    fn concat(&mut self, parts: &[Matrix]) -> Matrix {
        concat(parts)
    }
}

impl Ops for Shapes {
    type M = (usize, usize);
    fn counts(&mut self) -> &mut Counts {
        &mut self.0
    }
    fn shape(m: &(usize, usize)) -> (usize, usize) {
        *m
    }
    fn mm(&mut self, a: &(usize, usize), b: &(usize, usize)) -> (usize, usize) {
        mm_count(&mut self.0, a.0, a.1, b.1);
        (a.0, b.1)
    }
    fn tmm(&mut self, a: &(usize, usize), b: &(usize, usize)) -> (usize, usize) {
        mm_count(&mut self.0, a.1, a.0, b.1);
        (a.1, b.1)
    }
    fn scores(&mut self, q: &(usize, usize), k: &(usize, usize), keys: Keys) -> (usize, usize) {
        let pairs = keys.pairs(q.0, k.0);
        self.0.stored += pairs;
        self.0.madds += pairs * q.1 as u64;
        (q.0, k.0)
    }
    fn softmax(&mut self, s: &(usize, usize), _: f64, keys: Keys) -> (usize, usize) {
        self.0.exps += keys.pairs(s.0, s.1);
        *s
    }
    fn weigh(&mut self, w: &(usize, usize), v: &(usize, usize), keys: Keys) -> (usize, usize) {
        if keys == Keys::All {
            return self.mm(w, v);
        }
        self.0.madds += keys.pairs(w.0, v.0) * v.1 as u64;
        (w.0, v.1)
    }
    fn pooling(&mut self, r: usize, n: usize) -> (usize, usize) {
        (r, n)
    }
    fn linear(
        &mut self,
        q: &(usize, usize),
        _: &(usize, usize),
        v: &(usize, usize),
    ) -> (usize, usize) {
        self.0 += linear_counts(q.0, q.1, v.1);
        (q.0, v.1)
    }
    fn concat(&mut self, parts: &[(usize, usize)]) -> (usize, usize) {
        (parts[0].0, parts.iter().map(|p| p.1).sum())
    }
}

/// The work of [`linear_recurrent`] over `n` positions: per position, φ of
/// qⁱ and kⁱ (2·d_k calls), `S += φ(k)vᵀ` (d_k·d_v), `z += φ(k)` (d_k),
/// `φ(q)ᵀS` (d_k·d_v) and `φ(q)·z` (d_k); it stores only `S` and `z`.
fn linear_counts(n: usize, d_k: usize, d_v: usize) -> Counts {
    Counts {
        madds: (n * (2 * d_k * d_v + 2 * d_k)) as u64,
        exps: (2 * n * d_k) as u64,
        stored: (d_k * d_v + d_k) as u64,
    }
}

/// See [`Ops::pooling`].
pub fn pooling(r: usize, n: usize) -> Matrix {
    let mut p = Matrix::zeros(r, n);
    for t in 0..r {
        let (a, b) = (t * n / r, ((t + 1) * n / r).max(t * n / r + 1));
        for j in a..b.min(n) {
            p[(t, j)] = 1.0 / (b.min(n) - a) as f64;
        }
    }
    p
}

fn concat(parts: &[Matrix]) -> Matrix {
    let n = parts[0].nrows();
    let widths: Vec<usize> = parts.iter().map(|p| p.ncols()).collect();
    let mut out = Matrix::zeros(n, widths.iter().sum());
    let mut at = 0;
    for p in parts {
        out.columns_mut(at, p.ncols()).copy_from(p);
        at += p.ncols();
    }
    out
}

/// One of the ways to attend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Every query against every key (the engine), with `keys` as the mask.
    Dense(Keys),
    /// Only keys within `W` places, computed as a band (exact for that mask).
    Window(usize),
    /// Keys and values pooled to `r` rows first (no mask).
    LowRank(usize),
    /// Causal linear attention with φ(x) = elu(x) + 1.
    Linear,
}

/// One layer's shapes and weights, as an [`Ops`] sees them.
pub struct Layer<M> {
    /// `X_in`, n × d_in (x with its positional encoding).
    pub input: M,
    /// `(W_Q, W_K, W_V)` per head.
    pub heads: Vec<(M, M, M)>,
    pub w_o: Option<M>,
    /// √d_k, or 1 when the scenario does not scale.
    pub divisor: f64,
}

/// The layer computed (or counted) the `variant` way: the output and the
/// work. For `Dense(keys)` with the scenario's own mask the output is the
/// engine's, bit for bit.
pub fn run<O: Ops>(ops: &mut O, layer: &Layer<O::M>, variant: Variant) -> O::M {
    let n = O::shape(&layer.input).0;
    let outs: Vec<O::M> = layer
        .heads
        .iter()
        .map(|(wq, wk, wv)| {
            let q = ops.mm(&layer.input, wq);
            let k = ops.mm(&layer.input, wk);
            let v = ops.mm(&layer.input, wv);
            match variant {
                Variant::Dense(keys) => {
                    let s = ops.scores(&q, &k, Keys::All);
                    let w = ops.softmax(&s, layer.divisor, keys);
                    ops.weigh(&w, &v, Keys::All)
                }
                Variant::Window(width) => {
                    let keys = Keys::Window(width);
                    let s = ops.scores(&q, &k, keys);
                    let w = ops.softmax(&s, layer.divisor, keys);
                    ops.weigh(&w, &v, keys)
                }
                Variant::LowRank(r) => {
                    let p = ops.pooling(r.min(n), n);
                    let k_r = ops.mm(&p, &k);
                    let v_r = ops.mm(&p, &v);
                    let s = ops.scores(&q, &k_r, Keys::All);
                    let w = ops.softmax(&s, layer.divisor, Keys::All);
                    ops.mm(&w, &v_r)
                }
                Variant::Linear => ops.linear(&q, &k, &v),
            }
        })
        .collect();
    let concat = ops.concat(&outs);
    match &layer.w_o {
        Some(w_o) => ops.mm(&concat, w_o),
        None => concat,
    }
}

impl Layer<Matrix> {
    /// A scenario's layer, read from its trace (`input` is x with its
    /// positional encoding, as the engine computed it).
    pub fn of(s: &Scenario, t: &Trace) -> Layer<Matrix> {
        Layer {
            input: t.input.clone(),
            heads: s
                .heads
                .iter()
                .map(|h| (h.w_q.clone(), h.w_k.clone(), h.w_v.clone()))
                .collect(),
            w_o: s.w_o.clone(),
            divisor: t.divisor,
        }
    }
}

/// The shapes of a layer with `n` positions, for [`Shapes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub n: usize,
    pub d_in: usize,
    pub d_k: usize,
    pub d_v: usize,
    pub heads: usize,
    /// Columns of W_O, if any.
    pub d_out: Option<usize>,
}

impl Dims {
    pub fn layer(self) -> Layer<(usize, usize)> {
        Layer {
            input: (self.n, self.d_in),
            heads: vec![
                (
                    (self.d_in, self.d_k),
                    (self.d_in, self.d_k),
                    (self.d_in, self.d_v)
                );
                self.heads
            ],
            w_o: self.d_out.map(|o| (self.heads * self.d_v, o)),
            divisor: 1.0,
        }
    }

    /// The work of `variant` at these shapes, without computing anything.
    pub fn counts(self, variant: Variant) -> Counts {
        let mut ops = Shapes::default();
        run(&mut ops, &self.layer(), variant);
        ops.0
    }
}

/// `φ(x) = elu(x) + 1`: `x + 1` for `x > 0`, `eˣ` otherwise (always > 0).
pub fn phi(x: f64) -> f64 {
    if x > 0.0 {
        x + 1.0
    } else {
        x.exp()
    }
}

/// One position of the recurrence.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearStep {
    /// `S = Σ_{j ≤ i} φ(kʲ) vʲᵀ`, d_k × d_v.
    pub state: Matrix,
    /// `z = Σ_{j ≤ i} φ(kʲ)`.
    pub z: Vec<f64>,
    /// `φ(qⁱ)ᵀS / φ(qⁱ)·z`.
    pub output: Vec<f64>,
}

/// Causal linear attention as an RNN over positions: a state of fixed
/// size, updated once per token.
pub fn linear_recurrent(q: &Matrix, k: &Matrix, v: &Matrix) -> Vec<LinearStep> {
    let (n, d_k, d_v) = (q.nrows(), q.ncols(), v.ncols());
    let mut state = Matrix::zeros(d_k, d_v);
    let mut z = vec![0.0; d_k];
    let mut steps = Vec::with_capacity(n);
    for i in 0..n {
        let fk: Vec<f64> = (0..d_k).map(|c| phi(k[(i, c)])).collect();
        let fq: Vec<f64> = (0..d_k).map(|c| phi(q[(i, c)])).collect();
        for a in 0..d_k {
            z[a] += fk[a];
            for b in 0..d_v {
                state[(a, b)] += fk[a] * v[(i, b)];
            }
        }
        let den = (0..d_k).fold(0.0, |acc, a| acc + fq[a] * z[a]);
        let output = (0..d_v)
            .map(|b| (0..d_k).fold(0.0, |acc, a| acc + fq[a] * state[(a, b)]) / den)
            .collect();
        steps.push(LinearStep {
            state: state.clone(),
            z: z.clone(),
            output,
        });
    }
    steps
}

/// Causal linear attention in the parallel form: `A = φ(Q)φ(K)ᵀ` with the
/// causal mask, `out = A·V / (A·1)`: n × n like dense attention, but no
/// softmax, so the products can be regrouped into the recurrence.
pub fn linear_parallel(q: &Matrix, k: &Matrix, v: &Matrix) -> Matrix {
    let fq = q.map(phi);
    let fk = k.map(phi);
    let a = matmul_t(&fq, &fk);
    let n = q.nrows();
    Matrix::from_fn(n, v.ncols(), |i, c| {
        let num = (0..=i).fold(0.0, |acc, j| acc + a[(i, j)] * v[(j, c)]);
        let den = (0..=i).fold(0.0, |acc, j| acc + a[(i, j)]);
        num / den
    })
}

/// One step of causal decoding with a KV cache.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeStep {
    /// The new token's output row (after W_O when there is one).
    pub output: Vec<f64>,
    /// Work of this step with the cache (project one row, attend over t+1 keys).
    pub cached: Counts,
    /// Work of recomputing the causal layer on all t+1 tokens from scratch.
    pub recomputed: Counts,
}

/// Causal decoding one token at a time, keeping the keys and values of
/// earlier tokens: row `t` of the result equals the full causal layer's
/// row `t`, bit for bit (the same sums in the same order).
pub fn kv_decode(layer: &Layer<Matrix>) -> Vec<DecodeStep> {
    let n = layer.input.nrows();
    let mut cache: Vec<(Matrix, Matrix)> = layer
        .heads
        .iter()
        .map(|(_, wk, wv)| (Matrix::zeros(0, wk.ncols()), Matrix::zeros(0, wv.ncols())))
        .collect();
    let dims = |t: usize| Dims {
        n: t,
        d_in: layer.input.ncols(),
        d_k: layer.heads[0].0.ncols(),
        d_v: layer.heads[0].2.ncols(),
        heads: layer.heads.len(),
        d_out: layer.w_o.as_ref().map(|w| w.ncols()),
    };
    (0..n)
        .map(|t| {
            let mut ops = Real::default();
            let x = layer.input.rows(t, 1).into_owned();
            let outs: Vec<Matrix> = layer
                .heads
                .iter()
                .zip(cache.iter_mut())
                .map(|((wq, wk, wv), (ks, vs))| {
                    let q = ops.mm(&x, wq);
                    let k = ops.mm(&x, wk);
                    let v = ops.mm(&x, wv);
                    // Append the new key and value to the cache (without cloning it first).
                    for (cached, new) in [(&mut *ks, &k), (&mut *vs, &v)] {
                        *cached = std::mem::replace(cached, Matrix::zeros(0, 0)).insert_row(t, 0.0);
                        cached.row_mut(t).copy_from(&new.row(0));
                    }
                    let s = ops.scores(&q, ks, Keys::All);
                    let w = ops.softmax(&s, layer.divisor, Keys::All);
                    ops.mm(&w, vs)
                })
                .collect();
            let concat = ops.concat(&outs);
            let out = match &layer.w_o {
                Some(w_o) => ops.mm(&concat, w_o),
                None => concat,
            };
            DecodeStep {
                output: out.row(0).iter().copied().collect(),
                cached: ops.0,
                recomputed: dims(t + 1).counts(Variant::Dense(Keys::Causal)),
            }
        })
        .collect()
}

/// The layers of the Transformer paper's Table 1 (and Dive into Deep
/// Learning's comparison of CNNs, RNNs and self-attention).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerKind {
    SelfAttention,
    Recurrent,
    /// A convolution of kernel `k` (odd, centred: it reaches `⌊k/2⌋` places
    /// each way), dilated (the dilation multiplied by `k` each layer) or not.
    Convolution {
        k: usize,
        dilated: bool,
    },
    /// Self-attention restricted to a window `W`: each query sees the keys
    /// with `|i − j| ≤ W` (the window mask), `2W + 1` of them.
    Restricted(usize),
}

/// Operations per layer, sequential operations, and the longest path
/// between two positions, at `n` positions of width `d`. A path length is
/// a count of layers (or of steps, for the recurrent layer): the fewest it
/// takes before the first position's information reaches the last, a whole
/// number (0 when `n = 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Complexity {
    pub ops: f64,
    pub sequential: f64,
    pub path: f64,
}

pub fn complexity(kind: LayerKind, n: usize, d: usize) -> Complexity {
    let (n, d) = (n as f64, d as f64);
    match kind {
        LayerKind::SelfAttention => Complexity {
            ops: n * n * d,
            sequential: 1.0,
            path: 1.0,
        },
        LayerKind::Recurrent => Complexity {
            ops: n * d * d,
            sequential: n,
            path: (n - 1.0).max(0.0),
        },
        LayerKind::Convolution { k, dilated } => {
            let path = if dilated {
                // Layer l sees ⌊k/2⌋·(1 + k + … + k^(l−1)) places each way.
                let (half, mut reach, mut step, mut layers) = (k / 2, 0usize, 1usize, 0usize);
                while reach + 1 < n as usize && half > 0 {
                    reach += half * step;
                    step = step.saturating_mul(k);
                    layers += 1;
                }
                layers
            } else {
                layers_to_reach(n as usize, k / 2)
            };
            Complexity {
                ops: k as f64 * n * d * d,
                sequential: 1.0,
                path: path as f64,
            }
        }
        LayerKind::Restricted(w) => Complexity {
            ops: (2 * w + 1) as f64 * n * d,
            sequential: 1.0,
            path: layers_to_reach(n as usize, w) as f64,
        },
    }
}

/// How many stacked layers with a window of `w` it takes before position 1
/// can see position `n` (information moves `w` places per layer).
pub fn layers_to_reach(n: usize, w: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (n - 1).div_ceil(w.max(1))
    }
}

// Native only: proptest is a native dev-dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::random::{scenario as random, Dims as PDims};
    use crate::{compute, Mask};
    use proptest::prelude::*;

    fn layer_of(s: &Scenario) -> Layer<Matrix> {
        Layer::of(s, &compute(s).unwrap())
    }

    fn scenario(
        seed: u64,
        n: usize,
        d: usize,
        dk: usize,
        dv: usize,
        h: usize,
        w_o: bool,
    ) -> Scenario {
        let mut s = random(
            seed,
            PDims {
                n,
                d_model: d,
                d_k: dk,
                d_v: dk,
                heads: h,
            },
            w_o,
        );
        if dv != dk {
            for hw in &mut s.heads {
                hw.w_v = crate::random::Rng::new(seed + 1).matrix(d, dv);
            }
            if w_o {
                s.w_o = Some(crate::random::Rng::new(seed + 2).matrix(h * dv, d));
            }
        }
        s
    }

    #[test]
    fn dense_counts_equal_the_closed_forms() {
        // (n, d_model, d_k, d_v, h, W_O)
        for &(n, d, dk, dv, h, wo) in &[
            (3, 4, 3, 3, 1, false),
            (5, 6, 2, 4, 3, true),
            (8, 3, 5, 1, 2, true),
            (1, 2, 2, 2, 1, false),
        ] {
            let s = scenario(n as u64 * 7 + d as u64, n, d, dk, dv, h, wo);
            let mut ops = Real::default();
            let out = run(&mut ops, &layer_of(&s), Variant::Dense(Keys::All));
            let (n_, d_, dk_, dv_, h_) = (n as u64, d as u64, dk as u64, dv as u64, h as u64);
            // Projections h·n·d_model·(2·d_k + d_v); scores and weighted
            // sums h·n²·(d_k + d_v); W_O n·(h·d_v)·d_out with d_out = d_model.
            let madds = h_ * n_ * d_ * (2 * dk_ + dv_)
                + h_ * n_ * n_ * (dk_ + dv_)
                + if wo { n_ * h_ * dv_ * d_ } else { 0 };
            assert_eq!(ops.0.madds, madds, "{n} {d} {dk} {dv} {h} {wo}");
            assert_eq!(ops.0.exps, h_ * n_ * n_);
            assert_eq!(ops.0.stored, h_ * n_ * n_);
            // The counting twin counts the same without computing.
            let dims = Dims {
                n,
                d_in: d,
                d_k: dk,
                d_v: dv,
                heads: h,
                d_out: s.w_o.as_ref().map(|w| w.ncols()),
            };
            assert_eq!(dims.counts(Variant::Dense(Keys::All)), ops.0);
            // And the numbers are the engine's, bit for bit.
            assert_eq!(out, compute(&s).unwrap().output);
        }
    }

    #[test]
    fn variant_counts_equal_their_closed_forms() {
        let (n, d, dk, dv, h) = (9usize, 4usize, 3usize, 2usize, 2usize);
        let s = scenario(5, n, d, dk, dv, h, false);
        let layer = layer_of(&s);
        let proj = (h * n * d * (2 * dk + dv)) as u64;
        let dims = Dims {
            n,
            d_in: d,
            d_k: dk,
            d_v: dv,
            heads: h,
            d_out: None,
        };
        // Window W = 2: row i sees min(n−1, i+2) − max(0, i−2) + 1 keys:
        // 3, 4, 5, 5, 5, 5, 5, 4, 3 = 39 pairs.
        let mut ops = Real::default();
        run(&mut ops, &layer, Variant::Window(2));
        let pairs = 39u64;
        assert_eq!(Keys::Window(2).pairs(n, n), pairs);
        assert_eq!(
            ops.0,
            Counts {
                madds: proj + h as u64 * pairs * (dk + dv) as u64,
                exps: h as u64 * pairs,
                stored: h as u64 * pairs
            }
        );
        assert_eq!(dims.counts(Variant::Window(2)), ops.0);
        // Low rank r = 3: pool K and V (2·r·n·d), scores n·r·d_k, sums n·r·d_v.
        let mut ops = Real::default();
        run(&mut ops, &layer, Variant::LowRank(3));
        let r = 3u64;
        let (n_, dk_, dv_, h_) = (n as u64, dk as u64, dv as u64, h as u64);
        assert_eq!(
            ops.0,
            Counts {
                madds: proj + h_ * (r * n_ * dk_ + r * n_ * dv_ + n_ * r * dk_ + n_ * r * dv_),
                exps: h_ * n_ * r,
                stored: h_ * n_ * r
            }
        );
        assert_eq!(dims.counts(Variant::LowRank(3)), ops.0);
        // Linear: per position 2·d_k·d_v + 2·d_k, φ twice per coordinate, a
        // state of d_k·d_v + d_k per head.
        let mut ops = Real::default();
        run(&mut ops, &layer, Variant::Linear);
        assert_eq!(
            ops.0,
            Counts {
                madds: proj + h_ * n_ * (2 * dk_ * dv_ + 2 * dk_),
                exps: h_ * 2 * n_ * dk_,
                stored: h_ * (dk_ * dv_ + dk_)
            }
        );
        assert_eq!(dims.counts(Variant::Linear), ops.0);
        // Dense grows as n², linear as n: at n = 4096 the gap is enormous.
        let big = Dims { n: 4096, ..dims };
        assert!(
            big.counts(Variant::Dense(Keys::All)).madds > 100 * big.counts(Variant::Linear).madds
        );
    }

    #[test]
    fn the_window_is_exact_for_its_mask_and_low_rank_with_r_n_is_dense() {
        let mut s = scenario(11, 7, 4, 3, 3, 2, true);
        s.mask = Mask::Window(2);
        let layer = layer_of(&s);
        let window = run(&mut Real::default(), &layer, Variant::Window(2));
        let engine = compute(&s).unwrap().output;
        assert!((window - &engine).abs().max() < 1e-12);
        // Pooling to r = n rows is the identity: low rank equals dense.
        assert_eq!(pooling(7, 7), Matrix::identity(7, 7));
        s.mask = Mask::None;
        let dense = compute(&s).unwrap().output;
        let low = run(&mut Real::default(), &layer_of(&s), Variant::LowRank(7));
        assert!((low - &dense).abs().max() < 1e-12);
        // Fewer rows: an approximation.
        let low = run(&mut Real::default(), &layer_of(&s), Variant::LowRank(2));
        assert!((low - &dense).abs().max() > 1e-6);
        // Each pooling row averages its segment.
        let p = pooling(2, 5);
        assert_eq!(
            p.row(0).iter().copied().collect::<Vec<_>>(),
            vec![0.5, 0.5, 0.0, 0.0, 0.0]
        );
        assert!((p.row(1).sum() - 1.0).abs() < 1e-15);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn linear_attention_parallel_equals_recurrent(seed in 0u64..100_000, n in 1usize..12, dk in 1usize..5, dv in 1usize..5) {
            let mut rng = crate::random::Rng::new(seed);
            let (q, k, v) = (rng.matrix(n, dk) * 2.0, rng.matrix(n, dk) * 2.0, rng.matrix(n, dv));
            let par = linear_parallel(&q, &k, &v);
            let rec = linear_recurrent(&q, &k, &v);
            for i in 0..n {
                for c in 0..dv {
                    prop_assert!((par[(i, c)] - rec[i].output[c]).abs() < 1e-12, "{} vs {}", par[(i, c)], rec[i].output[c]);
                }
            }
        }

        #[test]
        fn kv_cache_decoding_equals_the_causal_layer_bit_for_bit(seed in 0u64..100_000, n in 1usize..10, h in 1usize..3, wo in any::<bool>()) {
            let mut s = scenario(seed, n, 4, 3, 3, h, wo);
            s.mask = Mask::Causal;
            let full = compute(&s).unwrap().output;
            let steps = kv_decode(&layer_of(&s));
            for (t, st) in steps.iter().enumerate() {
                prop_assert_eq!(&st.output, &full.row(t).iter().copied().collect::<Vec<_>>());
                // The cache never costs more than recomputing; from the
                // second token on it costs less.
                prop_assert!(st.cached.madds <= st.recomputed.madds);
                if t > 0 {
                    prop_assert!(st.cached.madds < st.recomputed.madds);
                }
            }
        }
    }

    #[test]
    fn phi_is_positive_and_continuous() {
        assert_eq!(phi(2.0), 3.0);
        assert_eq!(phi(0.0), 1.0);
        assert!((phi(-1.0) - (-1f64).exp()).abs() < 1e-16);
        assert!(phi(-700.0) >= 0.0);
    }

    #[test]
    fn the_table_of_layer_types() {
        let sa = complexity(LayerKind::SelfAttention, 100, 512);
        let rnn = complexity(LayerKind::Recurrent, 100, 512);
        // Attention is cheaper than a recurrent layer when n < d.
        assert!(sa.ops < rnn.ops);
        assert!(
            complexity(LayerKind::SelfAttention, 1000, 512).ops
                > complexity(LayerKind::Recurrent, 1000, 512).ops
        );
        assert_eq!((sa.sequential, sa.path), (1.0, 1.0));
        assert_eq!((rnn.sequential, rnn.path), (100.0, 99.0));
        let conv = complexity(
            LayerKind::Convolution {
                k: 3,
                dilated: false,
            },
            99,
            8,
        );
        assert_eq!(conv.ops, 3.0 * 99.0 * 64.0);
        // A kernel of 3 reaches one place each way: 98 layers from 1 to 99.
        assert_eq!(conv.path, 98.0);
        let dil = complexity(
            LayerKind::Convolution {
                k: 3,
                dilated: true,
            },
            81,
            8,
        );
        // Reach 1, 1 + 3, 1 + 3 + 9, … = 1, 4, 13, 40, 121 ≥ 80: 5 layers.
        assert_eq!(dil.path, 5.0);
        let restricted = complexity(LayerKind::Restricted(4), 64, 8);
        assert_eq!(
            (restricted.ops, restricted.path),
            (9.0 * 64.0 * 8.0, 16.0),
            "9 keys a query; 63 places at 4 a layer"
        );
        // Never a fraction of a layer, and nothing to cross with one position.
        for kind in [
            LayerKind::SelfAttention,
            LayerKind::Recurrent,
            LayerKind::Convolution {
                k: 3,
                dilated: true,
            },
            LayerKind::Convolution {
                k: 5,
                dilated: false,
            },
            LayerKind::Restricted(2),
        ] {
            for n in 2..200 {
                let p = complexity(kind, n, 4).path;
                assert!(p >= 1.0 && p.fract() == 0.0, "{kind:?} n = {n}: {p}");
            }
            assert!(complexity(kind, 1, 4).path <= 1.0);
        }
        assert_eq!(layers_to_reach(1, 1), 0);
        assert_eq!(layers_to_reach(8, 1), 7);
        assert_eq!(layers_to_reach(8, 3), 3);
    }
}
