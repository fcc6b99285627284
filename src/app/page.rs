//! The whole page: toolbar, the scenario's shape and options, inputs, every
//! head, the combination of heads, the output, and the derivation of the
//! selected cell.

use super::chunks::{lab_view, use_labs, Labs, Mount, TrainSection};
use super::controls::{controls, ControlsProps};
use super::derivation::{derivation_panel, DerivationProps};
use super::effects;
use super::heads::HeadsPanel;
use super::i18n::fill;
use super::i18n::{refusal_text, rounded_note, CommonText, Lang, PageText};
use super::induction::VotePanel;
use super::layers::{add_layer_button, LayerSection, LayerView};
use super::matrix::look::{formula_once, Look, BIG_FORMULA};
use super::matrix::{index_labels, view, Role};
use super::persist::{Persistence, SaveStep};
use super::stage::Walkthrough;
use super::state::{Action, Alert, Notice, Source, State};
use super::toolbar::{preset_about, preset_name, Toolbar};
use crate::attention::{Mask, Positional, Scenario, Trace};
use crate::lesson::edit::{Edit, Target};
use crate::lesson::formulas::layer_output_formula;
use crate::lesson::names::{Convention, MatrixName};
use crate::lesson::presets::Preset;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Scenarios with more positions than this open with intermediates collapsed
/// (as do those with a dimension long enough to be windowed).
const COLLAPSE_ABOVE_N: usize = 16;

fn mask_text(mask: &Mask, lang: Lang) -> String {
    match mask {
        Mask::None => PageText::MaskNone.t(lang).to_string(),
        Mask::Causal => PageText::MaskCausal.t(lang).to_string(),
        Mask::Padding(l) => format!("{} (L = {l})", PageText::MaskPadding.t(lang)),
        Mask::Window(w) => format!("{} (W = {w})", PageText::MaskWindow.t(lang)),
        Mask::Custom(_) => PageText::MaskCustom.t(lang).to_string(),
    }
}

/// What a preset shows; the induction preset's layer numbers are filled in.
fn about_text(p: Preset, lang: Lang) -> String {
    fill(preset_about(p).t(lang), &["1", "2"])
}

fn summary(s: &Scenario, lang: Lang) -> String {
    let scale = if s.scale {
        PageText::ScaleOn
    } else {
        PageText::ScaleOff
    };
    let positional = match s.positional {
        Positional::None => PageText::PositionalNone,
        Positional::Sinusoidal => PageText::PositionalSin,
        Positional::OneHot => PageText::PositionalOneHot,
    };
    format!(
        "n = {}, d_model = {}, d_k = {}, d_v = {}, h = {} · {} · {}: {} · {}: {}",
        s.n(),
        s.d_model(),
        s.d_k(),
        s.d_v(),
        s.heads.len(),
        scale.t(lang),
        PageText::MaskLabel.t(lang),
        mask_text(&s.mask, lang),
        PageText::PositionalLabel.t(lang),
        positional.t(lang)
    ) + &if s.layers() > 1 {
        format!(
            " · {}",
            fill(
                PageText::LayersCount.t(lang),
                &[&s.layers().to_string(), "1"]
            )
        )
    } else {
        String::new()
    }
}

