//! Seeded random matrices: the same seed gives the same numbers on every
//! machine and in every browser, so a "random" scenario can be shared by its
//! seed and tests are repeatable. SplitMix64, a small, well-mixed generator;
//! no cryptographic claims.

use crate::{HeadWeights, Mask, Matrix, Positional, Scenario, FORMAT};

/// A SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` (53 random bits).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal number (mean 0, variance 1), by the Box–Muller
    /// transform of two uniform numbers.
    pub fn normal(&mut self) -> f64 {
        // 1 − u lies in (0, 1], so the logarithm is finite.
        let u = 1.0 - self.unit();
        let v = self.unit();
        // The same bits natively and in WebAssembly (attention_kernels::ln, cos).
        (-2.0 * attention_kernels::ln(u)).sqrt() * attention_kernels::cos(std::f64::consts::TAU * v)
    }

    /// A number in `[-1, 1]` with two decimals, so it is easy to read and type.
    pub fn cell(&mut self) -> f64 {
        let k = (self.next_u64() % 201) as i64 - 100;
        k as f64 / 100.0
    }

    /// A `rows × cols` matrix of normal numbers of mean 0 and standard
    /// deviation `sd`, rounded to 4 decimals, filled row by row: the scale a
    /// trained layer's weights have (`sd = 1/√fan_in`), so that `x·W` keeps
    /// the spread of `x` instead of multiplying it by √fan_in.
    pub fn normal_matrix(&mut self, rows: usize, cols: usize, sd: f64) -> Matrix {
        let mut m = Matrix::zeros(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                m[(r, c)] = (self.normal() * sd * 1e4).round() / 1e4;
            }
        }
        m
    }

    /// A `rows × cols` matrix of [`Rng::cell`] values, filled row by row.
    pub fn matrix(&mut self, rows: usize, cols: usize) -> Matrix {
        let mut m = Matrix::zeros(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                m[(r, c)] = self.cell();
            }
        }
        m
    }
}

/// Shape of a generated scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub n: usize,
    pub d_model: usize,
    pub d_k: usize,
    pub d_v: usize,
    pub heads: usize,
}

/// A scenario of the given shape filled from `seed` (see
/// [`Rng`]): tokens `x1 … xn`, scaling on, and a
/// `(h·d_v) × d_model` W_O when `with_w_o`.
pub fn scenario(seed: u64, dims: Dims, with_w_o: bool) -> Scenario {
    let mut rng = Rng::new(seed);
    let x = rng.matrix(dims.n, dims.d_model);
    let heads = (0..dims.heads)
        .map(|_| HeadWeights {
            w_q: rng.matrix(dims.d_model, dims.d_k),
            w_k: rng.matrix(dims.d_model, dims.d_k),
            w_v: rng.matrix(dims.d_model, dims.d_v),
        })
        .collect();
    let w_o = with_w_o.then(|| rng.matrix(dims.heads * dims.d_v, dims.d_model));
    Scenario {
        format: FORMAT.to_string(),
        tokens: crate::default_tokens(dims.n),
        x,
        heads,
        w_o,
        scale: true,
        mask: Mask::None,
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers() {
        assert_eq!(Rng::new(7).matrix(3, 4), Rng::new(7).matrix(3, 4));
        assert_ne!(Rng::new(7).matrix(3, 4), Rng::new(8).matrix(3, 4));
    }

    #[test]
    fn splitmix_reference_values() {
        // First outputs of SplitMix64 seeded with 0 (the published reference
        // sequence of the algorithm).
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn cells_are_two_decimal_numbers_in_range() {
        let mut r = Rng::new(42);
        let mut seen_neg = false;
        let mut seen_pos = false;
        for _ in 0..2000 {
            let v = r.cell();
            assert!((-1.0..=1.0).contains(&v));
            assert_eq!((v * 100.0).round() / 100.0, v);
            seen_neg |= v < 0.0;
            seen_pos |= v > 0.0;
        }
        assert!(seen_neg && seen_pos);
        let u = r.unit();
        assert!((0.0..1.0).contains(&u));
    }
}
