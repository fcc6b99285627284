//! Order and positions (docs/figures.md F8; note `000` §5.2, note `001`).
//!
//! Self-attention without positions is *permutation equivariant*: shuffle
//! the tokens and every output row is the same as before, only moved with
//! its token. So "我喜欢你" and "你喜欢我" give 我 the same output. A
//! positional encoding ties each vector to its place, and the equality
//! breaks. This module reorders a scenario and checks that claim on the
//! engine's own outputs.

use crate::random::Rng;
use attention::{compute, Matrix, Scenario};

/// How far two outputs may differ and still count as equal: a reordering
/// only changes the order in which the softmax and the weighted sums add
/// their terms, which moves the last bits (about 1e-16 of the values).
pub const SAME: f64 = 1e-9;

/// A seeded shuffle of `0..n` (Fisher–Yates) that always moves something
/// when `n > 1`: `perm[p]` is the original position shown at place `p`.
pub fn shuffle(n: usize, seed: u64) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(seed);
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        perm.swap(i, j);
    }
    if n > 1 && perm.iter().enumerate().all(|(p, &o)| p == o) {
        perm.rotate_left(1);
    }
    perm
}

/// `s` with its tokens in the order `perm` (token `perm[p]` now at place
/// `p`, its row of `x` with it). The weights, the mask and the positional
/// encoding stay: they belong to places, not to tokens.
///
/// Panics if `perm` is not a permutation of `0..s.n()`.
pub fn reordered(s: &Scenario, perm: &[usize]) -> Scenario {
    assert!(
        is_permutation(perm, s.n()),
        "not a permutation of 0..{}",
        s.n()
    );
    Scenario {
        tokens: perm.iter().map(|&o| s.tokens[o].clone()).collect(),
        x: Matrix::from_fn(s.n(), s.d_model(), |p, c| s.x[(perm[p], c)]),
        ..s.clone()
    }
}

/// Whether `perm` holds each of `0..n` exactly once.
pub fn is_permutation(perm: &[usize], n: usize) -> bool {
    let mut seen = vec![false; n];
    perm.len() == n
        && perm
            .iter()
            .all(|&o| o < n && !std::mem::replace(&mut seen[o], true))
}

/// 我喜欢你 with weights that give each token its own output (the
/// notes' projections give these three tokens nearly equal weights, which
/// would hide the point): note `000` §5.2's pair, ready to be reordered
/// into 你喜欢我 with `[2, 1, 0]`.
pub fn sentence_pair() -> Scenario {
    let base = crate::presets::i_love_you(false);
    let dims = crate::presets::Dims {
        n: 3,
        d_model: 4,
        d_k: 3,
        d_v: 3,
        heads: 1,
    };
    let mut w = crate::presets::random(PAIR_SEED, dims, false).heads;
    for h in &mut w {
        h.w_q *= 2.0;
        h.w_k *= 2.0;
    }
    Scenario { heads: w, ..base }
}

/// The seed of [`sentence_pair`]'s weights.
const PAIR_SEED: u64 = 3;

/// The outputs in both orders, compared after un-shuffling.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Outputs of the scenario as given.
    pub original: Matrix,
    /// Outputs of the reordered scenario (row `p` is token `perm[p]`).
    pub reordered: Matrix,
    /// Largest `|reordered[p] − original[perm[p]]|` over every entry.
    pub max_diff: f64,
    /// Whether every row came back the same (within [`SAME`] of the
    /// largest output).
    pub equal: bool,
}

/// Runs the engine on `s` and on `reordered(s, perm)` and compares each
/// token's output in the two orders. `None` when the engine refuses `s`
/// or some output is undefined (a row with every key masked).
pub fn compare(s: &Scenario, perm: &[usize]) -> Option<Comparison> {
    let a = compute(s).ok()?;
    let b = compute(&reordered(s, perm)).ok()?;
    if !a.undefined_rows.is_empty() || !b.undefined_rows.is_empty() {
        return None;
    }
    let (original, reordered) = (a.output, b.output);
    let mut max_diff = 0.0f64;
    for (p, &o) in perm.iter().enumerate() {
        for c in 0..original.ncols() {
            max_diff = max_diff.max((reordered[(p, c)] - original[(o, c)]).abs());
        }
    }
    let size = original.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    Some(Comparison {
        equal: max_diff <= SAME * size,
        original,
        reordered,
        max_diff,
    })
}

