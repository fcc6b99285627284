//! The `masks` lab (docs/figures.md F9; note `000` §6.1–6.3, note `001`): the
//! scenario's mask as an `n × n` grid to click or drag over (keyboard:
//! arrows, then Enter or Space), presets named by the model whose reach
//! they give attention (full = global attention, causal = what an RNN has
//! read so far, window = a CNN's receptive field, padding, graph = a GNN's
//! neighbours; the weights are still attention's own), and a graph editor
//! whose adjacency becomes the mask. Every change is an edit of the
//! scenario: the workbench, the share link and undo follow. The grid math
//! is `crate::lesson::labs::masks`.

use super::graph::{graph, Graph};
use super::predict::Lab;
use super::LabCtx;
use super::{mini, number_field};
use crate::app::i18n::{fill, CommonText, LabText, Lang};
use crate::app::Shared;
use crate::attention::{compute, Mask, Scenario, Trace};
use crate::lesson::edit::Edit;
use crate::lesson::grid::{step_clamped, Move};
use crate::lesson::labs::masks::{
    blind_rows, edges, grid, named, painted, self_loops, star, toggle_edge, with_self_loops, Grid,
};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The graph editor draws up to this many nodes.
const GRAPH_MAX: usize = 16;

#[derive(Properties, PartialEq)]
pub struct MasksLabProps {
    pub scenario: Rc<Scenario>,
    pub trace: Rc<Trace>,
    /// `None` on a locked page: the mask is shown, not editable.
    pub on_edit: Option<Callback<Edit>>,
    pub lang: Lang,
}

/// The pair the question asks about, 0-based: the first key hidden from a
/// query other than itself in the mask on screen (`true`), or, when nothing
/// is hidden, query 1 and key 2 (`false`: the question asks the reader to
/// hide it).
fn asked_pair(t: &Trace) -> (usize, usize, bool) {
    let n = t.n();
    // Hidden pairs in the part of the table the lab shows.
    let shown = n.min(super::SHOWN);
    let hidden: Vec<(usize, usize)> = (0..shown)
        .flat_map(|i| (0..shown).map(move |j| (i, j)))
        .filter(|&(i, j)| !t.allowed[(i, j)])
        .collect();
    match hidden
        .iter()
        .find(|&&(i, j)| i != j)
        .or(hidden.first())
        .copied()
    {
        Some((i, j)) => (i, j, true),
        None => (0, 1.min(n.saturating_sub(1)), false),
    }
}

/// The lab, as the labs mount it (a function: see `scaling::lab`).
pub fn lab(p: &LabCtx) -> Html {
    let lang = p.lang;
    // The question is posed about the mask on screen, and its answer cites
    // the weight the table below shows.
    let (i, j, hidden) = asked_pair(&p.trace);
    let (qi, kj) = ((i + 1).to_string(), (j + 1).to_string());
    let (question, explanation) = if hidden {
        (
            fill(LabText::LabMasksQuestion.t(lang), &[&qi, &kj]),
            fill(LabText::LabMasksExplain.t(lang), &[&qi, &kj]),
        )
    } else {
        let w = crate::lesson::format::short(p.trace.heads[0].weights[(i, j)]);
        (
            fill(LabText::LabMasksQuestionOpen.t(lang), &[&qi, &kj]),
            fill(LabText::LabMasksExplainOpen.t(lang), &[&qi, &kj, &w]),
        )
    };
    html! {
        <Lab name="masks" title={LabText::LabMasksTitle.t(lang)} lead={LabText::LabMasksLead.t(lang)}
            question={question} right={1}
            answers={vec![AttrValue::from(LabText::LabMasksSmall.t(lang)), AttrValue::from(LabText::LabMasksZero.t(lang))]}
            explanation={explanation} lang={lang}>
                <MasksBody scenario={p.scenario.clone()} trace={p.trace.clone()} on_edit={p.on_edit.clone()} lang={lang} />
            </Lab>
    }
}

/// The mask to store for a grid: its name when it has one (short links,
/// the controls' menu shows it), the grid itself otherwise.
fn mask_of(g: Grid) -> Mask {
    named(&g).unwrap_or(Mask::Custom(g))
}

fn mask_name(m: &Option<Mask>, lang: Lang) -> String {
    match m {
        Some(Mask::None) => LabText::LabMaskFull.t(lang).to_string(),
        Some(Mask::Causal) => LabText::LabMaskCausal.t(lang).to_string(),
        Some(Mask::Window(w)) => format!("{} (W = {w})", LabText::LabMaskWindow.t(lang)),
        Some(Mask::Padding(l)) => format!("{} (L = {l})", LabText::LabMaskPadding.t(lang)),
        _ => LabText::LabMaskCustom.t(lang).to_string(),
    }
}

