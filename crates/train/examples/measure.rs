//! Measures what docs/training.md reports: for each task's default model
//! (the seeds the tests use), the Adam steps to its target accuracy on the
//! evaluation set (checked every 25 steps; whole answers for the sequence
//! read-outs), and
//! training steps per second
//! (without evaluation); for `digits`, the steps and seconds to 0.85
//! held-out accuracy (checked every 5 steps) for seeds 1–3 and patch sides
//! 4 and 2. `cargo run -p train --release --example measure`.

use std::time::{Duration, Instant};
use train::{digits, Config, Digits, Model, Positions, Readout, Task};

fn main() {
    tokens();
    images();
}

/// `digits`: steps and training seconds (evaluation not counted) to 0.85
/// held-out accuracy, checked every 5 steps up to 1,500, and the held-out
/// accuracy after 300 steps.
fn images() {
    let text = include_str!("../../../data/digits/digits.txt");
    digits::install(Digits::parse(text).expect("the shipped digits"));
    for patch in [4, 2] {
        for seed in 1..=3 {
            let config = Config::new(Task::Digits, seed).with_patch(patch);
            let mut m = Model::new(config).unwrap();
            let (mut spent, mut reached) = (Duration::ZERO, None);
            while m.steps() < 1500 {
                let t = Instant::now();
                m.train(5);
                spent += t.elapsed();
                if reached.is_none() && m.evaluate().1 >= 0.85 {
                    reached = Some((m.steps(), spent.as_secs_f64()));
                }
                if reached.is_some() && m.steps() >= 300 {
                    break;
                }
            }
            let (_, at_300) = m.evaluate();
            let per_s = m.steps() as f64 / spent.as_secs_f64();
            let reached = match reached {
                Some((steps, s)) => format!("{steps} steps, {s:.2} s"),
                None => "never".into(),
            };
            println!(
                "digits, patch {patch}, seed {seed}: 0.85 held-out at {reached}; \
                 held-out accuracy {at_300:.3} after {} steps; {per_s:.0} steps/s",
                m.steps()
            );
        }
    }
}

fn tokens() {
    let cases = [
        ("previous", Config::new(Task::Previous, 1), 0.99),
        ("reverse", Config::new(Task::Reverse, 1), 0.99),
        (
            "reverse, no positions",
            Config {
                positions: Positions::None,
                ..Config::new(Task::Reverse, 1)
            },
            0.99,
        ),
        ("majority", Config::new(Task::Majority, 1), 0.95),
        ("induction, 2 layers", Config::new(Task::Induction, 5), 0.9),
        (
            "induction, 1 layer",
            Config {
                layers: 1,
                ..Config::new(Task::Induction, 5)
            },
            0.9,
        ),
        (
            "seq2seq (whole answers), seed 1",
            Config::new(Task::Seq2seq, 1),
            0.95,
        ),
        (
            "seq2seq (whole answers), seed 2",
            Config::new(Task::Seq2seq, 2),
            0.95,
        ),
        (
            "seq2seq (whole answers), seed 3",
            Config::new(Task::Seq2seq, 3),
            0.95,
        ),
        (
            "multilabel, sigmoid (per label), seed 1",
            Config::new(Task::Multilabel, 1),
            0.95,
        ),
        (
            "multilabel, sequence (whole answers), seed 1",
            Config {
                readout: Readout::Sequence,
                ..Config::new(Task::Multilabel, 1)
            },
            0.9,
        ),
    ];
    for (name, config, target) in cases {
        let mut m = Model::new(config.clone()).unwrap();
        let mut reached = None;
        while m.steps() < 1500 {
            m.train(25);
            // Seq2seq counts whole answers (every token and the <EOS>).
            let acc = match (m.config.task, m.config.readout) {
                (Task::Seq2seq, _) | (Task::Multilabel, Readout::Sequence) => m.whole_accuracy(),
                _ => m.evaluate().1,
            };
            if acc >= target {
                reached = Some(m.steps());
                break;
            }
        }
        let (_, acc) = m.evaluate();
        let mut timed = Model::new(config).unwrap();
        let t = Instant::now();
        timed.train(300);
        let per_s = 300.0 / t.elapsed().as_secs_f64();
        println!("{name}: target {target} reached at {reached:?} (accuracy then {acc:.3}); {per_s:.0} steps/s");
    }
}
