//! The edge where the page touches the browser: location, storage, the
//! document. Every function here tolerates a missing or throwing API
//! (storage blocked in a private window or a third-party iframe) and never
//! panics; failures simply mean "nothing remembered".

use super::i18n::Lang;
use super::url;

const LANG_KEY: &str = "attention-lab.lang";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// `location.search`, or "" when unavailable.
pub fn location_search() -> String {
    window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// `location.hash`, or "" when unavailable.
pub fn location_hash() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

/// The language to open in: `?lang=` first (and remembered), then the
/// remembered choice, then the browser's language.
pub fn initial_lang() -> Lang {
    if let Some(lang) = url::param(&location_search(), "lang").and_then(|c| Lang::parse(&c)) {
        remember_lang(lang);
        return lang;
    }
    if let Some(lang) = storage()
        .and_then(|s| s.get_item(LANG_KEY).ok().flatten())
        .and_then(|c| Lang::parse(&c))
    {
        return lang;
    }
    let browser = window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    Lang::from_browser(&browser)
}

/// Remembers the language for the next visit (silently skipped when storage
/// is unavailable).
pub fn remember_lang(lang: Lang) {
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, lang.code());
    }
}

/// Sets `<html lang>` and the document title, and keeps `?lang=` in the
/// address in step with the choice (so a reload or a copied URL keeps it).
pub fn apply_lang(lang: Lang, title: &str) {
    let Some(w) = window() else { return };
    if let Some(doc) = w.document() {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", if lang == Lang::Zh { "zh-CN" } else { "en" });
        }
        doc.set_title(title);
    }
    let search = location_search();
    if url::param(&search, "lang").is_some_and(|c| Lang::parse(&c) != Some(lang)) {
        let new_search = url::with_param(&search, "lang", lang.code());
        let href = format!("{}{}", new_search, location_hash());
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href));
        }
    }
}
