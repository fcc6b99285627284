#![cfg(not(target_arch = "wasm32"))]
//! The `digits` task: the shipped file, its reader, the fixed split, the
//! input X_1 = F·E + P, learning to 0.85 held-out accuracy, the same seed
//! giving the same bits, and the model file's `config.patch`.

use attention::Matrix;
mod common;

use proptest::prelude::*;
use train::*;

const TEXT: &str = include_str!("../../../data/digits/digits.txt");

/// The shipped data, installed for every test of this binary (the first
/// install counts, and each test installs the same file first).
fn data() -> &'static Digits {
    if digits::installed().is_none() {
        digits::install(Digits::parse(TEXT).expect("the shipped file parses"));
    }
    digits::installed().expect("installed")
}

/// Image `index` as a sample, built here from the file, not by the crate.
fn sample_of(d: &Digits, index: usize, n: usize) -> Sample {
    let mut targets = vec![None; n];
    targets[0] = Some(usize::from(d.labels()[index]));
    Sample {
        tokens: (0..n).collect(),
        targets,
        labels: None,
        image: Some(Image {
            index,
            pixels: d.images()[index],
        }),
    }
}

#[test]
fn the_shipped_file_is_the_uci_test_set() {
    let d = data();
    assert_eq!(d.len(), 1797);
    let mut count = [0usize; 10];
    for &l in d.labels() {
        count[usize::from(l)] += 1;
    }
    assert_eq!(count, [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]);
    assert!(d.images().iter().flatten().all(|&p| p <= 16));
    // The csv's first image (a 0): its first row of pixels, then its fifth.
    assert_eq!(d.labels()[0], 0);
    assert_eq!(d.images()[0][..8], [0, 0, 5, 13, 9, 1, 0, 0]);
    assert_eq!(d.images()[0][32..40], [0, 5, 8, 0, 0, 9, 8, 0]);
    // The split: 299 held out (i % 6 == 5), 1,498 training.
    let held: Vec<usize> = d.held_out().collect();
    assert_eq!(held.len(), 299);
    assert_eq!(&held[..3], &[5, 11, 17]);
    assert_eq!(*held.last().unwrap(), 1793);
    assert!(held.iter().all(|&i| digits::held_out(i)));
    assert_eq!(d.training_len(), 1498);
    let training: Vec<usize> = (0..d.training_len()).map(Digits::training_index).collect();
    let expected: Vec<usize> = (0..d.len()).filter(|&i| !digits::held_out(i)).collect();
    assert_eq!(training, expected);
    // An image as a sample: positions as tokens, the label at [CLS].
    assert_eq!(d.sample(11, 5), Some(sample_of(d, 11, 5)));
    assert_eq!(d.sample(1797, 5), None);
}

