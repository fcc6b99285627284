//! # The training lab's model
//!
//! A small attention-only model trained in f64 (docs/training.md), so a
//! learner can watch heads learn:
//!
//! ```text
//! X_1 = E[tokens] + P                       n × d_model (embeddings are learned, note 000 §1)
//!     = F·E + P                             for `digits`: F holds [CLS] and the image's patches
//! X_{l+1} = X_l + concat_r(head_r(X_l))·W_O  every layer, residual (note 000 §3.2, §5.1)
//! logits = X_L·W_U                          n × vocab
//! loss = mean cross-entropy over the positions the task predicts
//! ```
//!
//! The attention is the engine's: [`Model::scenario`] writes the model and
//! a sample as an `attention::Scenario` and [`attention::compute_stack`]
//! computes every head; the backward pass ([`backward`]) reads its traces.
//! Training is parallel (note 000 §6.2): one pass gives every position's
//! loss. Decoding is step by step ([`Model::decode`]).
//!
//! Everything is deterministic from the seed: the same seed gives the same
//! bits (the engine's products sum left to right; the random numbers are
//! the engine's SplitMix64).

pub mod backward;
pub mod digits;
mod file;
mod task;
mod wording;

pub use digits::{Digits, DigitsError, DigitsProblem};
pub use file::{ModelError, ModelReason, FORMAT, MAX_WEIGHT};
pub use task::{
    induction_lengths, seq2seq_longest, token_label, Image, Labels, Output, Readout, Sample, Task,
};

use attention::random::Rng;
use attention::{
    compute_stack, matmul, HeadWeights, Layer, Matrix, Positional, Scenario, StackTrace,
};

/// How positions enter the model (note 000 §5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// An n × d_model matrix P, trained like the embeddings.
    Learned,
    /// The engine's fixed sinusoidal encoding (`attention::sinusoidal`).
    Sinusoidal,
    /// None: attention alone cannot tell order.
    None,
}

impl Positions {
    /// The file's word for it.
    pub fn code(self) -> &'static str {
        match self {
            Positions::Learned => "learned",
            Positions::Sinusoidal => "sinusoidal",
            Positions::None => "none",
        }
    }

    /// The positions named `code`, if any.
    pub fn from_code(code: &str) -> Option<Positions> {
        [Positions::Learned, Positions::Sinusoidal, Positions::None]
            .into_iter()
            .find(|p| p.code() == code)
    }
}

/// Largest vocabulary (tokens are the letters `A` … `Z`).
pub const MAX_VOCAB: usize = 26;
/// Longest sequence.
pub const MAX_N: usize = 32;
/// Widest residual stream and head.
pub const MAX_D: usize = 64;
/// Most layers.
pub const MAX_LAYERS: usize = 2;
/// Most heads per layer.
pub const MAX_HEADS: usize = 4;
/// Largest batch.
pub const MAX_BATCH: usize = 256;
/// Sequences in the fixed evaluation set.
pub const EVAL_SIZE: usize = 128;
/// The patch side `digits` uses unless told otherwise (and a model file
/// without `config.patch` means).
pub const DEFAULT_PATCH: usize = 4;
/// The patch sides `digits` accepts: they tile the 8×8 image.
pub const PATCHES: [usize; 2] = [2, 4];
/// The class token's label, position 0 of a `digits` sequence.
pub const CLS: &str = "[CLS]";

/// The sequence length of `digits` with patch side `patch`: the class
/// token and (8/p)² patches (17 for p = 2, 5 for p = 4); `None` for a side
/// that is not one of [`PATCHES`].
pub fn patch_positions(patch: usize) -> Option<usize> {
    PATCHES
        .contains(&patch)
        .then(|| (digits::SIDE / patch).pow(2) + 1)
}

/// A head whose previous-token or induction score reaches this is labelled
/// so ([`HeadScore::kind`]): more than half its attention, on average, goes
/// where that kind of head looks.
pub const SCORE_THRESHOLD: f64 = 0.5;

/// Everything that decides a model, with the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub task: Task,
    /// Number of token ids, `2 ..= 26` (for `digits`, the 10 classes).
    pub vocab: usize,
    /// Sequence length.
    pub n: usize,
    pub d_model: usize,
    /// 1 or 2.
    pub layers: usize,
    /// Heads per layer, 1 ..= 4.
    pub heads: usize,
    /// d_k = d_v of every head (d_model / heads by default).
    pub d_head: usize,
    pub positions: Positions,
    /// Sequences per Adam step.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f64,
    pub seed: u64,
    /// How `multilabel` reads its answer out (the other tasks ignore it).
    pub readout: Readout,
    /// For `digits`, the side p of the image's square patches, 2 or 4
    /// ([`PATCHES`]); n is then (8/p)² + 1 and E is (p² + 1) × d_model. The
    /// other tasks ignore it.
    pub patch: usize,
}

