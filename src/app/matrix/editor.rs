//! The cell editor: the table's delegated events. A committed edit (Enter,
//! Tab, leaving the cell) is parsed; text that is not a finite number is
//! refused on that cell and the last good value stays; arrows move between
//! cells (and the window, when the caret leaves it); a pasted block of
//! numbers replaces the matrix; Escape restores the cell.

use super::super::i18n::{Lang, PageText};
use super::grid::Grid;
use super::WindowStart;
use crate::attention::Matrix;
use crate::lesson::edit::{Edit, Target};
use crate::lesson::format::exact;
use crate::lesson::grid::{self, step, Move};
use crate::lesson::parse::{parse_matrix, parse_number, NumberError, PasteError};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};
use yew::prelude::*;

/// A refused cell or paste, shown under the matrix.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    Cell {
        row: usize,
        col: usize,
        text: String,
        why: NumberError,
    },
    Paste(String),
}

pub fn number_error_text(why: NumberError, lang: Lang) -> &'static str {
    match why {
        NumberError::Empty => PageText::ErrEmpty.t(lang),
        NumberError::NotANumber => PageText::ErrNotANumber.t(lang),
        NumberError::NotFinite => PageText::ErrNotFinite.t(lang),
    }
}

fn paste_error_text(e: &PasteError, lang: Lang) -> String {
    match e {
        PasteError::Empty => PageText::ErrPasteEmpty.t(lang).to_string(),
        PasteError::Ragged { row, len, expected } => format!(
            "{} {} {}: {len} / {expected}",
            PageText::ErrPasteRagged.t(lang),
            PageText::Row.t(lang),
            row + 1
        ),
        PasteError::BadNumber {
            row,
            col,
            text,
            why,
        } => format!(
            "{} {}, {} {}: «{text}» {}",
            PageText::Row.t(lang),
            row + 1,
            PageText::Col.t(lang),
            col + 1,
            number_error_text(*why, lang)
        ),
    }
}

/// The cell (row, col) an event happened in, in the row-vector orientation.
pub fn cell_of(target: &Element) -> Option<(usize, usize, Element)> {
    let td = target.closest("[data-row][data-col]").ok().flatten()?;
    let r = td.get_attribute("data-row")?.parse().ok()?;
    let c = td.get_attribute("data-col")?.parse().ok()?;
    Some((r, c, td))
}

pub fn event_element(e: &Event) -> Option<Element> {
    e.target().and_then(|t| t.dyn_into::<Element>().ok())
}

/// Focuses (and selects the text of) the input of cell (r, c) in `table`.
pub fn focus_cell(table: &Element, r: usize, c: usize) {
    let sel = format!("[data-row=\"{r}\"][data-col=\"{c}\"] input");
    if let Ok(Some(el)) = table.query_selector(&sel) {
        if let Ok(input) = el.dyn_into::<HtmlInputElement>() {
            let _ = input.focus();
            input.select();
        }
    }
}

/// What the handlers work on.
pub struct Inputs {
    pub grid: Grid,
    pub win: WindowStart,
    /// The matrix's values (row-vector orientation).
    pub values: Rc<Matrix>,
    pub problem: UseStateHandle<Option<Problem>>,
    /// A cell to focus once the window has moved to show it.
    pub pending: Rc<RefCell<Option<(usize, usize)>>>,
    pub on_edit: Option<Callback<Edit>>,
    pub target: Option<Target>,
    /// Selecting a cell (row-vector orientation) for its derivation.
    pub select: Option<Callback<(usize, usize)>>,
    pub selected: Option<(usize, usize)>,
    pub lang: Lang,
}

/// The table's event handlers.
pub struct Handlers {
    pub onchange: Callback<Event>,
    pub onkeydown: Callback<KeyboardEvent>,
    pub onpaste: Callback<Event>,
    pub onclick: Option<Callback<MouseEvent>>,
}

