//! The Yew page. It renders a [`Trace`](crate::attention::Trace) and
//! dispatches [`state::Action`]s; it computes nothing itself.

pub mod effects;
pub mod i18n;
pub mod matrix;
pub mod state;
pub mod url;

mod collapse;
mod head_view;
mod page;

pub use page::App;
