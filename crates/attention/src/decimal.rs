//! Decimal text to `f64`: the grammar of `str::parse::<f64>` and the same
//! value, rounded correctly (to nearest, ties to even), in about a
//! kilobyte of WebAssembly.
//!
//! The standard library's reader takes a fast path (Eisel–Lemire) through
//! an 11 KB table of 128-bit powers of five. Random bits do not compress:
//! the table alone was 11 KB of the first screen's gzip (docs/performance.md,
//! "Numbers read without a table"). The numbers the page reads (a typed
//! cell, a scenario file, an address) are few, so exact integer arithmetic
//! does instead:
//!
//! - up to 15 significant digits and a power of ten up to 10²² (most typed
//!   numbers): both are exact `f64`s and one multiplication or division
//!   rounds once, correctly;
//! - otherwise `digits × 10^exp` becomes a fraction of integers `n / m`,
//!   scaled by a power of two so that its integer quotient has 54 or 55
//!   bits; the bits below the 53 kept, and whether the remainder is zero,
//!   decide the rounding. In 128-bit integers when they hold it (a
//!   scenario's 17-digit numbers), else in integers of any size, bit by bit.
//!
//! The tests read tens of thousands of strings both ways and compare the bits,
//! including the hardest inputs: numbers exactly halfway between two
//! adjacent doubles, and a digit above and below them.

use std::cmp::Ordering;

/// Significant digits kept. A number halfway between two adjacent doubles
/// has at most 767 significant digits, so the digits after the 780th only
/// matter through whether one of them is non-zero: that is kept as a final
/// digit 1.
const MAX_DIGITS: usize = 780;

/// `text` as `text.parse::<f64>().ok()` reads it, bit for bit: an optional
/// sign, then `inf`, `infinity` or `nan` (any case), or digits with an
/// optional point (a digit on at least one side) and an optional exponent
/// (`e` or `E`, an optional sign, digits). No spaces.
pub fn parse_f64(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        all => (false, all),
    };
    let v = if body.eq_ignore_ascii_case(b"inf") || body.eq_ignore_ascii_case(b"infinity") {
        f64::INFINITY
    } else if body.eq_ignore_ascii_case(b"nan") {
        f64::NAN
    } else {
        let (digits, exp) = decimal(body)?;
        value(&digits, exp)
    };
    Some(if negative { -v } else { v })
}

