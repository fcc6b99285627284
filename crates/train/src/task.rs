//! The tasks: seeded sequences and which positions they ask the model to
//! predict (docs/training.md, "The tasks").
//!
//! A sample is `n` tokens (`0 … vocab−1`, shown as letters `A`, `B`, …)
//! and, per position, the token it should predict there or nothing. That
//! one shape holds each kind of output of note 000 §2 ([`Output`]): a label
//! per position, one label read from the last position, and an answer the
//! model writes one token at a time until `<EOS>`.

use crate::ModelReason;
use attention::random::Rng;
use attention::Mask;

/// Defines [`Task`] with its file word: the enum, [`Task::ALL`] and
/// [`Task::code`] come from the one list, so a task added to the enum is
/// in `ALL` and has a code by construction (docs/architecture.md, "Add a
/// training task", says where else it must go; each of those places is an
/// exhaustive `match`, so the compiler lists them).
macro_rules! tasks {
    ($($(#[$doc:meta])* $name:ident = $code:literal,)*) => {
        /// What the model is trained to do.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Task {
            $($(#[$doc])* $name,)*
        }

        impl Task {
            /// Every task, in the lab's order.
            pub const ALL: [Task; [$($code),*].len()] = [$(Task::$name),*];

            /// The file's word for it.
            pub fn code(self) -> &'static str {
                match self {
                    $(Task::$name => $code,)*
                }
            }
        }
    };
}

tasks! {
    /// Position i predicts token i − 1 (positions ≥ 1), causal mask: one
    /// layer learns a previous-token head.
    Previous = "previous",
    /// Position i predicts token n − 1 − i, no mask: only positions say
    /// where "the mirror position" is (note 000 §5.2).
    Reverse = "reverse",
    /// Filler, a block of m distinct tokens, filler, the block again from
    /// its token s (0 ≤ s ≤ m − 2) to its end, filler to length n; filler
    /// tokens are never the block's, so each token of the repeat has one
    /// earlier occurrence. Each position of the repeat but its last predicts
    /// the next token (the one after its earlier occurrence), causal mask.
    /// m, s and the filler lengths vary, so neither a fixed offset nor a
    /// fixed place solves it: two layers build a previous-token head, then
    /// an induction head.
    Induction = "induction",
    /// Sequence classification (note 000 §2.1): the label is the token that
    /// occurs most often (samples with a tie are drawn again), read from the
    /// last position, no mask.
    Majority = "majority",
    /// Sequence to sequence (note 000 §2.2): L distinct tokens
    /// (2 ≤ L ≤ (n − 2)/2), `<SEP>`, then the same tokens sorted and
    /// `<EOS>`, `<EOS>` to length n. From `<SEP>` on, each position predicts
    /// the next token (teacher forcing), causal mask; the answer's length is
    /// the input's by the task alone, and the model says where it ends by
    /// writing `<EOS>`. The last two ids of the vocabulary are `<SEP>` and
    /// `<EOS>`.
    Seq2seq = "seq2seq",
    /// Multi-label (note 000 §2): which letters occur in the input. (n − 2)/2
    /// letters drawn with repetition, `<SEP>`, then the letters that occur,
    /// each once in alphabetical order, `<EOS>`, `<EOS>` to length n; causal
    /// mask. Two read-outs ([`Readout`]): a sigmoid per letter read at
    /// `<SEP>` ([`Sample::labels`]), or the set written as a sequence ending
    /// in `<EOS>`, as `seq2seq` writes its answer ([`Sample::targets`]).
    Multilabel = "multilabel",
    /// Image classification (note 000 §2.1) of real handwritten digits
    /// (`crate::digits`): a class token `[CLS]`, then the 8×8 image's p×p
    /// patches row by row, no mask; the class token's row predicts the
    /// digit. The input is not tokens but the patches' pixels
    /// ([`Sample::image`], `Config::patch_features`).
    Digits = "digits",
}

/// How the `multilabel` task reads its answer out (note 000 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readout {
    /// An independent sigmoid per letter, from `<SEP>`'s logits of the
    /// letters (binary cross-entropy).
    Sigmoid,
    /// The set written after `<SEP>` one letter at a time, alphabetical,
    /// then `<EOS>` (cross-entropy at each position, as `seq2seq`).
    Sequence,
}

impl Readout {
    /// The model file's word for it.
    pub fn code(self) -> &'static str {
        match self {
            Readout::Sigmoid => "sigmoid",
            Readout::Sequence => "sequence",
        }
    }

    /// The read-out named `code`, if any.
    pub fn from_code(code: &str) -> Option<Readout> {
        [Readout::Sigmoid, Readout::Sequence]
            .into_iter()
            .find(|r| r.code() == code)
    }
}

/// The kind of output a task has (note 000 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// One label per position (§2.1, sequence labeling).
    Labeling,
    /// One label for the whole sequence (§2.1, classification).
    Classification,
    /// An answer of the model's own length, ended by `<EOS>` (§2.2).
    Sequence,
    /// A set of labels per sequence (§2), read by a [`Readout`].
    MultiLabel,
}

