//! # JSON: the exact writer, and the bridge from serde_json's reader
//!
//! Scenarios, results and share links are JSON. They are **read** by
//! serde_json (see `scenario.rs`: serde derive, `float_roundtrip`, paths by
//! serde_path_to_error) and **written** here, because the files the page has
//! written since the format began must keep their exact bytes:
//!
//! - **Exact numbers.** The writer prints the shortest text that reads back
//!   to the same `f64` (Rust's `{:?}`; whole numbers below 10¹⁵ as integers),
//!   so every number written by [`Json::to_compact`] or [`Json::to_pretty`]
//!   comes back bit for bit through serde_json with `float_roundtrip`.
//!   Non-finite numbers are written as `null`.
//! - **Layout.** Compact (no whitespace) for links and storage; pretty (two
//!   spaces, one matrix row a line) for files.
//! - **Reading.** [`Json`] implements `serde::Deserialize`, so a value of the
//!   wrong kind can be quoted as written in an error message; and
//!   [`JsonProblem::of`] words serde_json's syntax errors as data, so the page
//!   says them in each language.

use std::fmt;

/// A JSON value. Objects keep their keys in document (or insertion) order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// What is wrong with a JSON text; [`fmt::Display`] gives the English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonProblem {
    Eof,
    Trailing,
    ExpectedValue,
    TooDeep,
    TrailingComma,
    /// Expected `,` or this closer (`]` or `}`).
    ExpectedCommaOr(char),
    ExpectedKey,
    ExpectedColon,
    /// A field that appears twice in one object.
    DuplicateKey(String),
    ControlCharacter,
    LoneSurrogate,
    /// An escape that is not one (`\x`, `\u12g4`).
    InvalidEscape,
    /// A number that is not one (`01`, `1.`, `-`, `1e+`).
    InvalidNumber,
}

impl fmt::Display for JsonProblem {
    /// The English of [`JsonProblem::worded`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(false))
    }
}

impl JsonProblem {
    /// What is wrong, from serde_json's error (which has no public code, so
    /// its English message is matched). Anything unforeseen reads as
    /// "expected a value".
    pub fn of(e: &serde_json::Error) -> JsonProblem {
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

impl Json {
    /// JSON text without any whitespace.
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, false, 0);
        out
    }

    /// JSON text with 2-space indentation and `"key": value`, except that an
    /// array of only numbers, booleans and nulls stays on one line
    /// (`[1, 2.5]`), so a matrix reads one row per line. No final newline.
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, true, 0);
        out
    }

    /// One writer for both layouts; `level` is the current indentation.
    fn write(&self, out: &mut String, pretty: bool, level: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(x) => write_number(out, *x),
            Json::String(s) => write_string(out, s),
            Json::Array(items) => {
                // Compact output is "flat" everywhere.
                let flat = !pretty
                    || items
                        .iter()
                        .all(|v| matches!(v, Json::Null | Json::Bool(_) | Json::Number(_)));
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                        if pretty && flat {
                            out.push(' ');
                        }
                    }
                    if !flat {
                        newline(out, level + 1);
                    }
                    item.write(out, pretty, level + 1);
                }
                if !flat && !items.is_empty() {
                    newline(out, level);
                }
                out.push(']');
            }
            Json::Object(pairs) => {
                out.push('{');
                for (i, (key, value)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if pretty {
                        newline(out, level + 1);
                    }
                    write_string(out, key);
                    out.push_str(if pretty { ": " } else { ":" });
                    value.write(out, pretty, level + 1);
                }
                if pretty && !pairs.is_empty() {
                    newline(out, level);
                }
                out.push('}');
            }
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(x) => Some(*x),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(pairs) => Some(pairs),
            _ => None,
        }
    }
}

fn newline(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// Whole numbers below 10¹⁵ as integers (`3`), other finite numbers as
/// Rust's `{:?}` (shortest text that reads back to the same `f64`: `0.1`,
/// `1e-7`, `-0.0`), which is always valid JSON; NaN and ±∞ as `null`.
fn write_number(out: &mut String, x: f64) {
    use fmt::Write;
    if x.fract() == 0.0 && x.abs() < 1e15 && !(x == 0.0 && x.is_sign_negative()) {
        // Whole numbers as integers (`3`, not `3.0`), as people and other
        // JSON readers expect of counts and indices; −0 keeps its `-0.0`.
        let _ = write!(out, "{}", x as i64);
    } else if x.is_finite() {
        let _ = write!(out, "{x:?}");
    } else {
        out.push_str("null");
    }
}

/// A string literal, escaped per RFC 8259; non-ASCII stays UTF-8.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\0'..='\u{1f}' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[c as usize >> 4] as char);
                out.push(HEX[c as usize & 15] as char);
            }
            _ => out.push(c),
        }
    }
    out.push('"');
}

impl From<f64> for Json {
    fn from(x: f64) -> Json {
        Json::Number(x)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_owned())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

impl From<Vec<Json>> for Json {
    fn from(items: Vec<Json>) -> Json {
        Json::Array(items)
    }
}

/// An object with these keys, in this order (the caller keeps keys unique).
pub fn object(pairs: Vec<(&str, Json)>) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// An array of arrays of numbers: one inner array per row.
pub fn matrix_rows(rows: impl Iterator<Item = impl Iterator<Item = f64>>) -> Json {
    Json::Array(
        rows.map(|row| Json::Array(row.map(Json::Number).collect()))
            .collect(),
    )
}

// Native only: proptest and serde_json are native dev-dependencies.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
