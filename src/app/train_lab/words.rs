//! The lab's words for its tasks, settings, questions and refusals.

use crate::app::i18n::{fill, Lang, TrainText};
use train::{ModelError, ModelReason, Output, Positions, Readout, Task};

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
        match self {
            Problem::BadConfig(e) => {
                fill(TrainText::BadConfig.t(lang), &[&model_error_text(e, lang)])
            }
            Problem::BadSeed => TrainText::BadSeed.t(lang).to_string(),
            Problem::DigitsFailed => TrainText::DigitsFailed.t(lang).to_string(),
            Problem::ImportFailed(Some(e)) => fill(
                TrainText::ImportFailed.t(lang),
                &[&model_error_text(e, lang)],
            ),
            Problem::ImportFailed(None) => fill(
                TrainText::ImportFailed.t(lang),
                &[TrainText::Unreadable.t(lang)],
            ),
        }
    }
}

/// A refusal of the training crate in `lang`: the field as the file writes
/// it, then why, from the `Why…` texts (the crate's `Display` is the same
/// English, for native callers; a test below holds the two together).
pub(super) fn model_error_text(e: &ModelError, lang: Lang) -> String {
    let reason = reason_text(&e.reason, lang);
    if e.field.is_empty() {
        reason
    } else {
        fill(TrainText::WhyField.t(lang), &[&e.field, &reason])
    }
}