impl Task {
    /// The task named `code`, if any.
    pub fn from_code(code: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.code() == code)
    }

    /// The mask the task trains with: causal when a position must not see
    /// what it predicts (previous, induction, seq2seq), none otherwise.
    pub fn mask(self) -> Mask {
        match self {
            Task::Previous | Task::Induction | Task::Seq2seq | Task::Multilabel => Mask::Causal,
            Task::Reverse | Task::Majority | Task::Digits => Mask::None,
        }
    }

    /// The kind of output the task has (note 000 §2).
    pub fn output(self) -> Output {
        match self {
            Task::Previous | Task::Reverse | Task::Induction => Output::Labeling,
            Task::Majority | Task::Digits => Output::Classification,
            Task::Seq2seq => Output::Sequence,
            Task::Multilabel => Output::MultiLabel,
        }
    }

    /// The ids of `<SEP>` and `<EOS>` in a vocabulary of `vocab`, for the
    /// tasks that have them.
    pub fn specials(self, vocab: usize) -> Option<(usize, usize)> {
        matches!(self.output(), Output::Sequence | Output::MultiLabel)
            .then(|| (vocab - 2, vocab - 1))
    }

    /// Token `t`'s label: a letter, or `<SEP>` / `<EOS>`; for `digits`,
    /// whose ids are classes, the digit (`7`).
    pub fn label(self, vocab: usize, t: usize) -> String {
        if self == Task::Digits {
            return t.to_string();
        }
        match self.specials(vocab) {
            Some((sep, _)) if t == sep => "<SEP>".into(),
            Some((_, eos)) if t == eos => "<EOS>".into(),
            _ => token_label(t),
        }
    }

    /// Why `(vocab, n)` cannot make this task's samples, if so.
    pub fn check(self, vocab: usize, n: usize) -> Result<(), ModelReason> {
        let need_n = match self {
            Task::Induction => 8,
            Task::Seq2seq | Task::Multilabel => 6,
            _ => 2,
        };
        if n < need_n {
            return Err(ModelReason::TaskNeedsN {
                task: self,
                need: need_n,
                got: n,
            });
        }
        // A block of up to n/2 − 1 distinct tokens and one more for the
        // filler.
        if self == Task::Induction && vocab < n / 2 {
            return Err(ModelReason::InductionVocab {
                need: n / 2,
                got: vocab,
            });
        }
        // (n − 2)/2 distinct tokens, `<SEP>` and `<EOS>`.
        let need = seq2seq_longest(n) + 2;
        if self == Task::Seq2seq && vocab < need {
            return Err(ModelReason::SequenceVocab { need, got: vocab });
        }
        // At least one letter besides `<SEP>` and `<EOS>`.
        if self == Task::Multilabel && vocab < 3 {
            return Err(ModelReason::SequenceVocab {
                need: 3,
                got: vocab,
            });
        }
        Ok(())
    }

    /// One sample of length `n` from `rng` (the same draws on every machine).
    /// For `digits`, a training image of the installed data
    /// ([`crate::digits::install`]) drawn uniformly; with none installed
    /// (a digits model is refused then), a sample without an image that
    /// predicts nothing.
    pub fn sample(self, vocab: usize, n: usize, rng: &mut Rng) -> Sample {
        let token = |rng: &mut Rng| (rng.next_u64() % vocab as u64) as usize;
        let mut targets = vec![None; n];
        let mut labels = None;
        let tokens = match self {
            Task::Previous | Task::Reverse => {
                let tokens: Vec<usize> = (0..n).map(|_| token(rng)).collect();
                for (i, t) in targets.iter_mut().enumerate() {
                    *t = match self {
                        Task::Previous => i.checked_sub(1).map(|j| tokens[j]),
                        _ => Some(tokens[n - 1 - i]),
                    };
                }
                tokens
            }
            Task::Induction => {
                let (lo, hi) = induction_lengths(n);
                let m = lo + below(rng, hi - lo + 1);
                // The block: m distinct tokens (a partial Fisher–Yates
                // shuffle); the filler uses the other pool[m..] only.
                let mut pool: Vec<usize> = (0..vocab).collect();
                for i in 0..m {
                    let j = i + below(rng, vocab - i);
                    pool.swap(i, j);
                }
                let s = below(rng, m - 1);
                let free = n - m - (m - s);
                let before = below(rng, free + 1);
                let between = below(rng, free - before + 1);
                let mut filler = |k: usize| -> Vec<usize> {
                    (0..k).map(|_| pool[m + below(rng, vocab - m)]).collect()
                };
                let mut tokens = filler(before);
                tokens.extend_from_slice(&pool[..m]);
                tokens.extend(filler(between));
                let resume = tokens.len();
                tokens.extend_from_slice(&pool[s..m]);
                for (i, t) in targets
                    .iter_mut()
                    .enumerate()
                    .take(tokens.len() - 1)
                    .skip(resume)
                {
                    *t = Some(tokens[i + 1]);
                }
                let rest = n - tokens.len();
                tokens.extend(filler(rest));
                tokens
            }
            Task::Seq2seq => {
                let (sep, eos) = self.specials(vocab).expect("seq2seq has <SEP> and <EOS>");
                // The letters are the ids below <SEP>.
                let content = sep;
                let l = 2 + below(rng, seq2seq_longest(n) - 1);
                let mut pool: Vec<usize> = (0..content).collect();
                for i in 0..l {
                    let j = i + below(rng, content - i);
                    pool.swap(i, j);
                }
                let mut tokens = pool[..l].to_vec();
                tokens.push(sep);
                // The same letters sorted (they are distinct ids below
                // `content`; a walk over the ids costs no sort's code).
                tokens.extend((0..content).filter(|t| pool[..l].contains(t)));
                tokens.resize(n, eos);
                for (i, t) in targets.iter_mut().enumerate().take(2 * l + 1).skip(l) {
                    *t = Some(tokens[i + 1]);
                }
                tokens
            }
            Task::Multilabel => {
                let (sep, eos) = self
                    .specials(vocab)
                    .expect("multilabel has <SEP> and <EOS>");
                let content = sep;
                let m = seq2seq_longest(n);
                let mut tokens: Vec<usize> = (0..m).map(|_| below(rng, content)).collect();
                let present: Vec<bool> = (0..content).map(|t| tokens.contains(&t)).collect();
                tokens.push(sep);
                tokens.extend((0..content).filter(|&t| present[t]));
                let end = tokens.len();
                tokens.resize(n, eos);
                for (i, t) in targets.iter_mut().enumerate().take(end).skip(m) {
                    *t = Some(tokens[i + 1]);
                }
                labels = Some(Labels { row: m, present });
                tokens
            }
            Task::Digits => {
                return match crate::digits::installed() {
                    Some(d) => {
                        let k = below(rng, d.training_len());
                        d.sample(crate::digits::Digits::training_index(k), n)
                            .expect("a training index is one of the images")
                    }
                    None => Sample {
                        tokens: (0..n).collect(),
                        targets,
                        labels: None,
                        image: None,
                    },
                };
            }
            Task::Majority => loop {
                let tokens: Vec<usize> = (0..n).map(|_| token(rng)).collect();
                if let Some(label) = majority(&tokens, vocab) {
                    targets[n - 1] = Some(label);
                    break tokens;
                }
            },
        };
        Sample {
            tokens,
            targets,
            labels,
            image: None,
        }
    }
}

