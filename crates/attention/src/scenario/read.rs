//! The scenario reader: untrusted JSON text to a [`Scenario`](super::Scenario),
//! or a refusal that names the field (`heads[1].w_k`) and the reason.
//!
//! Two passes over the text (`json/read.rs`): first the whole text must be
//! JSON (else line and column), then the values are read in document order
//! as the format wants them, and the first that is not what it should be
//! is refused where it stands: a field nobody knows or one given twice when
//! its key is read, a value of the wrong kind when it is read, a missing
//! field at the end of its object, a matrix of ragged rows at the end of
//! the matrix.

use super::*;
use crate::json::read::{check, Fault, Kind, Reader, Step, Stop};
use std::fmt::Write;

type R<T> = Result<T, ScenarioError>;

/// The fields of a scenario, of a stacked layer and of a head, in the order
/// a missing one is reported.
pub(super) const FIELDS: &[&str] = &[
    "format",
    "tokens",
    "x",
    "heads",
    "w_o",
    "residual",
    "scale",
    "mask",
    "positional",
    "stack",
];
pub(super) const HEAD_FIELDS: &[&str] = &["w_q", "w_k", "w_v"];
pub(super) const LAYER_FIELDS: &[&str] = &["heads", "w_o", "residual"];

/// A value as written (compact), cut at 40 characters.
fn describe(v: &Json) -> String {
    let text = v.to_compact();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// What a value of the format must be.
#[derive(Clone, Copy)]
pub(super) enum Want {
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
    Layer,
    Layers,
    Mask,
    Positional,
}

/// A value read, as the [`Want`] asked. (These and the format's words
/// above are shared with the serde reader the tests compare this one
/// with, `serde_read.rs`: what differs there is only the reading.)
pub(super) enum Got {
    Root(Scenario),
    Text(String),
    Flag(bool),
    Num(f64),
    Row(Vec<f64>),
    Rows(Matrix),
    Labels(Vec<String>),
    Head(HeadWeights),
    Heads(Vec<HeadWeights>),
    Layer(Layer),
    Layers(Vec<Layer>),
    Mask(Mask),
    Positional(Positional),
}

impl Want {
    /// The refusal of a value of another kind, quoted as written.
    pub(super) fn other(self, got: &Json) -> Reason {
        let got = describe(got);
        let expected = |what| Reason::Expected {
            what,
            got: got.clone(),
        };
        match self {
            Want::Root | Want::Head | Want::Layer => expected(Expected::Object),
            Want::Layers => expected(Expected::Layers),
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
    pub(super) fn scalar(self, v: Json) -> Result<Got, Reason> {
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

    /// What each item of an array of this is.
    fn item(self) -> Option<Want> {
        Some(match self {
            Want::Row => Want::Num,
            Want::Rows => Want::Row,
            Want::Labels => Want::Label,
            Want::Heads => Want::Head,
            Want::Layers => Want::Layer,
            _ => return None,
        })
    }
}

/// The items of an array as they are read, then the array as its [`Want`]
/// says (a matrix's rows must agree).
#[derive(Default)]
pub(super) struct Items {
    nums: Vec<f64>,
    rows: Vec<Vec<f64>>,
    texts: Vec<String>,
    heads: Vec<HeadWeights>,
    layers: Vec<Layer>,
}

impl Items {
    pub(super) fn push(&mut self, got: Got) {
        match got {
            Got::Num(x) => self.nums.push(x),
            Got::Row(r) => self.rows.push(r),
            Got::Text(t) => self.texts.push(t),
            Got::Head(h) => self.heads.push(h),
            Got::Layer(l) => self.layers.push(l),
            _ => {}
        }
    }

    pub(super) fn finish(self, want: Want) -> Result<Got, Reason> {
        Ok(match want {
            Want::Row => Got::Row(self.nums),
            Want::Rows => Got::Rows(rows::from_rows(&self.rows)?),
            Want::Labels => Got::Labels(self.texts),
            Want::Layers => Got::Layers(self.layers),
            _ => Got::Heads(self.heads),
        })
    }
}

/// `{"padding": L}`, `{"window": W}` or `{"custom": [[…]]}`; a refusal
/// says what follows `mask` in its field.
pub(super) fn mask_object(v: &Json) -> Result<Mask, (&'static str, Reason)> {
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

/// The field a path names: `heads[1].w_k[0][2]`; a key that is no name
/// (empty, spaces, quotes…) is quoted, so the path still points at it:
/// `[""]`, `heads[0]["w q"]`.
fn field(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
            Step::Key(key) => push_key(&mut out, key),
        }
    }
    out
}

pub(super) fn push_key(out: &mut String, key: &str) {
    if !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_') {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(key);
    } else {
        let _ = write!(out, "[{key:?}]");
    }
}

/// Text that is not JSON: where (1-based line, column in characters; a
/// leading BOM is not counted) and what.
fn not_json(text: &str, fault: &Fault) -> ScenarioError {
    let (line, column) = fault.line_column(text);
    ScenarioError::new(
        "",
        Reason::Json {
            line,
            column,
            problem: fault.problem.clone(),
        },
    )
}

/// The second pass: the values of text that is JSON, read as the format
/// wants them, with the path to the one being read.
struct Doc<'a> {
    text: &'a str,
    r: Reader<'a>,
    path: Vec<Step>,
}

impl Doc<'_> {
    /// A refusal of the value at the path (and `suffix` inside it).
    fn refuse(&self, suffix: &str, reason: Reason) -> ScenarioError {
        ScenarioError::new(field(&self.path) + suffix, reason)
    }

    /// What the reader stopped at: text too deep (or a lone surrogate),
    /// or a number beyond f64, named by its field.
    fn stopped(&self, stop: Stop) -> ScenarioError {
        match stop {
            Stop::Fault(f) => not_json(self.text, &f),
            Stop::OutOfRange { .. } if !self.path.is_empty() => {
                self.refuse("", Reason::NumberOutOfRange)
            }
            Stop::OutOfRange { at } => not_json(
                self.text,
                &Fault {
                    at,
                    problem: JsonProblem::InvalidNumber,
                },
            ),
        }
    }

    /// The next value whatever it is, to be quoted.
    fn any(&mut self) -> R<Json> {
        let v = self.r.value(&mut self.path);
        v.map_err(|s| self.stopped(s))
    }

    fn open(&mut self) -> R<()> {
        let opened = self.r.open();
        opened.map_err(|s| self.stopped(s))
    }

    /// The next value, as `want` says.
    fn read(&mut self, want: Want) -> R<Got> {
        match (self.r.kind(), want) {
            (Kind::Array, _) if want.item().is_some() => self.array(want),
            (Kind::Object, Want::Root | Want::Layer | Want::Head) => self.object(want),
            (Kind::Object, Want::Mask) => {
                let got = self.any()?;
                mask_object(&got)
                    .map(Got::Mask)
                    .map_err(|(suffix, r)| self.refuse(suffix, r))
            }
            (Kind::Array | Kind::Object, _) => {
                let got = self.any()?;
                Err(self.refuse("", want.other(&got)))
            }
            _ => {
                let v = self.any()?;
                want.scalar(v).map_err(|r| self.refuse("", r))
            }
        }
    }

    /// An array of `want`'s items (a matrix's rows must agree at its end).
    fn array(&mut self, want: Want) -> R<Got> {
        let item = want.item().unwrap_or(Want::Num);
        self.open()?;
        let mut items = Items::default();
        let mut i = 0;
        while self.r.next_item() {
            self.path.push(Step::Index(i));
            items.push(self.read(item)?);
            self.path.pop();
            i += 1;
        }
        items.finish(want).map_err(|r| self.refuse("", r))
    }

    /// A scenario, a stacked layer or a head: its known fields in any
    /// order, each at most once, the required ones present.
    fn object(&mut self, want: Want) -> R<Got> {
        let (known, required): (&'static [&'static str], &'static [&'static str]) = match want {
            Want::Root => (FIELDS, &["format", "x", "heads"]),
            Want::Layer => (LAYER_FIELDS, &["heads"]),
            _ => (HEAD_FIELDS, HEAD_FIELDS),
        };
        self.open()?;
        let mut got: Vec<Option<Got>> = known.iter().map(|_| None).collect();
        loop {
            let key = self.r.next_key();
            let Some(key) = key.map_err(|s| self.stopped(s))? else {
                break;
            };
            let Some(k) = known.iter().position(|f| *f == key) else {
                self.path.push(Step::Key(key.clone()));
                return Err(self.refuse("", Reason::UnknownField { name: key, known }));
            };
            if got[k].is_some() {
                // Pointed at the end of the repeated key.
                self.r.skip_ws();
                let at = self.r.offset();
                return Err(not_json(
                    self.text,
                    &Fault {
                        at,
                        problem: JsonProblem::DuplicateKey(key),
                    },
                ));
            }
            self.r.colon();
            self.path.push(Step::Key(key));
            got[k] = Some(self.value_of(known[k])?);
            self.path.pop();
        }
        let index = |name: &str| known.iter().position(|k| *k == name).unwrap_or(0);
        if let Some(&missing) = required.iter().find(|f| got[index(f)].is_none()) {
            let mut f = field(&self.path);
            push_key(&mut f, missing);
            return Err(ScenarioError::new(f, Reason::MissingField(missing)));
        }
        let mut take = |name: &str| got[index(name)].take();
        Ok(match want {
            Want::Root => {
                let Some(Got::Rows(x)) = take("x") else {
                    unreachable!("x is required")
                };
                Got::Root(Scenario {
                    format: text_of(take("format")),
                    tokens: match take("tokens") {
                        Some(Got::Labels(t)) => t,
                        _ => default_tokens(x.nrows()),
                    },
                    x,
                    heads: heads_of(take("heads")),
                    w_o: rows_of(take("w_o")),
                    scale: flag_of(take("scale"), true),
                    mask: match take("mask") {
                        Some(Got::Mask(m)) => m,
                        _ => Mask::None,
                    },
                    positional: match take("positional") {
                        Some(Got::Positional(p)) => p,
                        _ => Positional::None,
                    },
                    residual: flag_of(take("residual"), false),
                    stack: match take("stack") {
                        Some(Got::Layers(l)) => l,
                        _ => Vec::new(),
                    },
                })
            }
            Want::Layer => Got::Layer(Layer {
                heads: heads_of(take("heads")),
                w_o: rows_of(take("w_o")),
                residual: flag_of(take("residual"), false),
            }),
            _ => Got::Head(HeadWeights {
                w_q: rows_of(take("w_q")).unwrap_or_default(),
                w_k: rows_of(take("w_k")).unwrap_or_default(),
                w_v: rows_of(take("w_v")).unwrap_or_default(),
            }),
        })
    }

    /// The value of field `name` of a scenario, layer or head. `tokens`,
    /// `w_o` and `stack` may be `null` (as if absent).
    fn value_of(&mut self, name: &str) -> R<Got> {
        let want = match name {
            "format" => Want::Tag,
            "tokens" => Want::Labels,
            "heads" => Want::Heads,
            "residual" | "scale" => Want::Flag,
            "mask" => Want::Mask,
            "positional" => Want::Positional,
            "stack" => Want::Layers,
            _ => Want::Rows,
        };
        if matches!(name, "tokens" | "w_o" | "stack") && self.r.kind() == Kind::Null {
            self.r.word();
            // Absent: the struct's default below.
            return Ok(Got::Flag(false));
        }
        self.read(want)
    }
}

fn text_of(g: Option<Got>) -> String {
    match g {
        Some(Got::Text(t)) => t,
        _ => String::new(),
    }
}

fn heads_of(g: Option<Got>) -> Vec<HeadWeights> {
    match g {
        Some(Got::Heads(h)) => h,
        _ => Vec::new(),
    }
}

fn rows_of(g: Option<Got>) -> Option<Matrix> {
    match g {
        Some(Got::Rows(m)) => Some(m),
        _ => None,
    }
}

fn flag_of(g: Option<Got>, absent: bool) -> bool {
    match g {
        Some(Got::Flag(b)) => b,
        _ => absent,
    }
}

pub fn scenario(text: &str) -> R<Scenario> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Text that is not JSON is refused as such (line and column) before
    // any field is read, wherever the break is: a file cut short after a
    // wrong row says it is cut short.
    check(text).map_err(|f| not_json(text, &f))?;
    let mut doc = Doc {
        text,
        r: Reader::new(text),
        path: Vec::new(),
    };
    match doc.read(Want::Root)? {
        Got::Root(s) => Ok(s),
        _ => unreachable!("Want::Root reads a scenario or refuses"),
    }
}
