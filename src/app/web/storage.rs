//! What the page keeps in the reader's browser (`localStorage`): the
//! language, the scenario, the previous work a link replaced, and the
//! revision counter that tells one tab another saved since.

use super::address::location_search;
use super::window;
use crate::app::i18n::Lang;
use crate::app::url;

const LANG_KEY: &str = "attention-lab.lang";

fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

/// The language to open in: `?lang=` first (and remembered when
/// `remember`), then the remembered choice, then the browser's language.
pub fn initial_lang(remember: bool) -> Lang {
    if let Some(lang) = url::param(&location_search(), "lang").and_then(|c| Lang::parse(&c)) {
        if remember {
            remember_lang(lang);
        }
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
        if s.get_item(LANG_KEY).ok().flatten().as_deref() == Some(lang.code()) {
            return;
        }
        let _ = s.set_item(LANG_KEY, lang.code());
    }
}

const SCENARIO_KEY: &str = "attention-lab.scenario";
/// The reader's work that a link or another tab replaced.
const PREVIOUS_KEY: &str = "attention-lab.previous";
/// Counts saves of [`SCENARIO_KEY`], by any tab: a tab that finds a
/// revision it has not seen knows another tab saved since.
const REV_KEY: &str = "attention-lab.rev";

thread_local! {
    /// The revision of the saved scenario this tab last read or wrote.
    static KNOWN_REV: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn stored_rev(st: &web_sys::Storage) -> u64 {
    st.get_item(REV_KEY)
        .ok()
        .flatten()
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

fn read_scenario(st: &web_sys::Storage, key: &str) -> Option<crate::attention::Scenario> {
    let text = st.get_item(key).ok().flatten()?;
    crate::attention::Scenario::from_json(&text).ok()
}

/// The scenario saved by the last visit (or another tab), if storage works
/// and it is valid; this tab now knows that revision.
pub fn stored_scenario() -> Option<crate::attention::Scenario> {
    let st = storage()?;
    KNOWN_REV.with(|k| k.set(stored_rev(&st)));
    read_scenario(&st, SCENARIO_KEY)
}

/// The previous work kept when a link replaced it, if any.
pub fn stored_previous() -> Option<crate::attention::Scenario> {
    read_scenario(&storage()?, PREVIOUS_KEY)
}

/// Why a save did not happen.
pub enum SaveError {
    /// Storage is blocked or full: work will not be kept.
    Unavailable,
    /// Another tab saved this newer scenario since this tab last looked;
    /// it was not overwritten.
    Newer(Box<crate::attention::Scenario>),
}

/// Saves the scenario so a reload (and other tabs) find it, unless another
/// tab saved different work this tab has not seen.
pub fn store_scenario(s: &crate::attention::Scenario) -> Result<(), SaveError> {
    let st = storage().ok_or(SaveError::Unavailable)?;
    let rev = stored_rev(&st);
    if rev != KNOWN_REV.with(|k| k.get()) {
        KNOWN_REV.with(|k| k.set(rev));
        if let Some(theirs) = read_scenario(&st, SCENARIO_KEY).filter(|t| t != s) {
            return Err(SaveError::Newer(Box::new(theirs)));
        }
    }
    st.set_item(SCENARIO_KEY, &s.to_json_compact())
        .and_then(|()| st.set_item(REV_KEY, &(rev + 1).to_string()))
        .map_err(|_| SaveError::Unavailable)?;
    KNOWN_REV.with(|k| k.set(rev + 1));
    Ok(())
}

/// Keeps (or, with `None`, forgets) the previous work.
pub fn store_previous(s: Option<&crate::attention::Scenario>) -> Result<(), SaveError> {
    let st = storage().ok_or(SaveError::Unavailable)?;
    match s {
        Some(s) => st.set_item(PREVIOUS_KEY, &s.to_json_compact()),
        None => st.remove_item(PREVIOUS_KEY),
    }
    .map_err(|_| SaveError::Unavailable)
}

/// Calls `on_newer` with the scenario another tab saves, whenever one does
/// (the `storage` event fires only in the other tabs). The listener stops
/// when dropped.
pub fn on_other_tab_save(
    on_newer: impl Fn(crate::attention::Scenario) + 'static,
) -> Option<gloo::events::EventListener> {
    use wasm_bindgen::JsCast;
    let w = window()?;
    Some(gloo::events::EventListener::new(&w, "storage", move |e| {
        let Some(e) = e.dyn_ref::<web_sys::StorageEvent>() else {
            return;
        };
        // The revision is written after the scenario: when it changes, the
        // scenario it counts is there to read.
        if e.key().as_deref() != Some(REV_KEY) {
            return;
        }
        let Some(st) = storage() else { return };
        KNOWN_REV.with(|k| k.set(stored_rev(&st)));
        if let Some(s) = read_scenario(&st, SCENARIO_KEY) {
            on_newer(s);
        }
    }))
}
