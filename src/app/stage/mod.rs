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
//! The parts: [`playback`] (the player's pure state machine), [`moment`]
//! (what a moment shows, built once), [`draw`] (the stage's SVG),
//! [`highlight`] (the workbench's marks for a step), [`handover`] (the
//! figure between two layers) and [`transport`] (the player's buttons).

mod draw;
mod handover;
mod highlight;
mod moment;
mod playback;
mod transport;

use super::hooks::{aimed_at_control, use_animation_clock, use_keys, use_width};
use super::i18n::{Lang, PageText};
use super::state::Layers;
use super::web::{self, now_ms as now};
use crate::attention::Scenario;
use crate::lesson::names::Convention;
use crate::lesson::timeline::{Granularity, SPEEDS};
use handover::{handover_figure, handover_text};
use moment::{measure, moment, MomentKey, Prebuilt};
use playback::{Playback, PlayerAction};
use std::rc::Rc;
use transport::{transport, Transport};
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

/// The player's settings a link may give: `?granularity=`, `?speed=` and
/// `?step=` (1-based).
fn opening_playback(p: &WalkthroughProps) -> Playback {
    let g = web::query("granularity")
        .and_then(|g| Granularity::parse(&g))
        .unwrap_or(Granularity::Row);
    let speed = web::query("speed")
        .and_then(|s| crate::attention::json::decimal(&s))
        .filter(|s| SPEEDS.contains(s))
        .unwrap_or(1.0);
    let step = web::query("step")
        .and_then(|s| s.parse::<usize>().ok())
        .map_or(0, |s| s.saturating_sub(1));
    Playback::new(p.scenario.0.clone(), p.stack.0.clone(), g, step, speed)
}

/// The step and speed live in the address, so a link reopens them (not
/// written while both are where a page opens: nothing to reopen, and no
/// history write on the way to the first paint).
#[hook]
fn use_step_in_address(step: usize, speed: f64) {
    use_effect_with((step, speed), move |(step, speed)| {
        for (key, value) in [
            ("step", (step + 1).to_string()),
            ("speed", speed.to_string()),
        ] {
            if value != "1" || web::query(key).is_some() {
                web::set_query(key, &value);
            }
        }
    });
}

/// An edit (playing or not) rebuilds the steps for the new trace and keeps
/// the moment. Keyed on the pointers: the state holds the old trace, so a
/// new one never reuses its address. The reducer gets it after the frame
/// that shows the edit: until then each render makes the same rebuild
/// itself (in the component), so the edit's frame shows the new figure
/// without rendering the stage twice.
#[hook]
fn use_rebuild_after_paint(state: &UseReducerHandle<Playback>, p: &WalkthroughProps) {
    let d = state.dispatcher();
    let (stack, scenario) = (p.stack.0.clone(), p.scenario.0.clone());
    let pending = use_mut_ref(|| None::<gloo::render::AnimationFrame>);
    use_effect_with(
        (
            Rc::as_ptr(&p.stack) as usize,
            Rc::as_ptr(&p.scenario) as usize,
        ),
        move |_| {
            *pending.borrow_mut() = Some(web::after_paint(move || {
                d.dispatch((now(), PlayerAction::Rebuild(stack, scenario)))
            }));
        },
    );
}