impl Config {
    /// The lab's default for `task` (docs/training.md lists them with the
    /// steps each needs).
    pub fn new(task: Task, seed: u64) -> Config {
        // Induction: two heads a layer and bigger batches (its samples
        // predict only the repeat, 1 … 4 positions each). Digits: a head
        // per patch, so that [CLS] can read the whole image, a wider
        // stream and bigger batches (one prediction per image;
        // docs/training.md, "Measured").
        let (vocab, n, d_model, layers, heads, batch) = match task {
            Task::Previous => (8, 8, 16, 1, 1, 32),
            Task::Reverse => (8, 8, 16, 1, 1, 32),
            Task::Induction => (10, 14, 16, 2, 2, 64),
            Task::Majority => (4, 9, 16, 1, 1, 32),
            Task::Seq2seq => (10, 12, 16, 1, 1, 32),
            Task::Multilabel => (8, 12, 16, 1, 1, 32),
            Task::Digits => {
                let n = (digits::SIDE / DEFAULT_PATCH).pow(2) + 1;
                (digits::CLASSES, n, 32, 1, 4, 64)
            }
        };
        Config {
            task,
            vocab,
            n,
            d_model,
            layers,
            heads,
            d_head: d_model / heads,
            positions: Positions::Learned,
            batch,
            lr: 1e-2,
            seed,
            readout: Readout::Sigmoid,
            patch: DEFAULT_PATCH,
        }
    }

    /// The config with patch side `patch` and, for `digits`, the sequence
    /// length it gives ([`patch_positions`]; unchanged for a side that is
    /// not one of [`PATCHES`], which `validate` refuses).
    pub fn with_patch(mut self, patch: usize) -> Config {
        self.patch = patch;
        if let (Task::Digits, Some(n)) = (self.task, patch_positions(patch)) {
            self.n = n;
        }
        self
    }

    /// Rows of E: the vocabulary, or for `digits` the p² pixels of a patch
    /// and the class token's own input.
    pub fn embedding_rows(&self) -> usize {
        match self.task {
            Task::Digits => self.patch * self.patch + 1,
            _ => self.vocab,
        }
    }

    /// The labels of `sample`'s positions, as the lab and the scenario show
    /// the sequence: its tokens' labels ([`Config::label`]), or for
    /// `digits` `[CLS]` then the patches `P1`, `P2`, … row by row.
    pub fn sequence_labels(&self, sample: &Sample) -> Vec<String> {
        match self.task {
            Task::Digits => (0..patch_positions(self.patch).unwrap_or(sample.tokens.len()))
                .map(|i| match i {
                    0 => CLS.to_string(),
                    i => format!("P{i}"),
                })
                .collect(),
            _ => sample.tokens.iter().map(|&t| self.label(t)).collect(),
        }
    }

    /// For `digits`, F (n × (p² + 1)), the input rows that multiply E:
    /// row 0, the class token, is the unit vector e_{p²}; row i ≥ 1 is
    /// patch i's p² pixels / 16, row by row within the patch, then 0.
    /// Patch i (1-based) is the ((i − 1) / (8/p))-th row of patches and
    /// the ((i − 1) % (8/p))-th column. A sample without an image reads as
    /// a blank one. `None` for the other tasks and for a side not in
    /// [`PATCHES`].
    pub fn patch_features(&self, sample: &Sample) -> Option<Matrix> {
        let n = patch_positions(self.patch).filter(|_| self.task == Task::Digits)?;
        let (p, per_row) = (self.patch, digits::SIDE / self.patch);
        let blank = [0; digits::PIXELS];
        let pixels = sample.image.as_ref().map_or(&blank, |im| &im.pixels);
        Some(Matrix::from_fn(n, p * p + 1, |i, k| match (i, k) {
            (0, k) => f64::from(u8::from(k == p * p)),
            (_, k) if k == p * p => 0.0,
            (i, k) => {
                let (row, col) = ((i - 1) / per_row * p + k / p, (i - 1) % per_row * p + k % p);
                f64::from(pixels[row * digits::SIDE + col]) / f64::from(digits::MAX_PIXEL)
            }
        }))
    }

    /// Token `t`'s label on the page and in the scenario: a letter, or
    /// `<SEP>` / `<EOS>` for the tasks that have them.
    pub fn label(&self, t: usize) -> String {
        self.task.label(self.vocab, t)
    }

