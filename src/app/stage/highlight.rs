//! The workbench's marks for a step of the walkthrough: one small `<style>`
//! keyed on the page contract's `data-matrix`, `data-head`, `data-row` and
//! `data-col`, so a reader finds the stage's numbers below it.

use crate::lesson::names::MatrixName;
use crate::lesson::timeline::{Cells, Highlight, Tone};
use std::fmt::Write;

/// How strongly a value row is tinted for weight `w`, in percent (12–90).
pub(super) fn tint_percent(w: f64) -> u32 {
    (12.0 + 78.0 * w.clamp(0.0, 1.0)).round() as u32
}

/// The selector of one matrix on the page: `[data-matrix="q"][data-head="1"]`
/// (`head` 0-based; ignored for matrices that belong to no head). When
/// layers stack, the stage walks layer `layer` (1-based): its matrices are
/// those with that `data-layer` (layer 1's inputs have none), and the
/// stage's output (the layer's attention output) is not the page's
/// `output`, so it has no selector.
pub(super) fn matrix_selector(
    m: MatrixName,
    head: Option<usize>,
    layer: Option<usize>,
) -> Option<String> {
    let mut sel = format!("[data-matrix=\"{}\"]", m.contract_name());
    if let (Some(r), true) = (head, m.per_head()) {
        let _ = write!(sel, "[data-head=\"{}\"]", r + 1);
    }
    if let Some(l) = layer {
        match m {
            // Layer 1 reads the scenario's own inputs (no data-layer).
            MatrixName::X | MatrixName::Pe | MatrixName::Input if l == 1 => {
                sel.push_str(":not([data-layer])")
            }
            MatrixName::Output => return None,
            _ => {
                let _ = write!(sel, "[data-layer=\"{l}\"]");
            }
        }
    }
    Some(sel)
}

/// The CSS that lights up `highlights` (see the module docs).
pub fn highlight_css(highlights: &[Highlight], layer: Option<usize>) -> String {
    let mut css = String::new();
    for h in highlights {
        let Some(mut sel) = matrix_selector(h.matrix, h.head, layer) else {
            continue;
        };
        match h.cells {
            Cells::All => sel.push_str(" td"),
            Cells::Row(r) => {
                let _ = write!(sel, " td[data-row=\"{r}\"]");
            }
            Cells::Col(c) => {
                let _ = write!(sel, " td[data-col=\"{c}\"]");
            }
            Cells::Cell(r, c) => {
                let _ = write!(sel, " td[data-row=\"{r}\"][data-col=\"{c}\"]");
            }
        }
        let rule = match (h.tone, h.weight) {
            // Weighted values are yellow (note 004), as strong as their weight.
            // (An integer percentage: no fixed-precision float formatting.)
            (_, Some(w)) => format!(
                "background:rgba(212,172,13,{}%);box-shadow:inset 0 0 0 2px var(--weighted)",
                tint_percent(w)
            ),
            (Tone::Source, None) => "box-shadow:inset 0 0 0 2px var(--role)".to_string(),
            // A fresh result in its own role's colour: yellow is for
            // weighted values only.
            (Tone::Result, None) => {
                "background:color-mix(in srgb,var(--role) 24%,#fff);box-shadow:inset 0 0 0 3px var(--role);font-weight:700"
                    .to_string()
            }
            (Tone::Masked, None) => {
                "box-shadow:inset 0 0 0 2px var(--alert);color:var(--alert)".to_string()
            }
        };
        let _ = writeln!(css, "{sel}{{{rule}}}");
        // The head's heatmap follows: the query being computed is outlined
        // (each head's heatmap has one hidden frame, `.heat-q`, placed by --q).
        if let (Some(r), MatrixName::Scores | MatrixName::Scaled | MatrixName::Weights) =
            (h.head, h.matrix)
        {
            let map = format!(".heat-canvas[data-heat-head=\"{}\"]", r + 1);
            // The model view's maps are every layer's: only this layer's.
            let map = match layer {
                Some(l) => format!("{map}:has([data-layer=\"{l}\"])"),
                None => map,
            };
            match h.cells {
                // Masked cells mark keys, not the query being computed (the
                // matrix-level mask step marks cells of every query).
                Cells::Row(q) | Cells::Cell(q, _) if h.tone != Tone::Masked => {
                    let _ = writeln!(css, "{map} .heat-q{{display:block;--q:{q}}}");
                }
                Cells::All => {
                    let _ = writeln!(
                        css,
                        "{map}{{outline:3px solid var(--weight);outline-offset:3px}}"
                    );
                }
                _ => {}
            }
        }
        if h.tone == Tone::Result {
            let whole = matrix_selector(h.matrix, h.head, layer).unwrap_or_default();
            let _ = writeln!(css, "{whole}{{box-shadow:0 0 0 3px var(--role)}}");
        }
    }
    css
}

/// The matrix a step computes (for its formula and to scroll it into view).
pub(super) fn result_matrix(hs: &[Highlight]) -> Option<(MatrixName, Option<usize>)> {
    hs.iter()
        .rev()
        .find(|h| h.tone == Tone::Result)
        .map(|h| (h.matrix, h.head))
}
