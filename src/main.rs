//! Mounts the app; nothing else (and picks the WebAssembly allocator).

#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use attention_lab::app::{web, App};

fn main() {
    // A failure is shown, never a frozen page (src/app/failure.rs).
    attention_lab::app::failure::install();
    // The browser's release build reads its language's words first
    // (src/app/i18n/load.rs); the pre-rendered first screen stays until then.
    #[cfg(feature = "split")]
    wasm_bindgen_futures::spawn_local(async {
        let lang = web::initial_lang(false);
        if attention_lab::app::i18n::load(lang).await {
            render();
        } else {
            web::words_unavailable();
        }
    });
    #[cfg(not(feature = "split"))]
    render();
}

fn render() {
    // Into its own element: the body keeps the pre-rendered first screen
    // until the app's stage replaces it (docs/performance.md, "First paint").
    let Some(root) = web::app_root() else {
        yew::Renderer::<App>::new().render();
        return;
    };
    // When the pre-rendered copy is shown, this module was started only
    // after the frame that painted it (static/support.js), so the app's
    // first render (a long task) never holds that frame back.
    yew::Renderer::<App>::with_root(root).render();
}
