//! The animated walkthrough (docs/figures.md F1, F2, F4, F5, F11): the stage.
//!
//! A compact picture in which the numbers move, drawn as SVG from the pure
//! layout of [`crate::lesson::stage`]: for the current step it shows only
//! the vectors involved, moving them from where the last step left them.
//! While playing, only this component re-renders, once per animation frame
//! (with `prefers-reduced-motion`, once per step, showing its end state).
//!
//! When paused, the workbench's matrices below also mark the step (one small
//! `<style>` element keyed on the page contract's `data-matrix`, `data-head`,
//! `data-row` and `data-col`), so a reader can find the same numbers there;
//! while playing nothing outside the stage changes.
//!
//! The clock is virtual: speed multiplies it, and the position is a pure
//! function of virtual time ([`Timeline::position`]).
//!
//! The parts: [`playback`] (the player's pure state machine), [`highlight`]
//! (the workbench's marks for a step), [`handover`] (the figure between two
//! layers) and [`draw`] (the stage's SVG).

mod draw;
mod handover;
mod highlight;
mod playback;

use super::effects::{self, now_ms as now};
use super::i18n::{caption_text, fill, CommonText, Lang, PageText};
use super::state::Layers;
use crate::attention::{Scenario, Trace};
use crate::lesson::captions;
use crate::lesson::formulas::{formula_with, FormulaOptions};
use crate::lesson::names::Convention;
use crate::lesson::stage::{self, Ctx, Geometry};
use crate::lesson::timeline::{Granularity, SPEEDS};
use draw::draw;
use handover::{handover_figure, handover_text};
use highlight::{highlight_css, result_matrix};
use playback::{Playback, PlayerAction};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

#[derive(Properties, PartialEq)]
pub struct WalkthroughProps {
    pub scenario: super::Shared<Scenario>,
    /// Every layer's trace: the stage walks layer 1, the hand-over, layer 2 …
    pub stack: super::Shared<Layers>,
    /// Layers stack (or the one layer adds its input back): the workbench's
    /// matrices carry `data-layer`, which the highlights follow.
    #[prop_or_default]
    pub stacked: bool,
    pub convention: Convention,
    pub lang: Lang,
}

/// The pending animation frame, dropped (cancelled) on teardown.
type FrameSlot = Rc<RefCell<Option<gloo::render::AnimationFrame>>>;

/// The stage's cell geometry and size. Measured again only when the trace,
/// convention, width or granularity change (not on every animation frame),
/// and the size only when [`stage::SizeKey`] says the shapes changed too.
struct Layout {
    /// The trace they were measured for (compared by pointer).
    trace: Rc<Trace>,
    /// Convention, width (bits) and granularity.
    at: (Convention, u64, Granularity),
    g: Geometry,
    key: stage::SizeKey,
    extent: (f64, f64),
}

fn granularity_label(g: Granularity) -> PageText {
    match g {
        Granularity::Matrix => PageText::GranMatrix,
        Granularity::Row => PageText::GranRow,
        Granularity::Dot => PageText::GranDot,
    }
}

/// The width the stage may draw in: the figure's inner width once it is on
/// the page, else the window's.
fn stage_width(node: &NodeRef) -> f64 {
    node.cast::<web_sys::Element>()
        .map(|e| f64::from(e.client_width()))
        .filter(|w| *w > 0.0)
        .or_else(|| {
            web_sys::window()
                .and_then(|w| w.inner_width().ok())
                .and_then(|w| w.as_f64())
                .map(|w| w.min(1200.0) - 40.0)
        })
        .unwrap_or(700.0)
}

