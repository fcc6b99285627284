//! The browser's release build carries no text of the tables: each
//! language's texts are two files of their own, written by
//! `examples/strings.rs` and named by `scripts/postbuild.py`:
//!
//! - `strings-zh-<hash>.txt`, `strings-en-<hash>.txt`: the page's words
//!   (the tables before [`FIRST_TEXTS`](super::FIRST_TEXTS)), fetched for
//!   the first screen;
//! - `strings-labs-zh-<hash>.txt`, `strings-labs-en-<hash>.txt`: the labs',
//!   the training lab's and the tokens lab's words, fetched with the first
//!   of their chunks ([`load_labs`]), so the first screen does not carry
//!   them.
//!
//! A reader fetches only the language they read (docs/performance.md, "Each
//! language's words when it is read").
//!
//! The start script (`start-<hash>.js`, `scripts/postbuild.py`) defines
//! `attentionLabText(key)`, a promise of a file (`zh`, `en`, `labs-zh`,
//! `labs-en`), and starts fetching the page's words in the language the app
//! will open in (by the rule of `web::initial_lang`) while the WebAssembly
//! compiles. The app renders only once its language is here
//! (`src/main.rs`), switches language only once the other one is
//! (`src/app/page/mod.rs`; [`load`] then also reads the labs' words if a lab
//! has asked for them), and mounts a chunk's lab only once its words are
//! here (`src/app/chunks/`), so [`loaded`] never answers for a text not yet
//! read.

use super::{Lang, FIRST_TEXTS, TEXTS};
use std::cell::{Cell, OnceCell};
use std::future::Future;

thread_local! {
    /// Each part's texts once read, by part (the page's, the labs') and
    /// language (Chinese, English).
    static READ: [[OnceCell<Vec<&'static str>>; 2]; 2] =
        const { [[OnceCell::new(), OnceCell::new()], [OnceCell::new(), OnceCell::new()]] };
    /// Whether a lab has asked for its words: then a language is shown
    /// only with them.
    static WANT_LABS: Cell<bool> = const { Cell::new(false) };
}

/// The part that holds text `index`, and where it is in the part.
fn part_of(index: usize) -> (usize, usize) {
    if index < FIRST_TEXTS {
        (0, index)
    } else {
        (1, index - FIRST_TEXTS)
    }
}

fn slot(lang: Lang) -> usize {
    (lang == Lang::En) as usize
}

/// Text `index` of all the tables in `lang` (empty before its part is read,
/// which the app never asks for).
pub fn loaded(lang: Lang, index: usize) -> &'static str {
    let (part, at) = part_of(index);
    READ.with(|read| {
        read[part][slot(lang)]
            .get()
            .and_then(|texts| texts.get(at).copied())
    })
    .unwrap_or("")
}

fn is_read(part: usize, lang: Lang) -> bool {
    READ.with(|read| read[part][slot(lang)].get().is_some())
}

/// Reads `lang`'s page words unless they are already here, and its labs'
/// words too once a lab has asked for them ([`load_labs`]). False when a
/// file cannot be fetched or is not this build's (another number of
/// texts).
pub async fn load(lang: Lang) -> bool {
    let labs = WANT_LABS.with(Cell::get).then(|| read_part(1, lang));
    let page = read_part(0, lang).await;
    page && match labs {
        Some(labs) => labs.await,
        None => true,
    }
}

/// Reads `lang`'s labs' words unless they are already here; the file is
/// asked for at once (before the returned future is awaited), so it comes
/// while a chunk does.
pub fn load_labs(lang: Lang) -> impl Future<Output = bool> {
    WANT_LABS.with(|w| w.set(true));
    read_part(1, lang)
}

/// Asks for part `part` of `lang` at once; the future reads it.
fn read_part(part: usize, lang: Lang) -> impl Future<Output = bool> {
    let promise = (!is_read(part, lang)).then(|| ask(part, lang));
    async move {
        let Some(promise) = promise else {
            return true;
        };
        let Some(text) = crate::app::start::file_text(promise).await else {
            return false;
        };
        // The texts live as long as the page: one string, never freed,
        // each text a slice of it.
        let text: &'static str = Box::leak(text.into_boxed_str());
        let texts: Vec<&'static str> = text.split('\0').collect();
        let expected = [FIRST_TEXTS, TEXTS - FIRST_TEXTS][part];
        if texts.len() != expected {
            return false;
        }
        READ.with(|read| {
            let _ = read[part][slot(lang)].set(texts);
        });
        true
    }
}

/// The start script's promise of a part's file (`attentionLabText`).
fn ask(part: usize, lang: Lang) -> Option<js_sys::Promise> {
    let key = match part {
        0 => lang.code().to_string(),
        _ => format!("labs-{}", lang.code()),
    };
    crate::app::start::ask_file("attentionLabText", &key)
}
