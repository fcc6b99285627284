//! # The stage: the notes' animated figure, one picture per step
//!
//! The notes draw self-attention as small pictures in which numbers travel:
//! `aⁱ → qⁱ, kⁱ, vⁱ`, then `q¹` meets every `kʲ`, the scores `α₁,ⱼ` go
//! through softmax, and the weighted values `α′₁,ⱼ vʲ` add up to `b¹`
//! (note 000 §4, note 004). This module lays out that picture for one step
//! of the [`Timeline`](super::timeline::Timeline) at a given progress, as a
//! list of [`Item`]s with positions in CSS pixels. The page only draws them.
//!
//! - **One frame, one idea.** Each step shows only the vectors it reads and
//!   the ones it writes; everything else is absent.
//! - **Fixed roles and colours.** Every item has a [`Role`] (note 004's
//!   colours) *and* a text label (`q¹`, `k²`, `α₁,·`, `b¹`), so colour is
//!   never the only cue.
//! - **Motion shows where a number comes from.** An item keeps its `id`
//!   from one step to the next, and [`frame`] moves it from where the last
//!   step left it; inside a step, products appear term by term, a score
//!   travels into its slot, weighted values slide together into `bⁱ`. Every
//!   intermediate frame shows true numbers (a moving value is already the
//!   engine's value). Time is an input: a frame is a pure function of the
//!   step and its progress.
//! - **The convention decides the picture.** Row layout (note 000 §8,
//!   note 004): vectors are rows, a query's computation flows downwards.
//!   Column layout (note 000 §4): vectors are columns, it flows rightwards,
//!   `Q = W^q X`, `S = KᵀQ`, `B = V·A`.
//! - **Large scenarios are sliced.** At most [`SHOWN`] entries of a vector
//!   and [`SHOWN`] vectors of a block are drawn (a window around the current
//!   query), the rest summarised by an ellipsis cell.

use super::captions::{input_symbol, projected};
use super::format::{short, short_len};
use super::names::Convention;
pub use super::names::Role;
use super::timeline::{subscript, sup, Phase, Step, Timeline};
use attention::{softmax_parts, Matrix, Positional, Scenario, Trace};

/// The most entries of a vector, and vectors of a block, drawn at once.
pub const SHOWN: usize = 8;

/// How a cell shows its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// The value.
    Value,
    /// Not computed yet at this moment of the step (drawn empty).
    Pending,
    /// A score hidden by the mask: `−∞`.
    Masked,
    /// Entries not drawn (`⋯`).
    Ellipsis,
}

/// One cell of a vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub text: String,
    /// The exact value (NaN when there is none).
    pub value: f64,
    pub state: CellState,
    /// A bar filling `0..=1` of the cell (softmax weights and exps).
    pub bar: Option<f64>,
    /// Taking part in what happens right now (the pair being multiplied).
    pub lit: bool,
}

impl Cell {
    fn value(v: f64) -> Cell {
        Cell {
            text: short(v),
            value: v,
            state: CellState::Value,
            bar: None,
            lit: false,
        }
    }

    fn ellipsis(hidden: usize) -> Cell {
        Cell {
            text: "⋯".into(),
            value: hidden as f64,
            state: CellState::Ellipsis,
            bar: None,
            lit: false,
        }
    }

    fn pending(mut self) -> Cell {
        self.state = CellState::Pending;
        self
    }
}

/// What an item draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// A vector: cells side by side (or one above the other).
    Cells { cells: Vec<Cell>, vertical: bool },
    /// A label or an operator, `w` × `h` px, one line per entry.
    Text { lines: Vec<String>, w: f64, h: f64 },
}

/// One thing on the stage. `x`, `y` are its top-left corner in CSS px.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Stable across steps, so the page can move the same element.
    pub id: String,
    pub role: Role,
    pub body: Body,
    pub x: f64,
    pub y: f64,
    pub opacity: f64,
    /// Highlighted by the current step.
    pub lit: bool,
}

impl Item {
    /// Width and height in px on a stage of geometry `g`.
    pub fn size(&self, g: &Geometry) -> (f64, f64) {
        match &self.body {
            Body::Cells { cells, vertical } => {
                let k = cells.len() as f64;
                if *vertical {
                    (g.cw, k * g.ch)
                } else {
                    (k * g.cw, g.ch)
                }
            }
            Body::Text { w, h, .. } => (*w, *h),
        }
    }
}

/// Cell sizes and the width available.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Cell width and height, px.
    pub cw: f64,
    pub ch: f64,
    /// Font size of the numbers, px (monospace: a digit is 0.6 em wide).
    pub font: f64,
    /// The width the stage may use, px.
    pub max_w: f64,
}

impl Geometry {
    /// Cells wide enough for the longest number the stage will show, in a
    /// stage `width` px wide (smaller type below 520 px).
    pub fn new(trace: &Trace, width: f64) -> Geometry {
        let narrow = width < 520.0;
        let font = if narrow { 11.0 } else { 12.5 };
        let longest = longest_text(trace).clamp(2, 10) as f64;
        Geometry {
            cw: (longest * 0.6 * font + 10.0).round().max(30.0),
            ch: if narrow { 21.0 } else { 23.0 },
            font,
            max_w: width.max(200.0),
        }
    }

    /// Pixel width of a text (CJK characters count double).
    pub fn text_w(&self, s: &str) -> f64 {
        if s.is_empty() {
            return 0.0;
        }
        let units: f64 = s
            .chars()
            .map(|c| if (c as u32) >= 0x2E80 { 1.7 } else { 0.62 })
            .sum();
        (units * self.font).ceil() + 6.0
    }
}

/// The longest number (in characters) among what the stage shows.
fn longest_text(t: &Trace) -> usize {
    let sliced = |m: &Matrix| {
        m.view((0, 0), (m.nrows().min(SHOWN), m.ncols().min(SHOWN)))
            .iter()
            .map(|v| short_len(*v))
            .max()
            .unwrap_or(1)
    };
    let mut longest = sliced(&t.input).max(sliced(&t.output));
    for h in &t.heads {
        for m in [
            &h.q, &h.k, &h.v, &h.scores, &h.scaled, &h.weights, &h.output,
        ] {
            longest = longest.max(sliced(m));
        }
    }
    longest
}

/// One vector of a block: its id, label lines, cells, whether it is lit and
/// how opaque.
struct Row {
    id: String,
    label: Vec<String>,
    cells: Vec<Cell>,
    lit: bool,
    opacity: f64,
}

/// What the stage is drawn from: the trace, the scenario's own inputs and
/// output projection, and how to show them.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub trace: &'a Trace,
    /// The scenario the trace was computed from (its `x`, weights, `W_O`).
    pub scenario: &'a Scenario,
    pub conv: Convention,
    pub g: Geometry,
}

/// A laid-out picture: its items and its size.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub items: Vec<Item>,
    pub w: f64,
    pub h: f64,
}

impl Scene {
    fn shifted(mut self, dx: f64, dy: f64) -> Scene {
        for it in &mut self.items {
            it.x += dx;
            it.y += dy;
        }
        self
    }

    /// The item with `id`.
    pub fn get(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.id == id)
    }
}

const GAP: f64 = 10.0;

/// Places `parts` left to right, centred on a common line, wrapping onto a
/// new line when the next part would pass `max_w`.
fn across(parts: Vec<Scene>, max_w: f64) -> Scene {
    let mut lines: Vec<Vec<Scene>> = vec![Vec::new()];
    let mut w = 0.0;
    for p in parts {
        let line = lines.last_mut().expect("one line");
        if !line.is_empty() && w + GAP + p.w > max_w {
            lines.push(Vec::new());
            w = 0.0;
        }
        let line = lines.last_mut().expect("one line");
        w += if line.is_empty() { p.w } else { GAP + p.w };
        line.push(p);
    }
    let mut out = Scene::default();
    for line in lines {
        let lh = line.iter().map(|p| p.h).fold(0.0, f64::max);
        let mut x = 0.0;
        for p in line {
            let (pw, ph) = (p.w, p.h);
            out.items
                .extend(p.shifted(x, out.h + (lh - ph) / 2.0).items);
            x += pw + GAP;
            out.w = out.w.max(x - GAP);
        }
        out.h += lh + GAP;
    }
    out.h = (out.h - GAP).max(0.0);
    out
}

/// Places `parts` top to bottom, left-aligned, `gap` px apart.
fn down(parts: Vec<Scene>, gap: f64) -> Scene {
    let mut out = Scene::default();
    for p in parts {
        let (pw, ph) = (p.w, p.h);
        let y = if out.items.is_empty() {
            0.0
        } else {
            out.h + gap
        };
        out.items.extend(p.shifted(0.0, y).items);
        out.w = out.w.max(pw);
        out.h = y + ph;
    }
    out
}

/// The builder of one step's picture.
struct B<'a> {
    c: Ctx<'a>,
    /// Local progress of the step's own motion, 0..=1.
    lp: f64,
}

/// `0..=1` as `lp` goes from `a` to `b`.
fn ramp(lp: f64, a: f64, b: f64) -> f64 {
    ((lp - a) / (b - a)).clamp(0.0, 1.0)
}

fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// Smooth start and stop.
pub fn ease(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// `sym` with position `i` (0-based) as a superscript: `q¹` (nothing for an
/// empty `sym`: rows named by their token alone).
fn at(sym: &str, i: usize) -> String {
    if sym.is_empty() {
        return String::new();
    }
    format!("{sym}{}", sup(i + 1))
}

/// Head `r`'s output for position `i` as note 000 §5.1 names it, `b^{i,r}`
/// (1-based, in the app's superscript markup).
fn at_head(sym: &str, i: usize, r: usize) -> String {
    format!("{sym}^{{{},{}}}", i + 1, r + 1)
}

/// At most [`SHOWN`] indices of `0..n`, a window that contains `focus`.
fn window(n: usize, focus: usize) -> std::ops::Range<usize> {
    window_of(n, focus, SHOWN)
}

/// At most `k` indices of `0..n`, a window that contains `focus`.
fn window_of(n: usize, focus: usize, k: usize) -> std::ops::Range<usize> {
    if n <= k {
        return 0..n;
    }
    let start = focus.saturating_sub(k / 2).min(n - k);
    start..start + k
}

/// The keys drawn in a row of scores: all, or [`SHOWN`]` − 1` around
/// `focus` and an ellipsis cell.
fn key_window(n: usize, focus: usize) -> std::ops::Range<usize> {
    if n <= SHOWN {
        0..n
    } else {
        window_of(n, focus, SHOWN - 1)
    }
}

impl<'a> B<'a> {
    fn vertical(&self) -> bool {
        self.c.conv == Convention::Col
    }

    fn text(&self, id: &str, lines: &[&str], role: Role) -> Scene {
        let g = &self.c.g;
        let w = lines.iter().map(|l| g.text_w(l)).fold(0.0, f64::max);
        let h = g.ch * lines.len() as f64;
        Scene {
            items: vec![Item {
                id: id.to_string(),
                role,
                body: Body::Text {
                    lines: lines.iter().map(|s| s.to_string()).collect(),
                    w,
                    h,
                },
                x: 0.0,
                y: 0.0,
                opacity: 1.0,
                lit: false,
            }],
            w,
            h,
        }
    }

    fn op(&self, id: &str, s: &str) -> Scene {
        self.text(id, &[s], Role::Plain)
    }

    /// The cells of a vector, at most [`SHOWN`] (then `⋯`).
    fn cells(values: impl ExactSizeIterator<Item = f64>) -> Vec<Cell> {
        let n = values.len();
        let mut cells: Vec<Cell> = values
            .take(if n > SHOWN { SHOWN - 1 } else { n })
            .map(Cell::value)
            .collect();
        if n > SHOWN {
            cells.push(Cell::ellipsis(n - (SHOWN - 1)));
        }
        cells
    }

    /// Row `i` of `m` as cells (at most [`SHOWN`]).
    fn row(m: &Matrix, i: usize) -> Vec<Cell> {
        Self::cells(m.row(i).iter().copied().collect::<Vec<_>>().into_iter())
    }

    /// A bare vector item in the convention's orientation.
    fn vector(&self, id: &str, role: Role, cells: Vec<Cell>, lit: bool) -> Scene {
        let vertical = self.vertical();
        let item = Item {
            id: id.to_string(),
            role,
            body: Body::Cells { cells, vertical },
            x: 0.0,
            y: 0.0,
            opacity: 1.0,
            lit,
        };
        let (w, h) = item.size(&self.c.g);
        Scene {
            items: vec![item],
            w,
            h,
        }
    }

    /// A vector with its label before it (left in rows, above in columns).
    /// `label_w` aligns the vectors of a block.
    fn labelled(&self, v: Scene, label: &[&str], label_w: Option<f64>) -> Scene {
        let id = format!("{}.label", v.items[0].id);
        let role = v.items[0].role;
        let mut l = self.text(&id, label, role);
        if self.vertical() {
            let w = l.w.max(v.w);
            l.items[0].body = Body::Text {
                lines: label.iter().map(|s| s.to_string()).collect(),
                w,
                h: l.h,
            };
            l.w = w;
            let lh = label_w.unwrap_or(l.h);
            let mut out = down(vec![l, v], 2.0);
            out.h = out.h.max(lh + 2.0);
            out
        } else {
            let lw = label_w.unwrap_or(l.w).max(l.w);
            if let Body::Text { w, .. } = &mut l.items[0].body {
                *w = lw;
            }
            l.w = lw;
            let (vw, vh) = (v.w, v.h);
            let mut out = Scene {
                items: l.items,
                w: lw + 4.0 + vw,
                h: vh.max(l.h),
            };
            out.items.extend(v.shifted(lw + 4.0, 0.0).items);
            out
        }
    }

    /// A block of vectors (a matrix shown as its position vectors): stacked
    /// in rows, side by side in columns, `title` above. `flip` draws the
    /// other orientation (a transposed matrix: `Kᵀ` beside `Q`).
    #[allow(clippy::too_many_arguments)]
    fn block(
        &self,
        id: &str,
        title: &str,
        rows: Vec<Row>,
        role: Role,
        flip: bool,
        hidden: usize,
    ) -> Scene {
        let vertical = self.vertical() != flip;
        let g = &self.c.g;
        let label_w = if vertical {
            rows.iter().map(|r| r.label.len()).max().unwrap_or(1) as f64 * g.ch
        } else {
            // Joined on one line; at least a strip's label, so that a block
            // lines up with the strips above and below it (unless it has no
            // labels at all: the second head's half of a concatenation).
            let unlabelled = rows.iter().all(|r| r.label.iter().all(String::is_empty));
            rows.iter().map(|r| g.text_w(&r.label.join(" "))).fold(
                if unlabelled {
                    0.0
                } else {
                    self.strip_label_w()
                },
                f64::max,
            )
        };
        let mut parts: Vec<Scene> = Vec::new();
        for Row {
            id: vid,
            label,
            cells,
            lit,
            opacity,
        } in rows
        {
            let item = Item {
                id: vid.clone(),
                role,
                body: Body::Cells { cells, vertical },
                x: 0.0,
                y: 0.0,
                opacity,
                lit,
            };
            let (w, h) = item.size(g);
            let v = Scene {
                items: vec![item],
                w,
                h,
            };
            // One line beside a row ("x¹ input 1"), stacked above a column.
            let joined;
            let labels: Vec<&str> = if vertical {
                label.iter().map(String::as_str).collect()
            } else {
                joined = label
                    .iter()
                    .rev()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(" ");
                vec![joined.as_str()]
            };
            // `labelled` follows the convention; a flipped block swaps it.
            let b = B {
                c: Ctx {
                    conv: if vertical {
                        Convention::Col
                    } else {
                        Convention::Row
                    },
                    ..self.c
                },
                lp: self.lp,
            };
            let mut s = b.labelled(v, &labels, Some(label_w));
            for it in &mut s.items {
                it.opacity = opacity;
            }
            parts.push(s);
        }
        if hidden > 0 {
            parts.push(self.op(&format!("{id}.more"), &format!("⋯ +{hidden}")));
        }
        let body = if vertical {
            let mut out = Scene::default();
            for p in parts {
                let (pw, ph) = (p.w, p.h);
                let x = if out.items.is_empty() {
                    0.0
                } else {
                    out.w + 6.0
                };
                out.items.extend(p.shifted(x, 0.0).items);
                out.w = x + pw;
                out.h = out.h.max(ph);
            }
            out
        } else {
            down(parts, 3.0)
        };
        let t = self.text(&format!("{id}.title"), &[title], role);
        down(vec![t, body], 2.0)
    }

    /// The rows of matrix `m` in `range` as block entries.
    fn rows_of(
        &self,
        m: &Matrix,
        prefix: &str,
        sym: &str,
        range: std::ops::Range<usize>,
    ) -> Vec<Row> {
        range
            .map(|i| Row {
                id: format!("{prefix}.{i}"),
                label: vec![at(sym, i)],
                cells: Self::row(m, i),
                lit: false,
                opacity: 1.0,
            })
            .collect()
    }

    fn head(&self, r: usize) -> &'a attention::HeadTrace {
        &self.c.trace.heads[r]
    }

    fn n(&self) -> usize {
        self.c.trace.n()
    }

    /// The computation of one query flows downwards in rows, rightwards in
    /// columns.
    fn flow(&self, parts: Vec<Scene>) -> Scene {
        if self.vertical() {
            across(parts, self.c.g.max_w)
        } else {
            down(parts, 6.0)
        }
    }

    /// A one-line strip: an operator label, then a vector (`label` before
    /// it, following the convention).
    fn strip(&self, id: &str, label: &str, role: Role, cells: Vec<Cell>, lit: bool) -> Scene {
        let v = self.vector(id, role, cells, lit);
        self.labelled(v, &[label], Some(self.strip_label_w()))
    }

    /// The label width of strips (and at least of block rows), px.
    fn strip_label_w(&self) -> f64 {
        self.c.g.text_w("α′₁₀,·")
    }

    // --- the steps -------------------------------------------------------

    /// What the projections multiply: `X`, `X + PE`, or with one-hot
    /// positions `[X | E]` (row layout) / `[X;E]` (column layout).
    fn input_name(&self) -> &'static str {
        match self.c.trace.positional {
            Positional::OneHot => projected(self.c.conv, Positional::OneHot),
            pe => input_symbol(pe),
        }
    }

    /// The symbol of a row the projections multiply: `aⁱ` itself, or none
    /// when a positional encoding joined it (the row is then `aⁱ + pⁱ` or
    /// `[aⁱ | eⁱ]`, named by its token).
    fn input_sym(&self) -> &'static str {
        match self.c.trace.positional {
            Positional::None => "a",
            _ => "",
        }
    }

    /// Whether each head's output has a name of its own, `b^{i,r}` in a
    /// matrix `Bʳ` (several heads, or a W_O after the head: note 000 §5.1),
    /// rather than being the layer's output `bⁱ`, `B`.
    fn per_head(&self) -> bool {
        self.c.trace.heads.len() > 1 || self.c.scenario.w_o.is_some()
    }

    /// Head `r`'s output of position `i`: `b^{i,r}`, or `bⁱ` (see [`Self::per_head`]).
    fn b_of(&self, r: usize, i: usize) -> String {
        if self.per_head() {
            at_head("b", i, r)
        } else {
            at("b", i)
        }
    }

    /// Head `r`'s output matrix: `Bʳ`, or `B`.
    fn b_name(&self, r: usize) -> String {
        if self.per_head() {
            format!("B{}", sup(r + 1))
        } else {
            "B".into()
        }
    }

    fn inputs(&self) -> Scene {
        let t = self.c.trace;
        let n = self.n();
        let range = window(n, 0);
        let hidden = n - range.len();
        let appear = |i: usize| ramp(self.lp * n as f64, i as f64, i as f64 + 1.0);
        let token = |i: usize| {
            let s: String = t.tokens[i].chars().take(10).collect();
            s
        };
        let rows = |m: &Matrix, prefix: &str, sym: &str| {
            range
                .clone()
                .map(|i| Row {
                    id: format!("{prefix}.{i}"),
                    label: [token(i), at(sym, i)]
                        .into_iter()
                        .filter(|l| !l.is_empty())
                        .collect(),
                    cells: Self::row(m, i),
                    lit: true,
                    opacity: appear(i),
                })
                .collect::<Vec<_>>()
        };
        match &t.pe {
            None => self.block(
                "x",
                "X",
                rows(&t.input, "x", "a"),
                Role::Input,
                false,
                hidden,
            ),
            Some(pe) => across(
                vec![
                    self.block(
                        "xraw",
                        "X",
                        rows(&self.c.scenario.x, "xraw", "a"),
                        Role::Input,
                        false,
                        hidden,
                    ),
                    // Added (sinusoidal) or concatenated after (one-hot).
                    match t.positional {
                        Positional::OneHot => self.op("op.cat", "|"),
                        _ => self.op("op.plus", "+"),
                    },
                    match t.positional {
                        Positional::OneHot => {
                            self.block("pe", "E", rows(pe, "pe", "e"), Role::Param, false, hidden)
                        }
                        _ => {
                            self.block("pe", "PE", rows(pe, "pe", "p"), Role::Param, false, hidden)
                        }
                    },
                    self.op("op.eq", "="),
                    self.block(
                        "x",
                        self.input_name(),
                        rows(&t.input, "x", self.input_sym()),
                        Role::Input,
                        false,
                        hidden,
                    ),
                ],
                self.c.g.max_w,
            ),
        }
    }

    fn project(&self, r: usize, which: usize) -> Scene {
        let t = self.c.trace;
        let n = self.n();
        let (w, m, sym, role, wname) = {
            let hw = &self.c.scenario.heads[r];
            let (wq, wk, wv) = (&hw.w_q, &hw.w_k, &hw.w_v);
            let h = self.head(r);
            match which {
                0 => (wq, &h.q, "q", Role::Query, ("W_Q", "W^q")),
                1 => (wk, &h.k, "k", Role::Key, ("W_K", "W^k")),
                _ => (wv, &h.v, "v", Role::Value, ("W_V", "W^v")),
            }
        };
        // The row being computed right now.
        let current = ((self.lp * n as f64) as usize).min(n - 1);
        let range = window(n, current);
        let hidden = n - range.len();
        let appear = |i: usize| ramp(self.lp * n as f64, i as f64, i as f64 + 0.6);
        let mut xs = self.rows_of(&t.input, "x", self.input_sym(), range.clone());
        let mut out = self.rows_of(m, &format!("{sym}.{r}"), sym, range.clone());
        for (k, i) in range.clone().enumerate() {
            xs[k].lit = i == current;
            out[k].lit = i == current;
            out[k].opacity = appear(i);
        }
        let wblock = self.param(&format!("w{sym}.{r}"), wname, w);
        let xname = self.input_name();
        let xblock = self.block("x", xname, xs, Role::Input, false, hidden);
        let big = sym.to_uppercase();
        let result = self.block(&format!("{sym}.{r}"), &big, out, role, false, hidden);
        self.product(xblock, wblock, result)
    }

    /// `left · right = result` as the row layout writes a product (`X·W_Q`,
    /// `QKᵀ`, `A·V`); the column layout writes it the other way round
    /// (`W^q X`, `KᵀQ`, `V·A`).
    fn product(&self, left: Scene, right: Scene, result: Scene) -> Scene {
        let (a, b) = if self.vertical() {
            (right, left)
        } else {
            (left, right)
        };
        across(
            vec![a, self.op("op.dot", "·"), b, self.op("op.eq", "="), result],
            self.c.g.max_w,
        )
    }

    /// The scores row of query `i` with the first `filled` entries shown.
    fn score_cells(&self, r: usize, i: usize, filled: usize, lit: Option<usize>) -> Vec<Cell> {
        let h = self.head(r);
        let n = self.n();
        let range = key_window(n, lit.unwrap_or(0));
        let mut cells: Vec<Cell> = range
            .clone()
            .map(|j| {
                let mut c = Cell::value(h.scores[(i, j)]);
                if j >= filled {
                    c = c.pending();
                }
                c.lit = Some(j) == lit;
                c
            })
            .collect();
        if n > SHOWN {
            cells.push(Cell::ellipsis(n - range.len()));
        }
        cells
    }

    fn dot(&self, r: usize, i: usize, j: usize) -> Scene {
        let h = self.head(r);
        let d = h.q.ncols();
        let shown = d.min(SHOWN);
        let terms_at = 0.6; // the products have all appeared
        let now = ((self.lp / terms_at) * shown as f64) as usize; // the pair being multiplied
        let mut q = Self::row(&h.q, i);
        let mut k = Self::row(&h.k, j);
        let mut prod: Vec<Cell> = (0..d)
            .map(|c| h.q[(i, c)] * h.k[(j, c)])
            .collect::<Vec<_>>()
            .into_iter()
            .enumerate()
            .map(|(c, v)| {
                let cell = Cell::value(v);
                if c < now || self.lp >= terms_at {
                    cell
                } else {
                    cell.pending()
                }
            })
            .take(if d > SHOWN { SHOWN - 1 } else { d })
            .collect();
        if d > SHOWN {
            prod.push(Cell::ellipsis(d - (SHOWN - 1)));
        }
        if now < shown && self.lp < terms_at {
            q[now].lit = true;
            k[now].lit = true;
            prod[now].lit = true;
        }
        let sid = format!("s.{r}.{i}");
        let qv = self.strip(&format!("q.{r}.{i}"), &at("q", i), Role::Query, q, true);
        let kv = self.strip(&format!("k.{r}.{j}"), &at("k", j), Role::Key, k, true);
        let pv = self.strip(&format!("prod.{r}.{i}.{j}"), "×", Role::Score, prod, true);
        let landed = self.lp >= 1.0;
        let alpha_id = format!("alpha.{r}.{i}.{j}");
        let fly_id = format!("{alpha_id}.fly");
        let mut alpha = self.vector(
            &alpha_id,
            Role::Score,
            vec![Cell::value(h.scores[(i, j)])],
            true,
        );
        let show_alpha = ramp(self.lp, 0.62, 0.7);
        alpha.items[0].opacity = show_alpha;
        let mut fly = alpha.items[0].clone();
        fly.id = fly_id.clone();
        fly.opacity = ramp(self.lp, 0.72, 0.73);
        let sum = self.labelled(alpha, &["Σ ="], Some(self.strip_label_w()));
        let row = self.strip(
            &sid,
            &format!("α{},·", sub(i)),
            Role::Score,
            self.score_cells(r, i, if landed { j + 1 } else { j }, Some(j)),
            true,
        );
        let mut scene = self.flow(vec![qv, kv, pv, sum, row]);
        // A copy of the sum travels into its slot of the scores row.
        if let Some(a) = scene.get(&alpha_id) {
            fly.x = a.x;
            fly.y = a.y;
        }
        scene.items.push(fly);
        let travel = ease(ramp(self.lp, 0.72, 1.0));
        let slot = {
            let row = scene.get(&sid).expect("scores row");
            let k = key_window(self.n(), j).position(|x| x == j).unwrap_or(0) as f64;
            if self.vertical() {
                (row.x, row.y + k * self.c.g.ch)
            } else {
                (row.x + k * self.c.g.cw, row.y)
            }
        };
        if let Some(a) = scene.items.iter_mut().find(|it| it.id == fly_id) {
            a.x = lerp(a.x, slot.0, travel);
            a.y = lerp(a.y, slot.1, travel);
        }
        scene
    }

    fn scores_row(&self, r: usize, i: usize) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let now = ((self.lp * n as f64) as usize).min(n); // keys done so far
        let lit = now.min(n - 1);
        let range = window(n, lit);
        let mut keys = self.rows_of(&h.k, &format!("k.{r}"), "k", range.clone());
        for (k, j) in range.clone().enumerate() {
            keys[k].lit = j == lit;
        }
        let q = Self::row(&h.q, i);
        let qv = self.strip(&format!("q.{r}.{i}"), &at("q", i), Role::Query, q, true);
        let kb = self.block(
            &format!("k.{r}"),
            "K",
            keys,
            Role::Key,
            false,
            n - range.len(),
        );
        let row = self.strip(
            &format!("s.{r}.{i}"),
            &format!("α{},·", sub(i)),
            Role::Score,
            self.score_cells(r, i, if self.lp >= 1.0 { n } else { now }, Some(lit)),
            true,
        );
        self.flow(vec![qv, kb, row])
    }

    /// A whole per-head matrix whose row `i` is query `i`'s vector (scores,
    /// weights), rows appearing one by one.
    #[allow(clippy::too_many_arguments)]
    fn query_block(
        &self,
        id: &str,
        title: &str,
        sym: &str,
        m: &Matrix,
        role: Role,
        appear: bool,
        bars: bool,
    ) -> Scene {
        let n = m.nrows();
        let range = window(n, 0);
        let rows = range
            .clone()
            .map(|i| {
                let mut cells = self.row_cells(m, i, bars);
                if !bars {
                    for (c, j) in cells.iter_mut().zip(0..) {
                        let hidden =
                            role == Role::Score && j < self.n() && !self.c.trace.allowed[(i, j)];
                        if c.state == CellState::Value && hidden {
                            c.state = CellState::Masked;
                            c.text = "−∞".into();
                        }
                    }
                }
                // Scores and weights are α₁,·; outputs are b¹, or head r's
                // b^{1,r} (`sym` "b,r", r 0-based).
                let label = match sym.strip_prefix("b,").and_then(|r| r.parse().ok()) {
                    Some(r) => at_head("b", i, r),
                    None if sym == "b" => at(sym, i),
                    None => format!("{sym}{}", sub(i)),
                };
                Row {
                    id: format!("{id}.{i}"),
                    label: vec![label],
                    cells,
                    lit: true,
                    opacity: if appear {
                        ramp(self.lp * n as f64, i as f64, i as f64 + 0.6)
                    } else {
                        1.0
                    },
                }
            })
            .collect();
        self.block(id, title, rows, role, false, n - range.len())
    }

    /// A matrix of scores, query `i`'s row (column) as vector `{id}.{i}`,
    /// hidden scores shown as −∞.
    fn scores_block(&self, id: &str, title: &str, sym: &str, m: &Matrix) -> Scene {
        self.query_block(id, title, sym, m, Role::Score, false, false)
    }

    /// Head `r`'s attention weights A, each query's weights with bars.
    fn weights_block(&self, r: usize) -> Scene {
        let w = &self.head(r).weights;
        self.query_block(&format!("a.{r}"), "A", "α′", w, Role::Weight, false, true)
    }

    /// Row `i` of `m`, with weight bars.
    fn row_cells(&self, m: &Matrix, i: usize, bars: bool) -> Vec<Cell> {
        let mut cells = Self::row(m, i);
        if bars {
            for c in &mut cells {
                if c.state == CellState::Value && c.value.is_finite() {
                    c.bar = Some(c.value.clamp(0.0, 1.0));
                }
            }
        }
        cells
    }

    fn scores_all(&self, r: usize) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let range = window(n, 0);
        let hidden = n - range.len();
        let q = self.rows_of(&h.q, &format!("q.{r}"), "q", range.clone());
        let k = self.rows_of(&h.k, &format!("k.{r}"), "k", range);
        let s = self.query_block(
            &format!("s.{r}"),
            "S",
            "α",
            &h.scores,
            Role::Score,
            true,
            false,
        );
        let s = unmask(s);
        self.product(
            self.block(&format!("q.{r}"), "Q", q, Role::Query, false, hidden),
            self.block(&format!("k.{r}"), "Kᵀ", k, Role::Key, true, hidden),
            s,
        )
    }

    /// The id of the row query `i`'s softmax reads: masked, scaled or raw.
    fn softmax_input(&self, r: usize, i: usize) -> (String, Vec<Cell>, String) {
        let t = self.c.trace;
        let h = self.head(r);
        let n = self.n();
        let masked = (0..n).any(|j| !t.allowed[(i, j)]);
        let mut cells = Self::row(&h.scaled, i);
        let id = if masked {
            for (c, j) in cells.iter_mut().zip(0..) {
                if c.state == CellState::Value && !t.allowed[(i, j)] {
                    c.state = CellState::Masked;
                    c.text = "−∞".into();
                }
            }
            format!("m.{r}.{i}")
        } else if t.scale {
            format!("sc.{r}.{i}")
        } else {
            format!("s.{r}.{i}")
        };
        let label = if t.scale {
            format!("α̃{},·", sub(i))
        } else {
            format!("α{},·", sub(i))
        };
        (id, cells, label)
    }

    fn scale(&self, r: usize, i: Option<usize>) -> Scene {
        let t = self.c.trace;
        let h = self.head(r);
        let d_k = h.q.ncols();
        let op = format!("÷ √{d_k} = ÷ {}", short(t.divisor));
        let show = ramp(self.lp, 0.25, 0.6);
        match i {
            Some(i) => {
                let s = Self::row(&h.scores, i);
                let row = self.strip(
                    &format!("s.{r}.{i}"),
                    &format!("α{},·", sub(i)),
                    Role::Score,
                    s,
                    true,
                );
                let mut sc = self.strip(
                    &format!("sc.{r}.{i}"),
                    &format!("α̃{},·", sub(i)),
                    Role::Score,
                    Self::row(&h.scaled, i),
                    true,
                );
                fade(&mut sc, show);
                self.flow(vec![row, self.op("op.scale", &op), sc])
            }
            None => {
                let s = unmask(self.scores_block(&format!("s.{r}"), "S", "α", &h.scores));
                let mut sc =
                    unmask(self.scores_block(&format!("sc.{r}"), "S / √d_k", "α̃", &h.scaled));
                fade(&mut sc, show);
                across(vec![s, self.op("op.scale", &op), sc], self.c.g.max_w)
            }
        }
    }

    fn mask(&self, r: usize, i: Option<usize>) -> Scene {
        let t = self.c.trace;
        let h = self.head(r);
        let hide = ramp(self.lp, 0.2, 0.5) >= 1.0;
        let sym = if t.scale { "α̃" } else { "α" };
        let src = if t.scale { "sc" } else { "s" };
        match i {
            Some(i) => {
                let before = Self::row(&h.scaled, i);
                let (_, mut after, label) = self.softmax_input(r, i);
                for c in &mut after {
                    if c.state == CellState::Masked {
                        c.lit = true;
                        if !hide {
                            c.state = CellState::Value;
                            c.text = short(c.value);
                        }
                    }
                }
                let a = self.strip(
                    &format!("{src}.{r}.{i}"),
                    &format!("{sym}{},·", sub(i)),
                    Role::Score,
                    before,
                    true,
                );
                let b = self.strip(&format!("m.{r}.{i}"), &label, Role::Score, after, true);
                self.flow(vec![a, self.op("op.mask", "→ −∞"), b])
            }
            None => {
                let a = unmask(self.scores_block(&format!("{src}.{r}"), "S", sym, &h.scaled));
                let mut b = self.scores_block(&format!("m.{r}"), "S + M", sym, &h.scaled);
                if !hide {
                    b = unmask(b);
                }
                across(vec![a, self.op("op.mask", "→ −∞"), b], self.c.g.max_w)
            }
        }
    }

    fn softmax(&self, r: usize, i: Option<usize>) -> Scene {
        let t = self.c.trace;
        let h = self.head(r);
        let Some(i) = i else {
            let (sym, src) = if t.masked {
                (if t.scale { "α̃" } else { "α" }, "m")
            } else if t.scale {
                ("α̃", "sc")
            } else {
                ("α", "s")
            };
            let s = self.scores_block(&format!("{src}.{r}"), "S", sym, &h.scaled);
            let mut a = self.weights_block(r);
            fade(&mut a, ramp(self.lp, 0.2, 0.7));
            return across(
                vec![s, self.op("op.softmax", "softmax →"), a],
                self.c.g.max_w,
            );
        };
        let n = self.n();
        let (in_id, in_cells, label) = self.softmax_input(r, i);
        let input = self.strip(&in_id, &label, Role::Score, in_cells, true);
        let row: Vec<f64> = h.scaled.row(i).iter().copied().collect();
        let allowed: Vec<bool> = (0..n).map(|j| t.allowed[(i, j)]).collect();
        let Some(parts) = softmax_parts(&row, &allowed) else {
            return self.flow(vec![input, self.op("op.undefined", "∅")]);
        };
        let mut exps = Self::cells(parts.exps.clone().into_iter());
        for (c, j) in exps.iter_mut().zip(0..) {
            if c.state == CellState::Value {
                c.bar = Some(parts.exps[j] / parts.sum);
            }
        }
        let mut e = self.strip(&format!("e.{r}.{i}"), "exp", Role::Score, exps, true);
        fade(&mut e, ramp(self.lp, 0.1, 0.35));
        let mut sum = self.op(
            &format!("sum.{r}.{i}"),
            &format!("Σ = {}", short(parts.sum)),
        );
        fade(&mut sum, ramp(self.lp, 0.4, 0.55));
        let weights = self.row_cells(&h.weights, i, true);
        let mut w = self.strip(
            &format!("a.{r}.{i}"),
            &format!("α′{},·", sub(i)),
            Role::Weight,
            weights,
            true,
        );
        fade(&mut w, ramp(self.lp, 0.6, 0.85));
        let max = self.op(
            &format!("max.{r}.{i}"),
            &format!("− max ({})", short(parts.max)),
        );
        self.flow(vec![input, max, e, sum, w])
    }

    fn weighted_sum(&self, r: usize, i: Option<usize>) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let Some(i) = i else {
            return self.matrix_form(r);
        };
        if h.weights[(i, 0)].is_nan() {
            let b = self.vector(
                &format!("b.{r}.{i}"),
                Role::Output,
                Self::row(&h.output, i),
                true,
            );
            return self.flow(vec![self.op("op.undefined", "∅"), b]);
        }
        // The keys drawn: all of them, or the SHOWN heaviest (in key order).
        // (A key is kept when fewer than SHOWN keys outweigh it, ties going
        // to the earlier key; no sort, which would cost code size.)
        let keys: Vec<usize> = (0..n)
            .filter(|&j| {
                let w = h.weights[(i, j)];
                let heavier = (0..n)
                    .filter(|&m| {
                        let v = h.weights[(i, m)];
                        v > w || (v == w && m < j)
                    })
                    .count();
                heavier < SHOWN
            })
            .collect();
        let m = keys.len() as f64;
        let g = self.c.g;
        let lw = g.text_w("α′₁₀,₁₀");
        let mut lines = Vec::new();
        for (k, &j) in keys.iter().enumerate() {
            let w = h.weights[(i, j)];
            let appear = ramp(self.lp * m / 0.45, k as f64, k as f64 + 1.0);
            let mut wc = self.vector(
                &format!("aw.{r}.{i}.{j}"),
                Role::Weight,
                vec![Cell {
                    bar: Some(w.clamp(0.0, 1.0)),
                    ..Cell::value(w)
                }],
                true,
            );
            let wlabel = format!("α′{},{}", sub(i), subscript(j + 1));
            wc = self.labelled(wc, &[&wlabel], Some(lw));
            let v = self.vector(
                &format!("v.{r}.{j}"),
                Role::Value,
                Self::row(&h.v, j),
                false,
            );
            let v = self.labelled(v, &[&at("v", j)], None);
            let weighted: Vec<f64> = h.v.row(j).iter().map(|x| w * x).collect();
            let mut wv = self.vector(
                &format!("wv.{r}.{i}.{j}"),
                Role::Weighted,
                Self::cells(weighted.into_iter()),
                true,
            );
            fade(&mut wv, appear);
            let parts = vec![
                wc,
                self.op(&format!("op.x{j}"), "×"),
                v,
                self.op(&format!("op.eq{j}"), "="),
                wv,
            ];
            lines.push(if self.vertical() {
                down(parts, 4.0)
            } else {
                across(parts, g.max_w)
            });
        }
        if n > keys.len() {
            lines.push(self.op("op.rest", &format!("⋯ +{}", n - keys.len())));
        }
        let stack = if self.vertical() {
            across(lines, g.max_w)
        } else {
            down(lines, 4.0)
        };
        let mut b = self.vector(
            &format!("b.{r}.{i}"),
            Role::Output,
            Self::row(&h.output, i),
            true,
        );
        fade(&mut b, ramp(self.lp, 0.8, 0.95));
        let name = self.b_of(r, i);
        let b = if self.vertical() {
            self.labelled(b, &["Σ =", &name], None)
        } else {
            self.labelled(b, &[&format!("{name} = Σ")], Some(lw))
        };
        let mut scene = self.flow(vec![stack, b]);
        // Copies of the weighted values slide together into bⁱ and merge
        // into it; the originals stay where they were computed.
        let slide = ease(ramp(self.lp, 0.5, 0.85));
        let target = scene.get(&format!("b.{r}.{i}")).map(|b| (b.x, b.y));
        if let (Some((bx, by)), true) = (target, slide > 0.0 && slide < 1.0) {
            let prefix = format!("wv.{r}.{i}.");
            let flies: Vec<Item> = scene
                .items
                .iter()
                .filter(|it| it.id.starts_with(&prefix))
                .map(|it| Item {
                    id: format!("{}.fly", it.id),
                    x: lerp(it.x, bx, slide),
                    y: lerp(it.y, by, slide),
                    opacity: it.opacity * (1.0 - slide * slide),
                    ..it.clone()
                })
                .collect();
            scene.items.extend(flies);
        }
        scene
    }

    fn matrix_form(&self, r: usize) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let range = window(n, 0);
        let a = self.weights_block(r);
        let v = self.block(
            &format!("v.{r}"),
            "V",
            self.rows_of(&h.v, &format!("v.{r}"), "v", range.clone()),
            Role::Value,
            false,
            n - range.len(),
        );
        let title = self.b_name(r);
        let sym = if self.per_head() {
            format!("b,{r}")
        } else {
            "b".into()
        };
        let b = self.query_block(
            &format!("b.{r}"),
            &title,
            &sym,
            &h.output,
            Role::Output,
            true,
            false,
        );
        self.product(a, v, b)
    }

    /// The heads' output blocks, `spread` px apart (0: one concatenated block).
    fn heads_together(&self, spread: f64) -> Scene {
        let t = self.c.trace;
        let n = self.n();
        let range = window(n, 0);
        let hs = t.heads.len();
        let blocks: Vec<Scene> = (0..hs)
            .map(|r| {
                let rows = range
                    .clone()
                    .map(|i| {
                        let cells = Self::row(&t.heads[r].output, i);
                        Row {
                            id: format!("b.{r}.{i}"),
                            label: vec![if r == 0 {
                                self.b_of(r, i)
                            } else {
                                String::new()
                            }],
                            cells,
                            lit: true,
                            opacity: 1.0,
                        }
                    })
                    .collect();
                let title = self.b_name(r);
                self.block(
                    &format!("b.{r}"),
                    &title,
                    rows,
                    Role::Output,
                    false,
                    if r + 1 == hs { n - range.len() } else { 0 },
                )
            })
            .collect();
        let mut out = Scene::default();
        for b in blocks {
            let (bw, bh) = (b.w, b.h);
            if self.vertical() {
                let y = if out.items.is_empty() {
                    0.0
                } else {
                    out.h + spread
                };
                out.items.extend(b.shifted(0.0, y).items);
                out.h = y + bh;
                out.w = out.w.max(bw);
            } else {
                let x = if out.items.is_empty() {
                    0.0
                } else {
                    out.w + spread
                };
                out.items.extend(b.shifted(x, 0.0).items);
                out.w = x + bw;
                out.h = out.h.max(bh);
            }
        }
        out
    }

    fn concat(&self) -> Scene {
        let spread = lerp(28.0, 2.0, ease(ramp(self.lp, 0.2, 0.8)));
        let together = self.heads_together(spread);
        let mut label = self.op("op.concat", "concat");
        fade(&mut label, ramp(self.lp, 0.7, 0.9));
        if self.vertical() {
            across(vec![together, label], self.c.g.max_w)
        } else {
            down(vec![together, label], 4.0)
        }
    }

    fn output(&self) -> Scene {
        let t = self.c.trace;
        let together = self.heads_together(2.0);
        let out = self.query_block("o", "B", "b", &t.output, Role::Output, true, false);
        match &self.c.scenario.w_o {
            Some(w_o) => {
                let wo = self.param("wo", ("W_O", "W^O"), w_o);
                self.product(together, wo, out)
            }
            None => across(vec![together, self.op("op.eq", "="), out], self.c.g.max_w),
        }
    }

    /// A parameter matrix (W_Q, W_O, …), lit, named `names.0` in the row
    /// layout and `names.1` (its transpose, as note 000 writes it) in the
    /// column layout, where its rows are drawn as columns.
    fn param(&self, id: &str, names: (&str, &str), m: &Matrix) -> Scene {
        let d = m.nrows();
        let rows = self
            .rows_of(m, id, "", window(d, 0))
            .into_iter()
            .map(|row| Row {
                label: vec![String::new()],
                lit: true,
                ..row
            })
            .collect();
        let title = if self.vertical() { names.1 } else { names.0 };
        self.block(id, title, rows, Role::Param, false, d.saturating_sub(SHOWN))
    }

    /// Head `r`'s outputs so far, at the side while query `i` is computed:
    /// bʲ for the queries done (`j < i`), empty rows for the rest. The rows
    /// done keep the ids of the bʲ that were computed, so a finished bⁱ
    /// moves here on the next step.
    fn done_block(&self, r: usize, i: usize) -> Scene {
        let n = self.n();
        let range = window(n, i);
        let out = &self.head(r).output;
        let rows = range
            .clone()
            .map(|j| {
                let done = j < i;
                let mut cells = Self::row(out, j);
                if !done {
                    cells = cells.into_iter().map(Cell::pending).collect();
                }
                Row {
                    id: if done {
                        format!("b.{r}.{j}")
                    } else {
                        format!("bp.{r}.{j}")
                    },
                    label: vec![self.b_of(r, j)],
                    cells,
                    lit: false,
                    opacity: 1.0,
                }
            })
            .collect();
        self.block(
            &format!("done.{r}"),
            &self.b_name(r),
            rows,
            Role::Output,
            false,
            n - range.len(),
        )
    }

    fn scene(&self, step: Step) -> Scene {
        let r = step.head.unwrap_or(0);
        let main = self.step_scene(step, r);
        // One query at a time: the outputs so far beside it, when they fit.
        match step.phase.query() {
            Some(i) => {
                let done = self.done_block(r, i);
                if main.w + 3.0 * GAP + done.w <= self.c.g.max_w {
                    let (mw, dw, dh) = (main.w, done.w, done.h);
                    let mut out = main;
                    out.items.extend(done.shifted(mw + 3.0 * GAP, 0.0).items);
                    out.w = mw + 3.0 * GAP + dw;
                    out.h = out.h.max(dh);
                    out
                } else {
                    main
                }
            }
            None => main,
        }
    }

    fn step_scene(&self, step: Step, r: usize) -> Scene {
        match step.phase {
            Phase::Inputs => self.inputs(),
            Phase::Query => self.project(r, 0),
            Phase::Key => self.project(r, 1),
            Phase::Value => self.project(r, 2),
            Phase::Scores {
                i: Some(i),
                j: Some(j),
            } => self.dot(r, i, j),
            Phase::Scores { i: Some(i), .. } => self.scores_row(r, i),
            Phase::Scores { .. } => self.scores_all(r),
            Phase::Scale { i } => self.scale(r, i),
            Phase::Mask { i } => self.mask(r, i),
            Phase::Softmax { i } => self.softmax(r, i),
            Phase::WeightedSum { i } => self.weighted_sum(r, i),
            Phase::MatrixForm => self.matrix_form(r),
            Phase::Concat => self.concat(),
            Phase::Output => self.output(),
        }
    }
}