#[component]
pub fn Walkthrough(p: &WalkthroughProps) -> Html {
    let lang = p.lang;
    let state = use_reducer(|| opening_playback(p));
    // The stage's geometry and size, measured again only when needed.
    let layout = use_mut_ref(|| None);
    let moment_cache = use_mut_ref(|| None);
    use_rebuild_after_paint(&state, p);
    // The stage's width follows the figure (resizes, rotation, zoom).
    let body = use_node_ref();
    let measured = use_width(body.clone(), stage_width);
    // The first render with the measured width is the one that can replace
    // the pre-rendered first screen without moving anything.
    if measured > 0.0 {
        web::end_prerender();
    }
    let reduce = *use_memo((), |_| reduced_motion());
    let embedded = *use_memo((), |_| web::display_mode().embed);
    // Sends `action` to the player, stamped with the time.
    let send = {
        let d = state.dispatcher();
        move |action: PlayerAction| d.dispatch((now(), action))
    };
    let (playing, speed) = (state.player.clock.playing, state.player.clock.speed);
    // While playing: a tick every frame repaints the stage (with reduced
    // motion, the stage changes only when the step does).
    use_animation_clock(playing, || {
        let send = send.clone();
        move || {
            send(PlayerAction::Tick { reduce });
            true
        }
    });
    // Space plays or pauses, arrows step, unless the reader is in a control.
    use_keys(|| {
        let send = send.clone();
        move |e| {
            if aimed_at_control(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                return false;
            }
            let action = match e.key().as_str() {
                " " => PlayerAction::Toggle,
                "ArrowRight" => PlayerAction::Forward,
                "ArrowLeft" => PlayerAction::Back,
                _ => return false,
            };
            send(action);
            true
        }
    });
    use_step_in_address(state.at(), speed);

    let conv = p.convention;
    let t_now = now();
    // Until the hook above hands a new trace to the reducer (after the
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
    let width = if measured > 0.0 {
        measured
    } else {
        stage_width(&body)
    };
    let (g, extent) = measure(&mut layout.borrow_mut(), pb, conv, width);
    let player = &pb.player;
    // Paused at the very start of a step (after a jump), show the step done.
    let (k, progress) = player.timeline.position(player.clock.at(t_now));
    let progress = if !playing && progress == 0.0 {
        1.0
    } else {
        progress
    };
    let key = MomentKey {
        trace: super::Shared(pb.trace.clone()),
        scenario: super::Shared(pb.scenario.clone()),
        conv,
        lang,
        width: width.to_bits(),
        granularity: player.granularity,
        step: player.step,
        k,
        progress: progress.to_bits(),
        step_progress: player.progress().to_bits(),
        playing,
        reduce,
    };
    // With stacked layers every matrix of the workbench carries its layer.
    let layer_attr = p.stacked.then_some(pb.layer + 1);
    let shown = moment(
        &mut moment_cache.borrow_mut(),
        key,
        pb,
        (g, extent),
        layer_attr,
    );
    // Between two layers the hand-over's caption, formula and highlights.
    let (caption, math, css) = match pb.beat {
        Some(beat) => handover_text(pb, beat, lang),
        None => (shown.caption.clone(), shown.math.clone(), shown.css.clone()),
    };
    // An embedded figure keeps within its frame: a shorter picture, which
    // scrolls inside itself when taller (two stacked layers' wide inputs).
    let max_h = if embedded {
        STAGE_MAX_H_EMBED
    } else {
        STAGE_MAX_H
    };
    let scroll = extent.1 > max_h;
    let (n, step) = (pb.tour.total(), pb.at());
    html! {
        <section class={classes!("player", "stage", playing.then_some("playing"))} aria-label={PageText::WalkthroughHeading.t(lang)}
            data-figure="stage" data-step={(step + 1).to_string()} data-steps={n.to_string()}
            data-playing={playing.to_string()} data-speed={speed.to_string()}
            data-time={player.clock.at(t_now).round().to_string()}>
            { transport(&Transport { pb, lang, send: Rc::new(send) }) }
            <div class={classes!("stage-body", scroll.then_some("scrolls"))} ref={body}
                style={scroll.then(|| format!("max-height:{max_h}px"))}>
                if let Some(beat) = pb.beat {
                    { handover_figure(pb, beat, extent.1.min(max_h)) }
                } else {
                    <Prebuilt html={shown.picture.clone()} />
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

/// Above this height (px) the picture scrolls inside the figure.
const STAGE_MAX_H: f64 = 480.0;
/// The same in an embedded figure, whose whole frame stays within 640 px
/// at 700 px wide (docs/embedding.md).
const STAGE_MAX_H_EMBED: f64 = 360.0;

#[cfg(test)]
mod tests;
