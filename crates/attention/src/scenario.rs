//! The scenario: everything needed to recompute every matrix (docs/format.md §1,
//! format `attention-lab/1`).
//!
//! A scenario is plain data. It is read from JSON by [`Scenario::from_json`],
//! which reports the first problem as a [`ScenarioError`] naming the field
//! (`heads[1].w_k: expected 4×2, got 4×3`). A scenario built in code is checked
//! by [`Scenario::validate`] before anything is multiplied.

use super::json::{self, Json, JsonProblem};
use super::Matrix;
use std::fmt;

/// The version tag every scenario carries.
pub const FORMAT: &str = "attention-lab/1";
/// Most positions (tokens) a scenario may have.
pub const MAX_N: usize = 64;
/// Largest d_k and d_v (the width of one head).
pub const MAX_D: usize = 128;
/// Largest d_model and output width of `w_o`: wide enough for note 000's
/// "8 heads × 64 = 512".
pub const MAX_D_MODEL: usize = 512;
/// Most heads.
pub const MAX_HEADS: usize = 8;
/// Longest token label, in characters.
pub const MAX_TOKEN_CHARS: usize = 40;
/// Most layers a scenario may stack: the first and up to three more
/// (docs/format.md §1b).
pub const MAX_LAYERS: usize = 4;

/// One head's projections: `Q = X·w_q`, `K = X·w_k` (both `d_model × d_k`),
/// `V = X·w_v` (`d_model × d_v`).
#[derive(Clone, Debug, PartialEq)]
pub struct HeadWeights {
    pub w_q: Matrix,
    pub w_k: Matrix,
    pub w_v: Matrix,
}

/// A layer after the first (note 000 §3.2: layers stack, the next one reads
/// the previous one's output). It has its own heads (their own number, d_k
/// and d_v), its own optional W_O, and says whether it adds its input back
/// (`residual`: `O = X + A`, else `O = A`, where `A` is its attention
/// output `concat·W_O` or `concat`).
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub heads: Vec<HeadWeights>,
    pub w_o: Option<Matrix>,
    pub residual: bool,
}

/// Which keys each query may see.
#[derive(Clone, Debug, PartialEq)]
pub enum Mask {
    /// Every query sees every key.
    None,
    /// Query `i` sees keys `0..=i` (a decoder; reads like an RNN, in order).
    Causal,
    /// Only keys `0..L` are real; the rest are padding (for every query).
    Padding(usize),
    /// Query `i` sees key `j` when `|i − j| ≤ W` (a convolution-like window).
    Window(usize),
    /// `n × n` booleans, `true` = may attend (for example a graph's adjacency).
    Custom(Vec<Vec<bool>>),
}

/// Position information given to the projections with `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positional {
    /// No positions: attention alone cannot tell token order.
    None,
    /// Added to `x`: `PE(p,2k) = sin(p/10000^(2k/d_model))`,
    /// `PE(p,2k+1) = cos(same)`.
    Sinusoidal,
    /// Note `001`: position `i` gets the one-hot vector `eⁱ` (length n),
    /// concatenated after `xⁱ`. The projections see `[X | I_n]`
    /// (n × (d_model + n)), so every `W_Q`, `W_K`, `W_V` has d_model + n
    /// rows: the first d_model multiply `x`, the last n (one per position)
    /// are a learned vector per position.
    OneHot,
}

impl Positional {
    /// The format's word for it (`"positional"` field).
    pub fn code(self) -> &'static str {
        match self {
            Positional::None => "none",
            Positional::Sinusoidal => "sinusoidal",
            Positional::OneHot => "onehot",
        }
    }
}

/// A complete, self-contained attention problem (docs/format.md §1).
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Always [`FORMAT`].
    pub format: String,
    /// Labels of the `n` positions; `x1 … xn` when absent from the file.
    pub tokens: Vec<String>,
    /// Inputs, `n × d_model`, one row per position.
    pub x: Matrix,
    /// One entry per head; all heads share d_k and d_v.
    pub heads: Vec<HeadWeights>,
    /// Output projection `(h·d_v) × d_out`; absent means `output = concat`.
    pub w_o: Option<Matrix>,
    /// Divide scores by √d_k before masking and softmax.
    pub scale: bool,
    /// Which keys each query may see.
    pub mask: Mask,
    /// Positional encoding: none, added to `x`, or one-hot concatenated.
    pub positional: Positional,
    /// Whether layer 1 adds its input back: its output is `X_1 + A_1`
    /// rather than `A_1` (then `A_1` must be as wide as `X_1`).
    pub residual: bool,
    /// Layers 2 … L, in order (at most [`MAX_LAYERS`] − 1); empty for a
    /// scenario of one layer (a file without `stack`).
    pub stack: Vec<Layer>,
}