#[component]
fn MasksBody(p: &MasksLabProps) -> Html {
    let lang = p.lang;
    let s = &p.scenario;
    let n = s.n();
    let current = grid(&s.mask, n);
    // While a drag paints: the grid so far and the value painted.
    let preview = use_state(|| None::<Grid>);
    let painting = use_mut_ref(|| None::<bool>);
    let focus = use_state(|| (0usize, 0usize));
    let picked = use_state(|| None::<usize>);
    let window = use_state(|| 1usize);
    let padding = use_state(|| n.saturating_sub(1).max(1));
    let table = use_node_ref();
    let shown = (*preview).clone().unwrap_or_else(|| current.clone());
    let editable = p.on_edit.is_some();
    let commit = {
        let on_edit = p.on_edit.clone();
        move |g: Grid| {
            if let Some(e) = &on_edit {
                e.emit(Edit::Mask(mask_of(g)));
            }
        }
    };
    let set_mask = |m: Mask| {
        let on_edit = p.on_edit.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(e) = &on_edit {
                e.emit(Edit::Mask(m.clone()));
            }
        })
    };

    // Pointer: press paints one cell and starts a drag; entering other
    // cells paints them; release (or leaving the grid) commits once.
    let down = |i: usize, j: usize| {
        let (preview, painting, current, focus) = (
            preview.clone(),
            painting.clone(),
            current.clone(),
            focus.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            e.prevent_default();
            // A finger's pointer stays captured by the cell it went down on
            // (implicit touch capture), so no other cell would see it enter:
            // released, a drag paints with a finger as with a mouse.
            if e.pointer_type() != "mouse" {
                if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                    let _ = el.release_pointer_capture(e.pointer_id());
                }
            }
            let on = !current[i][j];
            *painting.borrow_mut() = Some(on);
            focus.set((i, j));
            preview.set(Some(painted(&current, &[(i, j)], on)));
        })
    };
    let enter = |i: usize, j: usize| {
        let (preview, painting) = (preview.clone(), painting.clone());
        Callback::from(move |_: PointerEvent| {
            let Some(on) = *painting.borrow() else { return };
            if let Some(g) = &*preview {
                if g[i][j] != on {
                    preview.set(Some(painted(g, &[(i, j)], on)));
                }
            }
        })
    };
    let finish = {
        let (preview, painting, commit) = (preview.clone(), painting.clone(), commit.clone());
        Callback::from(move |_: PointerEvent| {
            if painting.borrow_mut().take().is_some() {
                if let Some(g) = (*preview).clone() {
                    commit(g);
                }
                preview.set(None);
            }
        })
    };
    // Keyboard: a roving focus over the cells.
    let key = {
        let (focus, table, current, commit) = (
            focus.clone(),
            table.clone(),
            current.clone(),
            commit.clone(),
        );
        Callback::from(move |e: KeyboardEvent| {
            let (i, j) = *focus;
            let key = e.key();
            if key == " " || key == "Enter" {
                e.prevent_default();
                commit(painted(&current, &[(i, j)], !current[i][j]));
                return;
            }
            let Some(m) = Move::of_key(&key) else { return };
            let next = step_clamped((i, j), m, n, n);
            e.prevent_default();
            focus.set(next);
            if let Some(el) = table
                .cast::<web_sys::Element>()
                .and_then(|t| {
                    t.query_selector(&format!(
                        "button[data-row=\"{}\"][data-col=\"{}\"]",
                        next.0, next.1
                    ))
                    .ok()
                    .flatten()
                })
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = el.focus();
            }
        })
    };
    let grid_view = html! {
        <table class={classes!("mask-grid", (n > 16).then_some("dense"))} ref={table.clone()} role="grid"
            aria-label={LabText::LabMaskGridLabel.t(lang)} onpointerup={finish.clone()} onpointerleave={finish} onkeydown={key}>
            <thead><tr><th></th>{ for s.tokens.iter().enumerate().map(|(j, t)| html! { <th scope="col" title={t.clone()}>{ j + 1 }</th> }) }</tr></thead>
            <tbody>
                { for (0..n).map(|i| html! {
                    <tr>
                        <th scope="row" title={s.tokens[i].clone()}>{ format!("{} {}", i + 1, s.tokens[i]) }</th>
                        { for (0..n).map(|j| {
                            let on = shown[i][j];
                            html! {
                                <td>
                                    <button data-row={i.to_string()} data-col={j.to_string()} data-value={on.to_string()}
                                        class={if on { "on" } else { "off" }} aria-pressed={on.to_string()} disabled={!editable}
                                        tabindex={if *focus == (i, j) { "0" } else { "-1" }}
                                        aria-label={format!("{} {} → {} {}", CommonText::QueryWord.t(lang), s.tokens[i], CommonText::KeyWord.t(lang), s.tokens[j])}
                                        onpointerdown={down(i, j)} onpointerenter={enter(i, j)} />
                                </td>
                            }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    };

    // The graph: click two nodes to add or remove the edge between them.
    let on_node = editable.then(|| {
        let (picked, current, commit) = (picked.clone(), current.clone(), commit.clone());
        Callback::from(move |a: usize| match *picked {
            Some(b) if b != a => {
                picked.set(None);
                commit(toggle_edge(&current, a, b));
            }
            Some(_) => picked.set(None),
            None => picked.set(Some(a)),
        })
    });
    let loops = self_loops(&current);
    let toggle_loops = {
        let (current, commit) = (current.clone(), commit.clone());
        Callback::from(move |_: Event| commit(with_self_loops(&current, !loops)))
    };
    let graph_view = if n <= GRAPH_MAX {
        html! {
            <figure class="graph">
                { graph(&Graph {
                    edges: edges(&current),
                    names: s.tokens.iter().map(|t| AttrValue::from(t.clone())).collect(),
                    node_word: LabText::LabNode.t(lang).into(),
                    picked: *picked,
                    no_loop: (0..n).map(|k| !current[k][k]).collect(),
                    weights: None,
                    on_node,
                }) }
                <figcaption>
                    { LabText::LabGraphHow.t(lang) }
                    <label class="inline"><input type="checkbox" checked={loops} disabled={!editable} onchange={toggle_loops} />{ LabText::LabSelfLoops.t(lang) }</label>
                </figcaption>
            </figure>
        }
    } else {
        html! { <p class="note">{ LabText::LabGraphTooBig.t(lang) }</p> }
    };

    // Before and after, on the first head.
    // Once per scenario, not on every cell a drag paints.
    let before = use_memo(Shared(s.clone()), |s| {
        compute(&Scenario {
            mask: Mask::None,
            ..(*s.0).clone()
        })
        .ok()
    });
    let hidden = p.trace.allowed.map(|a| !a);
    let blind = blind_rows(&current);
    let set_w = {
        let window = window.clone();
        Callback::from(move |v: usize| window.set(v))
    };
    let set_l = {
        let padding = padding.clone();
        Callback::from(move |v: usize| padding.set(v))
    };
    let max_w = n.saturating_sub(1).max(1);
    html! {
        <>
            <div class="lab-controls mask-presets" role="group" aria-label={LabText::LabMaskPresets.t(lang)}>
                <button data-preset="full" disabled={!editable} onclick={set_mask(Mask::None)}>{ LabText::LabMaskFull.t(lang) }</button>
                <button data-preset="causal" disabled={!editable} onclick={set_mask(Mask::Causal)}>{ LabText::LabMaskCausal.t(lang) }</button>
                <span class="preset-with">
                    <button data-preset="window" disabled={!editable} onclick={set_mask(Mask::Window((*window).min(max_w)))}>{ LabText::LabMaskWindow.t(lang) }</button>
                    { number_field("lab-mask-w", "W", (*window).min(max_w), max_w, set_w) }
                </span>
                <span class="preset-with">
                    <button data-preset="padding" disabled={!editable} onclick={set_mask(Mask::Padding((*padding).min(n)))}>{ LabText::LabMaskPadding.t(lang) }</button>
                    { number_field("lab-mask-l", "L", (*padding).min(n), n, set_l) }
                </span>
                <button data-preset="graph" disabled={!editable} onclick={set_mask(mask_of(star(n)))}>{ LabText::LabMaskGraph.t(lang) }</button>
            </div>
            <p class="mask-name" data-mask-name="">{ format!("{} {}", LabText::LabMaskIs.t(lang), mask_name(&named(&current), lang)) }</p>
            if !editable { <p class="note">{ LabText::LabLocked.t(lang) }</p> }
            <div class="lab-row mask-editors">
                <figure class="grid-figure">
                    { grid_view }
                    <figcaption>{ LabText::LabGridHow.t(lang) }</figcaption>
                </figure>
                { graph_view }
            </div>
            if !blind.is_empty() {
                <p class="field-error" role="status" data-blind={blind.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",")}>
                    { format!("{} {}", LabText::LabBlindRows.t(lang), blind.iter().map(|&i| s.tokens[i].clone()).collect::<Vec<_>>().join(", ")) }
                </p>
            }
            <div class="lab-row before-after">
                if let Some(b) = &*before {
                    <figure><figcaption>{ LabText::LabWeightsNoMask.t(lang) }</figcaption>{ mini(&b.heads[0].weights, "before", true, false, None) }</figure>
                }
                <figure><figcaption>{ LabText::LabWeightsMasked.t(lang) }</figcaption>{ mini(&p.trace.heads[0].weights, "after", true, false, Some(&hidden)) }</figure>
            </div>
            <p class="note">{ LabText::LabMasksWhy.t(lang) }</p>
        </>
    }
}
