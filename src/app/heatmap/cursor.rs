//! The heatmap's cursor: the cell under the mouse, the finger or the arrow
//! keys, and the handlers that move it.

use crate::lesson::grid::{step_clamped, Move};
use crate::lesson::heatmap::Layout;
use yew::prelude::*;

/// Where the cursor is and the canvas's handlers that move it.
pub(super) struct Cursor {
    /// The cell (display row, column) the cursor is on, inside the map.
    pub at: Option<(usize, usize)>,
    pub onpointermove: Callback<PointerEvent>,
    pub onpointerleave: Callback<PointerEvent>,
    pub onfocus: Callback<FocusEvent>,
    pub onblur: Callback<FocusEvent>,
    pub onkeydown: Callback<KeyboardEvent>,
}

/// The cursor of an `n` × `n` map drawn with `layout`; Enter calls
/// `activate`.
#[hook]
pub(super) fn use_cursor(layout: Layout, n: usize, activate: Option<Callback<()>>) -> Cursor {
    let cursor = use_state(|| None::<(usize, usize)>);
    // A smaller scenario may leave the cursor outside.
    let at = (*cursor).filter(|&(r, c)| r < n && c < n);
    // Pointer events: fractional coordinates (Chromium rounds mouse events
    // to whole CSS pixels), and touch and pen too: a tap (pointerdown, which
    // comes before focus) shows the tapped cell.
    let onpointermove = {
        let cursor = cursor.clone();
        Callback::from(move |e: PointerEvent| {
            // offsetX/Y are fractional CSS pixels; web-sys's offset_x() is an
            // integer, which would pick a neighbour near edges at ratios like 1.25.
            let at = |k: &str| {
                js_sys::Reflect::get(&e, &k.into())
                    .ok()
                    .and_then(|v| v.as_f64())
            };
            let (Some(x), Some(y)) = (at("offsetX"), at("offsetY")) else {
                return;
            };
            let cell = layout.cell_at(x, y);
            if cell != *cursor {
                cursor.set(cell);
            }
        })
    };
    let onblur = {
        let cursor = cursor.clone();
        Callback::from(move |_: FocusEvent| cursor.set(None))
    };
    // A lifted finger "leaves" too: keep a tapped cell's tooltip up.
    let onpointerleave = {
        let cursor = cursor.clone();
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() != "touch" {
                cursor.set(None)
            }
        })
    };
    let onfocus = {
        let cursor = cursor.clone();
        Callback::from(move |_: FocusEvent| {
            if cursor.is_none() {
                cursor.set(Some((0, 0)));
            }
        })
    };
    let onkeydown = {
        let cursor = cursor.clone();
        let activate = activate.clone();
        Callback::from(move |e: KeyboardEvent| {
            let here = at.unwrap_or((0, 0));
            let next = match e.key().as_str() {
                key if Move::of_key(key).is_some() => {
                    Move::of_key(key).map(|m| step_clamped(here, m, n, n))
                }
                "Escape" => {
                    cursor.set(None);
                    return;
                }
                "Enter" => {
                    if let Some(cb) = &activate {
                        cb.emit(());
                    }
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            cursor.set(next);
        })
    };
    Cursor {
        at,
        onpointermove,
        onpointerleave,
        onfocus,
        onblur,
        onkeydown,
    }
}
