//! The `scoring` lab (docs/figures.md F3): the current scenario's first head scored
//! three ways, dot product, scaled dot product and additive
//! `w_aᵀ·tanh(W_a·q + U_a·k)` (W_a, U_a, w_a editable), side by side: the
//! scores, the weights and the outputs, with what each costs. The math is
//! `crate::lesson::labs::scoring` over the engine's own softmax.

use super::predict::{Answer, Fixed};
use super::LabCtx;
use super::{mini, SHOWN};
use crate::app::i18n::{LabText, Lang};
use crate::attention::{Matrix, Trace};
use crate::lesson::format::short;
use crate::lesson::labs::scoring::{compare, Additive, Scored};
use crate::lesson::names::Convention;
use crate::lesson::parse::parse_number;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ScoringLabProps {
    pub trace: Rc<Trace>,
    pub convention: Convention,
    pub lang: Lang,
}

/// The question, then (once answered) the comparison, which is computed
/// only from then on (not on every edit of a page that has not opened it).
/// The lab's question (predict, then reveal).
pub const QUESTION: Fixed = Fixed {
    name: "scoring",
    title: LabText::LabScoringTitle,
    lead: LabText::LabScoringLead,
    question: LabText::LabScoringQuestion,
    answers: [
        Answer::Key(LabText::AnswerYes),
        Answer::Key(LabText::AnswerNo),
    ],
    right: 1,
    explanation: LabText::LabScoringExplain,
};

/// The lab, as the labs mount it (a function: see `scaling::lab`).
pub fn lab(c: &LabCtx) -> Html {
    QUESTION.frame(
        c.lang,
        html! { <ScoringBody trace={c.trace.clone()} convention={c.convention} lang={c.lang} /> },
    )
}

/// The three ways side by side and the additive network's parameters.
#[component]
fn ScoringBody(p: &ScoringLabProps) -> Html {
    let lang = p.lang;
    let d_k = p.trace.heads.first().map_or(1, |h| h.q.ncols());
    let params = use_state(|| Additive::seeded(d_k, 1));
    let error = use_state(|| None::<String>);
    // A new d_k (the scenario changed shape): new seeded parameters.
    let a = if params.fits(d_k) {
        (*params).clone()
    } else {
        Additive::seeded(d_k, 1)
    };
    let Some(c) = compare(&p.trace, 0, &a) else {
        return html! {};
    };
    let edit = |which: usize, i: usize, j: usize| {
        let (params, error, a) = (params.clone(), error.clone(), a.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            else {
                return;
            };
            match parse_number(&input.value()) {
                Ok(v) => {
                    let mut next = a.clone();
                    let m = match which {
                        0 => &mut next.w_a,
                        1 => &mut next.u_a,
                        _ => &mut next.v_a,
                    };
                    m[(i, j)] = v;
                    input.set_attribute("aria-invalid", "false").ok();
                    error.set(None);
                    params.set(next);
                }
                Err(_) => {
                    input.set_attribute("aria-invalid", "true").ok();
                    error.set(Some(input.value()));
                }
            }
        })
    };
    let editor = |which: usize, name: &'static str, m: &Matrix| {
        html! {
            <table class="mini editable" data-param={name}>
                <caption>{ name }</caption>
                <tbody>
                    { for (0..m.nrows()).map(|i| html! {
                        <tr>
                            { for (0..m.ncols().min(SHOWN)).map(|j| html! {
                                <td data-row={i.to_string()} data-col={j.to_string()} data-value={m[(i, j)].to_string()}>
                                    <input value={short(m[(i, j)])} aria-label={format!("{name} {} {}", i + 1, j + 1)} onchange={edit(which, i, j)} />
                                </td>
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        }
    };
    let cost = |key: LabText, n: usize| format!("{} {}", key.t(lang), n);
    let col = p.convention == Convention::Col;
    let way = |id: &'static str,
               title: LabText,
               formula: &'static str,
               costs: String,
               s: &Scored| {
        html! {
            <div class="way" data-way={id}>
                <h3>{ title.t(lang) }</h3>
                <p class="formula">{ formula }</p>
                <p class="cost">{ costs }</p>
                <p class="what">{ if col { LabText::LabScoresCol.t(lang) } else { LabText::LabScores.t(lang) } }</p>
                { mini(&s.scores, "scores", false, col, None) }
                <p class="what">{ LabText::LabWeights.t(lang) }</p>
                { mini(&s.weights, "weights", true, col, None) }
                <p class="what">{ LabText::LabOutputs.t(lang) }</p>
                { mini(&s.output, "output", false, col, None) }
            </div>
        }
    };
    let k = c.costs;
    html! {
            <>
                <div class="scoring-ways">
                    { way("dot", LabText::LabDot, if col { "α(i,j) = (kʲ)ᵀqⁱ" } else { "α(i,j) = qⁱ·kʲ" }, cost(LabText::LabMadds, k.dot), &c.dot) }
                    { way("scaled", LabText::LabScaledDot, if col { "α(i,j) = (kʲ)ᵀqⁱ / √d_k" } else { "α(i,j) = qⁱ·kʲ / √d_k" }, format!("{}; {}", cost(LabText::LabMadds, k.dot), cost(LabText::LabDivisions, k.divisions)), &c.scaled) }
                    { way("additive", LabText::LabAdditive, "α(i,j) = w_aᵀ·tanh(W_a·qⁱ + U_a·kʲ)", format!("{}; {}", cost(LabText::LabMadds, k.additive), cost(LabText::LabTanh, k.tanh)), &c.additive) }
                </div>
                <div class="lab-controls params">
                    <p>{ LabText::LabParams.t(lang) }</p>
                    { editor(0, "W_a", &a.w_a) }
                    { editor(1, "U_a", &a.u_a) }
                    { editor(2, "w_aᵀ", &a.v_a) }
                    if let Some(text) = &*error {
                        <p class="field-error" role="alert">{ format!("{} ({text})", LabText::LabBadNumber.t(lang)) }</p>
                    }
                </div>
                <p class="note">{ LabText::LabScoringWhy.t(lang) }</p>
            </>
    }
}
