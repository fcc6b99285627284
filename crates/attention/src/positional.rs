//! Attention by itself has no idea of order: permute the tokens and the
//! outputs are permuted the same way ("我喜欢你" and "你喜欢我" would look
//! alike, note `000` §5.2). The original Transformer adds a fixed sinusoidal
//! encoding of the position to each input row, so identical tokens at
//! different positions become different vectors.

use super::Matrix;

/// The `n × d_model` sinusoidal encoding, positions `p = 0 … n−1`:
/// `PE(p, 2k) = sin(p / 10000^(2k/d_model))`,
/// `PE(p, 2k+1) = cos(p / 10000^(2k/d_model))`.
pub fn sinusoidal(n: usize, d_model: usize) -> Matrix {
    Matrix::from_fn(n, d_model, |p, c| {
        let two_k = (c - c % 2) as f64;
        // sin, cos and pow with the same bits natively and in WebAssembly.
        let angle = p as f64 / attention_kernels::pow(10000.0, two_k / d_model as f64);
        if c % 2 == 0 {
            attention_kernels::sin(angle)
        } else {
            attention_kernels::cos(angle)
        }
    })
}
