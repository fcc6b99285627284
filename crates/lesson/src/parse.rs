//! # Reading numbers the way learners type and paste them
//!
//! A learner changes a cell by typing a number, or replaces a whole matrix by
//! pasting one from wherever it happens to be: a spreadsheet, a CSV file, a
//! Python session, MATLAB, course notes. This module turns that text into
//! `f64`s, or says precisely what is wrong with it. It never panics, whatever
//! the text.
//!
//! ## One number: [`parse_number`]
//!
//! Plain decimal and scientific notation (`1`, `-2.5`, `+3`, `.5`, `5.`,
//! `1e-3`, `2.0000e+00`). Two things keyboards do are forgiven:
//!
//! - the typographic minus `−` (U+2212), which word processors and web pages
//!   put in front of negative numbers;
//! - the full-width forms a Chinese input method produces (`１．５`, `－２`,
//!   `．５`, `１ｅ３`): U+FF10–FF19 are the digits, U+FF0E the point,
//!   U+FF0D / U+FF0B the signs, U+FF45 / U+FF25 the exponent letter.
//!
//! Everything else is refused, in particular `nan`, `inf` and `infinity`
//! (which Rust's own `f64::from_str` would accept), hexadecimal, a decimal
//! comma (`1,5`: is it one and a half, or 1 then 5?), and numbers that
//! overflow to infinity (`1e999`): the engine only works with finite values.
//!
//! ## A whole matrix: [`parse_matrix`]
//!
//! Rows are positions, one per line or per bracketed list, as everywhere in
//! the app. Recognised layouts:
//!
//! | source | example |
//! |---|---|
//! | CSV | `1,2,3` (a trailing comma at the end of a line is fine) |
//! | TSV (a spreadsheet copy) | `1⇥2⇥3` |
//! | whitespace | `1 2 3` (one row per line) |
//! | MATLAB rows | `1 2; 3 4` or `[1 2; 3 4]` |
//! | JSON / Python lists | `[[1, 2], [3, 4]]`, one row: `[1, 2, 3]` |
//! | NumPy `repr` / `print` | `array([[1., 2.],\n       [3., 4.]], dtype=float32)`, `[[1. 2.]\n [3. 4.]]` |
//! | PyTorch | `tensor([[1.0000, 2.0000]], dtype=torch.float64, requires_grad=True)` |
//!
//! Blank lines and surrounding whitespace are ignored; so are a leading
//! `name =` (as in `x = np.array(...)`), the call around a bracketed array
//! (`array(`…`)`, `torch.tensor(`…`)`) with its keyword arguments, and leading
//! dimensions of size one (`[[[1, 2]]]` is the 1×2 matrix a batch of one
//! prints as). Full-width commas, semicolons and brackets (`，；［］`) count as
//! their ASCII forms.
//!
//! Errors point at a cell: rows and columns are **0-based indices of the
//! matrix being built** (blank lines do not count), so the page can highlight
//! or translate them. A bracket without its partner is reported as a cell
//! holding that bracket, where the partner was expected.

/// Why a piece of text is not a usable number. No message: the page
/// translates these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Nothing but whitespace.
    Empty,
    /// Not written as a decimal number (`abc`, `1,5`, `0x10`, `nan`, `inf`).
    NotANumber,
    /// A number too large for `f64`: it would be infinite (`1e999`).
    NotFinite,
}

/// Why pasted text is not a matrix. Rows and columns are 0-based indices in
/// the matrix (blank lines skipped).
#[derive(Clone, Debug, PartialEq)]
pub enum PasteError {
    /// No numbers at all.
    Empty,
    /// Row `row` has `len` numbers where the first row has `expected`.
    Ragged {
        row: usize,
        len: usize,
        expected: usize,
    },
    /// The cell at (`row`, `col`) holds `text`, which is not a finite number.
    BadNumber {
        row: usize,
        col: usize,
        text: String,
        why: NumberError,
    },
}

