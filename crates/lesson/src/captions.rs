//! # What each step of the walkthrough says
//!
//! A caption is a typed key with its live numbers, never a sentence: the
//! page (`app::i18n`) words it in Chinese and English. The key depends on
//! everything that changes what is true about the step:
//!
//! - the **convention**: in the row layout the scores are `QKᵀ`, softmax runs
//!   along each *row* and the outputs are `A·V`; in the column layout of
//!   note 000 §4 they are `KᵀQ`, softmax runs down each *column* and
//!   `B = V·A`;
//! - **scaling**: without it there is no ÷√d_k anywhere (and no scale step);
//! - the **mask**: a hidden key's *score* becomes −∞, so its weight is 0 and
//!   the weights are non-negative rather than positive;
//! - the number of **heads** and whether there is a **W_O**: with one head
//!   and no W_O, the head's output *is* the output (nothing is concatenated).

use super::names::Convention;
use super::timeline::{Phase, Step};
use attention::{Positional, Trace};

/// Which projection a step computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proj {
    Q,
    K,
    V,
}

/// The caption of one step. Positions `i`, `j` are 0-based (shown 1-based).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Caption {
    /// The inputs, one vector per position, with the scenario's positional
    /// encoding (`None`; `Sinusoidal`: `X + PE`; `OneHot`: `[X | E]`).
    Inputs { pe: Positional, conv: Convention },
    /// `Q = X·W_Q` (row) / `Q = W^q X` (column), and K, V alike.
    /// `pe`: what the projections multiply, as [`projected`] names it
    /// (`X`, `(X + PE)`, or one-hot positions concatenated).
    Project {
        m: Proj,
        conv: Convention,
        pe: Positional,
    },
    /// One score `α_{i,j} = q^i·k^j` (column: `(k^j)ᵀ q^i`) and its value.
    Dot {
        i: usize,
        j: usize,
        conv: Convention,
        value: f64,
    },
    /// Query `i` against every key: row `i` of `QKᵀ` / column `i` of `KᵀQ`.
    ScoresRow { i: usize, conv: Convention },
    /// The whole score matrix `QKᵀ` / `KᵀQ`.
    ScoresAll { conv: Convention },
    /// ÷√d_k (only when scaling is on) of query `i`'s scores, or of all.
    Scale {
        i: Option<usize>,
        d_k: usize,
        divisor: f64,
    },
    /// The mask sets the hidden *scores* of query `i` (or of all) to −∞.
    Mask { i: Option<usize>, hidden: usize },
    /// Softmax over query `i`'s keys (or every row / column).
    Softmax {
        i: Option<usize>,
        conv: Convention,
        /// Some key of this query (of any query, for all) is hidden.
        masked: bool,
        /// Scaling is on (else the scores enter softmax as they are).
        scaled: bool,
    },
    /// `b^i = Σ_j α′_{i,j} v^j` (or `B = A·V` / `B = V·A` for all).
    /// `head`: head `r` (0-based) when each head's output has its own name,
    /// `b^{i,r}` in `Bʳ` (several heads, or a W_O after the head).
    WeightedSum {
        i: Option<usize>,
        conv: Convention,
        head: Option<usize>,
    },
    /// The head as one matrix formula.
    MatrixForm {
        conv: Convention,
        scaled: bool,
        masked: bool,
    },
    /// The heads' outputs side by side (row) / stacked (column).
    Concat { heads: usize, conv: Convention },
    /// `concat·W_O` / `W^O·concat`, or the concatenation itself without
    /// W_O, or (one head, no W_O) the head's output itself.
    Output {
        heads: usize,
        w_o: bool,
        conv: Convention,
    },
}

/// A caption and, when there are several heads, which head (0-based) of how many.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepCaption {
    pub head: Option<(usize, usize)>,
    pub caption: Caption,
}

