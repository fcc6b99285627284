//! The value writer: after a render, the values of the shown cells that
//! changed are written into the table in one call (`fill_cells`), so new
//! values re-render no row and refused text stays where it was typed.

use super::grid::Grid;
use crate::attention::Matrix;
use crate::lesson::format::short;
use std::fmt::Write as _;
use std::rc::Rc;
use wasm_bindgen::prelude::wasm_bindgen;
use web_sys::Element;
use yew::prelude::*;

/// The cells a matrix last wrote values into: which window (rows, columns,
/// transposed, editable) and each cell's value bits and flags.
#[derive(Default)]
struct Filled {
    key: Option<(usize, usize, usize, usize, bool, bool)>,
    cells: Vec<(u64, u8)>,
}

// Writes values into a table body's cells in one call: `text` holds, one
// per line, `*` when every cell follows in page order (else nothing), then
// per changed cell its index in page order (unless `*`), its exact value
// and (read-only cells) its short form. An input gets the value only when
// the cell's value changed, so refused text stays where it was typed. (A
// read-only cell's tooltip is written on every hover, so it is never stale.)
#[wasm_bindgen(inline_js = "export function fill_cells(body, text, editable) {
  const p = text.split('\\n'), cells = body.getElementsByTagName('td'), all = p[0] === '*';
  for (let i = 0, k = 1; k + 1 < p.length; i++) {
    const td = cells[all ? i : +p[k++]], v = p[k++];
    if (!td) return;
    td.setAttribute('data-value', v);
    if (editable) {
      const input = td.firstElementChild;
      if (input) input.value = v;
    } else {
      const s = p[k++], t = td.firstChild;
      if (t) t.data = s; else td.textContent = s;
    }
  }
}")]
extern "C" {
    fn fill_cells(body: &Element, text: &str, editable: bool);
}

/// After every render, writes into `body` the values of the shown cells
/// (`grid`'s window of `values`) that changed since the last fill, with
/// their `flags` (page order).
#[hook]
pub fn use_value_writer(
    body_ref: NodeRef,
    values: Rc<Matrix>,
    grid: Grid,
    flags: Vec<u8>,
    editable: bool,
) {
    let filled = use_mut_ref(Filled::default);
    let t = grid.transpose;
    let at = move |a: usize, b: usize| grid.at(a, b);
    let (row_axis, col_axis) = (grid.row_axis, grid.col_axis);
    {
        // The values of the shown cells that changed since the last fill
        // (all of them when the cells are not the same ones).
        let body_ref = body_ref.clone();
        let m = values;
        let (rows_shown, cols_shown) = (row_axis.range(), col_axis.range());
        let key = (
            rows_shown.start,
            rows_shown.end,
            cols_shown.start,
            cols_shown.end,
            t,
            editable,
        );
        use_effect(move || {
            let Some(body) = body_ref.cast::<Element>() else {
                return;
            };
            let cells = rows_shown.flat_map(|a| cols_shown.clone().map(move |b| (a, b)));
            let now: Vec<(u64, u8)> = cells
                .zip(&flags)
                .map(|((a, b), &f)| (m[at(a, b)].to_bits(), f))
                .collect();
            let mut filled = filled.borrow_mut();
            let fresh = filled.key.is_none();
            // Other cells than last time: every value is written again.
            if filled.key != Some(key) {
                filled.key = Some(key);
                filled.cells = vec![(0, u8::MAX); now.len()];
            }
            let before = std::mem::replace(&mut filled.cells, now);
            // Just created: every row rendered the values it shows.
            if fresh {
                return;
            }
            let changed: Vec<(usize, f64)> = filled
                .cells
                .iter()
                .zip(&before)
                .enumerate()
                .filter(|(_, (now, was))| now != was)
                .map(|(k, (&(bits, _), _))| (k, f64::from_bits(bits)))
                .collect();
            if changed.is_empty() {
                return;
            }
            // Every cell, in order, needs no indices.
            let all = changed.len() == filled.cells.len();
            let mut text = String::with_capacity(changed.len() * if editable { 24 } else { 32 });
            text.push_str(if all { "*\n" } else { "\n" });
            for (k, v) in changed {
                if !all {
                    let _ = writeln!(text, "{k}");
                }
                let _ = writeln!(text, "{v}");
                if !editable {
                    text.push_str(&short(v));
                    text.push('\n');
                }
            }
            fill_cells(&body, &text, editable);
        });
    }
}