/// Why a scenario was refused: the field (a JSON path such as
/// `heads[1].w_k[0][2]`) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub field: String,
    pub reason: Reason,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, reason: impl Into<Reason>) -> Self {
        Self {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// Whether the refusal says where the problem is: a field, or, for text
    /// that is not JSON, its line and column, or the whole document when it
    /// is not an object. (Every refusal does; the tests check it.)
    pub fn is_placed(&self) -> bool {
        !self.field.is_empty()
            || matches!(
                self.reason,
                Reason::Json { .. }
                    | Reason::Expected {
                        what: Expected::Object,
                        ..
                    }
            )
    }
}

/// Text that is not JSON: where and what, for the whole document.
impl From<crate::json::Fault> for ScenarioError {
    fn from(f: crate::json::Fault) -> Self {
        ScenarioError::new(
            "",
            Reason::Json {
                line: f.line,
                column: f.column,
                problem: f.problem,
            },
        )
    }
}

/// Which dimension a [`Reason::Dim`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DimName {
    /// The number of rows of `x` (tokens).
    Rows,
    /// The row width d_model.
    Width,
    Heads,
    /// d_k, the number of columns of W_Q.
    DK,
    /// d_v, the number of columns of W_V.
    DV,
    /// The number of columns of W_O.
    OutWidth,
    /// The number of layers (the first and those in `stack`).
    Layers,
}

/// Which matrix a [`Reason::Overflow`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// `x + PE`.
    Input,
    Q,
    K,
    V,
    /// The scores `QKᵀ`.
    Scores,
    /// A head's output.
    HeadOutput,
    /// `concat · W_O`.
    Output,
}

/// Why a value was refused, as data: the page words it in each language
/// (`app::i18n::error_text`); [`fmt::Display`] gives the English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The matrix must be `want`, it is `got` (rows × columns).
    Shape {
        want: (usize, usize),
        got: (usize, usize),
    },
    /// This number (as written) is not finite.
    NotFinite(String),
    /// A dimension outside `1..=max`.
    Dim {
        what: DimName,
        max: usize,
        got: usize,
    },
    /// A size outside `lo..=hi` (the shape fields).
    Range { lo: usize, hi: usize, got: usize },
    /// The `format` tag is not [`FORMAT`].
    Format(String),
    /// `tokens` must have one label per row.
    TokenCount { want: usize, got: usize },
    /// A token label is too long.
    TokenTooLong { max: usize, got: usize },
    /// A padding mask with more real keys than positions.
    PaddingTooLong { n: usize, got: usize },
    /// A custom mask with the wrong number of rows.
    MaskRows { want: usize, got: usize },
    /// A custom mask row of the wrong length.
    MaskRowLength { want: usize, got: usize },
    /// With one-hot positions a projection needs d_model + n rows (one per
    /// input column, then one per position); it is `got`.
    OneHotRows {
        d_model: usize,
        n: usize,
        cols: usize,
        got: (usize, usize),
    },
    /// Finite inputs whose products overflow f64 (row 1-based).
    Overflow { row: usize, what: Stage },
    /// The text is not JSON: where, and what is wrong.
    Json {
        line: usize,
        column: usize,
        problem: JsonProblem,
    },
    /// A value of the wrong kind; `got` is the value as written (cut at 40
    /// characters).
    Expected { what: Expected, got: String },
    /// A field the format does not have; `known` are the ones it has.
    UnknownField {
        name: String,
        known: &'static [&'static str],
    },
    /// A required field is absent.
    MissingField(&'static str),
    /// A number beyond f64 (such as `1e999`).
    NumberOutOfRange,
    /// Row `row` has `len` numbers, row 0 has `first`.
    Ragged {
        row: usize,
        len: usize,
        first: usize,
    },
    /// `mask` is none of its forms; `got` as written.
    MaskForm(String),
    /// `mask.padding` or `mask.window` is not a whole number ≥ 0.
    WholeNumber(String),
    /// `mask.custom` is not an array of arrays of booleans.
    CustomMask,
    /// `positional` is none of its values; `got` as written.
    PositionalForm(String),
    /// A layer that adds its input back needs an attention output as wide
    /// as its input: `input` columns in, `output` out.
    ResidualWidth { input: usize, output: usize },
}

