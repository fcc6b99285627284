//! The labs module: the seven concept labs in their own WebAssembly module,
//! which the page loads after its first paint (or at once for an embedded
//! lab), so that the first screen neither downloads nor compiles them. See
//! `attention_lab::app::labs_root` and, for the page's side,
//! `src/app/labs_bridge.rs`; scripts/build.sh builds it.

use wasm_bindgen::prelude::*;

#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Renders the labs into `host` (the page's `<section class="labs">`):
/// every lab, or with `view` (an embedded figure's `view=` name) that lab
/// alone. `on_edit(maskJson)` receives the masks lab's edits; without it
/// (a locked page) the mask is shown, not editable.
#[wasm_bindgen]
pub fn mount(host: web_sys::Element, view: Option<String>, on_edit: Option<js_sys::Function>) {
    let on_edit = on_edit.map(|f| {
        yew::Callback::from(move |mask: String| {
            f.call1(&JsValue::NULL, &JsValue::from_str(&mask)).ok();
        })
    });
    attention_lab::app::labs_root::mount(host, view, on_edit);
}

/// Shows the page's scenario, in the two parts of `Scenario::to_parts`
/// (a short JSON text, every number in a `Float64Array`), in `lang`
/// (`zh`/`en`) and `convention` (`row`/`col`).
#[wasm_bindgen]
pub fn update(header: &str, numbers: &[f64], lang: &str, convention: &str) {
    attention_lab::app::labs_root::update(header, numbers, lang, convention);
}

fn main() {}