/// Reads one number as a learner types it.
///
/// Surrounding whitespace is ignored. Accepts an optional sign, digits with
/// an optional decimal point (at least one digit somewhere: `.5` and `5.`
/// are fine, `.` is not), and an optional exponent `e`/`E` with optional
/// sign and at least one digit. The Unicode minus `−` and full-width
/// digits, point, signs and `ｅ` are read as their ASCII forms.
///
/// Errors: [`NumberError::Empty`] for blank text, [`NumberError::NotFinite`]
/// when the value overflows `f64` (`1e999`, `-1e400`), and
/// [`NumberError::NotANumber`] for anything else (`nan`, `inf`, `1,5`,
/// `0x10`, `1..2`, `1e`, `--1`). Values too small for `f64` become `0`.
pub fn parse_number(text: &str) -> Result<f64, NumberError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NumberError::Empty);
    }
    let ascii: String = t
        .chars()
        .map(ascii_number_char)
        .collect::<Option<String>>()
        .ok_or(NumberError::NotANumber)?;
    if !is_decimal(ascii.as_bytes()) {
        return Err(NumberError::NotANumber);
    }
    // The grammar check above is stricter than `json::decimal`'s, so this
    // cannot fail; map the error anyway rather than unwrap.
    let v = attention::json::decimal(&ascii).ok_or(NumberError::NotANumber)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(NumberError::NotFinite)
    }
}

/// The ASCII character a number character stands for, or `None` when `c`
/// can never be part of a number.
fn ascii_number_char(c: char) -> Option<char> {
    match c {
        '0'..='9' | '+' | '-' | '.' | 'e' | 'E' => Some(c),
        // Typographic minus.
        '\u{2212}' => Some('-'),
        // Full-width digits ０-９ (U+FF10–U+FF19).
        '\u{FF10}'..='\u{FF19}' => char::from_u32(c as u32 - 0xFF10 + '0' as u32),
        '\u{FF0E}' => Some('.'),
        '\u{FF0D}' => Some('-'),
        '\u{FF0B}' => Some('+'),
        '\u{FF45}' => Some('e'),
        '\u{FF25}' => Some('E'),
        _ => None,
    }
}

/// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, whole input.
fn is_decimal(b: &[u8]) -> bool {
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let mut mantissa = digits(&mut i);
    if i < b.len() && b[i] == b'.' {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Reads a whole pasted matrix (see the module docs for every layout).
///
/// Returns the rows, all of the same length ≥ 1, every number finite.
///
/// Errors, first problem in reading order:
/// - [`PasteError::Empty`]: no cells at all (blank text, `[]`);
/// - [`PasteError::BadNumber`]: the cell at (`row`, `col`) is not a finite
///   number ([`parse_number`] says why); an empty cell (`1,,2`) is
///   [`NumberError::Empty`]; a stray or missing bracket is a cell holding
///   that bracket;
/// - [`PasteError::Ragged`]: a row whose length differs from the first
///   row's.
pub fn parse_matrix(text: &str) -> Result<Vec<Vec<f64>>, PasteError> {
    let text: String = text.chars().map(ascii_punctuation).collect();
    // A file saved by a spreadsheet may start with a byte-order mark.
    let body = strip_assignment(text.trim().trim_start_matches('\u{FEFF}').trim());
    let rows = if body.contains(['[', ']']) {
        bracket_rows(strip_call(body))
    } else {
        plain_rows(body)
    };
    to_matrix(&rows)
}

/// Full-width punctuation typed by a Chinese input method, as ASCII.
fn ascii_punctuation(c: char) -> char {
    match c {
        '\u{FF0C}' => ',',
        '\u{FF1B}' => ';',
        '\u{FF3B}' => '[',
        '\u{FF3D}' => ']',
        _ => c,
    }
}

/// The length of a Python-like dotted name at the start of `s`
/// (`np.array`, `torch.tensor`, `x`), 0 if there is none.
fn name_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return 0,
    }
    chars
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map_or(s.len(), |(i, _)| i)
}

/// Drops a leading `name =` (not `==`), as in `x = np.array(...)`.
fn strip_assignment(s: &str) -> &str {
    let n = name_len(s);
    if n == 0 {
        return s;
    }
    let rest = s[n..].trim_start();
    match rest.strip_prefix('=') {
        Some(value) if !value.starts_with('=') => value.trim(),
        _ => s,
    }
}