/// Query `i` (0-based) as a subscript.
fn sub(i: usize) -> String {
    subscript(i + 1)
}

/// Scales the opacity of every item of `s`.
fn fade(s: &mut Scene, f: f64) {
    for it in &mut s.items {
        it.opacity *= f;
    }
}

/// Shows masked scores as the numbers they were (before the mask step).
fn unmask(mut s: Scene) -> Scene {
    for it in &mut s.items {
        if let Body::Cells { cells, .. } = &mut it.body {
            for c in cells {
                if c.state == CellState::Masked {
                    c.state = CellState::Value;
                    c.text = short(c.value);
                }
            }
        }
    }
    s
}

/// The picture of `step` at its own progress `lp` (0..=1), at the top left.
pub fn scene(c: Ctx, step: Step, lp: f64) -> Scene {
    B {
        c,
        lp: lp.clamp(0.0, 1.0),
    }
    .scene(step)
}

/// The share of a step spent moving from the last step's picture.
pub const ARRIVE: f64 = 0.25;
/// The share of a step held still at its end (a pause before the next move).
pub const HOLD: f64 = 0.15;

/// What the stage shows at step `k` of `tl`, `p` of the way through it.
///
/// The first [`ARRIVE`] of a step moves the items the last step left from
/// where they were to where this step puts them (new ones fade in, old ones
/// fade out); then the step's own motion plays; the last [`HOLD`] holds
/// still. With `reduce_motion` the step's end state is shown at once.
pub fn frame(c: Ctx, tl: &Timeline, k: usize, p: f64, reduce_motion: bool) -> Scene {
    let step = tl.steps[k.min(tl.len() - 1)];
    if reduce_motion {
        return scene(c, step, 1.0);
    }
    let p = p.clamp(0.0, 1.0);
    let (arrive, lp) = if k == 0 {
        (1.0, ramp(p, 0.0, 1.0 - HOLD))
    } else {
        (ease(ramp(p, 0.0, ARRIVE)), ramp(p, ARRIVE, 1.0 - HOLD))
    };
    let cur = scene(c, step, lp);
    if arrive >= 1.0 {
        return cur;
    }
    let prev = scene(c, tl.steps[k - 1], 1.0);
    blend(&prev, cur, arrive)
}

