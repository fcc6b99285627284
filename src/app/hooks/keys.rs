//! Keyboard shortcuts on the whole page.

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Listens to every `keydown` of the page for the component's life.
/// `handle` says whether it took the key (then the browser's own action is
/// prevented). It is made once, on the first render: what it calls must
/// be stable (a dispatcher, a callback made once).
#[hook]
pub fn use_keys<M, F>(make_handle: M)
where
    M: FnOnce() -> F,
    F: Fn(&web_sys::KeyboardEvent) -> bool + 'static,
{
    let handle = make_handle();
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|w| {
            gloo::events::EventListener::new_with_options(
                &w,
                "keydown",
                gloo::events::EventListenerOptions::enable_prevent_default(),
                move |e| {
                    if let Some(key) = e.dyn_ref::<web_sys::KeyboardEvent>() {
                        if handle(key) {
                            e.prevent_default();
                        }
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// Whether a key went to a place where the reader types or presses (a
/// field, a button, a matrix's table), where a page shortcut must not act.
pub fn aimed_at_control(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| {
            matches!(
                el.tag_name().as_str(),
                "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON"
            ) || el.closest("table").ok().flatten().is_some()
        })
}
