//! The workbench: the inputs, each layer's section (every head's
//! matrices, the heads' combination), the output and the derivation of the
//! selected cell. Every number a learner can edit or click is here.
//!
//! [`layers`] holds a layer's section, [`controls`] the scenario's settings
//! (shown above the heatmaps), [`derivation`] the panel that derives one
//! cell.

pub mod controls;
mod derivation;
mod head;
pub mod layers;

use super::i18n::{Lang, PageText};
use super::matrix::look::Look;
use super::matrix::{index_labels, view, Role};
use super::state::{Layers, Selected};
use super::Shared;
use crate::attention::{Positional, Scenario, Trace};
use crate::lesson::edit::{Edit, Target};
use crate::lesson::formulas::layer_output_formula;
use crate::lesson::names::{Convention, MatrixName};
use derivation::{derivation_panel, DerivationProps};
use layers::{add_layer_button, LayerSection, LayerView};
use std::rc::Rc;
use yew::prelude::*;

/// What the workbench shows, and where its edits and clicks go.
pub struct WorkbenchProps {
    pub scenario: Rc<Scenario>,
    pub stack: Rc<Layers>,
    /// Layer 1's trace (the derivations follow it).
    pub trace: Rc<Trace>,
    pub selected: Option<Selected>,
    pub convention: Convention,
    pub lang: Lang,
    /// Intermediates start collapsed (a large scenario).
    pub collapsed: bool,
    /// Numbers shown, not editable (`?lock=1`).
    pub locked: bool,
    pub on_edit: Callback<Edit>,
    pub on_select: Callback<Selected>,
    pub on_close: Callback<MouseEvent>,
}

/// The workbench (a plain function: its state is the page's).
pub fn workbench(p: &WorkbenchProps) -> Html {
    let (s, t, lang, conv) = (&p.scenario, &p.trace, p.lang, p.convention);
    let transpose = conv == Convention::Col;
    let tokens = Rc::new(t.tokens.clone());
    let d_model = s.d_model();
    let has_w_o = s.w_o.is_some();
    // Layers stack (or the one layer adds its input back): each layer gets
    // its own section, and its matrices their `data-layer`.
    let stacked = s.layers() > 1 || s.residual;
    let on_edit = (!p.locked).then(|| p.on_edit.clone());
    // Props of a matrix of this page, in the current convention.
    let look = Look {
        conv,
        scale: s.scale,
        has_w_o,
        lang,
    };
    let input = |name, m, cap: PageText, cols| {
        look.props(
            name,
            m,
            cap.t(lang).into(),
            Role::Input,
            tokens.clone(),
            cols,
        )
    };
    let x = {
        let cap = if transpose {
            PageText::CapXCol
        } else {
            PageText::CapX
        };
        let mut x = input(MatrixName::X, &s.x, cap, index_labels(d_model));
        x.target = Some(Target::X);
        x.on_edit = on_edit.clone();
        x.tokens_editable = true;
        x
    };
    let pe = match (t.positional, &t.pe) {
        (Positional::Sinusoidal, Some(pe)) => Some(input(
            MatrixName::Pe,
            pe,
            PageText::CapPe,
            index_labels(d_model),
        )),
        _ => None,
    };
    let one_hot = (t.positional == Positional::OneHot).then(|| {
        let cap = if transpose {
            PageText::CapInputOneHotCol
        } else {
            PageText::CapInputOneHot
        };
        // Columns 1…d_model, then e¹…eⁿ.
        let cols = (1..=d_model)
            .map(|c| c.to_string())
            .chain((1..=s.n()).map(|p| format!("e{}", crate::lesson::timeline::sup(p))))
            .collect();
        input(MatrixName::Input, &t.input, cap, Rc::new(cols))
    });
    let output = {
        let out = p.stack.output();
        let cap = if stacked {
            PageText::CapFinalOutput.t(lang).to_string()
        } else if has_w_o {
            PageText::CapOutput.t(lang).to_string()
        } else {
            format!(
                "{} {}",
                PageText::CapOutput.t(lang),
                PageText::CapOutputNoWo.t(lang)
            )
        };
        let mut o = look.props(
            MatrixName::Output,
            out,
            cap.into(),
            Role::Output,
            tokens.clone(),
            index_labels(out.ncols()),
        );
        o.undefined_rows = Rc::new(t.undefined_rows.clone());
        if stacked {
            o.formula =
                layer_output_formula(s.layers(), s.layers() == 1 && s.residual, true).into();
        } else {
            // A cell's derivation follows the one layer.
            o.on_select = Some(p.on_select.clone());
            o.selected = p
                .selected
                .filter(|sel| sel.name == MatrixName::Output)
                .map(|sel| (sel.row, sel.col));
        }
        o
    };
    html! {
        <div class="workbench">
            <div class="matrices">
                <section class="step inputs">
                    <h2>{ PageText::InputsHeading.t(lang) }</h2>
                    <div class="row-of-matrices">
                        { view(x) }
                        { for pe.map(view) }
                        { for one_hot.map(view) }
                    </div>
                    if p.collapsed {
                        <p class="note">{ PageText::CollapsedNote.t(lang) }</p>
                    }
                </section>
                if stacked && !p.locked {
                    <p class="note layers-intro">{ PageText::LayersIntro.t(lang) }</p>
                }
                // Each layer's section follows an edit a frame later
                // while it is off screen (layers::LayerSection).
                { for (0..s.layers()).map(|l| html! {
                    <LayerSection view={LayerView {
                        scenario: Shared(s.clone()), stack: Shared(p.stack.clone()), l, convention: conv, lang,
                        collapsed: p.collapsed, locked: p.locked, selected: p.selected,
                    }} on_edit={p.on_edit.clone()} on_select={p.on_select.clone()} />
                }) }
                if stacked && !p.locked {
                    { add_layer_button(s, &p.on_edit, lang) }
                }
                <section class="step outputs">
                    <h2>{ PageText::OutputHeading.t(lang) }</h2>
                    <div class="row-of-matrices">
                        { view(output) }
                    </div>
                    if !stacked && !p.locked {
                        { add_layer_button(s, &p.on_edit, lang) }
                    }
                </section>
            </div>
            { derivation_panel(&DerivationProps { scenario: s.clone(), trace: t.clone(),
                // Derivations follow layer 1; with layers stacked the
                // output is the last layer's, which has none.
                selected: p.selected.filter(|sel| !stacked || sel.name != MatrixName::Output),
                convention: conv, lang, on_close: p.on_close.clone() }) }
        </div>
    }
}