#[test]
fn a_malformed_file_is_refused_with_its_line() {
    let good = TEXT.lines().take(7).collect::<Vec<_>>();
    let with = |k: usize, line: &str| {
        let mut lines = good.clone();
        lines[k] = line;
        Digits::parse(&lines.join("\n")).unwrap_err()
    };
    let pixels = &good[0][2..];
    assert_eq!(
        with(2, ""),
        DigitsError {
            line: 3,
            problem: DigitsProblem::EmptyLine
        }
    );
    assert_eq!(
        with(0, &format!("x {pixels}")).problem,
        DigitsProblem::Label('x')
    );
    assert_eq!(
        with(1, &format!("1{pixels}")).to_string(),
        format!(
            "line 2: expected a space after the label, got {:?}",
            pixels.chars().next().unwrap()
        )
    );
    assert_eq!(with(3, "3").problem, DigitsProblem::Space(None));
    assert_eq!(
        with(4, &format!("4 {}", &pixels[1..])).problem,
        DigitsProblem::PixelCount(63)
    );
    assert_eq!(
        with(4, &format!("4 {pixels}0")).problem,
        DigitsProblem::PixelCount(65)
    );
    let e = with(5, &format!("5 h{}", &pixels[1..]));
    assert_eq!(
        e,
        DigitsError {
            line: 6,
            problem: DigitsProblem::Pixel {
                column: 3,
                got: 'h'
            }
        }
    );
    assert_eq!(
        e.to_string(),
        "line 6: character 3: expected a pixel, one of 0123456789abcdefg (the values 0 … 16), got 'h'"
    );
    // Upper case, a second space, a character beyond ASCII.
    assert!(matches!(
        with(6, &format!("6 {}A", &pixels[1..])).problem,
        DigitsProblem::Pixel {
            column: 66,
            got: 'A'
        }
    ));
    assert!(matches!(
        with(6, &format!("6  {}", &pixels[1..])).problem,
        DigitsProblem::Pixel {
            column: 3,
            got: ' '
        }
    ));
    assert!(matches!(
        with(6, &format!("é {pixels}")).problem,
        DigitsProblem::Label('é')
    ));
    // Too few images for both parts of the split.
    let e = Digits::parse(&good[..5].join("\n")).unwrap_err();
    assert_eq!(e.line, 0);
    assert_eq!(e.problem, DigitsProblem::TooFew(5));
    assert_eq!(
        e.to_string(),
        "expected at least 6 images (one in 6 is held out), got 5"
    );
    assert_eq!(
        Digits::parse("").unwrap_err().problem,
        DigitsProblem::TooFew(0)
    );
    // \r\n line ends, a final newline and a byte order mark are read.
    let crlf = format!("\u{feff}{}\r\n", good.join("\r\n"));
    assert_eq!(Digits::parse(&crlf).unwrap().len(), 7);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The first lines of the file cut and changed anywhere never panic the
    /// reader; a refusal names a line of the text (or 0 when there are too
    /// few images) and says why.
    #[test]
    fn a_changed_file_is_read_or_refused_by_line(
        at in any::<prop::sample::Index>(),
        drop in 0usize..80,
        put in prop::sample::select(vec!["", " ", "\n", "\r\n", "0", "g", "h", "G", "-", "9 ", "é", "\u{0}", "\n\n"]),
    ) {
        let text: String = TEXT.lines().take(8).map(|l| format!("{l}\n")).collect();
        let changed = common::splice(&text, at, drop, put);
        match Digits::parse(&changed) {
            Ok(d) => prop_assert!(d.len() >= digits::MIN_IMAGES),
            Err(e) => {
                prop_assert!(e.line <= changed.lines().count(), "{:?}", e);
                prop_assert!(e.line > 0 || matches!(e.problem, DigitsProblem::TooFew(_)));
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    /// Any text at all: read or refused, never a panic.
    #[test]
    fn any_text_is_read_or_refused(text in ".{0,400}") {
        let _ = Digits::parse(&text);
    }
}

#[test]
fn installing_twice_keeps_the_first() {
    let d = data();
    let six: String = TEXT.lines().take(6).map(|l| format!("{l}\n")).collect();
    digits::install(Digits::parse(&six).unwrap());
    assert_eq!(digits::installed().unwrap().len(), 1797);
    assert!(std::ptr::eq(d, digits::installed().unwrap()));
}

/// Batches draw only training images (the first 300 steps, every image of
/// every batch), with the file's pixels and label; the evaluation set is
/// every held-out image in order, whatever the seed.
#[test]
fn training_never_sees_a_held_out_image() {
    let d = data();
    let m = Model::new(Config::new(Task::Digits, 1)).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for step in 0..300 {
        let batch = m.batch(step);
        assert_eq!(batch.len(), 64);
        for s in batch {
            let image = s.image.as_ref().unwrap();
            assert!(
                !digits::held_out(image.index),
                "step {step}: {}",
                image.index
            );
            assert_eq!(image.pixels, d.images()[image.index]);
            assert_eq!(s, sample_of(d, image.index, 5));
            seen.insert(image.index);
        }
    }
    // 19,200 draws with replacement reach nearly every training image.
    assert!(seen.len() > 1450, "{}", seen.len());
    for seed in [1, 2, 99] {
        let m = Model::new(Config::new(Task::Digits, seed).with_patch(2)).unwrap();
        let held: Vec<usize> = d.held_out().collect();
        let eval: Vec<usize> = m
            .eval_set()
            .iter()
            .map(|s| s.image.as_ref().unwrap().index)
            .collect();
        assert_eq!(eval, held);
        assert_eq!(m.eval_sample(), &sample_of(d, 5, 17));
    }
}

/// The default model (seed 1) reaches 0.85 held-out accuracy within 150
/// steps (measured: 25; seeds 2 and 3: 40). The accuracy is computed here
/// too, from `predict_sample` on every held-out image of the file: the
/// argmax of [CLS]'s row against the label.
#[test]
fn digits_learns_to_085_held_out() {
    let d = data();
    let mut m = Model::new(Config::new(Task::Digits, 1)).unwrap();
    while m.evaluate().1 < 0.85 && m.steps() < 150 {
        m.train(5);
    }
    let (_, acc) = m.evaluate();
    assert!(acc >= 0.85, "digits: {acc} after {} steps", m.steps());
    let mut right = 0;
    let held: Vec<usize> = d.held_out().collect();
    for &i in &held {
        let p = m.predict_sample(&sample_of(d, i, 5)).unwrap();
        assert_eq!(p.logits.shape(), (5, 10));
        let row: Vec<f64> = p.logits.row(0).iter().copied().collect();
        let best = (0..10).fold(0, |b, c| if row[c] > row[b] { c } else { b });
        assert_eq!(best, p.next[0]);
        right += usize::from(best == usize::from(d.labels()[i]));
    }
    assert_eq!(right as f64 / held.len() as f64, acc);
    assert_eq!(m.eval_set().len(), 299);
    assert_eq!(m.whole_accuracy(), acc);
}

/// The fingerprint of `Config::new(Task::Digits, 1)` after 10 steps, and
/// of the same with patch side 2.
const DIGITS_1_AFTER_10: u64 = 0x8336_afb2_4200_eae6;
const DIGITS_PATCH_2_1_AFTER_10: u64 = 0x9e49_98c2_0af5_4b07;

#[test]
fn same_seed_same_bits() {
    data();
    let run = |patch: usize, seed: u64| {
        let mut m = Model::new(Config::new(Task::Digits, seed).with_patch(patch)).unwrap();
        m.train(10);
        m
    };
    let (a, b) = (run(4, 1), run(4, 1));
    assert_eq!(a, b);
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(a.fingerprint(), DIGITS_1_AFTER_10, "{:#x}", a.fingerprint());
    let f = run(2, 1).fingerprint();
    assert_eq!(f, DIGITS_PATCH_2_1_AFTER_10, "{f:#x}");
    assert_ne!(run(4, 2).fingerprint(), a.fingerprint());
}

/// X_1 = F·E + P by hand: row 0 is E's last row (the class token's) plus
/// P_0; row i ≥ 1 sums patch i's pixels / 16 times E's rows, plus P_i.
fn x_by_hand(m: &Model, pixels: &[u8; 64]) -> Matrix {
    let p = m.config.patch;
    let (e, pos) = (&m.params.embedding, m.params.positions.as_ref().unwrap());
    let per_row = 8 / p;
    let n = per_row * per_row + 1;
    Matrix::from_fn(n, m.config.d_model, |i, c| {
        if i == 0 {
            return e[(p * p, c)] + pos[(0, c)];
        }
        let (top, left) = ((i - 1) / per_row * p, (i - 1) % per_row * p);
        let mut sum = 0.0;
        for a in 0..p {
            for b in 0..p {
                let v = f64::from(pixels[(top + a) * 8 + left + b]) / 16.0;
                sum += v * e[(a * p + b, c)];
            }
        }
        sum + pos[(i, c)]
    })
}

#[test]
fn the_scenario_is_the_image_through_the_model() {
    data();
    for (patch, n) in [(4, 5), (2, 17)] {
        let mut m = Model::new(Config::new(Task::Digits, 3).with_patch(patch)).unwrap();
        assert_eq!(m.config.n, n);
        assert_eq!(m.params.embedding.shape(), (patch * patch + 1, 32));
        assert_eq!(m.params.positions.as_ref().unwrap().shape(), (n, 32));
        assert_eq!(m.params.unembedding.shape(), (32, 10));
        m.train(4);
        let sample = m.eval_sample().clone();
        let s = m.scenario(&sample);
        assert_eq!(s.x.shape(), (n, 32));
        let hand = x_by_hand(&m, &sample.image.as_ref().unwrap().pixels);
        for i in 0..n {
            for c in 0..32 {
                let (got, want) = (s.x[(i, c)], hand[(i, c)]);
                assert!(
                    (got - want).abs() <= 1e-12,
                    "x[{i}][{c}]: {got} against {want}"
                );
            }
        }
        let labels: Vec<String> = std::iter::once("[CLS]".to_string())
            .chain((1..n).map(|i| format!("P{i}")))
            .collect();
        assert_eq!(s.tokens, labels);
        assert_eq!(m.config.sequence_labels(&sample), labels);
        assert_eq!(s.mask, attention::Mask::None);
        assert_eq!(s.positional, attention::Positional::None);
        assert_eq!(s.heads.len(), 4);
        // F itself: [CLS] is e_{p²}; patch 1's first pixel.
        let f = m.config.patch_features(&sample).unwrap();
        assert_eq!(f.shape(), (n, patch * patch + 1));
        assert_eq!(f[(0, patch * patch)], 1.0);
        assert_eq!(f.row(0).sum(), 1.0);
        let px = sample.image.as_ref().unwrap().pixels;
        assert_eq!(f[(1, 0)], f64::from(px[0]) / 16.0);
        assert_eq!(f[(1, patch * patch)], 0.0);
        // What the workbench computes is the model's pass.
        let trace = attention::compute_stack(&s).unwrap();
        assert_eq!(trace, m.eval_trace());
        let logits = attention::matmul(trace.output(), &m.params.unembedding);
        assert_eq!(m.predict_sample(&sample).unwrap().logits, logits);
        assert_eq!(attention::Scenario::from_json(&s.to_json()).unwrap(), s);
    }
}

#[test]
fn digits_is_read_from_images_not_tokens() {
    data();
    let m = Model::new(Config::new(Task::Digits, 1)).unwrap();
    assert_eq!(Task::Digits.output(), Output::Classification);
    assert_eq!(Task::Digits.mask(), attention::Mask::None);
    assert_eq!(m.config.label(7), "7");
    let e = m.predict(&[0, 1, 2]).unwrap_err();
    assert_eq!(e.field, "tokens");
    assert_eq!(e.reason, ModelReason::ImageInput);
    assert_eq!(m.decode(&[0], 2).unwrap_err().field, "prompt");
    let mut s = m.eval_sample().clone();
    s.image.as_mut().unwrap().pixels[9] = 17;
    assert_eq!(
        m.predict_sample(&s).unwrap_err().to_string(),
        "image.pixels[9]: expected 0 … 16, got 17"
    );
    s.image = None;
    assert_eq!(m.predict_sample(&s).unwrap_err().field, "image");
    assert!(m.generate(m.eval_sample()).is_none());
    assert!(m.label_probabilities(m.eval_sample()).is_none());
    // The other tasks' samples predict the same through either door.
    let other = Model::new(Config::new(Task::Previous, 1)).unwrap();
    let s = other.eval_sample();
    assert_eq!(
        other.predict_sample(s).unwrap(),
        other.predict(&s.tokens).unwrap()
    );
    assert_eq!(other.config.sequence_labels(s), other.scenario(s).tokens);
}

#[test]
fn a_digits_config_is_checked() {
    data();
    let c = Config::new(Task::Digits, 1);
    assert_eq!((c.patch, c.n, c.vocab), (4, 5, 10));
    assert!(c.validate().is_ok());
    let e = c.clone().with_patch(3).validate().unwrap_err();
    assert_eq!(
        e.to_string(),
        "config.patch: expected 2 or 4 (the side of the square patches the 8×8 image is cut into), got 3"
    );
    assert_eq!(
        Config { n: 17, ..c.clone() }
            .validate()
            .unwrap_err()
            .to_string(),
        "config.n: a patch side of 4 gives (8/4)² + 1 = 5 positions (the class token, then one \
         per patch), got 17"
    );
    assert_eq!(
        Config {
            vocab: 8,
            ..c.clone()
        }
        .validate()
        .unwrap_err()
        .field,
        "config.vocab"
    );
    assert_eq!(
        Config {
            patch: 0,
            ..c.clone()
        }
        .validate()
        .unwrap_err()
        .field,
        "config.patch"
    );
    // The other tasks ignore the patch side.
    assert!(Config::new(Task::Previous, 1)
        .with_patch(3)
        .validate()
        .is_ok());
    assert_eq!(Config::new(Task::Previous, 1).with_patch(2).n, 8);
}

#[test]
fn the_model_file_keeps_the_patch() {
    data();
    for patch in [4, 2] {
        let mut a = Model::new(Config::new(Task::Digits, 6).with_patch(patch)).unwrap();
        a.train(7);
        let text = a.to_json();
        assert!(text.contains(&format!("\"patch\":{patch}")), "{patch}");
        let mut b = Model::from_json(&text).unwrap();
        assert_eq!(b, a);
        assert_eq!(b.evaluate().0.to_bits(), a.evaluate().0.to_bits());
        a.train(3);
        b.train(3);
        assert_eq!(b, a);
    }
    let a = Model::new(Config::new(Task::Digits, 6)).unwrap();
    let text = a.to_json();
    // Absent: 4.
    let without = text.replace(",\"patch\":4", "");
    assert!(!without.contains("patch"));
    assert_eq!(Model::from_json(&without).unwrap(), a);
    let e = Model::from_json(&text.replace("\"patch\":4", "\"patch\":3")).unwrap_err();
    assert_eq!(e.field, "config.patch");
    assert_eq!(e.reason, ModelReason::Patch(3));
    let e = Model::from_json(&text.replace("\"patch\":4", "\"patch\":\"4\"")).unwrap_err();
    assert_eq!(e.to_string(), "config.patch: expected a whole number ≥ 0");
    // A patch side of 2 with the sequence of 4: the file's n is refused.
    let e = Model::from_json(&text.replace("\"patch\":4", "\"patch\":2")).unwrap_err();
    assert_eq!(e.field, "config.n");
    // E's shape follows the patch side.
    let e = Model::from_json(
        &text
            .replace("\"patch\":4", "\"patch\":2")
            .replace("\"n\":5", "\"n\":17"),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "weights.embedding: expected 5×32, got 17 rows"
    );
    // The token tasks write none.
    let other = Model::new(Config::new(Task::Majority, 1))
        .unwrap()
        .to_json();
    assert!(!other.contains("patch"));
}
