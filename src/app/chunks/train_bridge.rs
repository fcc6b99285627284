//! The page's side of the training lab (rendered by
//! [`train_lab`](crate::app::train_lab)): its code is a chunk of its own, split
//! off the page's WebAssembly module (docs/architecture.md, "One module and
//! its chunks") and fetched by the split point [`mount_train`] only when
//! the reader opens the lab ("Open the training lab"), or at once for
//! `?view=train` and `?embed=1&view=train`, so neither the first screen nor
//! the labs' chunk carries it.
//!
//! The section is `section[data-lab="train"]` with `data-labs="loading"`
//! while the chunk loads and `data-labs="failed"` if it cannot
//! (docs/format.md §3); then "Try again" asks for it once more. "Open in the workbench" hands back the model as a
//! scenario (JSON, every f64 read back exactly), loaded like an imported
//! file: undoable, the reader's previous work one Undo away.

use super::ChunkFailed;
use crate::app::i18n::{Lang, PageText, TrainPageText};
use crate::app::state::{Action, Source};
use crate::attention::Scenario;
use std::rc::Rc;
use yew::prelude::*;

/// Shows the mounted lab in a language
/// ([`train_lab::set_lang`](crate::app::train_lab::set_lang)); its code is in
/// the training lab's chunk, called through the function table.
type SetLang = Rc<dyn Fn(Lang)>;

split_point! {
    train,
    /// Mounts the training lab
    /// ([`train_lab::mount`](crate::app::train_lab::mount)) once the `train`
    /// chunk is loaded, and returns how to change its language: the split
    /// point between the page and the lab's code.
    fn mount_train(
        host: web_sys::Element,
        lab: web_sys::Element,
        lang: Lang,
        on_open: Option<Callback<String>>,
    ) -> Result<SetLang, ChunkFailed> {
        crate::app::train_lab::mount(host, lab, lang, on_open);
        Ok(Rc::new(crate::app::train_lab::set_lang))
    }
}

/// Where the training lab's chunk is.
#[derive(Clone)]
enum Module {
    Closed,
    Loading,
    Ready(SetLang),
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
/// then the lab from its chunk.
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
            // Opened once; after a failed load, again ("Try again").
            if !matches!(*module, Module::Closed | Module::Failed) {
                return;
            }
            let (Some(lab), Some(el)) = (
                section.cast::<web_sys::Element>(),
                host.cast::<web_sys::Element>(),
            ) else {
                return;
            };
            module.set(Module::Loading);
            let on_open = on_action.clone().map(|d| {
                Callback::from(move |json: String| {
                    if let Ok(s) = Scenario::from_json(&json) {
                        d.emit(Action::Load(s, Source::Import));
                        scroll_to_workbench();
                    }
                })
            });
            let module = module.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match mount_train(el, lab, lang, on_open).await {
                    Ok(set_lang) => module.set(Module::Ready(set_lang)),
                    Err(ChunkFailed) => module.set(Module::Failed),
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
            Module::Ready(set_lang) => Some(set_lang.clone()),
            _ => None,
        };
        use_effect_with((ready.is_some(), lang), move |&(_, lang)| {
            if let Some(set_lang) = ready {
                set_lang(lang);
            }
        });
    }
    let state = match &*module {
        Module::Loading => Some("loading"),
        Module::Failed => Some("failed"),
        _ => None,
    };
    let onclick = Callback::from(move |_: MouseEvent| open());
    let retry = onclick.clone();
    html! {
        <section class="lab train" data-lab="train" data-labs={state} aria-labelledby="lab-train-title" ref={section}>
            <h2 id="lab-train-title">{ TrainPageText::TrainTitle.t(lang) }</h2>
            if matches!(*module, Module::Closed) {
                <button data-control="open-lab" class="primary" {onclick}>{ TrainPageText::TrainOpenLab.t(lang) }</button>
            }
            if matches!(*module, Module::Loading) {
                <p class="note" role="status">{ TrainPageText::TrainLoading.t(lang) }</p>
            }
            if matches!(*module, Module::Failed) {
                <p role="alert">{ TrainPageText::TrainFailed.t(lang) }
                    { " " }<button data-control="retry-lab" onclick={retry}>{ PageText::TryAgain.t(lang) }</button></p>
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
