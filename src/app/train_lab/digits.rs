//! The `digits` task's side of the lab: its data, fetched when the task is
//! first chosen (the file `digits-<hash>.txt`, through the start script's
//! `attentionLabData`, src/app/start.rs; data/digits/README.md says what it
//! is), and the figure of where the class token looks: the first held-out
//! image with each head's attention from `[CLS]` over its patches.

use super::run::Run;
use crate::app::i18n::{fill, Lang, TrainText};
use std::rc::Rc;
use train::digits::{self, Digits};
use yew::prelude::*;

/// Fetches and installs the digits unless they are here; false when they
/// cannot be fetched or read.
pub(super) async fn ensure() -> bool {
    if digits::installed().is_some() {
        return true;
    }
    let promise = crate::app::start::ask_file("attentionLabData", "digits");
    let Some(text) = crate::app::start::file_text(promise).await else {
        return false;
    };
    match Digits::parse(&text) {
        Ok(d) => {
            digits::install(d);
            true
        }
        Err(_) => false,
    }
}

/// The shipped digits, installed for the native tests of the lab.
#[cfg(test)]
pub(super) fn install_for_tests() {
    if digits::installed().is_none() {
        digits::install(
            Digits::parse(include_str!("../../../data/digits/digits.txt"))
                .expect("the shipped digits parse"),
        );
    }
}

/// A pixel of the figure, px.
const PX: f64 = 12.0;

/// The first held-out image, its label and the model's answer, and per head
/// `[CLS]`'s weights over its patches as an overlay
/// (`[data-figure="patches"]`, each patch `rect[data-patch][data-weight]`).
pub(super) fn patches_view(r: &Run, lang: Lang) -> Html {
    let m = &r.model;
    let s = m.eval_sample();
    let Some(image) = &s.image else {
        return Html::default();
    };
    let p = m.config.patch;
    let per_row = digits::SIDE / p;
    let label = s.targets[0].map(|t| m.config.label(t)).unwrap_or_default();
    let answer = m
        .predict_sample(s)
        .ok()
        .map(|pr| m.config.label(pr.next[0]))
        .unwrap_or_default();
    let side = digits::SIDE as f64 * PX;
    let pixels = html! {
        { for image.pixels.iter().enumerate().map(|(i, &v)| {
            let g = (255.0 * (1.0 - f64::from(v) / f64::from(digits::MAX_PIXEL))).round();
            html! { <rect x={((i % digits::SIDE) as f64 * PX).to_string()} y={((i / digits::SIDE) as f64 * PX).to_string()}
                width={PX.to_string()} height={PX.to_string()} fill={format!("rgb({g},{g},{g})")} /> }
        }) }
    };
    let head = |l: usize, t: &Rc<crate::attention::Trace>, h: usize| {
        let w = t.heads[h].weights.row(0);
        // Patch i is token i + 1; [CLS]'s weight on itself is said below.
        // The gold's opacity is the weight itself, not its share of the
        // largest: a head that keeps most weight on [CLS] looks faint.
        let a = p as f64 * PX;
        html! {
            <figure class="train-patches-head">
                <svg data-patches-head={format!("{}-{}", l + 1, h + 1)} viewBox={format!("0 0 {side} {side}")} width={side.to_string()} height={side.to_string()} style="border:1px solid #dedbd2">
                    { pixels.clone() }
                    { for (1..w.len()).map(|j| {
                        let i = j - 1;
                        let op = 0.9 * w[j];
                        html! { <rect data-patch={i.to_string()} data-weight={w[j].to_string()}
                            x={((i % per_row) as f64 * a).to_string()} y={((i / per_row) as f64 * a).to_string()}
                            width={a.to_string()} height={a.to_string()} fill={format!("rgba(183,149,11,{op:.3})")} stroke="#fff" /> }
                    }) }
                </svg>
                <figcaption>{ fill(TrainText::HeadName.t(lang), &[&(l + 1).to_string(), &(h + 1).to_string()]) }
                    { " · [CLS] " }{ format!("{:.2}", w[0]) }</figcaption>
            </figure>
        }
    };
    html! {
        <div data-figure="patches" data-label={label.clone()} data-predicted={answer.clone()}>
            <h3>{ TrainText::PatchesTitle.t(lang) }</h3>
            <p class="note">{ fill(TrainText::PatchesAnswer.t(lang), &[&label, &answer]) }</p>
            <div class="train-patches" style="display:flex;flex-wrap:wrap;gap:.6rem">
                { for r.shown.traces.iter().enumerate().flat_map(|(l, t)| (0..t.heads.len()).map(move |h| (l, t, h))).map(|(l, t, h)| head(l, t, h)) }
            </div>
            <p class="note">{ TrainText::DigitsSource.t(lang) }</p>
        </div>
    }
}