/// What kind of value a [`Reason::Expected`] wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    Object,
    Rows,
    Row,
    Number,
    Bool,
    Labels,
    Label,
    Heads,
    Layers,
}

/// `1234567` as `1,234,567`.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for Reason {
    /// The English of [`Reason::worded`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(false))
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// `field` must be exactly `rows × cols`.
fn expect_shape(field: &str, m: &Matrix, rows: usize, cols: usize) -> Result<(), ScenarioError> {
    if m.nrows() == rows && m.ncols() == cols {
        Ok(())
    } else {
        Err(ScenarioError::new(
            field,
            Reason::Shape {
                want: (rows, cols),
                got: (m.nrows(), m.ncols()),
            },
        ))
    }
}

/// Every number of `m` must be finite.
fn expect_finite(field: &str, m: &Matrix) -> Result<(), ScenarioError> {
    if attention_kernels::all_finite(m.as_slice()) {
        return Ok(());
    }
    // Name the first bad cell in row order.
    for r in 0..m.nrows() {
        for c in 0..m.ncols() {
            let v = m[(r, c)];
            if !v.is_finite() {
                return Err(ScenarioError::new(
                    format!("{field}[{r}][{c}]"),
                    Reason::NotFinite(v.to_string()),
                ));
            }
        }
    }
    Ok(())
}

/// `what` (a dimension) must lie in `1..=max`.
fn expect_dim(field: &str, what: DimName, value: usize, max: usize) -> Result<(), ScenarioError> {
    if (1..=max).contains(&value) {
        Ok(())
    } else {
        Err(ScenarioError::new(
            field,
            Reason::Dim {
                what,
                max,
                got: value,
            },
        ))
    }
}

