//! The attention engine's hot loops on plain column-major `f64` slices (the
//! layout of `nalgebra::DMatrix`: entry `(i, j)` of an `r × c` matrix is at
//! `i + j·r`): the products, the row softmax, the scaling and finiteness
//! checks of `attention_lab::attention::compute`.
//!
//! **Every sum keeps its order.** Each output entry of a product is
//! `((0.0 + t₀) + t₁) + …` with its terms `t_k = a[i,k]·b[k,j]` added for
//! k = 0, 1, 2, … left to right, exactly the plain triple loop, so a
//! derivation shown to a learner (`1·4 + 0·4 + 2·0`) adds up to the stored
//! value bit for bit. What is fast here is only *how many independent sums
//! run at once*: a tile of 4 rows × 4 columns of the output keeps 16
//! accumulators, each a different output entry, and walks k once for all
//! of them; two adjacent rows share one SIMD register (explicit `f64x2`
//! lanes in WebAssembly, SSE2 by the compiler natively). No sum is ever
//! reassociated, and there is no fused multiply-add (Rust never contracts
//! `a·b + c` on its own; `f64x2.mul` then `f64x2.add` are two roundings).
//! The softmax likewise keeps each row's max and sum in key order while
//! walking whole columns, and its `exp` gives `f64::exp`'s bits.
//!
//! Built at opt-level 3 even in the app's size-optimised release build (see
//! the workspace Cargo.toml). In WebAssembly the kernels use SIMD
//! (`simd128`, enabled for the wasm32 target in .cargo/config.toml) through
//! explicit `f64x2` operations: fat LTO re-optimises the whole program at
//! the app's opt-level "z", where the compiler's auto-vectorizers are off.

// Unsafe only for WebAssembly SIMD loads and stores within checked slices,
// each block saying why it stays in bounds.
#![deny(clippy::undocumented_unsafe_blocks)]

/// `c = a · b`: `a` is n × p, `b` is p × m, `c` is n × m, all column-major.
/// Each `c[i,j] = Σ_k a[i,k]·b[k,j]` summed left to right from `0.0`.
///
/// Panics if a slice length does not match its shape.
pub fn matmul(a: &[f64], b: &[f64], c: &mut [f64], n: usize, p: usize, m: usize) {
    assert!(
        a.len() == n * p && b.len() == p * m && c.len() == n * m,
        "matmul: slice lengths do not match {n}×{p} · {p}×{m}"
    );
    product(a, b, c, n, p, m, Layout::Plain);
}

/// `c = a · bᵀ`: `a` is n × p, `b` is m × p, `c` is n × m, all column-major.
/// Each `c[i,j] = Σ_k a[i,k]·b[j,k]` summed left to right from `0.0` (the
/// scores `Q·Kᵀ` without a transposed copy of `K`).
///
/// Panics if a slice length does not match its shape.
pub fn matmul_t(a: &[f64], b: &[f64], c: &mut [f64], n: usize, p: usize, m: usize) {
    assert!(
        a.len() == n * p && b.len() == m * p && c.len() == n * m,
        "matmul_t: slice lengths do not match {n}×{p} · ({m}×{p})ᵀ"
    );
    product(a, b, c, n, p, m, Layout::Transposed);
}

/// How the right-hand factor is stored.
#[derive(Clone, Copy)]
enum Layout {
    /// `b` is p × m: `b[k,j]` at `k + j·p`.
    Plain,
    /// `b` is m × p and the product uses its transpose: `b[j,k]` at `j + k·m`.
    Transposed,
}

/// Output columns in groups of 4 (then 2, then 1).
fn product(a: &[f64], b: &[f64], c: &mut [f64], n: usize, p: usize, m: usize, layout: Layout) {
    if n == 0 {
        return;
    }
    // The group's b[k, j0 + cc] packed k-major, `packed[k·NR + cc]`: one
    // short contiguous read per k in the tiles.
    let mut packed = vec![0.0; p * 4.min(m)];
    let mut j = 0;
    while j + 4 <= m {
        columns::<4>(a, b, c, &mut packed, n, p, m, j, layout);
        j += 4;
    }
    if j + 2 <= m {
        columns::<2>(a, b, c, &mut packed, n, p, m, j, layout);
        j += 2;
    }
    if j < m {
        columns::<1>(a, b, c, &mut packed, n, p, m, j, layout);
    }
}

