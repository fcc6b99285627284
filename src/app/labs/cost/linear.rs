//! The cost lab's linear attention: the parallel and the recurrent form,
//! and the recurrence played position by position.

use crate::app::i18n::{CommonText, LabText};
use crate::app::labs::mini;
use crate::app::web::now_ms as now;
use crate::app::Shared;
use crate::attention::cost::{linear_parallel, linear_recurrent};
use crate::attention::Matrix;
use crate::lesson::format::short;
use crate::lesson::timeline::{sup, Clock, SPEEDS};
use yew::prelude::*;

use super::CostLabProps;

/// One recurrence step at 1× (ms).
const STEP_MS: f64 = 1200.0;

/// Causal linear attention both ways, and the recurrence played position
/// by position with the walkthrough's clock and speeds.
#[component]
pub(super) fn LinearDemo(p: &CostLabProps) -> Html {
    let lang = p.lang;
    let n = p.trace.n();
    // Both forms once per trace, not on every animation tick.
    let both = use_memo(Shared(p.trace.clone()), |t| {
        let h = &t.0.heads[0];
        let par = linear_parallel(&h.q, &h.k, &h.v);
        let steps = linear_recurrent(&h.q, &h.k, &h.v);
        let rec = Matrix::from_fn(n, h.v.ncols(), |i, c| steps[i].output[c]);
        let diff = (&par - &rec).abs().max();
        (par, steps, rec, diff)
    });
    let (par, steps, rec, diff) = (&both.0, &both.1, &both.2, both.3);
    let clock = use_state(|| Clock::paused_at(0.0, 1.0));
    let tick = use_state(|| 0u32);
    let total = STEP_MS * n as f64;
    let t_now = now();
    let at = clock.at(t_now).min(total - 1.0).max(0.0);
    let step = ((at / STEP_MS) as usize).min(n - 1);
    let done = clock.playing && clock.at(t_now) >= total;
    {
        // While playing, re-render every 100 ms; stop at the end.
        let (clock, tick) = (clock.clone(), tick.clone());
        let playing = clock.playing && !done;
        use_effect_with(playing, move |playing| {
            let interval = playing.then(|| {
                gloo::timers::callback::Interval::new(100, move || tick.set(tick.wrapping_add(1)))
            });
            move || drop(interval)
        });
        if done {
            clock.set(Clock::paused_at(total - 1.0, clock.speed));
        }
    }
    let toggle = {
        let clock = clock.clone();
        Callback::from(move |_: MouseEvent| {
            let t = now();
            let c = if clock.playing {
                clock.pause(t)
            } else if clock.at(t) >= total - 1.0 {
                clock.seek(0.0, t).play(t)
            } else {
                clock.play(t)
            };
            clock.set(c);
        })
    };
    let go = |k: usize| {
        let clock = clock.clone();
        Callback::from(move |_: MouseEvent| {
            clock.set(clock.pause(now()).seek(k as f64 * STEP_MS, now()))
        })
    };
    let st = &steps[step];
    html! {
        <div class="linear" data-linear="" data-step={(step + 1).to_string()} data-playing={clock.playing.to_string()} data-speed={clock.speed.to_string()}>
            <h3>{ LabText::LabLinearTitle.t(lang) }</h3>
            <p class="note">{ LabText::LabLinearHow.t(lang) }</p>
            <ul class="formula">
                { for ["φ(x) = elu(x) + 1", "S = Σⱼ φ(kʲ)(vʲ)ᵀ", "z = Σⱼ φ(kʲ)", "bⁱ = φ(qⁱ)ᵀS / φ(qⁱ)ᵀz"].iter().map(|f| html! { <li>{ *f }</li> }) }
            </ul>
            <div class="lab-row">
                <figure><figcaption>{ LabText::LabParallel.t(lang) }</figcaption>{ mini(par, "parallel", false, false, None) }</figure>
                <figure><figcaption>{ LabText::LabRecurrent.t(lang) }</figcaption>{ mini(rec, "recurrent", false, false, None) }</figure>
            </div>
            <p class="verdict-line yes" data-linear-diff={diff.to_string()}>{ format!("{} {}", LabText::LabLargestDiff.t(lang), short(diff)) }</p>
            <div class="player-bar mini-player">
                <button class="lin-back" aria-label={LabText::LabPrevPos.t(lang)} onclick={go(step.saturating_sub(1))}>{ "◀" }</button>
                <button class="lin-play" aria-pressed={clock.playing.to_string()} onclick={toggle}>
                    { if clock.playing { format!("⏸ {}", CommonText::Pause.t(lang)) } else { format!("▶ {}", CommonText::Play.t(lang)) } }
                </button>
                <button class="lin-fwd" aria-label={LabText::LabNextPos.t(lang)} onclick={go((step + 1).min(n - 1))}>{ "▶" }</button>
                <span class="speeds" role="group" aria-label={CommonText::SpeedLabel.t(lang)}>
                    { for SPEEDS.iter().map(|&sp| {
                        let clock = clock.clone();
                        html! { <button aria-pressed={(clock.speed == sp).to_string()} data-speed={sp.to_string()}
                            onclick={Callback::from(move |_: MouseEvent| clock.set(clock.set_speed(sp, now())))}>{ format!("{sp}×") }</button> }
                    }) }
                </span>
                <span class="counter">{ format!("{} {} / {n}", LabText::LabPosition.t(lang), step + 1) }</span>
            </div>
            <div class="lab-row recurrence">
                <figure><figcaption>{ format!("S (Σ j ≤ {})", step + 1) }</figcaption>{ mini(&st.state, "state", false, false, None) }</figure>
                <figure><figcaption>{ "z" }</figcaption>{ mini(&Matrix::from_row_slice(1, st.z.len(), &st.z), "z", false, false, None) }</figure>
                <figure><figcaption>{ format!("b{}", sup(step + 1)) }</figcaption>{ mini(&Matrix::from_row_slice(1, st.output.len(), &st.output), "b", false, false, None) }</figure>
            </div>
        </div>
    }
}
