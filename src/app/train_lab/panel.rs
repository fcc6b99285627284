//! The lab's controls and read-out: the settings row, the buttons (train,
//! one step, reset, speed, open, export, import) and the numbers of the
//! last evaluation.

use super::run::{Phase, Run};
use super::settings::Setting;
use super::words::{output_code, output_text, positions_text, readout_text, task_text};
use super::{MAX_STEPS, SPEEDS};
use crate::app::i18n::{fill, CommonText, Lang, TrainText};
use crate::lesson::format::{exact, rounded, short};
use train::{Config, Positions, Readout, Task};
use yew::prelude::*;

fn option(value: String, text: String, selected: bool) -> Html {
    html! { <option value={value} selected={selected}>{ text }</option> }
}

/// A labelled `<select data-control=…>` of `(value, text)` choices (a
/// `Vec`, not any iterator: one copy of this code for every select).
fn select(
    label: TrainText,
    control: &'static str,
    choices: Vec<(String, String)>,
    now: &str,
    onchange: Callback<Event>,
    lang: Lang,
) -> Html {
    html! {
        <label class="field">{ label.t(lang) }
            <select data-control={control} onchange={onchange}>
                { for choices.into_iter().map(|(v, t)| { let on = v == now; option(v, t, on) }) }
            </select>
        </label>
    }
}

/// The settings row: task, layers, heads, width, positions and seed.
/// `on` makes the callback of each control.
pub(super) fn settings_row(
    c: &Config,
    lang: Lang,
    seed_field: NodeRef,
    on: impl Fn(Setting) -> Callback<Event>,
) -> Html {
    let numbers = |to: usize| (1..=to).map(|k| (k.to_string(), k.to_string())).collect();
    let mut widths = vec![8, 16, 32];
    if !widths.contains(&c.d_model) {
        widths.push(c.d_model);
    }
    html! {
        <div class="lab-controls train-controls">
            { select(TrainText::Task, "task",
                Task::ALL.iter().map(|t| (t.code().to_string(), task_text(*t).t(lang).to_string())).collect(),
                c.task.code(), on(Setting::Task), lang) }
            { select(TrainText::Layers, "layers", numbers(train::MAX_LAYERS), &c.layers.to_string(), on(Setting::Layers), lang) }
            { select(TrainText::Heads, "heads", numbers(train::MAX_HEADS), &c.heads.to_string(), on(Setting::Heads), lang) }
            { select(TrainText::DModel, "d_model", widths.iter().map(|d| (d.to_string(), d.to_string())).collect(),
                &c.d_model.to_string(), on(Setting::DModel), lang) }
            { select(TrainText::Positions, "positional",
                [Positions::Learned, Positions::Sinusoidal, Positions::None].iter()
                    .map(|p| (p.code().to_string(), positions_text(*p).t(lang).to_string())).collect(),
                c.positions.code(), on(Setting::Positions), lang) }
            if c.task == Task::Digits {
                { select(TrainText::Patch, "patch",
                    train::PATCHES.iter().map(|p| (p.to_string(), p.to_string())).collect(),
                    &c.patch.to_string(), on(Setting::Patch), lang) }
            }
            if c.task == Task::Multilabel {
                { select(TrainText::Readout, "readout",
                    [Readout::Sigmoid, Readout::Sequence].iter()
                        .map(|r| (r.code().to_string(), readout_text(*r).t(lang).to_string())).collect(),
                    c.readout.code(), on(Setting::Readout), lang) }
            }
            <label class="field small">{ TrainText::SeedLabel.t(lang) }
                <input ref={seed_field} type="number" min="0" step="1" data-control="seed" onchange={on(Setting::Seed)} />
            </label>
            <p class="note train-output" data-output={output_code(c.task.output())}>
                <b>{ TrainText::OutputKind.t(lang) }</b>{ " " }{ output_text(c.task.output()).t(lang) }
            </p>
        </div>
    }
}

/// What the buttons act on.
pub(super) struct Buttons<'a> {
    pub run: &'a Run,
    pub lang: Lang,
    pub on_train: Callback<MouseEvent>,
    pub on_step: Callback<MouseEvent>,
    pub on_reset: Callback<MouseEvent>,
    pub on_speed: Callback<f64>,
    /// `None` where there is no workbench to open a model in.
    pub on_open: Option<Callback<MouseEvent>>,
    pub on_export: Callback<MouseEvent>,
    pub on_import: Callback<Event>,
}

/// Train or pause, one step, reset, the speeds and the rate; open in the
/// workbench, export and import.
pub(super) fn buttons(b: &Buttons) -> Html {
    let (r, lang) = (b.run, b.lang);
    let phase = r.phase;
    html! {
        <>
            <div class="train-buttons">
                <button data-control="train" class="primary" onclick={b.on_train.clone()} disabled={phase == Phase::Done}
                    aria-pressed={(phase == Phase::Training).to_string()}>
                    { if phase == Phase::Training { CommonText::Pause.t(lang) } else { TrainText::Train.t(lang) } }
                </button>
                <button data-control="step" onclick={b.on_step.clone()} disabled={phase == Phase::Training || r.model.steps() >= MAX_STEPS}>{ TrainText::OneStep.t(lang) }</button>
                <button data-control="reset" onclick={b.on_reset.clone()}>{ TrainText::Reset.t(lang) }</button>
                <span class="train-speed" role="group" aria-label={CommonText::SpeedLabel.t(lang)}>
                    { CommonText::SpeedLabel.t(lang) }{ CommonText::Colon.t(lang) }
                    { for SPEEDS.iter().map(|&(v, label)| html! {
                        <button data-speed-button={exact(v)} aria-pressed={(r.speed == v).to_string()}
                            onclick={b.on_speed.reform(move |_: MouseEvent| v)}>{ label }</button>
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
                if let Some(open) = b.on_open.clone() {
                    <button data-control="open" onclick={open}>{ TrainText::Open.t(lang) }</button>
                }
                <button data-control="export" onclick={b.on_export.clone()}>{ TrainText::Export.t(lang) }</button>
                <label class="button">
                    { TrainText::Import.t(lang) }
                    <input class="visually-hidden" type="file" accept=".json,application/json" data-control="import" onchange={b.on_import.clone()} />
                </label>
            </div>
        </>
    }
}

/// The last evaluation: step, loss, accuracy and state, and what they are
/// measured on.
pub(super) fn readout(r: &Run, lang: Lang) -> Html {
    let s = &r.shown;
    html! {
        <>
            <dl class="train-readout" aria-live="off">
                <div><dt>{ TrainText::Step.t(lang) }</dt><dd data-readout="step">{ s.step }</dd></div>
                <div><dt>{ TrainText::Loss.t(lang) }</dt><dd data-readout="loss">{ short(s.loss) }</dd></div>
                <div><dt>{ TrainText::Accuracy.t(lang) }</dt><dd data-readout="accuracy">{ rounded(s.accuracy, 3) }</dd></div>
                if matches!(r.model.config.task.output(), train::Output::Sequence | train::Output::MultiLabel) {
                    <div><dt>{ TrainText::WholeAccuracy.t(lang) }</dt><dd data-readout="whole">{ rounded(s.whole, 3) }</dd></div>
                }
                <div><dt>{ TrainText::State.t(lang) }</dt><dd data-readout="state">{ r.phase.text().t(lang) }</dd></div>
            </dl>
            <p class="note">{ fill(TrainText::EvalSet.t(lang), &[&train::EVAL_SIZE.to_string()]) }{ " " }{ fill(TrainText::DoneRule.t(lang), &[&MAX_STEPS.to_string()]) }</p>
        </>
    }
}
