//! The labs' math, one module a lab, each answering its lab's question
//! with numbers from the engine: how scoring functions compare
//! ([`scoring`]), the dot product's geometry ([`geometry`]), why ÷√d_k
//! ([`scaling`]), what positions add ([`positions`]), what masks hide
//! ([`masks`]), and dropout on the weights ([`dropout`]). The cost lab's
//! counts are the engine's own (`attention::cost`). The pages that draw
//! them are in the app's labs chunk (`src/app/labs/`).

pub mod dropout;
pub mod geometry;
pub mod masks;
pub mod positions;
pub mod scaling;
pub mod scoring;
pub mod tokens;
