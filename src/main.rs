//! Mounts the app; nothing else (and picks the WebAssembly allocator).

#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    yew::Renderer::<attention_lab::app::App>::new().render();
}
