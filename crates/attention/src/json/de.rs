//! Reading JSON text through serde_json: any value as a [`Json`] (objects
//! in document order), and a text that is not JSON as a [`Fault`], where it
//! breaks (line and column in characters) and what is wrong as a typed
//! [`JsonProblem`], so the page can say it in each language.
//!
//! serde_json is built with `float_roundtrip`: every number literal is
//! rounded correctly (as `str::parse::<f64>` rounds it), so what
//! [`Json::to_compact`] wrote comes back bit for bit.

use super::{Json, JsonProblem};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A problem in JSON text and where it is: the 1-based line, and the
/// column in characters (a leading byte-order mark is not counted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub line: usize,
    pub column: usize,
    pub problem: JsonProblem,
}

/// `text` without a leading byte-order mark (editors on Windows write one).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Whether `text` is JSON at all, read to its end without keeping anything.
/// serde_json skips a value without recursing, so a text nested a million
/// deep is still called cut short where it is cut short.
pub fn check(text: &str) -> Result<(), Fault> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| ())
        .map_err(|e| fault(text, &e))
}

/// Where and what serde_json's error `e` on `text` is.
pub fn fault(text: &str, e: &serde_json::Error) -> Fault {
    located(text, e, problem_of(e))
}

/// `e`'s place in `text` with `problem` as what is wrong there.
pub fn located(text: &str, e: &serde_json::Error, problem: JsonProblem) -> Fault {
    // serde_json counts the column in bytes, up to the byte it stopped at;
    // the page counts characters.
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
    Fault {
        line,
        column,
        problem,
    }
}

/// What is wrong, from serde_json's error. serde_json gives a category but
/// no code for each syntax error, so its English message is matched;
/// anything unforeseen reads as "expected a value".
pub fn problem_of(e: &serde_json::Error) -> JsonProblem {
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
/// key is kept twice, as written; numbers are f64s).
impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
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
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = a.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
        let mut pairs = Vec::new();
        while let Some(pair) = a.next_entry()? {
            pairs.push(pair);
        }
        Ok(Json::Object(pairs))
    }
}

/// Decimal text to `f64`, rounded correctly: the grammar of
/// `str::parse::<f64>` without `inf` and `nan` (an optional sign, digits
/// with an optional point and at least one digit, an optional exponent),
/// read by serde_json's reader. The page reads every number this way, typed
/// or written in a file, so it carries one decimal reader: the standard
/// library's brings its own 11 KB table of powers of five. A number beyond
/// `f64` is ±∞, as `str::parse` gives it; `None` for anything else.
pub fn decimal(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) || !exponent_ok {
        return None;
    }
    // The same number in JSON's grammar: no `+`, no leading zeros, a digit
    // on each side of the point.
    let whole = whole.trim_start_matches('0');
    let mut json = String::with_capacity(text.len() + 3);
    if negative {
        json.push('-');
    }
    json.push_str(if whole.is_empty() { "0" } else { whole });
    if !fraction.is_empty() {
        json.push('.');
        json.push_str(fraction);
    }
    if let Some(e) = exponent {
        json.push('e');
        json.push_str(e);
    }
    // A decimal in JSON's grammar is refused only when beyond f64.
    let beyond = if negative {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    Some(serde_json::from_str::<f64>(&json).unwrap_or(beyond))
}
