//! The characters the formulas draw, for the math font: the font
//! (`static/fonts/stix-two-math-subset.woff2`) is cut to exactly these
//! (`scripts/make-math-font.sh` reads them from `formula-chars.txt`), and
//! the tests hold that file equal to what every formula of this crate can
//! draw. Only tests call this, so it never reaches the WebAssembly.

use crate::formulas::*;
use crate::mathml::{factor, inline, num, plain_text};
use crate::names::{Convention, MatrixName};
use attention::Positional;
use std::collections::BTreeSet;

/// The characters of `formula-chars.txt`, the math font's.
pub fn font_chars() -> BTreeSet<char> {
    include_str!("../formula-chars.txt")
        .trim_end_matches('\n')
        .chars()
        .collect()
}

/// The characters of a formula, as the browser draws them: a lone
/// letter in `<mi>` is italic (MathML's `math-auto`), so it is drawn
/// with the mathematical italic letter (`x` → U+1D465, `h` → U+210E).
pub fn drawn_chars(math: &str, out: &mut BTreeSet<char>) {
    let italic = |c: char| -> char {
        let at = |base: u32, off: u32| char::from_u32(base + off).unwrap();
        match c {
            'h' => 'ℎ',
            'A'..='Z' => at(0x1D434, c as u32 - 'A' as u32),
            'a'..='z' => at(0x1D44E, c as u32 - 'a' as u32),
            'Α'..='Ω' => at(0x1D6E2, c as u32 - 'Α' as u32),
            'α'..='ω' => at(0x1D6FC, c as u32 - 'α' as u32),
            _ => c,
        }
    };
    // A radical is drawn with the font's √ and its larger variants.
    if math.contains("<msqrt>") {
        out.insert('√');
    }
    let mut rest = math;
    while let Some(at) = rest.find("<mi>") {
        let body = &rest[at + 4..];
        let end = body.find("</mi>").expect("a closed <mi>");
        let mut cs = body[..end].chars();
        if let (Some(c), None) = (cs.next(), cs.next()) {
            out.insert(italic(c));
        }
        rest = &body[end..];
    }
    // Words in the reader's language (in <mtext>) are drawn by the
    // page's text font, not the math font.
    let cjk = |c: char| matches!(c, '\u{2E80}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}');
    out.extend(plain_text(math).chars().filter(|&c| !cjk(c)));
}

/// Every character a formula of this crate can draw: each matrix's
/// symbol and formulas in both layouts with every option, the stage's
/// formulas, the split captions, every derivation step of the presets'
/// cells, the layers' formulas, and numbers of every form.
pub fn formula_chars() -> BTreeSet<char> {
    use crate::derive::{derive, CellRef};
    use crate::presets::Preset;
    let mut used = BTreeSet::new();
    let pes = [Positional::None, Positional::Sinusoidal, Positional::OneHot];
    for conv in [Convention::Row, Convention::Col] {
        for name in MatrixName::ALL {
            drawn_chars(&symbol(name, conv), &mut used);
            for (scale, w_o, masked) in (0..8).map(|b| (b & 1 == 1, b & 2 == 2, b & 4 == 4)) {
                for pe in pes {
                    let o = FormulaOptions {
                        conv,
                        scale,
                        has_w_o: w_o,
                        masked,
                        pe,
                        head: None,
                    };
                    // Every mask, every head of its own, and the workbench's
                    // (which names the mask).
                    for o in [
                        o,
                        FormulaOptions {
                            head: Some(11),
                            ..o
                        },
                        FormulaOptions { masked: true, ..o },
                    ] {
                        drawn_chars(&formula_with(name, o), &mut used);
                    }
                }
            }
        }
        for scale in [false, true] {
            drawn_chars(&attention_formula(conv, scale), &mut used);
        }
        let c = split_captions(conv, 12);
        for f in [&c.w_all, &c.w_head, &c.q_all, &c.q_head] {
            drawn_chars(f, &mut used);
        }
        for preset in Preset::MENU {
            let s = preset.build();
            let Ok(t) = attention::compute(&s) else {
                continue;
            };
            let (n, heads) = (s.n().min(3), t.heads.len().min(2));
            let mut cells: Vec<CellRef> = (0..n)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .flat_map(|(i, j)| {
                    (0..heads).flat_map(move |head| {
                        [
                            CellRef::Scores { head, i, j },
                            CellRef::Scaled { head, i, j },
                            CellRef::Weights { head, i, j },
                            CellRef::HeadOutput { head, i, c: j },
                        ]
                    })
                })
                .collect();
            cells.extend((0..n).map(|i| CellRef::Output { i, c: 0 }));
            for cell in cells {
                for step in derive(&s, &t, cell, conv)
                    .map(|d| d.steps)
                    .unwrap_or_default()
                {
                    drawn_chars(&step.math, &mut used);
                }
            }
        }
    }
    for l in 1..12 {
        drawn_chars(&layer_output_formula(l, l % 2 == 0, l == 11), &mut used);
        drawn_chars(&layer_output_formula(l, l % 2 == 1, false), &mut used);
        drawn_chars(&layer_input_formula(l + 1), &mut used);
    }
    for v in [
        -1.25e-7,
        3.5e12,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        1.0 / 3.0,
    ] {
        drawn_chars(&inline(&num(v)), &mut used);
        drawn_chars(&inline(&factor(v)), &mut used);
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The math font is a subset (scripts/make-math-font.sh cuts it to the
    /// characters of `formula-chars.txt`): every character a formula of
    /// this crate can draw must be in that list, or the browser would draw
    /// it with another font.
    #[test]
    fn every_formula_character_is_in_the_math_font() {
        let font = font_chars();
        let used = formula_chars();
        let missing: String = used.difference(&font).collect();
        assert!(
            missing.is_empty(),
            "not in formula-chars.txt (the math font): {missing:?}"
        );
        // The list is the font's, not a guess: the italic letters are there.
        assert!(
            ['𝑄', '𝛼', '√', '∑'].iter().all(|c| used.contains(c)),
            "{used:?}"
        );
    }
}
