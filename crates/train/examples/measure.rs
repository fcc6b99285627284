//! Measures what docs/training.md reports: for each task's default model
//! (the seeds the tests use), the Adam steps to its target accuracy on the
//! evaluation set (checked every 25 steps; whole answers for the sequence
//! read-outs), and
//! training steps per second
//! (without evaluation). `cargo run -p train --release --example measure`.

use std::time::Instant;
use train::{Config, Model, Positions, Readout, Task};

fn main() {
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
