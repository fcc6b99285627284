//! The edge where the page touches the browser: location, storage, the
//! document. Every function here tolerates a missing or throwing API
//! (storage blocked in a private window or a third-party iframe) and never
//! panics; failures simply mean "nothing remembered".

use super::i18n::Lang;
use super::url;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

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

/// Sets `<html lang>` and the document title, and keeps `?lang=` in the
/// address in step with the choice (so a reload or a copied URL keeps it).
pub fn apply_lang(lang: Lang, title: &str) {
    let Some(w) = window() else { return };
    if let Some(doc) = w.document() {
        // Only what differs is written: a new `lang` on the root restyles
        // the whole document.
        let code = if lang == Lang::Zh { "zh-CN" } else { "en" };
        if let Some(root) = doc.document_element() {
            if root.get_attribute("lang").as_deref() != Some(code) {
                let _ = root.set_attribute("lang", code);
            }
        }
        if doc.title() != title {
            doc.set_title(title);
        }
    }
    if query("lang").is_some_and(|c| Lang::parse(&c) != Some(lang)) {
        set_query("lang", lang.code());
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

/// The element the app renders into: `<div id="app">`, added to the body
/// (once, by `main`)
/// (the body also holds the pre-rendered first screen, which must stay
/// until the app can replace it: docs/performance.md, "First paint").
pub fn app_root() -> Option<web_sys::Element> {
    let doc = window()?.document()?;
    let body = doc.body()?;
    // The body's <noscript> says the app needs JavaScript: not for a
    // browser that is running it. The app renders into a <div> of its own
    // and leaves the rest of the body alone, so it is removed here.
    if let Ok(notes) = body.query_selector_all("noscript") {
        for k in 0..notes.length() {
            if let Some(n) = notes.item(k) {
                let _ = body.remove_child(&n);
            }
        }
    }
    // No copy was chosen (a link, a figure, saved work): none will be shown.
    if !prerender_shown() {
        end_prerender();
    }
    let root = doc.create_element("div").ok()?;
    root.set_id("app");
    body.append_child(&root).ok()?;
    Some(root)
}

/// Says, in both languages, that the page's words could not be fetched
/// (src/app/i18n/load.rs), in the box `static/support.js` uses for a
/// browser that cannot run the app; the pre-rendered first screen stays.
#[cfg(feature = "split")]
pub fn words_unavailable() {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    let (Some(body), Ok(bx)) = (doc.body(), doc.create_element("div")) else {
        return;
    };
    bx.set_class_name("unsupported");
    let _ = bx.set_attribute("role", "alert");
    let _ = bx.set_attribute("data-words-unavailable", "");
    for (lang, text) in [
        ("zh-CN", "注意力实验室的文字没能下载，页面还不能使用。请检查网络后重新加载。"),
        (
            "en",
            "Attention Lab could not download its words, so the page cannot start. Check the connection and reload.",
        ),
    ] {
        if let Ok(p) = doc.create_element("p") {
            let _ = p.set_attribute("lang", lang);
            p.set_text_content(Some(text));
            let _ = bx.append_child(&p);
        }
    }
    let _ = body.insert_before(&bx, body.first_child().as_ref());
}

/// Whether a pre-rendered copy of the first screen is shown
/// (`<html data-pre>`, set by the chooser script before the body is parsed).
fn prerender_shown() -> bool {
    window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|r| r.has_attribute("data-pre"))
}

thread_local! {
    static PRERENDER_ENDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Replaces the pre-rendered first screen with the app: removes every
/// `<main data-pre>` and `<html data-pre>`, which showed the copy and kept
/// the app hidden (static/style.css). Called in the render in which the
/// stage has its measured width, so the copy and the app swap in one task
/// and nothing moves; then a no-op.
pub fn end_prerender() {
    if PRERENDER_ENDED.with(|e| e.replace(true)) {
        return;
    }
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(copies) = doc.query_selector_all("main[data-pre]") {
        for k in 0..copies.length() {
            if let Some(node) = copies.item(k) {
                if let Some(parent) = node.parent_node() {
                    let _ = parent.remove_child(&node);
                }
            }
        }
    }
    if let Some(root) = doc.document_element() {
        let _ = root.remove_attribute("data-pre");
    }
}

/// The largest scenario file the page reads: 2 MB (refused by its size,
/// before it is read).
pub const MAX_IMPORT_BYTES: usize = 2 * 1024 * 1024;

/// Runs `f` in a task after the next frame is painted (a frame callback,
/// then a timer). Dropping the handle before the frame cancels it.
pub fn after_paint(f: impl FnOnce() + 'static) -> gloo::render::AnimationFrame {
    gloo::render::request_animation_frame(move |_| {
        gloo::timers::callback::Timeout::new(0, f).forget();
    })
}

/// `performance.now()` in ms (0 when unavailable).
pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
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

/// Offers `text` as a download named `filename`.
pub fn download(filename: &str, mime: &str, text: &str) -> bool {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return false;
    };
    let Ok(href) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return false;
    };
    let done = download_url(filename, &href);
    let _ = web_sys::Url::revoke_object_url(&href);
    done
}

