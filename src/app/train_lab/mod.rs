//! The training lab, a Yew root of its own, reached only through the split
//! point [`train_bridge`](crate::app::chunks) calls when the reader opens
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

mod figures;
mod frame;
mod mount;
mod run;

use figures::{curve, decode_view, head_figure};
use frame::{mark, request};
pub use mount::{mount, set_lang};
use run::*;

use super::effects;
use super::i18n::{fill, CommonText, Lang, TrainText};
use super::labs::predict::Predict;
use crate::lesson::format::{exact, rounded, short};
use std::cell::RefCell;
use std::rc::Rc;
use train::{Config, Model, Positions, Task};
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
            Problem::BadConfig(e) => fill(TrainText::BadConfig.t(lang), &[&e.worded(zh)]),
            Problem::BadSeed => TrainText::BadSeed.t(lang).to_string(),
            Problem::ImportFailed(Some(e)) => {
                fill(TrainText::ImportFailed.t(lang), &[&e.worded(zh)])
            }
            Problem::ImportFailed(None) => fill(
                TrainText::ImportFailed.t(lang),
                &[TrainText::Unreadable.t(lang)],
            ),
        }
    }
}

/// A new run of `model` (stopped), keeping whether a frame is already
/// asked for, so the loop never runs twice a frame.
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

fn task_text(t: Task) -> TrainText {
    match t {
        Task::Previous => TrainText::TaskPrevious,
        Task::Reverse => TrainText::TaskReverse,
        Task::Induction => TrainText::TaskInduction,
        Task::Majority => TrainText::TaskMajority,
    }
}

fn positions_text(p: Positions) -> TrainText {
    match p {
        Positions::Learned => TrainText::PosLearned,
        Positions::Sinusoidal => TrainText::PosSinusoidal,
        Positions::None => TrainText::PosNone,
    }
}

