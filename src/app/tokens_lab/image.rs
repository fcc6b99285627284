//! The image kind: an 8 × 8 greyscale image the reader draws on (or a
//! handwritten digit), cut into p × p patches; a patch clicked is the query
//! and every patch shows its weight (note 000 §5.3).

use super::state::{image_n, pixel_of, Msg, PATCHES};
use super::xgrid::XGrid;
use super::{weight_fill, KindProps};
use crate::app::i18n::{fill, Lang, TokensText};
use crate::app::labs::predict::Predict;
use crate::lesson::labs::tokens::{self, SIDE};
use yew::prelude::*;

/// The element a pointer event's handler is on.
fn current(e: &PointerEvent) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    e.current_target()?.dyn_into().ok()
}

/// A pixel's size on screen, px.
const PX: f64 = 24.0;

/// The question: how many tokens with another patch side (halved, or
/// doubled from the smallest).
fn question(p: usize, n: usize, lang: Lang) -> Html {
    let other = if p > 1 { p / 2 } else { p * 2 };
    let m = image_n(other);
    let mut answers = vec![m, n * 2, n / 2, n];
    answers.sort_unstable();
    answers.dedup();
    let right = answers.iter().position(|&a| a == m).unwrap_or(0);
    let (ns, ms) = (n.to_string(), m.to_string());
    html! {
        <Predict key={format!("{p}")} question={fill(TokensText::TokImageQuestion.t(lang), &[&p.to_string(), &ns, &other.to_string()])}
            answers={answers.iter().map(|a| AttrValue::from(a.to_string())).collect::<Vec<_>>()} right={right}
            explanation={fill(TokensText::TokImageExplain.t(lang), &[&ns, &ms, &(n * n).to_string(), &(m * m).to_string()])}
            words={TokensText::predict_words(lang)} />
    }
}