    /// Tokens' labels separated by single spaces (`A C <EOS>`), as the lab
    /// writes a sequence in words and in its attributes.
    pub fn words(&self, tokens: &[usize]) -> String {
        tokens
            .iter()
            .map(|&t| self.label(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The config with `heads` heads of width d_model / heads.
    pub fn with_heads(mut self, heads: usize) -> Config {
        self.heads = heads;
        self.d_head = (self.d_model / heads.max(1)).max(1);
        self
    }

    /// The first problem, naming the field (`config.heads`).
    pub fn validate(&self) -> Result<(), ModelError> {
        let range = |field: &str, v: usize, lo: usize, hi: usize| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(ModelError::new(
                    format!("config.{field}"),
                    ModelReason::Range { lo, hi, got: v },
                ))
            }
        };
        range("vocab", self.vocab, 2, MAX_VOCAB)?;
        range("n", self.n, 2, MAX_N)?;
        range("d_model", self.d_model, 1, MAX_D)?;
        range("layers", self.layers, 1, MAX_LAYERS)?;
        range("heads", self.heads, 1, MAX_HEADS)?;
        range("d_head", self.d_head, 1, MAX_D)?;
        range("batch", self.batch, 1, MAX_BATCH)?;
        if self.task == Task::Digits {
            let need = patch_positions(self.patch)
                .ok_or_else(|| ModelError::new("config.patch", ModelReason::Patch(self.patch)))?;
            if self.vocab != digits::CLASSES {
                return Err(ModelError::new(
                    "config.vocab",
                    ModelReason::DigitsClasses(self.vocab),
                ));
            }
            if self.n != need {
                return Err(ModelError::new(
                    "config.n",
                    ModelReason::PatchPositions {
                        patch: self.patch,
                        need,
                        got: self.n,
                    },
                ));
            }
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return Err(ModelError::new(
                "config.lr",
                ModelReason::PositiveLr(self.lr),
            ));
        }
        self.task
            .check(self.vocab, self.n)
            .map_err(|e| ModelError::new("config.task", e))
    }
}

/// One layer's weights: its heads' projections (each d_model × d_head) and
/// W_O (heads·d_head × d_model).
#[derive(Clone, Debug, PartialEq)]
pub struct LayerParams {
    pub heads: Vec<HeadWeights>,
    pub w_o: Matrix,
}

/// Every trained matrix (also the shape of gradients and Adam's moments).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// E, vocab × d_model (for `digits`, (p² + 1) × d_model:
    /// [`Config::embedding_rows`]).
    pub embedding: Matrix,
    /// P, n × d_model, when positions are learned.
    pub positions: Option<Matrix>,
    pub layers: Vec<LayerParams>,
    /// W_U, d_model × vocab.
    pub unembedding: Matrix,
}

impl Params {
    /// Fresh weights: N(0, 1) for E and P (a token's vector and a
    /// position's have the same spread), N(0, 1/fan_in) for every product,
    /// drawn in the order of [`Params::named`].
    fn init(c: &Config, rng: &mut Rng) -> Params {
        let mut p = Params::zeros(c);
        let sd: Vec<f64> = p
            .named()
            .iter()
            .map(|(name, m)| {
                if name == "embedding" || name == "positions" {
                    1.0
                } else {
                    1.0 / (m.nrows() as f64).sqrt()
                }
            })
            .collect();
        for (m, sd) in p.matrices_mut().into_iter().zip(sd) {
            for r in 0..m.nrows() {
                for col in 0..m.ncols() {
                    m[(r, col)] = rng.normal() * sd;
                }
            }
        }
        p
    }

    /// Zeros of the shapes `c` asks for.
    pub fn zeros(c: &Config) -> Params {
        let z = Matrix::zeros;
        Params {
            embedding: z(c.embedding_rows(), c.d_model),
            positions: (c.positions == Positions::Learned).then(|| z(c.n, c.d_model)),
            layers: (0..c.layers)
                .map(|_| LayerParams {
                    heads: (0..c.heads)
                        .map(|_| HeadWeights {
                            w_q: z(c.d_model, c.d_head),
                            w_k: z(c.d_model, c.d_head),
                            w_v: z(c.d_model, c.d_head),
                        })
                        .collect(),
                    w_o: z(c.heads * c.d_head, c.d_model),
                })
                .collect(),
            unembedding: z(c.d_model, c.vocab),
        }
    }

    /// Every matrix with its name in the model file (`embedding`,
    /// `positions`, `layers[0].heads[1].w_q`, `layers[0].w_o`,
    /// `unembedding`), in one fixed order.
    pub fn named(&self) -> Vec<(String, &Matrix)> {
        let mut out = vec![("embedding".to_string(), &self.embedding)];
        if let Some(p) = &self.positions {
            out.push(("positions".into(), p));
        }
        for (l, layer) in self.layers.iter().enumerate() {
            for (r, h) in layer.heads.iter().enumerate() {
                for (w, m) in [("w_q", &h.w_q), ("w_k", &h.w_k), ("w_v", &h.w_v)] {
                    out.push((format!("layers[{l}].heads[{r}].{w}"), m));
                }
            }
            out.push((format!("layers[{l}].w_o"), &layer.w_o));
        }
        out.push(("unembedding".into(), &self.unembedding));
        out
    }

    /// Every matrix, mutable, in the order of [`Params::named`].
    pub fn matrices_mut(&mut self) -> Vec<&mut Matrix> {
        let mut out = vec![&mut self.embedding];
        out.extend(self.positions.as_mut());
        for layer in &mut self.layers {
            for h in &mut layer.heads {
                out.extend([&mut h.w_q, &mut h.w_k, &mut h.w_v]);
            }
            out.push(&mut layer.w_o);
        }
        out.push(&mut self.unembedding);
        out
    }
}

/// Adam's constants (Kingma & Ba's defaults for β₁, β₂, ε).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adam {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
}

