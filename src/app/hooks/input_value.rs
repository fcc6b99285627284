use yew::prelude::*;

/// A text field's value, written into the field when `value` changes (and
/// when the hook is new). Yew's `value={..}` writes it into the field at
/// every render in which the two differ, so any render (another part's
/// edit, a training step, an error message appearing) would wipe what the
/// reader has typed and not yet committed; a field that takes its value
/// from this hook keeps it. Put the returned ref on the `<input>`, without
/// `value`. The field must exist whenever `value` is not empty: one shown
/// only at times gets "" while it is hidden, so it is written when shown.
#[hook]
pub fn use_input_value(value: AttrValue) -> NodeRef {
    let node = use_node_ref();
    let field = node.clone();
    use_effect_with(value, move |v| {
        if let Some(el) = field.cast::<web_sys::HtmlInputElement>() {
            el.set_value(v);
        }
    });
    node
}
