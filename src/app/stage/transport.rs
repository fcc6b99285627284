//! The player's controls: restart, step back, play or pause, step
//! forward, the speeds, the granularity, the scrubber and the step counter.

use super::playback::{Playback, PlayerAction};
use crate::app::i18n::{fill, CommonText, Lang, PageText};
use crate::app::web;
use crate::lesson::timeline::{Granularity, SPEEDS};
use std::rc::Rc;
use yew::prelude::*;

/// What the controls show, and where they send the reader's actions.
pub(super) struct Transport<'a> {
    pub pb: &'a Playback,
    pub lang: Lang,
    pub send: Rc<dyn Fn(PlayerAction)>,
}

fn granularity_label(g: Granularity) -> PageText {
    match g {
        Granularity::Matrix => PageText::GranMatrix,
        Granularity::Row => PageText::GranRow,
        Granularity::Dot => PageText::GranDot,
    }
}

/// The two rows of controls above the picture.
pub(super) fn transport(t: &Transport) -> Html {
    let (pb, lang) = (t.pb, t.lang);
    let player = &pb.player;
    let (playing, speed) = (player.clock.playing, player.clock.speed);
    let (n, step) = (pb.tour.total(), pb.at());
    let layers = pb.tour.steps.len();
    let act = |action: PlayerAction| {
        let send = t.send.clone();
        Callback::from(move |_: ()| send(action.clone()))
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
        let send = t.send.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .and_then(|i| i.value().parse::<usize>().ok())
            {
                send(PlayerAction::Go(v.saturating_sub(1)));
            }
        })
    };
    let on_granularity = {
        let send = t.send.clone();
        Callback::from(move |e: Event| {
            if let Some(g) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| Granularity::parse(&s.value()))
            {
                web::set_query("granularity", g.code());
                send(PlayerAction::Granularity(g));
            }
        })
    };
    let play_label = if playing {
        format!("⏸ {}", CommonText::Pause.t(lang))
    } else {
        format!("▶ {}", CommonText::Play.t(lang))
    };
    html! {
        <>
            <div class="player-bar">
                <h2>{ PageText::WalkthroughHeading.t(lang) }</h2>
                <span class="transport">
                    { button(Some("wt-restart"), "|◀".into(), PageText::Restart.t(lang).into(), None, act(PlayerAction::Go(0))) }
                    { button(Some("wt-back"), "◀".into(), PageText::StepBack.t(lang).into(), None, act(PlayerAction::Back)) }
                    { button(Some("wt-play"), play_label, PageText::PlayPauseKey.t(lang).into(), Some(playing), act(PlayerAction::Toggle)) }
                    { button(Some("wt-fwd"), "▶".into(), PageText::StepForward.t(lang).into(), None, act(PlayerAction::Forward)) }
                </span>
                <span class="speeds" role="group" aria-label={CommonText::SpeedLabel.t(lang)}>
                    { for SPEEDS.iter().map(|&s| button(
                        None, format!("{s}×"), format!("{} {s}×", CommonText::SpeedLabel.t(lang)), Some(speed == s),
                        act(PlayerAction::Speed(s)),
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
        </>
    }
}
