//! The training lab's run, pure but for the clock it is given: the model,
//! what is shown, the schedule of slices (the steps due at the chosen rate,
//! at most [`SLICE_MS`] of work each) and of evaluations. Tested natively.

use super::*;
use crate::app::i18n::TrainText;
use crate::app::web;
use crate::attention::Trace;
use std::collections::VecDeque;
use std::rc::Rc;
use train::{HeadScore, Model};

/// `performance.now()` in ms (0 outside a browser, for the native tests).
pub(super) fn now() -> f64 {
    if cfg!(target_arch = "wasm32") {
        web::now_ms()
    } else {
        0.0
    }
}

/// `data-state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Idle,
    Training,
    Paused,
    Done,
}

impl Phase {
    pub(super) fn code(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Training => "training",
            Phase::Paused => "paused",
            Phase::Done => "done",
        }
    }

    pub(super) fn text(self) -> TrainText {
        match self {
            Phase::Idle => TrainText::StateIdle,
            Phase::Training => TrainText::StateTraining,
            Phase::Paused => TrainText::StatePaused,
            Phase::Done => TrainText::StateDone,
        }
    }
}

/// The last evaluation: what the lab shows.
pub(super) struct Shown {
    pub(super) step: u64,
    pub(super) loss: f64,
    pub(super) accuracy: f64,
    /// The share of samples right at every predicted position: for
    /// `seq2seq`, whole answers with their `<EOS>` (`Model::whole_accuracy`).
    pub(super) whole: f64,
    /// The evaluation sample's trace, one per layer.
    pub(super) traces: Vec<Rc<Trace>>,
    pub(super) scores: Vec<HeadScore>,
}

/// An evaluation under way, a few samples a frame: sums kept in the order
/// of `Model::evaluate`, so the loss has the same bits.
pub(super) struct Evaluation {
    pub(super) step: u64,
    pub(super) next: usize,
    pub(super) loss: f64,
    pub(super) right: usize,
    pub(super) count: usize,
    /// Samples right at every predicted position.
    pub(super) whole: usize,
}

/// The model and the training loop's bookkeeping.
pub(super) struct Run {
    pub(super) model: Model,
    pub(super) phase: Phase,
    pub(super) speed: f64,
    /// (time, steps) from which the steps due are counted.
    pub(super) anchor: (f64, u64),
    /// (step, loss, accuracy) of every evaluation (thinned when long).
    pub(super) history: Vec<(u64, f64, f64)>,
    pub(super) shown: Shown,
    pub(super) last_eval_ms: f64,
    /// (time, steps) of the last slices, for the measured rate.
    pub(super) window: VecDeque<(f64, u64)>,
    pub(super) measured: Option<f64>,
    pub(super) longest_ms: f64,
    /// Slices run, and those over 16 ms and over 50 ms (for the benchmark).
    pub(super) slices: [u32; 3],
    pub(super) evaluating: Option<Evaluation>,
}

impl Run {
    pub(super) fn new(model: Model) -> Run {
        let mut r = Run {
            model,
            phase: Phase::Idle,
            speed: 1.0,
            anchor: (0.0, 0),
            history: Vec::new(),
            shown: Shown {
                step: 0,
                loss: f64::NAN,
                accuracy: 0.0,
                whole: 0.0,
                traces: Vec::new(),
                scores: Vec::new(),
            },
            last_eval_ms: 0.0,
            window: VecDeque::new(),
            measured: None,
            longest_ms: 0.0,
            slices: [0; 3],
            evaluating: None,
        };
        r.evaluate(now());
        if r.model.steps() > 0 {
            r.phase = Phase::Paused;
        }
        r
    }

    pub(super) fn rate(&self) -> f64 {
        BASE_RATE * self.speed
    }

    /// Loss, accuracy, the sample's trace and the head scores, now.
    pub(super) fn evaluate(&mut self, now: f64) {
        let mut ev = self.evaluating.take().unwrap_or_else(|| self.begin());
        self.evaluate_some(&mut ev, None);
        self.finish(ev, now);
    }

    pub(super) fn begin(&self) -> Evaluation {
        Evaluation {
            step: self.model.steps(),
            next: 0,
            loss: 0.0,
            right: 0,
            count: 0,
            whole: 0,
        }
    }

    /// Evaluates samples until the set is done or `until` (ms) has come;
    /// `true` when done. The same sums as `Model::evaluate`, in its order.
    pub(super) fn evaluate_some(&self, ev: &mut Evaluation, until: Option<f64>) -> bool {
        let set = self.model.eval_set();
        while let Some(s) = set.get(ev.next) {
            let logits = self
                .model
                .predict_sample(s)
                .expect("an evaluation sample fits its model")
                .logits;
            let (l, r, c, _) = self.model.objective(s, &logits, 0.0);
            ev.loss += l;
            ev.right += r;
            ev.count += c;
            ev.whole += usize::from(r == c);
            ev.next += 1;
            if until.is_some_and(|t| now() >= t) {
                break;
            }
        }
        ev.next == set.len()
    }

