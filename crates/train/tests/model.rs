#![cfg(not(target_arch = "wasm32"))]
//! The model's contract: every gradient against finite differences, Adam by
//! hand, the lessons really learn (fixed seeds, fixed step budgets), same
//! seed same bits, decoding agrees with the parallel pass, the model file.

mod common;

use proptest::prelude::*;
use train::*;

/// The shipped digits, for the gradient check's `digits` configs.
fn install_digits() {
    if digits::installed().is_none() {
        let text = include_str!("../../../data/digits/digits.txt");
        digits::install(Digits::parse(text).expect("the shipped digits"));
    }
}

/// Bits of every weight, for "same bits" comparisons.
fn bits(m: &Model) -> Vec<u64> {
    m.params
        .named()
        .iter()
        .flat_map(|(_, w)| w.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
        .collect()
}

/// Trains until the evaluation accuracy reaches `target` (checked every
/// `every` steps) or `max` steps; returns the steps taken and the accuracy.
fn train_to(m: &mut Model, target: f64, every: u64, max: u64) -> (u64, f64) {
    loop {
        let (_, acc) = m.evaluate();
        if acc >= target || m.steps() >= max {
            return (m.steps(), acc);
        }
        m.train(every);
    }
}

fn small_config() -> impl Strategy<Value = Config> {
    (
        0usize..Task::ALL.len(),
        (2usize..=4, 1usize..=2, 1usize..=2, 1usize..=3),
        (0usize..3, 2usize..=5, any::<u64>(), any::<bool>()),
    )
        .prop_map(
            |(task, (d_model, layers, heads, d_head), (pos, n, seed, sigmoid))| {
                let task = Task::ALL[task];
                let (vocab, n, patch) = match task {
                    Task::Induction => (5, 8, 4),
                    Task::Seq2seq | Task::Multilabel => (5, 6 + n % 2, 4),
                    // [CLS] and 4 patches of 4×4 pixels, or 16 of 2×2.
                    Task::Digits if n % 2 == 0 => (10, 5, 4),
                    Task::Digits => (10, 17, 2),
                    _ => (3 + n % 3, n, 4),
                };
                Config {
                    task,
                    vocab,
                    n,
                    d_model,
                    layers,
                    heads,
                    d_head,
                    positions: [Positions::Learned, Positions::Sinusoidal, Positions::None][pos],
                    batch: 2,
                    lr: 1e-2,
                    seed,
                    // Both losses: the sigmoid read-out's and cross-entropy.
                    readout: if sigmoid {
                        Readout::Sigmoid
                    } else {
                        Readout::Sequence
                    },
                    patch,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every entry of every parameter's gradient against the central
    /// difference `(L(θ + h) − L(θ − h)) / 2h`, h = 1e-5. Its truncation
    /// error is O(h²) ≈ 1e-10 and its rounding error ≈ 1e-16 / h ≈ 1e-11,
    /// so agreement within 1e-7 + 1e-5·|difference| leaves a wide margin
    /// while any wrong formula (a missing transpose, a lost residual term)
    /// is off by far more. Small random shapes, every task (for `digits`
    /// the product F·E, patch sides 4 and 2), 1–2 layers, 1–2 heads, each
    /// kind of positions; a few steps trained first, so the weights are not
    /// only the initial ones.
    #[test]
    fn every_gradient_matches_finite_differences(config in small_config()) {
        gradients_match(config).map_err(TestCaseError::fail)?;
    }
}

/// The check above for one config: `Err` names the first entry off.
fn gradients_match(config: Config) -> Result<(), String> {
    install_digits();
    let mut model = Model::new(config).unwrap();
    model.train(3);
    let batch = model.batch(1000);
    let (_, grads) = model.loss_and_grad(&batch);
    let h = 1e-5;
    let names: Vec<String> = grads.named().into_iter().map(|(n, _)| n).collect();
    for (k, name) in names.iter().enumerate() {
        let len = grads.named()[k].1.len();
        for e in 0..len {
            let at = |model: &mut Model, delta: f64| {
                model.params.matrices_mut()[k][e] += delta;
            };
            let mut plus = model.clone();
            at(&mut plus, h);
            let mut minus = model.clone();
            at(&mut minus, -h);
            let fd = (plus.loss(&batch) - minus.loss(&batch)) / (2.0 * h);
            let g = grads.named()[k].1[e];
            if (g - fd).abs() > 1e-7 + 1e-5 * fd.abs() {
                return Err(format!("{name}[{e}]: backward {g}, finite difference {fd}"));
            }
        }
    }
    Ok(())
}

/// `digits` every time (the property test draws each task now and then):
/// both patch sides, one and two layers, each kind of positions.
#[test]
fn digits_gradients_match_finite_differences() {
    for (patch, layers, heads, positions) in [
        (4, 1, 2, Positions::Learned),
        (2, 2, 1, Positions::Sinusoidal),
        (4, 2, 2, Positions::None),
    ] {
        let config = Config {
            d_model: 4,
            layers,
            batch: 2,
            positions,
            ..Config::new(Task::Digits, 7)
        }
        .with_heads(heads)
        .with_patch(patch);
        gradients_match(config).unwrap();
    }
}

/// One matrix θ = [1, −2], gradient g = [0.5, −0.1], lr 0.1, t = 1:
/// m = 0.1·g = [0.05, −0.01], v = 0.001·g² = [0.00025, 0.00001];
/// m̂ = m/(1 − 0.9) = [0.5, −0.1], v̂ = v/(1 − 0.999) = [0.25, 0.01],
/// √v̂ = [0.5, 0.1]; θ − 0.1·m̂/(√v̂ + 1e-8) = [1 − 0.05/0.50000001,
/// −2 + 0.01/0.10000001] = [0.900000002, −1.90000001] (to 9 digits).
/// The same gradient at t = 2: m = [0.095, −0.019], m̂ = m/0.19 = [0.5,
/// −0.1] and v̂ = 0.00049975/0.001999 = [0.25, 0.01] again: Adam's bias
/// correction makes a constant gradient move θ by lr a step.
#[test]
fn one_adam_step_by_hand() {
    let adam = Adam::new(0.1);
    let m1 = |a: f64, b: f64| attention::Matrix::from_row_slice(1, 2, &[a, b]);
    let (mut theta, g) = (m1(1.0, -2.0), m1(0.5, -0.1));
    let (mut m, mut v) = (m1(0.0, 0.0), m1(0.0, 0.0));
    adam.update(1, &mut theta, &g, &mut m, &mut v);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(m[0], 0.05) && close(m[1], -0.01), "{m}");
    assert!(close(v[0], 0.00025) && close(v[1], 0.00001), "{v}");
    assert!(close(theta[0], 1.0 - 0.05 / 0.50000001), "{theta}");
    assert!(close(theta[1], -2.0 + 0.01 / 0.10000001), "{theta}");
    assert!((theta[0] - 0.900000002).abs() < 1e-9 && (theta[1] + 1.90000001).abs() < 1e-9);
    adam.update(2, &mut theta, &g, &mut m, &mut v);
    assert!(close(m[0], 0.095) && close(m[1], -0.019), "{m}");
    assert!(close(theta[0], 1.0 - 2.0 * 0.05 / 0.50000001), "{theta}");
    assert!(close(theta[1], -2.0 + 2.0 * 0.01 / 0.10000001), "{theta}");
}

#[test]
fn previous_token_learns_and_is_a_previous_token_head() {
    let mut m = Model::new(Config::new(Task::Previous, 1)).unwrap();
    let (steps, acc) = train_to(&mut m, 0.99, 25, 300);
    assert!(acc >= 0.99, "previous: {acc} after {steps} steps");
    let scores = m.head_scores();
    assert_eq!(scores[0].kind, Some(HeadKind::PreviousToken), "{scores:?}");
    assert!(scores[0].previous > 0.9, "{scores:?}");
}

#[test]
fn induction_needs_two_layers() {
    let config = Config::new(Task::Induction, 5);
    let mut two = Model::new(config.clone()).unwrap();
    let (steps, acc) = train_to(&mut two, 0.9, 50, 800);
    assert!(acc >= 0.9, "induction, 2 layers: {acc} after {steps} steps");
    // Layer 2 has an induction head.
    let scores = two.head_scores();
    assert!(
        scores
            .iter()
            .any(|s| s.layer == 1 && s.kind == Some(HeadKind::Induction)),
        "{scores:?}"
    );
    // One layer, the same data and more steps: never above 0.5.
    let mut one = Model::new(Config {
        layers: 1,
        ..config
    })
    .unwrap();
    for _ in 0..6 {
        one.train(250);
        let (_, acc) = one.evaluate();
        assert!(
            acc <= 0.5,
            "induction, 1 layer: {acc} after {} steps",
            one.steps()
        );
    }
}

/// Without positions a model is order-blind: its prediction at a position
/// depends only on that position's token and the sequence's multiset of
/// tokens, so over all orders of the multiset it can do no better than
/// guessing, for a position holding a, the token b with the most other
/// copies: (c_b − [a = b]) / (n − 1) (n even: no position is its own
/// mirror). That bound, averaged over the evaluation set, is the chance
/// level here (uniform guessing would be 1/vocab = 0.125).
fn order_blind_chance(m: &Model) -> f64 {
    let c = &m.config;
    let mut total = 0.0;
    for s in m.eval_set() {
        let mut count = vec![0usize; c.vocab];
        for &t in &s.tokens {
            count[t] += 1;
        }
        for &a in &s.tokens {
            let best = (0..c.vocab)
                .map(|b| count[b] - usize::from(a == b))
                .max()
                .unwrap();
            total += best as f64 / (c.n - 1) as f64;
        }
    }
    total / (m.eval_set().len() * c.n) as f64
}

#[test]
fn reverse_needs_positions() {
    let config = Config::new(Task::Reverse, 1);
    let mut with = Model::new(config.clone()).unwrap();
    let (steps, acc) = train_to(&mut with, 0.99, 25, 400);
    assert!(
        acc >= 0.99,
        "reverse with positions: {acc} after {steps} steps"
    );
    let mut without = Model::new(Config {
        positions: Positions::None,
        ..config
    })
    .unwrap();
    without.train(1000);
    let (_, acc) = without.evaluate();
    let chance = order_blind_chance(&without);
    assert!((0.2..0.45).contains(&chance), "{chance}");
    assert!(
        acc <= chance + 0.03,
        "reverse without positions: {acc}, chance {chance}"
    );
}

#[test]
fn majority_learns() {
    let mut m = Model::new(Config::new(Task::Majority, 1)).unwrap();
    let (steps, acc) = train_to(&mut m, 0.95, 25, 400);
    assert!(acc >= 0.95, "majority: {acc} after {steps} steps");
}

/// Sorting as sequence to sequence: one layer learns to write whole answers
/// and stop at `<EOS>`; every answer generated greedily, one token at a
/// time, is right exactly when the parallel pass is right at every
/// position of its sample, and the answers stop for inputs of every length.
#[test]
fn seq2seq_learns_whole_answers_and_stops_at_eos() {
    let mut m = Model::new(Config::new(Task::Seq2seq, 1)).unwrap();
    let (sep, eos) = Task::Seq2seq.specials(m.config.vocab).unwrap();
    assert_eq!(m.config.label(sep), "<SEP>");
    assert_eq!(m.config.label(eos), "<EOS>");
    let mut steps = 0;
    while m.whole_accuracy() < 0.95 && steps < 600 {
        m.train(25);
        steps += 25;
    }
    let whole = m.whole_accuracy();
    assert!(whole >= 0.95, "seq2seq: {whole} after {steps} steps");
    let mut right = 0;
    let mut lengths = std::collections::BTreeSet::new();
    for s in m.eval_set() {
        let g = m.generate(s).unwrap();
        let p = m.predict(&s.tokens).unwrap();
        let parallel_right = s
            .targets
            .iter()
            .enumerate()
            .all(|(i, t)| t.is_none_or(|t| p.next[i] == t));
        assert_eq!(g.right(), parallel_right, "{s:?}");
        assert_eq!(*g.expected.last().unwrap(), eos);
        if g.right() {
            right += 1;
            assert!(g.stopped);
            lengths.insert(g.input.len());
        }
    }
    assert_eq!(right as f64 / m.eval_set().len() as f64, whole);
    assert!(
        lengths.len() >= 3,
        "right answers for input lengths {lengths:?}"
    );
    // Not a sequence task: nothing to generate.
    let other = Model::new(Config::new(Task::Previous, 1)).unwrap();
    assert!(other.generate(other.eval_sample()).is_none());
}

/// The fingerprint of `Config::new(Task::Induction, 7)` after 15 steps.
/// tests/kernels_web.rs checks the same number in WebAssembly (headless
/// Chromium): the same seed trains the same model, bit for bit, natively
/// and in the browser.
const INDUCTION_7_AFTER_15: u64 = 0x81ad_3995_8f9c_d181;

/// The same for `previous` with the sinusoidal positions, after 10 steps.
const PREVIOUS_SINUSOIDAL_3_AFTER_10: u64 = 0x4f4a_ff62_e969_39db;

#[test]
fn same_seed_same_fingerprint_everywhere() {
    let mut m = Model::new(Config::new(Task::Induction, 7)).unwrap();
    m.train(15);
    let f = m.fingerprint();
    assert_eq!(f, INDUCTION_7_AFTER_15, "{f:#x}");
    let mut c = Config::new(Task::Previous, 3);
    c.positions = Positions::Sinusoidal;
    let mut m = Model::new(c).unwrap();
    m.train(10);
    let f = m.fingerprint();
    assert_eq!(f, PREVIOUS_SINUSOIDAL_3_AFTER_10, "{f:#x}");
}

#[test]
fn same_seed_same_bits() {
    let run = || {
        let mut m = Model::new(Config::new(Task::Induction, 7)).unwrap();
        m.train(15);
        m
    };
    let (a, b) = (run(), run());
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a.to_json(), b.to_json());
    let mut c = Model::new(Config::new(Task::Induction, 8)).unwrap();
    c.train(15);
    assert_ne!(bits(&a), bits(&c));
}

#[test]
fn decoding_step_by_step_agrees_with_the_parallel_pass() {
    for (task, layers, train) in [
        (Task::Previous, 1, 100),
        (Task::Induction, 2, 0),
        (Task::Induction, 2, 60),
        (Task::Seq2seq, 1, 60),
        (Task::Multilabel, 1, 60),
    ] {
        let mut m = Model::new(Config {
            layers,
            ..Config::new(task, 3)
        })
        .unwrap();
        m.train(train);
        let n = m.config.n;
        let prompt = &m.eval_sample().tokens[..4];
        let d = m.decode(prompt, n - 4).unwrap();
        assert_eq!(d.tokens.len(), n);
        assert_eq!(&d.tokens[..4], prompt);
        // One step per position processed: the last token needs none.
        assert_eq!(d.steps, n - 1);
        let p = m.predict(&d.tokens).unwrap();
        assert_eq!(p.passes, 1);
        for (i, row) in d.logits.iter().enumerate() {
            for (c, x) in row.iter().enumerate() {
                assert!((x - p.logits[(i, c)]).abs() < 1e-9, "{task:?} position {i}");
            }
            assert_eq!(d.predictions[i], p.next[i]);
            // Each generated token is the argmax at the position before.
            if i + 1 >= 4 {
                assert_eq!(d.tokens[i + 1], p.next[i]);
            }
        }
    }
    let m = Model::new(Config::new(Task::Previous, 3)).unwrap();
    assert_eq!(m.decode(&[0, 1], 7).unwrap_err().field, "prompt");
    assert_eq!(m.decode(&[0, 9], 1).unwrap_err().field, "prompt[1]");
    assert_eq!(m.decode(&[0, 1], 0).unwrap().steps, 2);
    assert_eq!(m.predict(&[0; 9]).unwrap_err().field, "tokens");
    assert_eq!(
        m.predict(&[0, 8]).unwrap_err().to_string(),
        "tokens[1]: 8 is not a token of a vocabulary of 8"
    );
}

#[test]
fn the_model_file_round_trips_and_continues_bit_for_bit() {
    let mut a = Model::new(Config::new(Task::Induction, 11)).unwrap();
    a.train(12);
    let text = a.to_json();
    assert!(text.contains("\"format\":\"attention-lab-model/1\""));
    let mut b = Model::from_json(&text).unwrap();
    assert_eq!(b, a);
    assert_eq!(bits(&b), bits(&a));
    assert_eq!(b.evaluate().0.to_bits(), a.evaluate().0.to_bits());
    a.train(5);
    b.train(5);
    assert_eq!(b, a);
    assert_eq!(b.steps(), 17);
}

/// The read-out is part of the model file; a file without one (written
/// before the multi-label task) reads as sigmoid, an unknown one is refused.
#[test]
fn the_readout_round_trips() {
    for readout in [Readout::Sigmoid, Readout::Sequence] {
        let mut a = Model::new(Config {
            readout,
            ..Config::new(Task::Multilabel, 4)
        })
        .unwrap();
        a.train(3);
        let text = a.to_json();
        assert!(text.contains(&format!("\"readout\":\"{}\"", readout.code())));
        let b = Model::from_json(&text).unwrap();
        assert_eq!(b, a);
        assert_eq!(b.evaluate().0.to_bits(), a.evaluate().0.to_bits());
    }
    let a = Model::new(Config::new(Task::Previous, 4)).unwrap();
    let text = a.to_json().replace(",\"readout\":\"sigmoid\"", "");
    assert!(!text.contains("readout"));
    assert_eq!(Model::from_json(&text).unwrap(), a);
    let bad = a
        .to_json()
        .replace("\"readout\":\"sigmoid\"", "\"readout\":\"softmax\"");
    let e = Model::from_json(&bad).unwrap_err();
    assert_eq!(e.to_string(), "config.readout: unknown readout \"softmax\"");
}

/// Multi-label with an independent sigmoid per letter: one layer learns
/// which letters occur (per-label accuracy ≥ 0.9); with the sequence
/// read-out the same task writes the set, alphabetical, and ends in <EOS>.
#[test]
fn multilabel_learns_with_either_readout() {
    let mut m = Model::new(Config::new(Task::Multilabel, 1)).unwrap();
    assert_eq!(m.config.readout, Readout::Sigmoid);
    let (steps, acc) = train_to(&mut m, 0.95, 25, 800);
    assert!(acc >= 0.95, "sigmoid read-out: {acc} after {steps} steps");
    // The accuracy is per label: the share of (sample, letter) pairs whose
    // σ > 1/2 says rightly whether the letter occurs.
    let (mut right, mut count) = (0, 0);
    for s in m.eval_set() {
        let p = m.label_probabilities(s).unwrap();
        let l = s.labels.as_ref().unwrap();
        assert_eq!(p.len(), 6);
        for (c, &present) in l.present.iter().enumerate() {
            right += usize::from((p[c] > 0.5) == present);
            count += 1;
        }
    }
    assert_eq!(right as f64 / count as f64, acc);
    let mut m = Model::new(Config {
        readout: Readout::Sequence,
        ..Config::new(Task::Multilabel, 1)
    })
    .unwrap();
    let mut steps = 0;
    while m.whole_accuracy() < 0.9 && steps < 1500 {
        m.train(25);
        steps += 25;
    }
    assert!(
        m.whole_accuracy() >= 0.9,
        "sequence read-out: {} after {steps}",
        m.whole_accuracy()
    );
    let eos = m.config.vocab - 1;
    for s in m.eval_set() {
        let g = m.generate(s).unwrap();
        if g.right() {
            assert_eq!(g.answer.last(), Some(&eos));
        }
    }
}

#[test]
fn a_seed_beyond_two_to_the_53_reads_back_digit_for_digit() {
    for seed in [u64::MAX, (1 << 53) + 1] {
        let a = Model::new(Config::new(Task::Previous, seed)).unwrap();
        let text = a.to_json();
        assert!(text.contains(&format!("\"seed\":{seed},")), "{seed}");
        let b = Model::from_json(&text).unwrap();
        assert_eq!(b.config.seed, seed);
        assert_eq!(b, a);
    }
    // A seed written as a float or a negative number is refused.
    let text = Model::new(Config::new(Task::Previous, 3))
        .unwrap()
        .to_json();
    for bad in ["3.0", "-3", "3e0"] {
        let e = Model::from_json(&text.replace("\"seed\":3,", &format!("\"seed\":{bad},")))
            .unwrap_err();
        assert_eq!(e.field, "seed", "{bad}");
    }
}

#[test]
fn a_malformed_model_file_is_refused_naming_the_field() {
    let mut m = Model::new(Config::new(Task::Previous, 2)).unwrap();
    m.train(2);
    let good: serde_json::Value = serde_json::from_str(&m.to_json()).unwrap();
    let refuse = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut doc = good.clone();
        edit(&mut doc);
        Model::from_json(&doc.to_string()).unwrap_err()
    };
    assert_eq!(Model::from_json("{").unwrap_err().field, "");
    assert_eq!(
        refuse(&|d| d["format"] = "attention-lab/1".into()).field,
        "format"
    );
    assert_eq!(
        refuse(&|d| d["config"]["task"] = "sort".into()).to_string(),
        "config.task: unknown task \"sort\""
    );
    assert_eq!(
        refuse(&|d| d["config"]["heads"] = 9.into()).to_string(),
        "config.heads: expected 1 … 4, got 9"
    );
    assert_eq!(
        refuse(&|d| d["config"]["vocab"] = (-1).into()).field,
        "config.vocab"
    );
    assert_eq!(
        refuse(&|d| {
            d.as_object_mut().unwrap().remove("steps");
        })
        .field,
        "steps"
    );
    let e = refuse(&|d| {
        d["weights"]["layers[0].w_o"].as_array_mut().unwrap().pop();
    });
    assert_eq!(
        e.to_string(),
        "weights.layers[0].w_o: expected 16×16, got 15 rows"
    );
    assert_eq!(
        refuse(&|d| d["weights"]["unembedding"][2][3] = "x".into()).to_string(),
        "weights.unembedding[2][3]: expected a number from -1000000 to 1000000"
    );
    // Numbers the engine could overflow on, and a negative second moment.
    assert_eq!(
        refuse(&|d| d["weights"]["layers[0].heads[0].w_q"][0][0] = 1e300.into()).field,
        "weights.layers[0].heads[0].w_q[0][0]"
    );
    assert_eq!(
        refuse(&|d| d["adam"]["v"]["embedding"][1][2] = (-1e-9).into()).to_string(),
        "adam.v.embedding[1][2]: expected a number from 0 to 1000000"
    );
    assert_eq!(
        refuse(&|d| d["weights"]["embedding"][0] = serde_json::json!([1.0])).field,
        "weights.embedding[0]"
    );
    assert_eq!(
        refuse(&|d| {
            d["adam"]["v"].as_object_mut().unwrap().remove("positions");
        })
        .field,
        "adam.v.positions"
    );
}

#[test]
fn the_scenario_is_what_the_workbench_computes() {
    let mut m = Model::new(Config::new(Task::Induction, 4)).unwrap();
    m.train(5);
    let sample = m.eval_sample().clone();
    let s = m.scenario(&sample);
    assert_eq!(s.positional, attention::Positional::None);
    assert_eq!(s.mask, attention::Mask::Causal);
    assert!(s.residual && s.scale);
    assert_eq!(s.stack.len(), 1);
    assert!(s.stack[0].residual);
    assert_eq!(s.heads.len(), 2);
    let e = &m.params.embedding;
    let p = m.params.positions.as_ref().unwrap();
    assert_eq!(s.x[(3, 5)], e[(sample.tokens[3], 5)] + p[(3, 5)]);
    assert_eq!(s.tokens[0], token_label(sample.tokens[0]));
    // The file form reads back as the same scenario.
    assert_eq!(attention::Scenario::from_json(&s.to_json()).unwrap(), s);
    let trace = attention::compute_stack(&s).unwrap();
    assert_eq!(trace, m.eval_trace());
    let w = m.eval_weights();
    assert_eq!((w.len(), w[0].len()), (2, 2));
    assert_eq!(w[1][0], trace.layers[1].heads[0].weights);
}

#[test]
fn tasks_make_what_they_say() {
    let mut rng = attention::random::Rng::new(9);
    for _ in 0..200 {
        let s = Task::Induction.sample(8, 12, &mut rng);
        assert_eq!(s.tokens.len(), 12);
        for (i, t) in s.targets.iter().enumerate() {
            let Some(t) = *t else { continue };
            // The current token occurred exactly once before, followed by the target.
            let earlier: Vec<usize> = (0..i).filter(|&j| s.tokens[j] == s.tokens[i]).collect();
            assert_eq!(earlier.len(), 1, "{s:?}");
            assert_eq!(s.tokens[earlier[0] + 1], t, "{s:?}");
            assert_eq!(s.tokens[i + 1], t);
        }
        assert!(s.targets.iter().flatten().count() >= 1);
        let s = Task::Majority.sample(4, 9, &mut rng);
        let label = s.targets[8].unwrap();
        let count = |t: usize| s.tokens.iter().filter(|&&x| x == t).count();
        assert!((0..4).all(|t| t == label || count(t) < count(label)));
        let s = Task::Reverse.sample(8, 8, &mut rng);
        assert!((0..8).all(|i| s.targets[i] == Some(s.tokens[7 - i])));
        // Seq2seq: L distinct letters, <SEP> (8), them sorted, <EOS> (9),
        // <EOS> to n; from <SEP> to the answer's end each predicts the next.
        let s = Task::Seq2seq.sample(10, 12, &mut rng);
        let l = s.tokens.iter().position(|&t| t == 8).unwrap();
        assert!((2..=5).contains(&l), "{s:?}");
        let mut sorted = s.tokens[..l].to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), l, "distinct: {s:?}");
        assert_eq!(&s.tokens[l + 1..=2 * l], &sorted[..]);
        assert!(s.tokens[2 * l + 1..].iter().all(|&t| t == 9));
        for (i, t) in s.targets.iter().enumerate() {
            assert_eq!(*t, (l..=2 * l).contains(&i).then(|| s.tokens[i + 1]));
        }
    }
    // Multilabel: 5 letters of 6 with repetition, <SEP> (6), the letters
    // that occur, each once, alphabetical, <EOS> (7); the labels at <SEP>.
    for _ in 0..200 {
        let s = Task::Multilabel.sample(8, 12, &mut rng);
        assert_eq!(s.tokens[5], 6);
        let l = s.labels.as_ref().unwrap();
        assert_eq!(l.row, 5);
        let set: Vec<usize> = (0..6).filter(|&t| s.tokens[..5].contains(&t)).collect();
        assert_eq!(
            l.present,
            (0..6).map(|t| set.contains(&t)).collect::<Vec<_>>()
        );
        let k = set.len();
        assert_eq!(&s.tokens[6..6 + k], &set[..]);
        assert!(s.tokens[6 + k..].iter().all(|&t| t == 7));
        for (i, t) in s.targets.iter().enumerate() {
            assert_eq!(
                *t,
                (5..6 + k).contains(&i).then(|| s.tokens[i + 1]),
                "{s:?}"
            );
        }
    }
    let lengths: std::collections::BTreeSet<usize> = (0..200)
        .map(|_| {
            let s = Task::Seq2seq.sample(10, 12, &mut rng);
            s.tokens.iter().position(|&t| t == 8).unwrap()
        })
        .collect();
    assert_eq!(lengths.into_iter().collect::<Vec<_>>(), [2, 3, 4, 5]);
    let bad = Config {
        vocab: 6,
        ..Config::new(Task::Seq2seq, 0)
    };
    assert_eq!(
        bad.validate().unwrap_err().to_string(),
        "config.task: seq2seq needs vocab ≥ (n − 2)/2 + 2 = 7 (an input of up to \
         (n − 2)/2 distinct tokens, then <SEP> and <EOS>), got 6"
    );
    assert!(Config::new(Task::Induction, 0).validate().is_ok());
    let bad = Config {
        n: 6,
        ..Config::new(Task::Induction, 0)
    };
    assert_eq!(bad.validate().unwrap_err().field, "config.task");
}

