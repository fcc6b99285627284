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

    // The steps themselves, one family a file: `inputs` (inputs and
    // projections), `scores` (dot products to softmax), `outputs` (weighted
    // sums to the layer's output).

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

mod inputs;
mod outputs;
mod scores;

#[cfg(test)]
mod tests;