/// An embedded figure's caption line (`caption=1`): the scenario's name
/// when it is a preset, its sizes, scaling and mask; for note 004, how the
/// note's rounded weights compare with the exact ones (the engine's numbers).
fn caption_line(preset: Option<Preset>, s: &Scenario, t: &Trace, lang: Lang) -> Html {
    let scale = if s.scale {
        PageText::CaptionScaled
    } else {
        PageText::CaptionNotScaled
    };
    let mut line = format!(
        "n = {}, d_model = {}, h = {} · {} · {}{}{}",
        s.n(),
        s.d_model(),
        s.heads.len(),
        scale.t(lang),
        PageText::MaskLabel.t(lang),
        CommonText::Colon.t(lang),
        mask_text(&s.mask, lang)
    );
    let positional = match s.positional {
        Positional::None => None,
        Positional::Sinusoidal => Some(PageText::PositionalSin),
        Positional::OneHot => Some(PageText::PositionalOneHot),
    };
    if let Some(p) = positional {
        line.push_str(&format!(
            " · {}{}{}",
            PageText::PositionalLabel.t(lang),
            CommonText::Colon.t(lang),
            p.t(lang)
        ));
    }
    let note = (preset == Some(Preset::Notes004))
        .then(|| rounded_note(t, lang))
        .flatten();
    html! {
        <p class="embed-caption" data-caption="">
            if let Some(p) = preset {
                <strong>{ preset_name(p).t(lang) }</strong>{ CommonText::Colon.t(lang) }
            }
            { line }
            if let Some(note) = note {
                <span class="caption-note">{ note }</span>
            }
        </p>
    }
}

fn alert_view(state: &State, on_dismiss: Callback<MouseEvent>) -> Html {
    let lang = state.lang;
    let mut messages = Vec::new();
    match &state.alert {
        Some(Alert::BadLink(e)) => {
            messages.push(format!("{} {}", PageText::BadLink.t(lang), e.message(lang)))
        }
        Some(Alert::Refused(source, e)) => {
            let prefix = match source {
                Source::Import => PageText::RefusedImport,
                Source::Link => PageText::BadLink,
                Source::Edit => PageText::RefusedEdit,
            };
            messages.push(format!("{} {}", prefix.t(lang), refusal_text(e, lang)));
        }
        Some(Alert::LangUnavailable) => {
            messages.push(PageText::LangUnavailable.t(lang).to_string())
        }
        None => {}
    }
    if !state.trace().undefined_rows.is_empty() {
        let rows: Vec<String> = state
            .trace()
            .undefined_rows
            .iter()
            .map(|r| format!("{} ({})", r + 1, state.trace().tokens[*r]))
            .collect();
        messages.push(format!(
            "{} {}",
            PageText::UndefinedRowsAlert.t(lang),
            rows.join(", ")
        ));
    }
    if messages.is_empty() {
        return html! {};
    }
    html! {
        <div class="alert" role="alert">
            { for messages.into_iter().map(|m| html! { <p>{ m }</p> }) }
            if state.alert.is_some() {
                <button onclick={on_dismiss}>{ PageText::Dismiss.t(lang) }</button>
            }
        </div>
    }
}

/// Quiet notes (`role="status"`): another tab's newer work is shown; the
/// reader's previous work is kept, with the button that brings it back;
/// storage does not keep work.
fn notice_view(state: &State, on_restore: Callback<MouseEvent>) -> Html {
    let lang = state.lang;
    // Not offered while it is on screen (after Undo went back to it).
    let previous = state
        .previous
        .as_ref()
        .is_some_and(|p| **p != *state.scenario);
    if state.notice.is_none() && !previous && !state.storage_failed {
        return html! {};
    }
    html! {
        <div class="notice" role="status">
            if state.notice == Some(Notice::OtherTab) {
                <p>{ PageText::OtherTab.t(lang) }</p>
            }
            if previous {
                <p>
                    { PageText::PreviousKept.t(lang) }{ " " }
                    <button id="back-to-previous" onclick={on_restore}>{ PageText::BackToPrevious.t(lang) }</button>
                </p>
            }
            if state.storage_failed {
                <p class="storage-failed">{ PageText::StorageFailed.t(lang) }</p>
            }
        </div>
    }
}

/// Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, unless the user is in the middle of
/// typing in a text field (then the browser's own text undo applies).
fn history_key(e: &web_sys::KeyboardEvent) -> Option<Action> {
    if !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
        return None;
    }
    let action = match e.key().to_ascii_lowercase().as_str() {
        "z" if e.shift_key() => Action::Redo,
        "z" => Action::Undo,
        "y" => Action::Redo,
        _ => return None,
    };
    let typing = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|input| {
            // A matrix cell whose text is still its committed value is not
            // "typing"; anything else is.
            let committed = input
                .closest("[data-value]")
                .ok()
                .flatten()
                .and_then(|td| td.get_attribute("data-value"));
            let same = committed.is_some_and(|v| {
                crate::lesson::parse::parse_number(&input.value())
                    .ok()
                    .map(f64::to_bits)
                    == crate::attention::json::decimal(&v).map(f64::to_bits)
            });
            input.type_() != "file" && !same
        });
    (!typing).then_some(action)
}

/// Does what the persistence machine says, in order: the previous work,
/// then the scenario (not written over work that could not be kept), then
/// the link out of the address.
fn perform(steps: &[SaveStep], latest: &Latest, d: &UseReducerDispatcher<State>) {
    let (s, previous) = &*latest.borrow();
    let mut kept = true;
    for step in steps {
        match step {
            SaveStep::WritePrevious => {
                if effects::store_previous(previous.as_deref()).is_err() {
                    d.dispatch(Action::StorageFailed);
                    kept = false;
                }
            }
            SaveStep::WriteScenario if kept => match effects::store_scenario(s) {
                Ok(()) => {}
                Err(effects::SaveError::Unavailable) => d.dispatch(Action::StorageFailed),
                // Another tab saved newer work unseen: show it, keep ours
                // as the previous work (written by the next write).
                Err(effects::SaveError::Newer(theirs)) => d.dispatch(Action::Foreign(*theirs)),
            },
            SaveStep::WriteScenario => {}
            SaveStep::ClearLink => effects::clear_share_fragment(),
        }
    }
}

/// The longest a write of the reader's work waits for the frame after
/// the edit (ms).
const SAVE_LATEST_MS: u32 = 200;

/// The scenario and previous work the next write writes.
type Latest = std::rc::Rc<std::cell::RefCell<(Rc<Scenario>, Option<Rc<Scenario>>)>>;

