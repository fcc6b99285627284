//! MathML Core, written as strings: tiny builders shared by the formulas
//! (`formulas.rs`), the derivations (`derive.rs`) and the stage's captions.
//! Each returns one well-formed MathML fragment; text content is escaped
//! ([`escape`]). The strict checker the tests hold every formula to is
//! [`check`].

use crate::format::short;

/// Escapes `&`, `<`, `>` and `"` so text can sit inside an element or an
/// attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

fn el(name: &str, content: &str) -> String {
    format!("<{name}>{content}</{name}>")
}

/// An identifier; one letter is italic, several are upright (`softmax`).
pub fn mi(s: &str) -> String {
    el("mi", &escape(s))
}
/// An upright identifier (the `T` of a transpose).
pub fn upright(s: &str) -> String {
    format!("<mi mathvariant=\"normal\">{}</mi>", escape(s))
}
/// A number, as written.
pub fn mn(s: &str) -> String {
    el("mn", &escape(s))
}
/// An operator or fence.
pub fn mo(s: &str) -> String {
    el("mo", &escape(s))
}
/// Upright text.
pub fn mtext(s: &str) -> String {
    el("mtext", &escape(s))
}
/// A whole number.
pub fn int(k: usize) -> String {
    mn(&k.to_string())
}
/// Groups fragments into one `<mrow>`.
pub fn row<S: AsRef<str>>(parts: &[S]) -> String {
    let inner: String = parts.iter().map(AsRef::as_ref).collect();
    el("mrow", &inner)
}
/// `base` with a subscript.
pub fn sub(base: &str, s: &str) -> String {
    format!("<msub>{base}{s}</msub>")
}
/// `base` with a superscript.
pub fn sup(base: &str, s: &str) -> String {
    format!("<msup>{base}{s}</msup>")
}
/// `base` with a subscript and a superscript.
pub fn subsup(base: &str, s: &str, p: &str) -> String {
    format!("<msubsup>{base}{s}{p}</msubsup>")
}
/// A fraction.
pub fn frac(num: &str, den: &str) -> String {
    format!("<mfrac>{num}{den}</mfrac>")
}
/// A square root.
pub fn sqrt(x: &str) -> String {
    el("msqrt", x)
}
/// A 1em gap between two equations on one line.
pub fn gap() -> String {
    "<mspace width=\"1em\"></mspace>".to_string()
}
/// `( x )`.
pub fn paren(x: &str) -> String {
    row(&[mo("("), x.to_string(), mo(")")])
}
/// A column of entries between square brackets (a stacked vector).
pub fn column(items: &[String]) -> String {
    let rows: String = items
        .iter()
        .map(|it| format!("<mtr><mtd>{it}</mtd></mtr>"))
        .collect();
    row(&[mo("["), el("mtable", &rows), mo("]")])
}
/// Inline `<math>`.
pub fn inline(body: &str) -> String {
    el("math", body)
}
/// Display `<math display="block">`.
pub fn block(body: &str) -> String {
    format!("<math display=\"block\">{body}</math>")
}

/// A number as [`short`] shows it, in MathML: a true minus sign
/// (`−`, not `-`) and `6.03×10⁻⁶` for scientific forms. Non-finite
/// values show as `—`.
pub fn num(v: f64) -> String {
    let s = short(v);
    if !v.is_finite() {
        return mtext(&s);
    }
    let (neg, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.as_str()),
    };
    let magnitude = match body.split_once('e') {
        Some((mant, exp)) => {
            let exp_ml = match exp.strip_prefix('-') {
                Some(e) => row(&[mo("−"), mn(e)]),
                None => mn(exp),
            };
            row(&[mn(mant), mo("×"), sup(&mn("10"), &exp_ml)])
        }
        None => mn(body),
    };
    if neg {
        row(&[mo("−"), magnitude])
    } else {
        magnitude
    }
}

/// A number used as a factor or subtrahend: negative and scientific
/// forms go in parentheses, so `0.5·(−2)` and `a − (−1)` read right.
pub fn factor(v: f64) -> String {
    let s = short(v);
    if s.starts_with('-') || s.contains('e') {
        paren(&num(v))
    } else {
        num(v)
    }
}

/// `xᵀ`.
pub fn transpose(x: &str) -> String {
    sup(x, &upright("T"))
}
/// `x′`.
pub fn prime(x: &str) -> String {
    sup(x, &mo("′"))
}
/// `d_k`.
pub fn d_k() -> String {
    sub(&mi("d"), &mi("k"))
}
/// `d_v`.
pub fn d_v() -> String {
    sub(&mi("d"), &mi("v"))
}
/// `d_model`.
pub fn d_model() -> String {
    sub(&mi("d"), &mtext("model"))
}
/// `√d_k`.
pub fn sqrt_d_k() -> String {
    sqrt(&d_k())
}
/// `∑_{var=1}^{upper}`.
pub fn sigma(var: &str, upper: &str) -> String {
    subsup(&mo("∑"), &row(&[mi(var), mo("="), mn("1")]), upper)
}
/// `name(arg)` for a function such as `exp` or `softmax_row`.
pub fn call(name: &str, arg: &str) -> String {
    row(&[name.to_string(), paren(arg)])
}
/// `a, b` as one subscript.
pub fn pair(a: &str, b: &str) -> String {
    row(&[a.to_string(), mo(","), b.to_string()])
}

/// Turns an inline `<math>` (as [`formula`] and [`symbol`] return) into a
/// display one; other strings are returned unchanged.
pub fn as_block(math: &str) -> String {
    match math.strip_prefix("<math>") {
        Some(rest) => format!("<math display=\"block\">{rest}"),
        None => math.to_string(),
    }
}

/// The text of a MathML string with the tags removed and entities
/// decoded: `<mn>1</mn><mo>·</mo><mn>4</mn>` reads `1·4`.
pub fn plain_text(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in s.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

#[cfg(test)]
pub(crate) mod check;