impl Adam {
    /// β₁ = 0.9, β₂ = 0.999, ε = 1e-8.
    pub fn new(lr: f64) -> Adam {
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }

    /// Step `t` (1, 2, …) on one matrix, entry by entry:
    /// `m ← β₁m + (1−β₁)g`, `v ← β₂v + (1−β₂)g²`,
    /// `θ ← θ − lr · (m/(1−β₁ᵗ)) / (√(v/(1−β₂ᵗ)) + ε)`.
    pub fn update(&self, t: u64, theta: &mut Matrix, g: &Matrix, m: &mut Matrix, v: &mut Matrix) {
        let t = t.min(i32::MAX as u64) as i32;
        let (c1, c2) = (1.0 - self.beta1.powi(t), 1.0 - self.beta2.powi(t));
        for i in 0..theta.len() {
            m[i] = self.beta1 * m[i] + (1.0 - self.beta1) * g[i];
            v[i] = self.beta2 * v[i] + (1.0 - self.beta2) * g[i] * g[i];
            theta[i] -= self.lr * (m[i] / c1) / ((v[i] / c2).sqrt() + self.eps);
        }
    }
}

/// A parallel pass's answer: every position's logits at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// n × vocab.
    pub logits: Matrix,
    /// The argmax token at every position.
    pub next: Vec<usize>,
    /// Passes it took: 1 (note 000 §6.2, training is parallel).
    pub passes: usize,
}

/// Greedy decoding's answer ([`Model::decode`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The prompt followed by the generated tokens.
    pub tokens: Vec<usize>,
    /// The argmax at every position processed (position i's guess for i + 1).
    pub predictions: Vec<usize>,
    /// The logits of every position processed, one row each.
    pub logits: Vec<Vec<f64>>,
    /// Steps it took: one per position processed, each one query against
    /// the cached keys and values.
    pub steps: usize,
}

/// A sequence-to-sequence answer ([`Model::generate`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The input the answer is for.
    pub input: Vec<usize>,
    /// The tokens written after `<SEP>`, up to and with `<EOS>` if the
    /// model wrote it.
    pub answer: Vec<usize>,
    /// Whether the model stopped by writing `<EOS>` (not at the length
    /// limit).
    pub stopped: bool,
    /// The right answer: the task's, ending in `<EOS>`.
    pub expected: Vec<usize>,
}

impl Generated {
    /// Every token and the `<EOS>` in place.
    pub fn right(&self) -> bool {
        self.answer == self.expected
    }
}

/// What a head is, by its scores ([`SCORE_THRESHOLD`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadKind {
    PreviousToken,
    Induction,
}

impl HeadKind {
    /// Its name on the page.
    pub fn label(self) -> &'static str {
        match self {
            HeadKind::PreviousToken => "previous-token head",
            HeadKind::Induction => "induction head",
        }
    }
}

/// One head's scores on the evaluation sample.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadScore {
    pub layer: usize,
    pub head: usize,
    /// Mean weight of query i on key i − 1, over i ≥ 1.
    pub previous: f64,
    /// Mean weight of query i on key j + 1, where j < i − 1 is the latest
    /// earlier position holding query i's token, over the queries that have
    /// one; `None` when no token repeats that way.
    pub induction: Option<f64>,
    /// The kind whose score reaches [`SCORE_THRESHOLD`] (the larger if both).
    pub kind: Option<HeadKind>,
}

/// The model, its Adam state and its fixed evaluation set (for `digits`,
/// every held-out image).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub config: Config,
    pub params: Params,
    /// Adam's first and second moments, shaped like `params`.
    m: Params,
    v: Params,
    steps: u64,
    eval: Vec<Sample>,
}

/// Salts that separate the seed's random streams.
const EVAL_SALT: u64 = 0x6576_616C_7365_7421;
const BATCH_SALT: u64 = 0xD1B5_4A32_D192_ED03;

/// An independent stream for `(seed, salt)`.
fn stream(seed: u64, salt: u64) -> Rng {
    Rng::new(Rng::new(seed ^ salt).next_u64())
}

impl Model {
    /// A fresh model: weights from `Rng::new(seed)`, the evaluation set
    /// from its own stream (for `digits`, the held-out images: refused,
    /// [`ModelReason::NoDigits`], until [`digits::install`] has the data).
    pub fn new(config: Config) -> Result<Model, ModelError> {
        config.validate()?;
        let eval = match config.task {
            Task::Digits => {
                let d = digits::installed()
                    .ok_or_else(|| ModelError::new("config.task", ModelReason::NoDigits))?;
                d.held_out().filter_map(|i| d.sample(i, config.n)).collect()
            }
            _ => Self::eval_set_of(&config),
        };
        let params = Params::init(&config, &mut Rng::new(config.seed));
        let zeros = Params::zeros(&config);
        Ok(Model {
            eval,
            m: zeros.clone(),
            v: zeros,
            params,
            steps: 0,
            config,
        })
    }

