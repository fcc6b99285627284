//! Masks decide which keys a query may look at, before the softmax.
//!
//! A masked key is not "a small score": it is removed from the softmax, so its
//! weight is exactly zero and the remaining weights still sum to one. Masks
//! are how attention imitates other models (note `000` §6): a window is a
//! convolution's receptive field, a causal mask reads in order like an RNN or a
//! decoder, a custom mask can follow a graph's edges, padding hides filler.

use super::Mask;
use nalgebra::DMatrix;

/// The `n × n` table of who may see whom: entry `(i, j)` is true when query
/// `i` may attend to key `j`.
///
/// A `Custom` mask whose shape is not `n × n` treats missing entries as
/// masked (validation refuses such a scenario before this is reached).
pub fn allowed_matrix(mask: &Mask, n: usize) -> DMatrix<bool> {
    DMatrix::from_fn(n, n, |i, j| match mask {
        Mask::None => true,
        Mask::Causal => j <= i,
        Mask::Padding(l) => j < *l,
        Mask::Window(w) => i.abs_diff(j) <= *w,
        Mask::Custom(rows) => rows.get(i).and_then(|r| r.get(j)).copied().unwrap_or(false),
    })
}

/// Whether any entry of `allowed` is false (so the mask step changes something).
pub fn hides_anything(allowed: &DMatrix<bool>) -> bool {
    allowed.iter().any(|a| !a)
}
