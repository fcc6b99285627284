//! Edits a learner makes to a scenario: one number, a whole pasted matrix, a
//! token label, a dimension, the options. Each edit is plain data and
//! [`apply`] is a pure function returning a new, validated scenario (or the
//! reason it was refused, leaving the old one in force).
//!
//! Resizing keeps every existing number. New cells are filled from a seeded
//! generator keyed by the cell's place (matrix, row, column), so shrinking
//! and growing again gives back the same numbers, and everyone with the same
//! seed sees the same ones.

use attention::random::Rng;
use attention::{
    default_tokens, HeadWeights, Mask, Matrix, Positional, Reason, Scenario, ScenarioError,
};

/// One layer's weight matrix (heads 0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    WQ(usize),
    WK(usize),
    WV(usize),
    WO,
}

/// An editable matrix of the scenario: the input, or a weight of layer
/// `layer` (0-based; layer 0 is the top-level `heads`/`w_o`, layer l ≥ 1 is
/// `stack[l − 1]`, docs/format.md §1b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    X,
    W(usize, Weight),
}

#[allow(non_snake_case)]
impl Target {
    /// Layer 1's W_Q of head `h`.
    pub const fn WQ(h: usize) -> Target {
        Target::W(0, Weight::WQ(h))
    }
    /// Layer 1's W_K of head `h`.
    pub const fn WK(h: usize) -> Target {
        Target::W(0, Weight::WK(h))
    }
    /// Layer 1's W_V of head `h`.
    pub const fn WV(h: usize) -> Target {
        Target::W(0, Weight::WV(h))
    }
    /// Layer 1's W_O.
    pub const WO: Target = Target::W(0, Weight::WO);
}

/// Layer `l`'s heads, W_O and residual flag, wherever the format keeps
/// them (top level for layer 0, `stack[l − 1]` after).
struct LayerRef<'a> {
    heads: &'a mut Vec<HeadWeights>,
    w_o: &'a mut Option<Matrix>,
    residual: &'a mut bool,
}

fn layer_mut(s: &mut Scenario, l: usize) -> Option<LayerRef<'_>> {
    if l == 0 {
        return Some(LayerRef {
            heads: &mut s.heads,
            w_o: &mut s.w_o,
            residual: &mut s.residual,
        });
    }
    s.stack.get_mut(l - 1).map(|x| LayerRef {
        heads: &mut x.heads,
        w_o: &mut x.w_o,
        residual: &mut x.residual,
    })
}

/// Layer `l`'s heads and W_O (read only).
pub fn layer_weights(s: &Scenario, l: usize) -> Option<(&[HeadWeights], Option<&Matrix>, bool)> {
    if l == 0 {
        return Some((&s.heads, s.w_o.as_ref(), s.residual));
    }
    s.stack
        .get(l - 1)
        .map(|x| (x.heads.as_slice(), x.w_o.as_ref(), x.residual))
}

impl Target {
    /// The matrix this target names, if the scenario has it.
    pub fn get(self, s: &Scenario) -> Option<&Matrix> {
        match self {
            Target::X => Some(&s.x),
            Target::W(l, w) => {
                let (heads, w_o, _) = layer_weights(s, l)?;
                match w {
                    Weight::WQ(h) => heads.get(h).map(|w| &w.w_q),
                    Weight::WK(h) => heads.get(h).map(|w| &w.w_k),
                    Weight::WV(h) => heads.get(h).map(|w| &w.w_v),
                    Weight::WO => w_o,
                }
            }
        }
    }

    fn get_mut(self, s: &mut Scenario) -> Option<&mut Matrix> {
        match self {
            Target::X => Some(&mut s.x),
            Target::W(l, w) => {
                let layer = layer_mut(s, l)?;
                match w {
                    Weight::WQ(h) => layer.heads.get_mut(h).map(|w| &mut w.w_q),
                    Weight::WK(h) => layer.heads.get_mut(h).map(|w| &mut w.w_k),
                    Weight::WV(h) => layer.heads.get_mut(h).map(|w| &mut w.w_v),
                    Weight::WO => layer.w_o.as_mut(),
                }
            }
        }
    }