/// What is not a model file is called what it is, with its place: text that
/// is not JSON (line and column), a scenario (its format), a number beyond
/// f64 (its field), a part of the wrong kind.
#[test]
fn other_files_are_refused_for_what_they_are() {
    let e = Model::from_json("{\n  \"format\": ").unwrap_err();
    assert_eq!(e.field, "");
    assert!(
        matches!(e.reason, ModelReason::NotJson { line: 2, .. }),
        "{e:?}"
    );
    let scenario = r#"{"format": "attention-lab/1", "x": [[1]], "heads": []}"#;
    assert_eq!(
        Model::from_json(scenario).unwrap_err(),
        ModelError::new("format", ModelReason::Format("attention-lab/1".into()))
    );
    assert_eq!(
        Model::from_json("[1, 2]").unwrap_err(),
        ModelError::new("", ModelReason::NotObject)
    );
    let text = Model::new(Config::new(Task::Previous, 1))
        .unwrap()
        .to_json();
    let e = Model::from_json(&text.replacen("[[", "[[1e400,", 1)).unwrap_err();
    assert_eq!(e.reason, ModelReason::NumberBeyondF64);
    assert!(e.field.starts_with("weights.embedding[0]"), "{e:?}");
    let e = Model::from_json(
        &text
            .replace("\"config\":{", "\"config\":[{")
            .replace(",\"weights\"", "],\"weights\""),
    )
    .unwrap_err();
    assert_eq!(e.field, "config");
    let e = Model::from_json(&text.replace("\"lr\":", "\"lr\":\"fast\",\"x\":")).unwrap_err();
    assert_eq!(e.to_string(), "config.lr: expected a number");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// A model file cut and changed anywhere never panics the reader, and
    /// every refusal names its field (or the place of text that is not
    /// JSON, or says the whole is not an object).
    #[test]
    fn a_changed_model_file_is_read_or_refused_by_name(
        at in any::<prop::sample::Index>(),
        drop in 0usize..8,
        put in prop::sample::select(vec!["", "\"", ",", "]", "}", "[", "{", ":", "-", "1e400", "null", "\"x\"", "-1", "3.5", "\u{1}", "é"]),
    ) {
        let text = Model::new(Config::new(Task::Reverse, 5)).unwrap().to_json();
        let changed = common::splice(&text, at, drop, put);
        if let Err(e) = Model::from_json(&changed) {
            let whole = matches!(e.reason, ModelReason::NotJson { .. } | ModelReason::NotObject);
            prop_assert!(!e.field.is_empty() || whole, "{:?} for {:?}", e, changed);
            prop_assert!(!e.to_string().is_empty());
        }
    }
}
