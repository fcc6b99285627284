use crate::app::web::after_paint;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

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
