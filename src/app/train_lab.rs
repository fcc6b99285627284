//! The training lab, a Yew root of its own, reached only through the split
//! point [`train_bridge`](super::train_bridge) calls when the reader opens
//! the lab: its code is the `train` chunk of the page's WebAssembly module
//! (docs/architecture.md, "One module and its chunks"). It trains
//! `train::Model` (crates/train, docs/training.md) in the page.
//!
//! **Never freezing the page.** Training runs in slices, one per animation
//! frame: a slice takes the steps due at the chosen rate (steps per
//! second) and stops after [`SLICE_MS`] of work, whatever is still due
//! (one step at least); evaluating on the fixed evaluation set (about as
//! long as a step of `induction`) takes a frame of its own, at most every
//! [`EVAL_EVERY_MS`]. So every task of the main thread stays short and
//! Pause, handled between two frames, stops training within one frame.
//!
//! The lab element (the page's `section[data-lab="train"]`) carries the
//! page contract's attributes (docs/format.md §3): `data-train-step`,
//! `data-loss`, `data-accuracy`, `data-state`, `data-sample`,
//! `data-speed`, and for the benchmark `data-steps-per-second`,
//! `data-longest-slice-ms` and `data-slices` (slices run, over 16 ms, over
//! 50 ms).

use super::effects;
use super::heatmap::{Heatmap, Map};
use super::i18n::{fill, Lang, C, T};
use super::labs::predict::Predict;
use crate::attention::Trace;
use crate::lesson::format::{exact, rounded, short};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use train::{Config, HeadKind, HeadScore, Model, Positions, Task};
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// Steps per second at 1× (0.5× and 1.5× scale it). `induction` needs
/// 275–550 steps to reach 0.9 (docs/training.md), so at 1.5× (30 steps/s)
/// it gets there in 10–20 s; `previous` is right everywhere within a few
/// seconds, slow enough to watch its head form.
pub const BASE_RATE: f64 = 20.0;
/// The speeds offered.
pub const SPEEDS: [(f64, &str); 3] = [(0.5, "0.5×"), (1.0, "1×"), (1.5, "1.5×")];
/// Most work a slice does before it yields the frame (one step always).
pub const SLICE_MS: f64 = 8.0;
/// Evaluating (and redrawing) at most this often while training.
pub const EVAL_EVERY_MS: f64 = 120.0;
/// Training stops here if the evaluation set is not all right before.
pub const MAX_STEPS: u64 = 1500;
/// The seed the lab opens with.
pub const DEFAULT_SEED: u64 = 5;

/// `performance.now()` in ms (0 outside a browser, for the native tests).
fn now() -> f64 {
    if cfg!(target_arch = "wasm32") {
        effects::now_ms()
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
    fn code(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Training => "training",
            Phase::Paused => "paused",
            Phase::Done => "done",
        }
    }

    fn text(self) -> T {
        match self {
            Phase::Idle => T::StateIdle,
            Phase::Training => T::StateTraining,
            Phase::Paused => T::StatePaused,
            Phase::Done => T::StateDone,
        }
    }
}

/// The last evaluation: what the lab shows.
struct Shown {
    step: u64,
    loss: f64,
    accuracy: f64,
    /// The evaluation sample's trace, one per layer.
    traces: Vec<Rc<Trace>>,
    scores: Vec<HeadScore>,
}

/// An evaluation under way, a few samples a frame: sums kept in the order
/// of `Model::evaluate`, so the loss has the same bits.
struct Evaluation {
    step: u64,
    next: usize,
    loss: f64,
    right: usize,
    count: usize,
}

/// The model and the training loop's bookkeeping.
struct Run {
    model: Model,
    phase: Phase,
    speed: f64,
    /// (time, steps) from which the steps due are counted.
    anchor: (f64, u64),
    /// (step, loss, accuracy) of every evaluation (thinned when long).
    history: Vec<(u64, f64, f64)>,
    shown: Shown,
    last_eval_ms: f64,
    /// (time, steps) of the last slices, for the measured rate.
    window: VecDeque<(f64, u64)>,
    measured: Option<f64>,
    longest_ms: f64,
    /// Slices run, and those over 16 ms and over 50 ms (for the benchmark).
    slices: [u32; 3],
    pending: bool,
    evaluating: Option<Evaluation>,
}

