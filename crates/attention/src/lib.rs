//! # The attention engine
//!
//! Self-attention lets every position of a sequence gather information from the
//! other positions, weighted by how well its *query* matches their *keys*.
//! This module computes it exactly, with nothing hidden, so every intermediate
//! matrix can be shown to a learner.
//!
//! ## Conventions (written once, used everywhere)
//!
//! - **Rows are positions.** `x` is `n × d_model`: row `i` is token `i`
//!   (the row-vector convention of PyTorch and of note `000` §8).
//!   `Q = X·W_Q`, `K = X·W_K`, `V = X·W_V`, `scores = Q·Kᵀ`.
//!   The column convention of note `000` §4.5 (`Q = W^q X`, `S = KᵀQ`) is the
//!   same numbers transposed; it is a *display* choice, never a second engine.
//! - **f64 everywhere.** Matrices are [`Matrix`] (`nalgebra::DMatrix<f64>`).
//! - **Masks say who may be seen.** `allowed[(i, j)]` is true when query `i`
//!   may attend to key `j`. Masked keys get weight exactly `0.0`.
//! - **A query row with no visible key has no softmax.** Its weights and
//!   outputs are `NaN` and its index is listed in [`Trace::undefined_rows`], so
//!   the page can say so instead of showing a number.
//! - **User input never panics.** [`Scenario::validate`] checks every shape,
//!   limit and number before [`compute`] multiplies anything.

pub mod additive;
pub mod cost;
mod engine;
pub mod json;
mod mask;
mod positional;
pub mod random;
mod results;
mod scenario;
mod softmax;
mod wording;

pub use engine::{
    compute, compute_stack, concat_columns, matmul, matmul_t, softmax_rows, HeadTrace, StackTrace,
    Trace,
};
pub use mask::{allowed_matrix, hides_anything};
pub use positional::sinusoidal;
pub use results::Results;
pub use scenario::{
    default_tokens, grouped, DimName, Expected, HeadWeights, Layer, Mask, Positional, Reason,
    Scenario, ScenarioError, Stage, FORMAT, MAX_D, MAX_D_MODEL, MAX_HEADS, MAX_LAYERS, MAX_N,
    MAX_TOKEN_CHARS,
};
pub use softmax::exp;
pub use softmax::{softmax_jacobian, softmax_masked, softmax_parts, SoftmaxParts};

/// Every matrix of the engine: `nalgebra::DMatrix<f64>`, rows are positions.
pub type Matrix = nalgebra::DMatrix<f64>;
