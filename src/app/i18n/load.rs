//! The browser's release build carries no text of the tables: each
//! language's texts are three files of their own, written by
//! `examples/strings.rs` and named by `scripts/postbuild.py`:
//!
//! - `strings-zh-<hash>.txt`, `strings-en-<hash>.txt`: the page's words
//!   (the tables before [`FIRST_TEXTS`](super::FIRST_TEXTS)), fetched for
//!   the first screen;
//! - `strings-labs-zh-<hash>.txt`, `strings-labs-en-<hash>.txt`: the labs'
//!   and the training lab's words, fetched with the first of their chunks
//!   ([`load_words`]), so the first screen does not carry them;
//! - `strings-tokens-zh-<hash>.txt`, `strings-tokens-en-<hash>.txt`: the
//!   tokens lab's (the tables from [`LABS_TEXTS`](super::LABS_TEXTS) on),
//!   fetched with its chunk ([`load_words`]), so the other labs do not
//!   carry them.
//!
//! A reader fetches only the language they read (docs/performance.md, "Each
//! language's words when it is read").
//!
//! The start script (`start-<hash>.js`, `scripts/postbuild.py`) defines
//! `attentionLabText(key)`, a promise of a file (`zh`, `en`, `labs-zh`,
//! `labs-en`, `tokens-zh`, `tokens-en`), and starts fetching the page's
//! words in the language the app will open in (by the rule of
//! `web::initial_lang`) while the WebAssembly compiles. The app renders
//! only once its language is here (`src/main.rs`), switches language only
//! once the other one is (`src/app/page/mod.rs`; [`load`] then also reads
//! the words of every part a chunk has asked for), and mounts a chunk's lab
//! only once its words are here (`src/app/chunks/`), so [`loaded`] never
//! answers for a text not yet read.

use super::{ChunkWords, Lang, FIRST_TEXTS, LABS_TEXTS, TEXTS};
use std::cell::{Cell, OnceCell};
use std::future::Future;

/// Where each part's texts begin, and where the last one's end: part `p`
/// (the page's, the labs', the tokens lab's) is `BOUNDS[p]..BOUNDS[p + 1]`.
const BOUNDS: [usize; 4] = [0, FIRST_TEXTS, LABS_TEXTS, TEXTS];

thread_local! {
    /// Each part's texts once read, by part and language (Chinese,
    /// English).
    static READ: [[OnceCell<Vec<&'static str>>; 2]; 3] = const {
        [
            [OnceCell::new(), OnceCell::new()],
            [OnceCell::new(), OnceCell::new()],
            [OnceCell::new(), OnceCell::new()],
        ]
    };
    /// The parts a chunk has asked for (the page's is always here): then
    /// a language is shown only with them.
    static WANTED: Cell<[bool; 3]> = const { Cell::new([true, false, false]) };
}

/// The part that holds text `index`, and where it is in the part.
fn part_of(index: usize) -> (usize, usize) {
    let part = (index >= FIRST_TEXTS) as usize + (index >= LABS_TEXTS) as usize;
    (part, index - BOUNDS[part])
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

/// Reads `lang`'s page words unless they are already here, and the words
/// of every part a chunk has asked for ([`load_words`]).
/// False when a file cannot be fetched or is not this build's (another
/// number of texts).
pub fn load(lang: Lang) -> impl Future<Output = bool> {
    read(WANTED.with(Cell::get), lang)
}

/// Reads `lang`'s words of `words` unless they are already here; the
/// files are asked for at once (before the returned future is awaited), so
/// they come while a chunk does.
pub fn load_words(words: ChunkWords, lang: Lang) -> impl Future<Output = bool> {
    let tokens = words == ChunkWords::Tokens;
    WANTED.with(|w| {
        let [page, _, had] = w.get();
        w.set([page, true, had || tokens]);
    });
    read([false, true, tokens], lang)
}

/// Asks at once for each of the `parts` of `lang` not read yet; the
/// future reads them.
fn read(parts: [bool; 3], lang: Lang) -> impl Future<Output = bool> {
    let asked =
        [0, 1, 2].map(|part| (parts[part] && !is_read(part, lang)).then(|| ask(part, lang)));
    async move {
        for (part, promise) in asked.into_iter().enumerate() {
            let Some(promise) = promise else {
                continue;
            };
            let Some(text) = crate::app::start::file_text(promise).await else {
                return false;
            };
            // The texts live as long as the page: one string, never freed,
            // each text a slice of it.
            let text: &'static str = Box::leak(text.into_boxed_str());
            let texts: Vec<&'static str> = text.split('\0').collect();
            if texts.len() != BOUNDS[part + 1] - BOUNDS[part] {
                return false;
            }
            READ.with(|read| {
                let _ = read[part][slot(lang)].set(texts);
            });
        }
        true
    }
}

/// The start script's promise of a part's file (`attentionLabText`).
fn ask(part: usize, lang: Lang) -> Option<js_sys::Promise> {
    let key = format!("{}{}", ["", "labs-", "tokens-"][part], lang.code());
    crate::app::start::ask_file("attentionLabText", &key)
}
