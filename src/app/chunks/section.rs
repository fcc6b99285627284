//! A lab whose code is a chunk of its own (the training lab, the tokens
//! lab): its section on the page, its title and "Open the lab", then the lab
//! mounted from its chunk. While the chunk and the lab's words load the
//! section carries `data-labs="loading"`, and `data-labs="failed"` with a
//! message and "Try again" if they cannot (docs/format.md §3).

use super::{tokens_bridge, train_bridge, ChunkFailed, SetLang};
use crate::app::i18n::{load_words, ChunkWords, Lang, PageText, TrainPageText};
use crate::app::state::{Action, Source};
use crate::attention::Scenario;
use std::rc::Rc;
use yew::prelude::*;

/// Which lab a [`ChunkSection`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunked {
    Train,
    Tokens,
}

impl Chunked {
    /// Its `data-lab` and `view=` name.
    fn name(self) -> &'static str {
        match self {
            Chunked::Train => "train",
            Chunked::Tokens => "tokens",
        }
    }

    /// The words it shows beyond the page's, fetched before it mounts.
    fn chunk_words(self) -> ChunkWords {
        match self {
            Chunked::Train => ChunkWords::Labs,
            Chunked::Tokens => ChunkWords::Tokens,
        }
    }

    /// Its title, "Open …", "Loading …" and "could not be loaded".
    fn words(self) -> [TrainPageText; 4] {
        use TrainPageText as T;
        match self {
            Chunked::Train => [
                T::TrainTitle,
                T::TrainOpenLab,
                T::TrainLoading,
                T::TrainFailed,
            ],
            Chunked::Tokens => [
                T::TokensTitle,
                T::TokensOpenLab,
                T::TokensLoading,
                T::TokensFailed,
            ],
        }
    }
}

/// Where a section's chunk is.
#[derive(Clone)]
enum Module {
    Closed,
    Loading,
    Ready(SetLang),
    Failed,
}

#[derive(Properties, PartialEq)]
pub struct ChunkSectionProps {
    pub lab: Chunked,
    pub lang: Lang,
    /// Open at once (`?view=NAME`).
    pub now: bool,
    /// The page's dispatch for "Open in the workbench"; `None` where there
    /// is no workbench to open in (an embedded or locked page).
    #[prop_or_default]
    pub on_action: Option<Callback<Action>>,
}

/// The section of a lab in a chunk of its own.
#[component]
pub fn ChunkSection(p: &ChunkSectionProps) -> Html {
    let module = use_state(|| Module::Closed);
    let section = use_node_ref();
    let host = use_node_ref();
    let (lang, which) = (p.lang, p.lab);
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
            // The lab's words are asked for at once, so they come while
            // the chunk does.
            let words = load_words(which.chunk_words(), lang);
            wasm_bindgen_futures::spawn_local(async move {
                if !words.await {
                    module.set(Module::Failed);
                    return;
                }
                let mounted = match which {
                    Chunked::Train => train_bridge::mount(el, lab, lang, on_open).await,
                    Chunked::Tokens => tokens_bridge::mount(el, lab, lang).await,
                };
                match mounted {
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
    let [title, open_lab, loading, failed] = which.words();
    let name = which.name();
    let title_id = format!("lab-{name}-title");
    html! {
        <section class={classes!("lab", name)} data-lab={name} data-labs={state} aria-labelledby={title_id.clone()} ref={section}>
            <h2 id={title_id}>{ title.t(lang) }</h2>
            if matches!(*module, Module::Closed) {
                <button data-control="open-lab" class="primary" {onclick}>{ open_lab.t(lang) }</button>
            }
            if matches!(*module, Module::Loading) {
                <p class="note" role="status">{ loading.t(lang) }</p>
            }
            if matches!(*module, Module::Failed) {
                <p role="alert">{ failed.t(lang) }
                    { " " }<button data-control="retry-lab" onclick={retry}>{ PageText::TryAgain.t(lang) }</button></p>
            }
            <div class={format!("{name}-mount")} ref={host}></div>
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
