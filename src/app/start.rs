//! Files the start script (`start-<hash>.js`, scripts/postbuild.py) fetches
//! for the app by key: each language's words (`attentionLabText`,
//! `src/app/i18n/load.rs`) and data a lab needs (`attentionLabData`: the
//! digits of the training lab's `digits` task). The script knows each
//! file's hashed name and integrity, so the app never writes them. A leaf:
//! it uses nothing of the app, so the words and the page may both use it.

/// Asks the start script's `function` (`attentionLabText`,
/// `attentionLabData`: scripts/postbuild.py) for the file it knows as
/// `key`, at once; `None` where there is no such function (a build without
/// the start script's files).
pub fn ask_file(function: &str, key: &str) -> Option<js_sys::Promise> {
    use wasm_bindgen::{JsCast, JsValue};
    let get = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(function)).ok()?;
    let get: js_sys::Function = get.dyn_into().ok()?;
    get.call1(&JsValue::NULL, &JsValue::from_str(key))
        .ok()?
        .dyn_into()
        .ok()
}

/// The text an [`ask_file`] promise gives (`None` when it could not be
/// fetched).
pub async fn file_text(promise: Option<js_sys::Promise>) -> Option<String> {
    wasm_bindgen_futures::JsFuture::from(promise?)
        .await
        .ok()?
        .as_string()
}