/// `array([[1, 2]], dtype=float32)` → `[[1, 2]]`: drops a call around a
/// bracketed array and the keyword arguments after it. Anything that does
/// not look like that is returned unchanged, to be reported cell by cell.
fn strip_call(s: &str) -> &str {
    let n = name_len(s);
    if n == 0 {
        return s;
    }
    let Some(args) = s[n..].trim_start().strip_prefix('(') else {
        return s;
    };
    let args = args.trim();
    let args = args.strip_suffix(')').unwrap_or(args).trim_end();
    if !args.starts_with('[') {
        return s;
    }
    // Keep the first bracketed group; what follows it is `, dtype=...`.
    let mut depth = 0usize;
    for (i, c) in args.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let (array, rest) = args.split_at(i + 1);
                    let rest = rest.trim_start();
                    return if rest.is_empty() || rest.starts_with(',') {
                        array
                    } else {
                        args
                    };
                }
            }
            _ => {}
        }
    }
    // Unbalanced: let the bracket reader report it.
    args
}

/// A cell's text with quotes (`"1.5"`, from a quoting CSV export) or a
/// scalar wrapper (`np.float64(1.5)`, as NumPy 2 prints list elements)
/// removed.
fn unwrap_cell(cell: &str) -> &str {
    let c = cell.trim();
    for q in ['"', '\''] {
        if let Some(inner) = c.strip_prefix(q).and_then(|c| c.strip_suffix(q)) {
            return inner;
        }
    }
    let n = name_len(c);
    if n > 0 {
        if let Some(inner) = c[n..].strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
            return inner;
        }
    }
    c
}

/// Rows of text without brackets: one row per line or per `;`; cells split
/// by tabs if the row has any, else by commas if it has any, else by
/// whitespace. A trailing empty cell (`1,2,`) is dropped.
fn plain_rows(body: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in body.split(['\n', '\r', ';']) {
        if line.trim().is_empty() {
            continue;
        }
        let mut cells: Vec<String> = if line.contains('\t') {
            line.split('\t').map(str::to_string).collect()
        } else if line.contains(',') {
            line.split(',').map(str::to_string).collect()
        } else {
            line.split_whitespace().map(str::to_string).collect()
        };
        if cells.len() > 1 && cells.last().is_some_and(|c| c.trim().is_empty()) {
            cells.pop();
        }
        rows.push(cells);
    }
    rows
}

/// Deepest bracket nesting read: a matrix needs two levels, a few more are
/// squeezed batch dimensions of size one.
const MAX_DEPTH: usize = 32;

/// A bracketed list while it is being read: its rows (more than one only
/// when `;` separates them, MATLAB style) and where it starts in the text.
struct Open {
    segments: Vec<Vec<Node>>,
    start: usize,
    /// True right after `[`, `,` or `;`: a `,` now means an empty cell.
    after_separator: bool,
}

enum Node {
    Cell(String),
    List {
        segments: Vec<Vec<Node>>,
        text: String,
    },
}

impl Node {
    fn has_list(&self) -> bool {
        match self {
            Node::Cell(_) => false,
            Node::List { segments, .. } => segments
                .iter()
                .flatten()
                .any(|n| matches!(n, Node::List { .. })),
        }
    }
}

