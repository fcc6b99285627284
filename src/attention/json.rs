//! # A small, exact JSON reader and writer
//!
//! Scenarios, results and share links are JSON. This module replaces serde +
//! serde_json at run time, because they were a large share of the
//! WebAssembly bundle, and because what this page needs from JSON is narrow
//! and strict:
//!
//! - **Exact numbers.** A number's grammar is checked here, then its literal
//!   text is converted by Rust's `str::parse::<f64>()`, which is correctly
//!   rounded. The writer prints the shortest text that reads back to the same
//!   `f64` (Rust's `{:?}`), so every number written by [`Json::to_compact`] or
//!   [`Json::to_pretty`] comes back bit for bit. A literal too large for `f64`
//!   (`1e999`) reads as ±∞ rather than failing, so the caller can refuse it
//!   *naming the field*; non-finite numbers are written as `null`.
//! - **Bounded nesting.** More than [`MAX_DEPTH`] nested arrays/objects is an
//!   error, never a stack overflow, whatever the input.
//! - **Strict RFC 8259.** No comments, trailing commas, `NaN`, leading zeros or
//!   `+`; control characters in strings must be escaped; a lone surrogate in a
//!   `\u` escape is an error; a duplicate key in one object is an error
//!   (instead of silently keeping one of the two values). A leading UTF-8 BOM
//!   is skipped.
//! - **Useful errors.** Every error names the 1-based line and column (in
//!   characters) where the problem is, with a short English message.
//! - **Small code.** One value type ([`Json`], objects keep their key order),
//!   one recursive writer for both layouts, no generics in the parser, no
//!   `Debug` formatting of strings, and never a panic on any input.

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

/// Why a text is not (acceptable) JSON, and where: 1-based `line` and
/// `column`, the column counted in characters (a leading BOM is not counted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    /// What is wrong, as data (the page words it in each language).
    pub problem: JsonProblem,
    /// The problem in English.
    pub message: String,
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
    /// A key that appears twice (at most 40 characters of it, control
    /// characters as `?`, `…` when cut).
    DuplicateKey(String),
    ControlCharacter,
    LoneSurrogate,
    InvalidEscape,
    InvalidUnicodeEscape,
    LeadingZero,
    ExpectedDigit,
    ExpectedDigitAfterDot,
    ExpectedDigitInExponent,
    InvalidNumber,
}

impl fmt::Display for JsonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonProblem::Eof => write!(f, "unexpected end of input"),
            JsonProblem::Trailing => write!(f, "trailing characters after the value"),
            JsonProblem::ExpectedValue => write!(f, "expected a value"),
            JsonProblem::TooDeep => write!(f, "nested too deeply"),
            JsonProblem::TrailingComma => write!(f, "trailing comma"),
            JsonProblem::ExpectedCommaOr(c) => write!(f, "expected `,` or `{c}`"),
            JsonProblem::ExpectedKey => write!(f, "expected a string key"),
            JsonProblem::ExpectedColon => write!(f, "expected `:`"),
            JsonProblem::DuplicateKey(k) => write!(f, "duplicate key `{k}`"),
            JsonProblem::ControlCharacter => {
                write!(f, "control character in string (must be escaped)")
            }
            JsonProblem::LoneSurrogate => write!(f, "lone surrogate in `\\u` escape"),
            JsonProblem::InvalidEscape => write!(f, "invalid escape"),
            JsonProblem::InvalidUnicodeEscape => {
                write!(f, "invalid `\\u` escape (expected four hex digits)")
            }
            JsonProblem::LeadingZero => write!(f, "number has a leading zero"),
            JsonProblem::ExpectedDigit => write!(f, "expected a digit"),
            JsonProblem::ExpectedDigitAfterDot => write!(f, "expected a digit after `.`"),
            JsonProblem::ExpectedDigitInExponent => write!(f, "expected a digit in the exponent"),
            JsonProblem::InvalidNumber => write!(f, "invalid number"),
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for JsonError {}

/// The deepest nesting of arrays and objects [`parse`] accepts (a top-level
/// array is depth 1).
pub const MAX_DEPTH: usize = 128;

const EOF: JsonProblem = JsonProblem::Eof;