impl Run {
    fn new(model: Model) -> Run {
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
                traces: Vec::new(),
                scores: Vec::new(),
            },
            last_eval_ms: 0.0,
            window: VecDeque::new(),
            measured: None,
            longest_ms: 0.0,
            slices: [0; 3],
            pending: false,
            evaluating: None,
        };
        r.evaluate(now());
        if r.model.steps() > 0 {
            r.phase = Phase::Paused;
        }
        r
    }

    fn rate(&self) -> f64 {
        BASE_RATE * self.speed
    }

    /// Loss, accuracy, the sample's trace and the head scores, now.
    fn evaluate(&mut self, now: f64) {
        let mut ev = self.evaluating.take().unwrap_or_else(|| self.begin());
        self.evaluate_some(&mut ev, None);
        self.finish(ev, now);
    }

    fn begin(&self) -> Evaluation {
        Evaluation {
            step: self.model.steps(),
            next: 0,
            loss: 0.0,
            right: 0,
            count: 0,
        }
    }

    /// Evaluates samples until the set is done or `until` (ms) has come;
    /// `true` when done. The same sums as `Model::evaluate`, in its order.
    fn evaluate_some(&self, ev: &mut Evaluation, until: Option<f64>) -> bool {
        let set = self.model.eval_set();
        while let Some(s) = set.get(ev.next) {
            let logits = self
                .model
                .predict(&s.tokens)
                .expect("an evaluation sample fits its model")
                .logits;
            let (l, r, c, _) = train::backward::cross_entropy(&logits, &s.targets, 0.0);
            ev.loss += l;
            ev.right += r;
            ev.count += c;
            ev.next += 1;
            if until.is_some_and(|t| now() >= t) {
                break;
            }
        }
        ev.next == set.len()
    }

    /// Shows a finished evaluation.
    fn finish(&mut self, ev: Evaluation, now: f64) {
        let count = ev.count.max(1) as f64;
        let (loss, accuracy) = (ev.loss / count, ev.right as f64 / count);
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
    fn settle(&mut self) {
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
    fn slice(&mut self) -> bool {
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

    fn start(&mut self) {
        self.phase = Phase::Training;
        self.anchor = (now(), self.model.steps());
        self.window.clear();
        self.measured = None;
    }

    fn pause(&mut self) {
        self.phase = Phase::Paused;
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lab_evaluates_in_pieces_with_the_bits_of_model_evaluate() {
        for task in Task::ALL {
            let mut m = Model::new(Config::new(task, 3)).unwrap();
            m.train(4);
            let (loss, accuracy) = m.evaluate();
            let mut run = Run::new(m);
            assert_eq!(run.shown.loss.to_bits(), loss.to_bits(), "{task:?}");
            assert_eq!(run.shown.accuracy.to_bits(), accuracy.to_bits());
            // In pieces of one sample.
            let mut ev = run.begin();
            let mut pieces = 0;
            while !run.evaluate_some(&mut ev, Some(f64::NEG_INFINITY)) {
                pieces += 1;
            }
            assert_eq!(pieces + 1, train::EVAL_SIZE);
            run.finish(ev, 0.0);
            assert_eq!(run.shown.loss.to_bits(), loss.to_bits());
            assert_eq!(run.shown.step, 4);
            assert_eq!(run.phase, Phase::Paused);
        }
    }
}

/// The frame loop's closure, made once.
type Frame = RefCell<Option<Closure<dyn FnMut(f64)>>>;

/// Asks for the next animation frame to run the loop's closure.
fn request(frame: &Frame) -> bool {
    let f = frame.borrow();
    match (web_sys::window(), f.as_ref()) {
        (Some(w), Some(f)) => w
            .request_animation_frame(f.as_ref().unchecked_ref())
            .is_ok(),
        _ => false,
    }
}

/// Writes the page contract's attributes on the lab element.
fn mark(lab: &web_sys::Element, r: &Run) {
    let s = &r.shown;
    let sample = r
        .model
        .eval_sample()
        .tokens
        .iter()
        .map(|&t| train::token_label(t))
        .collect::<Vec<_>>()
        .join(" ");
    let measured = r.measured.map(|m| rounded(m, 2)).unwrap_or_default();
    for (k, v) in [
        ("data-train-step", s.step.to_string()),
        ("data-loss", exact(s.loss)),
        ("data-accuracy", exact(s.accuracy)),
        ("data-state", r.phase.code().to_string()),
        ("data-sample", sample),
        ("data-speed", exact(r.speed)),
        ("data-steps-per-second", measured),
        ("data-longest-slice-ms", rounded(r.longest_ms, 2)),
        (
            "data-slices",
            format!("{} {} {}", r.slices[0], r.slices[1], r.slices[2]),
        ),
    ] {
        let _ = lab.set_attribute(k, &v);
    }
}

/// A new run of `model` (stopped), keeping whether a frame is already
/// asked for, so the loop never runs twice a frame.
/// What the lab refused, kept as data and worded when shown, so that it
/// follows a change of language like everything else on the page.
#[derive(Clone, PartialEq)]
enum Problem {
    /// A setting that builds no model.
    BadConfig(train::ModelError),
    /// A seed that is not a whole number ≥ 0.
    BadSeed,
    /// A model file refused (or, `None`, a file that could not be read).
    ImportFailed(Option<train::ModelError>),
}

impl Problem {
    fn worded(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Problem::BadConfig(e) => fill(T::BadConfig.t(lang), &[&e.worded(zh)]),
            Problem::BadSeed => T::BadSeed.t(lang).to_string(),
            Problem::ImportFailed(Some(e)) => fill(T::ImportFailed.t(lang), &[&e.worded(zh)]),
            Problem::ImportFailed(None) => fill(T::ImportFailed.t(lang), &[T::Unreadable.t(lang)]),
        }
    }
}

fn replace(run: &RefCell<Run>, model: Model) {
    let mut next = Run::new(model);
    let mut r = run.borrow_mut();
    next.pending = r.pending;
    *r = next;
}

/// The config the controls describe: the task's defaults with the
/// reader's layers, heads, width, positions and seed.
fn config_of(
    task: Task,
    layers: usize,
    heads: usize,
    d_model: usize,
    positions: Positions,
    seed: u64,
) -> Config {
    let mut c = Config::new(task, seed);
    c.layers = layers;
    c.d_model = d_model;
    c.positions = positions;
    c.with_heads(heads)
}

fn task_text(t: Task) -> T {
    match t {
        Task::Previous => T::TaskPrevious,
        Task::Reverse => T::TaskReverse,
        Task::Induction => T::TaskInduction,
        Task::Majority => T::TaskMajority,
    }
}

fn positions_text(p: Positions) -> T {
    match p {
        Positions::Learned => T::PosLearned,
        Positions::Sinusoidal => T::PosSinusoidal,
        Positions::None => T::PosNone,
    }
}

/// Each task's question: its text, answers, the right one and why.
fn question(t: Task) -> (T, [T; 2], usize, T) {
    match t {
        Task::Previous => (
            T::QPrevious,
            [T::AnswerCan, T::AnswerCannot],
            0,
            T::EPrevious,
        ),
        Task::Reverse => (T::QReverse, [T::AnswerCan, T::AnswerCannot], 1, T::EReverse),
        Task::Induction => (
            T::QInduction,
            [T::AnswerCan, T::AnswerCannot],
            1,
            T::EInduction,
        ),
        Task::Majority => (
            T::QMajority,
            [T::NeedsPositions, T::NoPositionsNeeded],
            1,
            T::EMajority,
        ),
    }
}

#[derive(Properties, PartialEq, Clone)]
pub struct TrainProps {
    pub lang: Lang,
    /// The page's `section[data-lab="train"]`: the contract's attributes
    /// are written on it.
    pub lab: web_sys::Element,
    /// "Open in the workbench": receives the scenario JSON; `None` where
    /// there is no workbench (an embedded lab).
    pub on_open: Option<Callback<String>>,
}

/// The value of the `<select>`/`<input>` an event came from.
fn value_of(e: &Event) -> String {
    if let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
        return s.value();
    }
    e.target_dyn_into::<web_sys::HtmlInputElement>()
        .map(|i| i.value())
        .unwrap_or_default()
}

#[component]
pub fn TrainLab(p: &TrainProps) -> Html {
    let lang = p.lang;
    let ui = use_force_update();
    let run = use_mut_ref(|| {
        Run::new(Model::new(Config::new(Task::Previous, DEFAULT_SEED)).expect("the default config"))
    });
    let error = use_state(|| None::<Problem>);
    // The steps of the model last imported, said until the next change.
    let note = use_state(|| None::<u64>);
    // The frame loop: one closure, kept for the lab's life, that runs a
    // slice and asks for the next frame while training.
    let frame = use_mut_ref(|| None::<Closure<dyn FnMut(f64)>>);
    let schedule: Rc<dyn Fn()> = {
        let (run, frame, ui) = (run.clone(), frame.clone(), ui.clone());
        Rc::new(move || {
            if frame.borrow().is_none() {
                let (run2, frame2, ui2) = (run.clone(), frame.clone(), ui.clone());
                let f = Closure::<dyn FnMut(f64)>::new(move |_: f64| {
                    let (redraw, again) = {
                        let mut r = run2.borrow_mut();
                        r.pending = false;
                        if r.phase != Phase::Training {
                            (false, false)
                        } else {
                            let evaluated = r.slice();
                            let again = r.phase == Phase::Training;
                            (evaluated || !again, again)
                        }
                    };
                    if again && request(&frame2) {
                        run2.borrow_mut().pending = true;
                    }
                    if redraw {
                        ui2.force_update();
                    }
                });
                *frame.borrow_mut() = Some(f);
            }
            if !run.borrow().pending && request(&frame) {
                run.borrow_mut().pending = true;
            }
        })
    };

    // The contract's attributes on the lab element, after every render
    // (and at once on Train and Pause).
    {
        let (run, lab) = (run.clone(), p.lab.clone());
        use_effect(move || mark(&lab, &run.borrow()));
    }

    let r = run.borrow();
    let c = r.model.config.clone();
    let seed_field = super::effects::use_input_value(c.seed.to_string().into());
    let phase = r.phase;

    // Any change of the settings: a fresh model (training stops).
    let rebuild = {
        let (run, error, note, ui) = (run.clone(), error.clone(), note.clone(), ui.clone());
        Rc::new(move |c: Config| match Model::new(c) {
            Ok(m) => {
                replace(&run, m);
                error.set(None);
                note.set(None);
                ui.force_update();
            }
            Err(e) => error.set(Some(Problem::BadConfig(e))),
        })
    };
    let setting = |f: fn(&Config, &str) -> Option<Config>| {
        let (rebuild, c, error) = (rebuild.clone(), c.clone(), error.clone());
        Callback::from(move |e: Event| match f(&c, &value_of(&e)) {
            Some(next) => rebuild(next),
            None => error.set(Some(Problem::BadSeed)),
        })
    };
    // A new task starts from its own defaults (docs/training.md).
    let on_task = setting(|c, v| Task::from_code(v).map(|t| Config::new(t, c.seed)));
    let on_layers = setting(|c, v| {
        let l = v.parse().ok()?;
        Some(config_of(
            c.task,
            l,
            c.heads,
            c.d_model,
            c.positions,
            c.seed,
        ))
    });
    let on_heads = setting(|c, v| {
        let h = v.parse().ok()?;
        Some(config_of(
            c.task,
            c.layers,
            h,
            c.d_model,
            c.positions,
            c.seed,
        ))
    });
    let on_d = setting(|c, v| {
        let d = v.parse().ok()?;
        Some(config_of(c.task, c.layers, c.heads, d, c.positions, c.seed))
    });
    let on_positions = setting(|c, v| {
        let pos = Positions::from_code(v)?;
        Some(config_of(c.task, c.layers, c.heads, c.d_model, pos, c.seed))
    });
    let on_seed = setting(|c, v| {
        let s = v.trim().parse().ok()?;
        Some(config_of(
            c.task,
            c.layers,
            c.heads,
            c.d_model,
            c.positions,
            s,
        ))
    });

    let on_train = {
        let (run, ui, schedule, lab) = (run.clone(), ui.clone(), schedule.clone(), p.lab.clone());
        Callback::from(move |_: MouseEvent| {
            let training = {
                let mut r = run.borrow_mut();
                match r.phase {
                    Phase::Training => {
                        r.pause();
                        false
                    }
                    Phase::Done => false,
                    _ => {
                        r.start();
                        true
                    }
                }
            };
            mark(&lab, &run.borrow());
            if training {
                schedule();
            }
            ui.force_update();
        })
    };
    let on_step = {
        let (run, ui) = (run.clone(), ui.clone());
        Callback::from(move |_: MouseEvent| {
            let mut r = run.borrow_mut();
            if r.model.steps() < MAX_STEPS {
                r.model.step();
            }
            if r.phase != Phase::Done {
                r.phase = Phase::Paused;
            }
            r.settle();
            drop(r);
            ui.force_update();
        })
    };
    let on_reset = {
        let (rebuild, c) = (rebuild.clone(), c.clone());
        Callback::from(move |_: MouseEvent| rebuild(c.clone()))
    };
    let on_speed = |speed: f64| {
        let (run, ui) = (run.clone(), ui.clone());
        Callback::from(move |_: MouseEvent| {
            let mut r = run.borrow_mut();
            r.speed = speed;
            r.anchor = (now(), r.model.steps());
            r.window.clear();
            r.measured = None;
            drop(r);
            ui.force_update();
        })
    };
    let on_export = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| {
            let r = run.borrow();
            let name = format!(
                "attention-lab-model-{}-{}.json",
                r.model.config.task.code(),
                r.model.steps()
            );
            effects::download(&name, "application/json", &r.model.to_json());
        })
    };
    let on_import = {
        let (run, ui, error, note) = (run.clone(), ui.clone(), error.clone(), note.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            let (run, ui, error, note) = (run.clone(), ui.clone(), error.clone(), note.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let text = effects::read_file(file).await.ok();
                match text.as_deref().map(Model::from_json) {
                    Some(Ok(m)) => {
                        let steps = m.steps();
                        replace(&run, m);
                        error.set(None);
                        note.set(Some(steps));
                        ui.force_update();
                    }
                    Some(Err(e)) => error.set(Some(Problem::ImportFailed(Some(e)))),
                    None => error.set(Some(Problem::ImportFailed(None))),
                }
            });
        })
    };
    let on_open = p.on_open.clone().map(|open| {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| {
            let mut r = run.borrow_mut();
            if r.phase == Phase::Training {
                r.pause();
            }
            let m = &r.model;
            let json = m.scenario(m.eval_sample()).to_json();
            drop(r);
            open.emit(json);
        })
    });

    let (q, answers, right, why) = question(c.task);
    let s = &r.shown;
    let pct = |v: f64| rounded(v, 3);
    let now_text = fill(
        T::Now.t(lang),
        &[&s.step.to_string(), &pct(s.accuracy), &short(s.loss)],
    );
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    let n = c.n;
    let cell_css = if n <= 9 { 22.0 } else { 16.0 };
    let option = |value: String, text: String, selected: bool| {
        html! { <option value={value} selected={selected}>{ text }</option> }
    };
    let d_choices: Vec<usize> = {
        let mut d = vec![8, 16, 32];
        if !d.contains(&c.d_model) {
            d.push(c.d_model);
        }
        d
    };

    html! {
        <div class="train-lab">
            <p class="lead">{ T::TrainLead.t(lang) }</p>
            <Predict key={c.task.code()} question={q.t(lang)} answers={answers.iter().map(|a| AttrValue::from(a.t(lang))).collect::<Vec<_>>()}
                right={right} explanation={why.t(lang)} words={T::predict_words(lang)}>
                <p class="train-now" data-now="">{ now_text }</p>
            </Predict>
            <div class="lab-controls train-controls">
                <label class="field">{ T::Task.t(lang) }
                    <select data-control="task" onchange={on_task}>
                        { for Task::ALL.iter().map(|t| option(t.code().into(), task_text(*t).t(lang).into(), *t == c.task)) }
                    </select>
                </label>
                <label class="field">{ T::Layers.t(lang) }
                    <select data-control="layers" onchange={on_layers}>
                        { for (1..=train::MAX_LAYERS).map(|l| option(l.to_string(), l.to_string(), l == c.layers)) }
                    </select>
                </label>
                <label class="field">{ T::Heads.t(lang) }
                    <select data-control="heads" onchange={on_heads}>
                        { for (1..=train::MAX_HEADS).map(|h| option(h.to_string(), h.to_string(), h == c.heads)) }
                    </select>
                </label>
                <label class="field">{ T::DModel.t(lang) }
                    <select data-control="d_model" onchange={on_d}>
                        { for d_choices.iter().map(|&d| option(d.to_string(), d.to_string(), d == c.d_model)) }
                    </select>
                </label>
                <label class="field">{ T::Positions.t(lang) }
                    <select data-control="positional" onchange={on_positions}>
                        { for [Positions::Learned, Positions::Sinusoidal, Positions::None].iter().map(|&pos| option(pos.code().into(), positions_text(pos).t(lang).into(), pos == c.positions)) }
                    </select>
                </label>
                <label class="field small">{ T::SeedLabel.t(lang) }
                    <input ref={seed_field} type="number" min="0" step="1" data-control="seed" onchange={on_seed} />
                </label>
            </div>
            <div class="train-buttons">
                <button data-control="train" class="primary" onclick={on_train} disabled={phase == Phase::Done}
                    aria-pressed={(phase == Phase::Training).to_string()}>
                    { if phase == Phase::Training { C::Pause.t(lang) } else { T::Train.t(lang) } }
                </button>
                <button data-control="step" onclick={on_step} disabled={phase == Phase::Training || r.model.steps() >= MAX_STEPS}>{ T::OneStep.t(lang) }</button>
                <button data-control="reset" onclick={on_reset}>{ T::Reset.t(lang) }</button>
                <span class="train-speed" role="group" aria-label={C::SpeedLabel.t(lang)}>
                    { C::SpeedLabel.t(lang) }{ C::Colon.t(lang) }
                    { for SPEEDS.iter().map(|&(v, label)| html! {
                        <button data-speed-button={exact(v)} aria-pressed={(r.speed == v).to_string()} onclick={on_speed(v)}>{ label }</button>
                    }) }
                </span>
                <span class="train-rate">
                    { fill(T::Target.t(lang), &[&exact(r.rate())]) }
                    { " · " }
                    <span data-measured={r.measured.map(|m| rounded(m, 2))}>
                        { fill(T::Measured.t(lang), &[&r.measured.map_or("—".to_string(), |m| rounded(m, 1))]) }
                    </span>
                </span>
            </div>
            <div class="train-buttons">
                if let Some(open) = on_open {
                    <button data-control="open" onclick={open}>{ T::Open.t(lang) }</button>
                }
                <button data-control="export" onclick={on_export}>{ T::Export.t(lang) }</button>
                <label class="button">
                    { T::Import.t(lang) }
                    <input class="visually-hidden" type="file" accept=".json,application/json" data-control="import" onchange={on_import} />
                </label>
            </div>
            if let Some(e) = &*error {
                <p class="field-error" role="alert">{ e.worded(lang) }</p>
            }
            if let Some(steps) = *note {
                <p class="note" role="status">{ fill(T::Imported.t(lang), &[&steps.to_string()]) }</p>
            }
            <dl class="train-readout" aria-live="off">
                <div><dt>{ T::Step.t(lang) }</dt><dd data-readout="step">{ s.step }</dd></div>
                <div><dt>{ T::Loss.t(lang) }</dt><dd data-readout="loss">{ short(s.loss) }</dd></div>
                <div><dt>{ T::Accuracy.t(lang) }</dt><dd data-readout="accuracy">{ pct(s.accuracy) }</dd></div>
                <div><dt>{ T::State.t(lang) }</dt><dd data-readout="state">{ phase.text().t(lang) }</dd></div>
            </dl>
            <p class="note">{ fill(T::EvalSet.t(lang), &[&train::EVAL_SIZE.to_string()]) }{ " " }{ fill(T::DoneRule.t(lang), &[&MAX_STEPS.to_string()]) }</p>
            { curve(&r.history, lang) }
            <h3>{ T::HeadsTitle.t(lang) }</h3>
            <p class="train-sample">{ T::Sample.t(lang) }{ " " }
                { for s.traces.first().map(|t| t.tokens.clone()).unwrap_or_default().into_iter().map(|t| html! { <span class="chip">{ t }</span> }) }
            </p>
            <div class="train-layers">
                { for s.traces.iter().enumerate().map(|(l, t)| html! {
                    <div class="train-layer" data-train-layer={(l + 1).to_string()}>
                        { for (0..t.heads.len()).map(|h| head_figure(t, l, h, s.scores.iter().find(|x| x.layer == l && x.head == h), cell_css, dpr, lang)) }
                    </div>
                }) }
            </div>
            { decode_view(&r.model, phase, lang) }
        </div>
    }
}

