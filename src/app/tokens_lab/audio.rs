//! The audio kind: a sound the page makes itself, cut into a frame every
//! 10 ms; each frame's band energies are a token (note 000 §1.1). A frame
//! clicked is the query; its weights over every frame are bars under the
//! waveform, and the lab says what n² scores cost at this n.

use super::state::{audio_n, Msg, DURATION};
use super::xgrid::XGrid;
use super::{weight_fill, KindProps};
use crate::app::i18n::{fill, Lang, TokensText};
use crate::app::labs::predict::Predict;
use crate::attention::cost::{Dims, Keys, Variant};
use crate::attention::grouped;
use crate::lesson::labs::tokens;
use yew::prelude::*;

/// The figure's width and the heights of its waveform and bars, px.
const W: f64 = 600.0;
const WAVE: f64 = 80.0;
const BARS: f64 = 60.0;

/// One head's multiply-adds at n tokens of width d (the cost lab's counts).
fn madds(n: usize, d: usize) -> u64 {
    Dims {
        n,
        d_in: d,
        d_k: d,
        d_v: d,
        heads: 1,
        d_out: None,
    }
    .counts(Variant::Dense(Keys::All))
    .madds
}

/// The question: how many scores for a recording twice as long.
fn question(seconds: f64, n: usize, lang: Lang) -> Html {
    let m = audio_n(seconds * 2.0);
    let (nn, mm) = (n * n, m * m);
    let answers = [nn * 2, mm];
    html! {
        <Predict key={seconds.to_string()}
            question={fill(TokensText::TokAudioQuestion.t(lang), &[&seconds.to_string(), &n.to_string(), &(seconds * 2.0).to_string()])}
            answers={answers.iter().map(|a| AttrValue::from(grouped(*a))).collect::<Vec<_>>()} right={1}
            explanation={fill(TokensText::TokAudioExplain.t(lang), &[&n.to_string(), &m.to_string(), &grouped(nn), &grouped(mm)])}
            words={TokensText::predict_words(lang)} />
    }
}

/// The waveform as a path: each of `cols` columns a line from the lowest
/// to the highest sample in it.
fn wave_path(signal: &[f64], cols: usize) -> String {
    let mut d = String::new();
    let per = (signal.len() as f64 / cols as f64).max(1.0);
    for c in 0..cols.min(signal.len()) {
        let part =
            &signal[(c as f64 * per) as usize..(((c + 1) as f64 * per) as usize).min(signal.len())];
        let (lo, hi) = part
            .iter()
            .fold((0.0_f64, 0.0_f64), |(l, h), v| (l.min(*v), h.max(*v)));
        let x = c as f64 * W / cols as f64;
        let y = |v: f64| WAVE / 2.0 * (1.0 - v);
        d.push_str(&format!("M{x:.1} {:.1}V{:.1}", y(hi), y(lo)));
    }
    d
}

#[component]
pub fn AudioKind(k: &KindProps) -> Html {
    let (s, lang) = (&k.state, k.lang);
    let (n, q) = (s.n(), s.query());
    let d = k.seen.x.ncols();
    let wave = use_memo(s.seconds.to_bits(), |_| {
        wave_path(&tokens::signal(s.seconds), 300)
    });
    let error = use_state(|| false);
    let change = {
        let (send, error) = (k.send.clone(), error.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            match crate::attention::json::decimal(input.value().trim())
                .filter(|t| DURATION.contains(t))
            {
                Some(t) => {
                    error.set(false);
                    send.emit(Msg::Seconds(t));
                }
                None => error.set(true),
            }
        })
    };
    let w = k.seen.weights.row(q);
    let max = w.iter().fold(0.0_f64, |m, v| m.max(*v));
    let fw = W / n as f64;
    let pick = |i: usize| {
        let send = k.send.clone();
        Callback::from(move |_: MouseEvent| send.emit(Msg::Query(i)))
    };
    let minute = audio_n(60.0);
    // The query frame by keyboard or finger too: a hundred frames are a
    // few pixels each on a phone.
    let slide = {
        let send = k.send.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(q) = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .and_then(|i| i.value().parse().ok())
            {
                send.emit(Msg::Query(q));
            }
        })
    };
    html! {
        <>
            <div class="lab-controls">
                <label>{ TokensText::TokDuration.t(lang) }{ " " }
                    <input data-control="duration" type="number" min="0.1" max="2" step="0.1" value={s.seconds.to_string()}
                        aria-invalid={error.to_string()} onchange={change} />
                </label>
                if *error {
                    <span class="field-error" role="alert">{ TokensText::TokBadDuration.t(lang) }</span>
                }
            </div>
            <figure class="tokens-audio">
                <figcaption>{ TokensText::TokAudioTitle.t(lang) }</figcaption>
                <svg viewBox={format!("0 0 {W} {}", WAVE + BARS)} width={W.to_string()} height={(WAVE + BARS).to_string()}>
                    <path class="wave" d={(*wave).clone()} />
                    <rect class="query" x={(q as f64 * fw).to_string()} y="0" width={fw.max(1.0).to_string()} height={WAVE.to_string()} />
                    { for (0..n).map(|i| {
                        let h = if max > 0.0 { w[i] / max * (BARS - 4.0) } else { 0.0 };
                        html! {
                            <g data-frame={i.to_string()} data-weight={w[i].to_string()} onclick={pick(i)}>
                                <rect class="hit" x={(i as f64 * fw).to_string()} y={WAVE.to_string()} width={fw.to_string()} height={BARS.to_string()} />
                                <rect x={(i as f64 * fw).to_string()} y={(WAVE + BARS - h).to_string()} width={fw.to_string()} height={h.to_string()} fill={weight_fill(w[i], max)} />
                                <title>{ format!("{} {}: {:.4}", TokensText::TokFrame.t(lang), i + 1, w[i]) }</title>
                            </g>
                        }
                    }) }
                </svg>
                <figcaption>{ TokensText::TokFramesHow.t(lang) }</figcaption>
                <label class="lab-controls">{ format!("{} {}", TokensText::TokQueryFrame.t(lang), q + 1) }{ " " }
                    <input data-control="query" type="range" min="0" max={(n - 1).to_string()} value={q.to_string()} oninput={slide} />
                </label>
            </figure>
            <p data-count="">{ fill(TokensText::TokAudioN.t(lang), &[&tokens::HOP_MS.to_string(), &tokens::WINDOW_MS.to_string(), &s.seconds.to_string(), &n.to_string(), &d.to_string()]) }</p>
            <p data-cost="">{ fill(TokensText::TokCost.t(lang), &[&n.to_string(), &grouped(n * n), &grouped(madds(n, d) as usize), &grouped(minute), &grouped(minute * minute)]) }</p>
            <XGrid x={k.seen.clone()} transposed={true} query={q} caption={TokensText::TokXAudioTitle.t(lang)} />
            { question(s.seconds, n, lang) }
        </>
    }
}
