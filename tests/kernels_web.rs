//! The engine's kernels in WebAssembly (headless Chromium), where they use
//! SIMD: `exp_pair` gives exactly `f64::exp`'s bits on every kind of input,
//! and the products equal the plain triple loop bit for bit (the native
//! property tests, crates/attention/tests/props.rs, cannot reach the wasm lanes); and
//! the training lab's model trains the same bits as natively.
#![cfg(target_arch = "wasm32")]

use attention_kernels::{exp_pair, matmul, matmul_t};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// xorshift64: a fixed stream of bit patterns.
struct Bits(u64);

impl Bits {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [lo, hi).
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (self.next() >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
}

fn check_exp(x: [f64; 2]) {
    let got = exp_pair(x);
    for lane in 0..2 {
        assert_eq!(
            got[lane].to_bits(),
            x[lane].exp().to_bits(),
            "exp({:e}) lane {lane}: {:e} vs {:e}",
            x[lane],
            got[lane],
            x[lane].exp()
        );
    }
}

#[wasm_bindgen_test]
fn exp_pair_is_f64_exp_bit_for_bit() {
    let mut r = Bits(0x2545_f491_4f6c_dd1d);
    // Every branch of the routine and the edges between them: zeros, tiny,
    // |x| around ln2/2 and 1.5·ln2, 708, overflow/underflow, NaN and ±∞.
    let hx = |high: u64, low: u64| f64::from_bits(high << 32 | low);
    let edges = [
        0.0,
        1e-300,
        3.7e-9,
        // The routine's thresholds on the high word hx of |x|, each side.
        hx(0x3e30_0000, 0xffff_ffff),
        hx(0x3e30_0001, 0),
        hx(0x3fd6_2e42, 0xffff_ffff),
        hx(0x3fd6_2e43, 0),
        hx(0x3ff0_a2b1, 0xffff_ffff),
        hx(0x3ff0_a2b2, 0),
        hx(0x4086_0fff, 0xffff_ffff),
        hx(0x4086_1000, 0),
        hx(0x4086_232a, 0xffff_ffff),
        hx(0x4086_232b, 0),
        0.5 * std::f64::consts::LN_2,
        1.5 * std::f64::consts::LN_2,
        1.5,
        20.0,
        708.0,
        709.782712893384,
        709.79,
        745.1332191019411,
        746.0,
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        f64::INFINITY,
        f64::NAN,
    ];
    for &a in &edges {
        for &b in &edges {
            for (sa, sb) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                check_exp([sa * a, sb * b]);
            }
        }
        // Neighbours one ulp apart.
        for d in [-2i64, -1, 1, 2] {
            let up = f64::from_bits((a.to_bits() as i64 + d) as u64);
            check_exp([up, -up]);
        }
    }
    // The softmax's range (s − max ≤ 0), the whole common path, and random
    // bit patterns (every exponent).
    for _ in 0..300_000 {
        check_exp([r.uniform(-80.0, 0.0), r.uniform(-80.0, 0.0)]);
        check_exp([r.uniform(-710.0, 710.0), r.uniform(-1.1, 1.1)]);
        check_exp([r.uniform(-1e-6, 1e-6), r.uniform(-750.0, -700.0)]);
        check_exp([f64::from_bits(r.next()), f64::from_bits(r.next())]);
    }
}

#[wasm_bindgen_test]
fn products_equal_the_plain_loop_bit_for_bit() {
    let mut r = Bits(0x9e37_79b9_7f4a_7c15);
    let naive = |a: &[f64], b: &[f64], n: usize, p: usize, m: usize| -> Vec<u64> {
        let mut c = vec![0u64; n * m];
        for j in 0..m {
            for i in 0..n {
                c[i + j * n] = (0..p)
                    .fold(0.0, |s, k| s + a[i + k * n] * b[k + j * p])
                    .to_bits();
            }
        }
        c
    };
    for n in 0..12 {
        for p in 0..12 {
            for m in 0..12 {
                let mut value = || match r.next() % 8 {
                    0 => 0.0,
                    1 => r.uniform(-1e60, 1e60),
                    2 => r.uniform(-1e-200, 1e-200),
                    _ => r.uniform(-10.0, 10.0),
                };
                let a: Vec<f64> = (0..n * p).map(|_| value()).collect();
                let b: Vec<f64> = (0..p * m).map(|_| value()).collect();
                let want = naive(&a, &b, n, p, m);
                let mut c = vec![f64::NAN; n * m];
                matmul(&a, &b, &mut c, n, p, m);
                assert_eq!(c.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want);
                let bt: Vec<f64> = (0..m * p).map(|q| b[q / m + (q % m) * p]).collect();
                let mut c = vec![f64::NAN; n * m];
                matmul_t(&a, &bt, &mut c, n, p, m);
                assert_eq!(c.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want);
            }
        }
    }
}

/// The training lab's model (crates/train) trains the same weights in the
/// browser as natively: the fingerprint of every weight's bits after 15
/// steps of `induction` from seed 7 is the one crates/train/tests/model.rs
/// checks natively (`INDUCTION_7_AFTER_15`).
#[wasm_bindgen_test]
fn the_same_seed_trains_the_same_bits_in_webassembly() {
    let mut m = train::Model::new(train::Config::new(train::Task::Induction, 7)).unwrap();
    m.train(15);
    assert_eq!(
        m.fingerprint(),
        0x81ad_3995_8f9c_d181,
        "{:#x}",
        m.fingerprint()
    );
}
