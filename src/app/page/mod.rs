//! The whole page: the header, the stage, the toolbar, the scenario in
//! words, the heatmaps, the workbench, the labs and the training lab. The
//! page holds the one [`State`]; its browser effects are named hooks
//! ([`crate::app::hooks`]), and each part is a view of its own.
//!
//! [`toolbar`] (presets, undo, files, share, embed), [`summary`] (the
//! scenario in words), [`notices`] (alerts and quiet notes) and
//! [`history`] (the undo and redo keys) are the page's own parts.

mod history;
mod notices;
mod summary;
pub mod toolbar;

use super::chunks::{lab_view, use_labs, ChunkSection, Chunked, Labs, Mount};
use super::heads::HeadsPanel;
use super::heads::VotePanel;
use super::hooks::{
    use_after_first_paint, use_convention_in_address, use_height_for_host, use_keys,
    use_page_language, use_persistence,
};
use super::i18n::{rounded_note, CommonText, PageText};
use super::matrix::look::{formula_once, BIG_FORMULA};
use super::stage::Walkthrough;
use super::state::{Action, State};
use super::web::{self, View};
use super::workbench::controls::{controls, ControlsProps};
use super::workbench::{workbench, WorkbenchProps};
use crate::lesson::edit::Edit;
use crate::lesson::names::{Convention, MatrixName};
use crate::lesson::presets::Preset;
use notices::{alert_view, notice_view};
use summary::{about_text, caption_line, summary};
use toolbar::Toolbar;
use yew::prelude::*;

/// Scenarios with more positions than this open with intermediates collapsed
/// (as do those with a dimension long enough to be windowed).
const COLLAPSE_ABOVE_N: usize = 16;

/// The page's state as the address and the browser's storage open it.
fn opening_state(guest: bool) -> State {
    State::start(
        web::initial_lang(!guest),
        web::query("convention")
            .and_then(|c| Convention::parse(&c))
            .unwrap_or_default(),
        web::link_in_address(),
        (!guest).then(web::stored_scenario).flatten(),
        (!guest).then(web::stored_previous).flatten(),
    )
}

