//! The scenario reader: untrusted JSON text to a [`Scenario`](super::Scenario),
//! or a refusal that names the field (`heads[1].w_k[2][0]`) and the reason.
//!
//! Two passes over the text, both serde_json's: first the whole text must
//! be JSON (else line and column, wherever the break is), then the values
//! are read through serde derive ([`Doc`], [`LayerDoc`], [`HeadDoc`] with
//! `deny_unknown_fields`), each of the format's values by a [`Seed`] that
//! knows what it [`Want`]s, with serde_path_to_error keeping the path to
//! the value being read. The first value that is not what it should be is
//! refused where it stands, quoting it as written: a field nobody knows, a
//! value of the wrong kind, a missing field, a matrix of ragged rows.

use super::*;
use crate::json::de::{check, located, problem_of};
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::error::Category;
use serde_path_to_error::{Path, Segment};
use std::cell::RefCell;
use std::fmt::Write;

type R<T> = Result<T, ScenarioError>;

/// The fields of a scenario, of a stacked layer and of a head, in the order
/// a missing one is reported.
const FIELDS: &[&str] = &[
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
const HEAD_FIELDS: &[&str] = &["w_q", "w_k", "w_v"];
const LAYER_FIELDS: &[&str] = &["heads", "w_o", "residual"];

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
    Layer,
    Layers,
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
    Layer(Layer),
    Layers(Vec<Layer>),
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
struct Items {
    nums: Vec<f64>,
    rows: Vec<Vec<f64>>,
    texts: Vec<String>,
    heads: Vec<HeadWeights>,
    layers: Vec<Layer>,
}

impl Items {
    fn push(&mut self, got: Got) {
        match got {
            Got::Num(x) => self.nums.push(x),
            Got::Row(r) => self.rows.push(r),
            Got::Text(t) => self.texts.push(t),
            Got::Head(h) => self.heads.push(h),
            Got::Layer(l) => self.layers.push(l),
            _ => {}
        }
    }

    fn finish(self, want: Want) -> Result<Got, Reason> {
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

/// A key of a path as JavaScript writes it: `.key` for an ASCII name,
/// `["key"]` for any other. (ASCII only: `char::is_alphanumeric` would
/// bring Unicode's tables of letters and digits, 2 KB, to the first screen
/// for keys no scenario has.)
fn push_key(out: &mut String, key: &str) {
    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(key);
    } else {
        let _ = write!(out, "[{key:?}]");
    }
}

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
    residual: Off,
    #[serde(default)]
    scale: Flag,
    #[serde(default)]
    mask: MaskValue,
    #[serde(default)]
    positional: PositionalValue,
    #[serde(default)]
    stack: Option<Layers>,
}

/// A stacked layer as written.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LayerDoc {
    heads: Heads,
    #[serde(default)]
    w_o: Option<Rows>,
    #[serde(default)]
    residual: Off,
}

/// One head as written.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HeadDoc {
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
        let Some(item) = self.0.item() else {
            let got = Json::deserialize(SeqAccessDeserializer::new(a))?;
            return Err(refuse("", self.0.other(&got)));
        };
        let mut items = Items::default();
        while let Some(got) = a.next_element_seed(Seed(item))? {
            items.push(got);
        }
        items.finish(self.0).map_err(|r| refuse("", r))
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
                    residual: d.residual.0,
                    stack: d.stack.map_or_else(Vec::new, |l| l.0),
                }))
            }
            Want::Layer => {
                let l = LayerDoc::deserialize(a)?;
                Ok(Got::Layer(Layer {
                    heads: l.heads.0,
                    w_o: l.w_o.map(|w| w.0),
                    residual: l.residual.0,
                }))
            }
            Want::Head => {
                let h = HeadDoc::deserialize(a)?;
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

/// The types the derived [`Doc`], [`LayerDoc`] and [`HeadDoc`] hold, each read by
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
    Off(Flag, Flag: bool);
    Layers(Layers, Layers: Vec<Layer>);
    Rows(Rows, Rows: Matrix);
    Labels(Labels, Labels: Vec<String>);
    Heads(Heads, Heads: Vec<HeadWeights>);
    MaskValue(Mask, Mask: Mask);
    PositionalValue(Positional, Positional: Positional);
}

/// `residual` is false when absent.
impl Default for Off {
    fn default() -> Self {
        Off(false)
    }
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

/// The name between the first pair of backticks of serde's message.
fn quoted(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once('`')?;
    Some(rest.split_once('`')?.0)
}

/// Text that is not JSON: where (1-based line, column in characters; a
/// leading BOM is not counted) and what.
fn not_json(text: &str, e: &serde_json::Error, problem: JsonProblem) -> ScenarioError {
    located(text, e, problem).into()
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
        // The object the problem is in: an unknown field's path ends at
        // its key, a missing field's at the object. The scenario (at the
        // root) and its stacked layers (`stack[l]`) have fields of their
        // own; every other object of the format is a head.
        let unknown = message.starts_with("unknown field");
        let segments: Vec<&Segment> = path.iter().collect();
        let object = &segments[..segments.len() - usize::from(unknown && !segments.is_empty())];
        let known = match object {
            [] => FIELDS,
            [Segment::Map { key }, Segment::Seq { .. }] if key == "stack" => LAYER_FIELDS,
            _ => HEAD_FIELDS,
        };
        if unknown {
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
    not_json(text, e, problem_of(e))
}

pub(super) fn scenario(text: &str) -> R<Scenario> {
    let text = crate::json::de::without_bom(text);
    // Text that is not JSON is refused as such (line and column) before
    // any field is read, wherever the break is: a file cut short after a
    // wrong row says it is cut short.
    check(text)?;
    REFUSED.with(|r| r.borrow_mut().take());
    let mut de = serde_json::Deserializer::from_str(text);
    let root: Root = serde_path_to_error::deserialize(&mut de)
        .map_err(|e| problem(text, e.path(), e.inner()))?;
    de.end()
        .map_err(|e| not_json(text, &e, JsonProblem::Trailing))?;
    Ok(root.0)
}