/// Output columns `j0 .. j0 + NR`, rows in groups of 4 (then 2, then 1).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn columns<const NR: usize>(
    a: &[f64],
    b: &[f64],
    c: &mut [f64],
    packed: &mut [f64],
    n: usize,
    p: usize,
    m: usize,
    j0: usize,
    layout: Layout,
) {
    let packed = &mut packed[..p * NR];
    for (k, bk) in packed.chunks_exact_mut(NR).enumerate() {
        for (cc, v) in bk.iter_mut().enumerate() {
            *v = match layout {
                Layout::Plain => b[k + (j0 + cc) * p],
                Layout::Transposed => b[j0 + cc + k * m],
            };
        }
    }
    let packed = &*packed;
    let mut i = 0;
    while i + 4 <= n {
        lanes::tile::<2, NR>(a, packed, c, n, i, j0);
        i += 4;
    }
    if i + 2 <= n {
        lanes::tile::<1, NR>(a, packed, c, n, i, j0);
        i += 2;
    }
    if i < n {
        tile::<1, NR>(a, packed, c, n, i, j0);
    }
}

/// The output tile rows `i0 .. i0 + MR` × columns `j0 .. j0 + NR`: MR·NR
/// independent sums, each adding its terms k = 0, 1, … in order from 0.0.
/// `a` is n × p (n > 0), `packed` holds b[k, j0 + cc] at `k·NR + cc`.
#[inline(always)]
fn tile<const MR: usize, const NR: usize>(
    a: &[f64],
    packed: &[f64],
    c: &mut [f64],
    n: usize,
    i0: usize,
    j0: usize,
) {
    let mut acc = [[0.0f64; MR]; NR];
    for (col, bk) in a.chunks_exact(n).zip(packed.chunks_exact(NR)) {
        let ak: &[f64; MR] = col[i0..i0 + MR].try_into().unwrap();
        let bk: &[f64; NR] = bk.try_into().unwrap();
        for (acc_c, &bkj) in acc.iter_mut().zip(bk) {
            for (s, &aik) in acc_c.iter_mut().zip(ak) {
                *s += aik * bkj;
            }
        }
    }
    for (cc, acc_c) in acc.iter().enumerate() {
        c[(j0 + cc) * n + i0..][..MR].copy_from_slice(acc_c);
    }
}

