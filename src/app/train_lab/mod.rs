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
//! The frames come from the page's animation clock
//! ([`crate::app::hooks::use_animation_clock`]).
//!
//! The parts: [`run`] (a run of training: slices, evaluation, the measured
//! rate), [`settings`] (the settings' pure machine), [`panel`] (the
//! controls and the read-out), [`figures`] (the loss curve, the heads and
//! the decoding), [`words`], [`attributes`] (the page contract's
//! attributes) and [`mount`] (the chunk's entry).
//!
//! The lab element (the page's `section[data-lab="train"]`) carries the
//! page contract's attributes (docs/format.md §3): `data-train-step`,
//! `data-loss`, `data-accuracy`, `data-state`, `data-sample`,
//! `data-speed`, and for the benchmark `data-steps-per-second`,
//! `data-longest-slice-ms` and `data-slices` (slices run, over 16 ms, over
//! 50 ms).

mod attributes;
mod digits;
mod figures;
mod mount;
mod panel;
mod run;
mod settings;
mod words;

use attributes::mark;
use figures::{both_view, curve, decode_view, generate_view, head_figure};
pub use mount::{mount, set_lang};
use panel::{buttons, readout, settings_row, Buttons};
use run::*;
use settings::Setting;
use words::{question, Problem};

use super::hooks::use_animation_clock;
use super::i18n::{fill, Lang, TrainText};
use super::labs::predict::Predict;
use super::web;
use crate::lesson::format::{rounded, short};
use std::cell::RefCell;
use std::rc::Rc;
use train::{Config, Model, Task};
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

/// A new run of `model` (stopped).
fn replace(run: &RefCell<Run>, model: Model) {
    *run.borrow_mut() = Run::new(model);
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

/// One slice of training in an animation frame; whether to go on. The
/// lab renders again after an evaluation and when training stops.
fn train_slice(run: &RefCell<Run>, ui: &UseForceUpdateHandle) -> bool {
    let (redraw, again) = {
        let mut r = run.borrow_mut();
        if r.phase != Phase::Training {
            return false;
        }
        let evaluated = r.slice();
        let again = r.phase == Phase::Training;
        (evaluated || !again, again)
    };
    if redraw {
        ui.force_update();
    }
    again
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
    let training = run.borrow().phase == Phase::Training;
    use_animation_clock(training, || {
        let (run, ui) = (run.clone(), ui.clone());
        move || train_slice(&run, &ui)
    });
    // The contract's attributes on the lab element, after every render
    // (and at once on Train and Pause).
    {
        let (run, lab) = (run.clone(), p.lab.clone());
        use_effect(move || mark(&lab, &run.borrow()));
    }
    let r = run.borrow();
    let c = r.model.config.clone();
    let seed_field = super::hooks::use_input_value(c.seed.to_string().into());

    // Any change of the settings: a fresh model (training stops). The
    // digits come first when `digits` is chosen and they are not here yet;
    // until they are, the last model stays.
    let loading = use_state(|| false);
    let build = {
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
    let rebuild = {
        let (error, ui, loading) = (error.clone(), ui.clone(), loading.clone());
        Rc::new(move |c: Config| {
            if c.task != Task::Digits || train::digits::installed().is_some() {
                return build(c);
            }
            loading.set(true);
            let (build, error, ui, loading) =
                (build.clone(), error.clone(), ui.clone(), loading.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let here = digits::ensure().await;
                loading.set(false);
                if here {
                    build(c);
                } else {
                    error.set(Some(Problem::DigitsFailed));
                    ui.force_update();
                }
            });
        })
    };
    let on_setting = |setting: Setting| {
        let (rebuild, c, error) = (rebuild.clone(), c.clone(), error.clone());
        Callback::from(move |e: Event| match setting.apply(&c, &value_of(&e)) {
            Some(next) => rebuild(next),
            None => error.set(Some(Problem::BadSeed)),
        })
    };
    let on_train = {
        let (run, ui, lab) = (run.clone(), ui.clone(), p.lab.clone());
        Callback::from(move |_: MouseEvent| {
            {
                let mut r = run.borrow_mut();
                match r.phase {
                    Phase::Training => r.pause(),
                    Phase::Done => {}
                    _ => r.start(),
                }
            }
            mark(&lab, &run.borrow());
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
    let on_speed = {
        let (run, ui) = (run.clone(), ui.clone());
        Callback::from(move |speed: f64| {
            run.borrow_mut().set_speed(speed);
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
            web::download(&name, "application/json", &r.model.to_json());
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
                let text = web::read_file(file).await.ok();
                let mut read = text.as_deref().map(Model::from_json);
                // A digits model needs the digits: fetched, then read again.
                if let Some(Err(e)) = &read {
                    if e.reason == train::ModelReason::NoDigits && digits::ensure().await {
                        read = text.as_deref().map(Model::from_json);
                    }
                }
                match read {
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
    let now_text = fill(
        TrainText::Now.t(lang),
        &[&s.step.to_string(), &rounded(s.accuracy, 3), &short(s.loss)],
    );
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    let cell_css = if c.n <= 9 { 22.0 } else { 16.0 };

    html! {
        <div class="train-lab">
            <p class="lead">{ TrainText::TrainLead.t(lang) }</p>
            <Predict key={c.task.code()} question={q.t(lang)} answers={answers.iter().map(|a| AttrValue::from(a.t(lang))).collect::<Vec<_>>()}
                right={right} explanation={why.t(lang)} words={TrainText::predict_words(lang)}>
                <p class="train-now" data-now="">{ now_text }</p>
            </Predict>
            { settings_row(&c, lang, seed_field, on_setting) }
            { buttons(&Buttons { run: &r, lang, on_train, on_step, on_reset, on_speed, on_open, on_export, on_import }) }
            if let Some(e) = &*error {
                <p class="field-error" role="alert">{ e.worded(lang) }</p>
            }
            if *loading {
                <p class="note" role="status" data-digits="loading">{ TrainText::DigitsLoading.t(lang) }</p>
            }
            if let Some(steps) = *note {
                <p class="note" role="status">{ fill(TrainText::Imported.t(lang), &[&steps.to_string()]) }</p>
            }
            { readout(&r, lang) }
            { curve(&r.history, lang) }
            <h3>{ TrainText::HeadsTitle.t(lang) }</h3>
            <p class="train-sample">{ TrainText::Sample.t(lang) }{ " " }
                { for s.traces.first().map(|t| t.tokens.clone()).unwrap_or_default().into_iter().map(|t| html! { <span class="chip">{ t }</span> }) }
            </p>
            <div class="train-layers">
                { for s.traces.iter().enumerate().map(|(l, t)| html! {
                    <div class="train-layer" data-train-layer={(l + 1).to_string()}>
                        { for (0..t.heads.len()).map(|h| head_figure(t, l, h, s.scores.iter().find(|x| x.layer == l && x.head == h && c.task != Task::Digits), cell_css, dpr, lang)) }
                    </div>
                }) }
            </div>
            if c.task.output() == train::Output::Sequence {
                { generate_view(&r.model, r.phase, lang) }
            }
            if c.task.output() == train::Output::MultiLabel {
                { both_view(&r.model, r.phase, lang) }
            }
            if c.task == Task::Digits {
                { digits::patches_view(&r, lang) }
            } else {
                { decode_view(&r.model, r.phase, lang) }
            }
        </div>
    }
}
