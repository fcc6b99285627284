//! The `positions` lab (docs/figures.md F8; note `000` §5.2, note `001`): without
//! positions attention cannot tell order. 我喜欢你 and 你喜欢我 side by
//! side; the current scenario's tokens shuffled (a button, drag, or click
//! two tokens to swap them) with the engine's check "rows equal after
//! un-shuffling"; the sinusoidal encoding as a heatmap. The math is
//! `crate::lesson::labs::positions` over the engine.

use super::predict::{Answer, Fixed};
use super::LabCtx;
use super::{keep_setting, setting};
use crate::app::i18n::{LabText, Lang};
use crate::attention::{sinusoidal, Mask, Matrix, Positional, Scenario};
use crate::lesson::edit::{apply, Edit};
use crate::lesson::format::short;
use crate::lesson::heatmap::{hex, Scale};
use crate::lesson::labs::positions::{compare, sentence_pair, shuffle, Comparison};
use std::rc::Rc;
use yew::prelude::*;

/// The heatmap's positions and dimensions.
const PE_POSITIONS: usize = 32;
const PE_DIMS: usize = 32;
const PE_CELL: f64 = 9.0;
/// The encodings the shuffle check can compare against "none".
const PE_OPTIONS: [Positional; 2] = [Positional::Sinusoidal, Positional::OneHot];

