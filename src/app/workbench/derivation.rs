//! "Show your work": the derivation of the selected cell, step by step, with
//! the actual numbers (computed by `lesson::derive`, rendered as MathML).

use crate::app::i18n::{Lang, PageText};
use crate::app::state::Selected;
use crate::attention::{Scenario, Trace};
use crate::lesson::derive::{derive, CellRef, StepKind};
use crate::lesson::format::exact;
use crate::lesson::names::{Convention, MatrixName};
use std::rc::Rc;
use yew::prelude::*;

/// The derivable cell a selection names, if any.
pub fn cell_ref(sel: &Selected) -> Option<CellRef> {
    let (head, i, j) = (sel.head, sel.row, sel.col);
    Some(match sel.name {
        MatrixName::Scores => CellRef::Scores { head, i, j },
        MatrixName::Scaled => CellRef::Scaled { head, i, j },
        MatrixName::Weights => CellRef::Weights { head, i, j },
        MatrixName::HeadOutput => CellRef::HeadOutput { head, i, c: j },
        MatrixName::Output => CellRef::Output { i, c: j },
        _ => return None,
    })
}

fn caption(kind: StepKind) -> PageText {
    match kind {
        StepKind::DotProduct => PageText::StepDotProduct,
        StepKind::Scale => PageText::StepScale,
        StepKind::Mask => PageText::StepMask,
        StepKind::Exp => PageText::StepExp,
        StepKind::Normaliser => PageText::StepNormaliser,
        StepKind::Weight => PageText::StepWeight,
        StepKind::WeightedSum => PageText::StepWeightedSum,
        StepKind::Projection => PageText::StepProjection,
        StepKind::Copy => PageText::StepCopy,
        StepKind::Undefined => PageText::StepUndefined,
    }
}

/// What the derivation panel shows.
pub struct DerivationProps {
    pub scenario: Rc<Scenario>,
    pub trace: Rc<Trace>,
    pub selected: Option<Selected>,
    pub convention: Convention,
    pub lang: Lang,
    pub on_close: Callback<MouseEvent>,
}

/// The panel (a plain function: it holds no state of its own).
pub fn derivation_panel(p: &DerivationProps) -> Html {
    let lang = p.lang;
    let derivation = p
        .selected
        .as_ref()
        .and_then(cell_ref)
        .and_then(|cell| derive(&p.scenario, &p.trace, cell, p.convention));
    let Some(d) = derivation else {
        return html! {
            <aside class="derivation empty" aria-labelledby="derivation-heading">
                <h2 id="derivation-heading">{ PageText::DerivationHeading.t(lang) }</h2>
                <p class="note">{ PageText::DerivationHint.t(lang) }</p>
            </aside>
        };
    };
    html! {
        <aside class="derivation" aria-labelledby="derivation-heading" aria-live="polite">
            <h2 id="derivation-heading">
                { PageText::DerivationHeading.t(lang) }
                <button class="close" onclick={p.on_close.clone()} aria-label={PageText::Close.t(lang)}>{ "×" }</button>
            </h2>
            <ol>
                { for d.steps.iter().map(|step| html! {
                    <li data-value={exact(step.value)}>
                        <p class="step-caption">{ caption(step.kind).t(lang) }</p>
                        { Html::from_html_unchecked(AttrValue::from(step.math.clone())) }
                    </li>
                }) }
            </ol>
            // The cell's full value: a mouse sees it as the cell's tooltip,
            // a finger (no hover) here.
            if let Some(v) = d.steps.last().map(|s| s.value).filter(|v| v.is_finite()) {
                <p class="exact">{ PageText::DerivationExact.t(lang) }{ " = " }<span class="num" data-exact={exact(v)}>{ exact(v) }</span></p>
            }
        </aside>
    }
}