    /// The field name used in messages (`heads[1].w_k`,
    /// `stack[0].heads[1].w_k`).
    pub fn field(self) -> String {
        match self {
            Target::X => "x".into(),
            Target::W(l, w) => {
                let prefix = layer_prefix(l);
                match w {
                    Weight::WQ(h) => format!("{prefix}heads[{h}].w_q"),
                    Weight::WK(h) => format!("{prefix}heads[{h}].w_k"),
                    Weight::WV(h) => format!("{prefix}heads[{h}].w_v"),
                    Weight::WO => format!("{prefix}w_o"),
                }
            }
        }
    }

    /// A number identifying the matrix, for seeding its new cells: the
    /// matrix's own code plus 1000 per layer, so layer 0 has no layer term.
    fn code(self) -> u64 {
        match self {
            Target::X => 1,
            Target::W(l, w) => {
                let base = match w {
                    Weight::WQ(h) => 100 + h as u64,
                    Weight::WK(h) => 200 + h as u64,
                    Weight::WV(h) => 300 + h as u64,
                    Weight::WO => 2,
                };
                base + 1000 * l as u64
            }
        }
    }
}

/// How the format names layer `l`'s fields: `` for layer 0, `stack[l − 1].`
/// after.
pub fn layer_prefix(l: usize) -> String {
    if l == 0 {
        String::new()
    } else {
        format!("stack[{}].", l - 1)
    }
}

/// A dimension of the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// Number of positions (rows of X).
    N,
    /// Width of each input row.
    DModel,
    /// Width of queries and keys.
    DK,
    /// Width of values (and of each head's output).
    DV,
    /// Number of heads.
    Heads,
}

impl Dim {
    /// The current size of this dimension.
    pub fn of(self, s: &Scenario) -> usize {
        match self {
            Dim::N => s.n(),
            Dim::DModel => s.d_model(),
            Dim::DK => s.d_k(),
            Dim::DV => s.d_v(),
            Dim::Heads => s.heads.len(),
        }
    }

    /// The allowed range (docs/format.md §1).
    pub fn range(self) -> (usize, usize) {
        use attention::{MAX_D, MAX_D_MODEL, MAX_HEADS, MAX_N};
        match self {
            Dim::N => (1, MAX_N),
            Dim::DModel => (1, MAX_D_MODEL),
            Dim::DK | Dim::DV => (1, MAX_D),
            Dim::Heads => (1, MAX_HEADS),
        }
    }

    fn field(self) -> &'static str {
        match self {
            Dim::N => "n",
            Dim::DModel => "d_model",
            Dim::DK => "d_k",
            Dim::DV => "d_v",
            Dim::Heads => "h",
        }
    }
}

/// Why an edit was refused; the scenario on screen stays as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The scenario the edit would make is not valid (a size out of range,
    /// a pasted block of another shape, …): the engine's reason.
    Scenario(ScenarioError),
    /// The edit names a matrix the scenario does not have (`field`, as the
    /// format names it: `heads[3].w_q`).
    NoSuchMatrix { field: String },
    /// The edit names cell `field` (`x[4][0]`) outside its `rows × cols`
    /// matrix.
    OutsideMatrix {
        field: String,
        rows: usize,
        cols: usize,
    },
    /// The edit renames position `index` (0-based), which does not exist.
    NoSuchPosition { index: usize },
}

impl From<ScenarioError> for EditError {
    fn from(e: ScenarioError) -> Self {
        EditError::Scenario(e)
    }
}

impl EditError {
    /// The field the refusal is about, as the format names it.
    pub fn field(&self) -> String {
        match self {
            EditError::Scenario(e) => e.field.clone(),
            EditError::NoSuchMatrix { field } | EditError::OutsideMatrix { field, .. } => {
                field.clone()
            }
            EditError::NoSuchPosition { index } => format!("tokens[{index}]"),
        }
    }
}

