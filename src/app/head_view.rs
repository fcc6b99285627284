//! Everything one head computes: projections, Q/K/V, scores, scaling, mask,
//! weights and the head's output.

use super::collapse::Collapse;
use super::i18n::{Lang, S};
use super::matrix::{index_labels, MatrixView, Role};
use crate::attention::{HeadTrace, HeadWeights};
use nalgebra::DMatrix;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HeadProps {
    /// 1-based.
    pub number: usize,
    pub weights: HeadWeights,
    pub trace: HeadTrace,
    pub tokens: Rc<Vec<String>>,
    pub allowed: Rc<DMatrix<bool>>,
    pub undefined_rows: Rc<Vec<usize>>,
    pub scale: bool,
    pub divisor: f64,
    /// Start with the intermediates collapsed (large scenarios).
    pub collapsed: bool,
    pub lang: Lang,
}

#[component]
pub fn HeadView(p: &HeadProps) -> Html {
    let lang = p.lang;
    let head = Some(p.number);
    let t = &p.trace;
    let (d_model, d_k, d_v) = (p.weights.w_q.nrows(), t.q.ncols(), t.v.ncols());
    let m = |name: &'static str,
             matrix: &crate::attention::Matrix,
             formula: String,
             caption: S,
             role: Role,
             rows: Rc<Vec<String>>,
             cols: Rc<Vec<String>>| {
        html! {
            <MatrixView name={name} head={head} matrix={matrix.clone()} formula={formula}
                caption={caption.t(lang)} role={role} row_labels={rows} col_labels={cols} lang={lang}
                allowed={matches!(name, "scaled" | "weights").then(|| p.allowed.clone())}
                undefined_rows={if matches!(name, "weights" | "head_output") { p.undefined_rows.clone() } else { Rc::default() }} />
        }
    };
    let tok = p.tokens.clone();
    let scaled_formula = if p.scale {
        format!(
            "scores / √d_k  (√{d_k} = {})",
            crate::lesson::format::short(p.divisor)
        )
    } else {
        "scores  (÷1)".to_string()
    };
    html! {
        <article class="head" aria-label={format!("{} {}", S::HeadHeading.t(lang), p.number)}>
            <h2>{ format!("{} {}", S::HeadHeading.t(lang), p.number) }</h2>
            <Collapse title={S::ProjectionsHeading.t(lang)} collapsed={p.collapsed} lang={lang}>
                { m("w_q", &p.weights.w_q, "W_Q".into(), S::CapWq, Role::Query, index_labels(d_model), index_labels(d_k)) }
                { m("w_k", &p.weights.w_k, "W_K".into(), S::CapWk, Role::Key, index_labels(d_model), index_labels(d_k)) }
                { m("w_v", &p.weights.w_v, "W_V".into(), S::CapWv, Role::Value, index_labels(d_model), index_labels(d_v)) }
            </Collapse>
            <Collapse title={S::QkvHeading.t(lang)} collapsed={p.collapsed} lang={lang}>
                { m("q", &t.q, "Q = X · W_Q".into(), S::CapQ, Role::Query, tok.clone(), index_labels(d_k)) }
                { m("k", &t.k, "K = X · W_K".into(), S::CapK, Role::Key, tok.clone(), index_labels(d_k)) }
                { m("v", &t.v, "V = X · W_V".into(), S::CapV, Role::Value, tok.clone(), index_labels(d_v)) }
            </Collapse>
            <Collapse title={S::AttentionHeading.t(lang)} collapsed={p.collapsed} lang={lang}>
                { m("scores", &t.scores, "scores = Q · Kᵀ".into(), S::CapScores, Role::Score, tok.clone(), tok.clone()) }
                { m("scaled", &t.scaled, scaled_formula, if p.scale { S::CapScaled } else { S::CapScaledOff }, Role::Score, tok.clone(), tok.clone()) }
                { m("weights", &t.weights, "A = softmax(scaled)".into(), S::CapWeights, Role::Weight, tok.clone(), tok.clone()) }
                { m("head_output", &t.output, "A · V".into(), S::CapHeadOutput, Role::Output, tok.clone(), index_labels(d_v)) }
            </Collapse>
        </article>
    }
}