/// One head's heatmap with its name, what it has become and its scores.
fn head_figure(
    t: &Rc<Trace>,
    l: usize,
    h: usize,
    score: Option<&HeadScore>,
    cell_css: f64,
    dpr: f64,
    lang: Lang,
) -> Html {
    let name = fill(
        T::HeadName.t(lang),
        &[&(l + 1).to_string(), &(h + 1).to_string()],
    );
    let weights = t.heads[h]
        .weights
        .row_iter()
        .flat_map(|row| row.iter().map(|v| exact(*v)).collect::<Vec<_>>())
        .collect::<Vec<_>>()
        .join(" ");
    let kind = score.and_then(|s| s.kind);
    let label = score.and_then(|s| {
        let (k, v) = match s.kind? {
            HeadKind::PreviousToken => (T::PreviousHead, s.previous),
            HeadKind::Induction => (T::InductionHead, s.induction?),
        };
        Some(fill(T::Labelled.t(lang), &[k.t(lang), &rounded(v, 2)]))
    });
    let scores = score.map(|s| {
        fill(
            T::Scores.t(lang),
            &[
                &rounded(s.previous, 2),
                &s.induction.map_or("—".to_string(), |v| rounded(v, 2)),
            ],
        )
    });
    html! {
        <figure class="train-head" data-layer={(l + 1).to_string()} data-head={(h + 1).to_string()}
            data-weights={weights} data-head-kind={kind.map(|k| k.label())}
            data-previous-score={score.map(|s| exact(s.previous))}
            data-induction-score={score.and_then(|s| s.induction).map(exact)}>
            <figcaption>
                <strong>{ name.clone() }</strong>
                if let Some(label) = label {
                    { " · " }<span class="head-kind">{ label }</span>
                }
                <br />
                <span class="scores">{ scores.unwrap_or_default() }</span>
            </figcaption>
            <Heatmap trace={t.clone()} map={Map::Head(h)} transpose={false} cell_css={cell_css} dpr={dpr}
                title={AttrValue::from(name)} file={AttrValue::from(format!("train-layer{}-head{}", l + 1, h + 1))}
                lang={lang} layer={Some(l + 1)} />
        </figure>
    }
}

