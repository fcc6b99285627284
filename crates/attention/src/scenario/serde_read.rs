//! The scenario reader as it was built on serde_json, serde derive and
//! serde_path_to_error, kept (native tests only) as the reference the
//! hand-written reader (`read.rs`) is compared with on many texts, valid and
//! not: the same scenario or the same refusal, field, line and column
//! (`tests.rs`). Nothing else uses it.

use super::read::{mask_object, push_key, Got, Items, Want, FIELDS, HEAD_FIELDS, LAYER_FIELDS};
use super::*;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::error::Category;
use serde_path_to_error::{Path, Segment};
use std::cell::RefCell;
use std::fmt::Write;

type R<T> = Result<T, ScenarioError>;

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
            Want::Layers => Want::Layer,
            _ => {
                let got = Json::deserialize(SeqAccessDeserializer::new(a))?;
                return Err(refuse("", self.0.other(&got)));
            }
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
        // The scenario (at the root), its heads, and its stacked layers
        // (`stack[l]`, whose heads are heads too) have fields.
        let segments: Vec<&Segment> = path.iter().collect();
        let in_stack = matches!(segments.first(), Some(Segment::Map { key }) if key == "stack");
        let known = if in_stack && segments.len() == 3 {
            LAYER_FIELDS
        } else if segments.len() > 1 {
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
    not_json(text, e, problem_of(e))
}

pub(super) fn scenario(text: &str) -> R<Scenario> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Text that is not JSON is refused as such (line and column) before
    // any field is read, wherever the break is: a file cut short after a
    // wrong row says it is cut short. serde_json skips a value without
    // recursion, so this pass needs no depth limit.
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map_err(|e| not_json(text, &e, problem_of(&e)))?;
    REFUSED.with(|r| r.borrow_mut().take());
    let mut de = serde_json::Deserializer::from_str(text);
    let root: Root = serde_path_to_error::deserialize(&mut de)
        .map_err(|e| problem(text, e.path(), e.inner()))?;
    de.end()
        .map_err(|e| not_json(text, &e, JsonProblem::Trailing))?;
    Ok(root.0)
}

/// What is wrong, from serde_json's error (which has no public code, so
/// its English message is matched). Anything unforeseen reads as
/// "expected a value".
fn problem_of(e: &serde_json::Error) -> JsonProblem {
    if e.is_eof() {
        return JsonProblem::Eof;
    }
    let message = e.to_string();
    let table = [
        ("recursion limit", JsonProblem::TooDeep),
        ("trailing comma", JsonProblem::TrailingComma),
        ("trailing characters", JsonProblem::Trailing),
        ("expected `,` or `]`", JsonProblem::ExpectedCommaOr(']')),
        ("expected `,` or `}`", JsonProblem::ExpectedCommaOr('}')),
        ("expected `:`", JsonProblem::ExpectedColon),
        ("expected `\"`", JsonProblem::ExpectedKey),
        ("key must be a string", JsonProblem::ExpectedKey),
        ("control character", JsonProblem::ControlCharacter),
        ("lone leading surrogate", JsonProblem::LoneSurrogate),
        ("unexpected end of hex escape", JsonProblem::LoneSurrogate),
        ("invalid unicode code point", JsonProblem::LoneSurrogate),
        ("invalid escape", JsonProblem::InvalidEscape),
        ("invalid number", JsonProblem::InvalidNumber),
        ("number out of range", JsonProblem::InvalidNumber),
    ];
    table
        .into_iter()
        .find(|(start, _)| message.starts_with(start))
        .map_or(JsonProblem::ExpectedValue, |(_, p)| p)
}

/// Any JSON value, read through serde (objects keep their order; a repeated
/// key is kept twice, as written).
impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> serde::de::Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E>(self, x: i64) -> Result<Json, E> {
        Ok(Json::Number(x as f64))
    }
    fn visit_u64<E>(self, x: u64) -> Result<Json, E> {
        Ok(Json::Number(x as f64))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Json, E> {
        Ok(Json::Number(x))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = a.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
        let mut pairs = Vec::new();
        while let Some(pair) = a.next_entry()? {
            pairs.push(pair);
        }
        Ok(Json::Object(pairs))
    }
}