/// The caption of `step` for `trace`, shown in `conv`, with or without W_O.
pub fn caption(step: &Step, trace: &Trace, conv: Convention, has_w_o: bool) -> StepCaption {
    let heads = trace.heads.len();
    let n = trace.n();
    let hidden = |i: usize| (0..n).filter(|&j| !trace.allowed[(i, j)]).count();
    let d_k = trace.heads.first().map_or(0, |h| h.q.ncols());
    let caption = match step.phase {
        Phase::Inputs => Caption::Inputs {
            pe: trace.positional,
            conv,
        },
        Phase::Query | Phase::Key | Phase::Value => Caption::Project {
            m: match step.phase {
                Phase::Query => Proj::Q,
                Phase::Key => Proj::K,
                _ => Proj::V,
            },
            conv,
            pe: trace.positional,
        },
        Phase::Scores {
            i: Some(i),
            j: Some(j),
        } => Caption::Dot {
            i,
            j,
            conv,
            value: step
                .head
                .and_then(|r| trace.heads.get(r))
                .map_or(f64::NAN, |h| h.scores[(i, j)]),
        },
        Phase::Scores { i: Some(i), .. } => Caption::ScoresRow { i, conv },
        Phase::Scores { .. } => Caption::ScoresAll { conv },
        Phase::Scale { i } => Caption::Scale {
            i,
            d_k,
            divisor: trace.divisor,
        },
        Phase::Mask { i } => Caption::Mask {
            i,
            hidden: i.map_or_else(|| (0..n).map(hidden).sum(), hidden),
        },
        Phase::Softmax { i } => Caption::Softmax {
            i,
            conv,
            masked: i.map_or(trace.masked, |i| hidden(i) > 0),
            scaled: trace.scale,
        },
        Phase::WeightedSum { i } => Caption::WeightedSum {
            i,
            conv,
            head: (heads > 1 || has_w_o).then_some(step.head.unwrap_or(0)),
        },
        Phase::MatrixForm => Caption::MatrixForm {
            conv,
            scaled: trace.scale,
            masked: trace.masked,
        },
        Phase::Concat => Caption::Concat { heads, conv },
        Phase::Output => Caption::Output {
            heads,
            w_o: has_w_o,
            conv,
        },
    };
    StepCaption {
        head: step.head.filter(|_| heads > 1).map(|r| (r, heads)),
        caption,
    }
}

/// What the projections multiply, as the stage and captions name it: `X`,
/// `X + PE` (sinusoidal, added) or `[X | E]` (one-hot `eⁱ` concatenated
/// after each `xⁱ`, note 001).
pub fn input_symbol(pe: Positional) -> &'static str {
    match pe {
        Positional::None => "X",
        Positional::Sinusoidal => "X + PE",
        Positional::OneHot => "[X | E]",
    }
}

/// What `W_Q`, `W_K`, `W_V` multiply in a caption's formula: `X`; with the
/// sinusoidal encoding `(X + PE)`; with one-hot positions `[X | E]` (row
/// layout, `eⁱ` after `aⁱ`) / `[X;E]` (column layout, `eⁱ` below `aⁱ`).
pub fn projected(conv: Convention, pe: Positional) -> &'static str {
    match (pe, conv) {
        (Positional::None, _) => "X",
        (Positional::Sinusoidal, _) => "(X + PE)",
        (Positional::OneHot, Convention::Row) => "[X | E]",
        (Positional::OneHot, Convention::Col) => "[X;E]",
    }
}

/// The formula a caption states, in plain text, as the notes write it
/// (note 000 §4 for the column layout, §8 and note 004 for the row layout).
/// The page shows it beside the sentence; the tests hold it to the notes.
pub fn plain_formula(c: &Caption) -> String {
    use Convention::{Col, Row};
    let up = |i: usize| super::timeline::sup(i + 1);
    match *c {
        Caption::Inputs {
            pe: Positional::OneHot,
            conv,
        } => projected(conv, Positional::OneHot).into(),
        Caption::Inputs { pe, .. } => input_symbol(pe).into(),
        Caption::Project { m, conv, pe } => {
            let (big, small) = match m {
                Proj::Q => ("Q", "q"),
                Proj::K => ("K", "k"),
                Proj::V => ("V", "v"),
            };
            let x = projected(conv, pe);
            match conv {
                Row => format!("{big} = {x}·W_{big}"),
                Col => format!("{big} = W^{small} {x}"),
            }
        }
        Caption::Dot { i, j, conv, .. } => match conv {
            Row => format!("α{},{} = q{}·k{}", i + 1, j + 1, up(i), up(j)),
            Col => format!("α{},{} = (k{})ᵀ q{}", i + 1, j + 1, up(j), up(i)),
        },
        Caption::ScoresRow { i, conv } => match conv {
            Row => format!("q{} Kᵀ", up(i)),
            Col => format!("Kᵀ q{}", up(i)),
        },
        Caption::ScoresAll { conv } => match conv {
            Row => "S = QKᵀ".into(),
            Col => "S = KᵀQ".into(),
        },
        Caption::Scale { .. } => "S / √d_k".into(),
        Caption::Mask { .. } => "s = −∞".into(),
        Caption::Softmax { conv, .. } => match conv {
            Row => "softmax_row".into(),
            Col => "softmax_col".into(),
        },
        Caption::WeightedSum {
            i: Some(i), head, ..
        } => {
            format!(
                "{} = Σ_j α′{},j v^j",
                super::notation::output_of(i, head),
                i + 1
            )
        }
        Caption::WeightedSum {
            i: None,
            conv,
            head,
        } => {
            let b = super::notation::output_matrix(head);
            match conv {
                Row => format!("{b} = A·V"),
                Col => format!("{b} = V·A"),
            }
        }
        Caption::MatrixForm { conv, scaled, .. } => match (conv, scaled) {
            (Row, true) => "softmax(QKᵀ/√d_k)V".into(),
            (Row, false) => "softmax(QKᵀ)V".into(),
            (Col, true) => "V softmax_col(KᵀQ/√d_k)".into(),
            (Col, false) => "V softmax_col(KᵀQ)".into(),
        },
        Caption::Concat { conv, .. } => match conv {
            Row => "[B¹ … Bʰ]".into(),
            Col => "[B¹; …; Bʰ]".into(),
        },
        Caption::Output {
            heads, w_o, conv, ..
        } => match (w_o, heads > 1, conv) {
            (true, _, Row) => "B = concat·W_O".into(),
            (true, _, Col) => "B = W^O concat".into(),
            (false, true, _) => "B = concat".into(),
            (false, false, _) => "B".into(),
        },
    }
}