/// The significant digits (no leading or trailing zeros) and the power of
/// ten of an unsigned decimal: its value is `digits × 10^exp`.
fn decimal(b: &[u8]) -> Option<(Vec<u8>, i64)> {
    let mut digits = Vec::new();
    let mut exp: i64 = 0;
    let (mut any, mut point, mut dropped) = (false, false, false);
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                any = true;
                let d = c - b'0';
                let kept = !(digits.is_empty() && d == 0) && digits.len() < MAX_DIGITS;
                if kept {
                    digits.push(d);
                }
                dropped |= !kept && d != 0;
                // A digit after the point divides by ten unless it was
                // dropped; one dropped before the point multiplies. A
                // leading zero before the point is nothing at all.
                match (point, kept || digits.is_empty()) {
                    (true, true) => exp -= 1,
                    (false, false) => exp += 1,
                    _ => {}
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if i < b.len() {
        if b[i] | 0x20 != b'e' {
            return None;
        }
        i += 1;
        let negative = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let start = i;
        let mut e: i64 = 0;
        while let Some(&c @ b'0'..=b'9') = b.get(i) {
            // Far beyond any double either way; saturating keeps the sum
            // below from overflowing.
            e = (e * 10 + i64::from(c - b'0')).min(1 << 40);
            i += 1;
        }
        if i == start || i < b.len() {
            return None;
        }
        exp += if negative { -e } else { e };
    }
    if dropped {
        digits.push(1);
        exp -= 1;
    }
    while digits.last() == Some(&0) {
        digits.pop();
        exp += 1;
    }
    Some((digits, exp))
}

/// `digits × 10^exp` rounded to the nearest double, ties to even.
fn value(digits: &[u8], exp: i64) -> f64 {
    let nd = digits.len() as i64;
    if nd == 0 || nd + exp < -330 {
        // Below 10⁻³³⁰, far under half the smallest double (2.47·10⁻³²⁴).
        return 0.0;
    }
    if nd + exp > 310 {
        return f64::INFINITY;
    }
    if nd <= 15 && exp.abs() <= 22 {
        // Both exact: the digits below 2⁵³, the power of ten below 2⁷⁴ with
        // a 53-bit mantissa; one operation, one rounding.
        let d = digits.iter().fold(0u64, |a, &x| a * 10 + u64::from(x)) as f64;
        let p = (0..exp.abs()).fold(1.0, |p, _| p * 10.0);
        return if exp < 0 { d / p } else { d * p };
    }
    let (q, exact, s) = small_quotient(digits, exp).unwrap_or_else(|| big_quotient(digits, exp));
    // Drop the bits of q beyond 53, and at least those below 2⁻¹⁰⁷⁴.
    let width = 64 - q.leading_zeros() as i64;
    let drop = (width - 53).max(s - 1074).max(1) as u32;
    let mut mantissa = q >> drop;
    let rest = q & ((1 << drop) - 1);
    let half = 1 << (drop - 1);
    if rest > half || (rest == half && (!exact || mantissa & 1 == 1)) {
        mantissa += 1;
    }
    // mantissa ≤ 2⁵³ and 2^k is a double for k in [-1074, 1023]: the
    // product is exact, or past the largest double and infinite.
    let k = i64::from(drop) - s;
    let scale = if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1 << (k + 1074))
    };
    mantissa as f64 * scale
}

/// The power of two `s` that scales `n / m` (of `bn` and `bm` bits) into
/// (2⁵³, 2⁵⁵): `n / m` lies in (2^(bn-bm-1), 2^(bn-bm+1)). No double has a
/// bit below 2⁻¹⁰⁷⁴, hence s ≤ 1075 (one bit below it decides the rounding
/// of the smallest doubles).
fn scale(bn: u32, bm: u32) -> i64 {
    (54 + i64::from(bm) - i64::from(bn)).min(1075)
}

/// `floor(digits × 10^exp × 2^s)`, whether it is exact, and `s`: in 128-bit
/// integers when everything fits (a scenario's 17-digit numbers do), else
/// `None`.
fn small_quotient(digits: &[u8], exp: i64) -> Option<(u64, bool, i64)> {
    if digits.len() > 19 {
        return None;
    }
    let d = digits.iter().fold(0u128, |a, &x| a * 10 + u128::from(x));
    let p = 10u128.checked_pow(u32::try_from(exp.unsigned_abs()).ok()?)?;
    let (n, m) = if exp >= 0 {
        (d.checked_mul(p)?, 1)
    } else {
        (d, p)
    };
    let s = scale(128 - n.leading_zeros(), 128 - m.leading_zeros());
    // The scaled integers must fit too.
    let shift = s.unsigned_abs() as u32;
    let (n, m) = match s >= 0 {
        true if n.leading_zeros() >= shift => (n << shift, m),
        false if m.leading_zeros() >= shift => (n, m << shift),
        _ => return None,
    };
    Some(((n / m) as u64, n % m == 0, s))
}

/// [`small_quotient`] in integers of any size.
fn big_quotient(digits: &[u8], exp: i64) -> (u64, bool, i64) {
    let mut n = Big(Vec::new());
    for chunk in digits.chunks(9) {
        let c = chunk.iter().fold(0u32, |a, &x| a * 10 + u32::from(x));
        n.mul_add(10u32.pow(chunk.len() as u32), c);
    }
    let mut m = Big(vec![1]);
    if exp >= 0 {
        n.mul_pow10(exp as u32);
    } else {
        m.mul_pow10(exp.unsigned_abs() as u32);
    }
    let s = scale(n.bits(), m.bits());
    if s >= 0 {
        n.shl(s as u32);
    } else {
        m.shl(s.unsigned_abs() as u32);
    }
    let (q, exact) = n.div(&m);
    (q, exact, s)
}

