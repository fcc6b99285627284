//! The toolbar: presets (with the random seed), undo/redo, the row/column
//! convention, and moving work in and out: export and import a scenario,
//! export results, copy a share link, copy NumPy or PyTorch code.

use crate::app::i18n::{Lang, PageText};
use crate::app::state::Layers;
use crate::app::state::{Action, Refusal, Source};
use crate::app::url::{share_fragment, MAX_LINK_CHARS};
use crate::app::views::VIEWS;
use crate::app::web;
use crate::attention::{Results, Scenario};
use crate::lesson::names::Convention;
use crate::lesson::presets::Preset;
use crate::lesson::snippets::{numpy_snippet, pytorch_snippet};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    pub scenario: crate::app::Shared<Scenario>,
    /// Every layer: the results export writes them all.
    pub stack: crate::app::Shared<Layers>,
    pub preset: Option<Preset>,
    pub seed: u64,
    pub can_undo: bool,
    pub can_redo: bool,
    pub convention: Convention,
    /// `?lock=1`: only what reads the numbers (share, exports, code, embed).
    pub locked: bool,
    pub lang: Lang,
    pub on_action: Callback<Action>,
}

pub fn preset_name(p: Preset) -> PageText {
    match p {
        Preset::Notes004 => PageText::PresetNotes004,
        Preset::ISawASaw => PageText::PresetISawASaw,
        Preset::ILoveYou => PageText::PresetILoveYou,
        Preset::YouLoveMe => PageText::PresetYouLoveMe,
        Preset::Uniform => PageText::PresetUniform,
        Preset::SelfAttend => PageText::PresetSelf,
        Preset::PreviousToken => PageText::PresetPrevious,
        Preset::TwoHeads => PageText::PresetTwoHeads,
        Preset::Induction => PageText::PresetInduction,
        Preset::Random(_) => PageText::PresetRandom,
        Preset::Wide(_) => PageText::PresetWide,
    }
}

/// What the preset shows, in a sentence.
pub fn preset_about(p: Preset) -> PageText {
    match p {
        Preset::Notes004 => PageText::AboutNotes004,
        Preset::ISawASaw => PageText::AboutISawASaw,
        Preset::ILoveYou | Preset::YouLoveMe => PageText::AboutILoveYou,
        Preset::Uniform => PageText::AboutUniform,
        Preset::SelfAttend => PageText::AboutSelf,
        Preset::PreviousToken => PageText::AboutPrevious,
        Preset::TwoHeads => PageText::AboutTwoHeads,
        Preset::Induction => PageText::AboutInduction,
        Preset::Random(_) => PageText::AboutRandom,
        Preset::Wide(_) => PageText::AboutWide,
    }
}

/// The outcome of the last copy, shown in a polite live region.
#[derive(Clone, PartialEq)]
enum CopyStatus {
    Idle,
    Copied,
    Failed(String),
    /// The share link would be longer than a link may be (a 512-wide scenario).
    TooLong,
}