/// Offers the resource at `href` (a `blob:` or `data:` URL) as a download.
pub fn download_url(filename: &str, href: &str) -> bool {
    use wasm_bindgen::JsCast;
    let run = || -> Option<()> {
        let doc = window()?.document()?;
        let a: web_sys::HtmlAnchorElement = doc.create_element("a").ok()?.dyn_into().ok()?;
        a.set_href(href);
        a.set_download(filename);
        doc.body()?.append_child(&a).ok()?;
        a.click();
        a.remove();
        Some(())
    };
    run().is_some()
}

/// Copies `text` to the clipboard; `Ok` when the browser confirmed it.
pub async fn copy_text(text: String) -> Result<(), ()> {
    let clipboard = window().map(|w| w.navigator().clipboard()).ok_or(())?;
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text))
        .await
        .map(|_| ())
        .map_err(|_| ())
}

pub use super::refusal::LoadError;

/// The text of a scenario file the user picked. A file over
/// [`MAX_IMPORT_BYTES`] is refused by its size, before it is read.
pub async fn read_file(file: web_sys::File) -> Result<String, LoadError> {
    let size = file.size();
    if size > MAX_IMPORT_BYTES as f64 {
        return Err(LoadError::TooLarge {
            limit: MAX_IMPORT_BYTES,
            got: size as usize,
        });
    }
    wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or(LoadError::Unreadable)
}

pub use super::views::View;

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

/// In an iframe: tells the host page the content height whenever it changes,
/// growing or shrinking (`{type: "attention-lab:height", height}`, docs/embedding.md). The
/// height is the page's own `<main>` (its border box, in whole CSS pixels):
/// never the document's scroll height, which is at least the iframe's own
/// height and so could never let a frame shrink. The returned observer
/// stops when dropped.
pub fn post_height_on_resize() -> Option<ResizeWatch> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let w = window()?;
    let parent = w.parent().ok().flatten()?;
    // The app's own <main>, not a pre-rendered copy (docs/performance.md).
    let content = w
        .document()?
        .query_selector("main:not([data-pre])")
        .ok()
        .flatten()?;
    let last = std::rc::Rc::new(std::cell::Cell::new(-1.0f64));
    let measure = content.clone();
    let callback = Closure::<dyn FnMut()>::new(move || {
        let height = measure.get_bounding_client_rect().height().ceil();
        if height != last.get() {
            last.set(height);
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &"type".into(), &"attention-lab:height".into());
            let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
            let _ = parent.post_message(&msg, "*");
        }
    });
    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(&content);
    Some(ResizeWatch {
        observer,
        _callback: callback,
    })
}

