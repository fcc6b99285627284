//! Stacked layers in the workbench (note 000 §3.2, docs/format.md §1b):
//! each layer's own controls (its heads, d_k, d_v, W_O, the residual and
//! removing it) and the button that adds one.

use super::controls::{checkbox, NumberField};
use super::i18n::{fill, Lang, S};
use crate::attention::{Scenario, MAX_LAYERS};
use crate::lesson::edit::{layer_weights, Dim, Edit};
use crate::lesson::formulas::layer_output_formula;
use yew::prelude::*;

/// Layer `l`'s (0-based) controls: the residual with its formula, and, for
/// a layer after the first, its sizes and W_O (layer 1's are the page's
/// shape controls); removing it when there is another.
pub fn layer_controls(s: &Scenario, l: usize, on_edit: &Callback<Edit>, lang: Lang) -> Html {
    let Some((heads, w_o, residual)) = layer_weights(s, l) else {
        return Html::default();
    };
    let number = l + 1;
    let field = |dim: Dim, label: S, value: usize| {
        let on_edit = on_edit.clone();
        let (min, max) = dim.range();
        html! {
            <NumberField id={format!("layer-{number}-{}", label_id(dim))} label={label.t(lang)} value={value} min={min} max={max} lang={lang}
                on_commit={Callback::from(move |size| on_edit.emit(Edit::LayerResize { layer: l, dim, size }))} />
        }
    };
    let first = heads.first();
    let remove = {
        let on_edit = on_edit.clone();
        Callback::from(move |_: MouseEvent| on_edit.emit(Edit::RemoveLayer(l)))
    };
    let last = l + 1 == s.layers();
    html! {
        <div class="layer-controls" data-layer-controls={number.to_string()}>
            if l > 0 {
                <div class="fields">
                    { field(Dim::Heads, S::DimHeads, heads.len()) }
                    { field(Dim::DK, S::DimDK, first.map_or(0, |w| w.w_q.ncols())) }
                    { field(Dim::DV, S::DimDV, first.map_or(0, |w| w.w_v.ncols())) }
                    { checkbox(format!("layer-{number}-w-o"), w_o.is_some(), S::WoToggle.t(lang), on_edit,
                        move |on| Edit::LayerOutputProjection { layer: l, on }) }
                </div>
            }
            <div class="fields">
                { checkbox(format!("layer-{number}-residual"), residual, S::ResidualToggle.t(lang), on_edit,
                    move |on| Edit::Residual { layer: l, on }) }
                <span class="formula">{ Html::from_html_unchecked(AttrValue::from(layer_output_formula(number, residual, last))) }</span>
                if s.layers() > 1 {
                    <button class="remove-layer" data-control="remove-layer" onclick={remove}>
                        { S::RemoveLayer.t(lang) }
                    </button>
                }
            </div>
        </div>
    }
}

fn label_id(dim: Dim) -> &'static str {
    match dim {
        Dim::Heads => "heads",
        Dim::DK => "d-k",
        Dim::DV => "d-v",
        Dim::N => "n",
        Dim::DModel => "d-model",
    }
}

/// "Add a layer" (disabled at [`MAX_LAYERS`]).
pub fn add_layer_button(s: &Scenario, on_edit: &Callback<Edit>, lang: Lang) -> Html {
    let on_edit = on_edit.clone();
    let onclick = Callback::from(move |_: MouseEvent| on_edit.emit(Edit::AddLayer));
    html! {
        <button class="add-layer" data-control="add-layer" onclick={onclick}
            disabled={s.layers() >= MAX_LAYERS}>{ S::AddLayer.t(lang) }</button>
    }
}

/// "Layer l" (1-based).
pub fn layer_heading(l: usize, lang: Lang) -> String {
    fill(S::LayerHeading.t(lang), &[&l.to_string()])
}