#[component]
pub fn App() -> Html {
    // How the page is shown (`?embed`, `?view`, `?lock`, `?caption`): read
    // once, fixed for the visit.
    let mode = use_memo((), |_| web::display_mode());
    let (embed, locked, figure, guest) = (mode.embed, mode.locked, mode.view, mode.guest());
    let state = use_reducer(|| opening_state(guest));
    let lang = state.lang;
    let dispatcher = state.dispatcher();
    use_page_language(lang, guest);
    use_convention_in_address(state.convention);
    use_height_for_host(embed);
    use_persistence(&state, guest);
    // Undo and redo from the keyboard, anywhere on the page.
    use_keys(|| {
        let d = dispatcher.clone();
        move |e| history::history_key(e).map(|a| d.dispatch(a)).is_some()
    });
    // A figure without the stage (a lab, the heatmaps) ends the
    // pre-rendered first screen as soon as it is drawn (the stage ends it
    // itself, once it has its width).
    use_effect_with((), |_| {
        let stage = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("#app [data-figure=stage]").ok().flatten());
        if stage.is_none() {
            web::end_prerender();
        }
    });
    // The labs (below the workbench, a chunk of their own: see
    // src/app/chunks) are loaded after the first paint of the full page,
    // so that the stage and the matrices show sooner; they follow the
    // scenario a task after it changes, so that an edit's frame is not
    // held up by figures out of sight. A lab embedded alone is the figure:
    // it is loaded at once.
    let later = use_after_first_paint(embed);

    let send = |make: fn() -> Action| {
        let d = dispatcher.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(make()))
    };
    let on_action = {
        let d = dispatcher.clone();
        use_callback((), move |a: Action, _| d.dispatch(a))
    };
    let on_edit = {
        let d = dispatcher.clone();
        use_callback((), move |e: Edit, _| d.dispatch(Action::Edit(e)))
    };
    let on_select = {
        let d = dispatcher.clone();
        use_callback((), move |sel, _| d.dispatch(Action::Select(Some(sel))))
    };
    let switch_lang = {
        let d = dispatcher.clone();
        Callback::from(move |_| {
            let (d, other) = (d.clone(), lang.other());
            // The browser's release build shows a language once its words
            // are here (src/app/i18n/load.rs).
            #[cfg(feature = "split")]
            wasm_bindgen_futures::spawn_local(async move {
                d.dispatch(if crate::app::i18n::load(other).await {
                    Action::SetLang(other)
                } else {
                    Action::LangUnavailable
                })
            });
            #[cfg(not(feature = "split"))]
            d.dispatch(Action::SetLang(other));
        })
    };

    let labs_on = later && (!embed || lab_view(figure).is_some());
    let labs_host = use_node_ref();
    let (labs, retry_labs) = use_labs(
        Mount {
            host: labs_host.clone(),
            on: labs_on,
            view: lab_view(figure).filter(|_| embed),
            on_edit: (!locked).then(|| on_edit.clone()),
        },
        state.scenario.clone(),
        state.trace().clone(),
        lang,
        state.convention,
    );

    let s = &state.scenario;
    let t = state.trace();
    let conv = state.convention;
    let collapsed = s.n() > COLLAPSE_ABOVE_N
        || [s.d_model(), s.d_k(), s.d_v()]
            .iter()
            .any(|&d| d > crate::lesson::window::FULL);
    // Layers stack (or the one layer adds its input back).
    let stacked = s.layers() > 1 || s.residual;
    let shows = |v: View| !embed || figure == v;

    html! {
        <main class={classes!("page", embed.then_some("embed"))} lang={lang.code()}>
            if embed {
                // Screen readers still get the page's name.
                <h1 class="visually-hidden">{ PageText::Title.t(lang) }</h1>
                if mode.caption && figure.shows_scenario() {
                    { caption_line(state.preset, s, t, lang) }
                }
            } else {
            <header class="top">
                <div>
                    <h1>{ PageText::Title.t(lang) }</h1>
                    <p class="tagline">{ PageText::Tagline.t(lang) }</p>
                </div>
                <button class="lang-switch" lang={lang.other().code()} onclick={switch_lang}>
                    { PageText::SwitchLang.t(lang) }
                </button>
            </header>
            }
            { alert_view(&state, send(|| Action::DismissAlert)) }
            if !guest {
                { notice_view(&state, send(|| Action::RestorePrevious)) }
            }
            // The figure first (a picture, not a form); controls after it.
            if shows(View::Walkthrough) {
                <Walkthrough scenario={s.clone()} stack={state.stack.clone()} stacked={stacked} convention={conv} lang={lang} />
            }
            if !embed {
            <Toolbar scenario={s.clone()} stack={state.stack.clone()} preset={state.preset} seed={state.seed}
                can_undo={!state.undo.is_empty()} can_redo={!state.redo.is_empty()} convention={conv}
                locked={locked} lang={lang} on_action={on_action.clone()} />
            <section class="summary" aria-label={PageText::ScenarioHeading.t(lang)}>
                <p class="dims">{ summary(s, lang) }</p>
                if let Some(p) = state.preset {
                    <p class="about">{ about_text(p, lang) }
                        if p == Preset::Notes004 {
                            { " " }{ rounded_note(t, lang).unwrap_or_default() }
                        }
                    </p>
                }
                <VotePanel scenario={s.clone()} stack={state.stack.clone()} lang={lang} />
                <div class="big-formula">
                    { Html::from_html_unchecked(AttrValue::from(formula_once(MatrixName::Output, conv, s.scale, BIG_FORMULA))) }
                </div>
            </section>
            if !locked {
                { controls(&ControlsProps { scenario: s.clone(), on_edit: on_edit.clone(), lang }) }
            }
            }
            if shows(View::Heatmaps) {
                <HeadsPanel scenario={s.clone()} trace={t.clone()} stack={state.stack.clone()} transpose={conv == Convention::Col} collapsed={collapsed} standalone={embed} lang={lang} />
            }
            if shows(View::Workbench) {
                { workbench(&WorkbenchProps {
                    scenario: s.clone(), stack: state.stack.clone(), trace: t.clone(), selected: state.selected,
                    convention: conv, lang, collapsed, locked, on_edit, on_select,
                    on_close: send(|| Action::Select(None)),
                }) }
            }
            // The labs' chunk renders the labs into this section (which
            // holds nothing else of the page's while the chunk loads).
            if labs_on {
                <section class="labs" aria-label={CommonText::LabsHeading.t(lang)} ref={labs_host}
                    data-labs={labs.attr()}>
                    if labs == Labs::Failed {
                        <p role="alert">{ PageText::LabsFailed.t(lang) }
                            { " " }<button data-control="retry-labs" onclick={retry_labs}>{ PageText::TryAgain.t(lang) }</button></p>
                    }
                </section>
            }
            // The tokens lab and the training lab: each its own chunk,
            // loaded when opened (src/app/chunks).
            if shows(View::Tokens) {
                <ChunkSection lab={Chunked::Tokens} lang={lang} now={figure == View::Tokens} />
            }
            if shows(View::Train) {
                <ChunkSection lab={Chunked::Train} lang={lang} now={figure == View::Train}
                    on_action={(!embed && !locked).then_some(on_action)} />
            }
            if embed {
                <p class="embed-credit">
                    <a href={web::full_page_url()} target="_blank" rel="noopener">{ PageText::OpenFullPage.t(lang) }</a>
                </p>
            } else {
                <footer>{ PageText::Footer.t(lang) }</footer>
            }
        </main>
    }
}
