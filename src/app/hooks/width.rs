//! The width of an element, following the window's size.

use yew::prelude::*;

/// `measure(&node)` (whole pixels), measured after the first render and
/// again whenever the window is resized (rotation, zoom); 0 until then.
/// The component renders again only when the width changes.
#[hook]
pub fn use_width(node: NodeRef, measure: fn(&NodeRef) -> f64) -> f64 {
    let width = use_state(|| 0.0f64);
    {
        let width = width.clone();
        use_effect_with((), move |_| {
            let update = move || {
                let w = measure(&node).floor();
                if w != *width {
                    width.set(w);
                }
            };
            update();
            let listener = web_sys::window()
                .map(|w| gloo::events::EventListener::new(&w, "resize", move |_| update()));
            move || drop(listener)
        });
    }
    *width
}
