//! The training module: the training lab (docs/training.md) in its own
//! WebAssembly module, which the page loads only when the reader opens the
//! lab (or at once for `?view=train`), so neither the first screen nor the
//! labs module carries the model and its training loop. See
//! `attention_lab::app::train_lab` and, for the page's side,
//! `src/app/train_bridge.rs`; scripts/build.sh builds it.

use wasm_bindgen::prelude::*;

#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Renders the lab into `host`, writing the page contract's attributes
/// (`data-train-step`, `data-loss`, …) on `lab` (the page's
/// `section[data-lab="train"]`), in `lang` (`zh`/`en`). `on_open(json)`
/// receives the trained model as a scenario ("Open in the workbench");
/// without it the button is absent.
#[wasm_bindgen]
pub fn mount(
    host: web_sys::Element,
    lab: web_sys::Element,
    lang: &str,
    on_open: Option<js_sys::Function>,
) {
    let on_open = on_open.map(|f| {
        yew::Callback::from(move |json: String| {
            f.call1(&JsValue::NULL, &JsValue::from_str(&json)).ok();
        })
    });
    attention_lab::app::train_lab::mount(host, lab, lang, on_open);
}

/// Shows the lab in `lang` (`zh`/`en`).
#[wasm_bindgen]
pub fn set_lang(lang: &str) {
    attention_lab::app::train_lab::set_lang(lang);
}

/// For scripts/bench-train.mjs: milliseconds for `steps` steps of
/// `task`'s default model, one evaluation and one trace.
#[wasm_bindgen]
pub fn bench(task: &str, steps: u32) -> Vec<f64> {
    attention_lab::app::train_lab::bench(task, steps)
}

fn main() {}
