//! Everything one head computes: projections (editable), Q/K/V, scores,
//! scaling, mask, weights and the head's output. Cells of the scores,
//! weights and outputs can be selected to see their derivation.

use crate::app::collapse::{Collapse, Content};
use crate::app::i18n::{Lang, MapText, PageText};
use crate::app::matrix::{index_labels, view, MatrixProps, Role};
use crate::app::state::Selected;
use crate::attention::{HeadTrace, HeadWeights, Matrix, Positional, Scenario, Trace};
use crate::lesson::edit::{layer_weights, Edit, Target, Weight};
use crate::lesson::formulas::{formula_with, FormulaOptions};
use crate::lesson::names::{Convention, MatrixName};
use nalgebra::DMatrix;
use std::rc::Rc;
use yew::prelude::*;

/// One head's weights, trace and how to show them. Cheap to clone: the
/// scenario and trace are shared, the head is `index` in them.
#[derive(Clone)]
pub struct HeadProps {
    /// 0-based.
    pub index: usize,
    /// The head's layer, 0-based (docs/format.md §1b).
    pub layer: usize,
    /// Layers stack: every matrix carries its `data-layer`.
    pub stacked: bool,
    pub scenario: Rc<Scenario>,
    /// The layer's trace.
    pub trace: Rc<Trace>,
    pub tokens: Rc<Vec<String>>,
    pub allowed: Rc<DMatrix<bool>>,
    pub undefined_rows: Rc<Vec<usize>>,
    pub scale: bool,
    pub has_w_o: bool,
    /// One-hot positions give the projections d_model + n rows.
    pub positional: Positional,
    /// Start with the intermediates collapsed (large scenarios).
    pub collapsed: bool,
    pub convention: Convention,
    pub selected: Option<Selected>,
    /// Absent when the page is locked (`?lock=1`).
    pub on_edit: Option<Callback<Edit>>,
    pub on_select: Callback<Selected>,
    pub lang: Lang,
}

impl HeadProps {
    fn weights(&self) -> &HeadWeights {
        let (heads, _, _) = layer_weights(&self.scenario, self.layer).expect("the head's layer");
        &heads[self.index]
    }

    fn head(&self) -> &HeadTrace {
        &self.trace.heads[self.index]
    }

    /// One matrix of this head.
    fn view(
        &self,
        name: MatrixName,
        matrix: &Matrix,
        caption: PageText,
        role: Role,
        rows: Rc<Vec<String>>,
        cols: Rc<Vec<String>>,
    ) -> Html {
        let p = self;
        let lang = p.lang;
        let target = match name {
            MatrixName::WQ => Some(Weight::WQ(p.index)),
            MatrixName::WK => Some(Weight::WK(p.index)),
            MatrixName::WV => Some(Weight::WV(p.index)),
            _ => None,
        }
        .map(|w| Target::W(p.layer, w));
        // Derivations follow layer 1 (what `lesson::derive` reads).
        let derivable = p.layer == 0
            && matches!(
                name,
                MatrixName::Scores
                    | MatrixName::Scaled
                    | MatrixName::Weights
                    | MatrixName::HeadOutput
            );
        let selected = p
            .selected
            .filter(|s| derivable && s.name == name && s.head == p.index)
            .map(|s| (s.row, s.col));
        let mut mp = MatrixProps::new(
            name,
            matrix.clone(),
            formula_with(
                name,
                FormulaOptions {
                    conv: p.convention,
                    scale: p.scale,
                    has_w_o: p.has_w_o,
                    masked: true,
                    pe: p.positional,
                    head: None,
                },
            ),
            caption.t(lang).into(),
            role,
            rows,
            cols,
            lang,
        );
        mp.head = Some(p.index + 1);
        mp.layer = p.stacked.then_some(p.layer + 1);
        mp.transpose = p.convention == Convention::Col;
        mp.allowed =
            matches!(name, MatrixName::Scaled | MatrixName::Weights).then(|| p.allowed.clone());
        if matches!(name, MatrixName::Weights | MatrixName::HeadOutput) {
            mp.undefined_rows = p.undefined_rows.clone();
        }
        mp.target = target;
        mp.on_edit = target.and(p.on_edit.clone());
        mp.on_select = derivable.then(|| p.on_select.clone());
        mp.selected = selected;
        view(mp)
    }
}

