//! The notes' worked examples, as scenarios.

use super::names::Lang;
use attention::{HeadWeights, Mask, Matrix, Positional, Scenario, FORMAT};

fn m<const R: usize, const C: usize>(rows: [[f64; C]; R]) -> Matrix {
    Matrix::from_fn(R, C, |r, c| rows[r][c])
}

/// Note `004`'s worked example (docs/figures.md F5): three inputs of width 4, the
/// three 4×3 projections of the note, one head, no scaling (the note applies
/// softmax to `QKᵀ` directly).
///
/// The note's keys are `[[0,1,1],[4,4,0],[2,3,1]]`, queries
/// `[[1,0,2],[2,2,2],[2,1,3]]`, values `[[1,2,3],[2,8,0],[2,6,3]]`, scores
/// `[[2,4,4],[4,16,12],[4,12,10]]`.
pub fn notes_004() -> Scenario {
    Scenario {
        format: FORMAT.to_string(),
        tokens: vec!["input 1".into(), "input 2".into(), "input 3".into()],
        x: m([[1., 0., 1., 0.], [0., 2., 0., 2.], [1., 1., 1., 1.]]),
        heads: vec![HeadWeights {
            w_q: m([[1., 0., 1.], [1., 0., 0.], [0., 0., 1.], [0., 1., 1.]]),
            w_k: m([[0., 0., 1.], [1., 1., 0.], [0., 1., 0.], [1., 1., 0.]]),
            w_v: m([[0., 2., 0.], [0., 3., 0.], [1., 0., 3.], [1., 1., 0.]]),
        }],
        w_o: None,
        scale: false,
        mask: Mask::None,
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}

/// The strength of a hand-set match in [`induction`]: a score of 5 against
/// 0 gives a weight of e⁵/(e⁵ + 4) ≈ 0.97 among five keys.
const MATCH: f64 = 5.0;

/// A two-layer circuit set by hand (an induction head, note 000 §3.2: the
/// second layer reads what the first wrote into each position). Tokens
/// `A B C D A`; each token is one-hot in dimensions 0–3 of x (A, B, C, D),
/// dimensions 4–7 are left empty for the first layer to write into, and
/// one-hot positions `eⁱ` are concatenated after (so the layers read 13
/// columns). Causal, as in a language model: no position sees a later one.
/// No scaling, so the numbers stay round.
///
/// - Layer 1, a previous-token head: the query of position i (its `eⁱ`)
///   matches the key of position i − 1, the value copies that token's
///   one-hot, and W_O writes it into dimensions 4–7. With the residual,
///   each position now holds its own token and the one before it. The
///   first position has none before it: under the mask it can only look
///   at itself, so what it writes is its own token, not a previous one.
/// - Layer 2, an induction head: the query of a position (its own token)
///   matches the keys of positions whose *previous* token is the same;
///   the value copies that position's own token. A fifth column keeps the
///   first position out: every query has MATCH there (W_Q reads it from
///   the position one-hots, one of which is 1 in every row) and the first
///   position's key has −1, so its score drops by MATCH. The last A finds
///   the position after the first A, which holds B: the output predicts B.
///
/// Without layer 1 nothing has been written into dimensions 4–7, every
/// score of layer 2 but the first position's is 0, and the last A's output
/// is an even mix.
pub fn induction() -> Scenario {
    let tokens = ["A", "B", "C", "D", "A"];
    let (n, d_model, vocab) = (tokens.len(), 8, 4);
    let d_in = d_model + n;
    let id = |t: &str| ["A", "B", "C", "D"].iter().position(|&v| v == t).unwrap();
    let x = Matrix::from_fn(n, d_model, |i, c| f64::from(c == id(tokens[i])));
    let pos = |i: usize| d_model + i; // the input column of position i's eⁱ
                                      // Layer 1: the previous-token head.
    let w_q1 = Matrix::from_fn(d_in, n, |r, c| if r == pos(c) { MATCH } else { 0.0 });
    let w_k1 = Matrix::from_fn(d_in, n, |r, c| f64::from(c > 0 && r == pos(c - 1)));
    let w_v1 = Matrix::from_fn(d_in, vocab, |r, c| f64::from(r == c));
    let w_o1 = Matrix::from_fn(vocab, d_in, |r, c| f64::from(c == vocab + r));
    // Layer 2: the induction head (its own token against the previous one),
    // and column `vocab`, which scores the first position down.
    let w_q2 = Matrix::from_fn(d_in, vocab + 1, |r, c| {
        if r == c || (c == vocab && r >= d_model) {
            MATCH
        } else {
            0.0
        }
    });
    let w_k2 = Matrix::from_fn(d_in, vocab + 1, |r, c| {
        if c == vocab {
            -f64::from(r == pos(0))
        } else {
            f64::from(r == vocab + c)
        }
    });
    let w_v2 = Matrix::from_fn(d_in, vocab, |r, c| f64::from(r == c));
    Scenario {
        format: FORMAT.to_string(),
        tokens: toks(&tokens),
        x,
        heads: vec![HeadWeights {
            w_q: w_q1,
            w_k: w_k1,
            w_v: w_v1,
        }],
        w_o: Some(w_o1),
        scale: false,
        mask: Mask::Causal,
        positional: Positional::OneHot,
        residual: true,
        stack: vec![attention::Layer {
            heads: vec![HeadWeights {
                w_q: w_q2,
                w_k: w_k2,
                w_v: w_v2,
            }],
            w_o: None,
            residual: false,
        }],
    }
}

/// Which preset (the page names them in both languages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Note `004`'s worked example.
    Notes004,
    /// Note `000` §3.1: two identical "saw" rows, different outputs once
    /// positions are added.
    ISawASaw,
    /// Note `000` §5.2: 我喜欢你 …
    ILoveYou,
    /// … and 你喜欢我: the same tokens in another order.
    YouLoveMe,
    /// Every query attends equally to every key (all scores equal).
    Uniform,
    /// Every query attends to itself.
    SelfAttend,
    /// Every query attends to the previous token (causal mask).
    PreviousToken,
    /// Two heads that attend visibly differently (note `000` §5.1, F2): one
    /// to the previous token, one to the first; causal mask, W_O.
    TwoHeads,
    /// Note `000` §3.2: two stacked layers set by hand, an induction
    /// circuit ([`induction`]).
    Induction,
    /// Seeded random numbers: 4 tokens, d_model 4, 2 heads, W_O.
    Random(u64),
    /// Note `000` §5.1's "8 heads × 64 = 512": 8 tokens, d_model 512, 8
    /// heads of d_k = d_v = 64 and a 512 × 512 W_O, seeded random numbers.
    Wide(u64),
}