    fn eval_set_of(c: &Config) -> Vec<Sample> {
        let mut rng = stream(c.seed, EVAL_SALT);
        (0..EVAL_SIZE)
            .map(|_| c.task.sample(c.vocab, c.n, &mut rng))
            .collect()
    }

    /// Adam steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// FNV-1a over the bits of every weight, in [`Params::named`] order:
    /// equal only when every weight is the same f64, so the same seed can
    /// be checked to give the same model natively and in WebAssembly.
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (_, m) in self.params.named() {
            for x in m.iter() {
                for b in x.to_bits().to_le_bytes() {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
        h
    }

    /// The fixed evaluation set: [`EVAL_SIZE`] samples from the seed, or
    /// for `digits` every held-out image in order.
    pub fn eval_set(&self) -> &[Sample] {
        &self.eval
    }

    /// The sequence the lab draws: the evaluation set's first (for
    /// `digits`, held-out image 0, the file's image 5).
    pub fn eval_sample(&self) -> &Sample {
        &self.eval[0]
    }

    /// The batch of Adam step `step` (0, 1, …): its own stream of the seed,
    /// so an imported model continues with the batches it would have seen.
    /// For `digits`, training images only (drawn with replacement).
    pub fn batch(&self, step: u64) -> Vec<Sample> {
        let c = &self.config;
        let mut rng = stream(c.seed, BATCH_SALT.wrapping_mul(step.wrapping_add(1)));
        (0..c.batch)
            .map(|_| c.task.sample(c.vocab, c.n, &mut rng))
            .collect()
    }

    /// The position part added to the embeddings, n × d_model (zeros when
    /// there is none).
    fn position_matrix(&self, n: usize) -> Matrix {
        let d = self.config.d_model;
        match (&self.params.positions, self.config.positions) {
            (Some(p), _) => p.rows(0, n).clone_owned(),
            (None, Positions::Sinusoidal) => attention::sinusoidal(n, d),
            _ => Matrix::zeros(n, d),
        }
    }

    /// `X_1`, n × d_model: `F·E + P` for `digits`
    /// ([`Config::patch_features`]), else `E[tokens] + P`.
    fn input(&self, s: &Sample) -> Matrix {
        match self.config.patch_features(s) {
            Some(f) => matmul(&f, &self.params.embedding) + self.position_matrix(f.nrows()),
            None => self.embed(&s.tokens),
        }
    }

    /// `X_1 = E[tokens] + P`, n × d_model.
    fn embed(&self, tokens: &[usize]) -> Matrix {
        let p = self.position_matrix(tokens.len());
        let e = &self.params.embedding;
        Matrix::from_fn(tokens.len(), self.config.d_model, |i, c| {
            e[(tokens[i], c)] + p[(i, c)]
        })
    }

    /// The model on `sample` as an engine scenario (docs/format.md §1b), the
    /// one "Open in the workbench" loads: `x` = X_1, the sample's token
    /// embeddings with the position embeddings already added (for
    /// `digits`, F·E + P), positional "none", every layer's heads and W_O
    /// with its residual on, scaling on, the task's mask, the positions'
    /// labels ([`Config::sequence_labels`]: the tokens' letters, or `[CLS]`
    /// and the patches).
    pub fn scenario(&self, sample: &Sample) -> Scenario {
        self.scenario_of(self.config.sequence_labels(sample), self.input(sample))
    }

    fn scenario_of(&self, tokens: Vec<String>, x: Matrix) -> Scenario {
        let mut layers = self.params.layers.iter().map(|l| Layer {
            heads: l.heads.clone(),
            w_o: Some(l.w_o.clone()),
            residual: true,
        });
        let first = layers.next().expect("a model has a layer");
        Scenario {
            format: attention::FORMAT.into(),
            tokens,
            x,
            heads: first.heads,
            w_o: first.w_o,
            scale: true,
            mask: self.config.task.mask(),
            positional: Positional::None,
            residual: true,
            stack: layers.collect(),
        }
    }

    /// The engine's trace of `s` and the logits `X_L·W_U`.
    fn forward(&self, s: &Sample) -> (StackTrace, Matrix) {
        self.run(&self.scenario(s))
    }

    fn run(&self, scenario: &Scenario) -> (StackTrace, Matrix) {
        let trace =
            compute_stack(scenario).expect("a model's scenario is valid and its numbers finite");
        let logits = matmul(trace.output(), &self.params.unembedding);
        (trace, logits)
    }

    /// Every position's logits in one pass. Refused (naming `tokens[i]`)
    /// when a token is not one of the vocabulary or there are more than n,
    /// and for `digits`, whose input is an image
    /// ([`ModelReason::ImageInput`]; [`Model::predict_sample`] takes one).
    pub fn predict(&self, tokens: &[usize]) -> Result<Prediction, ModelError> {
        self.check_tokens("tokens", tokens, 0)?;
        let labels = tokens.iter().map(|&t| self.config.label(t)).collect();
        let (_, logits) = self.run(&self.scenario_of(labels, self.embed(tokens)));
        Ok(Self::prediction(logits))
    }

    /// [`Model::predict`] of a sample, for every task: its tokens, or for
    /// `digits` its image (row 0 of the logits is `[CLS]`'s, the digit's
    /// scores). Refused like `predict` (naming `tokens[i]`), or for
    /// `digits` without an image (`image`) or with a pixel above 16
    /// (`image.pixels[i]`).
    pub fn predict_sample(&self, sample: &Sample) -> Result<Prediction, ModelError> {
        if self.config.task != Task::Digits {
            return self.predict(&sample.tokens);
        }
        let image = sample
            .image
            .as_ref()
            .ok_or_else(|| ModelError::new("image", ModelReason::Missing))?;
        let max = digits::MAX_PIXEL;
        if let Some(i) = image.pixels.iter().position(|&v| v > max) {
            return Err(ModelError::new(
                format!("image.pixels[{i}]"),
                ModelReason::Range {
                    lo: 0,
                    hi: usize::from(max),
                    got: usize::from(image.pixels[i]),
                },
            ));
        }
        Ok(Self::prediction(self.forward(sample).1))
    }

    fn prediction(logits: Matrix) -> Prediction {
        let next = (0..logits.nrows())
            .map(|i| backward::argmax(logits.row(i).iter().copied()))
            .collect();
        Prediction {
            logits,
            next,
            passes: 1,
        }
    }

    /// `Err` naming `field` unless `tokens` is 1 … n − `more` tokens of the
    /// vocabulary.
    fn check_tokens(&self, field: &str, tokens: &[usize], more: usize) -> Result<(), ModelError> {
        let c = &self.config;
        if c.task == Task::Digits {
            return Err(ModelError::new(field, ModelReason::ImageInput));
        }
        if tokens.is_empty() || tokens.len() + more > c.n {
            return Err(ModelError::new(
                field,
                ModelReason::TokenCount {
                    max: c.n,
                    with_steps: more > 0,
                    got: tokens.len() + more,
                },
            ));
        }
        match tokens.iter().position(|&t| t >= c.vocab) {
            Some(i) => Err(ModelError::new(
                format!("{field}[{i}]"),
                ModelReason::NotAToken {
                    token: tokens[i],
                    vocab: c.vocab,
                },
            )),
            None => Ok(()),
        }
    }

    /// The mean loss over `batch`'s predicted positions, and its gradient
    /// for every parameter (shaped like [`Model::params`]).
    pub fn loss_and_grad(&self, batch: &[Sample]) -> (f64, Params) {
        let count: usize = batch.iter().map(|s| self.items(s)).sum();
        let per_row = 1.0 / count.max(1) as f64;
        let mut grads = Params::zeros(&self.config);
        let mut loss = 0.0;
        for s in batch {
            loss += self.backward_sample(s, per_row, &mut grads);
        }
        (loss * per_row, grads)
    }

    /// One sample's forward and backward pass, in the order of
    /// docs/training.md ("Backward"); adds its gradients to `g` and returns
    /// its summed loss.
    fn backward_sample(&self, s: &Sample, per_row: f64, g: &mut Params) -> f64 {
        use backward as b;
        let (trace, logits) = self.forward(s);
        let (loss, _, _, dz) = self.objective(s, &logits, per_row);
        let (dw_u, mut dx) = b::unembedding(trace.output(), &self.params.unembedding, &dz);
        g.unembedding += dw_u;
        for (l, t) in trace.layers.iter().enumerate().rev() {
            let (w, gl) = (&self.params.layers[l], &mut g.layers[l]);
            let da = b::residual(&dx);
            let (dw_o, dc) = b::output_projection(&t.concat, &w.w_o, &da);
            gl.w_o += dw_o;
            for (r, dh) in b::concat_split(&dc, w.heads.len()).iter().enumerate() {
                let (h, wh, gh) = (&t.heads[r], &w.heads[r], &mut gl.heads[r]);
                let (dweights, dv) = b::weighted_sum(&h.weights, &h.v, dh);
                let dscaled = b::softmax(&h.weights, &dweights);
                let dscores = b::scale(&dscaled, t.divisor);
                let (dq, dk) = b::scores(&h.q, &h.k, &dscores);
                for (wm, gm, d) in [
                    (&wh.w_q, &mut gh.w_q, &dq),
                    (&wh.w_k, &mut gh.w_k, &dk),
                    (&wh.w_v, &mut gh.w_v, &dv),
                ] {
                    let (dwm, dxm) = b::projection(&t.input, wm, d);
                    *gm += dwm;
                    dx += dxm;
                }
            }
        }
        match self.config.patch_features(s) {
            Some(f) => g.embedding += b::embedding_product(&f, &dx),
            None => b::embedding_gather(&s.tokens, &dx, &mut g.embedding),
        }
        if let Some(dp) = g.positions.as_mut() {
            *dp += &dx;
        }
        loss
    }

    /// What `s` asks of the model: the labels of the sigmoid read-out for
    /// `multilabel` read out by sigmoid, else the targets of its positions.
    fn labels<'a>(&self, s: &'a Sample) -> Option<&'a Labels> {
        (self.config.readout == Readout::Sigmoid)
            .then_some(s.labels.as_ref())
            .flatten()
    }