pub fn handlers(i: Inputs) -> Handlers {
    let Inputs {
        grid: g,
        win,
        values,
        problem,
        pending,
        on_edit,
        target,
        select,
        selected,
        lang,
    } = i;
    let (rows, cols, t) = (g.rows, g.cols, g.transpose);
    let (row_axis, col_axis) = (g.row_axis, g.col_axis);
    let at = move |a: usize, b: usize| g.at(a, b);
    let shown = move |a: usize, b: usize| g.shown(a, b);
    // Moves the window (when needed) to show display cell (a, b).
    let follow = move |a: usize, b: usize| {
        if !g.shown(a, b) {
            win.set(g.following(a, b));
        }
    };
    let (mr, mc) = (values.nrows(), values.ncols());
    let commit = {
        let problem = problem.clone();
        let on_edit = on_edit.clone();

        let matrix = values.clone();
        move |input: &HtmlInputElement, r: usize, c: usize| -> bool {
            let (Some(on_edit), Some(target)) = (&on_edit, target) else {
                return false;
            };
            let text = input.value();
            match parse_number(&text) {
                Ok(v) => {
                    if matches!(*problem, Some(Problem::Cell { row, col, .. }) if row == r && col == c)
                    {
                        problem.set(None);
                    }
                    if r < matrix.nrows()
                        && c < matrix.ncols()
                        && v.to_bits() != matrix[(r, c)].to_bits()
                    {
                        on_edit.emit(Edit::Cell {
                            target,
                            row: r,
                            col: c,
                            value: v,
                        });
                    } else if r < matrix.nrows() && c < matrix.ncols() {
                        // Same number typed differently ("1.50"): show it canonically.
                        input.set_value(&exact(matrix[(r, c)]));
                    }
                    true
                }
                Err(why) => {
                    problem.set(Some(Problem::Cell {
                        row: r,
                        col: c,
                        text,
                        why,
                    }));
                    false
                }
            }
        }
    };

    let onchange = {
        let commit = commit.clone();
        let on_edit = on_edit.clone();
        Callback::from(move |e: Event| {
            let Some(el) = event_element(&e) else { return };
            // A token label was renamed.
            if let Some(index) = el.get_attribute("data-token").and_then(|i| i.parse().ok()) {
                if let (Ok(input), Some(on_edit)) = (el.dyn_into::<HtmlInputElement>(), &on_edit) {
                    on_edit.emit(Edit::Token {
                        index,
                        label: input.value(),
                    });
                }
                return;
            }
            if let (Ok(input), Some((r, c, _))) =
                (el.clone().dyn_into::<HtmlInputElement>(), cell_of(&el))
            {
                commit(&input, r, c);
            }
        })
    };

    let onkeydown = {
        let commit = commit.clone();
        let problem = problem.clone();
        let matrix = values.clone();
        let on_select = select.clone();

        let pending = pending.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(el) = event_element(&e) else { return };
            let key = e.key();
            // Arrow keys on a read-only, selectable table move the selection.
            if el.tag_name() == "TABLE" {
                if let (Some(on_select), Some((r, c))) = (&on_select, selected) {
                    let (a, b) = at(r, c); // contract → display is the same swap
                    let moved = Move::of_key(&key)
                        .filter(|m| !matches!(m, Move::Home | Move::End))
                        .and_then(|m| step((a, b), m, rows, cols));
                    if let Some((a, b)) = moved {
                        e.prevent_default();
                        follow(a, b);
                        on_select.emit(at(a, b));
                    }
                } else if let Some(on_select) = &on_select {
                    if key.starts_with("Arrow") {
                        e.prevent_default();
                        // The first cell in view.
                        on_select.emit(at(row_axis.start, col_axis.start));
                    }
                }
                return;
            }
            let Ok(input) = el.clone().dyn_into::<HtmlInputElement>() else {
                return;
            };
            if input.get_attribute("data-token").is_some() {
                return;
            }
            let Some((r, c, td)) = cell_of(&el) else {
                return;
            };
            let Some(table) = td.closest("table").ok().flatten() else {
                return;
            };
            let (a, b) = at(r, c);
            let len = input.value().chars().count() as u32;
            let (from, to) = (
                input.selection_start().ok().flatten(),
                input.selection_end().ok().flatten(),
            );
            // At an end, or the whole text selected (as after moving in).
            let whole = from == Some(0) && to == Some(len);
            let caret_start = whole || (from == Some(0) && to == Some(0));
            let caret_end = whole || from == Some(len);
            // Enter commits and moves down (Shift+Enter up); arrows leave the
            // cell only from the end of its text they point past.
            let dest = match key.as_str() {
                "Enter" if e.shift_key() => Some(Move::Up),
                "Enter" => Some(Move::Down),
                "ArrowUp" => Some(Move::Up),
                "ArrowDown" => Some(Move::Down),
                "ArrowLeft" if caret_start => Some(Move::Left),
                "ArrowRight" if caret_end => Some(Move::Right),
                "Escape" => {
                    if r < matrix.nrows() && c < matrix.ncols() {
                        input.set_value(&exact(matrix[(r, c)]));
                    }
                    problem.set(None);
                    None
                }
                _ => None,
            };
            if let Some(mv) = dest {
                e.prevent_default();
                let ok = commit(&input, r, c);
                if let (true, Some((na, nb))) = (ok, step((a, b), mv, rows, cols)) {
                    let (nr, nc) = at(na, nb);
                    if shown(na, nb) {
                        focus_cell(&table, nr, nc);
                    } else {
                        // Focused after the window has moved (see `pending`).
                        *pending.borrow_mut() = Some((nr, nc));
                        follow(na, nb);
                    }
                }
            }
        })
    };

    let onpaste = {
        let problem = problem.clone();
        let on_edit = on_edit.clone();

        Callback::from(move |e: Event| {
            let (Some(on_edit), Some(target)) = (&on_edit, target) else {
                return;
            };
            // Pasting into a token label is ordinary text pasting.
            if event_element(&e).is_some_and(|el| el.get_attribute("data-token").is_some()) {
                return;
            }
            let Ok(ce) = e.clone().dyn_into::<web_sys::ClipboardEvent>() else {
                return;
            };
            let Some(text) = ce
                .clipboard_data()
                .and_then(|d| d.get_data("text/plain").ok())
            else {
                return;
            };
            // One number pastes into the cell like typing; more is a matrix.
            let parsed = parse_matrix(&text);
            if let Ok(rows_) = &parsed {
                if rows_.len() == 1 && rows_[0].len() == 1 {
                    return;
                }
            } else if parse_number(&text).is_ok() {
                return;
            }
            e.prevent_default();
            match parsed {
                // Pasted in the orientation on screen.
                Ok(block) => match grid::pasted(block, t, mr, mc) {
                    Ok(rows_rowvec) => {
                        problem.set(None);
                        on_edit.emit(Edit::Matrix {
                            target,
                            rows: rows_rowvec,
                        });
                    }
                    Err((pr, pc)) => {
                        problem.set(Some(Problem::Paste(format!(
                            "{} {rows}×{cols}, {} {pr}×{pc}. {}",
                            PageText::ErrPasteShapeExpected.t(lang),
                            PageText::ErrPasteShapeGot.t(lang),
                            PageText::NothingChanged.t(lang)
                        ))));
                    }
                },
                Err(err) => problem.set(Some(Problem::Paste(format!(
                    "{} {}",
                    paste_error_text(&err, lang),
                    PageText::NothingChanged.t(lang)
                )))),
            }
        })
    };

    let onclick = select.clone().map(|on_select| {
        Callback::from(move |e: MouseEvent| {
            if let Some((r, c, _)) = event_element(&e).and_then(|el| cell_of(&el)) {
                on_select.emit((r, c));
            }
        })
    });

    Handlers {
        onchange,
        onkeydown,
        onpaste,
        onclick,
    }
}
