//! # One table of symbols
//!
//! Every picture, caption, formula, lab and matrix of the page names things
//! the way note 000 does, in both layouts (`docs/notation.md` is this table
//! for readers). The row layout (note 000 §8, the default) keeps position
//! `i` in row `i`; the column layout (note 000 §4.5) in column `i`, and
//! writes the projections the other way round (`Q = W^q X`).
//!
//! | what | row layout | column layout |
//! |---|---|---|
//! | the input of position `i` | `aⁱ`, row `i` of `X` | `aⁱ`, column `i` of `X` |
//! | positional encoding | `PE` (rows `pⁱ`), `X + PE`; one-hot `E` (rows `eⁱ`), `[X \| E]` | the same, `[X;E]` |
//! | projections | `W_Q`, `W_K`, `W_V` | `W^q`, `W^k`, `W^v` |
//! | queries, keys, values | `Q = X·W_Q`, rows `qⁱ`; `K`, `kⁱ`; `V`, `vⁱ` | `Q = W^q X`, columns `qⁱ` |
//! | scores | `α_{i,j} = qⁱ·kʲ`, `S = QKᵀ` | `α_{i,j} = (kʲ)ᵀqⁱ`, `S = KᵀQ` |
//! | mask | `S + M` (`M` is 0 or −∞), a masked score `α̃` | the same |
//! | weights | `α′_{i,j}`, `A = softmax_row(…)` | `A = softmax_col(…)` |
//! | a head's output | `bⁱ = Σ_j α′_{i,j} vʲ`, `B = A·V` | `B = V·A` |
//! | head `r` of several (or one followed by W_O) | `b^{i,r}` in `Bʳ` | the same |
//! | the heads side by side | `concat = [B¹ … Bʰ]` | `[B¹; …; Bʰ]` |
//! | output projection | `W_O` | `W^O` |
//! | the layer's output | `B = concat·W_O`, rows `bⁱ` (or `concat`, or the one head's `B`) | `B = W^O concat` |
//! | stacked layers (note 000 §3.2) | layer `l` reads `X_l` and writes `O_l = X_l + B_l` (residual) or `B_l`; `X_{l+1} = O_l` | the same |
//!
//! Superscripts that Unicode lacks (`W^q`, `q^{i,r}`) are written with the
//! markup of [`super::format::pieces`] and drawn as superscripts; a caret
//! never reaches the screen.

use super::names::Convention;

/// The symbol bases a picture or a sentence may use in `conv`: each may
/// carry a position or head index (`a²`, `α′₁,·`, `b^{1,2}`, `B¹`).
pub fn symbols(conv: Convention) -> Vec<&'static str> {
    let weights: [&'static str; 5] = match conv {
        Convention::Row => ["W_Q", "W_K", "W_V", "W_O", "softmax_row"],
        Convention::Col => ["W^q", "W^k", "W^v", "W^O", "softmax_col"],
    };
    let mut all = vec![
        "X", "PE", "E", "a", "p", "e", "Q", "K", "Kᵀ", "V", "q", "k", "v", "S", "M", "α", "α̃",
        "α′", "A", "B", "b", "concat", "softmax", "exp", "max", "Σ", "d_k", "d_v", "d_model", "h",
        "n", "i", "j", "r", "O",
    ];
    all.extend(weights);
    all
}

/// Position `i`'s output (0-based) as note 000 names it: `bⁱ`, or head `r`'s
/// own `b^{i,r}` (the app's superscript markup) when each head has one
/// (several heads, or a W_O after the head).
pub fn output_of(i: usize, head: Option<usize>) -> String {
    match head {
        Some(r) => format!("b^{{{},{}}}", i + 1, r + 1),
        None => format!("b{}", super::timeline::sup(i + 1)),
    }
}

/// A head's output matrix: `B`, or head `r`'s own `Bʳ` (see [`output_of`]).
pub fn output_matrix(head: Option<usize>) -> String {
    match head {
        Some(r) => format!("B{}", super::timeline::sup(r + 1)),
        None => "B".into(),
    }
}

/// Characters that index a symbol rather than name it: superscript and
/// subscript digits and letters, `·` and `,` between indices.
fn is_index(c: char) -> bool {
    matches!(
        c,
        // ⁱ (U+2071) lies within ⁰..⁹ (U+2070–U+2079).
        '0'..='9' | '⁰'..='⁹' | '¹' | '²' | '³' | 'ʲ' | 'ʳ' | 'ʰ' | 'ⁿ' | '₀'..='₉' | 'ᵢ' | 'ⱼ' | '·' | ','
    )
}

/// The name of a symbol-like `word` without its indices and markup
/// (`a²` → `a`, `b^{1,2}` → `b`, `α′₁,·` → `α′`, `B¹` → `B`); `None` for a
/// word that names no symbol (a number, an operator, a token's text is the
/// caller's to skip).
pub fn base(word: &str) -> Option<&str> {
    let w = word.trim_matches(|c: char| "()[]:;.，。：；（）√".contains(c));
    // A caret superscript is an index (vʲ written v^j, b^{1,2}), except on
    // the column layout's weights, whose name it is (W^q, W^O).
    let w = match w.find('^') {
        Some(k) if !w.starts_with("W^") || w[k..].starts_with("^{") => &w[..k],
        _ => w,
    };
    let w = w.trim_end_matches(is_index);
    (!w.is_empty() && w.chars().any(|c| c.is_alphabetic())).then_some(w)
}

/// Whether `word` (as [`base`] reads it) is a symbol of the table in `conv`.
pub fn is_symbol(word: &str, conv: Convention) -> bool {
    base(word).is_some_and(|b| symbols(conv).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_drop_indices_and_markup() {
        assert_eq!(base("a²"), Some("a"));
        assert_eq!(base("b^{1,2}"), Some("b"));
        assert_eq!(base("α′₁,·"), Some("α′"));
        assert_eq!(base("B¹"), Some("B"));
        assert_eq!(base("W^q"), Some("W^q"));
        assert_eq!(base("v^j"), Some("v"));
        assert_eq!(base("1.4142"), None);
        assert!(is_symbol("W^O", Convention::Col) && !is_symbol("W^O", Convention::Row));
        assert!(!is_symbol("H", Convention::Row) && !is_symbol("Y", Convention::Col));
        assert!(!is_symbol("x¹", Convention::Row) && !is_symbol("o²", Convention::Row));
    }
}