    /// How many predictions `s` counts: its labels or its targets.
    fn items(&self, s: &Sample) -> usize {
        match self.labels(s) {
            Some(l) => l.present.len(),
            None => s.targets.iter().flatten().count(),
        }
    }

    /// `s`'s loss on `logits` (summed), how many of its predictions are
    /// right, how many it has, and dZ scaled by `per_item`: binary
    /// cross-entropy of the sigmoid read-out, or cross-entropy
    /// ([`backward::binary_cross_entropy`], [`backward::cross_entropy`]).
    pub fn objective(
        &self,
        s: &Sample,
        logits: &Matrix,
        per_item: f64,
    ) -> (f64, usize, usize, Matrix) {
        match self.labels(s) {
            Some(l) => backward::binary_cross_entropy(logits, l.row, &l.present, per_item),
            None => backward::cross_entropy(logits, &s.targets, per_item),
        }
    }

    /// The sigmoid read-out on `s` (`multilabel`): each letter's
    /// probability of occurring, `σ` of `<SEP>`'s logit for it.
    pub fn label_probabilities(&self, s: &Sample) -> Option<Vec<f64>> {
        let l = s.labels.as_ref()?;
        let (_, logits) = self.forward(s);
        Some(
            (0..l.present.len())
                .map(|c| backward::sigmoid(logits[(l.row, c)]))
                .collect(),
        )
    }