#[component]
pub fn ImageKind(k: &KindProps) -> Html {
    let (s, lang) = (&k.state, k.lang);
    let (p, n, q) = (s.patch, s.n(), s.query());
    let d = k.seen.x.ncols();
    // Drawing: the value a drag paints, set where it starts.
    let painting = use_mut_ref(|| None::<f64>);
    let pixel_at = |e: &PointerEvent| -> Option<usize> {
        let el = current(e)?;
        let r = el.get_bounding_client_rect();
        let col = ((e.client_x() as f64 - r.left()) / r.width() * SIDE as f64).floor();
        let row = ((e.client_y() as f64 - r.top()) / r.height() * SIDE as f64).floor();
        (col >= 0.0 && row >= 0.0 && col < SIDE as f64 && row < SIDE as f64)
            .then(|| row as usize * SIDE + col as usize)
    };
    let down = {
        let (painting, send, image) = (painting.clone(), k.send.clone(), s.image.clone());
        Callback::from(move |e: PointerEvent| {
            if let Some(i) = pixel_at(&e) {
                if let Some(el) = current(&e) {
                    let _ = el.set_pointer_capture(e.pointer_id());
                }
                let v = if image[i] < 0.5 { 1.0 } else { 0.0 };
                *painting.borrow_mut() = Some(v);
                send.emit(Msg::Paint(i, v));
            }
        })
    };
    let moved = {
        let (painting, send) = (painting.clone(), k.send.clone());
        Callback::from(move |e: PointerEvent| {
            if let (Some(v), Some(i)) = (*painting.borrow(), pixel_at(&e)) {
                send.emit(Msg::Paint(i, v));
            }
        })
    };
    let up = {
        let painting = painting.clone();
        Callback::from(move |_: PointerEvent| *painting.borrow_mut() = None)
    };
    let side = SIDE as f64 * PX;
    let pixels = |class: &'static str| {
        html! {
            <g class={class}>
                { for s.image.iter().enumerate().map(|(i, v)| {
                    let g = (255.0 * (1.0 - v)).round();
                    html! { <rect x={((i % SIDE) as f64 * PX).to_string()} y={((i / SIDE) as f64 * PX).to_string()}
                        width={PX.to_string()} height={PX.to_string()} fill={format!("rgb({g},{g},{g})")} /> }
                }) }
            </g>
        }
    };
    let w = k.seen.weights.row(q);
    let max = w.iter().fold(0.0_f64, |m, v| m.max(*v));
    let pick = |i: usize| {
        let send = k.send.clone();
        Callback::from(move |_: MouseEvent| send.emit(Msg::Query(i)))
    };
    let key = |i: usize| {
        let send = k.send.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                send.emit(Msg::Query(i));
            }
        })
    };
    let patch_change = {
        let send = k.send.clone();
        Callback::from(move |e: Event| {
            if let Some(p) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| s.value().parse().ok())
            {
                send.emit(Msg::Patch(p));
            }
        })
    };
    let preset = |img: &'static [f64]| {
        let send = k.send.clone();
        Callback::from(move |_: MouseEvent| send.emit(Msg::Image(img.to_vec())))
    };
    let size = side.to_string();
    html! {
        <>
            <div class="lab-controls">
                <label>{ TokensText::TokPatch.t(lang) }{ " " }
                    <select data-control="patch" onchange={patch_change}>
                        { for PATCHES.into_iter().map(|v| html! { <option value={v.to_string()} selected={v == p}>{ v }</option> }) }
                    </select>
                </label>
                <span role="group" aria-label={TokensText::TokDigit.t(lang)}>
                    { TokensText::TokDigit.t(lang) }{ " " }
                    { for tokens::DIGITS.iter().enumerate().map(|(i, img)| html! {
                        <button data-digit={i.to_string()} onclick={preset(img)}>{ tokens::DIGIT_NAMES[i] }</button>
                    }) }
                    <button data-control="clear" onclick={preset(&tokens::BLANK)}>{ TokensText::TokClear.t(lang) }</button>
                </span>
            </div>
            <div class="lab-row tokens-image">
                <figure>
                    <figcaption>{ TokensText::TokImageTitle.t(lang) }</figcaption>
                    <svg data-image="" viewBox={format!("0 0 {side} {side}")} width={size.clone()} height={size.clone()}
                        style="touch-action:none" onpointerdown={down} onpointermove={moved} onpointerup={up.clone()} onpointercancel={up}>
                        { pixels("pixels") }
                    </svg>
                </figure>
                <figure>
                    <figcaption>{ TokensText::TokPatchesTitle.t(lang) }</figcaption>
                    <svg data-patches="" viewBox={format!("0 0 {side} {side}")} width={size.clone()} height={size}>
                        { pixels("pixels") }
                        { for (0..n).map(|i| {
                            let (r, c) = pixel_of(i, p);
                            let a = p as f64 * PX;
                            html! {
                                <rect class={classes!("patch", (i == q).then_some("query"))} data-patch={i.to_string()} data-weight={w[i].to_string()}
                                    x={(c as f64 * PX).to_string()} y={(r as f64 * PX).to_string()} width={a.to_string()} height={a.to_string()}
                                    fill={weight_fill(w[i], max)} onclick={pick(i)} onkeydown={key(i)}
                                    role="button" tabindex="0" aria-pressed={(i == q).to_string()}>
                                    <title>{ format!("{} {}: {:.4}", TokensText::TokPatchWord.t(lang), i + 1, w[i]) }</title>
                                </rect>
                            }
                        }) }
                    </svg>
                </figure>
                <XGrid x={k.seen.clone()} query={q} caption={TokensText::TokXTitle.t(lang)} />
            </div>
            <p data-count="">{ fill(TokensText::TokImageN.t(lang), &[&SIDE.to_string(), &p.to_string(), &n.to_string(), &(p * p).to_string(), &d.to_string()]) }</p>
            { question(p, n, lang) }
        </>
    }
}
