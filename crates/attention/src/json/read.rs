//! Reading JSON text, in two passes (the scenario reader, `scenario/read.rs`,
//! is built on them):
//!
//! 1. [`check`]: the whole text is JSON (RFC 8259), or the first place it is
//!    not, with no limit on nesting and without building anything (an
//!    explicit stack of brackets, so a million `[` cannot overflow the call
//!    stack). Text cut short is refused as such wherever the break is.
//! 2. [`Reader`]: over text that passed [`check`], one value at a time, as
//!    the caller asks: strings unescaped (a lone UTF-16 surrogate refused),
//!    numbers rounded correctly ([`crate::decimal::parse_f64`], which reads
//!    as `str::parse::<f64>` does, so every number the writer prints reads
//!    back bit for bit), any value as a [`Json`], and
//!    nesting bounded by [`DEPTH`], so a reader that recurses stays within
//!    the stack.
//!
//! Where a problem is ([`Fault::at`]) is counted as the page has always
//! counted it: see [`Fault::line_column`].

use super::{Json, JsonProblem};

/// How deep arrays and objects may nest (the 128th bracket inside another is
/// refused as [`JsonProblem::TooDeep`]).
pub const DEPTH: u32 = 128;

/// A problem in JSON text and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The byte offset just after the character the problem is at (for a
    /// text cut short, its length).
    pub at: usize,
    pub problem: JsonProblem,
}

impl Fault {
    /// The 1-based line and column (in characters) of the problem in
    /// `text`: the column of the character just before [`Fault::at`], at
    /// least 1; a control character inside a string is pointed at itself.
    pub fn line_column(&self, text: &str) -> (usize, usize) {
        let bytes = text.as_bytes();
        let at = self.at.min(bytes.len());
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count();
        let mut upto = at;
        if self.problem == JsonProblem::ControlCharacter && bytes.get(upto) < Some(&0x20) {
            upto += 1;
        }
        let column = bytes[start..upto]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count()
            .max(1);
        (line, column)
    }
}

type R<T> = Result<T, Fault>;

