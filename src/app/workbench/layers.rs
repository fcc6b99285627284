//! Stacked layers in the workbench (note 000 §3.2, docs/format.md §1b):
//! each layer's own controls (its heads, d_k, d_v, W_O, the residual and
//! removing it) and the button that adds one.

use super::controls::{checkbox, NumberField};
use super::head::{head_view, HeadProps};
use crate::app::collapse::{Collapse, Content};
use crate::app::i18n::{fill, Lang, PageText};
use crate::app::matrix::look::Look;
use crate::app::matrix::{index_labels, view, Role};
use crate::app::state::{Layers, Selected};
use crate::app::Shared;
use crate::attention::{Positional, Scenario, MAX_LAYERS};
use crate::lesson::edit::{layer_weights, Dim, Edit, Target, Weight};
use crate::lesson::formulas::{layer_input_formula, layer_output_formula};
use crate::lesson::names::{Convention, MatrixName};
use std::rc::Rc;
use yew::prelude::*;

/// Layer `l`'s (0-based) controls: the residual with its formula, and, for
/// a layer after the first, its sizes and W_O (layer 1's are the page's
/// shape controls); removing it when there is another.
pub fn layer_controls(s: &Scenario, l: usize, on_edit: &Callback<Edit>, lang: Lang) -> Html {
    let Some((heads, w_o, residual)) = layer_weights(s, l) else {
        return Html::default();
    };
    let number = l + 1;
    let field = |dim: Dim, label: PageText, value: usize| {
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
                    { field(Dim::Heads, PageText::DimHeads, heads.len()) }
                    { field(Dim::DK, PageText::DimDK, first.map_or(0, |w| w.w_q.ncols())) }
                    { field(Dim::DV, PageText::DimDV, first.map_or(0, |w| w.w_v.ncols())) }
                    { checkbox(format!("layer-{number}-w-o"), w_o.is_some(), PageText::WoToggle.t(lang), on_edit,
                        move |on| Edit::LayerOutputProjection { layer: l, on }) }
                </div>
            }
            <div class="fields">
                { checkbox(format!("layer-{number}-residual"), residual, PageText::ResidualToggle.t(lang), on_edit,
                    move |on| Edit::Residual { layer: l, on }) }
                <span class="formula">{ Html::from_html_unchecked(AttrValue::from(layer_output_formula(number, residual, last))) }</span>
                if s.layers() > 1 {
                    <button class="remove-layer" data-control="remove-layer" onclick={remove}>
                        { PageText::RemoveLayer.t(lang) }
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
            disabled={s.layers() >= MAX_LAYERS}>{ PageText::AddLayer.t(lang) }</button>
    }
}

/// "Layer l" (1-based).
pub fn layer_heading(l: usize, lang: Lang) -> String {
    fill(PageText::LayerHeading.t(lang), &[&l.to_string()])
}

/// What layer `l`'s (0-based) section of the workbench shows.
#[derive(Clone, PartialEq)]
pub struct LayerView {
    pub scenario: Shared<Scenario>,
    pub stack: Shared<Layers>,
    pub l: usize,
    pub convention: Convention,
    pub lang: Lang,
    /// Start with the intermediates collapsed (large scenarios).
    pub collapsed: bool,
    /// No inputs (`?lock=1`).
    pub locked: bool,
    pub selected: Option<Selected>,
}

#[derive(Properties, PartialEq)]
pub struct LayerSectionProps {
    pub view: LayerView,
    pub on_edit: Callback<Edit>,
    pub on_select: Callback<Selected>,
}

/// Layer `l`'s section: its heading and controls, its input (after the
/// first), its heads, their combination and its output. It follows an
/// edit a frame later while it is off screen (`hooks::use_when_seen`):
/// four layers of 8 heads are over a hundred components, a few ms of an
/// edit's frame (docs/performance.md, "An edit at n = 64 in its frame").
#[component]
pub fn LayerSection(p: &LayerSectionProps) -> Html {
    let node = use_node_ref();
    let view = crate::app::hooks::use_when_seen(node.clone(), p.view.clone());
    html! {
        <LayerBody {view} on_edit={p.on_edit.clone()} on_select={p.on_select.clone()} {node} />
    }
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    view: LayerView,
    on_edit: Callback<Edit>,
    on_select: Callback<Selected>,
    /// The section, watched by [`LayerSection`].
    node: NodeRef,
}

