//! The hand-over between two layers: with the residual `X_l + B_l = O_l`,
//! then `O_l`, which is `X_{l+1}`, and its caption, formula and highlights.

use crate::app::i18n::{fill, Lang, PageText};
use crate::lesson::format::{exact, short};
use crate::lesson::formulas::{layer_input_formula, layer_output_formula};
use crate::lesson::timeline::subscript;
use crate::lesson::tour::Beat;
use yew::prelude::*;

use super::*;

/// Rows and columns of a matrix the hand-over shows (the rest: "…").
const HANDOVER_ROWS: usize = 8;
const HANDOVER_COLS: usize = 10;

/// One matrix of the hand-over: its name, the first rows and columns with
/// their full values in `data-value`, in a role's colour.
fn handover_matrix(
    name: String,
    role: &'static str,
    m: &crate::attention::Matrix,
    data: &'static str,
    tokens: &[String],
) -> Html {
    let (rows, cols) = (m.nrows().min(HANDOVER_ROWS), m.ncols().min(HANDOVER_COLS));
    html! {
        <figure class={classes!("ho-matrix", role)} data-ho={data}>
            <figcaption>{ name }</figcaption>
            <table>
                { for (0..rows).map(|r| html! {
                    <tr>
                        <th scope="row">{ tokens.get(r).cloned().unwrap_or_default() }</th>
                        { for (0..cols).map(|c| html! {
                            <td data-row={r.to_string()} data-col={c.to_string()} data-value={exact(m[(r, c)])}>{ short(m[(r, c)]) }</td>
                        }) }
                        if cols < m.ncols() { <td class="more">{ "…" }</td> }
                    </tr>
                }) }
                if rows < m.nrows() { <tr><td class="more">{ "⋮" }</td></tr> }
            </table>
        </figure>
    }
}

/// The hand-over after layer `l`: with the residual, `X_l + B_l = O_l`;
/// then `O_l`, which is `X_{l+1}`.
pub(super) fn handover_figure(pb: &Playback, beat: Beat, height: f64) -> Html {
    let l = pb.layer;
    let trace = &pb.stack.traces[l];
    let out = &pb.stack.outputs[l];
    let tokens = &trace.tokens;
    let body = match beat {
        Beat::Residual => html! {
            <>
                { handover_matrix(format!("X{}", subscript(l + 1)), "role-input", &trace.input, "input", tokens) }
                <span class="ho-op">{ "+" }</span>
                { handover_matrix(format!("B{}", subscript(l + 1)), "role-output", &trace.output, "attention", tokens) }
                <span class="ho-op">{ "=" }</span>
                { handover_matrix(format!("O{}", subscript(l + 1)), "role-output", out, "output", tokens) }
            </>
        },
        Beat::Becomes => html! {
            <>
                { handover_matrix(format!("O{}", subscript(l + 1)), "role-output", out, "output", tokens) }
                <span class="ho-op">{ "→" }</span>
                { handover_matrix(format!("X{}", subscript(l + 2)), "role-input", &pb.stack.traces[l + 1].input, "next", tokens) }
            </>
        },
    };
    html! {
        <div class="handover" data-handover-beat={match beat { Beat::Residual => "residual", Beat::Becomes => "becomes" }}
            style={format!("min-height:{height}px")}>{ body }</div>
    }
}

/// The hand-over's caption, formula and workbench highlights.
pub(super) fn handover_text(pb: &Playback, beat: Beat, lang: Lang) -> (String, AttrValue, String) {
    let l = pb.layer;
    let (a, b) = ((l + 1).to_string(), (l + 2).to_string());
    let residual = pb.tour.residual.get(l).copied().unwrap_or(false);
    let last = l + 1 == pb.tour.steps.len();
    let out = format!("[data-matrix=\"layer_output\"][data-layer=\"{a}\"] td");
    let rule = "{background:color-mix(in srgb,var(--output) 24%,#fff);box-shadow:inset 0 0 0 3px var(--output)}";
    match beat {
        Beat::Residual => (
            fill(PageText::HandOverResidual.t(lang), &[&a, &subscript(l + 1)]),
            AttrValue::from(layer_output_formula(l + 1, residual, last)),
            format!("{out}{rule}\n"),
        ),
        Beat::Becomes => (
            fill(
                PageText::HandOverBecomes.t(lang),
                &[&a, &subscript(l + 1), &b, &subscript(l + 2)],
            ),
            AttrValue::from(layer_input_formula(l + 2)),
            format!("{out}{rule}\n[data-matrix=\"x\"][data-layer=\"{b}\"] td{rule}\n"),
        ),
    }
}