#[component]
pub fn Toolbar(p: &ToolbarProps) -> Html {
    let lang = p.lang;
    let status = use_state(|| CopyStatus::Idle);
    let act = |a: Action| {
        let on_action = p.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(a.clone()))
    };

    let on_preset = {
        let (on_action, seed) = (p.on_action.clone(), p.seed);
        Callback::from(move |e: Event| {
            let id = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
                .map(|s| s.value())
                .unwrap_or_default();
            if let Some(preset) = Preset::from_id(&id, seed) {
                on_action.emit(Action::LoadPreset(preset));
            }
        })
    };
    let seeded = p.preset.filter(|pr| pr.seed().is_some());
    let seed_field = crate::app::hooks::use_input_value(
        seeded
            .and_then(Preset::seed)
            .map(|s| s.to_string().into())
            .unwrap_or_default(),
    );
    let on_seed = {
        let on_action = p.on_action.clone();
        Callback::from(move |e: Event| {
            if let Some(seed) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                .and_then(|i| i.value().trim().parse::<u64>().ok())
            {
                if let Some(pr) = seeded {
                    on_action.emit(Action::LoadPreset(pr.with_seed(seed)));
                }
            }
        })
    };
    let new_seed = {
        let on_action = p.on_action.clone();
        Callback::from(move |_: MouseEvent| {
            let seed = (js_sys::Math::random() * 1_000_000.0) as u64;
            if let Some(pr) = seeded {
                on_action.emit(Action::LoadPreset(pr.with_seed(seed)));
            }
        })
    };
    let convention = |c: Convention, label: PageText| {
        let on_action = p.on_action.clone();
        let checked = p.convention == c;
        html! {
            <label class="seg">
                <input type="radio" name="convention" value={c.code()} checked={checked}
                    onchange={Callback::from(move |_| on_action.emit(Action::SetConvention(c)))} />
                <span>{ label.t(lang) }</span>
            </label>
        }
    };

    let export_scenario = {
        let s = p.scenario.clone();
        Callback::from(move |_: MouseEvent| {
            web::download("attention-scenario.json", "application/json", &s.to_json());
        })
    };
    let export_results = {
        let t = p.stack.clone();
        Callback::from(move |_: MouseEvent| {
            web::download(
                "attention-results.json",
                "application/json",
                &Results::from_stack(&t.to_stack()).to_json(),
            );
        })
    };
    let on_import = {
        let on_action = p.on_action.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            else {
                return;
            };
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            let on_action = on_action.clone();
            let t0 = web::now_ms();
            wasm_bindgen_futures::spawn_local(async move {
                match web::read_file(file).await {
                    Ok(text) => match Scenario::from_json(&text) {
                        Ok(s) => on_action.emit(Action::Load(s, Source::Import)),
                        Err(err) => {
                            on_action.emit(Action::Refuse(Source::Import, Refusal::Scenario(err)))
                        }
                    },
                    Err(why) => {
                        web::mark_refusal(web::now_ms() - t0);
                        on_action.emit(Action::Refuse(Source::Import, Refusal::Load(why)))
                    }
                }
            });
        })
    };
    let copy = |make: Rc<dyn Fn() -> String>| {
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            let text = make();
            let status = status.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match web::copy_text(text.clone()).await {
                    Ok(()) => status.set(CopyStatus::Copied),
                    Err(()) => status.set(CopyStatus::Failed(text)),
                }
            });
        })
    };
    let share = {
        let (s, status) = (p.scenario.clone(), status.clone());
        let link = {
            let s = s.clone();
            copy(Rc::new(move || web::page_url_with(&share_fragment(&s))))
        };
        // A link the page itself would refuse is not offered.
        Callback::from(move |e: MouseEvent| {
            if share_fragment(&s).len() > MAX_LINK_CHARS + 3 {
                status.set(CopyStatus::TooLong);
            } else {
                link.emit(e);
            }
        })
    };
    let numpy = {
        let s = p.scenario.clone();
        copy(Rc::new(move || numpy_snippet(&s)))
    };
    let torch = {
        let s = p.scenario.clone();
        copy(Rc::new(move || pytorch_snippet(&s)))
    };
    let embed_view = use_state(|| VIEWS[0].name);
    let embed_caption = use_state(|| false);
    let embed = {
        let s = p.scenario.clone();
        let (view, caption) = (*embed_view, *embed_caption);
        copy(Rc::new(move || {
            web::embed_snippet(view, &share_fragment(&s), lang.code(), caption)
        }))
    };
    let on_embed_view = {
        let embed_view = embed_view.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|el| el.value())
                .unwrap_or_default();
            if let Some(row) = VIEWS.iter().find(|row| row.name == v) {
                embed_view.set(row.name);
            }
        })
    };
    let on_embed_caption = {
        let embed_caption = embed_caption.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                embed_caption.set(input.checked());
            }
        })
    };

    let current_id = p.preset.map(|pr| pr.id()).unwrap_or("");
    html! {
        <nav class="toolbar" aria-label={PageText::Toolbar.t(lang)}>
            <div class="tool-row">
                if !p.locked {
                <label class="field" for="preset">
                    <span>{ PageText::PresetLabel.t(lang) }</span>
                    <select id="preset" onchange={on_preset}>
                        if p.preset.is_none() {
                            <option value="" selected=true>{ "—" }</option>
                        }
                        { for Preset::MENU.iter().map(|pr| html! {
                            <option value={pr.id()} selected={pr.id() == current_id}>{ preset_name(*pr).t(lang) }</option>
                        }) }
                    </select>
                </label>
                if seeded.and_then(Preset::seed).is_some() {
                    <label class="field" for="seed">
                        <span>{ PageText::Seed.t(lang) }</span>
                        <input ref={seed_field} id="seed" type="number" min="0" step="1" onchange={on_seed} />
                    </label>
                    <button onclick={new_seed}>{ PageText::NewSeed.t(lang) }</button>
                }
                <span class="group">
                    <button id="undo" disabled={!p.can_undo} onclick={act(Action::Undo)} title="Ctrl+Z">{ PageText::Undo.t(lang) }</button>
                    <button id="redo" disabled={!p.can_redo} onclick={act(Action::Redo)} title="Ctrl+Shift+Z">{ PageText::Redo.t(lang) }</button>
                </span>
                }
                <fieldset class="segmented">
                    <legend>{ PageText::ConventionLabel.t(lang) }</legend>
                    { convention(Convention::Row, PageText::ConventionRow) }
                    { convention(Convention::Col, PageText::ConventionCol) }
                </fieldset>
            </div>
            <div class="tool-row">
                <button id="export-scenario" onclick={export_scenario}>{ PageText::ExportScenario.t(lang) }</button>
                if !p.locked {
                <label class="button" for="import-scenario">
                    { PageText::ImportScenario.t(lang) }
                    <input id="import-scenario" class="visually-hidden" type="file" accept=".json,application/json" onchange={on_import} />
                </label>
                }
                <button id="export-results" onclick={export_results}>{ PageText::ExportResults.t(lang) }</button>
                <button id="share" onclick={share}>{ PageText::ShareLink.t(lang) }</button>
                <button id="copy-numpy" onclick={numpy}>{ PageText::CopyNumpy.t(lang) }</button>
                <button id="copy-pytorch" onclick={torch}>{ PageText::CopyPytorch.t(lang) }</button>
                <span class="group">
                    <label class="visually-hidden" for="embed-view">{ PageText::EmbedView.t(lang) }</label>
                    <select id="embed-view" onchange={on_embed_view} title={PageText::EmbedView.t(lang)}>
                        { for VIEWS.iter().map(|row| html! {
                            <option value={row.name} selected={*embed_view == row.name}>{ row.title.t(lang) }</option>
                        }) }
                    </select>
                    <label class="check" for="embed-caption">
                        <input id="embed-caption" type="checkbox" checked={*embed_caption} onchange={on_embed_caption} />
                        { PageText::EmbedCaption.t(lang) }
                    </label>
                    <button id="copy-embed" onclick={embed}>{ PageText::CopyEmbed.t(lang) }</button>
                </span>
            </div>
            <div class="status" aria-live="polite">
                { match &*status {
                    CopyStatus::Idle => html! {},
                    CopyStatus::Copied => html! { <p>{ PageText::Copied.t(lang) }</p> },
                    CopyStatus::TooLong => html! { <p>{ PageText::LinkTooBig.t(lang) }</p> },
                    CopyStatus::Failed(text) => html! {
                        <>
                            <p>{ PageText::CopyFailed.t(lang) }</p>
                            <textarea readonly=true rows="4" value={text.clone()} />
                        </>
                    },
                } }
            </div>
        </nav>
    }
}