/// Parses one JSON document (RFC 8259), surrounded only by whitespace.
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = Parser { text, pos: 0 };
    let value = p.value(0)?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(p.error(p.pos, JsonProblem::Trailing));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    /// Byte offset of the next unread byte (always on a char boundary when
    /// an error is reported).
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// The text from `start` to `pos` (both on char boundaries). `get`, not
    /// indexing: a slicing panic would pull in Unicode tables.
    fn slice(&self, start: usize) -> &str {
        self.text.get(start..self.pos).unwrap_or_default()
    }

    /// An error at byte offset `at`, with its line and column in characters
    /// (counted as UTF-8 bytes that do not continue a character).
    fn error(&self, at: usize, problem: JsonProblem) -> JsonError {
        let before = self.text.as_bytes().get(..at).unwrap_or_default();
        let mut line = 1;
        let mut column = 1;
        for &b in before {
            if b == b'\n' {
                line += 1;
                column = 1;
            } else if b & 0xC0 != 0x80 {
                column += 1;
            }
        }
        JsonError {
            line,
            column,
            message: problem.to_string(),
            problem,
        }
    }

    /// "unexpected end of input" at the end, otherwise `message` at `pos`.
    fn unexpected(&self, problem: JsonProblem) -> JsonError {
        self.error(
            self.pos,
            if self.pos >= self.text.len() {
                EOF
            } else {
                problem
            },
        )
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// A value whose enclosing arrays/objects number `depth`.
    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.skip_ws();
        match self.peek() {
            Some(b'[') => self.array(depth),
            Some(b'{') => self.object(depth),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected(JsonProblem::ExpectedValue)),
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        let start = self.pos;
        for &w in word.as_bytes() {
            match self.peek() {
                Some(b) if b == w => self.pos += 1,
                None => return Err(self.error(self.pos, EOF)),
                Some(_) => return Err(self.error(start, JsonProblem::ExpectedValue)),
            }
        }
        Ok(value)
    }

    /// Checks the depth before opening a container at `pos`.
    fn open(&mut self, depth: usize) -> Result<(), JsonError> {
        if depth >= MAX_DEPTH {
            return Err(self.error(self.pos, JsonProblem::TooDeep));
        }
        self.pos += 1;
        self.skip_ws();
        Ok(())
    }

    /// After an element: `true` on `,` (and no closer follows), `false` on
    /// the closer.
    fn separator(&mut self, close: u8) -> Result<bool, JsonError> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                let comma = self.pos;
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(close) {
                    return Err(self.error(comma, JsonProblem::TrailingComma));
                }
                Ok(true)
            }
            Some(b) if b == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.unexpected(JsonProblem::ExpectedCommaOr(close as char))),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.open(depth)?;
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if !self.separator(b']')? {
                return Ok(Json::Array(items));
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.open(depth)?;
        let mut pairs: Vec<(String, Json)> = Vec::new();
        let mut key_at = Vec::new();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(pairs));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.unexpected(JsonProblem::ExpectedKey));
            }
            key_at.push(self.pos);
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.unexpected(JsonProblem::ExpectedColon));
            }
            self.pos += 1;
            let value = self.value(depth + 1)?;
            pairs.push((key, value));
            if !self.separator(b'}')? {
                break;
            }
        }
        if let Some(i) = first_duplicate(&pairs) {
            let mut key = String::new();
            for c in pairs[i].0.chars().take(40) {
                key.push(if c.is_control() { '?' } else { c });
            }
            if pairs[i].0.chars().nth(40).is_some() {
                key.push('…');
            }
            return Err(self.error(key_at[i], JsonProblem::DuplicateKey(key)));
        }
        Ok(Json::Object(pairs))
    }

    /// A string starting at the `"` at `pos`.
    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error(self.pos, EOF));
            };
            match b {
                b'"' => {
                    out.push_str(self.slice(run));
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => {
                    out.push_str(self.slice(run));
                    out.push(self.escape()?);
                    run = self.pos;
                }
                0..=0x1f => return Err(self.error(self.pos, JsonProblem::ControlCharacter)),
                _ => self.pos += 1,
            }
        }
    }

    /// The escape starting at the `\` at `pos`.
    fn escape(&mut self) -> Result<char, JsonError> {
        let at = self.pos;
        self.pos += 1;
        let Some(b) = self.peek() else {
            return Err(self.error(self.pos, EOF));
        };
        self.pos += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let lone = JsonProblem::LoneSurrogate;
                let mut code = self.hex4(at)?;
                if (0xDC00..0xE000).contains(&code) {
                    return Err(self.error(at, lone.clone()));
                }
                if (0xD800..0xDC00).contains(&code) {
                    if self.text.as_bytes().get(self.pos..self.pos + 2) != Some(b"\\u") {
                        return Err(self.error(at, lone.clone()));
                    }
                    self.pos += 2;
                    let low = self.hex4(at)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(self.error(at, lone.clone()));
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                // Cannot fail: surrogates were handled above.
                char::from_u32(code).unwrap_or('\u{fffd}')
            }
            _ => return Err(self.error(at, JsonProblem::InvalidEscape)),
        })
    }

    /// The four hex digits after a `\u` (the escape began at `at`).
    fn hex4(&mut self, at: usize) -> Result<u32, JsonError> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                None => return Err(self.error(self.pos, EOF)),
                Some(b) => (b as char).to_digit(16),
            };
            let Some(d) = digit else {
                return Err(self.error(at, JsonProblem::InvalidUnicodeEscape));
            };
            code = code * 16 + d;
            self.pos += 1;
        }
        Ok(code)
    }

    /// One or more ASCII digits, or `message`.
    fn digits(&mut self, problem: JsonProblem) -> Result<(), JsonError> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.unexpected(problem));
        }
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        Ok(())
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if self.peek() == Some(b'0') {
            self.pos += 1;
            if let Some(b'0'..=b'9') = self.peek() {
                return Err(self.error(self.pos - 1, JsonProblem::LeadingZero));
            }
        } else {
            self.digits(JsonProblem::ExpectedDigit)?;
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.digits(JsonProblem::ExpectedDigitAfterDot)?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.digits(JsonProblem::ExpectedDigitInExponent)?;
        }
        // The grammar above is a subset of what `str::parse` accepts, and
        // it rounds correctly; overflow gives ±inf (the caller refuses it).
        match self.slice(start).parse::<f64>() {
            Ok(x) => Ok(Json::Number(x)),
            Err(_) => Err(self.error(start, JsonProblem::InvalidNumber)),
        }
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

    /// The value of `key`, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
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

    /// A number that is whole, ≥ 0 and ≤ 2^53 (so every such integer is
    /// exact); `None` otherwise (fractions, negatives, ±∞, NaN, non-numbers).
    pub fn as_u64(&self) -> Option<u64> {
        let x = self.as_f64()?;
        if (0.0..=9_007_199_254_740_992.0).contains(&x) && x.fract() == 0.0 {
            Some(x as u64)
        } else {
            None
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

/// The index of the first key (in document order) that repeats an earlier
/// one. A bottom-up merge sort of the indices by key, stable so that equal
/// keys stay in document order: O(n log n), where comparing each key with all
/// earlier ones would let a long object cost n², and much smaller in
/// WebAssembly than the standard library's generic sorts or sets.
fn first_duplicate(pairs: &[(String, Json)]) -> Option<usize> {
    let n = pairs.len();
    let mut from: Vec<usize> = (0..n).collect();
    let mut to = from.clone();
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in to.iter_mut().take(end).skip(start) {
                if j >= end || (i < mid && pairs[from[i]].0 <= pairs[from[j]].0) {
                    *slot = from[i];
                    i += 1;
                } else {
                    *slot = from[j];
                    j += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    from.windows(2)
        .filter(|w| pairs[w[0]].0 == pairs[w[1]].0)
        .map(|w| w[1])
        .min()
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
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// `(line, column, message)` of the error for `text`.
    fn err(text: &str) -> (usize, usize, String) {
        let e = parse(text).expect_err(text);
        (e.line, e.column, e.message)
    }

    fn at(line: usize, column: usize, message: &str) -> (usize, usize, String) {
        (line, column, message.to_owned())
    }

    /// Structural equality with numbers compared bit for bit.
    fn identical(a: &Json, b: &Json) -> bool {
        match (a, b) {
            (Json::Number(x), Json::Number(y)) => x.to_bits() == y.to_bits(),
            (Json::Array(x), Json::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| identical(a, b))
            }
            (Json::Object(x), Json::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((ka, a), (kb, b))| ka == kb && identical(a, b))
            }
            _ => a == b,
        }
    }

    /// Whether this build of serde_json reads numbers exactly (features
    /// `float_roundtrip` or `arbitrary_precision`); its default parser
    /// misreads this literal by 2 units in the last place.
    fn serde_is_exact() -> bool {
        static EXACT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *EXACT.get_or_init(|| {
            let t = "-1.0393393915616521e-54";
            serde_json::from_str::<Value>(t)
                .ok()
                .and_then(|v| v.as_f64())
                == t.parse().ok()
        })
    }

    /// Equal numbers (`-0` may read as `0` there: serde_json keeps integers
    /// as integers). When serde_json is not exact, a tiny relative error is
    /// allowed there (it may even read `1.79769313486231597e308` as
    /// `f64::MAX`, where the correct rounding is +∞); our own exactness is
    /// checked against `str::parse`.
    fn close(x: f64, y: f64) -> bool {
        let near = |x: f64, y: f64| {
            (x - y).abs() <= 1e-14 * x.abs().max(y.abs())
                || x.to_bits().abs_diff(y.to_bits()) <= 4
                || (x.is_infinite() && y.abs() == f64::MAX && x.signum() == y.signum())
        };
        x == y || (!serde_is_exact() && near(x, y))
    }

    /// Same structure and values as serde_json's reading (its objects may be
    /// sorted by key, so keys are looked up, not zipped).
    fn same(a: &Json, b: &Value) -> bool {
        match (a, b) {
            (Json::Null, Value::Null) => true,
            (Json::Bool(x), Value::Bool(y)) => x == y,
            (Json::Number(x), Value::Number(y)) => {
                // With `arbitrary_precision`, `as_f64` is `None` for `1e999`.
                let y = y.as_f64().or_else(|| y.to_string().parse().ok());
                y.is_some_and(|y| close(*x, y))
            }
            (Json::String(x), Value::String(y)) => x == y,
            (Json::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
            }
            (Json::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| same(a, b)))
            }
            _ => false,
        }
    }

    fn has_non_finite(v: &Json) -> bool {
        match v {
            Json::Number(x) => !x.is_finite(),
            Json::Array(items) => items.iter().any(has_non_finite),
            Json::Object(pairs) => pairs.iter().any(|(_, v)| has_non_finite(v)),
            _ => false,
        }
    }

    /// Parses `text` with both parsers and checks they agree. The only
    /// allowed differences: we reject duplicate keys (serde_json keeps the
    /// last), we read an overflowing literal as ±∞ (serde_json refuses it),
    /// we skip a leading BOM, and serde_json's inexact default parser may
    /// call a huge but finite literal "out of range".
    fn check_against_serde(text: &str) -> Result<(), TestCaseError> {
        let ours = parse(text);
        let theirs = serde_json::from_str::<Value>(text.strip_prefix('\u{feff}').unwrap_or(text));
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => prop_assert!(same(a, b), "{text:?}: {a:?} vs {b:?}"),
            (Err(e), Ok(_)) => {
                prop_assert!(
                    e.message.starts_with("duplicate key"),
                    "{text:?}: we say {e}"
                )
            }
            (Ok(a), Err(e)) => prop_assert!(
                has_non_finite(a)
                    || (!serde_is_exact() && e.to_string().starts_with("number out of range")),
                "{text:?}: serde_json says {e}"
            ),
            (Err(e), Err(_)) => {
                // The position is inside the text (or just after it).
                let body = text.strip_prefix('\u{feff}').unwrap_or(text);
                let lines: Vec<&str> = body.split('\n').collect();
                prop_assert!(e.line >= 1 && e.line <= lines.len(), "{text:?}: {e}");
                let width = lines[e.line - 1].chars().count();
                prop_assert!(e.column >= 1 && e.column <= width + 1, "{text:?}: {e}");
                prop_assert!(!e.message.is_empty());
            }
        }
        if let Ok(a) = &ours {
            // Whatever we accept, we write back as JSON we read identically
            // (non-finite numbers become null).
            if !has_non_finite(a) {
                for written in [a.to_compact(), a.to_pretty()] {
                    let again = parse(&written);
                    prop_assert!(again.as_ref().is_ok_and(|b| identical(a, b)), "{written:?}");
                }
            }
        }
        Ok(())
    }

    // ---- generated documents ------------------------------------------

    fn arb_f64() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<u64>()
                .prop_map(f64::from_bits)
                .prop_filter("finite", |x| x.is_finite()),
            (-1000i32..1000).prop_map(f64::from),
            any::<f64>(),
            prop::sample::select(vec![
                0.0,
                -0.0,
                5e-324,
                f64::MAX,
                f64::MIN_POSITIVE,
                0.1,
                1e16
            ]),
        ]
    }

    fn arb_string() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "[a-z_\"\\\\/\\x00-\\x1f\\x7f é😀\u{2028}\u{ffff}]{0,8}"
        ]
    }

    fn arb_json() -> impl Strategy<Value = Json> {
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            arb_f64().prop_map(Json::Number),
            arb_string().prop_map(Json::String),
        ];
        leaf.prop_recursive(6, 64, 6, |inner| {
            let key = prop_oneof![3 => "[ab]{0,2}", 1 => arb_string()];
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Json::Array),
                prop::collection::vec((key, inner), 0..6).prop_map(|pairs| {
                    let mut unique: Vec<(String, Json)> = Vec::new();
                    for (k, v) in pairs {
                        if !unique.iter().any(|(u, _)| *u == k) {
                            unique.push((k, v));
                        }
                    }
                    Json::Object(unique)
                }),
            ]
        })
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            // xorshift64*
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
        }
    }

    /// Writes `v` as valid JSON in varied spellings: random whitespace,
    /// every kind of escape (upper- and lower-case hex, surrogate pairs,
    /// `\/`), numbers as `1.5e3`, `1.5E+3`, `1500`, `0.000…5`.
    fn noisy(v: &Json, rng: &mut Rng, out: &mut String) {
        fn ws(rng: &mut Rng, out: &mut String) {
            for _ in 0..rng.below(3) {
                out.push([' ', '\t', '\n', '\r'][rng.below(4) as usize]);
            }
        }
        fn string(s: &str, rng: &mut Rng, out: &mut String) {
            out.push('"');
            for c in s.chars() {
                let short = match c {
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '/' => Some('/'),
                    '\u{8}' => Some('b'),
                    '\u{c}' => Some('f'),
                    '\n' => Some('n'),
                    '\r' => Some('r'),
                    '\t' => Some('t'),
                    _ => None,
                };
                let must = c < ' ' || c == '"' || c == '\\';
                match rng.below(3) {
                    0 if !must => out.push(c),
                    1 if short.is_some() => {
                        out.push('\\');
                        out.push(short.unwrap_or('?'));
                    }
                    _ => {
                        let mut units = [0u16; 2];
                        for u in c.encode_utf16(&mut units) {
                            let hex = format!("\\u{:04x}", u);
                            if rng.below(2) == 0 {
                                out.push_str(&hex);
                            } else {
                                out.push_str("\\u");
                                out.push_str(&hex[2..].to_uppercase());
                            }
                        }
                    }
                }
            }
            out.push('"');
        }
        ws(rng, out);
        match v {
            Json::Number(x) => {
                let text = match rng.below(4) {
                    0 => format!("{x:?}"),
                    1 => format!("{x:e}"),
                    2 => format!("{x:E}").replace("E", "E+").replace("E+-", "E-"),
                    // serde_json's default parser refuses `1797…0000` (f64::MAX
                    // written out) as "number out of range"; we read it exactly.
                    _ if x.abs() < 1e300 => format!("{x}"),
                    _ => format!("{x:?}"),
                };
                out.push_str(&text);
            }
            Json::String(s) => string(s, rng, out),
            Json::Array(items) => {
                out.push('[');
                ws(rng, out);
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    noisy(item, rng, out);
                }
                out.push(']');
            }
            Json::Object(pairs) => {
                out.push('{');
                ws(rng, out);
                for (i, (k, item)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    ws(rng, out);
                    string(k, rng, out);
                    ws(rng, out);
                    out.push(':');
                    noisy(item, rng, out);
                }
                out.push('}');
            }
            other => out.push_str(&other.to_compact()),
        }
        ws(rng, out);
    }

    const INTERESTING: &[char] = &[
        '{', '}', '[', ']', ':', ',', '"', '\\', '/', ' ', '\t', '\n', '\r', '0', '1', '9', '-',
        '+', '.', 'e', 'E', 't', 'r', 'u', 'f', 'a', 'l', 's', 'n', 'x', 'D', '8', '\u{0}',
        '\u{1f}', 'é', '😀', '\u{feff}',
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn agrees_with_serde_json_on_valid_documents(v in arb_json(), seed in 1u64..) {
            let mut spelled = String::new();
            noisy(&v, &mut Rng(seed), &mut spelled);
            for text in [v.to_compact(), v.to_pretty(), spelled] {
                let ours = parse(&text);
                prop_assert!(
                    ours.as_ref().is_ok_and(|a| identical(a, &v)),
                    "{text:?} read as {ours:?}"
                );
                let theirs = serde_json::from_str::<Value>(&text);
                prop_assert!(
                    theirs.as_ref().is_ok_and(|b| same(&v, b)),
                    "{text:?} read by serde_json as {theirs:?}"
                );
            }
        }

        #[test]
        fn mutated_documents_never_panic_and_agree(
            v in arb_json(),
            pretty in any::<bool>(),
            edits in prop::collection::vec(
                (
                    any::<prop::sample::Index>(),
                    any::<prop::sample::Index>(),
                    0u8..8,
                    prop::sample::select(INTERESTING),
                ),
                1..4,
            ),
        ) {
            let text = if pretty { v.to_pretty() } else { v.to_compact() };
            let mut chars: Vec<char> = text.chars().collect();
            for (index, other, op, c) in edits {
                let i = index.index(chars.len() + 1);
                let j = other.index(chars.len() + 1);
                match op {
                    0 | 1 => chars.insert(i, c),
                    2 | 3 if i < chars.len() => chars[i] = c,
                    4 if i < chars.len() => {
                        chars.remove(i);
                    }
                    5 => {
                        // Repeat a slice elsewhere (e.g. a `"key":value,`).
                        let copy: Vec<char> = chars[i.min(j)..i.max(j)].to_vec();
                        let at = (i + j) / 2;
                        chars.splice(at..at, copy);
                    }
                    6 if i < chars.len() && j < chars.len() => chars.swap(i, j),
                    _ => chars.truncate(i),
                }
            }
            check_against_serde(&chars.into_iter().collect::<String>())?;
        }

        #[test]
        fn duplicate_keys_are_found_anywhere(
            pairs in prop::collection::vec(("[a-d]{1,3}", arb_json()), 1..8),
            which in any::<prop::sample::Index>(),
            place in any::<prop::sample::Index>(),
            nest in 0usize..3,
        ) {
            let mut unique: Vec<(String, Json)> = Vec::new();
            for (k, v) in pairs {
                if !unique.iter().any(|(u, _)| *u == k) {
                    unique.push((k, v));
                }
            }
            let key = unique[which.index(unique.len())].0.clone();
            unique.insert(place.index(unique.len() + 1), (key.clone(), Json::Null));
            let mut doc = Json::Object(unique);
            for _ in 0..nest {
                doc = Json::Array(vec![Json::Null, doc]);
            }
            let text = doc.to_pretty();
            let e = parse(&text).unwrap_err();
            prop_assert_eq!(e.message, format!("duplicate key `{key}`"));
            // It points at the second `"key"`.
            let line = text.lines().nth(e.line - 1).unwrap_or("");
            let rest: String = line.chars().skip(e.column - 1).collect();
            prop_assert!(rest.starts_with(&format!("\"{key}\": ")), "{rest}");
            prop_assert!(serde_json::from_str::<Value>(&text).is_ok());
        }

        #[test]
        fn first_duplicate_matches_the_obvious_scan(
            keys in prop::collection::vec("[a-c]{0,2}", 0..40),
        ) {
            let pairs: Vec<(String, Json)> = keys.into_iter().map(|k| (k, Json::Null)).collect();
            let obvious = (1..pairs.len()).find(|&j| pairs[..j].iter().any(|p| p.0 == pairs[j].0));
            prop_assert_eq!(first_duplicate(&pairs), obvious);
        }

        #[test]
        fn arbitrary_strings_never_panic_and_agree(text in any::<String>()) {
            check_against_serde(&text)?;
        }

        #[test]
        fn json_like_strings_never_panic_and_agree(
            text in "[\\[\\]{}:,\"\\\\/ \\t\\n0-9.eE+\\-trufalsn\\x00\\u{feff}]{0,40}"
        ) {
            check_against_serde(&text)?;
        }

        #[test]
        fn every_finite_f64_reads_back_bit_for_bit(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            if x.is_finite() {
                check_round_trip(x);
            }
        }
    }

    // ---- numbers --------------------------------------------------------

    fn check_round_trip(x: f64) {
        let v = Json::Number(x);
        let expected = if x.fract() == 0.0 && x.abs() < 1e15 && !(x == 0.0 && x.is_sign_negative())
        {
            format!("{}", x as i64)
        } else {
            format!("{x:?}")
        };
        assert_eq!(v.to_compact(), expected);
        let doc = object(vec![
            ("a", Json::Array(vec![v.clone(), v.clone()])),
            ("b", v),
        ]);
        for text in [doc.to_compact(), doc.to_pretty()] {
            let back = parse(&text).unwrap();
            assert!(identical(&back, &doc), "{x:?} via {text}");
        }
    }

    #[test]
    fn special_f64s_read_back_bit_for_bit() {
        for x in [
            5e-324,
            -5e-324,
            2.2250738585072014e-308,
            f64::from_bits(0x000f_ffff_ffff_ffff), // 2.2250738585072009e-308
            1.7976931348623157e308,
            -1.7976931348623157e308,
            0.0,
            -0.0,
            0.1,
            1.0 / 3.0,
            0.09144338512092887,
            117.63331139400017,
            1e16,
            1e-7,
            9_007_199_254_740_993.0,
            std::f64::consts::PI,
        ] {
            check_round_trip(x);
        }
    }

    #[test]
    fn numbers_are_read_exactly_and_overflow_to_infinity() {
        let num = |t: &str| parse(t).unwrap().as_f64().unwrap();
        assert_eq!(num("1e999"), f64::INFINITY);
        assert_eq!(num("-1e999"), f64::NEG_INFINITY);
        assert_eq!(num("1E+400"), f64::INFINITY);
        assert_eq!(num("1e-999").to_bits(), 0.0f64.to_bits());
        assert_eq!(num("-1e-999").to_bits(), (-0.0f64).to_bits());
        assert_eq!(num("-0").to_bits(), (-0.0f64).to_bits());
        assert_eq!(num("123456789012345678901234567890"), 1.2345678901234568e29);
        // Halfway cases and very long literals are rounded correctly.
        assert_eq!(num("9007199254740993"), 9_007_199_254_740_992.0);
        assert_eq!(
            num("9007199254740993.000000000000000000000001"),
            9_007_199_254_740_994.0
        );
        let long = format!("0.{}1", "0".repeat(2000));
        assert_eq!(num(&long), long.parse::<f64>().unwrap());
        assert_eq!(num(&format!("1e{}", "9".repeat(100))), f64::INFINITY);
        assert_eq!(num("1e-00000000000000000000000000001"), 0.1);
        // A number's text is the whole literal: `2.5E-3` inside an array.
        assert_eq!(
            parse("[2.5E-3]").unwrap(),
            Json::Array(vec![Json::Number(0.0025)])
        );
    }

    #[test]
    fn writer_output_is_exact() {
        let n = |x: f64| Json::Number(x).to_compact();
        assert_eq!(n(1.0), "1");
        assert_eq!(n(-3.0), "-3");
        assert_eq!(n(0.0), "0");
        assert_eq!(n(999_999_999_999_999.0), "999999999999999");
        assert_eq!(n(1e15), "1000000000000000.0");
        assert_eq!(n(1e16), "1e16");
        assert_eq!(n(0.1), "0.1");
        assert_eq!(n(1e-7), "1e-7");
        assert_eq!(n(1e300), "1e300");
        assert_eq!(n(-0.0), "-0.0");
        assert_eq!(n(1e16), "1e16");
        assert_eq!(n(123456.5), "123456.5");
        assert_eq!(n(5e-324), "5e-324");
        assert_eq!(n(f64::NAN), "null");
        assert_eq!(n(f64::INFINITY), "null");
        assert_eq!(n(f64::NEG_INFINITY), "null");
        assert_eq!(Json::Null.to_compact(), "null");
        assert_eq!(Json::from(true).to_compact(), "true");
        assert_eq!(Json::from(false).to_pretty(), "false");
        assert_eq!(
            Json::from("q\"b\\s/\n\r\t\u{8}\u{c}\u{0}\u{1f}\u{7f}é😀").to_compact(),
            "\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0000\\u001f\u{7f}é😀\""
        );
        let doc = object(vec![
            ("a", Json::from(vec![1.0.into(), Json::Null, "x".into()])),
            ("", Json::Object(vec![])),
            ("e", Json::Array(vec![])),
        ]);
        assert_eq!(doc.to_compact(), "{\"a\":[1,null,\"x\"],\"\":{},\"e\":[]}");
        assert_eq!(
            doc.to_pretty(),
            "{\n  \"a\": [\n    1,\n    null,\n    \"x\"\n  ],\n  \"\": {},\n  \"e\": []\n}"
        );
        assert_eq!(Json::Array(vec![]).to_pretty(), "[]");
        assert_eq!(Json::Object(vec![]).to_pretty(), "{}");
        assert_eq!(
            Json::from(vec![true.into(), Json::Null, 2.5.into()]).to_pretty(),
            "[true, null, 2.5]"
        );
        assert_eq!(
            Json::from(vec![Json::Array(vec![]), Json::Array(vec![])]).to_pretty(),
            "[\n  [],\n  []\n]"
        );
    }

    #[test]
    fn pretty_layout_of_a_scenario_like_document() {
        let doc = object(vec![
            ("format", "attention-lab/1".into()),
            (
                "x",
                matrix_rows([[1.0, 0.0], [0.5, 2.0]].iter().map(|r| r.iter().copied())),
            ),
            (
                "heads",
                Json::from(vec![object(vec![(
                    "w_q",
                    matrix_rows([[1.0]].iter().map(|r| r.iter().copied())),
                )])]),
            ),
        ]);
        let expected = r#"{
  "format": "attention-lab/1",
  "x": [
    [1, 0],
    [0.5, 2]
  ],
  "heads": [
    {
      "w_q": [
        [1]
      ]
    }
  ]
}"#;
        assert_eq!(doc.to_pretty(), expected);
        assert_eq!(
            doc.to_compact(),
            r#"{"format":"attention-lab/1","x":[[1,0],[0.5,2]],"heads":[{"w_q":[[1]]}]}"#
        );
        assert_eq!(parse(expected).unwrap(), doc);
        // serde_json reads it the same way.
        assert!(same(&doc, &serde_json::from_str(expected).unwrap()));
    }

    // ---- errors ---------------------------------------------------------

    #[test]
    fn errors_name_line_column_and_reason() {
        assert_eq!(err(""), at(1, 1, "unexpected end of input"));
        assert_eq!(err("  \n "), at(2, 2, "unexpected end of input"));
        assert_eq!(err("[1, 2,]"), at(1, 6, "trailing comma"));
        assert_eq!(err("{\"a\": 1,\n}"), at(1, 8, "trailing comma"));
        assert_eq!(err("[1, 2"), at(1, 6, "unexpected end of input"));
        assert_eq!(err("[1 2]"), at(1, 4, "expected `,` or `]`"));
        assert_eq!(
            err("{\n  \"a\": 1\n  \"b\": 2\n}"),
            at(3, 3, "expected `,` or `}`")
        );
        assert_eq!(err("{\"a\" 1}"), at(1, 6, "expected `:`"));
        assert_eq!(err("{a: 1}"), at(1, 2, "expected a string key"));
        assert_eq!(err("{\"a\": 01}"), at(1, 7, "number has a leading zero"));
        assert_eq!(err("-00"), at(1, 2, "number has a leading zero"));
        assert_eq!(err("[-]"), at(1, 3, "expected a digit"));
        assert_eq!(err("[1.]"), at(1, 4, "expected a digit after `.`"));
        assert_eq!(err("[.5]"), at(1, 2, "expected a value"));
        assert_eq!(err("[1e+]"), at(1, 5, "expected a digit in the exponent"));
        assert_eq!(err("+1"), at(1, 1, "expected a value"));
        assert_eq!(err("[NaN]"), at(1, 2, "expected a value"));
        assert_eq!(err("[nan]"), at(1, 2, "expected a value"));
        assert_eq!(err("-Infinity"), at(1, 2, "expected a digit"));
        assert_eq!(err("[tru"), at(1, 5, "unexpected end of input"));
        assert_eq!(
            err("[1] // c"),
            at(1, 5, "trailing characters after the value")
        );
        assert_eq!(err("1 2"), at(1, 3, "trailing characters after the value"));
        assert_eq!(err("\"abc"), at(1, 5, "unexpected end of input"));
        assert_eq!(err("\"a\\x\""), at(1, 3, "invalid escape"));
        assert_eq!(
            err("\"a\\u12g4\""),
            at(1, 3, "invalid `\\u` escape (expected four hex digits)")
        );
        assert_eq!(
            err("\"\\ud800\""),
            at(1, 2, "lone surrogate in `\\u` escape")
        );
        assert_eq!(
            err("\"\\udc00\""),
            at(1, 2, "lone surrogate in `\\u` escape")
        );
        assert_eq!(
            err("\"\\ud800\\u0041\""),
            at(1, 2, "lone surrogate in `\\u` escape")
        );
        assert_eq!(
            err("\"a\u{1}\""),
            at(1, 3, "control character in string (must be escaped)")
        );
        assert_eq!(
            err("\"a\tb\""),
            at(1, 3, "control character in string (must be escaped)")
        );
        // Columns count characters, not bytes; CRLF is one line break.
        assert_eq!(err("[\"é😀\", x]"), at(1, 8, "expected a value"));
        assert_eq!(err("[\r\n1,\r\n x]"), at(3, 2, "expected a value"));
        // A leading BOM is skipped and not counted; elsewhere it is an error.
        assert_eq!(
            parse("\u{feff} [1]").unwrap(),
            Json::Array(vec![1.0.into()])
        );
        assert_eq!(err("\u{feff}[x]"), at(1, 2, "expected a value"));
        assert_eq!(err("\u{feff}\u{feff}1"), at(1, 1, "expected a value"));
        // Only the four JSON whitespace characters.
        assert_eq!(err("\u{a0}1"), at(1, 1, "expected a value"));
        assert_eq!(err("\u{c}1"), at(1, 1, "expected a value"));

        let e = parse("[1,]").unwrap_err();
        assert_eq!(e.to_string(), "line 1, column 3: trailing comma");
    }

    #[test]
    fn valid_edge_cases_are_accepted() {
        assert_eq!(parse(" \t\r\n null \t\r\n").unwrap(), Json::Null);
        assert_eq!(
            parse("\"\\ud83d\\ude00 \\u00E9\\/\"").unwrap(),
            Json::from("😀 é/")
        );
        assert_eq!(
            parse("\"\\uDBFF\\uDFFF\"").unwrap(),
            Json::from("\u{10ffff}")
        );
        assert_eq!(
            parse("\"\u{7f}\u{2028}\"").unwrap(),
            Json::from("\u{7f}\u{2028}")
        );
        assert_eq!(parse("\"\\u0000\"").unwrap(), Json::from("\0"));
        assert_eq!(parse("[]").unwrap(), Json::Array(vec![]));
        assert_eq!(parse("{ }").unwrap(), Json::Object(vec![]));
        assert_eq!(parse("[[],{}]").unwrap().to_compact(), "[[],{}]");
        // Keys keep their order.
        let v = parse(r#"{"z": 1, "a": [true, false], "m": {"": "e"}}"#).unwrap();
        let keys: Vec<&str> = v
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["z", "a", "m"]);
    }

    #[test]
    fn nesting_is_bounded_without_overflowing_the_stack() {
        let deep = "[".repeat(1_000_000);
        assert_eq!(err(&deep), at(1, MAX_DEPTH + 1, "nested too deeply"));
        let deep = "{\"a\":".repeat(1_000_000);
        assert_eq!(err(&deep), at(1, 5 * MAX_DEPTH + 1, "nested too deeply"));
        let closed = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        assert_eq!(err(&closed).2, "nested too deeply");
        // Exactly MAX_DEPTH is fine, one more is not.
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(parse(&ok).unwrap().to_compact(), ok);
        let mixed = format!(
            "{}1.5{}",
            "[{\"k\":".repeat(MAX_DEPTH / 2),
            "}]".repeat(MAX_DEPTH / 2)
        );
        assert_eq!(parse(&mixed).unwrap().to_compact(), mixed);
        let over = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(err(&over), at(1, MAX_DEPTH + 1, "nested too deeply"));
    }

    #[test]
    fn duplicate_keys_are_errors() {
        assert_eq!(err(r#"{"k": 1, "k": 2}"#), at(1, 10, "duplicate key `k`"));
        assert_eq!(
            err("{\"a\": 1, \"\\u0061\": 2}"),
            at(1, 10, "duplicate key `a`")
        );
        assert_eq!(
            err(r#"{"b":1,"a":2,"c":3,"a":4,"b":5}"#),
            at(1, 20, "duplicate key `a`")
        );
        assert_eq!(
            err("{\"\\n\":1,\n\"\\n\":2}"),
            at(2, 1, "duplicate key `?`")
        );
        let long = "x".repeat(50);
        let e = parse(&format!("{{\"{long}\":1,\"{long}\":2}}")).unwrap_err();
        assert_eq!(e.message, format!("duplicate key `{}…`", "x".repeat(40)));
        // The same key in different objects is fine.
        assert!(parse(r#"{"k": {"k": 1}, "j": [{"k": 2}, {"k": 3}]}"#).is_ok());
        // Many keys are checked quickly (no n² scan).
        let many: Vec<String> = (0..200_000).map(|i| format!("\"{i}\":0")).collect();
        let text = format!("{{{}}}", many.join(","));
        assert_eq!(parse(&text).unwrap().as_object().unwrap().len(), 200_000);
        let text = format!("{{{},\"7\":1}}", many.join(","));
        assert_eq!(err(&text).2, "duplicate key `7`");
    }

    // ---- accessors and builders -----------------------------------------

    #[test]
    fn accessors_and_builders() {
        let v = parse(r#"{"n": 3, "f": 0.5, "b": true, "s": "hi", "a": [1], "o": {"x": null}}"#)
            .unwrap();
        assert_eq!(v.get("n").and_then(Json::as_u64), Some(3));
        assert_eq!(v.get("f").and_then(Json::as_f64), Some(0.5));
        assert_eq!(v.get("f").and_then(Json::as_u64), None);
        assert_eq!(v.get("b").and_then(Json::as_bool), Some(true));
        assert_eq!(v.get("s").and_then(Json::as_str), Some("hi"));
        assert_eq!(
            v.get("a").and_then(Json::as_array),
            Some(&[Json::Number(1.0)][..])
        );
        assert_eq!(v.get("o").and_then(|o| o.get("x")), Some(&Json::Null));
        assert_eq!(v.get("missing"), None);
        assert_eq!(v.get("s").and_then(|s| s.get("s")), None);
        assert_eq!(v.as_object().map(<[_]>::len), Some(6));
        assert_eq!(Json::Null.as_f64(), None);
        assert_eq!(Json::Null.as_bool(), None);
        assert_eq!(Json::Null.as_str(), None);
        assert_eq!(Json::Null.as_array(), None);
        assert_eq!(Json::Null.as_object(), None);
        assert_eq!(Json::from("3").as_u64(), None);

        let u = |x: f64| Json::Number(x).as_u64();
        assert_eq!(u(0.0), Some(0));
        assert_eq!(u(-0.0), Some(0));
        assert_eq!(u(9_007_199_254_740_992.0), Some(1 << 53));
        assert_eq!(u(9_007_199_254_740_994.0), None);
        assert_eq!(u(-1.0), None);
        assert_eq!(u(2.5), None);
        assert_eq!(u(f64::INFINITY), None);
        assert_eq!(u(f64::NAN), None);

        assert_eq!(Json::from(String::from("s")), Json::String("s".into()));
        assert_eq!(Json::from(2.0), Json::Number(2.0));
        assert_eq!(
            matrix_rows(vec![vec![1.0, 2.0], vec![]].into_iter().map(Vec::into_iter)).to_compact(),
            "[[1,2],[]]"
        );
        assert_eq!(
            matrix_rows(std::iter::empty::<std::iter::Empty<f64>>()).to_compact(),
            "[]"
        );
    }
}
