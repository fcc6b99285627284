//! The grid of a matrix: its display geometry (shown transposed or not, the
//! window of rows and columns in view), the window's sliders, and one row
//! of cells as a component whose props hold no values.

use super::super::i18n::{window_text, Lang, MapText, PageText};
use crate::attention::Matrix;
use crate::lesson::format::{exact, short};
use crate::lesson::window::{swap_if, Axis};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Where a matrix's cells are on screen: its displayed size (transposed in
/// the column layout) and the window of each axis in view. Display
/// coordinates are (a, b); the contract's row-vector ones (r, c).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub transpose: bool,
    pub rows: usize,
    pub cols: usize,
    pub row_axis: Axis,
    pub col_axis: Axis,
}

impl Grid {
    /// The grid of `m`, transposed or not, with the window starting at
    /// `start` (row-vector orientation).
    pub fn new(m: &Matrix, transpose: bool, start: (usize, usize)) -> Grid {
        let (rows, cols) = if transpose {
            (m.ncols(), m.nrows())
        } else {
            (m.nrows(), m.ncols())
        };
        let (a0, b0) = swap_if(transpose, start);
        Grid {
            transpose,
            rows,
            cols,
            row_axis: Axis::new(rows, a0),
            col_axis: Axis::columns(cols, b0),
        }
    }

    /// Display (a, b) → contract (r, c) (the same swap both ways).
    pub fn at(&self, a: usize, b: usize) -> (usize, usize) {
        swap_if(self.transpose, (a, b))
    }

    /// Whether display cell (a, b) is in the window.
    pub fn shown(&self, a: usize, b: usize) -> bool {
        self.row_axis.range().contains(&a) && self.col_axis.range().contains(&b)
    }

    /// The window start (row-vector orientation) that shows display cell
    /// (a, b), moving as little as possible.
    pub fn following(&self, a: usize, b: usize) -> (usize, usize) {
        self.at(self.row_axis.follow(a).start, self.col_axis.follow(b).start)
    }
}

/// `i` as an attribute value.
pub(super) fn index_attr(i: usize) -> AttrValue {
    AttrValue::from(i.to_string())
}

/// `1 … n` as labels (for feature dimensions).
pub fn index_labels(n: usize) -> Rc<Vec<String>> {
    Rc::new((1..=n).map(|i| i.to_string()).collect())
}

/// The sliders of a windowed matrix, one per windowed axis (display
/// orientation): "columns 17–32 of 512" and a range input for the first
/// shown position. `on_move((columns, start))`. Nothing for a whole matrix.
pub fn window_nav(rows: Axis, cols: Axis, lang: Lang, on_move: &Callback<(bool, usize)>) -> Html {
    let slider = |axis: Axis, columns: bool| {
        let on_move = on_move.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target_dyn_into::<HtmlInputElement>()
                .and_then(|i| i.value().parse().ok())
            {
                on_move.emit((columns, v));
            }
        });
        let text = window_text(lang, columns, axis.start + 1, axis.range().end, axis.len);
        html! {
            <label class="window-nav" data-axis={if columns { "col" } else { "row" }}>
                <span>{ text.clone() }</span>
                <input type="range" min="0" max={axis.last_start().to_string()} step="1"
                    value={axis.start.to_string()} aria-label={text} oninput={oninput} />
            </label>
        }
    };
    html! {
        <>
            if cols.windowed() { { slider(cols, true) } }
            if rows.windowed() { { slider(rows, false) } }
        </>
    }
}

/// The first shown row and column of a windowed matrix, kept in the
/// row-vector orientation so that switching the layout keeps the same cells
/// in view (see [`swap_if`]).
pub type WindowStart = UseStateHandle<(usize, usize)>;

