//! The `dropout` lab (docs/figures.md F12, note `001`): the order
//! q·k → (÷√d_k) → mask → softmax → dropout → ·V as a strip, with one
//! query's numbers under each stage. Inference (the default) leaves the
//! weights alone; training drops each weight with probability p (a seeded,
//! visible draw) and rescales the rest by 1/(1−p). The math is
//! `crate::lesson::labs::dropout`, beside the engine's trace, never inside it.

use super::predict::Lab;
use super::{checked, keep_setting, mini, picked, setting};
use crate::app::i18n::{fill, CommonText, LabText, Lang};
use crate::attention::Trace;
use crate::lesson::format::short;
use crate::lesson::labs::dropout::{row_sum, strip, train, MAX_P};
use crate::lesson::parse::parse_number;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DropoutLabProps {
    pub trace: Rc<Trace>,
    pub lang: Lang,
}

#[component]
pub fn DropoutLab(p: &DropoutLabProps) -> Html {
    let lang = p.lang;
    // The question is about the drop rate on screen (0.5 at first, or the
    // address's `dropout.p`).
    let rate = use_state(|| setting("dropout.p", |v| (0.0..=MAX_P).contains(v)).unwrap_or(0.5f64));
    let p_text = short(*rate);
    let (question, right, explanation) = if *rate == 0.0 {
        (
            fill(LabText::LabDropoutQuestion.t(lang), &[&p_text]),
            0,
            fill(LabText::LabDropoutExplainZero.t(lang), &[&p_text]),
        )
    } else {
        (
            fill(LabText::LabDropoutQuestion.t(lang), &[&p_text]),
            1,
            fill(
                LabText::LabDropoutExplain.t(lang),
                &[&p_text, &short(1.0 / (1.0 - *rate))],
            ),
        )
    };
    html! {
        <Lab name="dropout" title={LabText::LabDropoutTitle.t(lang)} lead={LabText::LabDropoutLead.t(lang)}
            question={question} right={right}
            answers={vec![AttrValue::from(LabText::AnswerYes.t(lang)), AttrValue::from(LabText::LabDropoutNotAlways.t(lang))]}
            explanation={explanation} lang={lang}>
                <DropoutBody trace={p.trace.clone()} lang={lang} rate={rate} />
            </Lab>
    }
}

#[derive(Properties, PartialEq)]
struct DropoutBodyProps {
    trace: Rc<Trace>,
    lang: Lang,
    /// The drop rate p, shared with the question.
    rate: UseStateHandle<f64>,
}