/// A cursor over the bytes of the text.
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// The next byte that is not whitespace, not consumed.
    fn skip_ws(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.i += 1;
        }
        self.peek()
    }

    /// A problem with the last byte consumed.
    fn here(&self, problem: JsonProblem) -> Fault {
        Fault {
            at: self.i,
            problem,
        }
    }

    /// A problem with the next byte (not consumed).
    fn next_is(&self, problem: JsonProblem) -> Fault {
        Fault {
            at: (self.i + 1).min(self.b.len()),
            problem,
        }
    }

    /// The next byte, consumed; 0 at the end (consuming nothing).
    fn take_or_nul(&mut self) -> u8 {
        match self.peek() {
            Some(c) => {
                self.i += 1;
                c
            }
            None => 0,
        }
    }

    fn digit_next(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_digit())
    }

    fn skip_digits(&mut self) {
        while self.digit_next() {
            self.i += 1;
        }
    }

    /// The rest of `null`, `true` or `false`, after its first letter.
    fn word(&mut self, rest: &[u8]) -> R<()> {
        for &want in rest {
            match self.peek() {
                None => return Err(self.here(JsonProblem::Eof)),
                Some(c) => {
                    self.i += 1;
                    if c != want {
                        return Err(self.here(JsonProblem::ExpectedValue));
                    }
                }
            }
        }
        Ok(())
    }

    /// A number, after its `-` if it has one: `0` or `[1-9][0-9]*`, then
    /// an optional fraction and exponent.
    fn number(&mut self) -> R<()> {
        match self.take_or_nul() {
            b'0' if self.digit_next() => return Err(self.next_is(JsonProblem::InvalidNumber)),
            b'0' => {}
            b'1'..=b'9' => self.skip_digits(),
            _ => return Err(self.here(JsonProblem::InvalidNumber)),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !self.digit_next() {
                return Err(self.next_is(JsonProblem::InvalidNumber));
            }
            self.skip_digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !self.take_or_nul().is_ascii_digit() {
                return Err(self.here(JsonProblem::InvalidNumber));
            }
            self.skip_digits();
        }
        Ok(())
    }

    /// Four hex digits of `\u`.
    fn hex4(&mut self) -> R<u16> {
        let Some(digits) = self.b.get(self.i..self.i + 4) else {
            self.i = self.b.len();
            return Err(self.here(JsonProblem::Eof));
        };
        self.i += 4;
        std::str::from_utf8(digits)
            .ok()
            .filter(|d| d.bytes().all(|c| c.is_ascii_hexdigit()))
            .and_then(|d| u16::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.here(JsonProblem::InvalidEscape))
    }

    /// A string, after its opening quote, up to and including its closing
    /// quote; its text when `out` is given (then a lone surrogate is
    /// refused).
    fn string(&mut self, mut out: Option<&mut String>) -> R<()> {
        let mut run = self.i;
        loop {
            while self
                .peek()
                .is_some_and(|c| c != b'"' && c != b'\\' && c >= 0x20)
            {
                self.i += 1;
            }
            let Some(c) = self.peek() else {
                return Err(self.here(JsonProblem::Eof));
            };
            if let Some(out) = out.as_deref_mut() {
                // The text between escapes is whole characters: the
                // input is a str and the run stops only at ASCII bytes.
                out.push_str(std::str::from_utf8(&self.b[run..self.i]).unwrap_or_default());
            }
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.i += 1;
                    self.escape(out.as_deref_mut())?;
                    run = self.i;
                }
                _ => return Err(self.here(JsonProblem::ControlCharacter)),
            }
        }
    }

    /// An escape, after its backslash.
    fn escape(&mut self, out: Option<&mut String>) -> R<()> {
        let Some(c) = self.peek() else {
            return Err(self.here(JsonProblem::Eof));
        };
        self.i += 1;
        let ch = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let n = self.hex4()?;
                let Some(out) = out else {
                    // Checking only: any four hex digits will do.
                    return Ok(());
                };
                return self.unicode(n, out);
            }
            _ => return Err(self.here(JsonProblem::InvalidEscape)),
        };
        if let Some(out) = out {
            out.push(ch);
        }
        Ok(())
    }

    /// The character of `\uXXXX` (`n`), or of a surrogate pair `\uD8xx\uDCxx`.
    fn unicode(&mut self, n: u16, out: &mut String) -> R<()> {
        let lone = |c: &Cursor| Err(c.here(JsonProblem::LoneSurrogate));
        if (0xDC00..=0xDFFF).contains(&n) {
            return lone(self);
        }
        if !(0xD800..=0xDBFF).contains(&n) {
            out.push(char::from_u32(u32::from(n)).unwrap_or('\u{fffd}'));
            return Ok(());
        }
        for want in [b'\\', b'u'] {
            // The text passed `check`: a closing quote follows.
            let c = self.take_or_nul();
            if c != want {
                return lone(self);
            }
        }
        let low = self.hex4()?;
        if !(0xDC00..=0xDFFF).contains(&low) {
            return lone(self);
        }
        let c = 0x1_0000 + ((u32::from(n) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
        out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
        Ok(())
    }
}

/// The whole text is one JSON value with only whitespace around it, or the
/// first problem. Nesting is not limited here (see [`Reader`]).
pub fn check(text: &str) -> R<()> {
    let mut c = Cursor {
        b: text.as_bytes(),
        i: 0,
    };
    // The brackets open around the current value, innermost last.
    let mut open: Vec<u8> = Vec::new();
    loop {
        let Some(first) = c.skip_ws() else {
            return Err(c.next_is(JsonProblem::Eof));
        };
        let scalar = match first {
            b'n' | b't' | b'f' => {
                c.i += 1;
                c.word(match first {
                    b'n' => b"ull",
                    b't' => b"rue",
                    _ => b"alse",
                })?;
                true
            }
            b'-' => {
                c.i += 1;
                c.number()?;
                true
            }
            b'0'..=b'9' => {
                c.number()?;
                true
            }
            b'"' => {
                c.i += 1;
                c.string(None)?;
                true
            }
            b'[' | b'{' => {
                c.i += 1;
                open.push(first);
                false
            }
            _ => return Err(c.next_is(JsonProblem::ExpectedValue)),
        };
        // After a value, a comma or closers; right after an opener, a
        // closer or the first item.
        let mut after_value = scalar;
        loop {
            let Some(&frame) = open.last() else {
                return end(&mut c);
            };
            let closer = if frame == b'[' { b']' } else { b'}' };
            match c.skip_ws() {
                Some(b',') if after_value => {
                    c.i += 1;
                    break;
                }
                Some(b) if b == closer => {
                    c.i += 1;
                    open.pop();
                    after_value = true;
                }
                Some(_) if after_value => {
                    return Err(c.next_is(JsonProblem::ExpectedCommaOr(closer as char)));
                }
                Some(_) => break,
                None => return Err(c.next_is(JsonProblem::Eof)),
            }
        }
        if open.last() == Some(&b'{') {
            match c.skip_ws() {
                Some(b'"') => c.i += 1,
                Some(_) => return Err(c.next_is(JsonProblem::ExpectedKey)),
                None => return Err(c.next_is(JsonProblem::Eof)),
            }
            c.string(None)?;
            match c.skip_ws() {
                Some(b':') => c.i += 1,
                Some(_) => return Err(c.next_is(JsonProblem::ExpectedColon)),
                None => return Err(c.next_is(JsonProblem::Eof)),
            }
        }
    }
}

/// Nothing but whitespace after the value.
fn end(c: &mut Cursor) -> R<()> {
    match c.skip_ws() {
        Some(_) => Err(c.next_is(JsonProblem::Trailing)),
        None => Ok(()),
    }
}

/// What a [`Reader`] stops at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A problem with the text (nesting too deep, a lone surrogate).
    Fault(Fault),
    /// A number beyond f64 (`1e400`); `at` is just after it.
    OutOfRange { at: usize },
}