/// The shortest and longest block m of an induction sample of length n:
/// m from max(3, n/2 − 3) to n/2 − 1 (n = 14: 4, 5 or 6).
pub fn induction_lengths(n: usize) -> (usize, usize) {
    let hi = n / 2 - 1;
    (hi.saturating_sub(2).max(3), hi)
}

/// The longest input of a `seq2seq` sample of length n: (n − 2)/2, so
/// that the input, `<SEP>`, the answer and `<EOS>` fit.
pub fn seq2seq_longest(n: usize) -> usize {
    n.saturating_sub(2) / 2
}

/// Uniform in `0 .. k` (k ≥ 1).
fn below(rng: &mut Rng, k: usize) -> usize {
    (rng.next_u64() % k as u64) as usize
}

/// The token occurring most often, `None` on a tie.
fn majority(tokens: &[usize], vocab: usize) -> Option<usize> {
    let mut count = vec![0usize; vocab];
    for &t in tokens {
        count[t] += 1;
    }
    let top = *count.iter().max()?;
    let mut at = count.iter().enumerate().filter(|(_, &c)| c == top);
    let (label, _) = at.next()?;
    at.next().is_none().then_some(label)
}

/// One sequence and what it should predict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Token ids, one per position.
    pub tokens: Vec<usize>,
    /// Per position, the token the model should predict there; `None` where
    /// the task predicts nothing (loss and accuracy skip it).
    pub targets: Vec<Option<usize>>,
    /// For `multilabel`, what its sigmoid read-out predicts.
    pub labels: Option<Labels>,
    /// For `digits`, the image (its tokens are then only the positions
    /// `0 … n − 1`: `[CLS]`, then the patches, `Config::sequence_labels`).
    pub image: Option<Image>,
}

/// A `digits` sample's image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Its line in the data file, 0-based (held out when `index % 6 == 5`,
    /// [`crate::digits::held_out`]).
    pub index: usize,
    /// 64 pixels 0 … 16, row by row.
    pub pixels: [u8; crate::digits::PIXELS],
}

/// A multi-label sample's labels: at position `row` (`<SEP>`), whether each
/// letter occurs in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    pub row: usize,
    pub present: Vec<bool>,
}

/// A token's label: `A`, `B`, … (the scenario's `tokens`).
pub fn token_label(t: usize) -> String {
    char::from(b'A' + (t % 26) as u8).to_string()
}
