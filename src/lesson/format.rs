//! How numbers are shown. A cell shows a rounded number; the page keeps the
//! exact value beside it (`data-value`, Rust's shortest round-trip `{}`), so
//! rounding is a display choice and never changes what is computed.

/// The exact value as the page contract writes it: Rust's `{}` of the f64.
pub fn exact(v: f64) -> String {
    format!("{v}")
}

/// `v` rounded to `places` decimals with trailing zeros dropped (`0.07`,
/// `1`, `-0.26`), `0` when it rounds to zero. The double nearest k/10^p
/// prints as exactly those digits in Rust's shortest form, so this needs no
/// (larger) fixed-precision formatter.
pub fn rounded(v: f64, places: i32) -> String {
    let scale = 10f64.powi(places);
    let r = (v * scale).round() / scale;
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r}")
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
