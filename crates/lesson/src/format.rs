//! How numbers are shown. A cell shows a rounded number; the page keeps the
//! exact value beside it (`data-value`, Rust's shortest round-trip `{}`), so
//! rounding is a display choice and never changes what is computed.

/// The exact value as the page contract writes it: Rust's `{}` of the f64.
pub fn exact(v: f64) -> String {
    format!("{v}")
}

/// A matrix's entries row by row, each [`exact`], separated by single
/// spaces: how the page contract writes a whole matrix in one attribute
/// (a head's `data-weights`, the tokens lab's `data-values`).
pub fn exact_rows(m: &attention::Matrix) -> String {
    let mut out = String::new();
    for row in m.row_iter() {
        for v in row.iter() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&exact(*v));
        }
    }
    out
}

/// `v` rounded to `places` decimals with trailing zeros dropped (`0.07`,
/// `1`, `-0.26`), `0` when it rounds to zero. The double nearest k/10^p
/// prints as exactly those digits in Rust's shortest form, so this needs no
/// (larger) fixed-precision formatter.
pub fn rounded(v: f64, places: i32) -> String {
    let scale = 10f64.powi(places);
    let k = (v * scale).round();
    if k == 0.0 || k.is_nan() {
        return "0".into();
    }
    // With at most 15 significant digits, k/10^p prints as k's digits with
    // the point p places from the right (distinct 15-digit decimals are
    // distinct doubles): written with integers, several times faster than
    // formatting the double (a 64 × 64 output is 4096 of these).
    if (0..=9).contains(&places) && k.abs() < 1e15 {
        let digits = (k.abs() as u64).to_string();
        let p = places as usize;
        let (int, frac) = if digits.len() > p {
            digits.split_at(digits.len() - p)
        } else {
            ("0", digits.as_str())
        };
        let pad = p - frac.len();
        let frac = frac.trim_end_matches('0');
        let mut out = String::with_capacity(int.len() + p + 2);
        if k < 0.0 {
            out.push('-');
        }
        out.push_str(int);
        if !frac.is_empty() {
            out.push('.');
            out.extend(std::iter::repeat_n('0', pad));
            out.push_str(frac);
        }
        return out;
    }
    format!("{}", k / scale)
}

/// A short form for a matrix cell: whole numbers as they are (`16`), others
/// to 4 decimals without trailing zeros (`0.0634`), very small or very large
/// magnitudes in scientific form (`6.03e-6`), and `—` for a value that does
/// not exist (an undefined softmax row), so NaN never reaches the screen.
pub fn short(v: f64) -> String {
    if !v.is_finite() {
        return "—".to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let a = v.abs();
    if v.fract() == 0.0 && a < 1e6 {
        return format!("{v}");
    }
    if (1e-3..1e6).contains(&a) {
        return rounded(v, 4);
    }
    // d.dd·10^e, written as "6.03e-6".
    let mut e = a.log10().floor() as i32;
    // Two factors so that 10^|e| never overflows (subnormals reach e = −324).
    let mantissa = a * 10f64.powi(-e / 2) * 10f64.powi(-e + e / 2);
    let mut k = (mantissa * 100.0).round() as u64;
    if k >= 1000 {
        k /= 10;
        e += 1;
    }
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}{}.{:02}e{e}", k / 100, k % 100)
}

/// How many characters [`short`] writes for `v`, without writing them in
/// the usual cases (the stage sizes its cells by the longest of thousands).
pub fn short_len(v: f64) -> usize {
    let a = v.abs();
    let sign = usize::from(v < 0.0);
    if !v.is_finite() || v == 0.0 {
        return 1;
    }
    let digits = |n: u64| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    if v.fract() == 0.0 && a < 1e6 {
        return sign + digits(a as u64);
    }
    if (1e-3..1e6).contains(&a) {
        // As `rounded(v, 4)` writes it: the integer part (at least "0"),
        // then the four decimals without their trailing zeros.
        // (|v| ≥ 0.001 makes k at least 10.)
        let k = (v * 1e4).round().abs() as u64;
        let int = if k >= 10_000 { digits(k) - 4 } else { 1 };
        let mut frac = k % 10_000;
        if frac == 0 {
            return sign + int;
        }
        let mut places = 4;
        while frac % 10 == 0 {
            frac /= 10;
            places -= 1;
        }
        return sign + int + 1 + places;
    }
    short(v).chars().count()
}