impl Preset {
    /// The presets offered in the menu (Random with its default seed).
    pub const MENU: [Preset; 11] = [
        Preset::Notes004,
        Preset::TwoHeads,
        Preset::Induction,
        Preset::ISawASaw,
        Preset::ILoveYou,
        Preset::YouLoveMe,
        Preset::Uniform,
        Preset::SelfAttend,
        Preset::PreviousToken,
        Preset::Random(1),
        Preset::Wide(1),
    ];

    /// A stable id for menus and URLs.
    pub fn id(self) -> &'static str {
        match self {
            Preset::Notes004 => "notes-004",
            Preset::ISawASaw => "i-saw-a-saw",
            Preset::ILoveYou => "wo-xihuan-ni",
            Preset::YouLoveMe => "ni-xihuan-wo",
            Preset::Uniform => "uniform",
            Preset::SelfAttend => "self",
            Preset::PreviousToken => "previous-token",
            Preset::TwoHeads => "two-heads",
            Preset::Induction => "induction",
            Preset::Random(_) => "random",
            Preset::Wide(_) => "wide-512",
        }
    }

    /// The seed of a seeded preset.
    pub fn seed(self) -> Option<u64> {
        match self {
            Preset::Random(seed) | Preset::Wide(seed) => Some(seed),
            _ => None,
        }
    }

    /// The same preset with another seed (unseeded presets unchanged).
    pub fn with_seed(self, seed: u64) -> Preset {
        match self {
            Preset::Random(_) => Preset::Random(seed),
            Preset::Wide(_) => Preset::Wide(seed),
            p => p,
        }
    }

    /// The preset with this id (a seeded one takes `seed`).
    pub fn from_id(id: &str, seed: u64) -> Option<Preset> {
        Preset::MENU
            .iter()
            .map(|p| p.with_seed(seed))
            .find(|p| p.id() == id)
    }

    /// The scenario, its token labels in `lang` (note 004's "input 1" is
    /// "输入 1" on the Chinese page; sentences stay as they are).
    pub fn build_in(self, lang: Lang) -> Scenario {
        let mut s = self.build();
        if let (Preset::Notes004, Lang::Zh) = (self, lang) {
            s.tokens = (1..=s.n()).map(|i| format!("输入 {i}")).collect();
        }
        s
    }

    /// The scenario (English token labels).
    pub fn build(self) -> Scenario {
        match self {
            Preset::Notes004 => notes_004(),
            Preset::ISawASaw => i_saw_a_saw(),
            Preset::ILoveYou => i_love_you(false),
            Preset::YouLoveMe => i_love_you(true),
            Preset::Uniform => pattern(Pattern::Uniform),
            Preset::SelfAttend => pattern(Pattern::SelfAttend),
            Preset::PreviousToken => pattern(Pattern::Previous),
            Preset::TwoHeads => two_heads(),
            Preset::Induction => induction(),
            Preset::Random(seed) => random(
                seed,
                Dims {
                    n: 4,
                    d_model: 4,
                    d_k: 3,
                    d_v: 3,
                    heads: 2,
                },
                true,
            ),
            Preset::Wide(seed) => wide(seed),
        }
    }
}