/// Tiles of `2·MV` rows as `MV` pairs of adjacent rows. In WebAssembly with
/// `simd128` (enabled for the wasm32 target in .cargo/config.toml) each pair
/// is one `f64x2` vector: lane 0 is row i, lane 1 row i + 1, two different
/// sums, each still `acc + a·b` with k in order (`f64x2.mul` then
/// `f64x2.add`, never fused). Elsewhere the scalar tile (which the compiler
/// vectorizes the same way natively).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use core::arch::wasm32::*;

    /// `exp` of both lanes, the same operations in the same order as the
    /// routine `f64::exp` calls in WebAssembly (compiler_builtins' libm,
    /// FreeBSD's e_exp.c: `k = round(x/ln 2)`, `x = hi − lo`, a degree-5
    /// rational approximation, then `y·2ᵏ`), so the same bits. Lanes off
    /// its common path (|x| ≤ 2⁻²⁸, |x| ≥ 708, NaN, ±∞), where the routine
    /// takes other branches, go through `f64::exp` itself.
    #[inline(always)]
    #[allow(clippy::excessive_precision, clippy::approx_constant)] // e_exp.c's constants as written there
    pub(crate) fn exp_v(xv: v128) -> v128 {
        const LN2HI: f64 = 6.93147180369123816490e-01;
        const LN2LO: f64 = 1.90821492927058770002e-10;
        const INVLN2: f64 = 1.44269504088896338700e+00;
        const P1: f64 = 1.66666666666666019037e-01;
        const P2: f64 = -2.77777777770155933842e-03;
        const P3: f64 = 6.61375632143793436117e-05;
        const P4: f64 = -1.65339022054652515390e-06;
        const P5: f64 = 4.13813679705723846039e-08;
        // The routine branches on hx, the high word of |x|: hx > 0x3e300000
        // (else 1 + x), hx < 0x4086232b (else overflow/underflow handling);
        // below 708 here so that 2ᵏ is one normal power of two.
        let ax = f64x2_abs(xv);
        let common = v128_and(
            f64x2_ge(ax, f64x2_splat(f64::from_bits(0x3e30_0001_0000_0000))),
            f64x2_lt(ax, f64x2_splat(708.0)),
        );
        if !i64x2_all_true(common) {
            let x = [f64x2_extract_lane::<0>(xv), f64x2_extract_lane::<1>(xv)];
            return f64x2(x[0].exp(), x[1].exp());
        }
        // k: 0 for hx ≤ 0x3fd62e42 (|x| ≤ ln2/2), ±1 for hx ≤ 0x3ff0a2b1
        // (|x| < 1.5·ln2), else trunc(x/ln2 ± 1/2).
        let negative = f64x2_lt(xv, f64x2_splat(0.0));
        let half = v128_bitselect(f64x2_splat(-0.5), f64x2_splat(0.5), negative);
        let far = f64x2_trunc(f64x2_add(f64x2_mul(xv, f64x2_splat(INVLN2)), half));
        let one = v128_bitselect(f64x2_splat(-1.0), f64x2_splat(1.0), negative);
        let near = v128_and(
            one,
            f64x2_ge(ax, f64x2_splat(f64::from_bits(0x3fd6_2e43_0000_0000))),
        );
        let k = v128_bitselect(
            far,
            near,
            f64x2_ge(ax, f64x2_splat(f64::from_bits(0x3ff0_a2b2_0000_0000))),
        );
        let hi = f64x2_sub(xv, f64x2_mul(k, f64x2_splat(LN2HI)));
        let lo = f64x2_mul(k, f64x2_splat(LN2LO));
        let r = f64x2_sub(hi, lo);
        let xx = f64x2_mul(r, r);
        let poly = f64x2_add(f64x2_splat(P4), f64x2_mul(xx, f64x2_splat(P5)));
        let poly = f64x2_add(f64x2_splat(P3), f64x2_mul(xx, poly));
        let poly = f64x2_add(f64x2_splat(P2), f64x2_mul(xx, poly));
        let poly = f64x2_add(f64x2_splat(P1), f64x2_mul(xx, poly));
        let c = f64x2_sub(r, f64x2_mul(xx, poly));
        let q = f64x2_div(f64x2_mul(r, c), f64x2_sub(f64x2_splat(2.0), c));
        let y = f64x2_add(f64x2_splat(1.0), f64x2_add(f64x2_sub(q, lo), hi));
        // y·2ᵏ with |k| ≤ 1022: one multiplication, as scalbn. k + 2⁵² + 1023
        // is exact and holds k + 1023 in its low mantissa bits.
        let biased = f64x2_add(k, f64x2_splat(4503599627371519.0));
        let scale = i64x2_shl(biased, 52);
        f64x2_mul(y, scale)
    }

    #[inline(always)]
    pub(crate) fn exp_pair(x: [f64; 2]) -> [f64; 2] {
        let e = exp_v(f64x2(x[0], x[1]));
        [f64x2_extract_lane::<0>(e), f64x2_extract_lane::<1>(e)]
    }

    /// `acc[i] = op(acc[i], x[i])` for every i, two entries per step:
    /// `simd` on both lanes (each its own entry), `scalar` on a last odd one.
    #[inline(always)]
    fn lanes(
        acc: &mut [f64],
        x: &[f64],
        simd: impl Fn(v128, v128) -> v128,
        scalar: impl Fn(f64, f64) -> f64,
    ) {
        let mut a2 = acc.chunks_exact_mut(2);
        let mut x2 = x.chunks_exact(2);
        for (a, x) in (&mut a2).zip(&mut x2) {
            // SAFETY: 2 f64s per chunk; no alignment requirement.
            unsafe {
                let v = simd(v128_load(a.as_ptr().cast()), v128_load(x.as_ptr().cast()));
                v128_store(a.as_mut_ptr().cast(), v);
            }
        }
        for (a, x) in a2.into_remainder().iter_mut().zip(x2.remainder()) {
            *a = scalar(*a, *x);
        }
    }

    /// `acc[i] = acc[i].max(x[i])`, two entries per step, exactly
    /// `f64::max` (libm's fmax in WebAssembly: `x` when `acc` is NaN or
    /// `acc < x`, else `acc`; f64x2.pmax is `acc < x ? x : acc`).
    #[inline(always)]
    pub(crate) fn max_assign(acc: &mut [f64], x: &[f64]) {
        lanes(
            acc,
            x,
            |av, xv| v128_bitselect(xv, f64x2_pmax(av, xv), f64x2_ne(av, av)),
            f64::max,
        );
    }

    /// `out[i] = x[i] / d`, two entries per step.
    #[inline(always)]
    pub(crate) fn div_by(x: &[f64], d: f64, out: &mut [f64]) {
        let dv = f64x2_splat(d);
        let mut x2 = x.chunks_exact(2);
        let mut o2 = out.chunks_exact_mut(2);
        for (x, o) in (&mut x2).zip(&mut o2) {
            // SAFETY: 2 f64s per chunk; no alignment requirement.
            unsafe {
                v128_store(
                    o.as_mut_ptr().cast(),
                    f64x2_div(v128_load(x.as_ptr().cast()), dv),
                )
            };
        }
        for (x, o) in x2.remainder().iter().zip(o2.into_remainder()) {
            *o = x / d;
        }
    }

    /// `acc[i] += x[i]`, two entries per step (each lane its own sum).
    #[inline(always)]
    pub(crate) fn add_assign(acc: &mut [f64], x: &[f64]) {
        lanes(acc, x, |a, x| f64x2_add(a, x), |a, x| a + x);
    }

    /// `x[i] /= d[i]`, two entries per step.
    #[inline(always)]
    pub(crate) fn div_assign(x: &mut [f64], d: &[f64]) {
        lanes(x, d, |x, d| f64x2_div(x, d), |x, d| x / d);
    }

    /// `out[i] = exp(s[i] − max[i])` for every i.
    #[inline(always)]
    pub(crate) fn exp_sub(s: &[f64], max: &[f64], out: &mut [f64]) {
        let mut s2 = s.chunks_exact(2);
        let mut m2 = max.chunks_exact(2);
        let mut o2 = out.chunks_exact_mut(2);
        for ((s, m), o) in (&mut s2).zip(&mut m2).zip(&mut o2) {
            // SAFETY: each chunk holds exactly 2 f64s (16 bytes); v128
            // loads and stores have no alignment requirement.
            unsafe {
                let x = f64x2_sub(v128_load(s.as_ptr().cast()), v128_load(m.as_ptr().cast()));
                v128_store(o.as_mut_ptr().cast(), exp_v(x));
            }
        }
        for ((s, m), o) in s2
            .remainder()
            .iter()
            .zip(m2.remainder())
            .zip(o2.into_remainder())
        {
            *o = (s - m).exp();
        }
    }

    #[inline(always)]
    pub(crate) fn tile<const MV: usize, const NR: usize>(
        a: &[f64],
        packed: &[f64],
        c: &mut [f64],
        n: usize,
        i0: usize,
        j0: usize,
    ) {
        let mut acc = [[f64x2_splat(0.0); MV]; NR];
        for (col, bk) in a.chunks_exact(n).zip(packed.chunks_exact(NR)) {
            let col = &col[i0..i0 + 2 * MV];
            // SAFETY: `col` holds 2·MV f64s, so each 16-byte read at 2·v
            // (v < MV) is in bounds; v128.load has no alignment requirement.
            let ak: [v128; MV] =
                core::array::from_fn(|v| unsafe { v128_load(col.as_ptr().add(2 * v).cast()) });
            let bk: &[f64; NR] = bk.try_into().unwrap();
            for (acc_c, &bkj) in acc.iter_mut().zip(bk) {
                let s = f64x2_splat(bkj);
                for (sum, &aik) in acc_c.iter_mut().zip(&ak) {
                    *sum = f64x2_add(*sum, f64x2_mul(aik, s));
                }
            }
        }
        for (cc, acc_c) in acc.iter().enumerate() {
            let out = &mut c[(j0 + cc) * n + i0..][..2 * MV];
            for (v, sum) in acc_c.iter().enumerate() {
                // SAFETY: `out` holds 2·MV f64s; 16 bytes at 2·v are in bounds.
                unsafe { v128_store(out.as_mut_ptr().add(2 * v).cast(), *sum) };
            }
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod lanes {
    #[inline(always)]
    pub(crate) fn exp_pair(x: [f64; 2]) -> [f64; 2] {
        [super::exp(x[0]), super::exp(x[1])]
    }

    /// `acc[i] = acc[i].max(x[i])`.
    #[inline(always)]
    pub(crate) fn max_assign(acc: &mut [f64], x: &[f64]) {
        for (a, x) in acc.iter_mut().zip(x) {
            *a = a.max(*x);
        }
    }

    /// `out[i] = x[i] / d`.
    #[inline(always)]
    pub(crate) fn div_by(x: &[f64], d: f64, out: &mut [f64]) {
        for (x, o) in x.iter().zip(out) {
            *o = x / d;
        }
    }

    /// `acc[i] += x[i]`.
    #[inline(always)]
    pub(crate) fn add_assign(acc: &mut [f64], x: &[f64]) {
        for (a, x) in acc.iter_mut().zip(x) {
            *a += x;
        }
    }

    /// `x[i] /= d[i]`.
    #[inline(always)]
    pub(crate) fn div_assign(x: &mut [f64], d: &[f64]) {
        for (x, d) in x.iter_mut().zip(d) {
            *x /= d;
        }
    }

    /// `out[i] = exp(s[i] − max[i])` for every i.
    #[inline(always)]
    pub(crate) fn exp_sub(s: &[f64], max: &[f64], out: &mut [f64]) {
        for ((s, m), o) in s.iter().zip(max).zip(out) {
            *o = super::exp(s - m);
        }
    }

    /// `2·MV` rows with the scalar tile.
    #[inline(always)]
    pub(crate) fn tile<const MV: usize, const NR: usize>(
        a: &[f64],
        packed: &[f64],
        c: &mut [f64],
        n: usize,
        i0: usize,
        j0: usize,
    ) {
        match MV {
            1 => super::tile::<2, NR>(a, packed, c, n, i0, j0),
            _ => super::tile::<4, NR>(a, packed, c, n, i0, j0),
        }
    }
}

/// `eˣ` with the same bits on every target: WebAssembly's `f64::exp` (a
/// port of musl's routine), and elsewhere the same routine from the `libm`
/// crate rather than the platform's own, which may round the last bit
/// otherwise.
#[inline]
pub fn exp(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        x.exp()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        libm::exp(x)
    }
}

/// `ln x`, the same bits on every target (see [`exp`]).
#[inline]
pub fn ln(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        x.ln()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        libm::log(x)
    }
}

