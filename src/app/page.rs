//! The whole page: header, the scenario summary, inputs, every head, the
//! combination of heads and the output.

use super::collapse::Collapse;
use super::effects;
use super::head_view::HeadView;
use super::i18n::{Lang, S};
use super::matrix::{index_labels, MatrixView, Role};
use super::state::{Action, Alert, State};
use super::url;
use crate::attention::{Mask, Positional, Scenario};
use std::rc::Rc;
use yew::prelude::*;

/// Scenarios with more positions than this open with intermediates collapsed.
const COLLAPSE_ABOVE_N: usize = 16;

fn mask_text(mask: &Mask, lang: Lang) -> String {
    match mask {
        Mask::None => S::MaskNone.t(lang).to_string(),
        Mask::Causal => S::MaskCausal.t(lang).to_string(),
        Mask::Padding(l) => format!("{} (L = {l})", S::MaskPadding.t(lang)),
        Mask::Window(w) => format!("{} (W = {w})", S::MaskWindow.t(lang)),
        Mask::Custom(_) => S::MaskCustom.t(lang).to_string(),
    }
}

fn summary(s: &Scenario, lang: Lang) -> Html {
    let dims = format!(
        "n = {}, d_model = {}, d_k = {}, d_v = {}, h = {}",
        s.n(),
        s.d_model(),
        s.d_k(),
        s.d_v(),
        s.heads.len()
    );
    let scale = if s.scale { S::ScaleOn } else { S::ScaleOff };
    let positional = match s.positional {
        Positional::None => S::PositionalNone,
        Positional::Sinusoidal => S::PositionalSin,
    };
    html! {
        <section class="summary" aria-label={S::ScenarioHeading.t(lang)}>
            <h2>{ S::ScenarioHeading.t(lang) }</h2>
            <ul>
                <li title={S::ScenarioSummary.t(lang)}>{ dims }</li>
                <li>{ scale.t(lang) }</li>
                <li>{ format!("{}: {}", S::MaskLabel.t(lang), mask_text(&s.mask, lang)) }</li>
                <li>{ format!("{}: {}", S::PositionalLabel.t(lang), positional.t(lang)) }</li>
            </ul>
        </section>
    }
}

fn alert_view(state: &State, on_dismiss: Callback<MouseEvent>) -> Html {
    let lang = state.lang;
    let mut messages = Vec::new();
    if let Some(Alert::BadLink(e)) = &state.alert {
        messages.push(format!("{} {}", S::BadLink.t(lang), e.message(lang)));
    }
    if !state.trace.undefined_rows.is_empty() {
        let rows: Vec<String> = state
            .trace
            .undefined_rows
            .iter()
            .map(|r| format!("{} ({})", r + 1, state.trace.tokens[*r]))
            .collect();
        messages.push(format!(
            "{} {}",
            S::UndefinedRowsAlert.t(lang),
            rows.join(", ")
        ));
    }
    if messages.is_empty() {
        return html! {};
    }
    html! {
        <div class="alert" role="alert">
            { for messages.into_iter().map(|m| html! { <p>{ m }</p> }) }
            if state.alert.is_some() {
                <button onclick={on_dismiss}>{ S::Dismiss.t(lang) }</button>
            }
        </div>
    }
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(|| {
        State::start(
            effects::initial_lang(),
            url::scenario_from_fragment(&effects::location_hash()),
        )
    });
    let lang = state.lang;

    use_effect_with(lang, |lang| {
        effects::remember_lang(*lang);
        effects::apply_lang(*lang, S::Title.t(*lang));
    });

    // A pasted share link in the same tab changes only the hash.
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo::events::EventListener::new(&w, "hashchange", move |_| {
                    match url::scenario_from_fragment(&effects::location_hash()) {
                        Some(Ok(s)) => state.dispatch(Action::Load(s)),
                        Some(Err(e)) => state.dispatch(Action::BadLink(e)),
                        None => {}
                    }
                })
            });
            move || drop(listener)
        });
    }

    let switch_lang = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::SetLang(state.lang.other())))
    };
    let dismiss = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::DismissAlert))
    };

    let s = &state.scenario;
    let t = &state.trace;
    let tokens = Rc::new(t.tokens.clone());
    let undefined = Rc::new(t.undefined_rows.clone());
    let allowed = Rc::new(t.allowed.clone());
    let collapsed = s.n() > COLLAPSE_ABOVE_N;
    let d_model = s.d_model();

    html! {
        <div class="page" lang={lang.code()}>
            <header class="top">
                <div>
                    <h1>{ S::Title.t(lang) }</h1>
                    <p class="tagline">{ S::Tagline.t(lang) }</p>
                </div>
                <button class="lang-switch" lang={lang.other().code()} onclick={switch_lang}>
                    { S::SwitchLang.t(lang) }
                </button>
            </header>
            { alert_view(&state, dismiss) }
            { summary(s, lang) }
            <section class="step inputs">
                <h2>{ S::InputsHeading.t(lang) }</h2>
                <div class="row-of-matrices">
                    <MatrixView name="x" matrix={s.x.clone()} formula="X" caption={S::CapX.t(lang)}
                        role={Role::Input} row_labels={tokens.clone()} col_labels={index_labels(d_model)} lang={lang} />
                    if let Some(pe) = &t.pe {
                        <MatrixView name="pe" matrix={pe.clone()} formula="PE" caption={S::CapPe.t(lang)}
                            role={Role::Input} row_labels={tokens.clone()} col_labels={index_labels(d_model)} lang={lang} />
                    }
                </div>
                if collapsed {
                    <p class="note">{ S::CollapsedNote.t(lang) }</p>
                }
            </section>
            { for s.heads.iter().zip(&t.heads).enumerate().map(|(r, (w, h))| html! {
                <HeadView number={r + 1} weights={w.clone()} trace={h.clone()} tokens={tokens.clone()}
                    allowed={allowed.clone()} undefined_rows={undefined.clone()}
                    scale={s.scale} divisor={t.divisor} collapsed={collapsed} lang={lang} />
            }) }
            if s.heads.len() > 1 || s.w_o.is_some() {
                <Collapse title={S::CombineHeading.t(lang)} collapsed={collapsed} lang={lang}>
                    <MatrixView name="concat" matrix={t.concat.clone()} formula="concat = [A₁V₁ … A_hV_h]"
                        caption={S::CapConcat.t(lang)} role={Role::Output} row_labels={tokens.clone()}
                        col_labels={index_labels(t.concat.ncols())} undefined_rows={undefined.clone()} lang={lang} />
                    if let Some(w_o) = &s.w_o {
                        <MatrixView name="w_o" matrix={w_o.clone()} formula="W_O" caption={S::CapWo.t(lang)}
                            role={Role::Param} row_labels={index_labels(w_o.nrows())}
                            col_labels={index_labels(w_o.ncols())} lang={lang} />
                    }
                </Collapse>
            }
            <section class="step outputs">
                <h2>{ S::OutputHeading.t(lang) }</h2>
                <div class="row-of-matrices">
                    <MatrixView name="output" matrix={t.output.clone()}
                        formula={if s.w_o.is_some() { "output = concat · W_O" } else { "output = concat" }}
                        caption={if s.w_o.is_some() { S::CapOutput.t(lang).to_string() } else { format!("{} {}", S::CapOutput.t(lang), S::CapOutputNoWo.t(lang)) }}
                        role={Role::Output} row_labels={tokens.clone()} col_labels={index_labels(t.output.ncols())}
                        undefined_rows={undefined.clone()} lang={lang} />
                </div>
            </section>
            <footer>{ S::Footer.t(lang) }</footer>
        </div>
    }
}