#[component]
pub fn Walkthrough(p: &WalkthroughProps) -> Html {
    let lang = p.lang;
    let state = use_reducer(|| {
        let g = effects::query("granularity")
            .and_then(|g| Granularity::parse(&g))
            .unwrap_or(Granularity::Row);
        let speed = effects::query("speed")
            .and_then(|s| crate::attention::json::decimal(&s))
            .filter(|s| SPEEDS.contains(s))
            .unwrap_or(1.0);
        let step = effects::query("step")
            .and_then(|s| s.parse::<usize>().ok())
            .map_or(0, |s| s.saturating_sub(1));
        Playback::new(p.scenario.0.clone(), p.stack.0.clone(), g, step, speed)
    });
    // The stage's geometry and size, measured again only when needed.
    let layout = use_mut_ref(|| None::<Layout>);
    let moment_cache = use_mut_ref(|| None::<(MomentKey, Rc<Moment>)>);
    // An edit (playing or not) rebuilds the steps for the new trace and
    // keeps the moment. Keyed on the pointers: the state holds the old
    // trace, so a new one never reuses its address. The reducer gets it
    // after the frame that shows the edit: until then each render makes
    // the same rebuild itself (below), so the edit's frame shows the new
    // figure without rendering the stage twice.
    {
        let d = state.dispatcher();
        let (stack, scenario) = (p.stack.0.clone(), p.scenario.0.clone());
        let pending = use_mut_ref(|| None::<gloo::render::AnimationFrame>);
        use_effect_with(
            (
                Rc::as_ptr(&p.stack) as usize,
                Rc::as_ptr(&p.scenario) as usize,
            ),
            move |_| {
                *pending.borrow_mut() = Some(effects::after_paint(move || {
                    d.dispatch((now(), PlayerAction::Rebuild(stack, scenario)))
                }));
            },
        );
    }
    // The stage's width follows the figure (resizes, rotation, zoom).
    let body = use_node_ref();
    let width = use_state(|| 0.0f64);
    {
        let (body, width) = (body.clone(), width.clone());
        use_effect_with((), move |_| {
            let measure = {
                let (body, width) = (body.clone(), width.clone());
                move || {
                    let w = stage_width(&body).floor();
                    if w != *width {
                        width.set(w);
                    }
                }
            };
            measure();
            let listener = web_sys::window()
                .map(|w| gloo::events::EventListener::new(&w, "resize", move |_| measure()));
            move || drop(listener)
        });
    }
    // The first render with the measured width is the one that can replace
    // the pre-rendered first screen without moving anything.
    if *width > 0.0 {
        effects::end_prerender();
    }
    let reduce = use_memo((), |_| reduced_motion());
    let embedded = use_memo((), |_| effects::display_mode().embed);
    // A callback that sends `make()` to the player.
    let act = {
        let d = state.dispatcher();
        move |make: fn() -> PlayerAction| {
            let d = d.clone();
            Callback::from(move |_: ()| d.dispatch((now(), make())))
        }
    };
    let (step, playing, speed) = {
        let pl = &state.player;
        (state.at(), pl.clock.playing, pl.clock.speed)
    };

    // While playing: wake every frame and repaint the stage (with reduced
    // motion, only when the step changes).
    // (The loop ends when playing stops: this effect is cleaned up.)
    {
        let (d, reduce) = (state.dispatcher(), *reduce);
        use_effect_with(playing, move |playing| {
            let handle: FrameSlot = Rc::default();
            if *playing {
                fn frame(h: FrameSlot, tick: Rc<dyn Fn()>) {
                    let h2 = h.clone();
                    *h.borrow_mut() = Some(gloo::render::request_animation_frame(move |_| {
                        tick();
                        frame(h2, tick);
                    }));
                }
                frame(
                    handle.clone(),
                    Rc::new(move || d.dispatch((now(), PlayerAction::Tick { reduce }))),
                );
            }
            move || drop(handle.borrow_mut().take())
        });
    }

    // Space plays or pauses, arrows step, unless the user is typing.
    {
        let (on_toggle, on_back, on_fwd) = (
            act(|| PlayerAction::Toggle),
            act(|| PlayerAction::Back),
            act(|| PlayerAction::Forward),
        );
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo::events::EventListener::new_with_options(
                    &w,
                    "keydown",
                    gloo::events::EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                            return;
                        };
                        let typing = e
                            .target()
                            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                            .is_some_and(|el| {
                                matches!(
                                    el.tag_name().as_str(),
                                    "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON"
                                ) || el.closest("table").ok().flatten().is_some()
                            });
                        if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
                            return;
                        }
                        let cb = match e.key().as_str() {
                            " " => &on_toggle,
                            "ArrowRight" => &on_fwd,
                            "ArrowLeft" => &on_back,
                            _ => return,
                        };
                        e.prevent_default();
                        cb.emit(());
                    },
                )
            });
            move || drop(listener)
        });
    }

    // The step and speed live in the address, so a link reopens them (not
    // written while both are where a page opens: nothing to reopen, and no
    // history write on the way to the first paint).
    use_effect_with((step, speed), move |(step, speed)| {
        for (key, value) in [
            ("step", (step + 1).to_string()),
            ("speed", speed.to_string()),
        ] {
            if value != "1" || effects::query(key).is_some() {
                effects::set_query(key, &value);
            }
        }
    });

    let conv = p.convention;
    let t_now = now();
    // Until the effect above hands a new trace to the reducer (after the
    // frame), this render shows it already (the same rebuild the reducer
    // then makes): the figure follows an edit in the edit's own frame.
    let rebuilt;
    let pb: &Playback =
        if Rc::ptr_eq(&state.stack, &p.stack.0) && Rc::ptr_eq(&state.full, &p.scenario.0) {
            &state
        } else {
            rebuilt = Rc::new((*state).clone()).reduce((
                t_now,
                PlayerAction::Rebuild(p.stack.0.clone(), p.scenario.0.clone()),
            ));
            &rebuilt
        };
    let (trace, scenario, has_w_o) = (&pb.trace, &pb.scenario, pb.has_w_o);
    let mut cache = layout.borrow_mut();
    let width = if *width > 0.0 {
        *width
    } else {
        stage_width(&body)
    };
    let at = (conv, width.to_bits(), pb.player.granularity);
    let ctx_with = |g| Ctx {
        trace,
        scenario,
        conv,
        g,
    };
    let (g, extent) = match &*cache {
        Some(x) if x.at == at && Rc::ptr_eq(&x.trace, trace) => (x.g, x.extent),
        _ => {
            let g = Geometry::new(trace, width);
            let key = stage::size_key(ctx_with(g), &pb.player.timeline);
            let extent = match &*cache {
                Some(x) if x.key == key => x.extent,
                _ => stage::extent(ctx_with(g), &pb.player.timeline),
            };
            *cache = Some(Layout {
                trace: trace.clone(),
                at,
                g,
                key,
                extent,
            });
            (g, extent)
        }
    };
    drop(cache);
    let ctx = ctx_with(g);
    let player = &pb.player;
    let (n, step) = (pb.tour.total(), pb.at());
    let layers = pb.tour.steps.len();
    // With stacked layers every matrix of the workbench carries its layer.
    let layer_attr = p.stacked.then_some(pb.layer + 1);
    let current = player.current();
    // Paused at the very start of a step (after a jump), show the step done.
    let (k, progress) = player.timeline.position(player.clock.at(t_now));
    let progress = if !playing && progress == 0.0 {
        1.0
    } else {
        progress
    };
    // The picture, caption and formula of this moment, built once per
    // moment: the render after the reducer takes an edit's trace shows the
    // same moment, gets the same `Rc` back and `Prebuilt` skips the picture.
    let key = MomentKey {
        trace: super::Shared(trace.clone()),
        scenario: super::Shared(scenario.clone()),
        conv,
        lang,
        width: width.to_bits(),
        granularity: player.granularity,
        step: player.step,
        k,
        progress: progress.to_bits(),
        step_progress: player.progress().to_bits(),
        playing,
        reduce: *reduce,
    };
    let moment = {
        let mut last = moment_cache.borrow_mut();
        match &*last {
            Some((at, m)) if *at == key => m.clone(),
            _ => {
                let scene = stage::frame(ctx, &player.timeline, k, progress, *reduce);
                let mut caption = caption_text(
                    &captions::caption(&current, trace, conv, has_w_o),
                    &trace.tokens,
                    lang,
                );
                if layers > 1 {
                    // The caption says which layer.
                    let heading = super::layers::layer_heading(pb.layer + 1, lang);
                    caption = format!(
                        "{heading}{}{caption}",
                        if lang == Lang::Zh { "：" } else { ": " }
                    );
                }
                let highlights = current.highlights(trace, player.progress());
                let math = result_matrix(&highlights)
                    .map(|(m, _)| {
                        let per_head = trace.heads.len() > 1 || has_w_o;
                        formula_with(
                            m,
                            FormulaOptions {
                                conv,
                                scale: trace.scale,
                                has_w_o,
                                masked: trace.masked,
                                pe: trace.positional,
                                head: current.head.filter(|_| per_head),
                            },
                        )
                    })
                    .unwrap_or_default();
                let m = Rc::new(Moment {
                    picture: Rc::new(draw(&scene, &g, extent, &caption)),
                    caption,
                    math: AttrValue::from(math),
                    css: highlight_css(&highlights, layer_attr),
                });
                *last = Some((key, m.clone()));
                m
            }
        }
    };

    // `name` is the accessible name and tooltip (the label may be a symbol).
    let button = |id: Option<&'static str>,
                  label: String,
                  name: String,
                  pressed: Option<bool>,
                  onclick: Callback<()>| {
        html! {
            <button id={id} title={name.clone()} aria-label={name}
                aria-pressed={pressed.map(|b| b.to_string())} onclick={onclick.reform(|_| ())}>{ label }</button>
        }
    };
    let scrub = {
        let d = state.dispatcher();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .and_then(|i| i.value().parse::<usize>().ok())
            {
                d.dispatch((now(), PlayerAction::Go(v.saturating_sub(1))));
            }
        })
    };
    let on_granularity = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            if let Some(g) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| Granularity::parse(&s.value()))
            {
                effects::set_query("granularity", g.code());
                d.dispatch((now(), PlayerAction::Granularity(g)));
            }
        })
    };
    // Between two layers the hand-over's caption, formula and highlights.
    let (caption, math, css) = match pb.beat {
        Some(beat) => handover_text(pb, beat, lang),
        None => (
            moment.caption.clone(),
            moment.math.clone(),
            moment.css.clone(),
        ),
    };
    let play_label = if playing {
        format!("⏸ {}", CommonText::Pause.t(lang))
    } else {
        format!("▶ {}", CommonText::Play.t(lang))
    };
    // An embedded figure keeps within its frame: a shorter picture, which
    // scrolls inside itself when taller (two stacked layers' wide inputs).
    let max_h = if *embedded {
        STAGE_MAX_H_EMBED
    } else {
        STAGE_MAX_H
    };
    let scroll = extent.1 > max_h;
    html! {
        <section class={classes!("player", "stage", playing.then_some("playing"))} aria-label={PageText::WalkthroughHeading.t(lang)}
            data-figure="stage" data-step={(step + 1).to_string()} data-steps={n.to_string()}
            data-playing={playing.to_string()} data-speed={speed.to_string()}
            data-time={player.clock.at(t_now).round().to_string()}>
            <div class="player-bar">
                <h2>{ PageText::WalkthroughHeading.t(lang) }</h2>
                <span class="transport">
                    { button(Some("wt-restart"), "|◀".into(), PageText::Restart.t(lang).into(), None, act(|| PlayerAction::Go(0))) }
                    { button(Some("wt-back"), "◀".into(), PageText::StepBack.t(lang).into(), None, act(|| PlayerAction::Back)) }
                    { button(Some("wt-play"), play_label, PageText::PlayPauseKey.t(lang).into(), Some(playing), act(|| PlayerAction::Toggle)) }
                    { button(Some("wt-fwd"), "▶".into(), PageText::StepForward.t(lang).into(), None, act(|| PlayerAction::Forward)) }
                </span>
                <span class="speeds" role="group" aria-label={CommonText::SpeedLabel.t(lang)}>
                    { for SPEEDS.iter().map(|&s| button(
                        None, format!("{s}×"), format!("{} {s}×", CommonText::SpeedLabel.t(lang)), Some(speed == s),
                        { let d = state.dispatcher(); Callback::from(move |_: ()| d.dispatch((now(), PlayerAction::Speed(s)))) },
                    )) }
                </span>
                <label class="field inline" for="wt-granularity">
                    <span class="visually-hidden">{ PageText::GranularityLabel.t(lang) }</span>
                    <select id="wt-granularity" onchange={on_granularity} title={PageText::GranularityLabel.t(lang)}>
                        { for Granularity::ALL.iter().map(|g| html! {
                            <option value={g.code()} selected={*g == player.granularity}>{ granularity_label(*g).t(lang) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="scrub-row">
                <input id="wt-scrubber" class="scrubber" type="range" min="1" max={n.to_string()} value={(step + 1).to_string()}
                    aria-label={PageText::StepLabel.t(lang)} oninput={scrub} />
                <span class="counter">
                    if layers > 1 {
                        <span data-stage-layer={(pb.layer + 1).to_string()} data-handover={pb.beat.map(|_| (pb.layer + 1).to_string())}>
                            { match pb.beat {
                                Some(_) => fill(PageText::StageHandOver.t(lang), &[&(pb.layer + 1).to_string(), &(pb.layer + 2).to_string()]),
                                None => fill(PageText::StageLayerOf.t(lang), &[&(pb.layer + 1).to_string(), &layers.to_string()]),
                            } }{ " · " }
                        </span>
                    }
                    { format!("{} {} / {}", PageText::StepLabel.t(lang), step + 1, n) }
                </span>
            </div>
            <div class={classes!("stage-body", scroll.then_some("scrolls"))} ref={body}
                style={scroll.then(|| format!("max-height:{max_h}px"))}>
                if let Some(beat) = pb.beat {
                    { handover_figure(pb, beat, extent.1.min(max_h)) }
                } else {
                    <Prebuilt html={moment.picture.clone()} />
                }
            </div>
            <div class="player-caption" aria-live="polite">
                <p>{ super::rich::rich(&caption) }</p>
                <div class="step-formula">{ Html::from_html_unchecked(math) }</div>
            </div>
            if !playing {
                <style>{ css }</style>
            }
        </section>
    }
}

/// Everything a moment of the walkthrough is drawn from. The trace and
/// scenario are compared by pointer and held, so a later one can never
/// take a freed one's address and match a stale picture.
#[derive(PartialEq)]
struct MomentKey {
    trace: super::Shared<Trace>,
    scenario: super::Shared<Scenario>,
    conv: Convention,
    lang: Lang,
    width: u64,
    granularity: Granularity,
    step: usize,
    k: usize,
    progress: u64,
    step_progress: u64,
    playing: bool,
    reduce: bool,
}

/// A moment as shown: the picture, its caption, the step's formula and the
/// workbench highlights.
struct Moment {
    picture: Rc<Html>,
    caption: String,
    math: AttrValue,
    css: String,
}

#[derive(Properties, PartialEq)]
struct PrebuiltProps {
    html: super::Shared<Html>,
}

/// Shows markup built elsewhere; given the same `Rc` again, Yew skips it
/// (no rebuild, no diff).
#[component]
fn Prebuilt(p: &PrebuiltProps) -> Html {
    (*p.html.0).clone()
}

/// Above this height (px) the picture scrolls inside the figure.
const STAGE_MAX_H: f64 = 480.0;
/// The same in an embedded figure, whose whole frame stays within 640 px
/// at 700 px wide (docs/embedding.md).
const STAGE_MAX_H_EMBED: f64 = 360.0;

#[cfg(test)]
mod tests {
    use super::highlight::tint_percent;
    use super::*;
    use crate::attention::compute;
    use crate::lesson::presets::notes_004;
    use crate::lesson::timeline::{Phase, Step};
    use crate::lesson::tour::Beat;

    fn layers(s: &Scenario) -> Rc<Layers> {
        Layers::of(crate::attention::compute_stack(s).unwrap())
    }

    fn playback(s: Scenario) -> Rc<Playback> {
        let stack = layers(&s);
        Rc::new(Playback::new(Rc::new(s), stack, Granularity::Row, 0, 1.0))
    }

    #[test]
    fn the_player_reducer_returns_the_same_state_when_nothing_changes() {
        let pb = playback(notes_004());
        // Paused, with reduced motion: a tick changes nothing, so Yew skips the render.
        let same = pb
            .clone()
            .reduce((0.0, PlayerAction::Tick { reduce: true }));
        assert!(Rc::ptr_eq(&same, &pb));
        // The same trace again (a render without an edit): nothing to rebuild.
        let same = pb.clone().reduce((
            0.0,
            PlayerAction::Rebuild(pb.stack.clone(), pb.full.clone()),
        ));
        assert!(Rc::ptr_eq(&same, &pb));
        // Moving is a new state; the old one is untouched.
        let moved = pb.clone().reduce((0.0, PlayerAction::Go(3)));
        assert_eq!((pb.player.step, moved.player.step), (0, 3));
        let back = moved.clone().reduce((0.0, PlayerAction::Back));
        assert_eq!(back.player.step, 2);
        let played = back.reduce((0.0, PlayerAction::Toggle));
        assert!(played.player.clock.playing);
        assert_eq!(
            played
                .clone()
                .reduce((0.0, PlayerAction::Speed(1.5)))
                .player
                .clock
                .speed,
            1.5
        );
    }

    #[test]
    fn an_edit_rebuilds_the_steps_for_the_new_trace() {
        let pb = playback(notes_004()).reduce((0.0, PlayerAction::Go(4)));
        let mut bigger = notes_004();
        bigger.scale = true;
        let stack = layers(&bigger);
        let next = pb
            .clone()
            .reduce((0.0, PlayerAction::Rebuild(stack.clone(), Rc::new(bigger))));
        assert!(Rc::ptr_eq(&next.trace, &stack.traces[0]));
        // Scaling adds a ÷√d_k step per query (15 → 18 steps), and the
        // player stays on the same moment of the computation.
        assert_eq!(
            (pb.player.timeline.len(), next.player.timeline.len()),
            (15, 18)
        );
        assert_eq!(next.player.current(), pb.player.current());
    }

    #[test]
    fn a_stack_is_walked_layer_by_layer_with_the_hand_over_between() {
        let s = crate::lesson::presets::induction();
        let pb = playback(s.clone());
        let first = pb.tour.steps[0];
        assert_eq!(pb.tour.steps.len(), 2);
        // The last step of layer 1, then the residual and the hand-over.
        let end = pb.clone().reduce((0.0, PlayerAction::Go(first - 1)));
        assert_eq!((end.layer, end.beat), (0, None));
        let residual = end.reduce((0.0, PlayerAction::Forward));
        assert_eq!(residual.beat, Some(Beat::Residual));
        let becomes = residual.reduce((0.0, PlayerAction::Forward));
        assert_eq!(becomes.beat, Some(Beat::Becomes));
        let layer2 = becomes.clone().reduce((0.0, PlayerAction::Forward));
        assert_eq!(
            (layer2.layer, layer2.beat, layer2.player.step),
            (1, None, 0)
        );
        // Layer 2 is drawn from its own trace, the one-layer scenario of its input.
        assert!(Rc::ptr_eq(&layer2.trace, &layer2.stack.traces[1]));
        assert_eq!(compute(&layer2.scenario).unwrap(), *layer2.stack.traces[1]);
        assert_eq!(layer2.at(), first + 2);
        // And back.
        assert_eq!(
            layer2.reduce((0.0, PlayerAction::Back)).beat,
            Some(Beat::Becomes)
        );
        // Playing through the end of layer 1 goes on to the hand-over.
        let playing = end_of_layer_playing(&pb, first);
        assert_eq!((playing.layer, playing.beat), (0, Some(Beat::Residual)));
        assert!(playing.player.clock.playing);
        // Removing layer 1 (a new stack of one layer) leaves the hand-over.
        let mut one = s.clone();
        one.stack.clear();
        let stack = layers(&one);
        let after = becomes.reduce((1.0, PlayerAction::Rebuild(stack, Rc::new(one))));
        assert_eq!((after.layer, after.beat), (0, None));
    }

    /// `pb` played from the last step of layer 1 past its end.
    fn end_of_layer_playing(pb: &Rc<Playback>, first: usize) -> Rc<Playback> {
        let at_end = pb
            .clone()
            .reduce((0.0, PlayerAction::Go(first - 1)))
            .reduce((0.0, PlayerAction::Toggle));
        at_end.reduce((1.0e7, PlayerAction::Tick { reduce: false }))
    }

    #[test]
    fn highlight_rules_select_by_the_page_contract() {
        let t = compute(&notes_004()).unwrap();
        let step = Step {
            head: Some(0),
            phase: Phase::Scores {
                i: Some(1),
                j: Some(2),
            },
        };
        let css = highlight_css(&step.highlights(&t, 0.0), None);
        assert!(css.contains("[data-matrix=\"q\"][data-head=\"1\"] td[data-row=\"1\"]{"));
        assert!(css.contains("[data-matrix=\"k\"][data-head=\"1\"] td[data-row=\"2\"]{"));
        assert!(css.contains(
            "[data-matrix=\"scores\"][data-head=\"1\"] td[data-row=\"1\"][data-col=\"2\"]{"
        ));
        // The pair being multiplied at the start of the dot product.
        assert!(css
            .contains("[data-matrix=\"q\"][data-head=\"1\"] td[data-row=\"1\"][data-col=\"0\"]{"));
        let sum = Step {
            head: Some(0),
            phase: Phase::WeightedSum { i: Some(0) },
        };
        let css = highlight_css(&sum.highlights(&t, 0.0), None);
        let w = t.heads[0].weights[(0, 1)];
        assert!(
            css.contains(&format!("rgba(212,172,13,{}%)", tint_percent(w))),
            "{css}"
        );
        let out = Step {
            head: None,
            phase: Phase::Output,
        };
        let css = highlight_css(&out.highlights(&t, 0.0), None);
        assert!(css.contains("[data-matrix=\"output\"] td{"), "{css}");
        assert!(!css.contains("data-head"), "{css}");
        assert!(!css.contains("heat-"), "{css}");
    }

    #[test]
    fn the_heads_heatmap_follows_the_query_being_computed() {
        let t = compute(&crate::lesson::presets::two_heads()).unwrap();
        let step = Step {
            head: Some(1),
            phase: Phase::Softmax { i: Some(2) },
        };
        let css = highlight_css(&step.highlights(&t, 0.0), None);
        assert!(
            css.contains(".heat-canvas[data-heat-head=\"2\"] .heat-q{display:block;--q:2}"),
            "{css}"
        );
        assert!(!css.contains("data-heat-head=\"1\""), "{css}");
        // The matrix-level mask step marks masked cells of every query: no
        // single query is framed, the whole map is.
        let mask = Step {
            head: Some(0),
            phase: Phase::Mask { i: None },
        };
        let css = highlight_css(&mask.highlights(&t, 0.0), None);
        assert!(!css.contains("--q"), "{css}");
        // One query's mask step frames that query.
        let mask = Step {
            head: Some(0),
            phase: Phase::Mask { i: Some(3) },
        };
        let css = highlight_css(&mask.highlights(&t, 0.0), None);
        let frames: Vec<&str> = css.lines().filter(|l| l.contains("--q")).collect();
        assert!(
            !frames.is_empty() && frames.iter().all(|l| l.contains("--q:3}")),
            "{css}"
        );
    }
}
