//! When the WebAssembly fails. A panic (a bug not found yet) ends in a trap
//! (the release build aborts at once on panic), after which the module
//! answers nothing. The page's own script (`static/support.js`) hears the
//! trap as an error event and shows, in the reader's language, that
//! something went wrong and that their work is kept (the page writes it to
//! storage after every change, `persist.rs`), with a button to reload. It
//! needs nothing of the failed module, so nothing here has to run then.
//!
//! What is here is the end-to-end tests' way to force a failure: the window
//! event [`TEST_EVENT`] (detail `"panic"`, or `"trap"` for a trap with no
//! panic, as running out of memory gives), dispatched by a test. The page
//! itself never sends it.

use wasm_bindgen::JsCast;

/// The window event that makes the module fail, for the tests.
pub const TEST_EVENT: &str = "attention-lab-test-failure";

/// Listens for [`TEST_EVENT`] for the page's lifetime.
pub fn install() {
    gloo::events::EventListener::new(&gloo::utils::window(), TEST_EVENT, |e| {
        let detail = e
            .dyn_ref::<web_sys::CustomEvent>()
            .and_then(|c| c.detail().as_string());
        if detail.as_deref() == Some("trap") {
            #[cfg(target_arch = "wasm32")]
            core::arch::wasm32::unreachable();
        }
        panic!("{TEST_EVENT}: a failure forced by a test");
    })
    .forget();
}
