//! When the WebAssembly fails: a panic (a bug not found yet) ends in a trap
//! (the release build aborts on panic), after which the module answers
//! nothing. The page's own script (`static/support.js`) then shows a
//! message in the reader's language with a button to reload; their work is
//! already in storage (the page writes it after every change,
//! `persist.rs`). This hook tells that script at once, before the trap,
//! and keeps the panic's message in the console as Yew's default hook did.
//!
//! The end-to-end tests force a failure through the window event
//! [`TEST_EVENT`] (detail `"panic"`, or `"trap"` for a trap with no panic,
//! such as running out of memory), dispatched by a test: the page itself
//! never sends it.

use wasm_bindgen::{JsCast, JsValue};

/// The window event that makes the module fail, for the tests.
pub const TEST_EVENT: &str = "attention-lab-test-failure";

/// Installs the panic hook (before the first render, so Yew keeps it) and
/// the test event's listener.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        gloo::console::error!(info.to_string());
        let window = gloo::utils::window();
        if let Ok(f) = js_sys::Reflect::get(&window, &JsValue::from_str("attentionLabFailed")) {
            if let Some(f) = f.dyn_ref::<js_sys::Function>() {
                let _ = f.call0(&JsValue::NULL);
            }
        }
    }));
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