/// Reads bracketed text into rows of cell texts.
///
/// Inside brackets cells are separated by commas and/or whitespace (NumPy's
/// `print` uses only spaces); `;` starts a new row; a comma right before
/// `]` is allowed (Python). Outside brackets commas, semicolons and
/// whitespace just separate the lists.
fn bracket_rows(body: &str) -> Vec<Vec<String>> {
    // The top level is a list without brackets.
    let mut stack = vec![Open {
        segments: vec![Vec::new()],
        start: 0,
        after_separator: false,
    }];
    let mut cell = String::new();
    let flush = |cell: &mut String, stack: &mut Vec<Open>| {
        if !cell.is_empty() {
            let top = stack.last_mut().expect("the top level is never popped");
            push(top, Node::Cell(std::mem::take(cell)));
        }
    };
    for (i, c) in body.char_indices() {
        match c {
            '[' => {
                flush(&mut cell, &mut stack);
                if stack.len() > MAX_DEPTH {
                    // No matrix is nested this deep; refuse at the first cell
                    // rather than build (and later drop) a huge tree.
                    return vec![vec!["[".into()]];
                }
                stack.push(Open {
                    segments: vec![Vec::new()],
                    start: i,
                    after_separator: true,
                });
            }
            ']' => {
                flush(&mut cell, &mut stack);
                if stack.len() > 1 {
                    let open = stack.pop().expect("checked above");
                    let text = body[open.start..i + 1].to_string();
                    let top = stack.last_mut().expect("the top level is never popped");
                    push(
                        top,
                        Node::List {
                            segments: open.segments,
                            text,
                        },
                    );
                } else {
                    // A `]` that closes nothing is a cell that is not a number.
                    push(&mut stack[0], Node::Cell("]".into()));
                }
            }
            ',' | ';' => {
                flush(&mut cell, &mut stack);
                let depth = stack.len();
                let top = stack.last_mut().expect("the top level is never popped");
                if depth > 1 {
                    if top.after_separator && c == ',' {
                        push(top, Node::Cell(String::new()));
                    }
                    if c == ';' {
                        top.segments.push(Vec::new());
                    }
                    top.after_separator = true;
                }
            }
            c if c.is_whitespace() => flush(&mut cell, &mut stack),
            c => cell.push(c),
        }
    }
    flush(&mut cell, &mut stack);
    // Close what was left open, marking each missing `]` with a `[` cell.
    while stack.len() > 1 {
        let mut open = stack.pop().expect("checked above");
        push(&mut open, Node::Cell("[".into()));
        let text = body[open.start..].to_string();
        let top = stack.last_mut().expect("the top level is never popped");
        push(
            top,
            Node::List {
                segments: open.segments,
                text,
            },
        );
    }
    let top = stack.pop().expect("the top level is never popped");
    let mut items: Vec<Node> = top.segments.into_iter().flatten().collect();
    // Squeeze leading dimensions of size one: `[[[1, 2], [3, 4]]]`.
    while items.len() == 1 && items[0].has_list() {
        match items.pop() {
            Some(Node::List { segments, .. }) => items = segments.into_iter().flatten().collect(),
            _ => unreachable!("has_list is only true for a list"),
        }
    }
    let mut rows = Vec::new();
    for item in items {
        match item {
            // A lone number where rows are expected is a row of one; the
            // ragged check then says what is wrong.
            Node::Cell(t) => rows.push(vec![t]),
            Node::List { segments, .. } => {
                let many = segments.len() > 1;
                for segment in segments {
                    // `[1 2; 3 4;]`: the empty row after a final `;` is nothing.
                    if many && segment.is_empty() {
                        continue;
                    }
                    rows.push(
                        segment
                            .into_iter()
                            .map(|n| match n {
                                Node::Cell(t) => t,
                                // Three levels deep: not a number.
                                Node::List { text, .. } => text,
                            })
                            .collect(),
                    );
                }
            }
        }
    }
    rows
}

fn push(open: &mut Open, node: Node) {
    open.segments
        .last_mut()
        .expect("a list always has a segment")
        .push(node);
    open.after_separator = false;
}

/// Parses every cell and checks the shape, reporting the first problem in
/// reading order.
fn to_matrix(rows: &[Vec<String>]) -> Result<Vec<Vec<f64>>, PasteError> {
    if rows.iter().all(Vec::is_empty) {
        return Err(PasteError::Empty);
    }
    let expected = rows[0].len();
    let mut out = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let mut values = Vec::with_capacity(row.len());
        for (c, cell) in row.iter().enumerate() {
            match parse_number(unwrap_cell(cell)) {
                Ok(v) => values.push(v),
                Err(why) => {
                    return Err(PasteError::BadNumber {
                        row: r,
                        col: c,
                        text: cell.trim().to_string(),
                        why,
                    })
                }
            }
        }
        if values.len() != expected {
            return Err(PasteError::Ragged {
                row: r,
                len: values.len(),
                expected,
            });
        }
        out.push(values);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