/// W_Q, W_K and W_V of the head (editable).
fn projections(p: &HeadProps) -> Html {
    let w = p.weights();
    let (d_model, d_k, d_v) = (w.w_q.nrows(), w.w_q.ncols(), w.w_v.ncols());
    html! {
        <>
            { p.view(MatrixName::WQ, &w.w_q, PageText::CapWq, Role::Query, index_labels(d_model), index_labels(d_k)) }
            { p.view(MatrixName::WK, &w.w_k, PageText::CapWk, Role::Key, index_labels(d_model), index_labels(d_k)) }
            { p.view(MatrixName::WV, &w.w_v, PageText::CapWv, Role::Value, index_labels(d_model), index_labels(d_v)) }
        </>
    }
}

/// Q, K and V.
fn qkv(p: &HeadProps) -> Html {
    let t = p.head();
    let (d_k, d_v, tok) = (t.q.ncols(), t.v.ncols(), &p.tokens);
    html! {
        <>
            { p.view(MatrixName::Q, &t.q, PageText::CapQ, Role::Query, tok.clone(), index_labels(d_k)) }
            { p.view(MatrixName::K, &t.k, PageText::CapK, Role::Key, tok.clone(), index_labels(d_k)) }
            { p.view(MatrixName::V, &t.v, PageText::CapV, Role::Value, tok.clone(), index_labels(d_v)) }
        </>
    }
}

/// Scores, scaled scores, weights and the head's output.
fn attention(p: &HeadProps) -> Html {
    let t = p.head();
    let (d_v, tok) = (t.v.ncols(), &p.tokens);
    let by_convention = |row: PageText, col: PageText| {
        if p.convention == Convention::Col {
            col
        } else {
            row
        }
    };
    html! {
        <>
            { p.view(MatrixName::Scores, &t.scores, by_convention(PageText::CapScores, PageText::CapScoresCol), Role::Score, tok.clone(), tok.clone()) }
            { p.view(MatrixName::Scaled, &t.scaled, if p.scale { PageText::CapScaled } else { PageText::CapScaledOff }, Role::Score, tok.clone(), tok.clone()) }
            { p.view(MatrixName::Weights, &t.weights, by_convention(PageText::CapWeights, PageText::CapWeightsCol), Role::Weight, tok.clone(), tok.clone()) }
            { p.view(MatrixName::HeadOutput, &t.output, PageText::CapHeadOutput, Role::Output, tok.clone(), index_labels(d_v)) }
        </>
    }
}

/// One head (a plain function: it holds no state of its own). Each section
/// builds its matrices only while it is open.
pub fn head_view(p: &HeadProps) -> Html {
    let lang = p.lang;
    let number = p.index + 1;
    let section = |build: fn(&HeadProps) -> Html| {
        let p = p.clone();
        Content::new(move || build(&p))
    };
    html! {
        <article class="head" aria-label={format!("{} {}", MapText::HeadHeading.t(lang), number)}>
            <h2>{ format!("{} {}", MapText::HeadHeading.t(lang), number) }</h2>
            <Collapse title={PageText::ProjectionsHeading.t(lang)} collapsed={p.collapsed} lang={lang} content={section(projections)} />
            <Collapse title={PageText::QkvHeading.t(lang)} collapsed={p.collapsed} lang={lang} content={section(qkv)} />
            <Collapse title={PageText::AttentionHeading.t(lang)} collapsed={p.collapsed} lang={lang} content={section(attention)} />
        </article>
    }
}