/// The loss (solid) and accuracy (dashed) against the steps.
fn curve(history: &[(u64, f64, f64)], lang: Lang) -> Html {
    const W: f64 = 320.0;
    const H: f64 = 140.0;
    const LEFT: f64 = 34.0;
    const BOTTOM: f64 = 18.0;
    const TOP: f64 = 6.0;
    let last = history.last().map_or(0, |h| h.0).max(10) as f64;
    let top_loss = history
        .iter()
        .map(|h| h.1)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max)
        .max(0.1);
    let x = |s: u64| LEFT + (W - LEFT - 6.0) * s as f64 / last;
    let y = |v: f64, max: f64| TOP + (H - TOP - BOTTOM) * (1.0 - (v / max).clamp(0.0, 1.0));
    let points = |f: &dyn Fn(&(u64, f64, f64)) -> f64, max: f64| {
        history
            .iter()
            .map(|h| format!("{:.1},{:.1}", x(h.0), y(f(h), max)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let label = fill(
        T::CurveAxes.t(lang),
        &[&(last as u64).to_string(), &rounded(top_loss, 2)],
    );
    html! {
        <figure class="train-curve">
            <figcaption>{ T::CurveTitle.t(lang) }</figcaption>
            <svg viewBox={format!("0 0 {W} {H}")} width={W.to_string()} height={H.to_string()} role="img" aria-label={label.clone()}
                data-curve="loss" data-points={history.len().to_string()}>
                <line class="axis" x1={LEFT.to_string()} y1={(H - BOTTOM).to_string()} x2={(W - 6.0).to_string()} y2={(H - BOTTOM).to_string()} />
                <line class="axis" x1={LEFT.to_string()} y1={TOP.to_string()} x2={LEFT.to_string()} y2={(H - BOTTOM).to_string()} />
                <text x={(LEFT - 4.0).to_string()} y={(TOP + 8.0).to_string()} text-anchor="end">{ rounded(top_loss, 2) }</text>
                <text x={(LEFT - 4.0).to_string()} y={(H - BOTTOM).to_string()} text-anchor="end">{ "0" }</text>
                <text x={(W - 6.0).to_string()} y={(H - 4.0).to_string()} text-anchor="end">{ (last as u64).to_string() }</text>
                <polyline class="train-acc" points={points(&|h| h.2, 1.0)} />
                <polyline class="train-loss" points={points(&|h| h.1, top_loss)} />
            </svg>
            <p class="note">{ label }</p>
        </figure>
    }
}

/// Decoding (note 000 §6.2) beside the parallel pass, once training stops.
fn decode_view(model: &Model, phase: Phase, lang: Lang) -> Html {
    let body = if phase == Phase::Training || model.steps() == 0 {
        html! { <p class="note">{ T::DecodeWhen.t(lang) }</p> }
    } else {
        let sample = &model.eval_sample().tokens;
        let n = sample.len();
        let k = (n / 2).max(1);
        match (model.predict(sample), model.decode(&sample[..k], n - k)) {
            (Ok(par), Ok(dec)) => {
                let label = |t: usize| train::token_label(t);
                let same: Vec<bool> = (0..dec.predictions.len())
                    .map(|i| dec.tokens[..=i] == sample[..=i])
                    .collect();
                let agree: Vec<bool> = (0..dec.predictions.len())
                    .map(|i| dec.predictions[i] == par.next[i])
                    .collect();
                let same_count = same.iter().filter(|s| **s).count();
                let agree_count = (0..same.len()).filter(|&i| same[i] && agree[i]).count();
                let causal = matches!(model.config.task, Task::Previous | Task::Induction);
                let row = |name: T, cells: Vec<Html>| {
                    html! { <tr><th scope="row">{ name.t(lang) }</th>{ for cells }</tr> }
                };
                html! {
                    <>
                        <p data-decode-steps={dec.steps.to_string()} data-parallel-passes={par.passes.to_string()}>
                            { fill(T::DecodeSteps.t(lang), &[&par.passes.to_string(), &n.to_string(), &dec.steps.to_string()]) }
                        </p>
                        <p data-agree={agree_count.to_string()} data-same={same_count.to_string()}>
                            { fill(T::DecodeAgree.t(lang), &[&same_count.to_string(), &agree_count.to_string()]) }
                            if !causal { { " " }{ T::DecodeNotCausal.t(lang) } }
                        </p>
                        <div class="grid-scroll">
                            <table class="lab-table train-decode" data-decode="">
                                <thead><tr><th scope="col">{ T::Position.t(lang) }</th>
                                    { for (0..n).map(|i| html! { <th scope="col">{ i + 1 }</th> }) }</tr></thead>
                                <tbody>
                                    { row(T::SampleRow, sample.iter().map(|&t| html! { <td>{ label(t) }</td> }).collect()) }
                                    { row(T::ParallelRow, par.next.iter().enumerate().map(|(i, &t)| html! {
                                        <td data-pos={i.to_string()} data-parallel={label(t)}>{ label(t) }</td> }).collect()) }
                                    { row(T::DecoderInput, dec.tokens.iter().enumerate().map(|(i, &t)| html! {
                                        <td class={classes!((i >= k).then_some("generated"))}>{ label(t) }</td> }).collect()) }
                                    { row(T::DecoderRow, (0..n).map(|i| match dec.predictions.get(i) {
                                        Some(&t) => html! {
                                            <td data-pos={i.to_string()} data-decoded={label(t)} data-same-input={same[i].to_string()}
                                                data-agree={agree[i].to_string()}
                                                class={classes!((same[i] && agree[i]).then_some("now"))}>{ label(t) }</td> },
                                        None => html! { <td>{ "—" }</td> },
                                    }).collect()) }
                                </tbody>
                            </table>
                        </div>
                    </>
                }
            }
            _ => html! {},
        }
    };
    let k = (model.config.n / 2).max(1);
    html! {
        <section class="train-decode-section" data-figure="decode">
            <h3>{ T::DecodeTitle.t(lang) }</h3>
            <p class="lead">{ fill(T::DecodeLead.t(lang), &[&k.to_string()]) }</p>
            { body }
        </section>
    }
}

/// The mounted lab, for [`set_lang`].
struct Mounted {
    app: yew::AppHandle<TrainLab>,
    props: TrainProps,
}

thread_local! {
    static MOUNTED: RefCell<Option<Mounted>> = const { RefCell::new(None) };
}

/// Renders the lab into `host` (once), writing the contract's attributes
/// on `lab`; `on_open` receives the scenario JSON of "Open in the
/// workbench".
pub fn mount(
    host: web_sys::Element,
    lab: web_sys::Element,
    lang: Lang,
    on_open: Option<Callback<String>>,
) {
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_some() {
            return;
        }
        let props = TrainProps { lang, lab, on_open };
        // A root of its own inside the page's (see labs_root::mount).
        let app = yew::Renderer::<TrainLab>::with_root_and_props(host, props.clone()).render();
        *m = Some(Mounted { app, props });
        expose_bench();
    });
}