/// Calls `f` for every step of every granularity of a small scenario under
/// every combination of convention × scaling × mask × heads × W_O (with the
/// positional encoding on for two heads), for the caption tests here and
/// in the app's string table (which words every caption).
#[doc(hidden)]
pub fn for_each_case(mut f: impl FnMut(&Step, &Trace, Convention, &attention::Scenario)) {
    use crate::edit::{apply, Edit};
    use crate::presets::{random, Dims};
    use crate::timeline::{Granularity, Timeline};
    use attention::{compute, Mask};
    let masks = [Mask::None, Mask::Causal, Mask::Padding(1), Mask::Window(1)];
    for conv in [Convention::Row, Convention::Col] {
        for scale in [false, true] {
            for mask in &masks {
                for heads in [1, 2] {
                    for w_o in [false, true] {
                        let d = Dims {
                            n: 3,
                            d_model: 4,
                            d_k: 2,
                            d_v: 2,
                            heads,
                        };
                        let mut s = random(5, d, w_o);
                        s.scale = scale;
                        s.mask = mask.clone();
                        // Two heads with sinusoidal positions, one head
                        // with W_O with one-hot positions.
                        if heads == 2 {
                            s.positional = Positional::Sinusoidal;
                        } else if w_o {
                            let one_hot = Edit::Positional(Positional::OneHot);
                            s = apply(&s, &one_hot, 5).expect("one-hot positions");
                        }
                        let t = compute(&s).expect("a valid scenario");
                        for g in Granularity::ALL {
                            for step in Timeline::new(&t, g, w_o).steps {
                                f(&step, &t, conv, &s);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of convention × scale × mask × heads × W_O, every
    /// granularity: each step's formula must be the one the notes write for
    /// it (this table is written from the notes, not from the code above).
    #[test]
    fn every_caption_states_the_notes_formula() {
        for_each_case(|step, t, conv, s| {
            check(step, t, conv, s.scale, s.heads.len(), s.w_o.is_some())
        });
    }

    fn check(step: &Step, t: &Trace, conv: Convention, scale: bool, heads: usize, w_o: bool) {
        let sc = caption(step, t, conv, w_o);
        let f = plain_formula(&sc.caption);
        let row = conv == Convention::Row;
        let ctx = format!("{step:?} {conv:?} scale={scale} heads={heads} w_o={w_o}: {f}");
        assert_eq!(sc.head.is_some(), heads > 1 && step.head.is_some(), "{ctx}");
        // The table of the notes, step by step.
        let expected: Option<&str> = match step.phase {
            Phase::Inputs => Some(match t.positional {
                Positional::None => "X",
                Positional::Sinusoidal => "X + PE",
                Positional::OneHot if row => "[X | E]",
                Positional::OneHot => "[X;E]",
            }),
            Phase::Query | Phase::Key | Phase::Value if t.positional == Positional::OneHot => {
                Some(match (step.phase, row) {
                    (Phase::Query, true) => "Q = [X | E]·W_Q",
                    (Phase::Query, false) => "Q = W^q [X;E]",
                    (Phase::Key, true) => "K = [X | E]·W_K",
                    (Phase::Key, false) => "K = W^k [X;E]",
                    (_, true) => "V = [X | E]·W_V",
                    (_, false) => "V = W^v [X;E]",
                })
            }
            // With the sinusoidal encoding the projections multiply X + PE
            // (note 000 §5.2: the encoding is added before projecting).
            Phase::Query | Phase::Key | Phase::Value if t.positional == Positional::Sinusoidal => {
                Some(match (step.phase, row) {
                    (Phase::Query, true) => "Q = (X + PE)·W_Q",
                    (Phase::Query, false) => "Q = W^q (X + PE)",
                    (Phase::Key, true) => "K = (X + PE)·W_K",
                    (Phase::Key, false) => "K = W^k (X + PE)",
                    (_, true) => "V = (X + PE)·W_V",
                    (_, false) => "V = W^v (X + PE)",
                })
            }
            Phase::Query => Some(if row { "Q = X·W_Q" } else { "Q = W^q X" }),
            Phase::Key => Some(if row { "K = X·W_K" } else { "K = W^k X" }),
            Phase::Value => Some(if row { "V = X·W_V" } else { "V = W^v X" }),
            Phase::Scores { i: None, .. } => Some(if row { "S = QKᵀ" } else { "S = KᵀQ" }),
            Phase::Scale { .. } => Some("S / √d_k"),
            Phase::Mask { .. } => Some("s = −∞"),
            Phase::Softmax { .. } => Some(if row { "softmax_row" } else { "softmax_col" }),
            Phase::WeightedSum { i: None } if heads > 1 || w_o => None,
            Phase::WeightedSum { i: None } => Some(if row { "B = A·V" } else { "B = V·A" }),
            Phase::MatrixForm => Some(match (row, scale) {
                (true, true) => "softmax(QKᵀ/√d_k)V",
                (true, false) => "softmax(QKᵀ)V",
                (false, true) => "V softmax_col(KᵀQ/√d_k)",
                (false, false) => "V softmax_col(KᵀQ)",
            }),
            Phase::Concat => Some(if row {
                "[B¹ … Bʰ]"
            } else {
                "[B¹; …; Bʰ]"
            }),
            Phase::Output => Some(match (w_o, heads > 1, row) {
                (true, _, true) => "B = concat·W_O",
                (true, _, false) => "B = W^O concat",
                (false, true, _) => "B = concat",
                (false, false, _) => "B",
            }),
            _ => None,
        };
        if let Some(e) = expected {
            assert_eq!(f, e, "{ctx}");
        }
        // Row-by-row steps: the query's own symbols, in the convention's order.
        match step.phase {
            Phase::Scores {
                i: Some(i),
                j: Some(j),
            } => {
                let (q, k) = (
                    super::super::timeline::sup(i + 1),
                    super::super::timeline::sup(j + 1),
                );
                let want = if row {
                    format!("q{q}·k{k}")
                } else {
                    format!("(k{k})ᵀ q{q}")
                };
                assert!(f.ends_with(&want), "{ctx}");
                let Caption::Dot { value, .. } = sc.caption else {
                    panic!("{ctx}")
                };
                assert_eq!(value, t.heads[step.head.unwrap()].scores[(i, j)]);
            }
            Phase::Scores { i: Some(_), .. } => {
                assert!(
                    if row {
                        f.ends_with("Kᵀ")
                    } else {
                        f.starts_with("Kᵀ")
                    },
                    "{ctx}"
                )
            }
            Phase::Scale { .. } => assert!(scale, "no ÷√d_k step without scaling: {ctx}"),
            Phase::Mask { i } => {
                let Caption::Mask { hidden, .. } = sc.caption else {
                    panic!("{ctx}")
                };
                let n = t.n();
                let rows: Vec<usize> = i.map_or((0..n).collect(), |i| vec![i]);
                let want = rows
                    .iter()
                    .map(|&i| (0..n).filter(|&j| !t.allowed[(i, j)]).count())
                    .sum::<usize>();
                assert!(hidden > 0 && hidden == want, "{ctx}");
            }
            Phase::Softmax { .. } => {
                let Caption::Softmax { scaled, .. } = sc.caption else {
                    panic!("{ctx}")
                };
                assert_eq!(scaled, scale, "{ctx}");
            }
            _ => {}
        }
        // Nothing mentions what the scenario does not do.
        if !scale {
            assert!(!f.contains('√'), "{ctx}");
        }
        if !w_o {
            assert!(!f.contains('O'), "{ctx}");
        }
        // One name for the output (note 000): B and bⁱ, per head Bʳ and
        // b^{i,r}; never O, H or Y.
        for other in ['O', 'H', 'Y', 'ᵒ', 'ʸ'] {
            assert!(
                !f.replace("W_O", "").replace("W^O", "").contains(other),
                "{ctx}"
            );
        }
        if let Phase::WeightedSum { i: None } = step.phase {
            if heads > 1 || w_o {
                let r = super::super::timeline::sup(step.head.unwrap() + 1);
                let want = if row {
                    format!("B{r} = A·V")
                } else {
                    format!("B{r} = V·A")
                };
                assert_eq!(f, want, "{ctx}");
            }
        }
        if let Phase::WeightedSum { i: Some(i) } = step.phase {
            let want = if heads > 1 || w_o {
                format!("b^{{{},{}}} =", i + 1, step.head.unwrap() + 1)
            } else {
                format!("b{} =", super::super::timeline::sup(i + 1))
            };
            assert!(f.starts_with(&want), "{ctx}");
        }
        if heads == 1 && !w_o {
            assert!(!f.contains("concat"), "{ctx}");
        }
    }
}