    /// The mean loss over `batch` (forward only).
    pub fn loss(&self, batch: &[Sample]) -> f64 {
        self.loss_accuracy(batch).0
    }

    /// Mean loss and accuracy (the share of predicted positions whose argmax
    /// is the target) over `samples`.
    fn loss_accuracy(&self, samples: &[Sample]) -> (f64, f64) {
        let (mut loss, mut right, mut count) = (0.0, 0, 0);
        for s in samples {
            let (_, logits) = self.forward(s);
            let (l, r, c, _) = self.objective(s, &logits, 0.0);
            loss += l;
            right += r;
            count += c;
        }
        let count = count.max(1) as f64;
        (loss / count, right as f64 / count)
    }

    /// Loss and accuracy on the fixed evaluation set.
    pub fn evaluate(&self) -> (f64, f64) {
        self.loss_accuracy(&self.eval)
    }

    /// The share of the evaluation set's samples whose every predicted
    /// position is right (for `seq2seq`, whole answers with their `<EOS>`).
    /// From the parallel pass: with a causal mask, a sample right at every
    /// position under teacher forcing is exactly one that greedy
    /// generation writes right, since each step is then given the token
    /// it would have written itself (a native test checks both agree).
    pub fn whole_accuracy(&self) -> f64 {
        let right = self
            .eval
            .iter()
            .filter(|s| {
                let (_, logits) = self.forward(s);
                let (_, r, c, _) = self.objective(s, &logits, 0.0);
                r == c
            })
            .count();
        right as f64 / self.eval.len().max(1) as f64
    }

    /// A `seq2seq` sample's input (the tokens before `<SEP>`), its answer
    /// generated greedily one token at a time until `<EOS>` or the length
    /// n, and the right answer. `None` for the other tasks.
    pub fn generate(&self, sample: &Sample) -> Option<Generated> {
        let (sep, eos) = self.config.task.specials(self.config.vocab)?;
        let l = sample.tokens.iter().position(|&t| t == sep)?;
        let prompt = &sample.tokens[..=l];
        let d = self
            .decode_until(prompt, self.config.n - prompt.len(), Some(eos))
            .ok()?;
        let answer = d.tokens[prompt.len()..].to_vec();
        let end = sample.tokens[l..].iter().position(|&t| t == eos)?;
        Some(Generated {
            input: sample.tokens[..l].to_vec(),
            stopped: answer.last() == Some(&eos),
            answer,
            expected: sample.tokens[l + 1..=l + end].to_vec(),
        })
    }

    /// One Adam step on the next batch; returns the batch's loss before it.
    pub fn step(&mut self) -> f64 {
        let batch = self.batch(self.steps);
        let (loss, grads) = self.loss_and_grad(&batch);
        self.steps += 1;
        let adam = Adam::new(self.config.lr);
        let theta = self.params.matrices_mut();
        let ms = self.m.matrices_mut();
        let vs = self.v.matrices_mut();
        let gs = grads.named();
        for (((p, (_, g)), m), v) in theta.into_iter().zip(gs).zip(ms).zip(vs) {
            adam.update(self.steps, p, g, m, v);
        }
        loss
    }

    /// `steps` Adam steps; returns the last batch's loss.
    pub fn train(&mut self, steps: u64) -> f64 {
        (0..steps).fold(f64::NAN, |_, _| self.step())
    }

    /// The engine's trace of the evaluation sample (every layer's heads, Q,
    /// K, V, weights, outputs), as the workbench would compute it.
    pub fn eval_trace(&self) -> StackTrace {
        self.forward(self.eval_sample()).0
    }

