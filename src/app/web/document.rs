//! The document itself: its language and title, the element the app
//! renders into, the pre-rendered first screen, frames and time, and the
//! height an embedded page reports to its host.

use super::address::{query, set_query};
use super::window;
use crate::app::i18n::Lang;

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

/// Runs `f` in a task after the next frame is painted (a frame callback,
/// then a timer). Dropping the handle before the frame cancels it.
pub fn after_paint(f: impl FnOnce() + 'static) -> gloo::render::AnimationFrame {
    gloo::render::request_animation_frame(move |_| {
        gloo::timers::callback::Timeout::new(0, f).forget();
    })
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
