//! The page's address: its query (`?lang=`, `?view=`, `?embed=` …), the
//! `#s=` share link in its hash, and the links the page hands out.

use super::{now_ms, window};
use crate::app::url;

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

/// The `#s=` link in the address, if any, read and checked; a refusal
/// records how long it took ([`mark_refusal`]).
pub fn link_in_address() -> Option<Result<crate::attention::Scenario, url::LinkError>> {
    let t0 = now_ms();
    let link = url::scenario_from_fragment(&location_hash());
    if matches!(link, Some(Err(_))) {
        mark_refusal(now_ms() - t0);
    }
    link
}

/// Records how long the last refusal of a link or file took, as
/// `<html data-refused-ms>` (the tests read it).
pub fn mark_refusal(ms: f64) {
    if let Some(root) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-refused-ms", &format!("{ms:.3}"));
    }
}

/// The value of a query parameter of the page's address.
pub fn query(key: &str) -> Option<String> {
    url::param(&location_search(), key)
}

/// Sets `?key=value` in the address without reloading (history.replaceState).
pub fn set_query(key: &str, value: &str) {
    let Some(w) = window() else { return };
    let search = location_search();
    if url::param(&search, key).as_deref() == Some(value) {
        return;
    }
    let href = format!(
        "{}{}",
        url::with_param(&search, key, value),
        location_hash()
    );
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href));
    }
}

/// The address of this page with `fragment` (e.g. `#s=…`) as its hash.
pub fn page_url_with(fragment: &str) -> String {
    window()
        .and_then(|w| w.location().href().ok())
        .map(|href| {
            let base = href.split('#').next().unwrap_or_default().to_string();
            format!("{base}{fragment}")
        })
        .unwrap_or_else(|| fragment.to_string())
}

pub use crate::app::views::View;

/// How the page is shown: `?embed=1` (one figure, no page chrome),
/// `?view=`, `?lock=1` (numbers shown, not editable), `?caption=1` (an
/// embedded figure's caption line: the scenario and its settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisplayMode {
    pub embed: bool,
    pub locked: bool,
    pub caption: bool,
    pub view: View,
}

impl DisplayMode {
    /// Whether this page is a guest in the reader's browser: an embedded
    /// figure, or a locked page (an instructor's read-only link). A guest
    /// shows what its link says and never touches the reader's saved work
    /// or language, nor drops the link from the address (so the address
    /// stays a share link, with `lock=1` when locked).
    pub fn guest(&self) -> bool {
        self.embed || self.locked
    }
}

/// The display mode of this visit, from the address.
pub fn display_mode() -> DisplayMode {
    let on = |k| query(k).is_some_and(|v| v == "1" || v == "true");
    DisplayMode {
        embed: on("embed"),
        locked: on("lock"),
        caption: on("caption"),
        view: query("view")
            .and_then(|v| View::parse(&v))
            .unwrap_or(View::Workbench),
    }
}

/// This page without `embed`/`view`, for "open the full page" links.
pub fn full_page_url() -> String {
    let search = location_search();
    let kept: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("embed=") && !kv.starts_with("view="))
        .collect();
    let query = if kept.is_empty() {
        String::new()
    } else {
        format!("?{}", kept.join("&"))
    };
    let path = window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    format!("{path}{query}{}", location_hash())
}

/// A ready `<iframe>` for the current scenario and the few lines a host page
/// needs to follow the height messages (checking the sender's origin).
/// (`caption`: with the embedded figure's caption line, `caption=1`).
pub fn embed_snippet(view: &str, fragment: &str, lang: &str, caption: bool) -> String {
    let (origin, path) = window()
        .map(|w| {
            let l = w.location();
            (
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default(),
            )
        })
        .unwrap_or_default();
    let params = url::embed_params(view, lang, &location_search(), caption);
    url::embed_snippet(&origin, &path, &params, fragment)
}

/// Drops a `#s=` link from the address once it has been opened, so that a
/// reload shows the saved (possibly edited) scenario instead of the link's.
pub fn clear_share_fragment() {
    let Some(w) = window() else { return };
    if url::param(location_hash().trim_start_matches('#'), "s").is_none() {
        return;
    }
    let href = format!(
        "{}{}",
        w.location().pathname().unwrap_or_default(),
        location_search()
    );
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href));
    }
}
