//! The page's undo and redo keys.

use crate::app::state::Action;
use wasm_bindgen::JsCast;

/// Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, unless the user is in the middle of
/// typing in a text field (then the browser's own text undo applies).
pub(super) fn history_key(e: &web_sys::KeyboardEvent) -> Option<Action> {
    if !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
        return None;
    }
    let action = match e.key().to_ascii_lowercase().as_str() {
        "z" if e.shift_key() => Action::Redo,
        "z" => Action::Undo,
        "y" => Action::Redo,
        _ => return None,
    };
    let typing = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|input| {
            // A matrix cell whose text is still its committed value is not
            // "typing"; anything else is.
            let committed = input
                .closest("[data-value]")
                .ok()
                .flatten()
                .and_then(|td| td.get_attribute("data-value"));
            let same = committed.is_some_and(|v| {
                crate::lesson::parse::parse_number(&input.value())
                    .ok()
                    .map(f64::to_bits)
                    == crate::attention::json::decimal(&v).map(f64::to_bits)
            });
            input.type_() != "file" && !same
        });
    (!typing).then_some(action)
}
