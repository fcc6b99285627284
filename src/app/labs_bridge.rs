//! The page's side of the labs module (`src/bin/labs.rs`, rendered by
//! [`labs_root`](super::labs_root)): the seven labs are a second
//! WebAssembly module, so the first screen neither downloads nor compiles
//! them. Once the page has rendered its `<section class="labs">` (after its
//! first paint; at once for an embedded lab), [`use_labs`] imports the
//! module's JS glue (its URL, relative to the page, is in
//! `<meta name="attention-lab-labs">`, written by scripts/postbuild.py),
//! mounts the labs into the section and hands them the scenario (in the two
//! parts of `Scenario::to_parts`: no million numbers written and read as
//! text), language and layout whenever these change, in a task after the
//! change is painted.
//! A mask edit comes back as the mask in the scenario format and is
//! dispatched like any edit (undo, saving and share links stay here).

use super::effects::View;
use super::i18n::Lang;
use super::Shared;
use crate::attention::{Mask, Scenario};
use crate::lesson::edit::Edit;
use crate::lesson::names::Convention;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

#[wasm_bindgen(inline_js = "export function load_labs(host, view, onEdit) {
  const meta = document.querySelector('meta[name=\"attention-lab-labs\"]');
  if (!meta) return Promise.reject(new Error('no labs module'));
  return import(new URL(meta.content, document.baseURI).href).then(async (m) => {
    await m.default();
    m.mount(host, view, onEdit);
    return m;
  });
}
export function update_labs(m, header, numbers, lang, convention) { m.update(header, numbers, lang, convention); }")]
extern "C" {
    fn load_labs(
        host: &web_sys::Element,
        view: Option<String>,
        on_edit: Option<js_sys::Function>,
    ) -> js_sys::Promise;
    // A failure in the labs module (it aborts on a panic) stays there.
    #[wasm_bindgen(catch)]
    fn update_labs(
        module: &JsValue,
        header: &str,
        numbers: &[f64],
        lang: &str,
        convention: &str,
    ) -> Result<(), JsValue>;
}

/// The `view=` name of an embedded lab.
pub fn view_name(v: View) -> Option<&'static str> {
    v.is_lab().then(|| v.name())
}

/// The loaded module (its JS namespace), or why not.
#[derive(Clone)]
enum Module {
    Loading,
    Ready(JsValue),
    Failed,
}

/// How the labs are mounted, fixed for the visit.
pub struct Mount {
    /// The section, rendered once `on`.
    pub host: NodeRef,
    pub on: bool,
    /// The one embedded lab (its `view=` name); `None` for every lab.
    pub view: Option<&'static str>,
    /// `None` on a locked page.
    pub on_edit: Option<Callback<Edit>>,
}

/// Loads the labs module into the section once it is rendered and keeps
/// it showing `scenario` in `lang` and `convention`.
#[hook]
pub fn use_labs(mount: Mount, scenario: Rc<Scenario>, lang: Lang, convention: Convention) {
    let Mount {
        host,
        on,
        view,
        on_edit,
    } = mount;
    let module = use_state(|| Module::Loading);
    {
        let module = module.clone();
        use_effect_with(on, move |&on| {
            let Some(el) = host.cast::<web_sys::Element>().filter(|_| on) else {
                return;
            };
            let callback = on_edit.map(|e| {
                Closure::<dyn Fn(String)>::new(move |text: String| {
                    if let Ok(mask) = Mask::from_json(&text) {
                        e.emit(Edit::Mask(mask));
                    }
                })
                // The section lives as long as the page.
                .into_js_value()
                .unchecked_into::<js_sys::Function>()
            });
            let promise = load_labs(&el, view.map(str::to_string), callback);
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(m) => module.set(Module::Ready(m)),
                    Err(_) => {
                        el.set_attribute("data-labs", "failed").ok();
                        module.set(Module::Failed);
                    }
                }
            });
        });
    }
    // Handing over in the task after the change is painted (encoding a
    // large scenario and the labs' own render must not delay the edit's
    // frame); a newer change replaces one still waiting.
    let waiting = use_mut_ref(|| None::<gloo::render::AnimationFrame>);
    let ready = match &*module {
        Module::Ready(m) => Some(m.clone()),
        _ => None,
    };
    use_effect_with(
        (ready.is_some(), Shared(scenario), lang, convention),
        move |(_, scenario, lang, convention)| {
            let Some(m) = ready else {
                return;
            };
            let (s, lang, convention) = (scenario.0.clone(), *lang, *convention);
            *waiting.borrow_mut() = Some(super::effects::after_paint(move || {
                let (header, numbers) = s.to_parts();
                update_labs(&m, &header, &numbers, lang.code(), convention.code()).ok();
            }));
        },
    );
}
