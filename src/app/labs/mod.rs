//! The concept labs (issues 8–10/11): one section each, `data-lab="NAME"`,
//! embeddable with `?embed=1&view=NAME`. Each opens with a question to
//! answer before the numbers appear ("predict, then reveal"); the numbers
//! come from `crate::attention` and `crate::lesson`.

pub mod geometry;
mod predict;
pub mod scaling;
pub mod scoring;
