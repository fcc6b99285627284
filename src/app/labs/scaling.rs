//! The `scaling` lab (docs/figures.md F7): why the scores are divided by √d_k.
//! Sample q and k with independent standard normal entries, show the
//! histogram of q·k with and without ÷√d_k and its variance beside d_k and
//! 1, then what softmax does to a row of such scores as d_k grows: the
//! largest weight, the entropy and the Jacobian's largest entry. The math is
//! `crate::lesson::labs::scaling`.

use super::predict::{Answer, Fixed};
use super::LabCtx;
use super::{keep_setting, setting};
use crate::app::i18n::{CommonText, LabText, Lang};
use crate::lesson::format::rounded;
use crate::lesson::labs::scaling::{
    dot_samples, histogram, mean_variance, row_stats, RowStats, D_KS,
};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Pairs sampled for the histograms; rows averaged for the curves; keys per row.
const PAIRS: usize = 2000;
const ROWS: usize = 100;
const KEYS: usize = 8;
const BINS: usize = 40;

#[derive(Properties, PartialEq)]
pub struct ScalingLabProps {
    pub lang: Lang,
}

/// A whole number typed into `e`'s input, if it lies in `lo..=hi`.
fn typed(e: &Event, lo: u64, hi: u64) -> Result<u64, String> {
    let text = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default();
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .ok_or(text)
}

/// One histogram as SVG bars over `[-range, range)`.
fn histogram_svg(xs: &[f64], range: f64, which: &'static str, variance: f64, lang: Lang) -> Html {
    let h = histogram(xs, -range, range, BINS);
    let (w, ht) = (320.0, 110.0);
    let top = h.counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let bw = w / BINS as f64;
    html! {
        <svg class="hist" data-hist={which} data-variance={variance.to_string()} width="320" height="124"
            viewBox="0 0 320 124" role="img" aria-label={format!(
                "{}{}{} {}",
                if which == "raw" { LabText::LabRaw.t(lang) } else { LabText::LabScaled.t(lang) },
                CommonText::Colon.t(lang),
                LabText::LabVariance.t(lang),
                rounded(variance, 2)
            )}>
            { for h.counts.iter().enumerate().filter(|(_, c)| **c > 0).map(|(k, c)| {
                let bh = ht * *c as f64 / top;
                html! { <rect x={rounded(k as f64 * bw, 2)} y={rounded(ht - bh, 2)} width={rounded(bw - 1.0, 2)} height={rounded(bh, 2)} /> }
            }) }
            <line x1="160" y1="0" x2="160" y2="112" class="axis" />
            <text x="0" y="122">{ format!("−{}", rounded(range, 1)) }</text>
            <text x="160" y="122" text-anchor="middle">{ "0" }</text>
            <text x="320" y="122" text-anchor="end">{ rounded(range, 1) }</text>
        </svg>
    }
}

