//! The notes' worked examples, as scenarios.

use crate::attention::{HeadWeights, Mask, Matrix, Positional, Scenario, FORMAT};

fn m<const R: usize, const C: usize>(rows: [[f64; C]; R]) -> Matrix {
    Matrix::from_fn(R, C, |r, c| rows[r][c])
}

/// Note `004`'s worked example (FIGURES F5): three inputs of width 4, the
/// three 4×3 projections of the note, one head, no scaling (the note applies
/// softmax to `QKᵀ` directly).
///
/// The note's keys are `[[0,1,1],[4,4,0],[2,3,1]]`, queries
/// `[[1,0,2],[2,2,2],[2,1,3]]`, values `[[1,2,3],[2,8,0],[2,6,3]]`, scores
/// `[[2,4,4],[4,16,12],[4,12,10]]`.
pub fn notes_004() -> Scenario {
    Scenario {
        format: FORMAT.to_string(),
        tokens: vec!["input 1".into(), "input 2".into(), "input 3".into()],
        x: m([[1., 0., 1., 0.], [0., 2., 0., 2.], [1., 1., 1., 1.]]),
        heads: vec![HeadWeights {
            w_q: m([[1., 0., 1.], [1., 0., 0.], [0., 0., 1.], [0., 1., 1.]]),
            w_k: m([[0., 0., 1.], [1., 1., 0.], [0., 1., 0.], [1., 1., 0.]]),
            w_v: m([[0., 2., 0.], [0., 3., 0.], [1., 0., 3.], [1., 1., 0.]]),
        }],
        w_o: None,
        scale: false,
        mask: Mask::None,
        positional: Positional::None,
    }
}

/// The scenario a first visit opens on.
pub fn default_scenario() -> Scenario {
    notes_004()
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
/// [`Rng`](super::random::Rng)): tokens `x1 … xn`, scaling on, and a
/// `(h·d_v) × d_model` W_O when `with_w_o`.
pub fn random(seed: u64, dims: Dims, with_w_o: bool) -> Scenario {
    let mut rng = super::random::Rng::new(seed);
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
        tokens: crate::attention::default_tokens(dims.n),
        x,
        heads,
        w_o,
        scale: true,
        mask: Mask::None,
        positional: Positional::None,
    }
}

/// The benchmark's shape: n = 64, d_model = 64, 8 heads of d_k = d_v = 8.
pub const BENCH_DIMS: Dims = Dims {
    n: 64,
    d_model: 64,
    d_k: 8,
    d_v: 8,
    heads: 8,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::compute;

    #[test]
    fn presets_are_valid() {
        notes_004().validate().unwrap();
        default_scenario().validate().unwrap();
        let r = random(1, BENCH_DIMS, true);
        r.validate().unwrap();
        assert_eq!(compute(&r).unwrap().output.shape(), (64, 64));
    }
}