/// Makes [`bench`] callable from a script once the lab is mounted, as
/// `window.attentionLabTrainBench(task, steps)` (scripts/bench-train.mjs):
/// here rather than as an export of the page's module, so that the code
/// stays in the training lab's chunk.
fn expose_bench() {
    let f = Closure::<dyn Fn(String, u32) -> Vec<f64>>::new(|task: String, steps: u32| {
        bench(&task, steps)
    });
    js_sys::Reflect::set(
        &gloo::utils::window(),
        &JsValue::from_str("attentionLabTrainBench"),
        &f.into_js_value(),
    )
    .ok();
}

/// Shows the lab in `lang`.
pub fn set_lang(lang: Lang) {
    MOUNTED.with(|m| {
        if let Some(m) = m.borrow_mut().as_mut() {
            if m.props.lang != lang {
                m.props.lang = lang;
                m.app.update(m.props.clone());
            }
        }
    });
}

/// For scripts/bench-train.mjs: the milliseconds `steps` Adam steps of
/// `task`'s default model take in this browser, then one evaluation on
/// the evaluation set, then one evaluation sample's trace; empty for an
/// unknown task.
pub fn bench(task: &str, steps: u32) -> Vec<f64> {
    let Some(Ok(mut m)) = Task::from_code(task).map(|t| Model::new(Config::new(t, DEFAULT_SEED)))
    else {
        return Vec::new();
    };
    let t0 = now();
    for _ in 0..steps {
        m.step();
    }
    let t1 = now();
    m.evaluate();
    let t2 = now();
    m.eval_trace();
    let t3 = now();
    vec![t1 - t0, t2 - t1, t3 - t2]
}
