//! The edge where the page touches the browser: the address, storage, the
//! document, files. Every function here tolerates a missing or throwing API
//! (storage blocked in a private window or a third-party iframe) and never
//! panics; failures simply mean "nothing remembered".
//!
//! Components reach the browser through these functions (and the hooks in
//! [`super::hooks`]), never through `web_sys` calls of their own, so that
//! what the page touches is listed here.

mod address;
mod document;
mod files;
mod storage;

pub use address::*;
pub use document::*;
pub use files::*;
pub use storage::*;

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// `performance.now()` in ms (0 when unavailable).
pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}