impl From<Fault> for Stop {
    fn from(f: Fault) -> Stop {
        Stop::Fault(f)
    }
}

/// The kind of the next value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

/// One value after another of text that passed [`check`] (on other text
/// its answers mean nothing, but it never panics or loops). The caller
/// walks the values as it wants them: [`Reader::kind`] says what comes,
/// then a scalar is read whole, and an array or object is opened, walked
/// with [`Reader::next_item`] / [`Reader::next_key`], and closed by
/// reading to its end.
pub struct Reader<'a> {
    c: Cursor<'a>,
    /// Brackets that may still open (see [`DEPTH`]).
    room: u32,
    /// [`Reader::value`] reads numbers written as digits only as
    /// [`Json::Whole`] ([`Reader::with_wholes`]).
    wholes: bool,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            c: Cursor {
                b: text.as_bytes(),
                i: 0,
            },
            room: DEPTH,
            wholes: false,
        }
    }

    /// A reader whose [`Reader::value`] reads every number written as
    /// digits only (and within u64) as a [`Json::Whole`], exactly.
    pub fn with_wholes(text: &'a str) -> Reader<'a> {
        Reader {
            wholes: true,
            ..Reader::new(text)
        }
    }

    /// The byte offset of the reader: just after what it has read.
    pub fn offset(&self) -> usize {
        self.c.i
    }

    /// The kind of the next value.
    pub fn kind(&mut self) -> Kind {
        match self.c.skip_ws() {
            Some(b'n') => Kind::Null,
            Some(b't' | b'f') => Kind::Bool,
            Some(b'"') => Kind::String,
            Some(b'[') => Kind::Array,
            Some(b'{') => Kind::Object,
            _ => Kind::Number,
        }
    }

    /// `null`, `true` or `false`: false for `null` and `false`.
    pub fn word(&mut self) -> bool {
        let yes = self.c.skip_ws() == Some(b't');
        while let Some(b'a'..=b'z') = self.c.peek() {
            self.c.i += 1;
        }
        yes
    }

    pub fn number(&mut self) -> Result<f64, Stop> {
        self.c.skip_ws();
        let start = self.c.i;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.c.peek() {
            self.c.i += 1;
        }
        let literal = std::str::from_utf8(&self.c.b[start..self.c.i]).unwrap_or_default();
        match crate::decimal::parse_f64(literal) {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(Stop::OutOfRange { at: self.c.i }),
        }
    }

    /// A number as [`Json::Whole`] when it is written as digits only and
    /// fits u64 (exactly, beyond 2⁵³ too), else as [`Json::Number`].
    pub fn whole(&mut self) -> Result<Json, Stop> {
        self.c.skip_ws();
        let start = self.c.i;
        let x = self.number()?;
        let literal = &self.c.b[start..self.c.i];
        let digits = literal.iter().all(u8::is_ascii_digit);
        Ok(std::str::from_utf8(literal)
            .ok()
            .filter(|_| digits)
            .and_then(|d| d.parse().ok())
            .map_or(Json::Number(x), Json::Whole))
    }

    pub fn string(&mut self) -> Result<String, Stop> {
        self.c.skip_ws();
        self.c.i += 1;
        let mut out = String::new();
        self.c.string(Some(&mut out))?;
        Ok(out)
    }

    /// Opens the array or object that comes next (it must be one).
    pub fn open(&mut self) -> Result<(), Stop> {
        self.c.skip_ws();
        self.room -= 1;
        if self.room == 0 {
            return Err(self.c.next_is(JsonProblem::TooDeep).into());
        }
        self.c.i += 1;
        Ok(())
    }

    /// Whether the open array has another item (then it comes next); if
    /// not, the array is closed.
    pub fn next_item(&mut self) -> bool {
        self.more(b']')
    }

    /// The next key of the open object (its value comes next), or `None`
    /// once the object is closed.
    pub fn next_key(&mut self) -> Result<Option<String>, Stop> {
        if !self.more(b'}') {
            return Ok(None);
        }
        let key = self.string()?;
        Ok(Some(key))
    }

    /// After a key, its colon: the value comes next.
    pub fn colon(&mut self) {
        if self.c.skip_ws() == Some(b':') {
            self.c.i += 1;
        }
    }

    /// Past a comma to the next item or key (true), or past the closer
    /// (false).
    fn more(&mut self, closer: u8) -> bool {
        match self.c.skip_ws() {
            Some(b',') => {
                self.c.i += 1;
                true
            }
            Some(b) if b == closer => {
                self.c.i += 1;
                self.room += 1;
                false
            }
            None => false,
            Some(_) => true,
        }
    }

    /// The next value, whatever it is, as a [`Json`] (objects keep their
    /// keys in order, a repeated key twice). `path` receives where a stop
    /// inside it is: array indices and object keys, innermost last.
    pub fn value(&mut self, path: &mut Vec<Step>) -> Result<Json, Stop> {
        Ok(match self.kind() {
            Kind::Null => {
                self.word();
                Json::Null
            }
            Kind::Bool => Json::Bool(self.word()),
            Kind::Number if self.wholes => self.whole()?,
            Kind::Number => Json::Number(self.number()?),
            Kind::String => Json::String(self.string()?),
            Kind::Array => {
                self.open()?;
                let mut items = Vec::new();
                while self.next_item() {
                    path.push(Step::Index(items.len()));
                    items.push(self.value(path)?);
                    path.pop();
                }
                Json::Array(items)
            }
            Kind::Object => {
                self.open()?;
                let mut pairs = Vec::new();
                while let Some(key) = self.next_key()? {
                    self.colon();
                    path.push(Step::Key(key));
                    let v = self.value(path)?;
                    let Some(Step::Key(key)) = path.pop() else {
                        unreachable!("the step pushed above")
                    };
                    pairs.push((key, v));
                }
                Json::Object(pairs)
            }
        })
    }

    /// Past whitespace (after a key: where a repeated key is pointed at).
    pub fn skip_ws(&mut self) {
        self.c.skip_ws();
    }
}

/// One step of a path into a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Index(usize),
    Key(String),
}

/// Any JSON text as a [`Json`], or its first problem (with nesting bounded
/// by [`DEPTH`] and numbers within f64).
pub fn parse(text: &str) -> Result<Json, Stop> {
    check(text)?;
    Reader::new(text).value(&mut Vec::new())
}
