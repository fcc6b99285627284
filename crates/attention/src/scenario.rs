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

/// One head's projections: `Q = X·w_q`, `K = X·w_k` (both `d_model × d_k`),
/// `V = X·w_v` (`d_model × d_v`).
#[derive(Clone, Debug, PartialEq)]
pub struct HeadWeights {
    pub w_q: Matrix,
    pub w_k: Matrix,
    pub w_v: Matrix,
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
    /// An edit names a matrix the scenario does not have.
    NoSuchMatrix,
    /// An edit names a cell outside its `rows × cols` matrix.
    OutsideMatrix { rows: usize, cols: usize },
    /// An edit names a position that does not exist.
    NoSuchPosition,
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
    /// A file of `got` bytes, over the `limit` (refused before reading it).
    TooLarge { limit: usize, got: usize },
    /// The browser could not read the file.
    Unreadable,
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Shape { want, got } => {
                write!(f, "expected {}×{}, got {}×{}", want.0, want.1, got.0, got.1)
            }
            Reason::NotFinite(v) => write!(f, "{v} is not a finite number"),
            Reason::Dim { what, max, got } => {
                let what = match what {
                    DimName::Rows => "the number of rows (tokens)",
                    DimName::Width => "the row width d_model",
                    DimName::Heads => "the number of heads",
                    DimName::DK => "d_k (its number of columns)",
                    DimName::DV => "d_v (its number of columns)",
                    DimName::OutWidth => "the output width (its number of columns)",
                };
                write!(f, "{what} must be between 1 and {max}, got {got}")
            }
            Reason::Range { lo, hi, got } => write!(f, "must be between {lo} and {hi}, got {got}"),
            Reason::Format(got) => write!(f, "expected \"{FORMAT}\", got \"{got}\""),
            Reason::TokenCount { want, got } => {
                write!(f, "expected {want} labels (one per row of x), got {got}")
            }
            Reason::TokenTooLong { max, got } => write!(f, "at most {max} characters, got {got}"),
            Reason::PaddingTooLong { n, got } => write!(f, "at most n = {n} real keys, got {got}"),
            Reason::MaskRows { want, got } => write!(f, "expected {want} rows, got {got}"),
            Reason::MaskRowLength { want, got } => write!(f, "expected {want} booleans, got {got}"),
            Reason::OneHotRows {
                d_model,
                n,
                cols,
                got,
            } => write!(
                f,
                "expected (d_model + n)×{cols} = ({d_model} + {n})×{cols} = {}×{cols} \
                 (the one-hot positions add one row per position), got {}×{}",
                d_model + n,
                got.0,
                got.1
            ),
            Reason::Overflow { row, what } => {
                let what = match what {
                    Stage::Input => "x + PE",
                    Stage::Q => "Q",
                    Stage::K => "K",
                    Stage::V => "V",
                    Stage::Scores => "the scores QKᵀ",
                    Stage::HeadOutput => "the head output",
                    Stage::Output => "concat · W_O",
                };
                write!(
                    f,
                    "the numbers are too large: row {row} of {what} overflows f64"
                )
            }
            Reason::NoSuchMatrix => write!(f, "this matrix does not exist"),
            Reason::OutsideMatrix { rows, cols } => write!(f, "outside the {rows}×{cols} matrix"),
            Reason::NoSuchPosition => write!(f, "no such position"),
            Reason::TooLarge { limit, got } => write!(
                f,
                "the file has {} bytes, over the limit of {} bytes ({} MB)",
                grouped(*got),
                grouped(*limit),
                limit / (1024 * 1024)
            ),
            Reason::Unreadable => write!(f, "the file could not be read"),
            Reason::Json {
                line,
                column,
                problem,
            } => write!(f, "not valid JSON: line {line}, column {column}: {problem}"),
            Reason::Expected { what, got } => {
                let what = match what {
                    Expected::Object => "an object",
                    Expected::Rows => "an array of rows",
                    Expected::Row => "a row (an array of numbers)",
                    Expected::Number => "a number",
                    Expected::Bool => "true or false",
                    Expected::Labels => "an array of labels",
                    Expected::Label => "a string",
                    Expected::Heads => "an array of heads",
                };
                write!(f, "expected {what}, got {got}")
            }
            Reason::UnknownField { name, known } => write!(
                f,
                "unknown field `{name}`, expected one of {}",
                known.join(", ")
            ),
            Reason::MissingField(key) => write!(f, "missing field `{key}`"),
            Reason::NumberOutOfRange => write!(f, "number out of range (not a finite f64)"),
            Reason::Ragged { row, len, first } => write!(
                f,
                "row {row} has {len} numbers but row 0 has {first}; every row must have the same length"
            ),
            Reason::MaskForm(got) => write!(f, "{MASK_FORMS}, got {got}"),
            Reason::WholeNumber(got) => write!(f, "must be a whole number ≥ 0, got {got}"),
            Reason::CustomMask => write!(f, "custom must be an array of arrays of true/false"),
            Reason::PositionalForm(got) => write!(
                f,
                "expected \"none\", \"sinusoidal\" or \"onehot\", got {got}"
            ),
        }
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
    /// are `"none"`. Errors name the field and the reason. Numbers are read
    /// by serde_json with `float_roundtrip` (correctly rounded), so every f64
    /// written by [`Scenario::to_json`] comes back bit for bit.
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

    /// The scenario as a JSON document, fields in the order of docs/format.md §1.
    pub fn to_value(&self) -> Json {
        let heads = self
            .heads
            .iter()
            .map(|h| {
                json::object(vec![
                    ("w_q", rows::to_json(&h.w_q)),
                    ("w_k", rows::to_json(&h.w_k)),
                    ("w_v", rows::to_json(&h.w_v)),
                ])
            })
            .collect::<Vec<_>>();
        let mut fields = vec![
            ("format", Json::from(self.format.as_str())),
            (
                "tokens",
                Json::from(
                    self.tokens
                        .iter()
                        .map(|t| Json::from(t.as_str()))
                        .collect::<Vec<_>>(),
                ),
            ),
            ("x", rows::to_json(&self.x)),
            ("heads", Json::from(heads)),
        ];
        if let Some(w_o) = &self.w_o {
            fields.push(("w_o", rows::to_json(w_o)));
        }
        fields.push(("scale", Json::from(self.scale)));
        fields.push(("mask", Json::from(&self.mask)));
        fields.push(("positional", Json::from(self.positional.code())));
        json::object(fields)
    }

    /// Number of positions.
    pub fn n(&self) -> usize {
        self.x.nrows()
    }
    /// How many numbers the scenario holds (x, every projection, W_O).
    pub fn numbers(&self) -> usize {
        let heads: usize = self
            .heads
            .iter()
            .map(|h| h.w_q.len() + h.w_k.len() + h.w_v.len())
            .sum();
        self.x.len() + heads + self.w_o.as_ref().map_or(0, |w| w.len())
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

        let h = self.heads.len();
        expect_dim("heads", DimName::Heads, h, MAX_HEADS)?;
        let d_k = self.d_k();
        let d_v = self.d_v();
        expect_dim("heads[0].w_q", DimName::DK, d_k, MAX_D)?;
        expect_dim("heads[0].w_v", DimName::DV, d_v, MAX_D)?;
        for (r, head) in self.heads.iter().enumerate() {
            for (name, m, cols) in [
                ("w_q", &head.w_q, d_k),
                ("w_k", &head.w_k, d_k),
                ("w_v", &head.w_v, d_v),
            ] {
                let field = format!("heads[{r}].{name}");
                if self.positional == Positional::OneHot && m.shape() != (self.d_in(), cols) {
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
                expect_shape(&field, m, self.d_in(), cols)?;
                expect_finite(&field, m)?;
            }
        }

        if let Some(w_o) = &self.w_o {
            expect_dim("w_o", DimName::OutWidth, w_o.ncols(), MAX_D_MODEL)?;
            expect_shape("w_o", w_o, h * d_v, w_o.ncols())?;
            expect_finite("w_o", w_o)?;
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

/// `x1 … xn`, the labels of a scenario that names no tokens.
pub fn default_tokens(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("x{i}")).collect()
}

const MASK_FORMS: &str =
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

impl Mask {
    /// The mask alone in the scenario format (`"causal"`,
    /// `{"custom": [[true, …], …]}`, …), compact: how the labs module hands
    /// a mask edit to the page.
    pub fn to_json(&self) -> String {
        Json::from(self).to_compact()
    }

    /// Reads a mask written by [`Mask::to_json`] (or any mask of the
    /// scenario format). Its fit to a scenario's n is checked when the edit
    /// is applied, like any edit.
    pub fn from_json(text: &str) -> Result<Mask, ScenarioError> {
        let doc: Json = serde_json::from_str(text).map_err(|e| ScenarioError {
            field: "mask".into(),
            ..read::not_json(text, &e, json::JsonProblem::of(&e))
        })?;
        read::mask(&doc)
            .ok_or_else(|| ScenarioError::new("mask", Reason::MaskForm(doc.to_compact())))
    }
}

impl Scenario {
    /// The scenario in two parts: a short JSON text of everything but the
    /// matrices' numbers (which it gives the shapes of) and every number in
    /// one list (x, each head's W_Q, W_K, W_V, then W_O; each column by
    /// column). How the page hands its scenario to the labs module: a
    /// scenario of d_model 512 has about a million numbers, some 20 MB as
    /// JSON text, which take half a second to write and as long to read.
    pub fn to_parts(&self) -> (String, Vec<f64>) {
        let mut mats = vec![&self.x];
        for h in &self.heads {
            mats.extend([&h.w_q, &h.w_k, &h.w_v]);
        }
        mats.extend(self.w_o.as_ref());
        let shapes = mats
            .iter()
            .map(|m| {
                Json::from(vec![
                    Json::from(m.nrows() as f64),
                    Json::from(m.ncols() as f64),
                ])
            })
            .collect::<Vec<_>>();
        let mut numbers = Vec::with_capacity(mats.iter().map(|m| m.len()).sum());
        for m in &mats {
            numbers.extend(m.iter());
        }
        let header = json::object(vec![
            ("format", Json::from(self.format.as_str())),
            (
                "tokens",
                Json::from(
                    self.tokens
                        .iter()
                        .map(|t| Json::from(t.as_str()))
                        .collect::<Vec<_>>(),
                ),
            ),
            ("heads", Json::from(self.heads.len() as f64)),
            ("w_o", Json::from(self.w_o.is_some())),
            ("shapes", Json::from(shapes)),
            ("scale", Json::from(self.scale)),
            ("mask", Json::from(&self.mask)),
            ("positional", Json::from(self.positional.code())),
        ]);
        (header.to_compact(), numbers)
    }

    /// Reads what [`Scenario::to_parts`] wrote, validated like any
    /// scenario; `None` for anything else (parts that do not fit together,
    /// a number that is not finite, a scenario that is refused).
    pub fn from_parts(header: &str, numbers: &[f64]) -> Option<Scenario> {
        let doc: Json = serde_json::from_str(header).ok()?;
        let get = |key: &str| {
            doc.as_object()?
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
        };
        let count = |v: &Json| {
            v.as_f64()
                .filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x < 1e15)
                .map(|x| x as usize)
        };
        let heads = count(get("heads")?)?;
        let has_w_o = get("w_o")?.as_bool()?;
        let shapes = get("shapes")?.as_array()?;
        if heads > MAX_HEADS
            || shapes.len() != 1 + 3 * heads + usize::from(has_w_o)
            || !numbers.iter().all(|v| v.is_finite())
        {
            return None;
        }
        let mut rest = numbers;
        let mut mats = Vec::with_capacity(shapes.len());
        for shape in shapes {
            let [r, c] = shape.as_array()? else {
                return None;
            };
            let (r, c) = (count(r)?, count(c)?);
            let len = r.checked_mul(c).filter(|&len| len <= rest.len())?;
            let (these, after) = rest.split_at(len);
            mats.push(Matrix::from_column_slice(r, c, these));
            rest = after;
        }
        if !rest.is_empty() {
            return None;
        }
        let mut mats = mats.into_iter();
        let x = mats.next()?;
        let heads = (0..heads)
            .map(|_| {
                Some(HeadWeights {
                    w_q: mats.next()?,
                    w_k: mats.next()?,
                    w_v: mats.next()?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let s = Scenario {
            format: get("format")?.as_str()?.to_string(),
            tokens: get("tokens")?
                .as_array()?
                .iter()
                .map(|t| t.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()?,
            x,
            heads,
            w_o: mats.next(),
            scale: get("scale")?.as_bool()?,
            mask: read::mask(get("mask")?)?,
            positional: read::positional(get("positional")?)?,
        };
        s.validate().ok()?;
        Some(s)
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

/// Reading a scenario from JSON text with serde: the document's shape is
/// derived (`deny_unknown_fields`), serde_json (`float_roundtrip`) reads
/// every number exactly, and serde_path_to_error says where the first
/// problem is (`heads[1].w_k[0][2]`). Each value of the format has its own
/// small reader ([`Kind`]) that accepts what the format allows and refuses
/// anything else with a typed [`Reason`], quoting the value as written.
mod read {
    use super::*;
    use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
    use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde_json::error::Category;
    use serde_path_to_error::{Path, Segment};
    use std::cell::RefCell;
    use std::fmt::Write;

    type R<T> = Result<T, ScenarioError>;

    /// The fields of a scenario and of a head (for "unknown field" and
    /// "missing field"; the same names as [`Doc`] and [`Head`]).
    const FIELDS: &[&str] = &[
        "format",
        "tokens",
        "x",
        "heads",
        "w_o",
        "scale",
        "mask",
        "positional",
    ];
    const HEAD_FIELDS: &[&str] = &["w_q", "w_k", "w_v"];

    /// A scenario as written (docs/format.md §1).
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        format: Tag,
        #[serde(default)]
        tokens: Option<Labels>,
        x: Rows,
        heads: Heads,
        #[serde(default)]
        w_o: Option<Rows>,
        #[serde(default)]
        scale: Flag,
        #[serde(default)]
        mask: MaskValue,
        #[serde(default)]
        positional: PositionalValue,
    }

    /// One head as written.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Head {
        w_q: Rows,
        w_k: Rows,
        w_v: Rows,
    }

    thread_local! {
        /// The typed reason of a refusal by a reader below (a serde error
        /// carries only text), and what follows the path where it was
        /// raised (`.padding` after `mask`). Set just before the error is
        /// returned, taken as soon as it arrives.
        static REFUSED: RefCell<Option<(&'static str, Reason)>> = const { RefCell::new(None) };
    }

    fn refuse<E: serde::de::Error>(suffix: &'static str, reason: Reason) -> E {
        REFUSED.with(|r| *r.borrow_mut() = Some((suffix, reason)));
        E::custom("refused")
    }

    /// A value as written (compact), cut at 40 characters.
    fn describe(v: &Json) -> String {
        let text = v.to_compact();
        if text.chars().count() > 40 {
            format!("{}…", text.chars().take(40).collect::<String>())
        } else {
            text
        }
    }

    /// What a value of the format must be. One visitor ([`Seed`]) reads
    /// them all, so serde_json's parser is built into the wasm once rather
    /// than once per kind of value.
    #[derive(Clone, Copy)]
    enum Want {
        Root,
        Tag,
        Flag,
        Num,
        Row,
        Rows,
        Label,
        Labels,
        Head,
        Heads,
        Mask,
        Positional,
    }

    /// A value read, as the [`Want`] asked.
    enum Got {
        Root(Scenario),
        Text(String),
        Flag(bool),
        Num(f64),
        Row(Vec<f64>),
        Rows(Matrix),
        Labels(Vec<String>),
        Head(HeadWeights),
        Heads(Vec<HeadWeights>),
        Mask(Mask),
        Positional(Positional),
    }

    impl Want {
        /// The refusal of a value of another kind, quoted as written.
        fn other(self, got: &Json) -> Reason {
            let got = describe(got);
            let expected = |what| Reason::Expected {
                what,
                got: got.clone(),
            };
            match self {
                Want::Root | Want::Head => expected(Expected::Object),
                Want::Tag => Reason::Format(got),
                Want::Flag => expected(Expected::Bool),
                Want::Num => expected(Expected::Number),
                Want::Row => expected(Expected::Row),
                Want::Rows => expected(Expected::Rows),
                Want::Label => expected(Expected::Label),
                Want::Labels => expected(Expected::Labels),
                Want::Heads => expected(Expected::Heads),
                Want::Mask => Reason::MaskForm(got),
                Want::Positional => Reason::PositionalForm(got),
            }
        }

        /// A number, boolean, string or null.
        fn scalar(self, v: Json) -> Result<Got, Reason> {
            let word = v.as_str().unwrap_or_default();
            Ok(match (self, &v) {
                (Want::Num, Json::Number(x)) => Got::Num(*x),
                (Want::Flag, Json::Bool(b)) => Got::Flag(*b),
                (Want::Tag | Want::Label, Json::String(s)) => Got::Text(s.clone()),
                (Want::Mask, _) if word == "none" => Got::Mask(Mask::None),
                (Want::Mask, _) if word == "causal" => Got::Mask(Mask::Causal),
                (Want::Positional, _) if word == "none" => Got::Positional(Positional::None),
                (Want::Positional, _) if word == "sinusoidal" => {
                    Got::Positional(Positional::Sinusoidal)
                }
                (Want::Positional, _) if word == "onehot" => Got::Positional(Positional::OneHot),
                _ => return Err(self.other(&v)),
            })
        }
    }

    /// Reads one value as its [`Want`] says.
    #[derive(Clone, Copy)]
    struct Seed(Want);

    impl<'de> DeserializeSeed<'de> for Seed {
        type Value = Got;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Got, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Seed {
        type Value = Got;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a value of the scenario format")
        }
        fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Got, E> {
            self.0.scalar(Json::Bool(b)).map_err(|r| refuse("", r))
        }
        fn visit_i64<E: serde::de::Error>(self, x: i64) -> Result<Got, E> {
            self.visit_f64(x as f64)
        }
        fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<Got, E> {
            self.visit_f64(x as f64)
        }
        fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<Got, E> {
            self.0.scalar(Json::Number(x)).map_err(|r| refuse("", r))
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Got, E> {
            self.0.scalar(Json::from(s)).map_err(|r| refuse("", r))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Got, E> {
            self.0.scalar(Json::Null).map_err(|r| refuse("", r))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Got, A::Error> {
            let item = match self.0 {
                Want::Row => Want::Num,
                Want::Rows => Want::Row,
                Want::Labels => Want::Label,
                Want::Heads => Want::Head,
                _ => {
                    let got = Json::deserialize(SeqAccessDeserializer::new(a))?;
                    return Err(refuse("", self.0.other(&got)));
                }
            };
            let (mut nums, mut rows, mut texts, mut heads) = (vec![], vec![], vec![], vec![]);
            while let Some(got) = a.next_element_seed(Seed(item))? {
                match got {
                    Got::Num(x) => nums.push(x),
                    Got::Row(r) => rows.push(r),
                    Got::Text(t) => texts.push(t),
                    Got::Head(h) => heads.push(h),
                    _ => {}
                }
            }
            Ok(match self.0 {
                Want::Row => Got::Row(nums),
                Want::Rows => Got::Rows(rows::from_rows(&rows).map_err(|r| refuse("", r))?),
                Want::Labels => Got::Labels(texts),
                _ => Got::Heads(heads),
            })
        }
        fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Got, A::Error> {
            let a = MapAccessDeserializer::new(a);
            match self.0 {
                Want::Root => {
                    let d = Doc::deserialize(a)?;
                    let x = d.x.0;
                    Ok(Got::Root(Scenario {
                        format: d.format.0,
                        tokens: d.tokens.map_or_else(|| default_tokens(x.nrows()), |t| t.0),
                        x,
                        heads: d.heads.0,
                        w_o: d.w_o.map(|w| w.0),
                        scale: d.scale.0,
                        mask: d.mask.0,
                        positional: d.positional.0,
                    }))
                }
                Want::Head => {
                    let h = Head::deserialize(a)?;
                    Ok(Got::Head(HeadWeights {
                        w_q: h.w_q.0,
                        w_k: h.w_k.0,
                        w_v: h.w_v.0,
                    }))
                }
                want => {
                    let got = Json::deserialize(a)?;
                    match want {
                        Want::Mask => mask_object(&got)
                            .map(Got::Mask)
                            .map_err(|(suffix, r)| refuse(suffix, r)),
                        _ => Err(refuse("", want.other(&got))),
                    }
                }
            }
        }
    }

    /// The types the derived [`Doc`] and [`Head`] hold, each read by
    /// [`Seed`] as its [`Want`] says.
    macro_rules! read_as {
        ($($t:ident($want:ident, $got:ident: $inner:ty);)*) => {$(
            struct $t($inner);
            impl<'de> Deserialize<'de> for $t {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                    match Seed(Want::$want).deserialize(d)? {
                        Got::$got(v) => Ok($t(v)),
                        _ => Err(serde::de::Error::custom("")),
                    }
                }
            }
        )*};
    }
    read_as! {
        Root(Root, Root: Scenario);
        Tag(Tag, Text: String);
        Flag(Flag, Flag: bool);
        Rows(Rows, Rows: Matrix);
        Labels(Labels, Labels: Vec<String>);
        Heads(Heads, Heads: Vec<HeadWeights>);
        MaskValue(Mask, Mask: Mask);
        PositionalValue(Positional, Positional: Positional);
    }

    /// `scale` is true when absent.
    impl Default for Flag {
        fn default() -> Self {
            Flag(true)
        }
    }

    impl Default for MaskValue {
        fn default() -> Self {
            MaskValue(Mask::None)
        }
    }

    impl Default for PositionalValue {
        fn default() -> Self {
            PositionalValue(Positional::None)
        }
    }

    /// `{"padding": L}`, `{"window": W}` or `{"custom": [[…]]}`; a refusal
    /// says what follows `mask` in its field.
    fn mask_object(v: &Json) -> Result<Mask, (&'static str, Reason)> {
        let bad = || ("", Reason::MaskForm(describe(v)));
        // Any whole number ≥ 0; beyond usize it saturates (a window that
        // wide sees every key anyway), so every written mask reads back.
        let count = |x: &Json, suffix: &'static str| {
            x.as_f64()
                .filter(|v| *v >= 0.0 && v.fract() == 0.0)
                .map(|v| v as usize)
                .ok_or_else(|| (suffix, Reason::WholeNumber(describe(x))))
        };
        let Some([(key, value)]) = v.as_object() else {
            return Err(bad());
        };
        match key.as_str() {
            "padding" => Ok(Mask::Padding(count(value, ".padding")?)),
            "window" => Ok(Mask::Window(count(value, ".window")?)),
            "custom" => {
                let not_bools = || (".custom", Reason::CustomMask);
                value
                    .as_array()
                    .ok_or_else(not_bools)?
                    .iter()
                    .map(|row| {
                        row.as_array()
                            .ok_or_else(not_bools)?
                            .iter()
                            .map(|b| b.as_bool().ok_or_else(not_bools))
                            .collect::<Result<Vec<bool>, _>>()
                    })
                    .collect::<Result<_, _>>()
                    .map(Mask::Custom)
            }
            _ => Err(bad()),
        }
    }

    /// A mask as written, from a value already read (the header of
    /// [`Scenario::to_parts`], a mask edit from the labs module).
    pub(super) fn mask(v: &Json) -> Option<Mask> {
        match v {
            Json::Object(_) => mask_object(v).ok(),
            _ => match Want::Mask.scalar(v.clone()) {
                Ok(Got::Mask(m)) => Some(m),
                _ => None,
            },
        }
    }

    /// A positional encoding as written, from a value already read.
    pub(super) fn positional(v: &Json) -> Option<Positional> {
        match Want::Positional.scalar(v.clone()) {
            Ok(Got::Positional(p)) => Some(p),
            _ => None,
        }
    }

    /// The field a path names: `heads[1].w_k[0][2]`; a key that is no name
    /// (empty, spaces, quotes…) is quoted, so the path still points at it:
    /// `[""]`, `heads[0]["w q"]`.
    fn field(path: &Path) -> String {
        let mut out = String::new();
        for segment in path {
            match segment {
                Segment::Seq { index } => {
                    let _ = write!(out, "[{index}]");
                }
                Segment::Map { key } | Segment::Enum { variant: key } => push_key(&mut out, key),
                Segment::Unknown => out.push_str("[?]"),
            }
        }
        out
    }

    fn push_key(out: &mut String, key: &str) {
        if !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_') {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(key);
        } else {
            let _ = write!(out, "[{key:?}]");
        }
    }

    /// The name between the first pair of backticks of serde's message.
    fn quoted(message: &str) -> Option<&str> {
        let (_, rest) = message.split_once('`')?;
        Some(rest.split_once('`')?.0)
    }

    /// Text that is not JSON: where (1-based line, column in characters; a
    /// leading BOM is not counted) and what.
    pub(super) fn not_json(
        text: &str,
        e: &serde_json::Error,
        problem: JsonProblem,
    ) -> ScenarioError {
        // serde_json counts the column in bytes, up to the byte it stopped
        // at; count characters instead.
        let line = e.line().max(1);
        let start = text
            .split_inclusive('\n')
            .take(line - 1)
            .map(str::len)
            .sum::<usize>();
        let rest = text.get(start..).unwrap_or_default();
        let mut upto = rest.len().min(e.column());
        // Skipping a string, serde_json stops before a control character
        // (reading one, after it): point at it either way.
        if problem == JsonProblem::ControlCharacter && rest.as_bytes().get(upto) < Some(&0x20) {
            upto += 1;
        }
        let column = rest.as_bytes()[..upto]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count()
            .max(1);
        ScenarioError::new(
            "",
            Reason::Json {
                line,
                column,
                problem,
            },
        )
    }

    /// The first problem, named: a reader's typed refusal, serde's unknown,
    /// missing or repeated field, a number beyond f64, or text that is not
    /// JSON.
    fn problem(text: &str, path: &Path, e: &serde_json::Error) -> ScenarioError {
        let at = field(path);
        if let Some((suffix, reason)) = REFUSED.with(|r| r.borrow_mut().take()) {
            return ScenarioError::new(at + suffix, reason);
        }
        let message = e.to_string();
        if e.classify() == Category::Data {
            let name = quoted(&message).unwrap_or_default();
            // Only the scenario (at the root) and its heads have fields.
            let known = if path.iter().len() > 1 {
                HEAD_FIELDS
            } else {
                FIELDS
            };
            if message.starts_with("unknown field") {
                // The path ends at the unknown key.
                return ScenarioError::new(
                    at,
                    Reason::UnknownField {
                        name: name.to_owned(),
                        known,
                    },
                );
            }
            if message.starts_with("missing field") {
                if let Some(&key) = known.iter().find(|k| **k == name) {
                    let mut f = at;
                    push_key(&mut f, key);
                    return ScenarioError::new(f, Reason::MissingField(key));
                }
            }
            if message.starts_with("duplicate field") {
                return not_json(text, e, JsonProblem::DuplicateKey(name.to_owned()));
            }
        }
        if message.starts_with("number out of range") && !at.is_empty() {
            return ScenarioError::new(at, Reason::NumberOutOfRange);
        }
        not_json(text, e, JsonProblem::of(e))
    }

    pub fn scenario(text: &str) -> R<Scenario> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // Text that is not JSON is refused as such (line and column) before
        // any field is read, wherever the break is: a file cut short after a
        // wrong row says it is cut short. serde_json skips a value without
        // recursion, so this pass needs no depth limit.
        serde_json::from_str::<serde::de::IgnoredAny>(text)
            .map_err(|e| not_json(text, &e, JsonProblem::of(&e)))?;
        REFUSED.with(|r| r.borrow_mut().take());
        let mut de = serde_json::Deserializer::from_str(text);
        let root: Root = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| problem(text, e.path(), e.inner()))?;
        de.end()
            .map_err(|e| not_json(text, &e, JsonProblem::Trailing))?;
        Ok(root.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE_HOT: &str = r#"{
  "format": "attention-lab/1",
  "tokens": ["a", "b"],
  "x": [[1, 2], [3, 0]],
  "heads": [{"w_q": [[1], [0], [0.5], [-1]], "w_k": [[0], [1], [2], [0]], "w_v": [[1], [1], [0], [10]]}],
  "scale": false,
  "positional": "onehot"
}"#;

    const SMALL: &str = r#"{"format": "attention-lab/1", "x": [[1, 2]], "heads": [{"w_q": [[1], [2]], "w_k": [[1], [2]], "w_v": [[1], [1]]}]}"#;

    /// `(field, reason)` of the refusal of `text`.
    #[track_caller]
    fn refusal(text: &str) -> (String, Reason) {
        let e = Scenario::from_json(text).expect_err(text);
        (e.field, e.reason)
    }

    fn json(line: usize, column: usize, problem: JsonProblem) -> (String, Reason) {
        (
            String::new(),
            Reason::Json {
                line,
                column,
                problem,
            },
        )
    }

    #[test]
    fn text_that_is_not_json_is_refused_with_line_and_column() {
        assert_eq!(refusal(""), json(1, 1, JsonProblem::Eof));
        assert_eq!(
            refusal("{\"format\": \"attention-lab/1\", \"x\": [[1, 2]"),
            json(1, 42, JsonProblem::Eof)
        );
        assert_eq!(
            refusal("[1 2]"),
            json(1, 4, JsonProblem::ExpectedCommaOr(']'))
        );
        assert_eq!(refusal("{a: 1}"), json(1, 2, JsonProblem::ExpectedKey));
        assert_eq!(
            refusal("{\"x\": [[01]]}"),
            json(1, 10, JsonProblem::InvalidNumber)
        );
        assert_eq!(
            refusal("{\"format\": \"a\\x\"}"),
            json(1, 15, JsonProblem::InvalidEscape)
        );
        // Text cut short is refused as such, even after a wrong field.
        assert_eq!(
            refusal("{\"format\": \"attention-lab/1\", \"x\": [[1, 2], [3]]"),
            json(1, 48, JsonProblem::Eof)
        );
        assert_eq!(
            refusal("{\"colour\": 1,\n}"),
            json(2, 1, JsonProblem::ExpectedKey)
        );
        // Columns count characters, not bytes; CRLF is one line break; a
        // leading BOM is skipped and not counted.
        assert_eq!(
            refusal("{\"format\":\"é\u{1}\"}"),
            json(1, 13, JsonProblem::ControlCharacter)
        );
        assert_eq!(
            refusal("{\r\n\"x\":\r\n x}"),
            json(3, 2, JsonProblem::ExpectedValue)
        );
        assert_eq!(refusal("\u{feff}{x}"), json(1, 2, JsonProblem::ExpectedKey));
        assert!(Scenario::from_json(&format!("\u{feff}{SMALL}")).is_ok());
        // After a whole scenario, nothing but whitespace.
        assert_eq!(
            refusal(&format!("{SMALL} x")),
            json(1, 116, JsonProblem::Trailing)
        );
        assert!(Scenario::from_json(&format!(" \n{SMALL}\r\n\t")).is_ok());
        // A field given twice is refused (rather than one of them kept).
        let twice = SMALL.replace("\"x\": [[1, 2]]", "\"x\": [[1, 2]], \"x\": [[1, 2]]");
        assert_eq!(
            refusal(&twice),
            json(1, 48, JsonProblem::DuplicateKey("x".into()))
        );
        let twice = SMALL.replace("\"w_k\"", "\"w_q\": [[1], [2]], \"w_k\"");
        assert_eq!(
            refusal(&twice).1.to_string().split(": ").last(),
            Some("duplicate key `w_q`")
        );
    }

    #[test]
    fn nesting_is_bounded_without_overflowing_the_stack() {
        let closed = |open: &str, close: &str| {
            format!("{}1{}", open.repeat(1_000_000), close.repeat(1_000_000))
        };
        for deep in [
            closed("[", "]"),
            closed("{\"x\":", "}"),
            format!(
                "{{\"format\": \"attention-lab/1\", \"x\": {}{}}}",
                "[".repeat(400),
                "]".repeat(400)
            ),
            SMALL.replace(
                "}]}",
                &format!(
                    "}}], \"mask\": {}1{}}}",
                    "{\"custom\":[".repeat(100),
                    "]}".repeat(100)
                ),
            ),
        ] {
            let (field, reason) = refusal(&deep);
            assert_eq!(field, "");
            assert!(
                matches!(
                    reason,
                    Reason::Json {
                        problem: JsonProblem::TooDeep,
                        ..
                    }
                ),
                "{reason:?}"
            );
        }
        // Unclosed, it is text cut short.
        for open in ["[", "{\"x\":"] {
            let (_, reason) = refusal(&open.repeat(1_000_000));
            assert!(
                matches!(
                    reason,
                    Reason::Json {
                        problem: JsonProblem::Eof,
                        ..
                    }
                ),
                "{reason:?}"
            );
        }
    }

    #[test]
    fn refusals_name_the_field() {
        let with = |from: &str, to: &str| {
            let text = SMALL.replace(from, to);
            assert_ne!(text, SMALL);
            refusal(&text)
        };
        const KNOWN: &[&str] = &[
            "format",
            "tokens",
            "x",
            "heads",
            "w_o",
            "scale",
            "mask",
            "positional",
        ];
        assert_eq!(
            with("\"x\"", "\"colour\": 1, \"x\""),
            (
                "colour".into(),
                Reason::UnknownField {
                    name: "colour".into(),
                    known: KNOWN
                }
            )
        );
        assert_eq!(
            with("\"w_q\"", "\"w q\": 1, \"w_q\""),
            (
                "heads[0][\"w q\"]".into(),
                Reason::UnknownField {
                    name: "w q".into(),
                    known: &["w_q", "w_k", "w_v"]
                }
            )
        );
        assert_eq!(
            with("\"format\": \"attention-lab/1\", ", ""),
            ("format".into(), Reason::MissingField("format"))
        );
        assert_eq!(
            with("\"w_k\": [[1], [2]], ", ""),
            ("heads[0].w_k".into(), Reason::MissingField("w_k"))
        );
        assert_eq!(
            with("[[1, 2]]", "[[1, 2], [3]]"),
            (
                "x".into(),
                Reason::Ragged {
                    row: 1,
                    len: 1,
                    first: 2
                }
            )
        );
        let long =
            "{\"a\": [1, {\"b\": null}], \"c\": \"0123456789012345678901234567890123456789\"}";
        assert_eq!(
            with("[[1, 2]]", long),
            (
                "x".into(),
                Reason::Expected {
                    what: Expected::Rows,
                    got: "{\"a\":[1,{\"b\":null}],\"c\":\"012345678901234…".into()
                }
            )
        );
        assert_eq!(
            with("[[1, 2]]", "[[1, 1e999]]"),
            ("x[0][1]".into(), Reason::NumberOutOfRange)
        );
        assert_eq!(
            with("[[1], [1]]}", "[[1], [-1e400]]}"),
            ("heads[0].w_v[1][0]".into(), Reason::NumberOutOfRange)
        );
        assert_eq!(
            with("[[1], [2]], \"w_k\"", "[[1], [\"1\"]], \"w_k\""),
            (
                "heads[0].w_q[1][0]".into(),
                Reason::Expected {
                    what: Expected::Number,
                    got: "\"1\"".into()
                }
            )
        );
        assert_eq!(
            with("[[1, 2]]", "[1, 2]"),
            (
                "x[0]".into(),
                Reason::Expected {
                    what: Expected::Row,
                    got: "1".into()
                }
            )
        );
        assert_eq!(
            with("[{", "[3, {"),
            (
                "heads[0]".into(),
                Reason::Expected {
                    what: Expected::Object,
                    got: "3".into()
                }
            )
        );
        assert_eq!(
            with(
                "[{\"w_q\": [[1], [2]], \"w_k\": [[1], [2]], \"w_v\": [[1], [1]]}]",
                "{}"
            ),
            (
                "heads".into(),
                Reason::Expected {
                    what: Expected::Heads,
                    got: "{}".into()
                }
            )
        );
        assert_eq!(
            with("\"attention-lab/1\"", "3"),
            ("format".into(), Reason::Format("3".into()))
        );
        let tail = |extra: &str| with("}]}", &format!("}}], {extra}}}"));
        assert_eq!(
            tail("\"tokens\": [\"a\", 3]"),
            (
                "tokens[1]".into(),
                Reason::Expected {
                    what: Expected::Label,
                    got: "3".into()
                }
            )
        );
        assert_eq!(
            tail("\"tokens\": \"a\""),
            (
                "tokens".into(),
                Reason::Expected {
                    what: Expected::Labels,
                    got: "\"a\"".into()
                }
            )
        );
        assert_eq!(
            tail("\"scale\": null"),
            (
                "scale".into(),
                Reason::Expected {
                    what: Expected::Bool,
                    got: "null".into()
                }
            )
        );
        assert_eq!(
            tail("\"mask\": 3"),
            ("mask".into(), Reason::MaskForm("3".into()))
        );
        assert_eq!(
            tail("\"mask\": null"),
            ("mask".into(), Reason::MaskForm("null".into()))
        );
        assert_eq!(
            tail("\"mask\": {\"padding\": 1, \"window\": 1}"),
            (
                "mask".into(),
                Reason::MaskForm("{\"padding\":1,\"window\":1}".into())
            )
        );
        assert_eq!(
            tail("\"mask\": {}"),
            ("mask".into(), Reason::MaskForm("{}".into()))
        );
        assert_eq!(
            tail("\"mask\": {\"window\": 1.5}"),
            ("mask.window".into(), Reason::WholeNumber("1.5".into()))
        );
        assert_eq!(
            tail("\"mask\": {\"padding\": \"1\"}"),
            ("mask.padding".into(), Reason::WholeNumber("\"1\"".into()))
        );
        assert_eq!(
            tail("\"mask\": {\"custom\": [[1]]}"),
            ("mask.custom".into(), Reason::CustomMask)
        );
        assert_eq!(
            tail("\"mask\": {\"custom\": [[true, 1e999]]}"),
            ("mask.custom[0][1]".into(), Reason::NumberOutOfRange)
        );
        assert_eq!(
            tail("\"positional\": true"),
            ("positional".into(), Reason::PositionalForm("true".into()))
        );
        // The document itself must be an object.
        for (text, got) in [
            ("[]", "[]"),
            ("3", "3"),
            ("null", "null"),
            ("\"s\"", "\"s\""),
        ] {
            assert_eq!(
                refusal(text),
                (
                    String::new(),
                    Reason::Expected {
                        what: Expected::Object,
                        got: got.into()
                    }
                )
            );
        }
    }

    #[test]
    fn optional_fields_read_as_before() {
        let s = Scenario::from_json(SMALL).unwrap();
        assert_eq!(
            (
                s.tokens.clone(),
                s.scale,
                s.mask.clone(),
                s.positional,
                s.w_o.clone()
            ),
            (
                vec!["x1".to_string()],
                true,
                Mask::None,
                Positional::None,
                None
            )
        );
        // `null` tokens and w_o read as absent.
        let nulls = SMALL.replace("}]}", "}], \"tokens\": null, \"w_o\": null}");
        assert_eq!(Scenario::from_json(&nulls).unwrap(), s);
        for (mask, want) in [
            ("\"none\"", Mask::None),
            ("\"causal\"", Mask::Causal),
            ("{\"padding\": 1}", Mask::Padding(1)),
            ("{\"window\": 2}", Mask::Window(2)),
            ("{\"window\": 1e300}", Mask::Window(usize::MAX)),
            ("{\"window\": 2.0}", Mask::Window(2)),
            ("{\"padding\": -0}", Mask::Padding(0)),
            ("{\"custom\": [[true]]}", Mask::Custom(vec![vec![true]])),
        ] {
            let text = SMALL.replace("}]}", &format!("}}], \"mask\": {mask}}}"));
            assert_eq!(Scenario::from_json(&text).unwrap().mask, want, "{mask}");
        }
        let text = SMALL.replace("}]}", "}], \"w_o\": [[0.5]], \"scale\": false, \"positional\": \"sinusoidal\", \"tokens\": [\"é\"]}");
        let s = Scenario::from_json(&text).unwrap();
        assert_eq!(s.w_o, Some(Matrix::from_element(1, 1, 0.5)));
        assert_eq!(
            (s.scale, s.positional, s.tokens),
            (false, Positional::Sinusoidal, vec!["é".to_string()])
        );
    }

    #[test]
    fn onehot_is_read_written_and_read_back() {
        let s = Scenario::from_json(ONE_HOT).unwrap();
        assert_eq!(s.positional, Positional::OneHot);
        assert_eq!((s.d_model(), s.d_in()), (2, 4));
        let text = s.to_json();
        assert!(text.contains("\"positional\": \"onehot\""), "{text}");
        assert_eq!(Scenario::from_json(&text).unwrap(), s);
        let compact = s.to_json_compact();
        assert!(compact.contains("\"positional\":\"onehot\""), "{compact}");
        assert_eq!(Scenario::from_json(&compact).unwrap(), s);
        // Re-exporting what was read gives the same bytes.
        assert_eq!(Scenario::from_json(&text).unwrap().to_json(), text);
    }

    #[test]
    fn onehot_files_need_d_model_plus_n_rows_and_old_files_are_unchanged() {
        let short = ONE_HOT.replace("[[1], [0], [0.5], [-1]]", "[[1], [0], [0.5]]");
        let e = Scenario::from_json(&short).unwrap_err();
        assert_eq!(e.field, "heads[0].w_q");
        assert_eq!(
            e.reason,
            Reason::OneHotRows {
                d_model: 2,
                n: 2,
                cols: 1,
                got: (3, 1)
            }
        );
        // The same file without positions needs 2 rows.
        let none = ONE_HOT.replace("\"onehot\"", "\"none\"");
        assert_eq!(
            Scenario::from_json(&none).unwrap_err().to_string(),
            "heads[0].w_q: expected 2×1, got 4×1"
        );
        let bad = ONE_HOT.replace("\"onehot\"", "\"one-hot\"");
        assert_eq!(
            Scenario::from_json(&bad).unwrap_err().to_string(),
            "positional: expected \"none\", \"sinusoidal\" or \"onehot\", got \"one-hot\""
        );
        // A file without the field, or with the old values, writes them as before.
        let old = ONE_HOT
            .replace("[[1], [0], [0.5], [-1]]", "[[1], [0]]")
            .replace("[[0], [1], [2], [0]]", "[[0], [1]]")
            .replace("[[1], [1], [0], [10]]", "[[1], [1]]");
        for (field, written) in [
            ("\"positional\": \"none\"", "none"),
            ("\"positional\": \"sinusoidal\"", "sinusoidal"),
        ] {
            let text = old.replace("\"positional\": \"onehot\"", field);
            let s = Scenario::from_json(&text).unwrap();
            let out = s.to_json();
            assert!(out.contains(&format!("\"positional\": \"{written}\"")));
            assert_eq!(Scenario::from_json(&out).unwrap().to_json(), out);
        }
    }

    #[test]
    fn a_mask_alone_is_written_and_read_back() {
        for m in [
            Mask::None,
            Mask::Causal,
            Mask::Padding(3),
            Mask::Window(2),
            Mask::Custom(vec![vec![true, false], vec![false, true]]),
        ] {
            assert_eq!(Mask::from_json(&m.to_json()).unwrap(), m);
        }
        assert_eq!(Mask::Causal.to_json(), "\"causal\"");
        for bad in [
            "",
            "{",
            "\"sideways\"",
            "{\"custom\": [[1]]}",
            "[true]",
            "{\"window\": -1}",
        ] {
            assert!(Mask::from_json(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parts_are_read_back_bit_for_bit() {
        let mut s = Scenario::from_json(ONE_HOT).unwrap();
        s.tokens = vec!["\"q\"\\ 你".to_string(), "b".to_string()];
        s.mask = Mask::Custom(vec![vec![true, false], vec![true, true]]);
        s.x[(0, 1)] = 0.1 + 0.2;
        s.x[(1, 0)] = -0.0;
        let (header, numbers) = s.to_parts();
        let back = Scenario::from_parts(&header, &numbers).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.x[(1, 0)].to_bits(), (-0.0f64).to_bits());
        // Parts that do not fit together are refused, never a panic.
        assert!(Scenario::from_parts(&header, &numbers[1..]).is_none());
        assert!(Scenario::from_parts(&header, &[numbers.as_slice(), &[1.0]].concat()).is_none());
        let mut nan = numbers.clone();
        nan[0] = f64::NAN;
        assert!(Scenario::from_parts(&header, &nan).is_none());
        for bad in [
            "",
            "{}",
            "[1]",
            &header.replace("\"heads\":1", "\"heads\":2"),
        ] {
            assert!(Scenario::from_parts(bad, &numbers).is_none(), "{bad}");
        }
        let huge = header.replacen("[2,2]", "[9007199254740992,9007199254740992]", 1);
        assert!(Scenario::from_parts(&huge, &numbers).is_none());
    }
}