impl Scenario {
    /// Reads and validates a scenario from JSON text. Missing `tokens` become
    /// `x1 … xn`, missing `scale` is true, missing `mask` and `positional`
    /// are `"none"`. Errors name the field and the reason. Numbers are
    /// rounded correctly (`str::parse`), so every f64 written by
    /// [`Scenario::to_json`] comes back bit for bit.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let s = read::scenario(text)?;
        s.validate()?;
        Ok(s)
    }

    /// Pretty JSON in the `attention-lab/1` format (one matrix row a line).
    pub fn to_json(&self) -> String {
        self.to_value().to_pretty()
    }

    /// Compact JSON (for share links and storage).
    pub fn to_json_compact(&self) -> String {
        self.to_value().to_compact()
    }

    /// The token labels as a JSON array.
    fn tokens_json(&self) -> Json {
        Json::from(
            self.tokens
                .iter()
                .map(|t| Json::from(t.as_str()))
                .collect::<Vec<_>>(),
        )
    }

    /// The scenario as a JSON document, fields in the order of docs/format.md §1.
    pub fn to_value(&self) -> Json {
        let heads = heads_json(&self.heads);
        let mut fields = vec![
            ("format", Json::from(self.format.as_str())),
            ("tokens", self.tokens_json()),
            ("x", rows::to_json(&self.x)),
            ("heads", heads),
        ];
        if let Some(w_o) = &self.w_o {
            fields.push(("w_o", rows::to_json(w_o)));
        }
        // Written only when used, so a one-layer file carries neither key
        // and its bytes are those of the one-layer format.
        if self.residual {
            fields.push(("residual", Json::from(true)));
        }
        fields.push(("scale", Json::from(self.scale)));
        fields.push(("mask", Json::from(&self.mask)));
        fields.push(("positional", Json::from(self.positional.code())));
        if !self.stack.is_empty() {
            let layers = self
                .stack
                .iter()
                .map(|l| {
                    let mut f = vec![("heads", heads_json(&l.heads))];
                    if let Some(w_o) = &l.w_o {
                        f.push(("w_o", rows::to_json(w_o)));
                    }
                    if l.residual {
                        f.push(("residual", Json::from(true)));
                    }
                    json::object(f)
                })
                .collect::<Vec<_>>();
            fields.push(("stack", Json::from(layers)));
        }
        json::object(fields)
    }

    /// Number of positions.
    pub fn n(&self) -> usize {
        self.x.nrows()
    }
    /// How many numbers the scenario holds (x, every projection, W_O).
    pub fn numbers(&self) -> usize {
        let weights = |heads: &[HeadWeights], w_o: Option<&Matrix>| -> usize {
            let heads: usize = heads
                .iter()
                .map(|h| h.w_q.len() + h.w_k.len() + h.w_v.len())
                .sum();
            heads + w_o.map_or(0, |w| w.len())
        };
        let stacked: usize = self
            .stack
            .iter()
            .map(|l| weights(&l.heads, l.w_o.as_ref()))
            .sum();
        self.x.len() + weights(&self.heads, self.w_o.as_ref()) + stacked
    }

    /// Number of layers: 1 and those in [`Scenario::stack`].
    pub fn layers(&self) -> usize {
        1 + self.stack.len()
    }
    /// Width of each input row.
    pub fn d_model(&self) -> usize {
        self.x.ncols()
    }
    /// Rows of every `W_Q`, `W_K`, `W_V`: the width of what the projections
    /// multiply. d_model, or d_model + n with one-hot positions (`[X | I_n]`).
    pub fn d_in(&self) -> usize {
        match self.positional {
            Positional::OneHot => self.d_model() + self.n(),
            Positional::None | Positional::Sinusoidal => self.d_model(),
        }
    }
    /// Query/key width (shared by all heads; 0 if there are no heads).
    pub fn d_k(&self) -> usize {
        self.heads.first().map_or(0, |h| h.w_q.ncols())
    }
    /// Value width (shared by all heads; 0 if there are no heads).
    pub fn d_v(&self) -> usize {
        self.heads.first().map_or(0, |h| h.w_v.ncols())
    }

    /// Checks every shape, limit and number (docs/format.md §1). After `Ok(())`,
    /// [`compute`](super::compute) cannot fail or panic.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.format != FORMAT {
            return Err(ScenarioError::new(
                "format",
                Reason::Format(self.format.clone()),
            ));
        }
        let n = self.n();
        expect_dim("x", DimName::Rows, n, MAX_N)?;
        let d_model = self.d_model();
        expect_dim("x", DimName::Width, d_model, MAX_D_MODEL)?;
        expect_finite("x", &self.x)?;

        if self.tokens.len() != n {
            return Err(ScenarioError::new(
                "tokens",
                Reason::TokenCount {
                    want: n,
                    got: self.tokens.len(),
                },
            ));
        }
        for (i, t) in self.tokens.iter().enumerate() {
            let chars = t.chars().count();
            if chars > MAX_TOKEN_CHARS {
                return Err(ScenarioError::new(
                    format!("tokens[{i}]"),
                    Reason::TokenTooLong {
                        max: MAX_TOKEN_CHARS,
                        got: chars,
                    },
                ));
            }
        }

        let one_hot = (self.positional == Positional::OneHot).then_some((d_model, n));
        let mut width = check_layer(
            "",
            LayerRef {
                heads: &self.heads,
                w_o: self.w_o.as_ref(),
                residual: self.residual,
            },
            self.d_in(),
            one_hot,
        )?;
        expect_dim("stack", DimName::Layers, self.layers(), MAX_LAYERS)?;
        for (l, layer) in self.stack.iter().enumerate() {
            let layer = LayerRef {
                heads: &layer.heads,
                w_o: layer.w_o.as_ref(),
                residual: layer.residual,
            };
            width = check_layer(&format!("stack[{l}]."), layer, width, None)?;
        }

        match &self.mask {
            Mask::None | Mask::Causal | Mask::Window(_) => {}
            Mask::Padding(l) => {
                if *l > n {
                    return Err(ScenarioError::new(
                        "mask.padding",
                        Reason::PaddingTooLong { n, got: *l },
                    ));
                }
            }
            Mask::Custom(rows) => {
                if rows.len() != n {
                    return Err(ScenarioError::new(
                        "mask.custom",
                        Reason::MaskRows {
                            want: n,
                            got: rows.len(),
                        },
                    ));
                }
                for (i, row) in rows.iter().enumerate() {
                    if row.len() != n {
                        return Err(ScenarioError::new(
                            format!("mask.custom[{i}]"),
                            Reason::MaskRowLength {
                                want: n,
                                got: row.len(),
                            },
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The heads of a layer as the format writes them.
fn heads_json(heads: &[HeadWeights]) -> Json {
    Json::from(
        heads
            .iter()
            .map(|h| {
                json::object(vec![
                    ("w_q", rows::to_json(&h.w_q)),
                    ("w_k", rows::to_json(&h.w_k)),
                    ("w_v", rows::to_json(&h.w_v)),
                ])
            })
            .collect::<Vec<_>>(),
    )
}

/// A layer's weights, wherever the scenario keeps them (layer 1 at its top
/// level, the others in `stack`).
#[derive(Clone, Copy)]
struct LayerRef<'a> {
    heads: &'a [HeadWeights],
    w_o: Option<&'a Matrix>,
    residual: bool,
}

/// Checks a layer that reads `input` columns (`prefix` names it: `` for
/// layer 1, `stack[0].` for layer 2); returns the width of its output.
/// `one_hot`: layer 1 under one-hot positions (d_model, n), whose
/// projections are refused with the reason that says why they need n more
/// rows.
fn check_layer(
    prefix: &str,
    layer: LayerRef,
    input: usize,
    one_hot: Option<(usize, usize)>,
) -> Result<usize, ScenarioError> {
    let f = |name: &str| format!("{prefix}{name}");
    let h = layer.heads.len();
    expect_dim(&f("heads"), DimName::Heads, h, MAX_HEADS)?;
    let d_k = layer.heads[0].w_q.ncols();
    let d_v = layer.heads[0].w_v.ncols();
    expect_dim(&f("heads[0].w_q"), DimName::DK, d_k, MAX_D)?;
    expect_dim(&f("heads[0].w_v"), DimName::DV, d_v, MAX_D)?;
    for (r, head) in layer.heads.iter().enumerate() {
        for (name, m, cols) in [
            ("w_q", &head.w_q, d_k),
            ("w_k", &head.w_k, d_k),
            ("w_v", &head.w_v, d_v),
        ] {
            let field = f(&format!("heads[{r}].{name}"));
            if let Some((d_model, n)) = one_hot.filter(|_| m.shape() != (input, cols)) {
                return Err(ScenarioError::new(
                    field,
                    Reason::OneHotRows {
                        d_model,
                        n,
                        cols,
                        got: m.shape(),
                    },
                ));
            }
            expect_shape(&field, m, input, cols)?;
            expect_finite(&field, m)?;
        }
    }
    let width = match layer.w_o {
        Some(w_o) => {
            expect_dim(&f("w_o"), DimName::OutWidth, w_o.ncols(), MAX_D_MODEL)?;
            expect_shape(&f("w_o"), w_o, h * d_v, w_o.ncols())?;
            expect_finite(&f("w_o"), w_o)?;
            w_o.ncols()
        }
        None => h * d_v,
    };
    if layer.residual && width != input {
        return Err(ScenarioError::new(
            f("residual"),
            Reason::ResidualWidth {
                input,
                output: width,
            },
        ));
    }
    Ok(width)
}

/// `x1 … xn`, the labels of a scenario that names no tokens.
pub fn default_tokens(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("x{i}")).collect()
}

pub(crate) const MASK_FORMS: &str =
    "expected \"none\", \"causal\", {\"padding\": L}, {\"window\": W} or {\"custom\": n×n booleans}";

impl From<&Mask> for Json {
    fn from(m: &Mask) -> Self {
        match m {
            Mask::None => Json::from("none"),
            Mask::Causal => Json::from("causal"),
            Mask::Padding(l) => json::object(vec![("padding", Json::from(*l as f64))]),
            Mask::Window(w) => json::object(vec![("window", Json::from(*w as f64))]),
            Mask::Custom(rows) => json::object(vec![(
                "custom",
                Json::from(
                    rows.iter()
                        .map(|r| Json::from(r.iter().map(|b| Json::from(*b)).collect::<Vec<_>>()))
                        .collect::<Vec<_>>(),
                ),
            )]),
        }
    }
}

/// A [`Matrix`] as an array of rows (row-vector orientation).
pub(crate) mod rows {
    use super::{json, Json, Matrix, Reason};

    /// JSON rows; a non-finite entry is written as `null`.
    pub fn to_json(m: &Matrix) -> Json {
        json::matrix_rows(
            m.row_iter()
                .map(|r| r.iter().copied().collect::<Vec<_>>().into_iter()),
        )
    }

    /// A rectangular array of rows as a matrix; ragged rows are refused.
    pub fn from_rows(rows: &[Vec<f64>]) -> Result<Matrix, Reason> {
        let cols = rows.first().map_or(0, Vec::len);
        if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != cols) {
            return Err(Reason::Ragged {
                row: i,
                len: r.len(),
                first: cols,
            });
        }
        Ok(Matrix::from_fn(rows.len(), cols, |r, c| rows[r][c]))
    }
}

/// Reading a scenario from JSON text with serde derive, serde_json and
/// serde_path_to_error: the first value that is not what the format wants
/// is refused with its field (`heads[1].w_k[0][2]`) and a typed
/// [`Reason`], quoting the value as written.
mod read;

#[cfg(test)]
mod tests;