    /// Shows a finished evaluation.
    pub(super) fn finish(&mut self, ev: Evaluation, now: f64) {
        let count = ev.count.max(1) as f64;
        let (loss, accuracy) = (ev.loss / count, ev.right as f64 / count);
        let whole = ev.whole as f64 / self.model.eval_set().len().max(1) as f64;
        let traces = self
            .model
            .eval_trace()
            .layers
            .into_iter()
            .map(Rc::new)
            .collect();
        let step = ev.step;
        self.shown = Shown {
            step,
            loss,
            accuracy,
            whole,
            traces,
            scores: self.model.head_scores(),
        };
        if self.history.last().map(|h| h.0) != Some(step) {
            self.history.push((step, loss, accuracy));
        }
        if self.history.len() > 600 {
            // Every other point, keeping the last.
            let last = *self.history.last().expect("not empty");
            self.history = self.history.iter().copied().step_by(2).collect();
            if self.history.last() != Some(&last) {
                self.history.push(last);
            }
        }
        self.last_eval_ms = now;
        if self.phase == Phase::Training && (accuracy >= 1.0 || step >= MAX_STEPS) {
            self.phase = Phase::Done;
        }
    }

    /// Brings the shown numbers to the current step.
    pub(super) fn settle(&mut self) {
        if self
            .evaluating
            .as_ref()
            .is_some_and(|e| e.step != self.model.steps())
        {
            self.evaluating = None;
        }
        if self.evaluating.is_some()
            || self.shown.step != self.model.steps()
            || self.shown.traces.is_empty()
        {
            self.evaluate(now());
        }
    }

    /// One animation frame's slice; `true` when it finished an evaluation
    /// (the lab redraws). An evaluation under way goes on (no step is
    /// taken until it is done); one is begun when the shown numbers are
    /// stale and [`EVAL_EVERY_MS`] has passed; otherwise the steps due.
    pub(super) fn slice(&mut self) -> bool {
        let t0 = now();
        let stale = self.shown.step != self.model.steps();
        let mut evaluated = false;
        if self.evaluating.is_none() && stale && t0 - self.last_eval_ms >= EVAL_EVERY_MS {
            self.evaluating = Some(self.begin());
        }
        if let Some(mut ev) = self.evaluating.take() {
            if self.evaluate_some(&mut ev, Some(t0 + SLICE_MS)) {
                self.finish(ev, t0);
                evaluated = true;
            } else {
                self.evaluating = Some(ev);
            }
        } else {
            let (at, base) = self.anchor;
            let rate = self.rate();
            let due = (base + ((t0 - at).max(0.0) / 1000.0 * rate) as u64).min(MAX_STEPS);
            let mut did = 0;
            while self.model.steps() < due && (did == 0 || now() - t0 < SLICE_MS) {
                self.model.step();
                did += 1;
            }
            // More than half a second behind: this browser cannot keep
            // the rate; count from here so the debt does not grow.
            if due > self.model.steps() + (rate * 0.5) as u64 {
                self.anchor = (t0, self.model.steps());
            }
        }
        self.window.push_back((t0, self.model.steps()));
        while self.window.len() > 2 && t0 - self.window[0].0 > 1500.0 {
            self.window.pop_front();
        }
        if let (Some(a), Some(b)) = (self.window.front(), self.window.back()) {
            if b.0 - a.0 >= 500.0 {
                self.measured = Some((b.1 - a.1) as f64 * 1000.0 / (b.0 - a.0));
            }
        }
        let took = now() - t0;
        self.longest_ms = self.longest_ms.max(took);
        self.slices[0] += 1;
        self.slices[1] += u32::from(took > 16.0);
        self.slices[2] += u32::from(took > 50.0);
        evaluated
    }

    /// Trains at `speed` from now on; the measured rate starts over.
    pub(super) fn set_speed(&mut self, speed: f64) {
        self.speed = speed;
        self.anchor = (now(), self.model.steps());
        self.window.clear();
        self.measured = None;
    }

    pub(super) fn start(&mut self) {
        self.phase = Phase::Training;
        self.anchor = (now(), self.model.steps());
        self.window.clear();
        self.measured = None;
    }

    pub(super) fn pause(&mut self) {
        self.phase = Phase::Paused;
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn the_lab_evaluates_in_pieces_with_the_bits_of_model_evaluate() {
        super::super::digits::install_for_tests();
        for task in Task::ALL {
            let mut m = Model::new(Config::new(task, 3)).unwrap();
            m.train(4);
            let (loss, accuracy) = m.evaluate();
            let mut run = Run::new(m);
            assert_eq!(run.shown.loss.to_bits(), loss.to_bits(), "{task:?}");
            assert_eq!(run.shown.accuracy.to_bits(), accuracy.to_bits());
            assert_eq!(run.shown.whole, run.model.whole_accuracy(), "{task:?}");
            // In pieces of one sample.
            let mut ev = run.begin();
            let mut pieces = 0;
            while !run.evaluate_some(&mut ev, Some(f64::NEG_INFINITY)) {
                pieces += 1;
            }
            assert_eq!(pieces + 1, run.model.eval_set().len());
            run.finish(ev, 0.0);
            assert_eq!(run.shown.loss.to_bits(), loss.to_bits());
            assert_eq!(run.shown.step, 4);
            assert_eq!(run.phase, Phase::Paused);
        }
    }
}