/// One change to a scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Set one number (row-vector orientation).
    Cell {
        target: Target,
        row: usize,
        col: usize,
        value: f64,
    },
    /// Replace a whole matrix (a paste); the shape must stay the same.
    Matrix { target: Target, rows: Vec<Vec<f64>> },
    /// Rename a position.
    Token { index: usize, label: String },
    /// Change a dimension, keeping existing numbers.
    Resize { dim: Dim, size: usize },
    /// Divide by √d_k or not.
    Scale(bool),
    /// Which keys each query may see.
    Mask(Mask),
    /// Which positional encoding; switching to or from one-hot adds or
    /// removes the n position rows of every W_Q, W_K, W_V.
    Positional(Positional),
    /// Add an output projection W_O ((h·d_v) × d_model, seeded) or remove it.
    OutputProjection(bool),
    /// Add a layer after the last (docs/format.md §1b): as many heads as
    /// the last one, the same d_k and d_v, a W_O when it has one, seeded
    /// numbers, no residual.
    AddLayer,
    /// Remove layer `l` (0-based); the next layer reads what it read, its
    /// projections refitted to that width (kept where they overlap).
    RemoveLayer(usize),
    /// Layer `layer`'s heads, d_k or d_v ([`Dim::Heads`], [`Dim::DK`],
    /// [`Dim::DV`]); layer 0's is [`Edit::Resize`].
    LayerResize { layer: usize, dim: Dim, size: usize },
    /// Layer `layer` gets a W_O (seeded, as wide as its input) or loses it.
    LayerOutputProjection { layer: usize, on: bool },
    /// Layer `layer` adds its input back (`O = X + A`) or not (`O = A`).
    Residual { layer: usize, on: bool },
}