/// The window's state of a matrix component shown transposed or not, and a
/// setter for [`window_nav`] (which speaks of the displayed axes).
#[hook]
pub fn use_window(transpose: bool) -> (WindowStart, Callback<(bool, usize)>) {
    let win = use_state(|| (0usize, 0usize));
    let on_move = {
        let win = win.clone();
        Callback::from(move |(columns, v): (bool, usize)| {
            // Displayed columns are the matrix's rows when transposed.
            win.set(if columns != transpose {
                (win.0, v)
            } else {
                (v, win.1)
            })
        })
    };
    (win, on_move)
}

// What a cell is, beyond its value (`MatrixRow::flags`).
pub const MASKED: u8 = 1;
pub const UNDEFINED: u8 = 2;
pub const SELECTED: u8 = 4;
pub const INVALID: u8 = 8;

#[derive(Properties)]
pub struct RowProps {
    /// The matrix, for the values the row shows when it renders (not
    /// compared: new values alone re-render no row, `fill_cells` writes them).
    pub values: Rc<Matrix>,
    /// The displayed row.
    pub a: usize,
    /// The displayed columns shown, `start..end`.
    pub cols: (usize, usize),
    pub transpose: bool,
    pub label: AttrValue,
    /// The label is an editable token (its accessible name).
    pub token: Option<AttrValue>,
    pub undefined_row: bool,
    /// Per shown cell: `MASKED | UNDEFINED | SELECTED | INVALID`.
    pub flags: Vec<u8>,
    /// Cells are inputs, named "X row" + " 2, column 3".
    pub aria_prefix: Option<AttrValue>,
    pub lang: Lang,
}

impl PartialEq for RowProps {
    /// Everything but the values.
    fn eq(&self, o: &Self) -> bool {
        (
            self.a,
            self.cols,
            self.transpose,
            self.undefined_row,
            self.lang,
        ) == (o.a, o.cols, o.transpose, o.undefined_row, o.lang)
            && self.label == o.label
            && self.token == o.token
            && self.flags == o.flags
            && self.aria_prefix == o.aria_prefix
    }
}

/// One row of a matrix: its label and cells, with the values as they are
/// when it renders. Its props compare without the values, so new values
/// alone re-render no row: `fill_cells` writes them (a row created in the
/// same render shows them from the start, so no frame shows empty cells).
#[component]
pub fn MatrixRow(p: &RowProps) -> Html {
    let lang = p.lang;
    let cells = (p.cols.0..p.cols.1).zip(&p.flags).map(|(b, &f)| {
        let (r, c) = swap_if(p.transpose, (p.a, b));
        let class: AttrValue = if f & (MASKED | UNDEFINED | SELECTED) != 0 {
            classes!(
                "cell",
                (f & MASKED != 0).then_some("masked"),
                (f & UNDEFINED != 0).then_some("undefined"),
                (f & SELECTED != 0).then_some("selected"),
            )
            .to_string()
            .into()
        } else {
            AttrValue::Static("cell")
        };
        let title = (f & UNDEFINED != 0).then_some(AttrValue::Static(MapText::UndefinedRow.t(lang)));
        let v = p.values[(r, c)];
        let value = AttrValue::from(exact(v));
        html! {
            <td class={class} data-row={index_attr(r)} data-col={index_attr(c)} title={title}
                data-value={value.clone()} aria-selected={(f & SELECTED != 0).then_some("true")}>
                if p.aria_prefix.is_none() {
                    { short(v) }
                }
                if let Some(prefix) = &p.aria_prefix {
                    <input inputmode="decimal" value={value} aria-invalid={(f & INVALID != 0).then_some("true")}
                        aria-label={format!("{prefix} {}, {} {}", r + 1, PageText::Col.t(lang), c + 1)} />
                }
            </td>
        }
    });
    html! {
        <tr class={classes!(p.undefined_row.then_some("undefined-row"))}>
            <th scope="row">
                if let Some(name) = &p.token {
                    <input class="token" data-token={p.a.to_string()} value={p.label.clone()}
                        aria-label={name.clone()} maxlength="40" size="6" />
                } else {
                    { p.label.clone() }
                }
            </th>
            { for cells }
        </tr>
    }
}
