//! The page's side of the training module (`src/bin/train.rs`, rendered
//! by [`train_lab`](super::train_lab)): the training lab is a third
//! WebAssembly module, loaded only when the reader opens the lab ("Open
//! the training lab"), or at once for `?view=train` and
//! `?embed=1&view=train`, so neither the first screen nor the labs module
//! carries it. Its JS glue's URL, relative to the page, is in
//! `<meta name="attention-lab-train">` (written by scripts/postbuild.py).
//!
//! The section is `section[data-lab="train"]` with `data-labs="loading"`
//! while the module loads and `data-labs="failed"` if it cannot
//! (docs/format.md §3). "Open in the workbench" hands back the model as a
//! scenario (JSON, every f64 read back exactly), loaded like an imported
//! file: undoable, the reader's previous work one Undo away.

use super::i18n::{Lang, TP};
use super::state::{Action, Source};
use crate::attention::Scenario;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

#[wasm_bindgen(inline_js = "export function load_train(host, lab, lang, onOpen) {
  const meta = document.querySelector('meta[name=\"attention-lab-train\"]');
  if (!meta) return Promise.reject(new Error('no training module'));
  return import(new URL(meta.content, document.baseURI).href).then(async (m) => {
    await m.default();
    m.mount(host, lab, lang, onOpen);
    return m;
  });
}
export function train_lang(m, lang) { m.set_lang(lang); }")]
extern "C" {
    fn load_train(
        host: &web_sys::Element,
        lab: &web_sys::Element,
        lang: &str,
        on_open: Option<js_sys::Function>,
    ) -> js_sys::Promise;
    // A failure in the training module (it aborts on a panic) stays there.
    #[wasm_bindgen(catch)]
    fn train_lang(module: &JsValue, lang: &str) -> Result<(), JsValue>;
}

/// Where the module is.
#[derive(Clone, PartialEq)]
enum Module {
    Closed,
    Loading,
    Ready(JsValue),
    Failed,
}

#[derive(Properties, PartialEq)]
pub struct TrainSectionProps {
    pub lang: Lang,
    /// Open at once (`?view=train`).
    pub now: bool,
    /// The page's dispatch for "Open in the workbench"; `None` where there
    /// is no workbench to open in (an embedded or locked page).
    pub on_action: Option<Callback<Action>>,
}

/// The training lab's section: its title and "Open the training lab",
/// then the module's lab.
#[component]
pub fn TrainSection(p: &TrainSectionProps) -> Html {
    let module = use_state(|| Module::Closed);
    let section = use_node_ref();
    let host = use_node_ref();
    let lang = p.lang;
    let open = {
        let (module, section, host) = (module.clone(), section.clone(), host.clone());
        let on_action = p.on_action.clone();
        Rc::new(move || {
            if *module != Module::Closed {
                return;
            }
            let (Some(lab), Some(el)) = (
                section.cast::<web_sys::Element>(),
                host.cast::<web_sys::Element>(),
            ) else {
                return;
            };
            module.set(Module::Loading);
            let callback = on_action.clone().map(|d| {
                Closure::<dyn Fn(String)>::new(move |json: String| {
                    if let Ok(s) = Scenario::from_json(&json) {
                        d.emit(Action::Load(s, Source::Import));
                        scroll_to_workbench();
                    }
                })
                // The section lives as long as the page.
                .into_js_value()
                .unchecked_into::<js_sys::Function>()
            });
            let promise = load_train(&el, &lab, lang.code(), callback);
            let module = module.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(m) => module.set(Module::Ready(m)),
                    Err(_) => module.set(Module::Failed),
                }
            });
        })
    };
    {
        let open = open.clone();
        let section = section.clone();
        use_effect_with(p.now, move |&now| {
            if now {
                open();
                if let Some(el) = section.cast::<web_sys::Element>() {
                    el.scroll_into_view();
                }
            }
        });
    }
    {
        let ready = match &*module {
            Module::Ready(m) => Some(m.clone()),
            _ => None,
        };
        use_effect_with((ready.is_some(), lang), move |(_, lang)| {
            if let Some(m) = ready {
                train_lang(&m, lang.code()).ok();
            }
        });
    }
    let state = match &*module {
        Module::Loading => Some("loading"),
        Module::Failed => Some("failed"),
        _ => None,
    };
    let onclick = Callback::from(move |_: MouseEvent| open());
    html! {
        <section class="lab train" data-lab="train" data-labs={state} aria-labelledby="lab-train-title" ref={section}>
            <h2 id="lab-train-title">{ TP::TrainTitle.t(lang) }</h2>
            if *module == Module::Closed {
                <button data-control="open-lab" class="primary" {onclick}>{ TP::TrainOpenLab.t(lang) }</button>
            }
            if *module == Module::Loading {
                <p class="note" role="status">{ TP::TrainLoading.t(lang) }</p>
            }
            if *module == Module::Failed {
                <p role="alert">{ TP::TrainFailed.t(lang) }</p>
            }
            <div class="train-mount" ref={host}></div>
        </section>
    }
}

/// Brings the workbench into view (after "Open in the workbench").
fn scroll_to_workbench() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".workbench").ok().flatten())
    {
        el.scroll_into_view();
    }
}