/// `cur` arriving from `prev`: shared items move, others fade.
fn blend(prev: &Scene, mut cur: Scene, t: f64) -> Scene {
    for it in &mut cur.items {
        match prev.get(&it.id) {
            Some(old) => {
                let moves = (old.x - it.x).abs() + (old.y - it.y).abs() > 1.0;
                it.x = lerp(old.x, it.x, t);
                it.y = lerp(old.y, it.y, t);
                it.opacity = lerp(old.opacity, it.opacity, t);
                // A label that changes place travels unseen and fades in
                // where it lands: drawn on the way, it would cross the
                // names of what it passes (α₁,· over k¹).
                if moves && matches!(it.body, Body::Text { .. }) {
                    it.opacity *= ramp(t, 0.85, 1.0);
                }
            }
            // What is new fades in once the rest has nearly settled.
            None => it.opacity *= ramp(t, 0.4, 1.0),
        }
    }
    let leaving: Vec<Item> = prev
        .items
        .iter()
        .filter(|old| cur.get(&old.id).is_none())
        .map(|old| Item {
            // Gone within the first third of the move, so nothing that
            // arrives is ever drawn over what is leaving.
            opacity: old.opacity * (1.0 - ramp(t, 0.0, 0.3)),
            lit: false,
            ..old.clone()
        })
        .collect();
    cur.items.extend(leaving);
    cur.w = lerp(prev.w, cur.w, t).max(cur.w);
    cur.h = lerp(prev.h, cur.h, t).max(cur.h);
    cur
}

