//! The browser's release build carries no text of the tables: each
//! language's texts are a file of their own, `strings-zh-<hash>.txt` and
//! `strings-en-<hash>.txt` (written by `examples/strings.rs`, named by
//! `scripts/postbuild.py`), and a reader fetches only the language they
//! read (docs/performance.md, "Each language's words when it is read").
//!
//! The start script (`start-<hash>.js`, `scripts/postbuild.py`) defines
//! `attentionLabText(lang)`, a promise of a language's file, and starts
//! fetching the language the app will open in (by the rule of
//! `web::initial_lang`) while the WebAssembly compiles. The app renders only once its language is here
//! (`src/main.rs`), and switches language only once the other one is
//! (`src/app/page/mod.rs`), so [`loaded`] never answers for a language not yet read.

use super::{Lang, TEXTS};
use std::cell::OnceCell;
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    /// Each language's texts once read: Chinese, English.
    static READ: [OnceCell<Vec<&'static str>>; 2] = const { [OnceCell::new(), OnceCell::new()] };
}

fn slot(lang: Lang) -> usize {
    (lang == Lang::En) as usize
}

/// Text `index` of all the tables in `lang` (empty before `lang` is read,
/// which the app never asks for).
pub fn loaded(lang: Lang, index: usize) -> &'static str {
    READ.with(|read| {
        read[slot(lang)]
            .get()
            .and_then(|texts| texts.get(index).copied())
    })
    .unwrap_or("")
}

/// Reads `lang`'s texts unless they are already here. False when they
/// cannot be fetched or are not this build's (a file with another number
/// of texts).
pub async fn load(lang: Lang) -> bool {
    if READ.with(|read| read[slot(lang)].get().is_some()) {
        return true;
    }
    let Some(text) = fetch(lang).await else {
        return false;
    };
    // The texts live as long as the page: one string, never freed, each
    // text a slice of it.
    let text: &'static str = Box::leak(text.into_boxed_str());
    let texts: Vec<&'static str> = text.split('\0').collect();
    if texts.len() != TEXTS {
        return false;
    }
    READ.with(|read| {
        let _ = read[slot(lang)].set(texts);
    });
    true
}

/// The file's text, through the start script's `attentionLabText`.
async fn fetch(lang: Lang) -> Option<String> {
    let get =
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("attentionLabText")).ok()?;
    let get: js_sys::Function = get.dyn_into().ok()?;
    let promise: js_sys::Promise = get
        .call1(&JsValue::NULL, &JsValue::from_str(lang.code()))
        .ok()?
        .dyn_into()
        .ok()?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .ok()?
        .as_string()
}
