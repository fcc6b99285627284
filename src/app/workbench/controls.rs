//! Shape and options: the dimensions (n, d_model, d_k, d_v, h), scaling,
//! the mask, positional encoding and W_O. Each control commits on change; a
//! value out of range is refused next to the field and nothing changes.

use crate::app::i18n::{Lang, PageText};
use crate::attention::{Mask, Positional, Scenario};
use crate::lesson::edit::{Dim, Edit};
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

fn input_value(e: &Event) -> String {
    e.target()
        .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

fn select_value(e: &Event) -> String {
    e.target()
        .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

#[derive(Properties, PartialEq)]
pub struct NumberFieldProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: usize,
    pub min: usize,
    pub max: usize,
    pub on_commit: Callback<usize>,
    pub lang: Lang,
}

/// A whole-number field that refuses, in place, what is out of range (the
/// refused text stays in the field, beside its message), and keeps what the
/// reader is typing through any render until it is committed.
#[component]
pub fn NumberField(p: &NumberFieldProps) -> Html {
    let error = use_state(|| None::<String>);
    let onchange = {
        let (error, on_commit, min, max, lang) =
            (error.clone(), p.on_commit.clone(), p.min, p.max, p.lang);
        Callback::from(move |e: Event| {
            let text = input_value(&e);
            match text.trim().parse::<usize>() {
                Ok(v) if (min..=max).contains(&v) => {
                    error.set(None);
                    on_commit.emit(v);
                }
                _ => error.set(Some(format!(
                    "«{text}»: {} {min}–{max}. {}",
                    PageText::ErrRange.t(lang),
                    PageText::NothingChanged.t(lang)
                ))),
            }
        })
    };
    let err_id = format!("{}-error", p.id);
    let field = crate::app::hooks::use_input_value(p.value.to_string().into());
    html! {
        <label class="field" for={p.id.clone()}>
            <span>{ p.label.clone() }</span>
            <input ref={field} id={p.id.clone()} type="number" min={p.min.to_string()} max={p.max.to_string()} step="1"
                onchange={onchange}
                aria-invalid={error.is_some().then_some("true")}
                aria-describedby={error.is_some().then(|| err_id.clone())} />
            if let Some(msg) = &*error {
                <span class="field-error" id={err_id} role="alert">{ msg.clone() }</span>
            }
        </label>
    }
}

/// A labelled checkbox whose change emits `make(checked)`.
pub fn checkbox(
    id: String,
    checked: bool,
    label: &str,
    on_edit: &Callback<Edit>,
    make: impl Fn(bool) -> Edit + 'static,
) -> Html {
    let on_edit = on_edit.clone();
    let onchange = Callback::from(move |e: Event| {
        let on = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            .is_some_and(|i| i.checked());
        on_edit.emit(make(on));
    });
    html! {
        <label class="check" for={id.clone()}>
            <input id={id} type="checkbox" checked={checked} onchange={onchange} />
            <span>{ label.to_string() }</span>
        </label>
    }
}

/// What the controls show and where their edits go.
pub struct ControlsProps {
    pub scenario: std::rc::Rc<Scenario>,
    pub on_edit: Callback<Edit>,
    pub lang: Lang,
}

/// The controls (a plain function: it holds no state of its own).
pub fn controls(p: &ControlsProps) -> Html {
    let lang = p.lang;
    let s = &p.scenario;
    let dim_field = |dim: Dim, id: &'static str, label: PageText| {
        let on_edit = p.on_edit.clone();
        let (min, max) = dim.range();
        html! {
            <NumberField id={id} label={label.t(lang)} value={dim.of(s)} min={min} max={max} lang={lang}
                on_commit={Callback::from(move |size| on_edit.emit(Edit::Resize { dim, size }))} />
        }
    };
    let toggle = |checked: bool, label: PageText, id: &'static str, make: fn(bool) -> Edit| {
        checkbox(id.into(), checked, label.t(lang), &p.on_edit, make)
    };
    let n = s.n();
    let mask_kind = match &s.mask {
        Mask::None => "none",
        Mask::Causal => "causal",
        Mask::Padding(_) => "padding",
        Mask::Window(_) => "window",
        Mask::Custom(_) => "custom",
    };
    let on_mask_kind = {
        let on_edit = p.on_edit.clone();
        let current = s.mask.clone();
        Callback::from(move |e: Event| {
            // "custom" is only offered when the scenario already has one.
            let mask = match select_value(&e).as_str() {
                "causal" => Mask::Causal,
                "padding" => Mask::Padding(n.saturating_sub(1).max(1)),
                "window" => Mask::Window(1),
                "custom" => current.clone(),
                _ => Mask::None,
            };
            on_edit.emit(Edit::Mask(mask));
        })
    };
    let mask_param = match &s.mask {
        Mask::Padding(l) => {
            let on_edit = p.on_edit.clone();
            html! { <NumberField id="mask-padding" label={PageText::MaskParamL.t(lang)} value={*l} min={0} max={n} lang={lang}
            on_commit={Callback::from(move |v| on_edit.emit(Edit::Mask(Mask::Padding(v))))} /> }
        }
        Mask::Window(w) => {
            let on_edit = p.on_edit.clone();
            html! { <NumberField id="mask-window" label={PageText::MaskParamW.t(lang)} value={*w} min={0} max={crate::attention::MAX_N} lang={lang}
            on_commit={Callback::from(move |v| on_edit.emit(Edit::Mask(Mask::Window(v))))} /> }
        }
        _ => html! {},
    };
    let on_positional = {
        let on_edit = p.on_edit.clone();
        Callback::from(move |e: Event| {
            let pos = match select_value(&e).as_str() {
                "sinusoidal" => Positional::Sinusoidal,
                "onehot" => Positional::OneHot,
                _ => Positional::None,
            };
            on_edit.emit(Edit::Positional(pos));
        })
    };
    let option = |value: &'static str, label: PageText, current: &str| {
        html! { <option value={value} selected={value == current}>{ label.t(lang) }</option> }
    };
    let positional = s.positional.code();
    html! {
        <section class="controls" aria-labelledby="controls-heading">
            <h2 id="controls-heading">{ PageText::ShapeHeading.t(lang) }</h2>
            <div class="fields">
                { dim_field(Dim::N, "dim-n", PageText::DimN) }
                { dim_field(Dim::DModel, "dim-d-model", PageText::DimDModel) }
                { dim_field(Dim::DK, "dim-d-k", PageText::DimDK) }
                { dim_field(Dim::DV, "dim-d-v", PageText::DimDV) }
                { dim_field(Dim::Heads, "dim-heads", PageText::DimHeads) }
            </div>
            <div class="fields">
                { toggle(s.scale, PageText::ScaleToggle, "opt-scale", Edit::Scale) }
                { toggle(s.w_o.is_some(), PageText::WoToggle, "opt-w-o", Edit::OutputProjection) }
                <label class="field" for="opt-mask">
                    <span>{ PageText::MaskLabel.t(lang) }</span>
                    <select id="opt-mask" onchange={on_mask_kind}>
                        { option("none", PageText::MaskNone, mask_kind) }
                        { option("causal", PageText::MaskCausal, mask_kind) }
                        { option("padding", PageText::MaskPadding, mask_kind) }
                        { option("window", PageText::MaskWindow, mask_kind) }
                        if mask_kind == "custom" {
                            { option("custom", PageText::MaskCustom, mask_kind) }
                        }
                    </select>
                </label>
                { mask_param }
                <label class="field" for="opt-positional">
                    <span>{ PageText::PositionalLabel.t(lang) }</span>
                    <select id="opt-positional" onchange={on_positional}>
                        { option("none", PageText::PositionalNone, positional) }
                        { option("sinusoidal", PageText::PositionalSin, positional) }
                        { option("onehot", PageText::PositionalOneHot, positional) }
                    </select>
                </label>
            </div>
        </section>
    }
}