/// A non-negative integer, 32-bit words, least significant first, no
/// zero word at the top.
struct Big(Vec<u32>);

impl Big {
    /// self · m + a.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for w in &mut self.0 {
            let x = u64::from(*w) * u64::from(m) + carry;
            *w = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut k: u32) {
        while k > 0 {
            let j = k.min(9);
            self.mul_add(10u32.pow(j), 0);
            k -= j;
        }
    }

    fn bits(&self) -> u32 {
        self.0
            .last()
            .map_or(0, |w| 32 * self.0.len() as u32 - w.leading_zeros())
    }

    fn shl(&mut self, n: u32) {
        let bits = n % 32;
        if bits > 0 {
            let mut carry = 0;
            for w in &mut self.0 {
                let x = (u64::from(*w) << bits) | carry;
                *w = x as u32;
                carry = x >> 32;
            }
            if carry > 0 {
                self.0.push(carry as u32);
            }
        }
        self.0
            .splice(0..0, std::iter::repeat_n(0, (n / 32) as usize));
    }

    fn shr1(&mut self) {
        let mut carry = 0;
        for w in self.0.iter_mut().rev() {
            let low = *w & 1;
            *w = (*w >> 1) | (carry << 31);
            carry = low;
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// self − other, for other ≤ self.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0;
        for (i, w) in self.0.iter_mut().enumerate() {
            let (x, b1) = w.overflowing_sub(other.0.get(i).copied().unwrap_or(0));
            let (x, b2) = x.overflowing_sub(borrow);
            *w = x;
            borrow = u32::from(b1 || b2);
        }
        self.trim();
    }

    /// The quotient self / d (below 2⁵⁵) and whether it is exact.
    fn div(mut self, d: &Big) -> (u64, bool) {
        let mut t = Big(d.0.clone());
        t.shl(54);
        let mut q = 0;
        for i in (0..55).rev() {
            if self.cmp(&t) != Ordering::Less {
                self.sub(&t);
                q |= 1 << i;
            }
            t.shr1();
        }
        (q, self.0.is_empty())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::parse_f64;
    use proptest::prelude::*;

    /// The standard library's reading, the reference.
    fn check(text: &str) {
        let ours = parse_f64(text);
        let std = text.parse::<f64>().ok();
        match (ours, std) {
            (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {}
            (Some(a), Some(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{text:?}: {a:e} vs {b:e}"),
            (a, b) => assert_eq!(
                a.is_some(),
                b.is_some(),
                "{text:?}: accepted {a:?} vs {b:?}"
            ),
        }
    }

    /// The exact decimal of a finite double: its digits and the power of
    /// ten of the last one (`format!` writes every digit when asked for
    /// enough).
    fn exact(x: f64) -> (Vec<u8>, i64) {
        let s = format!("{:.1100e}", x);
        let (m, e) = s.split_once('e').unwrap();
        let digits: Vec<u8> = m
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|c| c - b'0')
            .collect();
        let e: i64 = e.parse().unwrap();
        (digits, e - 1100)
    }

    /// The exact decimal halfway between a positive double and the next.
    fn midpoint(x: f64) -> String {
        let (a, ea) = exact(x);
        let (b, eb) = exact(f64::from_bits(x.to_bits() + 1));
        let e = ea.min(eb);
        let pad = |d: Vec<u8>, ed: i64| {
            let mut d = d;
            d.extend(std::iter::repeat_n(0, (ed - e) as usize));
            d
        };
        let (a, b) = (pad(a, ea), pad(b, eb));
        let len = a.len().max(b.len()) + 1;
        let at = |d: &Vec<u8>, i: usize| if i < d.len() { d[d.len() - 1 - i] } else { 0 };
        // Sum, least significant digit first.
        let mut sum = Vec::new();
        let mut carry = 0;
        for i in 0..len {
            let s = at(&a, i) + at(&b, i) + carry;
            sum.push(s % 10);
            carry = s / 10;
        }
        // Half of it, with one more digit (the sum may be odd).
        sum.insert(0, 0);
        let mut half = Vec::new();
        let mut rem = 0;
        for &d in sum.iter().rev() {
            let v = rem * 10 + d;
            half.push(v / 2);
            rem = v % 2;
        }
        let text: String = half.iter().map(|d| (b'0' + d) as char).collect();
        format!("{}e{}", text.trim_start_matches('0'), e - 1)
    }

    #[test]
    fn the_grammar_is_the_standard_librarys() {
        for t in [
            "",
            "+",
            "-",
            ".",
            "e",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e-",
            "1.",
            ".1",
            "1.e5",
            "1..2",
            "1.2.3",
            "1e5.0",
            "+-1",
            "--1",
            " 1",
            "1 ",
            "0x10",
            "1_000",
            "inf",
            "-inf",
            "+inf",
            "INF",
            "Infinity",
            "infinit",
            "infinityx",
            "nan",
            "NaN",
            "-nan",
            "+NAN",
            "nana",
            "1e5e5",
            "00012",
            "-0",
            "+0.0",
            "0e0",
            "1E5",
            "1e+05",
            "٣",
            "１",
        ] {
            check(t);
        }
    }

    #[test]
    fn hard_values() {
        for t in [
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.47032822920623272e-324",
            "4.9406564584124654e-324",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "2.225073858507201136057409796709131975934819546351645648e-308",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "179769313486231580793728971405301e276",
            "9007199254740993",
            "9007199254740992.5",
            "9007199254740993.0000000000000000000000000000000001",
            "0.1",
            "0.30000000000000004",
            "123456789012345678901234567890",
            "1e22",
            "1e23",
            "8.98846567431158e307",
            "1e-330",
            "1e-331",
            "1e310",
            "0.0000000000000000000000000000000000000000000000000000000000001e61",
            "1e99999999999999999999999",
            "0e99999999999999999999999",
            "1e-99999999999999999999999",
        ] {
            check(t);
            check(&format!("-{t}"));
        }
        // Many digits: past the 780 kept, with the rest zero or not.
        let long = "1".repeat(2000);
        check(&long);
        check(&format!("0.{long}"));
        check(&format!("{}1", "0.".to_string() + &"0".repeat(2000)));
        check(&format!("1{}e-2000", "0".repeat(2000)));
        check(&format!("1{}1e-2001", "0".repeat(2000)));
    }

    #[test]
    fn halfway_between_doubles_and_a_digit_either_side() {
        let mut samples: Vec<f64> = vec![
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::from_bits(0x000f_ffff_ffff_ffff),
            1.0,
            0.1,
            9007199254740992.0,
            f64::MAX / 2.0,
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..1500 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state & 0x7fef_ffff_ffff_ffff);
            if x.is_finite() && x > 0.0 {
                samples.push(x);
            }
        }
        for x in samples {
            let mid = midpoint(x);
            check(&mid);
            let (digits, e) = mid.split_once('e').unwrap();
            // Above: one more non-zero digit. Below: the last digit gone
            // (the midpoint's last digit is 5, so this is smaller).
            check(&format!("{digits}1e{}", e.parse::<i64>().unwrap() - 1));
            check(&format!(
                "{}e{}",
                &digits[..digits.len() - 1],
                e.parse::<i64>().unwrap() + 1
            ));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn any_text_of_number_characters(t in "[-+0-9.eE]{0,12}|[0-9]{1,25}(\\.[0-9]{0,25})?(e-?[0-9]{1,3})?") {
            check(&t);
        }

        #[test]
        fn any_double_written_any_way(bits in any::<u64>(), p in 0usize..30) {
            let x = f64::from_bits(bits);
            for t in [format!("{x}"), format!("{x:e}"), format!("{x:.p$e}"), format!("{x:.p$}"), format!("{x:?}")] {
                check(&t);
            }
        }
    }
}