/// The number a new cell at (`row`, `col`) of `target` gets from `seed`.
pub fn fill_value(seed: u64, target: Target, row: usize, col: usize) -> f64 {
    let key = seed
        ^ target.code().wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (row as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (col as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    Rng::new(key).cell()
}

/// `m` resized to `rows × cols`: kept where it overlaps, seeded elsewhere.
/// `source(r, c)` says where a new cell's old value comes from, if anywhere.
fn reshape(
    m: &Matrix,
    rows: usize,
    cols: usize,
    seed: u64,
    target: Target,
    source: impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Matrix {
    Matrix::from_fn(rows, cols, |r, c| match source(r, c) {
        Some((sr, sc)) if sr < m.nrows() && sc < m.ncols() => m[(sr, sc)],
        _ => fill_value(seed, target, r, c),
    })
}

fn resize(m: &Matrix, rows: usize, cols: usize, seed: u64, target: Target) -> Matrix {
    reshape(m, rows, cols, seed, target, |r, c| Some((r, c)))
}

/// Applies `edit` to `s` and validates the result. `seed` fills new cells.
/// The scenario is never changed in place: on error the caller keeps `s`.
pub fn apply(s: &Scenario, edit: &Edit, seed: u64) -> Result<Scenario, EditError> {
    let mut out = s.clone();
    match edit {
        Edit::Cell {
            target,
            row,
            col,
            value,
        } => {
            let field = target.field();
            let m = target
                .get_mut(&mut out)
                .ok_or_else(|| EditError::NoSuchMatrix {
                    field: field.clone(),
                })?;
            if *row >= m.nrows() || *col >= m.ncols() {
                return Err(EditError::OutsideMatrix {
                    field: format!("{field}[{row}][{col}]"),
                    rows: m.nrows(),
                    cols: m.ncols(),
                });
            }
            m[(*row, *col)] = *value;
        }
        Edit::Matrix { target, rows } => {
            let field = target.field();
            let m = target
                .get_mut(&mut out)
                .ok_or_else(|| EditError::NoSuchMatrix {
                    field: field.clone(),
                })?;
            let cols = rows.first().map_or(0, Vec::len);
            if rows.len() != m.nrows() || rows.iter().any(|r| r.len() != m.ncols()) {
                return Err(ScenarioError::new(
                    field,
                    Reason::Shape {
                        want: (m.nrows(), m.ncols()),
                        got: (rows.len(), cols),
                    },
                )
                .into());
            }
            *m = Matrix::from_fn(m.nrows(), m.ncols(), |r, c| rows[r][c]);
        }
        Edit::Token { index, label } => {
            let slot = out
                .tokens
                .get_mut(*index)
                .ok_or(EditError::NoSuchPosition { index: *index })?;
            *slot = label.trim().to_string();
        }
        Edit::Resize { dim, size } => {
            check_range(*dim, *size)?;
            match dim {
                Dim::N | Dim::DModel => resize_dim(&mut out, *dim, *size, seed),
                Dim::DK | Dim::DV | Dim::Heads => resize_in_layer(&mut out, 0, *dim, *size, seed),
            }
        }
        Edit::LayerResize { layer, dim, size } => {
            check_range(*dim, *size)?;
            if layer_weights(&out, *layer).is_none() || matches!(dim, Dim::N | Dim::DModel) {
                return Err(EditError::NoSuchMatrix {
                    field: format!("{}{}", layer_prefix(*layer), dim.field()),
                });
            }
            resize_in_layer(&mut out, *layer, *dim, *size, seed);
        }
        Edit::Scale(on) => out.scale = *on,
        Edit::Mask(mask) => out.mask = mask.clone(),
        Edit::Positional(p) => {
            // One-hot positions add (or take away) the n position rows of
            // every projection; the other encodings keep the shapes.
            let old = rows_of(&out);
            out.positional = *p;
            let new = rows_of(&out);
            fit_heads(&mut out.heads, 0, old, new, s.d_k(), s.d_v(), seed);
        }
        Edit::OutputProjection(on) => set_output_projection(&mut out, 0, *on, seed)?,
        Edit::LayerOutputProjection { layer, on } => {
            set_output_projection(&mut out, *layer, *on, seed)?
        }
        Edit::Residual { layer, on } => {
            let field = format!("{}residual", layer_prefix(*layer));
            let l = layer_mut(&mut out, *layer).ok_or(EditError::NoSuchMatrix { field })?;
            *l.residual = *on;
        }
        Edit::AddLayer => {
            let last = out.layers() - 1;
            let width = output_width(&out, last);
            let (heads, w_o, _) = layer_weights(&out, last).expect("the last layer");
            let (h, d_k, d_v, with_w_o) = (
                heads.len(),
                heads.first().map_or(1, |w| w.w_q.ncols()),
                heads.first().map_or(1, |w| w.w_v.ncols()),
                w_o.is_some(),
            );
            let l = last + 1;
            let m = |rows, cols, w| resize(&Matrix::zeros(0, 0), rows, cols, seed, Target::W(l, w));
            out.stack.push(attention::Layer {
                heads: (0..h)
                    .map(|r| HeadWeights {
                        w_q: m(width, d_k, Weight::WQ(r)),
                        w_k: m(width, d_k, Weight::WK(r)),
                        w_v: m(width, d_v, Weight::WV(r)),
                    })
                    .collect(),
                w_o: with_w_o.then(|| m(h * d_v, width, Weight::WO)),
                residual: false,
            });
        }
        Edit::RemoveLayer(l) => {
            if *l >= out.layers() || out.layers() == 1 {
                return Err(EditError::NoSuchMatrix {
                    field: format!("{}heads", layer_prefix(*l)),
                });
            }
            if *l == 0 {
                let next = out.stack.remove(0);
                out.heads = next.heads;
                out.w_o = next.w_o;
                out.residual = next.residual;
            } else {
                out.stack.remove(l - 1);
            }
        }
    }
    fit_stack(&mut out, seed);
    out.validate()?;
    Ok(out)
}

/// How a projection's rows are laid out: `x` rows that multiply the input
/// columns, then `pos` rows, one per position, that multiply the one-hot
/// `eⁱ` (only with [`Positional::OneHot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rows {
    x: usize,
    pos: usize,
}

impl Rows {
    fn total(self) -> usize {
        self.x + self.pos
    }
}

fn rows_of(s: &Scenario) -> Rows {
    Rows {
        x: s.d_model(),
        pos: match s.positional {
            Positional::OneHot => s.n(),
            Positional::None | Positional::Sinusoidal => 0,
        },
    }
}

/// The seed of every new position row. Fixed, not the page's seed: turning
/// one-hot positions on for a preset gives every reader (and every test and
/// lab) the same rows, and the row of position `p` does not depend on n,
/// d_model or what was done before.
const POSITION_SEED: u64 = 0x0001_0E1A;

/// The number a new position row (`W^P`, position `p`, column `col`) of
/// `target` gets: in `[-1, 1]` with two decimals, like the random preset.
///
/// Never all zeros on purpose: with zero position rows `[x | eⁱ]·W` equals
/// `x·W` exactly and the one-hot encoding would change nothing (positions
/// would not matter, which is the point of turning it on). Small, so the
/// input still carries most of each query, key and value.
pub fn position_value(target: Target, p: usize, col: usize) -> f64 {
    fill_value(POSITION_SEED, target, p, col)
}

/// `m` laid out again from `old` rows to `new` rows and `cols` columns: an
/// x row keeps its index, a position row keeps its position (so the x part
/// grows or shrinks *before* the position rows); new x cells come from
/// `seed`, new position cells from [`position_value`].
fn relayout(m: &Matrix, old: Rows, new: Rows, cols: usize, seed: u64, target: Target) -> Matrix {
    Matrix::from_fn(new.x + new.pos, cols, |r, c| {
        let source = if r < new.x {
            (r < old.x).then_some(r)
        } else {
            let p = r - new.x;
            (p < old.pos).then_some(old.x + p)
        };
        match source {
            Some(sr) if sr < m.nrows() && c < m.ncols() => m[(sr, c)],
            _ if r < new.x => fill_value(seed, target, r, c),
            _ => position_value(target, r - new.x, c),
        }
    })
}

/// Layer `l`'s heads' `W_Q`, `W_K`, `W_V` laid out from `old` rows to
/// `new` rows, with d_k and d_v columns.
fn fit_heads(
    heads: &mut [HeadWeights],
    l: usize,
    old: Rows,
    new: Rows,
    d_k: usize,
    d_v: usize,
    seed: u64,
) {
    for (r, w) in heads.iter_mut().enumerate() {
        let t = |w| Target::W(l, w);
        w.w_q = relayout(&w.w_q, old, new, d_k, seed, t(Weight::WQ(r)));
        w.w_k = relayout(&w.w_k, old, new, d_k, seed, t(Weight::WK(r)));
        w.w_v = relayout(&w.w_v, old, new, d_v, seed, t(Weight::WV(r)));
    }
}

fn check_range(dim: Dim, size: usize) -> Result<(), EditError> {
    let (lo, hi) = dim.range();
    if (lo..=hi).contains(&size) {
        Ok(())
    } else {
        Err(ScenarioError::new(dim.field(), Reason::Range { lo, hi, got: size }).into())
    }
}

/// The width of layer `l`'s attention output `A_l` (its W_O's columns, or
/// h·d_v), which is also the width of `O_l` whenever the scenario is valid.
fn output_width(s: &Scenario, l: usize) -> usize {
    let (heads, w_o, _) = layer_weights(s, l).expect("a layer of the scenario");
    w_o.map_or(
        heads.len() * heads.first().map_or(0, |w| w.w_v.ncols()),
        Matrix::ncols,
    )
}

/// Every layer's projections as tall as its input is wide (layer 0 reads
/// `x` with its positions, layer l the previous layer's output), and a
/// residual layer's W_O as wide as its input: after a size changes
/// upstream, the layers after it follow, keeping every number where the
/// shapes overlap. A scenario that already fits is left exactly as it was.
fn fit_stack(s: &mut Scenario, seed: u64) {
    let mut width = rows_of(s).total();
    for l in 0..s.layers() {
        let layer = layer_mut(s, l).expect("a layer of the scenario");
        for (r, w) in layer.heads.iter_mut().enumerate() {
            let fit = |m: &Matrix, w| {
                if m.nrows() == width {
                    m.clone()
                } else {
                    resize(m, width, m.ncols(), seed, Target::W(l, w))
                }
            };
            w.w_q = fit(&w.w_q, Weight::WQ(r));
            w.w_k = fit(&w.w_k, Weight::WK(r));
            w.w_v = fit(&w.w_v, Weight::WV(r));
        }
        if *layer.residual {
            if let Some(w_o) = layer.w_o.as_mut().filter(|m| m.ncols() != width) {
                *w_o = resize(w_o, w_o.nrows(), width, seed, Target::W(l, Weight::WO));
            }
        } else {
            width = output_width(s, l);
        }
    }
}

/// Layer `l` gets a W_O ((h·d_v) × d_model for layer 0, as wide as its
/// input after) or loses it.
fn set_output_projection(s: &mut Scenario, l: usize, on: bool, seed: u64) -> Result<(), EditError> {
    let field = format!("{}w_o", layer_prefix(l));
    if layer_weights(s, l).is_none() {
        return Err(EditError::NoSuchMatrix { field });
    }
    let width = if l == 0 {
        s.d_model()
    } else {
        output_width(s, l - 1)
    };
    let layer = layer_mut(s, l).ok_or(EditError::NoSuchMatrix { field })?;
    let rows = layer.heads.len() * layer.heads.first().map_or(0, |w| w.w_v.ncols());
    *layer.w_o = on.then(|| match layer.w_o.take() {
        Some(w) => w,
        None => resize(
            &Matrix::zeros(0, 0),
            rows,
            width,
            seed,
            Target::W(l, Weight::WO),
        ),
    });
    Ok(())
}

fn resize_dim(s: &mut Scenario, dim: Dim, size: usize, seed: u64) {
    let old = rows_of(s);
    let (n, d_model) = (s.n(), s.d_model());
    match dim {
        Dim::N => {
            s.x = resize(&s.x, size, d_model, seed, Target::X);
            let defaults = default_tokens(size);
            s.tokens.truncate(size);
            while s.tokens.len() < size {
                s.tokens.push(defaults[s.tokens.len()].clone());
            }
            s.mask = match &s.mask {
                Mask::Padding(l) => Mask::Padding((*l).min(size)),
                Mask::Custom(rows) => Mask::Custom(
                    (0..size)
                        .map(|i| {
                            (0..size)
                                .map(|j| {
                                    rows.get(i).and_then(|r| r.get(j)).copied().unwrap_or(true)
                                })
                                .collect()
                        })
                        .collect(),
                ),
                other => other.clone(),
            };
        }
        Dim::DModel => {
            s.x = resize(&s.x, n, size, seed, Target::X);
            // W_O maps back to d_model when it was built that way.
            if let Some(w_o) = &s.w_o {
                if w_o.ncols() == d_model {
                    s.w_o = Some(resize(w_o, w_o.nrows(), size, seed, Target::WO));
                }
            }
        }
        Dim::DK | Dim::DV | Dim::Heads => unreachable!("a layer's size: resize_in_layer"),
    }
    let new = rows_of(s);
    let (d_k, d_v) = (s.d_k(), s.d_v());
    fit_heads(&mut s.heads, 0, old, new, d_k, d_v, seed);
}

/// Layer `l`'s d_k, d_v or number of heads set to `size`, keeping every
/// number that still has a place.
fn resize_in_layer(s: &mut Scenario, l: usize, dim: Dim, size: usize, seed: u64) {
    let rows = if l == 0 {
        rows_of(s)
    } else {
        Rows {
            x: output_width(s, l - 1),
            pos: 0,
        }
    };
    let layer = layer_mut(s, l).expect("a layer of the scenario");
    let first = layer.heads.first();
    let (d_k, d_v) = (
        first.map_or(0, |w| w.w_q.ncols()),
        first.map_or(0, |w| w.w_v.ncols()),
    );
    let wo = Target::W(l, Weight::WO);
    match dim {
        Dim::DK => {}
        Dim::DV => {
            // W_O's rows come in one block of d_v per head: keep each block.
            if let Some(w_o) = layer.w_o.as_mut() {
                *w_o = reshape(
                    w_o,
                    layer.heads.len() * size,
                    w_o.ncols(),
                    seed,
                    wo,
                    |r, c| {
                        let (head, k) = (r / size, r % size);
                        (k < d_v).then_some((head * d_v + k, c))
                    },
                );
            }
        }
        Dim::Heads => {
            layer.heads.truncate(size);
            while layer.heads.len() < size {
                // Empty: every cell is new, filled by `fit_heads`.
                let z = Matrix::zeros(0, 0);
                layer.heads.push(HeadWeights {
                    w_q: z.clone(),
                    w_k: z.clone(),
                    w_v: z,
                });
            }
            if let Some(w_o) = layer.w_o.as_mut() {
                *w_o = resize(w_o, size * d_v, w_o.ncols(), seed, wo);
            }
        }
        Dim::N | Dim::DModel => unreachable!("not a layer's size"),
    }
    let (d_k, d_v) = match dim {
        Dim::DK => (size, d_v),
        Dim::DV => (d_k, size),
        _ => (d_k, d_v),
    };
    fit_heads(layer.heads, l, rows, rows, d_k, d_v, seed);
}

#[cfg(test)]
mod tests;