#[component]
fn DropoutBody(p: &DropoutBodyProps) -> Html {
    let lang = p.lang;
    let t = &p.trace;
    // The address keeps the mode, rate, seed, query and head (1-based).
    let training = use_state(|| setting("dropout.train", |v: &u8| *v <= 1) == Some(1));
    let rate = p.rate.clone();
    let seed = use_state(|| setting("dropout.seed", |_: &u64| true).unwrap_or(1));
    let query = use_state(|| setting("dropout.query", |v: &usize| *v >= 1).map_or(0, |v| v - 1));
    let head = use_state(|| setting("dropout.head", |v: &usize| *v >= 1).map_or(0, |v| v - 1));
    let error = use_state(|| None::<LabText>);
    let n = t.n();
    let (i, h) = ((*query).min(n - 1), (*head).min(t.heads.len() - 1));
    // One draw per render, shared by the strip and the head's weights.
    let dropped = training.then(|| train(&t.heads[h], *rate, *seed));
    let st = strip(t, h, i, dropped.as_ref());

    let set_mode = |on: bool| {
        let training = training.clone();
        Callback::from(move |_: Event| {
            keep_setting("dropout.train", u8::from(on));
            training.set(on)
        })
    };
    let on_rate = {
        let (rate, error) = (rate.clone(), error.clone());
        Callback::from(move |e: Event| {
            match checked(&e, |t| {
                parse_number(t).ok().filter(|v| (0.0..=MAX_P).contains(v))
            }) {
                Some(v) => {
                    error.set(None);
                    keep_setting("dropout.p", v);
                    rate.set(v);
                }
                None => error.set(Some(LabText::LabBadRate)),
            }
        })
    };
    let on_seed = {
        let (seed, error) = (seed.clone(), error.clone());
        Callback::from(
            move |e: Event| match checked(&e, |t| t.trim().parse::<u64>().ok()) {
                Some(v) => {
                    error.set(None);
                    keep_setting("dropout.seed", v);
                    seed.set(v);
                }
                None => error.set(Some(LabText::LabBadSeed)),
            },
        )
    };
    let next_seed = {
        let seed = seed.clone();
        Callback::from(move |_: MouseEvent| {
            keep_setting("dropout.seed", *seed + 1);
            seed.set(*seed + 1)
        })
    };
    let pick_query = picked("dropout.query", &query);
    let pick_head = picked("dropout.head", &head);

    // The strip: one column per stage, one row per key.
    let cell = |stage: &'static str, j: usize, v: Option<f64>, class: Option<&'static str>| match v
    {
        Some(v) => {
            html! { <td class={classes!(class)} data-stage={stage} data-key={j.to_string()} data-value={v.to_string()}>{ short(v) }</td> }
        }
        None => {
            html! { <td class="off" data-stage={stage} data-key={j.to_string()} data-value="-inf">{ "−∞" }</td> }
        }
    };
    let mut stages: Vec<(&'static str, String)> = vec![("score", "qⁱ·kʲ".to_string())];
    if t.scale {
        stages.push(("scaled", format!("÷ √d_k = ÷ {}", short(t.divisor))));
    }
    stages.push(("mask", LabText::LabStageMask.t(lang).to_string()));
    stages.push(("softmax", "softmax".to_string()));
    stages.push((
        "dropout",
        format!(
            "dropout ({})",
            if *training {
                format!("p = {}", short(*rate))
            } else {
                LabText::LabInference.t(lang).to_string()
            }
        ),
    ));
    let sum_w = row_sum(&st.weights);
    let sum_d = row_sum(&st.dropped);
    let hidden = t.allowed.map(|a| !a);
    html! {
        <>
            <div class="lab-controls dropout-controls">
                <fieldset class="mode">
                    <legend>{ LabText::LabMode.t(lang) }</legend>
                    <label><input type="radio" name="lab-dropout-mode" value="inference" checked={!*training} onchange={set_mode(false)} />{ LabText::LabInference.t(lang) }</label>
                    <label><input type="radio" name="lab-dropout-mode" value="training" checked={*training} onchange={set_mode(true)} />{ LabText::LabTraining.t(lang) }</label>
                </fieldset>
                <label class="field small" for="lab-dropout-p">
                    <span>{ LabText::LabRate.t(lang) }</span>
                    <input id="lab-dropout-p" type="number" min="0" max={MAX_P.to_string()} step="0.1" value={rate.to_string()} disabled={!*training} onchange={on_rate} />
                </label>
                <label class="field small" for="lab-dropout-seed">
                    <span>{ LabText::LabSeed.t(lang) }</span>
                    <input id="lab-dropout-seed" type="number" min="0" step="1" value={seed.to_string()} disabled={!*training} onchange={on_seed} />
                </label>
                <button class="new-seed" disabled={!*training} onclick={next_seed}>{ LabText::LabNewDraw.t(lang) }</button>
                <label class="field small" for="lab-dropout-query">
                    <span>{ CommonText::QueryWord.t(lang) }</span>
                    <select id="lab-dropout-query" onchange={pick_query}>
                        { for t.tokens.iter().enumerate().map(|(k, tok)| html! { <option value={k.to_string()} selected={k == i}>{ tok.clone() }</option> }) }
                    </select>
                </label>
                if t.heads.len() > 1 {
                    <label class="field small" for="lab-dropout-head">
                        <span>{ LabText::LabHead.t(lang) }</span>
                        <select id="lab-dropout-head" onchange={pick_head}>
                            { for (0..t.heads.len()).map(|r| html! { <option value={r.to_string()} selected={r == h}>{ (r + 1).to_string() }</option> }) }
                        </select>
                    </label>
                }
                if let Some(e) = *error {
                    <p class="field-error" role="alert">{ e.t(lang) }</p>
                }
            </div>
            <div class="strip-wrap">
                <table class="lab-table strip" data-strip={if *training { "training" } else { "inference" }}>
                    <caption>{ format!("{} {} → ", CommonText::QueryWord.t(lang), t.tokens[i]) }{ LabText::LabStripCaption.t(lang) }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ CommonText::KeyWord.t(lang) }</th>
                            { for stages.iter().map(|(id, title)| html! { <th scope="col" data-stage-head={*id}>{ title.clone() }<span class="arrow" aria-hidden="true">{ " →" }</span></th> }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for (0..n).map(|j| html! {
                            <tr>
                                <th scope="row">{ t.tokens[j].clone() }</th>
                                { cell("score", j, Some(st.scores[j]), None) }
                                if t.scale { { cell("scaled", j, Some(st.scaled[j]), None) } }
                                { cell("mask", j, st.masked[j], None) }
                                { cell("softmax", j, Some(st.weights[j]), None) }
                                { cell("dropout", j, Some(st.dropped[j]), (!st.kept[j]).then_some("dropped")) }
                            </tr>
                        }) }
                        <tr class="sum">
                            <th scope="row">{ "Σ" }</th>
                            <td></td>
                            if t.scale { <td></td> }
                            <td></td>
                            <td data-sum="softmax" data-value={sum_w.to_string()}>{ short(sum_w) }</td>
                            <td data-sum="dropout" data-value={sum_d.to_string()}>{ short(sum_d) }</td>
                        </tr>
                    </tbody>
                </table>
                <p class="strip-output" data-stage="output">
                    { format!("· V → b{} = [", crate::lesson::timeline::sup(i + 1)) }
                    { for st.output.iter().enumerate().map(|(c, v)| html! {
                        <><span data-col={c.to_string()} data-value={v.to_string()}>{ short(*v) }</span>{ if c + 1 < st.output.len() { ", " } else { "" } }</>
                    }) }
                    { "]" }
                </p>
            </div>
            <p class={classes!("note", (*training).then_some("training"))}>
                { if *training { LabText::LabWhyNotOne.t(lang) } else { LabText::LabInferenceNote.t(lang) } }
            </p>
            <figure>
                <figcaption>{ LabText::LabAllWeights.t(lang) }</figcaption>
                { mini(dropped.as_ref().map_or(&t.heads[h].weights, |d| &d.weights), "dropped", true, false, Some(&hidden)) }
            </figure>
        </>
    }
}