/// The largest weight against d_k (log scale), with and without scaling.
fn curve_svg(raw: &[RowStats], scaled: &[RowStats], d_k: usize, lang: Lang) -> Html {
    let (w, h) = (320.0, 120.0);
    let x = |k: usize| 20.0 + (w - 30.0) * k as f64 / (D_KS.len() - 1) as f64;
    let y = |v: f64| 8.0 + (h - 16.0) * (1.0 - v.clamp(0.0, 1.0));
    let line = |s: &[RowStats]| {
        s.iter()
            .enumerate()
            .map(|(k, r)| format!("{},{}", rounded(x(k), 1), rounded(y(r.max_weight), 1)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Where the current d_k falls on the log axis.
    let at = (d_k as f64).log2().clamp(0.0, 9.0);
    let mark = 20.0 + (w - 30.0) * at / 9.0;
    html! {
        <svg class="curve" width="320" height="140" viewBox="0 0 320 140" role="img"
            aria-label={LabText::LabCurveTitle.t(lang)}>
            <line x1="20" y1={rounded(y(1.0), 1)} x2="310" y2={rounded(y(1.0), 1)} class="axis" />
            <line x1="20" y1={rounded(y(0.0), 1)} x2="310" y2={rounded(y(0.0), 1)} class="axis" />
            <text x="0" y={rounded(y(1.0) + 4.0, 1)}>{ "1" }</text>
            <text x="0" y={rounded(y(0.0) + 4.0, 1)}>{ "0" }</text>
            <line class="now" x1={rounded(mark, 1)} x2={rounded(mark, 1)} y1="4" y2="116" />
            <polyline class="raw" points={line(raw)} />
            <polyline class="scaled" points={line(scaled)} />
            { for [0usize, 3, 6, 9].iter().map(|&k| html! {
                <text x={rounded(x(k), 1)} y="134" text-anchor="middle">{ D_KS[k] }</text>
            }) }
        </svg>
    }
}

/// The question, then (once answered) the experiment. The sampling runs
/// only when [`ScalingBody`] mounts, not when the page loads.
/// The lab's question (predict, then reveal).
pub const QUESTION: Fixed = Fixed {
    name: "scaling",
    title: LabText::LabScalingTitle,
    lead: LabText::LabScalingLead,
    question: LabText::LabScalingQuestion,
    answers: [
        Answer::Key(LabText::AnswerGrows),
        Answer::Key(LabText::AnswerShrinks),
    ],
    right: 0,
    explanation: LabText::LabScalingExplain,
};

/// The lab, as the labs mount it (a function, not a component: it has no
/// state of its own, and [`Lab`](super::predict::Lab) below already skips a
/// render whose question and body are unchanged).
pub fn lab(c: &LabCtx) -> Html {
    QUESTION.frame(c.lang, html! { <ScalingBody lang={c.lang} /> })
}

/// The experiment: controls, histograms, the curve and the table.
#[component]
fn ScalingBody(p: &ScalingLabProps) -> Html {
    let lang = p.lang;
    let d_k = use_state(|| setting("scaling.dk", |d| (1..=512).contains(d)).unwrap_or(64usize));
    let seed = use_state(|| setting("scaling.seed", |s| *s <= u64::from(u32::MAX)).unwrap_or(1u64));
    let error = use_state(|| None::<(LabText, String)>);
    let samples = use_memo((*d_k, *seed), |(d, s)| dot_samples(*d, PAIRS, *s));
    let curves = use_memo(*seed, |s| {
        let raw: Vec<RowStats> = D_KS
            .iter()
            .map(|&d| row_stats(d, KEYS, ROWS, *s, false))
            .collect();
        let scaled: Vec<RowStats> = D_KS
            .iter()
            .map(|&d| row_stats(d, KEYS, ROWS, *s, true))
            .collect();
        (raw, scaled)
    });
    let (raw, scaled) = (&curves.0, &curves.1);
    let d = *d_k as f64;
    let scaled_samples: Vec<f64> = samples.iter().map(|x| x / d.sqrt()).collect();
    let (_, var_raw) = mean_variance(&samples);
    let (_, var_scaled) = mean_variance(&scaled_samples);
    let range = (4.0 * d.sqrt()).max(4.0);

    let on_dk = {
        let (d_k, error) = (d_k.clone(), error.clone());
        Callback::from(move |e: Event| match typed(&e, 1, 512) {
            Ok(v) => {
                keep_setting("scaling.dk", v);
                d_k.set(v as usize);
                error.set(None);
            }
            Err(text) => error.set(Some((LabText::LabBadDk, text))),
        })
    };
    let on_seed = {
        let (seed, error) = (seed.clone(), error.clone());
        Callback::from(move |e: Event| match typed(&e, 0, u32::MAX as u64) {
            Ok(v) => {
                keep_setting("scaling.seed", v);
                seed.set(v);
                error.set(None);
            }
            Err(text) => error.set(Some((LabText::LabBadSeed, text))),
        })
    };
    let at = |d: usize| D_KS.iter().position(|&x| x == d).unwrap_or(0);
    let (w4, w256) = (raw[at(4)].max_weight, raw[at(256)].max_weight);
    let numbers = format!(
        "{} {} → {}.",
        LabText::LabScalingNumbers.t(lang),
        rounded(w4, 2),
        rounded(w256, 2)
    );
    let r3 = |v: f64| rounded(v, 3);
    html! {
            <>
                <p class="numbers">{ numbers }</p>
                <div class="lab-controls">
                    <label class="field">
                        <span>{ LabText::LabDk.t(lang) }</span>
                        <input id="lab-dk" type="number" min="1" max="512" value={d_k.to_string()} onchange={on_dk}
                            aria-invalid={error.as_ref().filter(|e| e.0 == LabText::LabBadDk).map(|_| "true")} />
                    </label>
                    <label class="field">
                        <span>{ LabText::LabSeed.t(lang) }</span>
                        <input id="lab-seed" type="number" min="0" value={seed.to_string()} onchange={on_seed}
                            aria-invalid={error.as_ref().filter(|e| e.0 == LabText::LabBadSeed).map(|_| "true")} />
                    </label>
                    if let Some((key, text)) = &*error {
                        <p class="field-error" role="alert">{ format!("{} ({text})", key.t(lang)) }</p>
                    }
                </div>
                <div class="lab-row">
                    <figure>
                        { histogram_svg(&samples, range, "raw", var_raw, lang) }
                        <figcaption>{ format!("q·k{}{} {} ≈ d_k = {}", CommonText::Colon.t(lang), LabText::LabVariance.t(lang), rounded(var_raw, 2), d_k.to_string()) }</figcaption>
                    </figure>
                    <figure>
                        { histogram_svg(&scaled_samples, range, "scaled", var_scaled, lang) }
                        <figcaption>{ format!("q·k / √d_k{}{} {} ≈ 1", CommonText::Colon.t(lang), LabText::LabVariance.t(lang), rounded(var_scaled, 2)) }</figcaption>
                    </figure>
                    <figure>
                        { curve_svg(raw, scaled, *d_k, lang) }
                        <figcaption>
                            { LabText::LabCurveTitle.t(lang) }{ " " }
                            <span class="key raw">{ LabText::LabRaw.t(lang) }</span>{ " · " }
                            <span class="key scaled">{ LabText::LabScaled.t(lang) }</span>
                        </figcaption>
                    </figure>
                </div>
                <table class="lab-table">
                    <caption>{ LabText::LabTableCaption.t(lang) }</caption>
                    <thead><tr>
                        <th scope="col">{ "d_k" }</th>
                        <th scope="col">{ LabText::LabMaxWeight.t(lang) }<br/>{ LabText::LabRaw.t(lang) }</th>
                        <th scope="col">{ LabText::LabMaxWeight.t(lang) }<br/>{ LabText::LabScaled.t(lang) }</th>
                        <th scope="col">{ LabText::LabEntropy.t(lang) }<br/>{ LabText::LabRaw.t(lang) }</th>
                        <th scope="col">{ LabText::LabEntropy.t(lang) }<br/>{ LabText::LabScaled.t(lang) }</th>
                        <th scope="col">{ "max |J|" }<br/>{ LabText::LabRaw.t(lang) }</th>
                        <th scope="col">{ "max |J|" }<br/>{ LabText::LabScaled.t(lang) }</th>
                    </tr></thead>
                    <tbody>
                        { for D_KS.iter().enumerate().map(|(k, dk)| html! {
                            <tr class={classes!((*dk == *d_k).then_some("now"))} data-dk={dk.to_string()}>
                                <th scope="row">{ dk }</th>
                                <td>{ r3(raw[k].max_weight) }</td><td>{ r3(scaled[k].max_weight) }</td>
                                <td>{ r3(raw[k].entropy) }</td><td>{ r3(scaled[k].entropy) }</td>
                                <td>{ r3(raw[k].jacobian) }</td><td>{ r3(scaled[k].jacobian) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                <p class="note">{ LabText::LabScalingNote.t(lang) }</p>
            </>
    }
}
