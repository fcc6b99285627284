//! The concept labs: one section each, `data-lab="NAME"`,
//! embeddable with `?embed=1&view=NAME`. Each opens with a question to
//! answer before the numbers appear ("predict, then reveal"); the numbers
//! come from `crate::attention` and `crate::lesson`.

pub mod cost;
pub mod dropout;
pub mod geometry;
pub mod graph;
pub mod masks;
pub mod positions;
pub(crate) mod predict;
pub mod root;
pub mod scaling;
pub mod scoring;

use crate::attention::Matrix;
use crate::lesson::format::{rounded, short};
use crate::lesson::parse::parse_number;
use nalgebra::DMatrix;
use std::rc::Rc;
use yew::prelude::*;

/// What every lab may draw from: the page's scenario and trace, its layout
/// and language, and (unless the page is locked) the page's edit.
pub struct LabCtx {
    pub scenario: Rc<crate::attention::Scenario>,
    pub trace: Rc<crate::attention::Trace>,
    pub convention: crate::lesson::names::Convention,
    pub lang: crate::app::i18n::Lang,
    pub on_edit: Option<Callback<crate::lesson::edit::Edit>>,
}

/// The labs the labs' chunk mounts, in page order: each figure's
/// `view=` name and how it is drawn (the names, titles and settings are
/// in `crate::app::views::VIEWS`). Adding a lab: its file here, a row
/// here and a row there.
pub type Mount = fn(&LabCtx) -> Html;

/// See [`LabCtx`]: every lab with how it mounts.
pub const LABS: [(crate::app::views::View, Mount); 7] = {
    use crate::app::views::View;
    [
        (View::Scoring, scoring::lab),
        (
            View::Geometry,
            |c| html! { <geometry::GeometryLab lang={c.lang} /> },
        ),
        (View::Scaling, scaling::lab),
        (View::Positions, positions::lab),
        (View::Masks, masks::lab),
        (
            View::Dropout,
            |c| html! { <dropout::DropoutLab trace={c.trace.clone()} lang={c.lang} /> },
        ),
        (View::Cost, cost::lab),
    ]
};

/// Rows and columns shown of a lab's small matrices.
const SHOWN: usize = 8;

/// A small read-only matrix (its first rows and columns), cells tinted by
/// weight when `tint`, drawn transposed in the column layout (one query
/// per column); `data-row`/`data-col` stay in the row-vector orientation.
/// Entries that `hidden` marks are masked keys: drawn as such, not as a
/// number the reader might take for a small weight.
fn mini(
    m: &Matrix,
    name: &'static str,
    tint: bool,
    transpose: bool,
    hidden: Option<&DMatrix<bool>>,
) -> Html {
    let (rows, cols) = if transpose {
        (m.ncols(), m.nrows())
    } else {
        (m.nrows(), m.ncols())
    };
    let (r, c) = (rows.min(SHOWN), cols.min(SHOWN));
    html! {
        <table class="mini" data-mini={name}>
            <tbody>
                { for (0..r).map(|a| html! {
                    <tr>
                        { for (0..c).map(|b| {
                            let (i, j) = if transpose { (b, a) } else { (a, b) };
                            let v = m[(i, j)];
                            let off = hidden.is_some_and(|h| h[(i, j)]);
                            let style = (tint && v.is_finite() && !off).then(|| format!("background:rgba(40,116,166,{})", rounded(0.08 + 0.6 * v.min(1.0), 3)));
                            html! { <td class={classes!(off.then_some("off"))} data-row={i.to_string()} data-col={j.to_string()} data-value={v.to_string()} style={style}>{ if off { "·".to_string() } else { short(v) } }</td> }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// Reads the `<input>` an event came from with `parse`, marking it
/// `aria-invalid` when `parse` refuses the text (the caller keeps its last
/// good value and says why where it was typed).
fn checked<T>(e: &Event, parse: impl FnOnce(&str) -> Option<T>) -> Option<T> {
    let input = e.target_dyn_into::<web_sys::HtmlInputElement>()?;
    let value = parse(&input.value());
    input
        .set_attribute(
            "aria-invalid",
            if value.is_some() { "false" } else { "true" },
        )
        .ok();
    value
}

/// A whole number typed in `lo..=hi` (see [`checked`]).
fn whole(e: &Event, lo: usize, hi: usize) -> Option<usize> {
    checked(e, |t| {
        parse_number(t)
            .ok()
            .filter(|v| v.fract() == 0.0 && *v >= lo as f64 && *v <= hi as f64)
            .map(|v| v as usize)
    })
}

/// A small labelled whole-number field (`1..=max`) that keeps its last
/// good value: a value typed is sent to `set`, another is refused where it
/// was typed ([`whole`]).
fn number_field(
    id: &'static str,
    label: &'static str,
    value: usize,
    max: usize,
    set: Callback<usize>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        if let Some(v) = whole(&e, 1, max) {
            set.emit(v);
        }
    });
    html! {
        <label class="field small" for={id}>
            <span>{ label }</span>
            <input id={id} type="number" min="1" max={max.to_string()} value={value.to_string()} onchange={onchange} />
        </label>
    }
}

/// Keeps a whole-number setting: in the address as `key` and in `state`.
fn kept(key: &'static str, state: &UseStateHandle<usize>) -> Callback<usize> {
    let state = state.clone();
    Callback::from(move |v: usize| {
        keep_setting(key, v);
        state.set(v)
    })
}

/// A `<select>` of 0-based choices (a query, a head), kept 1-based in the
/// address as `key`, as the reader counts them.
fn picked(key: &'static str, state: &UseStateHandle<usize>) -> Callback<Event> {
    let state = state.clone();
    Callback::from(move |e: Event| {
        if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
            let v: usize = sel.value().parse().unwrap_or(0);
            keep_setting(key, v + 1);
            state.set(v);
        }
    })
}

/// A lab's setting as the address gives it (`?scaling.dk=16`; the keys are
/// `views::VIEWS`), if it reads as a `T` that `ok` accepts: a copied
/// embed code or link opens the lab as the reader left it.
fn setting<T: Setting>(key: &str, ok: impl Fn(&T) -> bool) -> Option<T> {
    crate::app::web::query(key)
        .and_then(|v| T::read(&v))
        .filter(ok)
}

/// What a lab's setting can be, read from the address's text: integers and
/// words as `str::parse` reads them, decimals by the page's one decimal
/// reader (`attention::json::decimal`).
trait Setting: Sized {
    fn read(text: &str) -> Option<Self>;
}

macro_rules! parsed_setting {
    ($($t:ty),*) => {$(
        impl Setting for $t {
            fn read(text: &str) -> Option<Self> {
                text.parse().ok()
            }
        }
    )*};
}
parsed_setting!(u8, u64, usize, String);

impl Setting for f64 {
    fn read(text: &str) -> Option<Self> {
        crate::attention::json::decimal(text)
    }
}

/// Writes a lab's setting into the address (no reload, no history entry).
fn keep_setting(key: &str, value: impl std::fmt::Display) {
    crate::app::web::set_query(key, &value.to_string());
}
