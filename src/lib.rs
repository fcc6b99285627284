//! # Attention Lab
//!
//! Data flows one way: **scenario → trace → view**.
//!
//! - [`attention`]: the pure engine. A [`attention::Scenario`] (the user's
//!   numbers) is validated and computed into a [`attention::Trace`] that holds
//!   every intermediate matrix of every head. nalgebra only (JSON by its own small module).
//! - [`lesson`]: pure teaching code (presets, number formatting).
//! - [`app`]: the Yew page. It renders a trace and dispatches actions; it
//!   computes nothing itself. Only its effects touch browser APIs.
//!
//! Conventions: rows are positions (row-vector math, as in PyTorch), `f64`
//! throughout, user input never reaches a panic.

pub mod app;
pub mod attention;
pub mod lesson;