/// A running height observer; dropping it disconnects it.
pub struct ResizeWatch {
    observer: web_sys::ResizeObserver,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl Drop for ResizeWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// A text field's value, written into the field when `value` changes (and
/// when the hook is new). Yew's `value={..}` writes it into the field at
/// every render in which the two differ, so any render (another part's
/// edit, a training step, an error message appearing) would wipe what the
/// reader has typed and not yet committed; a field that takes its value
/// from this hook keeps it. Put the returned ref on the `<input>`, without
/// `value`. The field must exist whenever `value` is not empty: one shown
/// only at times gets "" while it is hidden, so it is written when shown.
#[hook]
pub fn use_input_value(value: AttrValue) -> NodeRef {
    let node = use_node_ref();
    let field = node.clone();
    use_effect_with(value, move |v| {
        if let Some(el) = field.cast::<web_sys::HtmlInputElement>() {
            el.set_value(v);
        }
    });
    node
}

/// `value` as the element of `node` (and what it holds) should show it:
/// the newest while the element is on screen (or not yet reported by its
/// observer), else the one it shows already, until the next frame has
/// been painted or the element comes into view, whichever is first (then
/// the component renders again and gets the newest). So an edit's own
/// frame holds what the reader can see, and what is off screen follows a
/// frame later. `T`'s `==` should be cheap (a pointer's).
#[hook]
pub fn use_when_seen<T: Clone + PartialEq + 'static>(node: NodeRef, value: T) -> T {
    let seen = use_memo((), |_| Rc::new(Seen::default()));
    let shown = use_mut_ref(|| value.clone());
    let update = use_force_update();
    {
        let (seen, update) = ((*seen).clone(), update.clone());
        use_effect_with((), move |_| {
            let watch = node
                .cast::<web_sys::Element>()
                .and_then(|el| ScreenWatch::new(&el, seen, update));
            move || drop(watch)
        });
    }
    let mut shown = shown.borrow_mut();
    if *shown != value {
        if seen.off_screen.get() && !seen.release.get() {
            let (s, update) = (Rc::downgrade(&*seen), update.clone());
            *seen.frame.borrow_mut() = Some(after_paint(move || {
                if let Some(s) = s.upgrade() {
                    s.release.set(true);
                    update.force_update();
                }
            }));
        } else {
            *shown = value;
            seen.frame.borrow_mut().take();
        }
    }
    seen.release.set(false);
    shown.clone()
}

/// What [`use_when_seen`] knows of its element.
#[derive(Default)]
struct Seen {
    /// Reported off screen by the observer (never reported: on screen).
    off_screen: Cell<bool>,
    /// The next render shows the newest value.
    release: Cell<bool>,
    /// The frame after which it does, while waiting.
    frame: RefCell<Option<gloo::render::AnimationFrame>>,
}

/// A running visibility observer (an `IntersectionObserver`); dropping it
/// disconnects it. Reached through `js_sys`, the least code here.
struct ScreenWatch {
    observer: js_sys::Object,
    _report: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

/// Calls `target[name](arg)`.
fn call_method(target: &js_sys::Object, name: &str, arg: &wasm_bindgen::JsValue) {
    use wasm_bindgen::JsCast;
    if let Ok(f) = js_sys::Reflect::get(target, &name.into()) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(target, arg);
        }
    }
}

impl ScreenWatch {
    fn new(
        el: &web_sys::Element,
        seen: Rc<Seen>,
        update: UseForceUpdateHandle,
    ) -> Option<ScreenWatch> {
        use wasm_bindgen::JsCast;
        let report = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                let last = entries.get(entries.length().saturating_sub(1));
                let on = js_sys::Reflect::get(&last, &"isIntersecting".into())
                    .is_ok_and(|v| v.is_truthy());
                seen.off_screen.set(!on);
                // Into view with a newer value waiting: show it now.
                if on && seen.frame.borrow().is_some() {
                    seen.release.set(true);
                    update.force_update();
                }
            },
        );
        let class = js_sys::Reflect::get(&js_sys::global(), &"IntersectionObserver".into()).ok()?;
        let args = js_sys::Array::of1(report.as_ref());
        let observer: js_sys::Object =
            js_sys::Reflect::construct(class.dyn_ref::<js_sys::Function>()?, &args)
                .ok()?
                .unchecked_into();
        call_method(&observer, "observe", el);
        Some(ScreenWatch {
            observer,
            _report: report,
        })
    }
}

impl Drop for ScreenWatch {
    fn drop(&mut self) {
        call_method(
            &self.observer,
            "disconnect",
            &wasm_bindgen::JsValue::UNDEFINED,
        );
    }
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