// Native only: proptest is a native dev-dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::presets::{i_love_you, random, Dims};
    use attention::{Mask, Positional};
    use proptest::prelude::*;

    #[test]
    fn shuffles_are_seeded_permutations_that_move_something() {
        for n in 1..=12 {
            for seed in 0..40 {
                let p = shuffle(n, seed);
                assert!(is_permutation(&p, n));
                assert_eq!(p, shuffle(n, seed));
                if n > 1 {
                    assert!(p.iter().enumerate().any(|(i, &o)| i != o), "{p:?}");
                }
            }
        }
        assert!(!is_permutation(&[0, 0], 2));
        assert!(!is_permutation(&[0, 2], 2));
        assert!(!is_permutation(&[0], 2));
    }

    #[test]
    fn reordering_moves_tokens_and_rows_only() {
        let s = i_love_you(false);
        let r = reordered(&s, &[2, 1, 0]);
        let back = i_love_you(true);
        assert_eq!(r.tokens, back.tokens);
        assert_eq!(r.x, back.x);
        assert_eq!(r.heads, s.heads);
    }

    #[test]
    fn wo_gets_the_same_output_in_both_sentences_only_without_positions() {
        // Note 000 §5.2: 我喜欢你 → 你喜欢我 swaps places 1 and 3.
        let mut s = i_love_you(false);
        s.positional = Positional::None;
        let c = compare(&s, &[2, 1, 0]).unwrap();
        assert!(c.equal, "{}", c.max_diff);
        // 我 is row 0 of the first sentence and row 2 of the second.
        for col in 0..c.original.ncols() {
            assert!((c.reordered[(2, col)] - c.original[(0, col)]).abs() < 1e-15);
        }
        s.positional = Positional::Sinusoidal;
        let c = compare(&s, &[2, 1, 0]).unwrap();
        assert!(!c.equal);
        assert!(c.max_diff > 1e-3, "{}", c.max_diff);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        // Without positions (and without a mask that depends on places),
        // reordering the tokens reorders the outputs; with the sinusoidal
        // encoding it does not, once the tokens are different vectors.
        #[test]
        fn permutation_equivariance_holds_without_pe_and_fails_with_it(
            seed in 0u64..10_000, n in 2usize..8, d in 2usize..6, h in 1usize..3, shuffle_seed in 0u64..1000,
        ) {
            let dims = Dims { n, d_model: d, d_k: d, d_v: d, heads: h };
            let mut s = random(seed, dims, seed % 2 == 0);
            s.mask = Mask::None;
            s.positional = Positional::None;
            let perm = shuffle(n, shuffle_seed);
            let c = compare(&s, &perm).unwrap();
            prop_assert!(c.equal, "max diff {}", c.max_diff);
            s.positional = Positional::Sinusoidal;
            // Scale the weights so positions matter clearly (random cells in
            // [-1, 1] with two decimals can cancel by chance).
            for w in &mut s.heads {
                w.w_q *= 3.0;
                w.w_k *= 3.0;
            }
            let c = compare(&s, &perm).unwrap();
            prop_assert!(!c.equal, "with PE, max diff only {}", c.max_diff);
        }
    }

    #[test]
    fn the_pair_gives_each_token_its_own_output() {
        let t = compute(&sentence_pair()).unwrap();
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let d = (t.output.row(a) - t.output.row(b)).abs().max();
            assert!(d > 0.1, "rows {a} and {b} differ by {d}");
        }
        let back = reordered(&sentence_pair(), &[2, 1, 0]);
        assert_eq!(back.tokens, i_love_you(true).tokens);
    }

    #[test]
    fn a_causal_mask_breaks_equivariance_even_without_positions() {
        let mut s = i_love_you(false);
        s.positional = Positional::None;
        s.mask = Mask::Causal;
        assert!(!compare(&s, &[2, 1, 0]).unwrap().equal);
    }
}
