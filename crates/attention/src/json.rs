//! # JSON: the exact writer, and the reader
//!
//! Scenarios, results, share links and model files are JSON. They are
//! written here, by hand, because their bytes are part of the format
//! (docs/format.md): files the page wrote keep their exact text. They are
//! read with serde_json ([`de`]; the scenario reader in `scenario/read.rs`
//! adds serde derive and serde_path_to_error for the field of the first
//! problem).
//!
//! - **Exact numbers.** The writer prints the shortest text that reads back
//!   to the same `f64` (Rust's `{:?}`; whole numbers below 10¹⁵ as integers),
//!   and serde_json (with `float_roundtrip`) rounds every literal correctly,
//!   so every number written by [`Json::to_compact`] or [`Json::to_pretty`]
//!   comes back bit for bit. Non-finite numbers are written as `null`.
//! - **Layout.** Compact (no whitespace) for links and storage; pretty (two
//!   spaces, one matrix row a line) for files.
//! - **Problems as data.** What is wrong with a text is a [`JsonProblem`]
//!   and where ([`de::Fault`]), so the page says it in each language.

use std::fmt;

pub mod de;
pub use de::{check, decimal, Fault};

/// A JSON value. Objects keep their keys in document (or insertion) order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    /// A whole number ≥ 0 written digit for digit, beyond f64's 2⁵³ too (a
    /// seed). Only written: read back through serde, a value's numbers are
    /// [`Json::Number`]s, and a reader that wants a `u64` asks serde for one.
    Whole(u64),
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
            Json::Whole(n) => {
                use fmt::Write;
                let _ = write!(out, "{n}");
            }
            Json::String(s) => write_string(out, s),
            Json::Array(items) => {
                // Compact output is "flat" everywhere.
                let flat = !pretty
                    || items.iter().all(|v| {
                        matches!(
                            v,
                            Json::Null | Json::Bool(_) | Json::Number(_) | Json::Whole(_)
                        )
                    });
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
            Json::Whole(n) => Some(*n as f64),
            _ => None,
        }
    }

    /// The value of `key` in an object (the last, if it is repeated).
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object()?
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
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

// Native only: proptest and serde_json (the reference reader) are native
// dev-dependencies.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