/// Everything the stage's size depends on: the geometry (which holds the
/// width of the longest number), the convention, the shapes, the options
/// and the steps, but not the numbers themselves. An edit that keeps it
/// equal keeps the size, so [`extent`] need not run again.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeKey {
    g: Geometry,
    conv: Convention,
    shape: [usize; 6],
    pe: Positional,
    allowed: nalgebra::DMatrix<bool>,
    steps: Vec<Step>,
}

/// The [`SizeKey`] of `c` and `tl`.
pub fn size_key(c: Ctx, tl: &Timeline) -> SizeKey {
    let s = c.scenario;
    SizeKey {
        g: c.g,
        conv: c.conv,
        shape: [
            s.n(),
            s.d_model(),
            s.d_k(),
            s.d_v(),
            s.heads.len(),
            s.w_o.as_ref().map_or(0, |w| w.ncols()),
        ],
        pe: c.trace.positional,
        allowed: c.trace.allowed.clone(),
        steps: tl.steps.clone(),
    }
}

/// The tallest and widest picture of any step of `tl`, so the stage keeps
/// one size while it plays. One step of each kind is enough: the others
/// differ only in which query or head (all heads share d_k and d_v, and
/// cells have one width), not in shape.
pub fn extent(c: Ctx, tl: &Timeline) -> (f64, f64) {
    let mut seen: Vec<(std::mem::Discriminant<Phase>, bool)> = Vec::new();
    let mut size = (0.0f64, 0.0f64);
    for step in &tl.steps {
        let one = matches!(
            step.phase,
            Phase::Scores {
                i: Some(_),
                j: None
            }
        );
        let key = (std::mem::discriminant(&step.phase), one);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        for lp in [0.0, 1.0] {
            let s = scene(c, *step, lp);
            size = (size.0.max(s.w), size.1.max(s.h));
        }
    }
    size
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{notes_004, random, two_heads, Dims};
    use crate::timeline::Granularity;
    use attention::{compute, Mask};

    fn ctx<'a>(s: &'a Scenario, t: &'a Trace, conv: Convention, width: f64) -> Ctx<'a> {
        Ctx {
            trace: t,
            scenario: s,
            conv,
            g: Geometry::new(t, width),
        }
    }

    fn cells(it: &Item) -> &[Cell] {
        match &it.body {
            Body::Cells { cells, .. } => cells,
            Body::Text { .. } => panic!("{} is text", it.id),
        }
    }

    fn values(it: &Item) -> Vec<f64> {
        cells(it)
            .iter()
            .filter(|c| c.state == CellState::Value)
            .map(|c| c.value)
            .collect()
    }

    /// Every frame of every step: inside the scene, inside the width, with
    /// something lit, at several moments of the step.
    fn check_all_frames(s: &Scenario, width: f64) {
        let t = compute(s).unwrap();
        for conv in [Convention::Row, Convention::Col] {
            let c = ctx(s, &t, conv, width);
            for g in Granularity::ALL {
                let tl = Timeline::new(&t, g, s.w_o.is_some());
                let (ew, eh) = extent(c, &tl);
                for k in 0..tl.len() {
                    for p in [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0] {
                        let f = frame(c, &tl, k, p, false);
                        let ctx = format!("{conv:?} {g:?} step {k} {:?} p={p}", tl.steps[k]);
                        assert!(f.items.iter().any(|i| i.lit), "nothing lit: {ctx}");
                        for it in &f.items {
                            let (w, h) = it.size(&c.g);
                            assert!(it.x >= -0.01 && it.y >= -0.01, "{} {ctx}", it.id);
                            if it.lit {
                                // What the step highlights lies inside the stage.
                                assert!(it.x + w <= ew.max(f.w) + 0.01, "{} {ctx}", it.id);
                                assert!(it.y + h <= eh.max(f.h) + 0.01, "{} {ctx}", it.id);
                            }
                            assert!((0.0..=1.0).contains(&it.opacity), "{ctx}");
                            if let Body::Cells { cells, .. } = &it.body {
                                assert!(cells.len() <= SHOWN, "{} {ctx}", it.id);
                            }
                        }
                    }
                    // At the end of a step, the scene is its own end state.
                    assert_eq!(frame(c, &tl, k, 1.0, false), scene(c, tl.steps[k], 1.0));
                    assert_eq!(frame(c, &tl, k, 0.3, true), scene(c, tl.steps[k], 1.0));
                }
                {
                    for k in 0..tl.len() {
                        let w = scene(c, tl.steps[k], 1.0).w;
                        assert!(
                            w <= width + 0.01,
                            "{conv:?} {g:?} {:?}: {w} wider than {width}",
                            tl.steps[k]
                        );
                    }
                }
            }
        }
    }

    /// Texts (labels, operators) that overlap another visible item while
    /// both are drawn at more than half strength, in any frame of `s`.
    fn overlaps(s: &Scenario, width: f64) -> Vec<String> {
        let t = compute(s).unwrap();
        let mut found = Vec::new();
        for conv in [Convention::Row, Convention::Col] {
            let c = ctx(s, &t, conv, width);
            for g in Granularity::ALL {
                let tl = Timeline::new(&t, g, s.w_o.is_some());
                for k in 0..tl.len() {
                    for p in [0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0] {
                        let f = frame(c, &tl, k, p, false);
                        let shown: Vec<&Item> =
                            f.items.iter().filter(|i| i.opacity > 0.5).collect();
                        let texts: Vec<&&Item> = shown
                            .iter()
                            .filter(|i| matches!(i.body, Body::Text { .. }))
                            .collect();
                        for a in &texts {
                            let (aw, ah) = a.size(&c.g);
                            for b in &texts {
                                if std::ptr::eq(**a, **b) {
                                    continue;
                                }
                                let (bw, bh) = b.size(&c.g);
                                let ox = (a.x + aw).min(b.x + bw) - a.x.max(b.x);
                                let oy = (a.y + ah).min(b.y + bh) - a.y.max(b.y);
                                if ox > 2.0 && oy > 2.0 {
                                    found.push(format!(
                                        "{conv:?} {g:?} step {} {:?} p={p}: {} over {}",
                                        k + 1,
                                        tl.steps[k].phase,
                                        a.id,
                                        b.id
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
        found
    }

    /// Every name the stage draws is in the notation table of its layout
    /// (`crate::notation`): inputs aⁱ, outputs B and bⁱ (b^{i,r}
    /// per head), never x, o, H or Y.
    #[test]
    fn the_stage_names_things_only_by_the_notation_table() {
        use crate::edit::{apply, Edit};
        use crate::notation::is_symbol;
        use crate::presets::Preset;
        let mut one_hot = notes_004();
        one_hot = apply(
            &one_hot,
            &Edit::Positional(attention::Positional::OneHot),
            1,
        )
        .unwrap();
        for s in [
            notes_004(),
            one_hot,
            Preset::TwoHeads.build(),
            Preset::ISawASaw.build(),
            Preset::PreviousToken.build(),
        ] {
            let t = compute(&s).unwrap();
            let token_words: Vec<&str> =
                s.tokens.iter().flat_map(|t| t.split_whitespace()).collect();
            for conv in [Convention::Row, Convention::Col] {
                let c = ctx(&s, &t, conv, 660.0);
                for g in Granularity::ALL {
                    let tl = Timeline::new(&t, g, s.w_o.is_some());
                    for k in 0..tl.len() {
                        for it in scene(c, tl.steps[k], 1.0).items {
                            let Body::Text { lines, .. } = &it.body else {
                                continue;
                            };
                            let words = lines.iter().flat_map(|l| {
                                l.split(|c: char| c.is_whitespace() || "[];|+=()".contains(c))
                            });
                            for word in words {
                                if token_words.contains(&word)
                                    || !word.chars().any(char::is_alphabetic)
                                {
                                    continue;
                                }
                                assert!(
                                    is_symbol(word, conv),
                                    "{conv:?} {g:?} step {} {:?}: {word:?} in {lines:?} is not in the table",
                                    k + 1,
                                    tl.steps[k].phase
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn no_label_is_drawn_over_another_item_in_any_frame() {
        let two = crate::presets::Preset::TwoHeads.build();
        for (s, width) in [(notes_004(), 660.0), (notes_004(), 350.0), (two, 660.0)] {
            let found = overlaps(&s, width);
            assert!(
                found.is_empty(),
                "{} overlaps, first: {:#?}",
                found.len(),
                &found[..found.len().min(40)]
            );
        }
    }

    #[test]
    fn every_frame_of_note_004_fits_at_700_and_390_px() {
        let s = notes_004();
        check_all_frames(&s, 660.0);
        check_all_frames(&s, 350.0);
        let t = compute(&s).unwrap();
        for conv in [Convention::Row, Convention::Col] {
            for g in Granularity::ALL {
                let c = ctx(&s, &t, conv, 660.0);
                let (w, h) = extent(c, &Timeline::new(&t, g, false));
                // Room for the controls and the caption within 640 px.
                assert!(h <= 330.0 && w <= 660.0, "{conv:?} {g:?}: {w}×{h}");
            }
        }
    }

    #[test]
    fn every_frame_fits_for_heads_masks_scaling_and_large_scenarios() {
        let mut s = two_heads();
        check_all_frames(&s, 660.0);
        s.scale = false;
        s.mask = Mask::Window(1);
        check_all_frames(&s, 350.0);
        let big = Dims {
            n: 12,
            d_model: 20,
            d_k: 10,
            d_v: 9,
            heads: 2,
        };
        let mut s = random(4, big, true);
        s.mask = Mask::Padding(3);
        s.positional = attention::Positional::Sinusoidal;
        let t = compute(&s).unwrap();
        for conv in [Convention::Row, Convention::Col] {
            let c = ctx(&s, &t, conv, 660.0);
            let tl = Timeline::new(&t, Granularity::Row, true);
            for k in 0..tl.len() {
                let f = frame(c, &tl, k, 0.6, false);
                assert!(f.items.iter().any(|i| i.lit));
                for it in &f.items {
                    if let Body::Cells { cells, .. } = &it.body {
                        assert!(cells.len() <= SHOWN, "{}", it.id);
                    }
                }
            }
        }
    }

    #[test]
    fn one_hot_positions_are_drawn_concatenated_and_fit() {
        use crate::edit::{apply, Edit};
        let one_hot = Edit::Positional(attention::Positional::OneHot);
        let s = apply(&notes_004(), &one_hot, 1).unwrap();
        // 660 px (an embedded figure). [X | E] is 7 numbers wide, so on a
        // phone it scrolls inside the figure, as any wide input does.
        check_all_frames(&s, 660.0);
        let t = compute(&s).unwrap();
        let c = ctx(&s, &t, Convention::Row, 660.0);
        let tl = Timeline::new(&t, Granularity::Matrix, false);
        let f = frame(c, &tl, 0, 1.0, false);
        let item = |id: &str| {
            f.items
                .iter()
                .find(|i| i.id == id)
                .unwrap_or_else(|| panic!("{id}"))
        };
        // x¹ = [1, 0, 1, 0] | e¹ = [1, 0, 0] → [1, 0, 1, 0, 1, 0, 0].
        assert_eq!(values(item("xraw.0")), vec![1.0, 0.0, 1.0, 0.0]);
        assert_eq!(values(item("pe.1")), vec![0.0, 1.0, 0.0]);
        assert_eq!(values(item("x.0")), vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0]);
        assert!(matches!(&item("op.cat").body, Body::Text { lines, .. } if lines == &["|"]));
        assert!(f.items.iter().all(|i| i.id != "op.plus"));
        // The projections multiply [X | E] by the 7-row W_Q.
        let q = tl
            .steps
            .iter()
            .position(|st| st.phase == Phase::Query)
            .unwrap();
        let f = frame(c, &tl, q, 1.0, false);
        let x = f.items.iter().find(|i| i.id == "x.0").unwrap();
        assert_eq!(cells(x).len(), 7);
    }

    #[test]
    fn every_number_on_stage_is_the_engines() {
        let s = notes_004();
        let t = compute(&s).unwrap();
        let h = &t.heads[0];
        let c = ctx(&s, &t, Convention::Row, 660.0);
        let tl = Timeline::new(&t, Granularity::Dot, false);
        // α₁,₂ = q¹·k² = 1·4 + 0·4 + 2·0 = 4 (note 004).
        let k = tl
            .steps
            .iter()
            .position(|st| {
                st.phase
                    == Phase::Scores {
                        i: Some(0),
                        j: Some(1),
                    }
            })
            .unwrap();
        let f = frame(c, &tl, k, 1.0, false);
        assert_eq!(values(f.get("prod.0.0.1").unwrap()), vec![4.0, 0.0, 0.0]);
        assert_eq!(values(f.get("alpha.0.0.1").unwrap()), vec![4.0]);
        // The scores row holds α₁,₁ and α₁,₂ now, α₁,₃ still to come.
        assert_eq!(values(f.get("s.0.0").unwrap()), vec![2.0, 4.0]);
        // Softmax of query 1: the engine's weights, exps that divide into them.
        let k = tl
            .steps
            .iter()
            .position(|st| st.phase == Phase::Softmax { i: Some(0) })
            .unwrap();
        let f = frame(c, &tl, k, 1.0, false);
        let w = values(f.get("a.0.0").unwrap());
        assert_eq!(w, h.weights.row(0).iter().copied().collect::<Vec<_>>());
        let e = values(f.get("e.0.0").unwrap());
        let sum: f64 = e.iter().sum();
        for (e, w) in e.iter().zip(&w) {
            assert_eq!(e / sum, *w);
        }
        // b¹ = [1.9366, 6.6831, 1.5951] (the note's exact softmax), the
        // engine's numbers bit for bit; the weighted values are α′·vʲ.
        let k = tl
            .steps
            .iter()
            .position(|st| st.phase == Phase::WeightedSum { i: Some(0) })
            .unwrap();
        let f = frame(c, &tl, k, 1.0, false);
        let b = values(f.get("b.0.0").unwrap());
        assert_eq!(b, h.output.row(0).iter().copied().collect::<Vec<_>>());
        assert_eq!(short(b[0]), "1.9366");
        assert_eq!(short(b[1]), "6.6831");
        assert_eq!(short(b[2]), "1.5951");
        for j in 0..3 {
            let wv = values(f.get(&format!("wv.0.0.{j}")).unwrap());
            let want: Vec<f64> = h.v.row(j).iter().map(|v| h.weights[(0, j)] * v).collect();
            assert_eq!(wv, want);
        }
    }

    #[test]
    fn products_appear_term_by_term_and_the_score_lands_in_its_slot() {
        let s = notes_004();
        let t = compute(&s).unwrap();
        for conv in [Convention::Row, Convention::Col] {
            let c = ctx(&s, &t, conv, 660.0);
            let st = Step {
                head: Some(0),
                phase: Phase::Scores {
                    i: Some(0),
                    j: Some(1),
                },
            };
            let shown = |lp: f64| {
                let f = scene(c, st, lp);
                cells(f.get("prod.0.0.1").unwrap())
                    .iter()
                    .filter(|c| c.state == CellState::Value)
                    .count()
            };
            assert_eq!(shown(0.0), 0);
            assert_eq!(shown(0.25), 1);
            assert_eq!(shown(0.45), 2);
            assert_eq!(shown(0.65), 3);
            // The pair being multiplied is lit in q, k and the products.
            let f = scene(c, st, 0.25);
            for id in ["q.0.0", "k.0.1", "prod.0.0.1"] {
                let lit: Vec<bool> = cells(f.get(id).unwrap()).iter().map(|c| c.lit).collect();
                assert_eq!(lit, vec![false, true, false], "{id}");
            }
            // α₁,₂ sits by its Σ, then travels into slot 2 of the scores row.
            let mid = scene(c, st, 0.7);
            let end = scene(c, st, 1.0);
            let row = end.get("s.0.0").unwrap();
            let a_end = end.get("alpha.0.0.1.fly").unwrap();
            let slot = if conv == Convention::Row {
                (row.x + c.g.cw, row.y)
            } else {
                (row.x, row.y + c.g.ch)
            };
            assert!((a_end.x - slot.0).abs() < 1e-9 && (a_end.y - slot.1).abs() < 1e-9);
            let a_mid = mid.get("alpha.0.0.1.fly").unwrap();
            assert!((a_mid.x, a_mid.y) != (a_end.x, a_end.y));
            // Column layout: vectors are columns.
            let Body::Cells { vertical, .. } = &row.body else {
                panic!()
            };
            assert_eq!(*vertical, conv == Convention::Col);
        }
    }

    #[test]
    fn a_step_arrives_from_where_the_last_one_left_its_items() {
        let s = notes_004();
        let t = compute(&s).unwrap();
        let c = ctx(&s, &t, Convention::Row, 660.0);
        let tl = Timeline::new(&t, Granularity::Row, false);
        // Scores of query 1 → softmax of query 1: the scores row moves.
        let k = tl
            .steps
            .iter()
            .position(|st| st.phase == Phase::Softmax { i: Some(0) })
            .unwrap();
        let before = scene(c, tl.steps[k - 1], 1.0);
        let after = scene(c, tl.steps[k], 1.0);
        let id = "s.0.0";
        let (b, a) = (before.get(id).unwrap(), after.get(id).unwrap());
        assert!((b.x, b.y) != (a.x, a.y), "the row moves");
        let start = frame(c, &tl, k, 0.0, false);
        let s0 = start.get(id).unwrap();
        assert_eq!((s0.x, s0.y), (b.x, b.y));
        let mid = frame(c, &tl, k, ARRIVE / 2.0, false);
        let m = mid.get(id).unwrap();
        assert!(m.y > b.y.min(a.y) - 1e-9 && m.y < b.y.max(a.y) + 1e-9);
        let done = frame(c, &tl, k, ARRIVE, false);
        let d = done.get(id).unwrap();
        assert_eq!((d.x, d.y), (a.x, a.y));
        // Items of the last step that this one does not use fade out.
        assert!(start
            .items
            .iter()
            .any(|i| i.id.starts_with("k.0.") && i.opacity > 0.99));
        assert!(done.get("k.0.1").is_none());
    }

    #[test]
    fn the_mask_sets_scores_to_minus_infinity_and_softmax_gives_them_zero() {
        let mut s = notes_004();
        s.mask = Mask::Causal;
        s.scale = true;
        let t = compute(&s).unwrap();
        let c = ctx(&s, &t, Convention::Row, 660.0);
        let st = Step {
            head: Some(0),
            phase: Phase::Mask { i: Some(0) },
        };
        let before = scene(c, st, 0.0);
        let after = scene(c, st, 1.0);
        let states = |sc: &Scene| -> Vec<CellState> {
            cells(sc.get("m.0.0").unwrap())
                .iter()
                .map(|c| c.state)
                .collect()
        };
        assert_eq!(states(&before), vec![CellState::Value; 3]);
        assert_eq!(
            states(&after),
            vec![CellState::Value, CellState::Masked, CellState::Masked]
        );
        let texts: Vec<String> = cells(after.get("m.0.0").unwrap())
            .iter()
            .map(|c| c.text.clone())
            .collect();
        assert_eq!(texts[1], "−∞");
        let sm = scene(
            c,
            Step {
                head: Some(0),
                phase: Phase::Softmax { i: Some(0) },
            },
            1.0,
        );
        let w: Vec<f64> = cells(sm.get("a.0.0").unwrap())
            .iter()
            .map(|c| c.value)
            .collect();
        assert_eq!(w, vec![1.0, 0.0, 0.0]);
        // The scaling step says by what: ÷ √3.
        let sc = scene(
            c,
            Step {
                head: Some(0),
                phase: Phase::Scale { i: Some(0) },
            },
            1.0,
        );
        let Body::Text { lines, .. } = &sc.get("op.scale").unwrap().body else {
            panic!()
        };
        assert!(lines[0].starts_with("÷ √3 = ÷ 1.7321"), "{lines:?}");
    }

    #[test]
    fn heads_slide_together_into_the_concatenation() {
        let s = two_heads();
        let t = compute(&s).unwrap();
        for conv in [Convention::Row, Convention::Col] {
            let c = ctx(&s, &t, conv, 660.0);
            let st = Step {
                head: None,
                phase: Phase::Concat,
            };
            let gap = |lp: f64| {
                let sc = scene(c, st, lp);
                let (a, b) = (sc.get("b.0.0").unwrap(), sc.get("b.1.0").unwrap());
                if conv == Convention::Row {
                    b.x - (a.x + a.size(&c.g).0)
                } else {
                    b.y - a.y
                }
            };
            assert!(
                gap(0.0) > gap(1.0) + 10.0,
                "{conv:?}: {} vs {}",
                gap(0.0),
                gap(1.0)
            );
        }
    }

    /// Any shape the format allows: every step of every granularity in
    /// both conventions draws without panicking, with at most SHOWN cells.
    #[test]
    fn any_shape_draws_without_panicking() {
        let masks = [Mask::None, Mask::Causal, Mask::Padding(2), Mask::Window(1)];
        let mut seed = 0;
        for n in [1, 5, 9] {
            for d_model in [1, 10] {
                for (d_k, d_v) in [(1, 1), (9, 3)] {
                    for heads in [1, 3] {
                        seed += 1;
                        let dims = Dims {
                            n,
                            d_model,
                            d_k,
                            d_v,
                            heads,
                        };
                        let mut s = random(seed, dims, seed % 2 == 0);
                        s.mask = masks[seed as usize % masks.len()].clone();
                        if let Mask::Padding(l) = &mut s.mask {
                            *l = (*l).min(n);
                        }
                        s.scale = seed % 3 != 0;
                        let Ok(t) = compute(&s) else { continue };
                        for conv in [Convention::Row, Convention::Col] {
                            for width in [350.0, 660.0] {
                                let c = ctx(&s, &t, conv, width);
                                for g in Granularity::ALL {
                                    let tl = Timeline::new(&t, g, s.w_o.is_some());
                                    let _ = extent(c, &tl);
                                    for k in 0..tl.len() {
                                        for p in [0.0, 0.5, 1.0] {
                                            for it in frame(c, &tl, k, p, false).items {
                                                if let Body::Cells { cells, .. } = &it.body {
                                                    assert!(cells.len() <= SHOWN);
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn finished_outputs_wait_at_the_side_and_the_new_one_moves_there() {
        let s = notes_004();
        let t = compute(&s).unwrap();
        // A wide stage (the page at 1280 px): the side block fits.
        let c = ctx(&s, &t, Convention::Row, 1100.0);
        let tl = Timeline::new(&t, Granularity::Row, false);
        let at_step = |phase| tl.steps.iter().position(|st| st.phase == phase).unwrap();
        // Computing b¹: no output done yet, three empty rows at the side.
        let k = at_step(Phase::WeightedSum { i: Some(0) });
        let f = frame(c, &tl, k, 1.0, false);
        assert!(f.get("bp.0.0").is_some() && f.get("bp.0.2").is_some());
        let b1 = f.get("b.0.0").unwrap().clone();
        // Next step (q² against every key): b¹ now sits in the side block,
        // arriving from where it was computed.
        let next = frame(c, &tl, k + 1, 1.0, false);
        let side = next.get("b.0.0").unwrap();
        assert_eq!(values(side), h_row(&t, 0));
        assert!(next.get("bp.0.0").is_none() && next.get("bp.0.1").is_some());
        let arriving = frame(c, &tl, k + 1, 0.0, false);
        let a = arriving.get("b.0.0").unwrap();
        assert_eq!((a.x, a.y), (b1.x, b1.y));
        assert!((side.x, side.y) != (b1.x, b1.y));
    }

    fn h_row(t: &Trace, i: usize) -> Vec<f64> {
        t.heads[0].output.row(i).iter().copied().collect()
    }

    #[test]
    fn an_edit_that_keeps_the_shapes_keeps_the_size() {
        let s = notes_004();
        let t = compute(&s).unwrap();
        let c = ctx(&s, &t, Convention::Row, 660.0);
        let tl = Timeline::new(&t, Granularity::Row, false);
        let mut e = notes_004();
        e.x[(0, 0)] = 0.0;
        let te = compute(&e).unwrap();
        let ce = ctx(&e, &te, Convention::Row, 660.0);
        let tle = Timeline::new(&te, Granularity::Row, false);
        assert_eq!(size_key(c, &tl), size_key(ce, &tle));
        assert_eq!(extent(c, &tl), extent(ce, &tle));
        // A new mask, another convention or another width is another size.
        let mut m = notes_004();
        m.mask = Mask::Causal;
        let tm = compute(&m).unwrap();
        let tlm = Timeline::new(&tm, Granularity::Row, false);
        assert_ne!(
            size_key(c, &tl),
            size_key(ctx(&m, &tm, Convention::Row, 660.0), &tlm)
        );
        assert_ne!(
            size_key(c, &tl),
            size_key(ctx(&s, &t, Convention::Col, 660.0), &tl)
        );
        assert_ne!(
            size_key(c, &tl),
            size_key(ctx(&s, &t, Convention::Row, 500.0), &tl)
        );
    }

    #[test]
    fn windows_keep_the_current_query_in_view() {
        assert_eq!(window(5, 3), 0..5);
        assert_eq!(window(64, 0), 0..SHOWN);
        assert_eq!(window(64, 63), 64 - SHOWN..64);
        for f in 0..64 {
            assert!(window(64, f).contains(&f));
        }
    }
}