/// A count for a table: grouped digits up to a million (`12 345`), then
/// three significant digits and a power of ten (`1.23e9`).
pub fn count(v: u64) -> String {
    if v < 1_000_000 {
        let d = v.to_string();
        let mut out = String::new();
        for (k, c) in d.chars().enumerate() {
            if k > 0 && (d.len() - k) % 3 == 0 {
                out.push('\u{202F}');
            }
            out.push(c);
        }
        out
    } else {
        let e = (v as f64).log10().floor() as i32;
        let m = v as f64 / 10f64.powi(e);
        // 9.995… rounds up to the next power.
        let (m, e) = if (m * 100.0).round() >= 1000.0 {
            (1.0, e + 1)
        } else {
            (m, e)
        };
        format!("{}e{e}", rounded(m, 2))
    }
}

/// A piece of a sentence or label: plain text, or a superscript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    Sup(&'a str),
}

/// Splits the app's one bit of inline markup: `^{…}` or `^c` (one ASCII
/// letter or digit; any other character after `^` is written in braces) is
/// a superscript, as the notes write `W^q`, `W^O`, `q^{i,r}` and
/// `e^{−∞}`. Text and labels carry the markup so that the page can draw a
/// real superscript (HTML `<sup>`, SVG `tspan`) and never shows the caret;
/// a `^` followed by anything else, or a `{` never closed, stays text.
pub fn pieces(s: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(k) = rest.find('^') {
        let after = &rest[k + 1..];
        let sup = if let Some(inner) = after.strip_prefix('{') {
            inner.find('}').map(|end| (&inner[..end], end + 2))
        } else {
            after
                .chars()
                .next()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| (&after[..c.len_utf8()], c.len_utf8()))
        };
        match sup {
            Some((body, used)) => {
                if k > 0 {
                    out.push(Piece::Text(&rest[..k]));
                }
                out.push(Piece::Sup(body));
                rest = &after[used..];
            }
            None => {
                out.push(Piece::Text(&rest[..=k]));
                rest = after;
            }
        }
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// `s` without its markup, for text that cannot style (an `aria-label`):
/// a superscript follows its base directly (`W^q` → `Wq`, `q^{i,r}` → `qi,r`).
pub fn plain(s: &str) -> String {
    pieces(s)
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) | Piece::Sup(t) => t,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_rows_writes_every_entry_row_by_row() {
        let m = attention::Matrix::from_row_slice(2, 2, &[0.1, -0.0, 0.001, 2.0]);
        assert_eq!(exact_rows(&m), "0.1 -0 0.001 2");
        assert_eq!(exact_rows(&attention::Matrix::zeros(0, 3)), "");
    }

    #[test]
    fn whole_numbers_stay_whole() {
        assert_eq!(short(16.0), "16");
        assert_eq!(short(-3.0), "-3");
        assert_eq!(short(0.0), "0");
        assert_eq!(short(-0.0), "0");
    }

    #[test]
    fn fractions_round_to_four_decimals() {
        assert_eq!(short(0.063_379_4), "0.0634");
        assert_eq!(short(0.5), "0.5");
        assert_eq!(short(1.936_6), "1.9366");
        assert_eq!(short(-0.000_04), "-4.00e-5");
        assert_eq!(short(-0.000_01), "-1.00e-5");
    }

    #[test]
    fn tiny_and_huge_use_scientific_form() {
        assert_eq!(short(6.0337e-6), "6.03e-6");
        assert_eq!(short(1.5e7 + 0.5), "1.50e7");
        assert_eq!(short(2.95e-4), "2.95e-4");
        assert_eq!(short(9.999e-5), "1.00e-4");
        assert_eq!(short(-1e300), "-1.00e300");
        assert_eq!(short(5e-324), "4.94e-324");
    }

    #[test]
    fn four_decimals_agree_with_fixed_precision_formatting() {
        // Against Rust's own {:.4} on many values away from exact ties.
        let mut x = 0.001_234_567_f64;
        while x < 1e5 {
            for v in [x, -x, x * 1.000_37] {
                let fixed = format!("{v:.4}");
                let fixed = fixed.trim_end_matches('0').trim_end_matches('.');
                assert_eq!(short(v), fixed, "{v}");
            }
            x *= 1.618_033;
        }
    }

    /// The former `rounded`: format the double nearest k/10^p.
    fn rounded_by_formatting(v: f64, places: i32) -> String {
        let scale = 10f64.powi(places);
        let r = (v * scale).round() / scale;
        if r == 0.0 {
            "0".into()
        } else {
            format!("{r}")
        }
    }

    /// A small generator of test inputs (xorshift64).
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn rounded_writes_what_formatting_the_rounded_double_writes() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200_000 {
            let bits = next();
            // Wide magnitudes, short decimals, ties and random doubles.
            let v = match bits % 4 {
                0 => f64::from_bits(next()),
                1 => ((next() % 2_000_001) as f64 - 1e6) / 10f64.powi((next() % 8) as i32),
                2 => ((next() % 20_001) as f64 - 1e4 + 0.5) / 1e4,
                _ => {
                    (next() as f64 / u64::MAX as f64 - 0.5) * 10f64.powi((next() % 30) as i32 - 10)
                }
            };
            if !v.is_finite() {
                continue;
            }
            for p in [0, 2, 3, 4] {
                assert_eq!(rounded(v, p), rounded_by_formatting(v, p), "{v} at {p}");
            }
        }
    }

    #[test]
    fn short_len_counts_what_short_writes() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut vs = vec![
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            1e-3,
            0.00095,
            0.00005,
            -0.00005,
            999_999.999_96,
            1e6,
            0.5,
            -0.25,
            12.0,
            -7.0,
        ];
        for _ in 0..300_000 {
            let v = match next() % 4 {
                0 => f64::from_bits(next()),
                1 => ((next() % 2_000_001) as f64 - 1e6) / 10f64.powi((next() % 9) as i32),
                2 => ((next() % 20_001) as f64 - 1e4 + 0.5) / 1e4,
                _ => {
                    (next() as f64 / u64::MAX as f64 - 0.5) * 10f64.powi((next() % 30) as i32 - 12)
                }
            };
            vs.push(v);
        }
        for v in vs {
            assert_eq!(short_len(v), short(v).chars().count(), "{v:e}");
        }
    }

    #[test]
    fn undefined_is_a_dash_not_nan() {
        assert_eq!(short(f64::NAN), "—");
        assert_eq!(short(f64::INFINITY), "—");
        assert_eq!(exact(f64::NAN), "NaN");
    }

    #[test]
    fn exact_round_trips() {
        for v in [0.1, 1.0 / 3.0, 6.0337e-6, 2.0, -7.25] {
            assert_eq!(exact(v).parse::<f64>().unwrap(), v);
        }
        assert_eq!(exact(2.0), "2");
    }

    #[test]
    fn counts_group_then_go_scientific() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(12_345), "12\u{202F}345");
        assert_eq!(count(999_999), "999\u{202F}999");
        assert_eq!(count(1_000_000), "1e6");
        assert_eq!(count(1_234_567_890), "1.23e9");
        assert_eq!(count(9_996_000), "1e7");
    }

    #[test]
    fn markup_pieces() {
        use Piece::{Sup, Text};
        assert_eq!(
            pieces("Q = W^q X"),
            vec![Text("Q = W"), Sup("q"), Text(" X")]
        );
        assert_eq!(pieces("q^{i,r}"), vec![Text("q"), Sup("i,r")]);
        assert_eq!(
            pieces("e^{−∞} = 0"),
            vec![Text("e"), Sup("−∞"), Text(" = 0")]
        );
        assert_eq!(pieces("a ^ b"), vec![Text("a ^"), Text(" b")]);
        assert_eq!(pieces("x^{open"), vec![Text("x^"), Text("{open")]);
        // One character without braces only if it is an ASCII letter or digit.
        assert_eq!(pieces("x^é"), vec![Text("x^"), Text("é")]);
        assert_eq!(pieces("x^{é}"), vec![Text("x"), Sup("é")]);
        assert_eq!(pieces("plain"), vec![Text("plain")]);
        assert_eq!(plain("W^O concat"), "WO concat");
        assert_eq!(plain("b^{1,2}"), "b1,2");
    }
}
