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

/// An editable matrix of the scenario (heads 0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    X,
    WQ(usize),
    WK(usize),
    WV(usize),
    WO,
}

impl Target {
    /// The matrix this target names, if the scenario has it.
    pub fn get(self, s: &Scenario) -> Option<&Matrix> {
        match self {
            Target::X => Some(&s.x),
            Target::WQ(h) => s.heads.get(h).map(|w| &w.w_q),
            Target::WK(h) => s.heads.get(h).map(|w| &w.w_k),
            Target::WV(h) => s.heads.get(h).map(|w| &w.w_v),
            Target::WO => s.w_o.as_ref(),
        }
    }

    fn get_mut(self, s: &mut Scenario) -> Option<&mut Matrix> {
        match self {
            Target::X => Some(&mut s.x),
            Target::WQ(h) => s.heads.get_mut(h).map(|w| &mut w.w_q),
            Target::WK(h) => s.heads.get_mut(h).map(|w| &mut w.w_k),
            Target::WV(h) => s.heads.get_mut(h).map(|w| &mut w.w_v),
            Target::WO => s.w_o.as_mut(),
        }
    }

    /// The field name used in messages (`heads[1].w_k`).
    pub fn field(self) -> String {
        match self {
            Target::X => "x".into(),
            Target::WQ(h) => format!("heads[{h}].w_q"),
            Target::WK(h) => format!("heads[{h}].w_k"),
            Target::WV(h) => format!("heads[{h}].w_v"),
            Target::WO => "w_o".into(),
        }
    }

    /// A number identifying the matrix, for seeding its new cells.
    fn code(self) -> u64 {
        match self {
            Target::X => 1,
            Target::WQ(h) => 100 + h as u64,
            Target::WK(h) => 200 + h as u64,
            Target::WV(h) => 300 + h as u64,
            Target::WO => 2,
        }
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
            let (lo, hi) = dim.range();
            if !(lo..=hi).contains(size) {
                return Err(
                    ScenarioError::new(dim.field(), Reason::Range { lo, hi, got: *size }).into(),
                );
            }
            resize_dim(&mut out, *dim, *size, seed);
        }
        Edit::Scale(on) => out.scale = *on,
        Edit::Mask(mask) => out.mask = mask.clone(),
        Edit::Positional(p) => {
            // One-hot positions add (or take away) the n position rows of
            // every projection; the other encodings keep the shapes.
            let old = rows_of(&out);
            out.positional = *p;
            fit_projections(&mut out, old, s.d_k(), s.d_v(), seed);
        }
        Edit::OutputProjection(on) => {
            out.w_o = on.then(|| match &s.w_o {
                Some(w) => w.clone(),
                None => resize(
                    &Matrix::zeros(0, 0),
                    s.heads.len() * s.d_v(),
                    s.d_model(),
                    seed,
                    Target::WO,
                ),
            });
        }
    }
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

/// Every head's `W_Q`, `W_K`, `W_V` laid out from `old` rows to the rows
/// `s` needs now, with d_k and d_v columns.
fn fit_projections(s: &mut Scenario, old: Rows, d_k: usize, d_v: usize, seed: u64) {
    let new = rows_of(s);
    for (r, w) in s.heads.iter_mut().enumerate() {
        w.w_q = relayout(&w.w_q, old, new, d_k, seed, Target::WQ(r));
        w.w_k = relayout(&w.w_k, old, new, d_k, seed, Target::WK(r));
        w.w_v = relayout(&w.w_v, old, new, d_v, seed, Target::WV(r));
    }
}

fn resize_dim(s: &mut Scenario, dim: Dim, size: usize, seed: u64) {
    let old = rows_of(s);
    let (n, d_model, d_k, d_v, h) = (s.n(), s.d_model(), s.d_k(), s.d_v(), s.heads.len());
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
        Dim::DK => {}
        Dim::DV => {
            // W_O's rows come in one block of d_v per head: keep each block.
            if let Some(w_o) = &s.w_o {
                s.w_o = Some(reshape(
                    w_o,
                    h * size,
                    w_o.ncols(),
                    seed,
                    Target::WO,
                    |r, c| {
                        let (head, k) = (r / size, r % size);
                        (k < d_v).then_some((head * d_v + k, c))
                    },
                ));
            }
        }
        Dim::Heads => {
            s.heads.truncate(size);
            while s.heads.len() < size {
                // Empty: every cell is new, filled by `fit_projections`.
                let z = Matrix::zeros(0, 0);
                s.heads.push(HeadWeights {
                    w_q: z.clone(),
                    w_k: z.clone(),
                    w_v: z,
                });
            }
            if let Some(w_o) = &s.w_o {
                s.w_o = Some(resize(w_o, size * d_v, w_o.ncols(), seed, Target::WO));
            }
        }
    }
    let (d_k, d_v) = match dim {
        Dim::DK => (size, d_v),
        Dim::DV => (d_k, size),
        _ => (d_k, d_v),
    };
    fit_projections(s, old, d_k, d_v, seed);
}

#[cfg(test)]
mod tests;