fn toks(list: &[&str]) -> Vec<String> {
    list.iter().map(|t| t.to_string()).collect()
}

/// Two heads on one sentence (note `000` §5.1, F2): the tokens are one-hot,
/// so query i is row i of W_Q and key j is row j of W_K, and each head's
/// scores are `W_Q·W_Kᵀ`. Head 1 places query i and key i−1 at the same
/// angle (rows 3·(cos, sin) of iπ/2 and (j+1)π/2): score 9 for the previous
/// token, 0 or −9 for the others. Head 2 has one non-zero key, the first
/// token's: every query scores 9 against it. With the causal mask, head 1
/// attends to the previous token and head 2 to the first one.
pub fn two_heads() -> Scenario {
    let one_hot = m([
        [1., 0., 0., 0.],
        [0., 1., 0., 0.],
        [0., 0., 1., 0.],
        [0., 0., 0., 1.],
    ]);
    Scenario {
        format: FORMAT.to_string(),
        tokens: toks(&["The", "cat", "sat", "down"]),
        x: one_hot,
        heads: vec![
            HeadWeights {
                w_q: m([[3., 0.], [0., 3.], [-3., 0.], [0., -3.]]),
                w_k: m([[0., 3.], [-3., 0.], [0., -3.], [3., 0.]]),
                w_v: m([[1., 0.], [0., 1.], [1., 1.], [0., 2.]]),
            },
            HeadWeights {
                w_q: m([[3., 0.], [3., 0.], [3., 0.], [3., 0.]]),
                w_k: m([[3., 0.], [0., 0.], [0., 0.], [0., 0.]]),
                w_v: m([[2., 0.], [0., 1.], [1., 0.], [1., 1.]]),
            },
        ],
        w_o: Some(m([
            [1., 0., 0., 1.],
            [0., 1., 1., 0.],
            [1., 0., 1., 0.],
            [0., 1., 0., 1.],
        ])),
        scale: true,
        mask: Mask::Causal,
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}

/// "I saw a saw" (note `000` §3.1, docs/figures.md F13): rows 2 and 4 of X are the
/// same embedding. Attention alone would give them the same output; with
/// the sinusoidal positions added, their outputs differ.
pub fn i_saw_a_saw() -> Scenario {
    let base = notes_004();
    Scenario {
        tokens: toks(&["I", "saw", "a", "saw"]),
        x: m([
            [1., 0., 1., 0.],
            [0., 2., 0., 2.],
            [1., 1., 1., 1.],
            [0., 2., 0., 2.],
        ]),
        scale: true,
        positional: Positional::Sinusoidal,
        ..base
    }
}

/// "我喜欢你" or, reversed, "你喜欢我" (note `000` §5.2): the same embeddings
/// in another order. Without positional encoding each token's output is the
/// same in both sentences, only moved: attention alone does not see order.
pub fn i_love_you(reversed: bool) -> Scenario {
    let wo = [1., 0., 0., 1.];
    let xihuan = [0., 1., 1., 0.];
    let ni = [1., 1., 0., 0.];
    let (tokens, x) = if reversed {
        (toks(&["你", "喜欢", "我"]), m([ni, xihuan, wo]))
    } else {
        (toks(&["我", "喜欢", "你"]), m([wo, xihuan, ni]))
    };
    Scenario {
        tokens,
        x,
        scale: true,
        ..notes_004()
    }
}

enum Pattern {
    Uniform,
    SelfAttend,
    Previous,
}

/// Four one-hot tokens and projections chosen so the weights show a
/// pattern a learner should recognise.
fn pattern(p: Pattern) -> Scenario {
    let n = 4;
    let eye = Matrix::identity(n, n);
    let (w_q, w_k, mask) = match p {
        // Q = 0: every score is 0, so every weight is 1/n.
        Pattern::Uniform => (Matrix::zeros(n, n), &eye * 3.0, Mask::None),
        // q_i = k_i = 3e_i: score 9 with itself, 0 with the others.
        Pattern::SelfAttend => (&eye * 3.0, &eye * 3.0, Mask::None),
        // k_j = 3e_(j+1): q_i · k_(i−1) = 9; the causal mask keeps the
        // first token on itself.
        Pattern::Previous => (
            &eye * 3.0,
            Matrix::from_fn(n, n, |r, c| if c == r + 1 { 3.0 } else { 0.0 }),
            Mask::Causal,
        ),
    };
    Scenario {
        format: FORMAT.to_string(),
        tokens: toks(&["A", "B", "C", "D"]),
        x: eye.clone(),
        heads: vec![HeadWeights { w_q, w_k, w_v: eye }],
        w_o: None,
        scale: false,
        mask,
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}

/// The scenario a first visit opens on.
pub fn default_scenario() -> Scenario {
    notes_004()
}

/// The scenario a first visit opens on, labelled in `lang`.
pub fn default_scenario_in(lang: Lang) -> Scenario {
    Preset::Notes004.build_in(lang)
}

pub use attention::random::{scenario as random, Dims};

/// [`Preset::Wide`]: note 000's 8 heads × 64 = 512, numbers at the scale of a
/// trained layer rather than typed ones: inputs N(0, 1) (as after a layer
/// norm), W_Q, W_K, W_V of N(0, 1/d_model) and W_O of N(0, 1/(h·d_v)). Then
/// every q and k entry has variance about 1, a score q·k about d_k, and the
/// scaled score about 1: the softmax is not saturated, and each head's
/// weights differ visibly (with entries in [−1, 1] the scaled scores spread
/// over ±100 and every row is one-hot).
pub fn wide(seed: u64) -> Scenario {
    let d = WIDE_DIMS;
    let mut rng = attention::random::Rng::new(seed);
    let x = rng.normal_matrix(d.n, d.d_model, 1.0);
    let sd = 1.0 / (d.d_model as f64).sqrt();
    let heads = (0..d.heads)
        .map(|_| HeadWeights {
            w_q: rng.normal_matrix(d.d_model, d.d_k, sd),
            w_k: rng.normal_matrix(d.d_model, d.d_k, sd),
            w_v: rng.normal_matrix(d.d_model, d.d_v, sd),
        })
        .collect();
    let w_o = rng.normal_matrix(
        d.heads * d.d_v,
        d.d_model,
        1.0 / ((d.heads * d.d_v) as f64).sqrt(),
    );
    Scenario {
        format: FORMAT.to_string(),
        tokens: attention::default_tokens(d.n),
        x,
        heads,
        w_o: Some(w_o),
        scale: true,
        mask: Mask::None,
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
    }
}

/// The shape of [`Preset::Wide`]: note 000's 8 heads × 64 = 512.
pub const WIDE_DIMS: Dims = Dims {
    n: 8,
    d_model: 512,
    d_k: 64,
    d_v: 64,
    heads: 8,
};

/// The benchmark's shape: n = 64, d_model = 64, 8 heads of d_k = d_v = 8.
pub const BENCH_DIMS: Dims = Dims {
    n: 64,
    d_model: 64,
    d_k: 8,
    d_v: 8,
    heads: 8,
};

#[cfg(test)]
mod tests {
    use super::*;
    use attention::compute;

    #[test]
    fn every_preset_is_valid_and_found_by_id() {
        for p in Preset::MENU {
            let s = p.build();
            compute(&s).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            assert_eq!(Preset::from_id(p.id(), 1), Some(p));
        }
        assert_eq!(Preset::from_id("random", 77), Some(Preset::Random(77)));
        assert_eq!(Preset::from_id("wide-512", 5), Some(Preset::Wide(5)));
        assert_eq!(Preset::Wide(5).seed(), Some(5));
        assert_eq!(Preset::TwoHeads.with_seed(5), Preset::TwoHeads);
        assert_eq!(Preset::from_id("nope", 1), None);
    }

    #[test]
    fn the_two_saws_differ_only_with_positions() {
        let s = i_saw_a_saw();
        assert_eq!(s.x.row(1), s.x.row(3));
        let t = compute(&s).unwrap();
        assert!((t.output.row(1) - t.output.row(3)).abs().max() > 1e-3);
        let plain = Scenario {
            positional: Positional::None,
            ..s
        };
        let t = compute(&plain).unwrap();
        assert_eq!(t.output.row(1), t.output.row(3));
    }

    #[test]
    fn word_order_needs_positions() {
        let a = compute(&i_love_you(false)).unwrap();
        let b = compute(&i_love_you(true)).unwrap();
        // 我 is row 0 in one and row 2 in the other: same output, moved.
        assert_eq!(a.output.row(0), b.output.row(2));
        assert_eq!(a.output.row(1), b.output.row(1));
    }

    #[test]
    fn patterns_look_as_named() {
        let w = |p: Preset| compute(&p.build()).unwrap().heads[0].weights.clone();
        let u = w(Preset::Uniform);
        assert!(u.iter().all(|v| (v - 0.25).abs() < 1e-15));
        let d = w(Preset::SelfAttend);
        assert!((0..4).all(|i| d[(i, i)] > 0.99));
        let prev = w(Preset::PreviousToken);
        assert_eq!(prev[(0, 0)], 1.0);
        assert!((1..4).all(|i| prev[(i, i - 1)] > 0.99));
        assert!((0..4).all(|i| (i + 1..4).all(|j| prev[(i, j)] == 0.0)));
    }

    #[test]
    fn presets_are_valid() {
        notes_004().validate().unwrap();
        default_scenario().validate().unwrap();
        let r = random(1, BENCH_DIMS, true);
        r.validate().unwrap();
        assert_eq!(compute(&r).unwrap().output.shape(), (64, 64));
    }

    #[test]
    fn the_wide_preset_is_eight_heads_of_64_making_512() {
        let s = Preset::Wide(3).build();
        assert_eq!(
            (s.n(), s.d_model(), s.heads.len(), s.d_k(), s.d_v()),
            (8, 512, 8, 64, 64)
        );
        let t = compute(&s).unwrap();
        assert_eq!(t.concat.ncols(), 512);
        assert_eq!(t.output.shape(), (8, 512));
        assert_ne!(s, Preset::Wide(4).build(), "the seed changes the numbers");
        // Not saturated: scaled scores of about unit spread, so no row is
        // one-hot and the heads' largest weights differ.
        let mut largest = Vec::new();
        for h in &t.heads {
            let spread = h.scaled.iter().map(|v| v * v).sum::<f64>() / h.scaled.len() as f64;
            assert!(
                (0.2..5.0).contains(&spread),
                "mean square of scaled scores {spread}"
            );
            let top = h.weights.iter().cloned().fold(0.0, f64::max);
            assert!(top < 0.99, "a row is almost one-hot: {top}");
            largest.push(top);
        }
        largest.dedup();
        assert_eq!(largest.len(), 8, "each head its own pattern");
    }

    /// The hand-set induction circuit: with both layers the last A's
    /// output is B's one-hot (almost); without the first layer, or with
    /// the first layer alone, it is not.
    #[test]
    fn the_induction_circuit_needs_both_layers() {
        let s = induction();
        let stack = attention::compute_stack(&s).unwrap();
        let last = stack.output().row(4).iter().copied().collect::<Vec<f64>>();
        assert_eq!(last.len(), 4, "the output is a token (A, B, C, D)");
        assert!(last[1] > 0.9, "predicts B: {last:?}");
        assert!(
            last.iter().enumerate().all(|(k, &v)| k == 1 || v < 0.1),
            "{last:?}"
        );
        // Layer 1 is a previous-token head: each position i > 0 looks at i − 1.
        let w = &stack.layers[0].heads[0].weights;
        for i in 1..5 {
            assert!(w[(i, i - 1)] > 0.95, "position {i}: {:?}", w.row(i));
        }
        // Causal in both layers: no position gives a later one any weight.
        for layer in &stack.layers {
            let w = &layer.heads[0].weights;
            for i in 0..5 {
                for j in i + 1..5 {
                    assert_eq!(w[(i, j)], 0.0, "({i}, {j})");
                }
            }
        }
        // The last A looks at the position after the first A (B).
        let w2 = &stack.layers[1].heads[0].weights;
        assert!(w2[(4, 1)] > 0.95, "{:?}", w2.row(4));
        // Remove layer 1: layer 2 reads x (and the positions) directly.
        let mut without = s.clone();
        let second = without.stack.remove(0);
        without.heads = second.heads;
        without.w_o = second.w_o;
        without.residual = second.residual;
        let t = compute(&without).unwrap();
        let last = t.output.row(4).iter().copied().collect::<Vec<f64>>();
        assert!(
            last[1] < 0.5 && last.iter().all(|&v| v < 0.5),
            "no longer finds B: {last:?}"
        );
    }
}