#[component]
pub fn App() -> Html {
    // How the page is shown (`?embed`, `?view`, `?lock`, `?caption`): read
    // once, fixed for the visit.
    let mode = use_memo((), |_| effects::display_mode());
    let (embed, locked, figure, guest) = (mode.embed, mode.locked, mode.view, mode.guest());
    let state = use_reducer(|| {
        let link = effects::link_in_address();
        State::start(
            effects::initial_lang(!guest),
            effects::query("convention")
                .and_then(|c| Convention::parse(&c))
                .unwrap_or_default(),
            link,
            (!guest).then(effects::stored_scenario).flatten(),
            (!guest).then(effects::stored_previous).flatten(),
        )
    });
    let lang = state.lang;
    let dispatcher = state.dispatcher();
    // The page's language and title before the first render is laid out
    // (the effect below keeps them current): set later, the new `lang` on
    // the root would restyle the whole page a second time.
    use_state(|| effects::apply_lang(lang, PageText::Title.t(lang)));
    // A figure without the stage (a lab, the heatmaps) ends the
    // pre-rendered first screen as soon as it is drawn (the stage ends it
    // itself, once it has its width).
    use_effect_with((), |_| {
        let stage = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("#app [data-figure=stage]").ok().flatten());
        if stage.is_none() {
            effects::end_prerender();
        }
    });
    use_effect_with(embed, |embed| {
        let observer = embed.then(effects::post_height_on_resize).flatten();
        move || drop(observer)
    });

    use_effect_with((lang, guest), |(lang, guest)| {
        if !guest {
            effects::remember_lang(*lang);
        }
        effects::apply_lang(*lang, PageText::Title.t(*lang));
    });
    use_effect_with(state.convention, |c| {
        if *c == Convention::Col || effects::query("convention").is_some() {
            effects::set_query("convention", c.code());
        }
    });
    // Never lose work: every change made here is saved and comes back on
    // reload (not from a guest page, which must not overwrite it). Work a
    // link replaces is kept first, under its own key; if that cannot be
    // written, the link's scenario is not saved over it. Merely opening
    // the page (or a broken link) writes nothing.
    // Writing happens in a task of its own after the frame that shows the
    // edit (an encoded 64 × 64 scenario is a few ms, four such layers
    // over 10 ms: run at once after the edit, it would hold up the next
    // frame), or after `SAVE_LATEST_MS` at the latest (a hidden page draws
    // no frames), or at once when the page is left (`pagehide`) with a
    // write still waiting. Whichever comes first writes; the others find
    // nothing waiting.
    // The order of writes is `persist::Persistence`'s; this runs it.
    let persist = use_mut_ref(Persistence::default);
    let latest: Latest = use_mut_ref(|| (state.scenario.clone(), state.previous.clone()));
    let save_timer = use_mut_ref(|| {
        None::<(
            gloo::render::AnimationFrame,
            gloo::timers::callback::Timeout,
        )>
    });
    {
        let d = dispatcher.clone();
        let (s, previous) = (state.scenario.clone(), state.previous.clone());
        let (persist, latest, timer) = (persist.clone(), latest.clone(), save_timer.clone());
        // The counters change whenever what they count does: comparing them
        // is cheaper than comparing scenarios on every render.
        use_effect_with((state.saves, state.previous_saves), move |&counters| {
            if guest {
                return;
            }
            *latest.borrow_mut() = (s, previous);
            if persist.borrow_mut().changed(counters) {
                let write = Rc::new(move || {
                    let steps = persist.borrow_mut().flush();
                    perform(&steps, &latest, &d);
                });
                let late = write.clone();
                *timer.borrow_mut() = Some((
                    effects::after_paint(move || write()),
                    gloo::timers::callback::Timeout::new(SAVE_LATEST_MS, move || late()),
                ));
            }
        });
    }

    // A pasted share link in the same tab changes only the hash; keyboard
    // undo/redo works anywhere on the page. Once opened, a link leaves the
    // address (outside an embedded figure), so a reload keeps the edits.
    //
    // A link leaves the address only once its scenario is written, so a
    // reload at any moment finds one or the other: on opening, after the
    // first render's save is set up; when pasted, after the render that
    // loads it (the flag), not in the `hashchange` handler itself, since
    // Yew may yield before that render's effects and a reload in between
    // would find neither.
    {
        let (persist, latest, d) = (persist.clone(), latest.clone(), dispatcher.clone());
        use_effect(move || {
            let steps = persist.borrow_mut().rendered();
            perform(&steps, &latest, &d);
        });
    }
    {
        let dispatcher = dispatcher.clone();
        let (persist, latest) = (persist.clone(), latest.clone());
        use_effect_with((), move |_| {
            if !guest {
                let steps = persist.borrow_mut().opened_link();
                perform(&steps, &latest, &dispatcher);
            }
            let listeners = web_sys::window().map(|w| {
                let d = dispatcher.clone();
                let pasted = persist.clone();
                let hash = gloo::events::EventListener::new(&w, "hashchange", move |_| {
                    match effects::link_in_address() {
                        Some(Ok(s)) => {
                            d.dispatch(Action::Load(s, Source::Link));
                            if !guest {
                                pasted.borrow_mut().pasted_link();
                            }
                        }
                        Some(Err(e)) => {
                            d.dispatch(Action::BadLink(e));
                            if !guest {
                                effects::clear_share_fragment();
                            }
                        }
                        None => {}
                    }
                });
                let d = dispatcher.clone();
                let keys = gloo::events::EventListener::new_with_options(
                    &w,
                    "keydown",
                    gloo::events::EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        if let Some(action) =
                            e.dyn_ref::<web_sys::KeyboardEvent>().and_then(history_key)
                        {
                            e.prevent_default();
                            d.dispatch(action);
                        }
                    },
                );
                // Leaving the page: the write still waiting is done now.
                let (p, l, d) = (persist.clone(), latest.clone(), dispatcher.clone());
                let leave = gloo::events::EventListener::new(&w, "pagehide", move |_| {
                    let steps = p.borrow_mut().flush();
                    perform(&steps, &l, &d);
                });
                // Another tab's newer work: shown here, ours kept.
                let d = dispatcher.clone();
                let tabs = (!guest)
                    .then(|| effects::on_other_tab_save(move |s| d.dispatch(Action::Foreign(s))))
                    .flatten();
                (hash, keys, tabs, leave)
            });
            move || drop(listeners)
        });
    }

    // The labs (below the workbench, a chunk of their own: see
    // labs_bridge) are loaded after the first paint of the full page, so
    // that the stage and the matrices show sooner; they follow the scenario
    // a task after it changes, so that an edit's frame is not held up by
    // figures out of sight. A lab embedded alone is the figure: it is
    // loaded at once.
    let labs_now = embed;
    let later = use_state(|| labs_now);
    {
        let later = later.clone();
        use_effect_with((), move |_| {
            let frame = (!*later).then(|| effects::after_paint(move || later.set(true)));
            move || drop(frame)
        });
    }

    let on_action = {
        let d = dispatcher.clone();
        use_callback((), move |a: Action, _| d.dispatch(a))
    };
    let train_action = (!embed && !locked).then(|| on_action.clone());
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
    let dismiss = {
        let d = dispatcher.clone();
        Callback::from(move |_| d.dispatch(Action::DismissAlert))
    };
    let restore = {
        let d = dispatcher.clone();
        Callback::from(move |_| d.dispatch(Action::RestorePrevious))
    };
    let close_derivation = {
        let d = dispatcher.clone();
        Callback::from(move |_| d.dispatch(Action::Select(None)))
    };

    let labs_on = *later && (!embed || lab_view(figure).is_some());
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
    let transpose = conv == Convention::Col;
    let tokens = Rc::new(t.tokens.clone());
    let undefined = Rc::new(t.undefined_rows.clone());
    let collapsed = s.n() > COLLAPSE_ABOVE_N
        || [s.d_model(), s.d_k(), s.d_v()]
            .iter()
            .any(|&d| d > crate::lesson::window::FULL);
    let d_model = s.d_model();
    let has_w_o = s.w_o.is_some();
    // Layers stack (or the one layer adds its input back): each layer gets
    // its own section, and its matrices their `data-layer`.
    let stacked = s.layers() > 1 || s.residual;
    // Props of a matrix of this page, in the current convention.
    let look = Look {
        conv,
        scale: s.scale,
        has_w_o,
        lang,
    };
    let selected_in = |name: MatrixName| {
        state
            .selected
            .filter(|sel| sel.name == name)
            .map(|sel| (sel.row, sel.col))
    };

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
            { alert_view(&state, dismiss) }
            if !guest {
                { notice_view(&state, restore) }
            }
            // The figure first (a picture, not a form); controls after it.
            if !embed || figure == effects::View::Walkthrough {
                <Walkthrough scenario={s.clone()} stack={state.stack.clone()} stacked={stacked} convention={conv} lang={lang} />
            }
            if !embed {
            <Toolbar scenario={s.clone()} stack={state.stack.clone()} preset={state.preset} seed={state.seed}
                can_undo={!state.undo.is_empty()} can_redo={!state.redo.is_empty()} convention={conv}
                locked={locked} lang={lang} on_action={on_action} />
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
            if !embed || figure == effects::View::Heatmaps {
                <HeadsPanel scenario={s.clone()} trace={t.clone()} stack={state.stack.clone()} transpose={transpose} collapsed={collapsed} standalone={embed} lang={lang} />
            }
            if !embed || figure == effects::View::Workbench {
            <div class="workbench">
                <div class="matrices">
                    <section class="step inputs">
                        <h2>{ PageText::InputsHeading.t(lang) }</h2>
                        <div class="row-of-matrices">
                            { view({
                                let cap = if transpose { PageText::CapXCol } else { PageText::CapX };
                                let mut p = look.props(MatrixName::X, &s.x, cap.t(lang).into(), Role::Input, tokens.clone(), index_labels(d_model));
                                p.target = Some(Target::X);
                                p.on_edit = (!locked).then(|| on_edit.clone());
                                p.tokens_editable = true;
                                p
                            }) }
                            if let (Positional::Sinusoidal, Some(pe)) = (t.positional, &t.pe) {
                                { view(look.props(MatrixName::Pe, pe, PageText::CapPe.t(lang).into(), Role::Input, tokens.clone(), index_labels(d_model))) }
                            }
                            if t.positional == Positional::OneHot {
                                { view({
                                    let cap = if transpose { PageText::CapInputOneHotCol } else { PageText::CapInputOneHot };
                                    // Columns 1…d_model, then e¹…eⁿ.
                                    let cols = (1..=d_model).map(|c| c.to_string())
                                        .chain((1..=s.n()).map(|p| format!("e{}", crate::lesson::timeline::sup(p))))
                                        .collect();
                                    look.props(MatrixName::Input, &t.input, cap.t(lang).into(), Role::Input, tokens.clone(), Rc::new(cols))
                                }) }
                            }
                        </div>
                        if collapsed {
                            <p class="note">{ PageText::CollapsedNote.t(lang) }</p>
                        }
                    </section>
                    if stacked && !locked {
                        <p class="note layers-intro">{ PageText::LayersIntro.t(lang) }</p>
                    }
                    // Each layer's section follows an edit a frame later
                    // while it is off screen (layers::LayerSection).
                    { for (0..s.layers()).map(|l| html! {
                        <LayerSection view={LayerView {
                            scenario: super::Shared(s.clone()), stack: super::Shared(state.stack.clone()), l, convention: conv, lang,
                            collapsed, locked, selected: state.selected,
                        }} on_edit={on_edit.clone()} on_select={on_select.clone()} />
                    }) }
                    if stacked && !locked {
                        { add_layer_button(s, &on_edit, lang) }
                    }
                    <section class="step outputs">
                        <h2>{ PageText::OutputHeading.t(lang) }</h2>
                        <div class="row-of-matrices">
                            { view({
                                let out = state.stack.output();
                                let cap = if stacked { PageText::CapFinalOutput.t(lang).to_string() } else if has_w_o { PageText::CapOutput.t(lang).to_string() } else { format!("{} {}", PageText::CapOutput.t(lang), PageText::CapOutputNoWo.t(lang)) };
                                let mut p = look.props(MatrixName::Output, out, cap.into(), Role::Output, tokens.clone(), index_labels(out.ncols()));
                                p.undefined_rows = undefined.clone();
                                if stacked {
                                    p.formula = layer_output_formula(s.layers(), s.layers() == 1 && s.residual, true).into();
                                } else {
                                    // A cell's derivation follows the one layer.
                                    p.on_select = Some(on_select.clone());
                                    p.selected = selected_in(MatrixName::Output);
                                }
                                p
                            }) }
                        </div>
                        if !stacked && !locked {
                            { add_layer_button(s, &on_edit, lang) }
                        }
                    </section>
                </div>
                { derivation_panel(&DerivationProps { scenario: s.clone(), trace: t.clone(),
                    // Derivations follow layer 1; with layers stacked the
                    // output is the last layer's, which has none.
                    selected: state.selected.filter(|sel| !stacked || sel.name != MatrixName::Output),
                    convention: conv, lang, on_close: close_derivation }) }
            </div>
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
            // The training lab: its own chunk, loaded when opened (train_bridge).
            if !embed || figure == effects::View::Train {
                <TrainSection lang={lang} now={figure == effects::View::Train}
                    on_action={train_action} />
            }
            if embed {
                <p class="embed-credit">
                    <a href={effects::full_page_url()} target="_blank" rel="noopener">{ PageText::OpenFullPage.t(lang) }</a>
                </p>
            } else {
                <footer>{ PageText::Footer.t(lang) }</footer>
            }
        </main>
    }
}