/// `cos x`, the same bits on every target (see [`exp`]).
#[inline]
pub fn cos(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        x.cos()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        libm::cos(x)
    }
}

/// `sin x`, the same bits on every target (see [`exp`]).
#[inline]
pub fn sin(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        x.sin()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        libm::sin(x)
    }
}

/// `xʸ`, the same bits on every target (see [`exp`]).
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        x.powf(y)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        libm::pow(x, y)
    }
}

/// `[exp(x₀), exp(x₁)]` ([`exp`]), bit for bit. In WebAssembly with `simd128`, two
/// lanes at once on exp's common path (see [`lanes::exp_pair`]); elsewhere
/// `f64::exp` twice.
#[inline]
pub fn exp_pair(x: [f64; 2]) -> [f64; 2] {
    lanes::exp_pair(x)
}

/// `out[i] = x[i] / d` for every i (the scaled scores, `scores / √d_k`).
///
/// Panics if the lengths differ.
pub fn div_by(x: &[f64], d: f64, out: &mut [f64]) {
    assert_eq!(x.len(), out.len(), "div_by: lengths differ");
    lanes::div_by(x, d, out)
}

/// Whether every number of `xs` is finite (no NaN, no ±∞).
#[allow(clippy::eq_op)] // x − x is the test
pub fn all_finite(xs: &[f64]) -> bool {
    // x − x is +0 for a finite x and NaN otherwise. Four running sums of
    // those (their order does not matter: a NaN makes its sum NaN, zeros
    // stay zero) keep the loop free of a branch per number.
    let mut acc = [0.0f64; 4];
    let mut chunks = xs.chunks_exact(4);
    for chunk in &mut chunks {
        for (s, &x) in acc.iter_mut().zip(chunk) {
            *s += x - x;
        }
    }
    let tail = chunks.remainder().iter().fold(0.0, |s, &x| s + (x - x));
    acc[0] + acc[1] + acc[2] + acc[3] + tail == 0.0
}