/// Why, in `lang`: the reason's text with its numbers and names filled in.
fn reason_text(r: &ModelReason, lang: Lang) -> String {
    use ModelReason as R;
    use TrainText as T;
    // The numbers of a reason, in the order its text fills them.
    let n = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>();
    let (key, args): (TrainText, Vec<String>) = match r {
        R::NotJson {
            line,
            column,
            problem,
        } => (
            T::WhyNotJson,
            [n(&[*line, *column]), vec![problem.worded(lang == Lang::Zh)]].concat(),
        ),
        R::NotObject => (T::WhyNotObject, Vec::new()),
        R::NumberBeyondF64 => (T::WhyBeyondF64, Vec::new()),
        R::Missing => (T::WhyMissing, Vec::new()),
        R::ExpectedText => (T::WhyText, Vec::new()),
        R::ExpectedNumber => (T::WhyNumber, Vec::new()),
        R::ExpectedWhole => (T::WhyWhole, Vec::new()),
        R::TooLarge => (T::WhyTooLarge, Vec::new()),
        R::Format(got) => (T::WhyFormat, vec![train::FORMAT.into(), got.clone()]),
        R::UnknownTask(t) => (T::WhyTask, vec![t.clone()]),
        R::UnknownPositions(p) => (T::WhyPositions, vec![p.clone()]),
        R::UnknownReadout(r) => (T::WhyReadout, vec![r.clone()]),
        R::ExpectedMatrices => (T::WhyMatrices, Vec::new()),
        R::ExpectedRows => (T::WhyRows, Vec::new()),
        R::RowCount { rows, cols, got } => (T::WhyRowCount, n(&[*rows, *cols, *got])),
        R::RowLength { rows, cols } => (T::WhyRowLength, n(&[*rows, *cols])),
        R::WeightRange { lo, hi } => (T::WhyWeightRange, vec![lo.to_string(), hi.to_string()]),
        R::Range { lo, hi, got } => (T::WhyRange, n(&[*lo, *hi, *got])),
        R::PositiveLr(lr) => (T::WhyPositiveLr, vec![lr.to_string()]),
        R::TaskNeedsN { task, need, got } => (
            T::WhyTaskNeedsN,
            [vec![task_name(*task, lang).into()], n(&[*need, *got])].concat(),
        ),
        R::SequenceVocab { need, got } => (T::WhySequenceVocab, n(&[*need, *got])),
        R::InductionVocab { need, got } => (T::WhyInductionVocab, n(&[*need, *got])),
        R::TokenCount {
            max,
            with_steps,
            got,
        } => (
            if *with_steps {
                T::WhyTokenCountSteps
            } else {
                T::WhyTokenCount
            },
            n(&[*max, *got]),
        ),
        R::NotAToken { token, vocab } => (T::WhyNotAToken, n(&[*token, *vocab])),
        R::NoDigits => (T::WhyNoDigits, Vec::new()),
        R::Patch(got) => (T::WhyPatch, n(&[*got])),
        R::DigitsClasses(got) => (T::WhyDigitsClasses, n(&[*got])),
        R::PatchPositions { patch, need, got } => (T::WhyPatchPositions, n(&[*patch, *need, *got])),
        R::ImageInput => (T::WhyImageInput, Vec::new()),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    fill(key.t(lang), &args)
}

/// A task as a refusal names it: the file's code in English (what the
/// reader would type in a model file), the task's name in Chinese.
fn task_name(t: Task, lang: Lang) -> &'static str {
    match lang {
        Lang::En => t.code(),
        Lang::Zh => task_text(t).t(lang),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::json::JsonProblem;

    /// One of each reason, with numbers and names that differ from each
    /// other, so a placeholder filled with the wrong value shows.
    fn reasons() -> Vec<ModelReason> {
        use ModelReason as R;
        vec![
            R::NotJson {
                line: 1,
                column: 2,
                problem: JsonProblem::Eof,
            },
            R::NotObject,
            R::NumberBeyondF64,
            R::Missing,
            R::ExpectedText,
            R::ExpectedNumber,
            R::ExpectedWhole,
            R::TooLarge,
            R::Format("某".into()),
            R::UnknownTask("某".into()),
            R::UnknownPositions("某".into()),
            R::UnknownReadout("某".into()),
            R::ExpectedMatrices,
            R::ExpectedRows,
            R::RowCount {
                rows: 2,
                cols: 3,
                got: 1,
            },
            R::RowLength { rows: 2, cols: 3 },
            R::WeightRange { lo: -1e6, hi: 1e6 },
            R::Range {
                lo: 1,
                hi: 4,
                got: 9,
            },
            R::PositiveLr(-0.5),
            R::TaskNeedsN {
                task: Task::Induction,
                need: 8,
                got: 4,
            },
            R::InductionVocab { need: 4, got: 2 },
            R::SequenceVocab { need: 7, got: 4 },
            R::TokenCount {
                max: 8,
                with_steps: true,
                got: 9,
            },
            R::TokenCount {
                max: 8,
                with_steps: false,
                got: 0,
            },
            R::NotAToken { token: 9, vocab: 4 },
            R::NoDigits,
            R::Patch(3),
            R::DigitsClasses(8),
            R::PatchPositions {
                patch: 4,
                need: 5,
                got: 17,
            },
            R::ImageInput,
        ]
    }

    /// The page's English is the crate's, reason by reason and with the
    /// field before it: one wording, said by the page and by the crate.
    #[test]
    fn english_is_the_crates_english() {
        for r in reasons() {
            assert_eq!(reason_text(&r, Lang::En), r.to_string());
            let e = ModelError::new("config.heads", r);
            assert_eq!(model_error_text(&e, Lang::En), e.to_string());
        }
    }

    /// Every reason in Chinese holds no English word (the format's name,
    /// the names a file writes and the symbols aside) and keeps every
    /// number the English has.
    #[test]
    fn every_reason_is_worded_in_chinese() {
        let allowed = [train::FORMAT, "vocab", "JSON", "f64", "<SEP>", "<EOS>"];
        for r in reasons() {
            let (zh, en) = (reason_text(&r, Lang::Zh), reason_text(&r, Lang::En));
            assert_ne!(zh, en);
            let mut rest = zh.clone();
            for a in allowed {
                rest = rest.replace(a, "");
            }
            assert!(
                !rest.chars().any(|c| c.is_ascii_alphabetic() && c != 'n'),
                "English in {zh:?}"
            );
            let numbers = en.replace("f64", "").replace("seq2seq", "");
            for number in numbers
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
            {
                assert!(zh.contains(number), "{number} of {en:?} not in {zh:?}");
            }
        }
    }
}