#[component]
fn LayerBody(p: &BodyProps) -> Html {
    let v = &p.view;
    let (s, l, lang, conv, collapsed, locked) = (
        &v.scenario.0,
        v.l,
        v.lang,
        v.convention,
        v.collapsed,
        v.locked,
    );
    let Some((heads, w_o, residual)) = layer_weights(s, l) else {
        return Html::default();
    };
    let first = &v.stack.traces[0];
    let trace = v.stack.traces[l].clone();
    let tokens = Rc::new(first.tokens.clone());
    let undefined = Rc::new(first.undefined_rows.clone());
    let allowed = Rc::new(first.allowed.clone());
    let stacked = s.layers() > 1 || s.residual;
    let has_w_o = w_o.is_some();
    let number = l + 1;
    let layer = stacked.then_some(number);
    let on_edit = (!locked).then(|| p.on_edit.clone());
    // Props of one of this layer's matrices, in the current convention.
    let look = Look {
        conv,
        scale: s.scale,
        has_w_o,
        lang,
    };
    let lprops = |name, m, caption, role, rows, cols| {
        let mut p = look.props(name, m, caption, role, rows, cols);
        p.layer = layer;
        p
    };
    html! {
        <section class={classes!("layer", stacked.then_some("stacked"))} data-layer-section={layer.map(|l| l.to_string())}
            aria-label={stacked.then(|| layer_heading(number, lang))} ref={p.node.clone()}>
            if stacked {
                <h2 class="layer-heading">{ layer_heading(number, lang) }</h2>
                if let Some(on_edit) = &on_edit {
                    { layer_controls(s, l, on_edit, lang) }
                }
            }
            if l > 0 {
                <Collapse title={fill(PageText::LayerInputTitle.t(lang), &[&number.to_string(), &crate::lesson::timeline::subscript(number)])} collapsed={collapsed} lang={lang}
                    content={{
                        let cap = fill(PageText::LayerReads.t(lang), &[&number.to_string()]);
                        let mut p = lprops(MatrixName::X, &trace.input, cap.into(), Role::Input, tokens.clone(), index_labels(trace.input.ncols()));
                        p.formula = layer_input_formula(number).into();
                        Content::new(move || view(p.clone()))
                    }} />
            }
            { for (0..heads.len()).map(|r| head_view(&HeadProps {
                index: r, layer: l, stacked, scenario: s.clone(), trace: trace.clone(), tokens: tokens.clone(),
                allowed: allowed.clone(), undefined_rows: undefined.clone(), scale: s.scale,
                has_w_o, positional: if l == 0 { s.positional } else { Positional::None }, collapsed, convention: conv, selected: v.selected,
                on_edit: on_edit.clone(), on_select: p.on_select.clone(), lang,
            })) }
            if heads.len() > 1 || has_w_o {
                <Collapse title={PageText::CombineHeading.t(lang)} collapsed={collapsed} lang={lang}>
                    { view({
                        let mut p = lprops(MatrixName::Concat, &trace.concat, PageText::CapConcat.t(lang).into(), Role::Output, tokens.clone(), index_labels(trace.concat.ncols()));
                        p.undefined_rows = undefined.clone();
                        p
                    }) }
                    if let Some(w_o) = w_o {
                        { view({
                            let mut p = lprops(MatrixName::WO, w_o, PageText::CapWo.t(lang).into(), Role::Param, index_labels(w_o.nrows()), index_labels(w_o.ncols()));
                            p.target = Some(Target::W(l, Weight::WO));
                            p.on_edit = on_edit.clone();
                            p
                        }) }
                    }
                </Collapse>
            }
            if stacked {
                <Collapse title={fill(PageText::LayerOutputTitle.t(lang), &[&number.to_string(), &crate::lesson::timeline::subscript(number)])} collapsed={collapsed} lang={lang}
                    content={{
                        let o = &v.stack.outputs[l];
                        let cap = if residual { PageText::CapLayerOutputResidual } else { PageText::CapLayerOutputPlain };
                        let mut p = lprops(MatrixName::LayerOutput, o, cap.t(lang).into(), Role::Output, tokens.clone(), index_labels(o.ncols()));
                        p.formula = layer_output_formula(number, residual, number == s.layers()).into();
                        p.undefined_rows = undefined.clone();
                        Content::new(move || view(p.clone()))
                    }} />
            }
        </section>
    }
}