/// Row-wise masked softmax of the n × m column-major `scores` into
/// `weights` (n × m, column-major): row i is the softmax of row i of
/// `scores` over the keys j with `allowed[i + j·allowed_rows]`; masked
/// entries are exactly 0, and a row with no visible key is all `NaN`.
///
/// Per row, the same operations in the same order as
/// `softmax_masked` in the app: `max` folded left to right with `f64::max`
/// over the visible scores, `e_j = exp(s_j − max)` (0 when masked),
/// `sum = Σ e_j` left to right, `w_j = e_j / sum`.
///
/// Panics if a slice length does not match its shape or `allowed_rows < n`.
pub fn softmax_rows(
    scores: &[f64],
    allowed: &[bool],
    allowed_rows: usize,
    weights: &mut [f64],
    n: usize,
    m: usize,
) {
    assert!(
        scores.len() == n * m
            && weights.len() == n * m
            && allowed_rows >= n
            && allowed.len() >= allowed_rows * m,
        "softmax_rows: slice lengths do not match {n}×{m}"
    );
    if n == 0 {
        return;
    }
    // Column by column (contiguous in memory), each row's running max and
    // sum updated as its keys j = 0, 1, … come: per row the same folds in
    // the same order as a row at a time.
    let visible = |j: usize| &allowed[j * allowed_rows..][..n];
    let mut max = vec![0.0f64; n];
    let mut seen = vec![false; n];
    let unmasked = (0..m).all(|j| visible(j).iter().all(|&v| v));
    if m > 0 && unmasked {
        // No mask: every row starts from key 0 (two rows per step in
        // WebAssembly).
        max.copy_from_slice(&scores[..n]);
        seen.fill(true);
        for column in scores.chunks_exact(n).skip(1) {
            lanes::max_assign(&mut max, column);
        }
    } else {
        for (j, column) in scores.chunks_exact(n).enumerate() {
            for (((mx, seen), &s), &v) in max.iter_mut().zip(&mut seen).zip(column).zip(visible(j))
            {
                if v {
                    *mx = if *seen { mx.max(s) } else { s };
                    *seen = true;
                }
            }
        }
    }
    // e_ij = exp(s_ij − max_i) for every entry (two rows per step in
    // WebAssembly), then 0 where key j is masked; stored in `weights` until
    // the division. (A row without a visible key has max 0 here and is
    // overwritten with NaN at the end.)
    for (j, (w, column)) in weights
        .chunks_exact_mut(n)
        .zip(scores.chunks_exact(n))
        .enumerate()
    {
        lanes::exp_sub(column, &max, w);
        if !unmasked {
            for (e, &v) in w.iter_mut().zip(visible(j)) {
                if !v {
                    *e = 0.0;
                }
            }
        }
    }
    // Σ_j e_ij left to right (from 0.0, as `Iterator::sum` over a row with
    // at least one e = exp(0) = 1: its -0.0 start gives the same bits), then
    // w_ij = e_ij / sum_i.
    let mut sum = vec![0.0f64; n];
    for w in weights.chunks_exact(n) {
        lanes::add_assign(&mut sum, w);
    }
    for w in weights.chunks_exact_mut(n) {
        lanes::div_assign(w, &sum);
    }
    if seen.iter().any(|s| !s) {
        for w in weights.chunks_exact_mut(n) {
            for (w, &seen) in w.iter_mut().zip(&seen) {
                if !seen {
                    *w = f64::NAN;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain triple loop (the engine's property tests in
    /// crates/attention/tests/props.rs check many more shapes and values).
    fn naive(a: &[f64], b: &[f64], n: usize, p: usize, m: usize) -> Vec<f64> {
        let mut c = vec![0.0; n * m];
        for j in 0..m {
            for i in 0..n {
                c[i + j * n] = (0..p).fold(0.0, |s, k| s + a[i + k * n] * b[k + j * p]);
            }
        }
        c
    }

    #[test]
    fn every_shape_up_to_9_equals_the_plain_loop_bit_for_bit() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 * 20.0 - 10.0
        };
        for n in 0..10 {
            for p in 0..10 {
                for m in 0..10 {
                    let a: Vec<f64> = (0..n * p).map(|_| next()).collect();
                    let b: Vec<f64> = (0..p * m).map(|_| next()).collect();
                    let want: Vec<u64> =
                        naive(&a, &b, n, p, m).iter().map(|v| v.to_bits()).collect();
                    let mut c = vec![f64::NAN; n * m];
                    matmul(&a, &b, &mut c, n, p, m);
                    assert_eq!(c.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want);
                    // bᵀ stored m × p.
                    let bt: Vec<f64> = (0..m * p).map(|q| b[q / m + (q % m) * p]).collect();
                    let mut c = vec![f64::NAN; n * m];
                    matmul_t(&a, &bt, &mut c, n, p, m);
                    assert_eq!(c.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want);
                }
            }
        }
    }

    #[test]
    fn all_finite_finds_any_nan_or_infinity() {
        assert!(all_finite(&[]));
        assert!(all_finite(&[
            0.0,
            -0.0,
            f64::MAX,
            -f64::MAX,
            f64::MIN_POSITIVE,
            5e-324
        ]));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for len in 1..11 {
                for at in 0..len {
                    let mut xs = vec![1.5; len];
                    xs[at] = bad;
                    assert!(!all_finite(&xs), "{bad} at {at} of {len}");
                }
            }
        }
    }
}