/// An order as the address writes it: `2,0,1`.
fn order_text(order: &[usize]) -> String {
    order
        .iter()
        .map(|o| o.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The order `2,0,1` reads as, if it is a permutation of `0..n`.
fn order_of(text: &str, n: usize) -> Option<Vec<usize>> {
    let order: Vec<usize> = text
        .split(',')
        .map(|o| o.parse().ok())
        .collect::<Option<_>>()?;
    let mut seen = vec![false; n];
    for &o in &order {
        if o >= n || std::mem::replace(&mut seen[o], true) {
            return None;
        }
    }
    (order.len() == n).then_some(order)
}

#[derive(Properties, PartialEq)]
pub struct PositionsLabProps {
    pub scenario: Rc<Scenario>,
    pub lang: Lang,
}

/// The lab's question (predict, then reveal).
pub const QUESTION: Fixed = Fixed {
    name: "positions",
    title: LabText::LabPositionsTitle,
    lead: LabText::LabPositionsLead,
    question: LabText::LabPositionsQuestion,
    answers: [
        Answer::Key(LabText::LabPositionsChanges),
        Answer::Key(LabText::LabPositionsMoves),
    ],
    right: 1,
    explanation: LabText::LabPositionsExplain,
};

/// The lab, as the labs mount it (a function: see `scaling::lab`).
pub fn lab(c: &LabCtx) -> Html {
    QUESTION.frame(
        c.lang,
        html! { <PositionsBody scenario={c.scenario.clone()} lang={c.lang} /> },
    )
}

fn positional_name(pe: Positional, lang: Lang) -> &'static str {
    match pe {
        Positional::None => LabText::LabNoPe.t(lang),
        Positional::Sinusoidal => LabText::LabWithPe.t(lang),
        Positional::OneHot => LabText::LabWithOneHot.t(lang),
    }
}

/// `s` with positions of kind `pos`, its projections resized the way the
/// workbench does it (one-hot adds a row per position to W_Q, W_K, W_V).
fn with_positions(s: &Scenario, pos: Positional) -> Option<Scenario> {
    apply(s, &Edit::Positional(pos), 1).ok()
}

/// "equal: yes (largest difference …)" for one comparison.
fn verdict(c: &Comparison, lang: Lang) -> String {
    let word = if c.equal {
        LabText::AnswerYesPlain
    } else {
        LabText::AnswerNoPlain
    };
    format!(
        "{} {} ({} {})",
        LabText::LabRowsEqual.t(lang),
        word.t(lang),
        LabText::LabLargestDiff.t(lang),
        short(c.max_diff)
    )
}

/// A read-only table of outputs, one row per token (first 4 columns).
fn outputs(tokens: &[String], m: &Matrix, name: &'static str, hl: Option<usize>) -> Html {
    let cols = m.ncols().min(4);
    html! {
        <table class="lab-table outputs" data-outputs={name}>
            <tbody>
                { for (0..m.nrows()).map(|i| html! {
                    <tr class={classes!((hl == Some(i)).then_some("now"))}>
                        <th scope="row">{ tokens[i].clone() }</th>
                        { for (0..cols).map(|c| html! {
                            <td data-row={i.to_string()} data-col={c.to_string()} data-value={m[(i, c)].to_string()}>{ short(m[(i, c)]) }</td>
                        }) }
                        if m.ncols() > cols { <td>{ "⋯" }</td> }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

#[component]
fn PositionsBody(p: &PositionsLabProps) -> Html {
    let lang = p.lang;
    // The address keeps the encoding compared and the order shown.
    let pe = use_state(|| {
        setting::<String>("positions.pe", |_| true)
            .and_then(|c| PE_OPTIONS.iter().copied().find(|o| o.code() == c))
            .unwrap_or(Positional::Sinusoidal)
    });
    let n = p.scenario.n();
    let perm = use_state(|| {
        setting::<String>("positions.order", |_| true)
            .and_then(|o| order_of(&o, n))
            .unwrap_or_else(|| shuffle(n, 1))
    });
    let seed = use_state(|| 1u64);
    // A chip picked for swapping (click one, then another), or dragged.
    let picked = use_state(|| None::<usize>);
    let dragged = use_mut_ref(|| None::<usize>);
    let order: Vec<usize> = if perm.len() == n {
        (*perm).clone()
    } else {
        shuffle(n, *seed)
    };

    // 1. The pair, one sentence reordered into the other.
    let mut pair = sentence_pair();
    if lang == Lang::En {
        pair.tokens = vec!["I".into(), "like".into(), "you".into()];
    }
    let sep = if lang == Lang::En { " " } else { "" };
    let pair_check = |pos: Positional| compare(&with_positions(&pair, pos)?, &[2, 1, 0]);
    let reversed_tokens: Vec<String> = [2, 1, 0].iter().map(|&o| pair.tokens[o].clone()).collect();
    let pair_view = |pos: Positional| match pair_check(pos) {
        Some(c) => html! {
            <div class="pair" data-pair={pos.code()} data-equal={c.equal.to_string()}>
                <h4>{ positional_name(pos, lang) }</h4>
                <div class="lab-row">
                    <figure><figcaption>{ pair.tokens.join(sep) }</figcaption>{ outputs(&pair.tokens, &c.original, "first", Some(0)) }</figure>
                    <figure><figcaption>{ reversed_tokens.join(sep) }</figcaption>{ outputs(&reversed_tokens, &c.reordered, "second", Some(2)) }</figure>
                </div>
                <p class="pair-verdict">{ format!("{} {}", pair.tokens[0], if c.equal { LabText::LabSameOutput.t(lang) } else { LabText::LabOtherOutput.t(lang) }) }</p>
            </div>
        },
        None => html! {},
    };

    // 2. The current scenario shuffled (no mask: a mask is tied to places).
    let base = Scenario {
        mask: Mask::None,
        ..(*p.scenario).clone()
    };
    let check = |pos: Positional| compare(&with_positions(&base, pos)?, &order);
    let reshuffle = {
        let (perm, seed, picked) = (perm.clone(), seed.clone(), picked.clone());
        Callback::from(move |_: MouseEvent| {
            let next = *seed + 1;
            seed.set(next);
            let order = shuffle(n, next);
            keep_setting("positions.order", order_text(&order));
            perm.set(order);
            picked.set(None);
        })
    };
    let unshuffle = {
        let (perm, picked) = (perm.clone(), picked.clone());
        Callback::from(move |_: MouseEvent| {
            let order: Vec<usize> = (0..n).collect();
            keep_setting("positions.order", order_text(&order));
            perm.set(order);
            picked.set(None);
        })
    };
    let swap = {
        let (perm, order) = (perm.clone(), order.clone());
        move |a: usize, b: usize| {
            let mut next = order.clone();
            next.swap(a, b);
            keep_setting("positions.order", order_text(&next));
            perm.set(next);
        }
    };
    let chip_click = |place: usize| {
        let (picked, swap) = (picked.clone(), swap.clone());
        Callback::from(move |_: MouseEvent| match *picked {
            Some(a) if a != place => {
                swap(a, place);
                picked.set(None);
            }
            Some(_) => picked.set(None),
            None => picked.set(Some(place)),
        })
    };
    let drag_start = |place: usize| {
        let dragged = dragged.clone();
        Callback::from(move |_: DragEvent| *dragged.borrow_mut() = Some(place))
    };
    let drop_on = |place: usize| {
        let (dragged, swap, picked) = (dragged.clone(), swap.clone(), picked.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if let Some(a) = dragged.borrow_mut().take() {
                if a != place {
                    swap(a, place);
                }
                picked.set(None);
            }
        })
    };
    let allow_drop = Callback::from(|e: DragEvent| e.prevent_default());
    let choose_pe = |v: Positional| {
        let pe = pe.clone();
        Callback::from(move |_: Event| {
            keep_setting("positions.pe", v.code());
            pe.set(v)
        })
    };
    let checks = [Positional::None, *pe].map(|pos| {
        let id = pos.code();
        match check(pos) {
            Some(c) => html! {
                <div class="order-check" data-check={id} data-equal={c.equal.to_string()}>
                    <h4>{ positional_name(pos, lang) }</h4>
                    { outputs(&base.tokens, &c.original, "original", None) }
                    <p class="what">{ LabText::LabShuffledOutputs.t(lang) }</p>
                    { outputs(&order.iter().map(|&o| base.tokens[o].clone()).collect::<Vec<_>>(), &c.reordered, "shuffled", None) }
                    <p class={classes!("verdict-line", if c.equal { "yes" } else { "no" })}>{ verdict(&c, lang) }</p>
                </div>
            },
            None => html! { <p class="note">{ LabText::LabShuffleUnavailable.t(lang) }</p> },
        }
    });

    // 3. The encoding itself.
    let table = sinusoidal(PE_POSITIONS, PE_DIMS);
    let (w, h) = (PE_DIMS as f64 * PE_CELL, PE_POSITIONS as f64 * PE_CELL);
    let region = (
        (p.scenario.d_model().min(PE_DIMS) as f64) * PE_CELL,
        (n.min(PE_POSITIONS) as f64) * PE_CELL,
    );
    html! {
        <>
            <h3>{ LabText::LabPairTitle.t(lang) }</h3>
            <div class="lab-row pairs">
                { pair_view(Positional::None) }
                { pair_view(*pe) }
            </div>
            <h3>{ LabText::LabShuffleTitle.t(lang) }</h3>
            <p class="note">{ LabText::LabShuffleHow.t(lang) }</p>
            <div class="lab-controls">
                <div class="chips" role="group" aria-label={LabText::LabOrder.t(lang)} data-order={order_text(&order)}>
                    { for order.iter().enumerate().map(|(place, &o)| html! {
                        <button class="chip" draggable="true" data-place={place.to_string()}
                            aria-pressed={(*picked == Some(place)).to_string()}
                            onclick={chip_click(place)} ondragstart={drag_start(place)}
                            ondragover={allow_drop.clone()} ondrop={drop_on(place)}>
                            { base.tokens[o].clone() }
                        </button>
                    }) }
                </div>
                <button class="shuffle" onclick={reshuffle}>{ LabText::LabShuffle.t(lang) }</button>
                <button class="unshuffle" onclick={unshuffle}>{ LabText::LabOriginalOrder.t(lang) }</button>
                if PE_OPTIONS.len() > 1 {
                    <fieldset class="pe-choice">
                        <legend>{ LabText::LabCompareWith.t(lang) }</legend>
                        { for PE_OPTIONS.iter().map(|&o| html! {
                            <label><input type="radio" name="lab-pe" value={o.code()} checked={*pe == o} onchange={choose_pe(o)} />{ positional_name(o, lang) }</label>
                        }) }
                    </fieldset>
                }
            </div>
            <div class="lab-row checks">{ for checks }</div>
            <h3>{ LabText::LabPeTitle.t(lang) }</h3>
            <p class="formula">{ "PE(p, 2k) = sin(p / 10000^(2k/d_model)),  PE(p, 2k+1) = cos(p / 10000^(2k/d_model))" }</p>
            <figure class="pe-map">
                <svg data-pe-map="" viewBox={format!("0 0 {w} {h}")} width={w.to_string()} height={h.to_string()} role="img" aria-label={LabText::LabPeMapLabel.t(lang)}>
                    { for (0..PE_POSITIONS).flat_map(|r| (0..PE_DIMS).map(move |c| (r, c))).map(|(r, c)| {
                        let v = table[(r, c)];
                        html! { <rect x={(c as f64 * PE_CELL).to_string()} y={(r as f64 * PE_CELL).to_string()} width={PE_CELL.to_string()} height={PE_CELL.to_string()} fill={hex(Scale::Difference.colour(v))} /> }
                    }) }
                    <rect class="current" x="0" y="0" width={region.0.to_string()} height={region.1.to_string()} fill="none" stroke="#111" stroke-width="2" />
                </svg>
                <figcaption>{ format!("{} (n = {n}, d_model = {})", LabText::LabPeMapCaption.t(lang), p.scenario.d_model()) }</figcaption>
            </figure>
            <p class="note">{ LabText::LabAddVsConcat.t(lang) }</p>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_in_the_address_round_trips_and_must_be_a_permutation() {
        let order = vec![2, 0, 1];
        assert_eq!(order_text(&order), "2,0,1");
        assert_eq!(order_of("2,0,1", 3), Some(order));
        for bad in ["2,0", "2,0,0", "0,1,3", "a,0,1", "", "0,1,2,3"] {
            assert_eq!(order_of(bad, 3), None, "{bad}");
        }
    }
}
