//! A strict checker for the MathML this crate writes: used by the tests of
//! the formulas and of the derivations.

/// The MathML Core elements we allow ourselves.
pub const ELEMENTS: [&str; 16] = [
    "math", "mi", "mn", "mo", "mrow", "msub", "msup", "msubsup", "mfrac", "msqrt", "mover",
    "mtext", "mspace", "mtable", "mtr", "mtd",
];

/// `Ok` when `s` is exactly one `<math>` element, every tag is an
/// allowed MathML element, tags close in order, scripts and fractions
/// have the number of children MathML gives them (a browser reports
/// any other number as invalid markup), attributes are quoted and text
/// holds no raw `<`, `>` or stray `&`.
pub fn well_formed(s: &str) -> Result<(), String> {
    // Each open element and how many child elements it has so far.
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut rest = s;
    let mut first = true;
    while !rest.is_empty() {
        if stack.is_empty() && !first {
            return Err(format!("content after the root element: {rest:?}"));
        }
        match rest.find('<') {
            Some(0) => {
                let end = rest.find('>').ok_or("unterminated tag")?;
                let tag = &rest[1..end];
                rest = &rest[end + 1..];
                if let Some(name) = tag.strip_prefix('/') {
                    let (open, children) =
                        stack.pop().ok_or(format!("</{name}> closes nothing"))?;
                    if open != name {
                        return Err(format!("</{name}> closes <{open}>"));
                    }
                    let arity = match name {
                        "msub" | "msup" | "mfrac" | "mover" => Some(2),
                        "msubsup" => Some(3),
                        _ => None,
                    };
                    if arity.is_some_and(|a| a != children) {
                        return Err(format!("<{name}> with {children} children"));
                    }
                } else {
                    let self_closing = tag.ends_with('/');
                    let tag = tag.trim_end_matches('/');
                    let (name, attrs) = tag.split_once(' ').unwrap_or((tag, ""));
                    if !ELEMENTS.contains(&name) {
                        return Err(format!("element <{name}> is not allowed"));
                    }
                    if first && name != "math" {
                        return Err("the root must be <math>".into());
                    }
                    check_attrs(attrs)?;
                    first = false;
                    if let Some((_, children)) = stack.last_mut() {
                        *children += 1;
                    }
                    if !self_closing {
                        stack.push((name.to_string(), 0));
                    }
                }
            }
            Some(k) => {
                if stack.is_empty() {
                    return Err("text outside <math>".into());
                }
                check_text(&rest[..k])?;
                rest = &rest[k..];
            }
            None => return Err(format!("trailing text {rest:?}")),
        }
    }
    if let Some((open, _)) = stack.pop() {
        return Err(format!("<{open}> is never closed"));
    }
    if first {
        return Err("empty".into());
    }
    Ok(())
}

fn check_attrs(mut attrs: &str) -> Result<(), String> {
    loop {
        attrs = attrs.trim_start();
        if attrs.is_empty() {
            return Ok(());
        }
        let (name, after) = attrs
            .split_once("=\"")
            .ok_or(format!("attribute without a quoted value: {attrs:?}"))?;
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
            return Err(format!("bad attribute name {name:?}"));
        }
        let (value, after) = after
            .split_once('"')
            .ok_or("unterminated attribute value")?;
        check_text(value)?;
        attrs = after;
    }
}

fn check_text(text: &str) -> Result<(), String> {
    if text.contains('>') {
        return Err(format!("raw '>' in {text:?}"));
    }
    let mut rest = text;
    while let Some(k) = rest.find('&') {
        let after = &rest[k + 1..];
        let ok = ["amp;", "lt;", "gt;", "quot;"]
            .iter()
            .any(|e| after.starts_with(e));
        if !ok {
            return Err(format!("stray '&' in {text:?}"));
        }
        rest = after;
    }
    Ok(())
}

/// The text of a MathML string with the tags removed and entities
/// decoded: `<mn>1</mn><mo>·</mo><mn>4</mn>` reads `1·4`.
pub fn plain(s: &str) -> String {
    super::plain_text(s)
}
