//! The lab's words for its tasks, settings, questions and refusals.

use crate::app::i18n::{fill, Lang, TrainText};
use train::{Output, Positions, Readout, Task};

/// What the lab refused, kept as data and worded when shown, so that it
/// follows a change of language like everything else on the page.
#[derive(Clone, PartialEq)]
pub(super) enum Problem {
    /// A setting that builds no model.
    BadConfig(train::ModelError),
    /// A seed that is not a whole number ≥ 0.
    BadSeed,
    /// A model file refused (or, `None`, a file that could not be read).
    ImportFailed(Option<train::ModelError>),
    /// The digits could not be fetched (choose `digits` again to retry).
    DigitsFailed,
}

impl Problem {
    pub(super) fn worded(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Problem::BadConfig(e) => fill(TrainText::BadConfig.t(lang), &[&e.worded(zh)]),
            Problem::BadSeed => TrainText::BadSeed.t(lang).to_string(),
            Problem::DigitsFailed => TrainText::DigitsFailed.t(lang).to_string(),
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

pub(super) fn task_text(t: Task) -> TrainText {
    match t {
        Task::Previous => TrainText::TaskPrevious,
        Task::Reverse => TrainText::TaskReverse,
        Task::Induction => TrainText::TaskInduction,
        Task::Majority => TrainText::TaskMajority,
        Task::Seq2seq => TrainText::TaskSeq2seq,
        Task::Multilabel => TrainText::TaskMultilabel,
        Task::Digits => TrainText::TaskDigits,
    }
}

/// The kind of output a task has, with its § of note 000.
pub(super) fn output_text(o: Output) -> TrainText {
    match o {
        Output::Labeling => TrainText::OutputLabeling,
        Output::Classification => TrainText::OutputClassification,
        Output::Sequence => TrainText::OutputSequence,
        Output::MultiLabel => TrainText::OutputMultiLabel,
    }
}

/// The page contract's name for a kind of output (`data-output`).
pub(super) fn output_code(o: Output) -> &'static str {
    match o {
        Output::Labeling => "labeling",
        Output::Classification => "classification",
        Output::Sequence => "seq2seq",
        Output::MultiLabel => "multilabel",
    }
}

pub(super) fn readout_text(r: Readout) -> TrainText {
    match r {
        Readout::Sigmoid => TrainText::ReadoutSigmoid,
        Readout::Sequence => TrainText::ReadoutSequence,
    }
}

pub(super) fn positions_text(p: Positions) -> TrainText {
    match p {
        Positions::Learned => TrainText::PosLearned,
        Positions::Sinusoidal => TrainText::PosSinusoidal,
        Positions::None => TrainText::PosNone,
    }
}

/// Each task's question: its text, answers, the right one and why.
pub(super) fn question(t: Task) -> (TrainText, [TrainText; 2], usize, TrainText) {
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
        Task::Seq2seq => (
            TrainText::QSeq2seq,
            [TrainText::AnswerEos, TrainText::AnswerLimit],
            0,
            TrainText::ESeq2seq,
        ),
        Task::Multilabel => (
            TrainText::QMultilabel,
            [TrainText::AnswerAnyNumber, TrainText::AnswerOnlyOne],
            0,
            TrainText::EMultilabel,
        ),
        Task::Digits => (
            TrainText::QDigits,
            [TrainText::NeedsPositions, TrainText::NoPositionsNeeded],
            0,
            TrainText::EDigits,
        ),
    }
}
