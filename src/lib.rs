//! # Attention Lab
//!
//! Data flows one way: **scenario → trace → lesson → view**.
//!
//! - [`attention`] (crate `crates/attention`): the pure engine. A
//!   [`attention::Scenario`] (the user's numbers) is validated and computed
//!   into a [`attention::Trace`] that holds every intermediate matrix of every
//!   head. nalgebra, nothing of the browser.
//! - [`lesson`] (crate `crates/lesson`): pure teaching logic (presets, the
//!   walkthrough's timeline and stage layout, captions as typed keys,
//!   derivations, formulas, the notation table).
//! - [`app`]: the Yew page. It renders a trace and dispatches actions; it
//!   computes nothing itself. Only its effects touch browser APIs.
//!
//! Conventions: rows are positions (row-vector math, as in PyTorch), `f64`
//! throughout, user input never reaches a panic. `docs/architecture.md`
//! says where everything lives.

pub mod app;
pub use attention;
pub use lesson;
