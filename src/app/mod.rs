//! The Yew page. It renders a [`Trace`](crate::attention::Trace) and
//! dispatches [`state::Action`]s; it computes nothing itself.

pub mod effects;
pub mod i18n;
pub mod matrix;
pub mod state;
pub mod url;

mod canvas;
mod collapse;
mod controls;
mod derivation;
mod head_view;
mod heads;
mod heatmap;
mod labs;
mod page;
mod stage_draw;
mod toolbar;
mod walkthrough;

pub use page::App;