    /// The evaluation sample's attention weights, `[layer][head]`, each n × n.
    pub fn eval_weights(&self) -> Vec<Vec<Matrix>> {
        self.eval_trace()
            .layers
            .into_iter()
            .map(|t| t.heads.into_iter().map(|h| h.weights).collect())
            .collect()
    }

    /// Every head's previous-token and induction scores on the evaluation
    /// sample, layer by layer.
    pub fn head_scores(&self) -> Vec<HeadScore> {
        let tokens = &self.eval_sample().tokens;
        let mut out = Vec::new();
        for (layer, heads) in self.eval_weights().iter().enumerate() {
            for (head, w) in heads.iter().enumerate() {
                let (previous, induction) = scores_of(tokens, w);
                let kind = match (previous >= SCORE_THRESHOLD, induction.unwrap_or(0.0)) {
                    (_, i) if i >= SCORE_THRESHOLD && i >= previous => Some(HeadKind::Induction),
                    (true, _) => Some(HeadKind::PreviousToken),
                    _ => None,
                };
                out.push(HeadScore {
                    layer,
                    head,
                    previous,
                    induction,
                    kind,
                });
            }
        }
        out
    }

    /// Greedy decoding (note 000 §6.2): the prompt, then `steps` tokens,
    /// each the argmax at the last position. One step per position: its
    /// query meets the keys and values of every earlier position, kept in a
    /// cache (per layer and head) instead of recomputed, so each step only
    /// computes one new row. Decoding attends causally whatever the task's
    /// mask (a decoder cannot see the future); for the causal tasks its
    /// logits equal the parallel pass's ([`Model::predict`]). Refused for
    /// `digits` ([`ModelReason::ImageInput`]): it has no tokens to write.
    pub fn decode(&self, prompt: &[usize], steps: usize) -> Result<Decoded, ModelError> {
        self.decode_until(prompt, steps, None)
    }

    /// [`Model::decode`], ending early once it writes `stop`.
    fn decode_until(
        &self,
        prompt: &[usize],
        steps: usize,
        stop: Option<usize>,
    ) -> Result<Decoded, ModelError> {
        self.check_tokens("prompt", prompt, steps)?;
        let c = &self.config;
        let p = self.position_matrix(c.n);
        let divisor = (c.d_head as f64).sqrt();
        // cache[l][r] = (keys, values), one row per position processed.
        let mut cache = vec![vec![(Vec::<Matrix>::new(), Vec::<Matrix>::new()); c.heads]; c.layers];
        let mut out = Decoded {
            tokens: prompt.to_vec(),
            predictions: Vec::new(),
            logits: Vec::new(),
            steps: 0,
        };
        let last = prompt.len() + steps.max(1) - 1;
        for i in 0..last {
            let tok = out.tokens[i];
            let mut x = Matrix::from_fn(1, c.d_model, |_, col| {
                self.params.embedding[(tok, col)] + p[(i, col)]
            });
            for (layer, kv) in self.params.layers.iter().zip(&mut cache) {
                let mut concat = Matrix::zeros(1, c.heads * c.d_head);
                for (r, (h, (keys, values))) in layer.heads.iter().zip(kv.iter_mut()).enumerate() {
                    let q = matmul(&x, &h.w_q);
                    keys.push(matmul(&x, &h.w_k));
                    values.push(matmul(&x, &h.w_v));
                    let s: Vec<f64> = keys.iter().map(|k| q.dot(k) / divisor).collect();
                    let max = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let e: Vec<f64> = s.iter().map(|v| attention_kernels::exp(v - max)).collect();
                    let sum: f64 = e.iter().sum();
                    for (w, v) in e.iter().zip(values.iter()) {
                        for col in 0..c.d_head {
                            concat[(0, r * c.d_head + col)] += w / sum * v[(0, col)];
                        }
                    }
                }
                x += matmul(&concat, &layer.w_o);
            }
            let logits = matmul(&x, &self.params.unembedding);
            let next = backward::argmax(logits.iter().copied());
            out.predictions.push(next);
            out.logits.push(logits.iter().copied().collect());
            out.steps += 1;
            if i + 1 == out.tokens.len() && out.tokens.len() < prompt.len() + steps {
                out.tokens.push(next);
                if Some(next) == stop {
                    break;
                }
            }
        }
        Ok(out)
    }
}

/// The previous-token and induction scores of one head's weights on
/// `tokens` ([`HeadScore`]).
fn scores_of(tokens: &[usize], w: &Matrix) -> (f64, Option<f64>) {
    let n = tokens.len();
    let previous = (1..n).map(|i| w[(i, i - 1)]).sum::<f64>() / (n - 1).max(1) as f64;
    let hits: Vec<f64> = (0..n)
        .filter_map(|i| {
            let j = (0..i.saturating_sub(1))
                .rev()
                .find(|&j| tokens[j] == tokens[i])?;
            Some(w[(i, j + 1)])
        })
        .collect();
    let induction = (!hits.is_empty()).then(|| hits.iter().sum::<f64>() / hits.len() as f64);
    (previous, induction)
}