/// Each task's question: its text, answers, the right one and why.
fn question(t: Task) -> (TrainText, [TrainText; 2], usize, TrainText) {
    match t {
        Task::Previous => (
            TrainText::QPrevious,
            [TrainText::AnswerCan, TrainText::AnswerCannot],
            0,
            TrainText::EPrevious,
        ),
        Task::Reverse => (
            TrainText::QReverse,
            [TrainText::AnswerCan, TrainText::AnswerCannot],
            1,
            TrainText::EReverse,
        ),
        Task::Induction => (
            TrainText::QInduction,
            [TrainText::AnswerCan, TrainText::AnswerCannot],
            1,
            TrainText::EInduction,
        ),
        Task::Majority => (
            TrainText::QMajority,
            [TrainText::NeedsPositions, TrainText::NoPositionsNeeded],
            1,
            TrainText::EMajority,
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
        TrainText::Now.t(lang),
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
            <p class="lead">{ TrainText::TrainLead.t(lang) }</p>
            <Predict key={c.task.code()} question={q.t(lang)} answers={answers.iter().map(|a| AttrValue::from(a.t(lang))).collect::<Vec<_>>()}
                right={right} explanation={why.t(lang)} words={TrainText::predict_words(lang)}>
                <p class="train-now" data-now="">{ now_text }</p>
            </Predict>
            <div class="lab-controls train-controls">
                <label class="field">{ TrainText::Task.t(lang) }
                    <select data-control="task" onchange={on_task}>
                        { for Task::ALL.iter().map(|t| option(t.code().into(), task_text(*t).t(lang).into(), *t == c.task)) }
                    </select>
                </label>
                <label class="field">{ TrainText::Layers.t(lang) }
                    <select data-control="layers" onchange={on_layers}>
                        { for (1..=train::MAX_LAYERS).map(|l| option(l.to_string(), l.to_string(), l == c.layers)) }
                    </select>
                </label>
                <label class="field">{ TrainText::Heads.t(lang) }
                    <select data-control="heads" onchange={on_heads}>
                        { for (1..=train::MAX_HEADS).map(|h| option(h.to_string(), h.to_string(), h == c.heads)) }
                    </select>
                </label>
                <label class="field">{ TrainText::DModel.t(lang) }
                    <select data-control="d_model" onchange={on_d}>
                        { for d_choices.iter().map(|&d| option(d.to_string(), d.to_string(), d == c.d_model)) }
                    </select>
                </label>
                <label class="field">{ TrainText::Positions.t(lang) }
                    <select data-control="positional" onchange={on_positions}>
                        { for [Positions::Learned, Positions::Sinusoidal, Positions::None].iter().map(|&pos| option(pos.code().into(), positions_text(pos).t(lang).into(), pos == c.positions)) }
                    </select>
                </label>
                <label class="field small">{ TrainText::SeedLabel.t(lang) }
                    <input ref={seed_field} type="number" min="0" step="1" data-control="seed" onchange={on_seed} />
                </label>
            </div>
            <div class="train-buttons">
                <button data-control="train" class="primary" onclick={on_train} disabled={phase == Phase::Done}
                    aria-pressed={(phase == Phase::Training).to_string()}>
                    { if phase == Phase::Training { CommonText::Pause.t(lang) } else { TrainText::Train.t(lang) } }
                </button>
                <button data-control="step" onclick={on_step} disabled={phase == Phase::Training || r.model.steps() >= MAX_STEPS}>{ TrainText::OneStep.t(lang) }</button>
                <button data-control="reset" onclick={on_reset}>{ TrainText::Reset.t(lang) }</button>
                <span class="train-speed" role="group" aria-label={CommonText::SpeedLabel.t(lang)}>
                    { CommonText::SpeedLabel.t(lang) }{ CommonText::Colon.t(lang) }
                    { for SPEEDS.iter().map(|&(v, label)| html! {
                        <button data-speed-button={exact(v)} aria-pressed={(r.speed == v).to_string()} onclick={on_speed(v)}>{ label }</button>
                    }) }
                </span>
                <span class="train-rate">
                    { fill(TrainText::Target.t(lang), &[&exact(r.rate())]) }
                    { " · " }
                    <span data-measured={r.measured.map(|m| rounded(m, 2))}>
                        { fill(TrainText::Measured.t(lang), &[&r.measured.map_or("—".to_string(), |m| rounded(m, 1))]) }
                    </span>
                </span>
            </div>
            <div class="train-buttons">
                if let Some(open) = on_open {
                    <button data-control="open" onclick={open}>{ TrainText::Open.t(lang) }</button>
                }
                <button data-control="export" onclick={on_export}>{ TrainText::Export.t(lang) }</button>
                <label class="button">
                    { TrainText::Import.t(lang) }
                    <input class="visually-hidden" type="file" accept=".json,application/json" data-control="import" onchange={on_import} />
                </label>
            </div>
            if let Some(e) = &*error {
                <p class="field-error" role="alert">{ e.worded(lang) }</p>
            }
            if let Some(steps) = *note {
                <p class="note" role="status">{ fill(TrainText::Imported.t(lang), &[&steps.to_string()]) }</p>
            }
            <dl class="train-readout" aria-live="off">
                <div><dt>{ TrainText::Step.t(lang) }</dt><dd data-readout="step">{ s.step }</dd></div>
                <div><dt>{ TrainText::Loss.t(lang) }</dt><dd data-readout="loss">{ short(s.loss) }</dd></div>
                <div><dt>{ TrainText::Accuracy.t(lang) }</dt><dd data-readout="accuracy">{ pct(s.accuracy) }</dd></div>
                <div><dt>{ TrainText::State.t(lang) }</dt><dd data-readout="state">{ phase.text().t(lang) }</dd></div>
            </dl>
            <p class="note">{ fill(TrainText::EvalSet.t(lang), &[&train::EVAL_SIZE.to_string()]) }{ " " }{ fill(TrainText::DoneRule.t(lang), &[&MAX_STEPS.to_string()]) }</p>
            { curve(&r.history, lang) }
            <h3>{ TrainText::HeadsTitle.t(lang) }</h3>
            <p class="train-sample">{ TrainText::Sample.t(lang) }{ " " }
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
