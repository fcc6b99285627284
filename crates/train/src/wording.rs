//! Why a model file, a config or a prompt was refused, in English: the
//! `Display` of [`ModelReason`], [`ModelError`](crate::ModelError) and
//! [`DigitsError`], for native callers, tests and logs. The page words
//! the same reasons in the reader's language from its string tables
//! (`src/app/i18n/train.rs`, the `Why…` keys, filled by
//! `src/app/train_lab/words.rs`), so the training lab's chunk carries
//! neither language's sentences; a test there checks that its English is
//! this English, reason by reason.

use crate::digits::{DigitsError, DigitsProblem, MIN_IMAGES, PIXELS};
use crate::{ModelError, ModelReason, FORMAT};
use std::fmt;

impl fmt::Display for ModelReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelReason::NotJson {
                line,
                column,
                problem,
            } => write!(
                f,
                "not JSON: line {line}, column {column}: {}",
                problem.worded(false)
            ),
            ModelReason::NotObject => f.write_str("expected a JSON object"),
            ModelReason::NumberBeyondF64 => f.write_str("a number beyond f64"),
            ModelReason::Missing => f.write_str("missing"),
            ModelReason::ExpectedText => f.write_str("expected a string"),
            ModelReason::ExpectedNumber => f.write_str("expected a number"),
            ModelReason::ExpectedWhole => f.write_str("expected a whole number ≥ 0"),
            ModelReason::TooLarge => f.write_str("too large"),
            ModelReason::Format(got) => write!(f, "expected \"{FORMAT}\", got \"{got}\""),
            ModelReason::UnknownTask(t) => write!(f, "unknown task \"{t}\""),
            ModelReason::UnknownPositions(p) => write!(f, "unknown positions \"{p}\""),
            ModelReason::UnknownReadout(r) => write!(f, "unknown readout \"{r}\""),
            ModelReason::ExpectedMatrices => f.write_str("expected an object of matrices"),
            ModelReason::ExpectedRows => f.write_str("expected an array of rows"),
            ModelReason::RowCount { rows, cols, got } => {
                write!(f, "expected {rows}×{cols}, got {got} rows")
            }
            ModelReason::RowLength { rows, cols } => {
                write!(f, "expected {rows}×{cols}: a row of {cols} numbers")
            }
            ModelReason::WeightRange { lo, hi } => {
                write!(f, "expected a number from {lo} to {hi}")
            }
            ModelReason::Range { lo, hi, got } => write!(f, "expected {lo} … {hi}, got {got}"),
            ModelReason::PositiveLr(lr) => write!(f, "expected a positive number, got {lr}"),
            ModelReason::TaskNeedsN { task, need, got } => {
                write!(f, "{} needs n ≥ {need}, got {got}", task.code())
            }
            ModelReason::SequenceVocab { need, got } => write!(
                f,
                "seq2seq needs vocab ≥ (n − 2)/2 + 2 = {need} (an input of up to \
                 (n − 2)/2 distinct tokens, then <SEP> and <EOS>), got {got}"
            ),
            ModelReason::InductionVocab { need, got } => write!(
                f,
                "induction needs vocab ≥ n/2 = {need} (a block of up to n/2 − 1 \
                 distinct tokens and one more for the filler), got {got}"
            ),
            ModelReason::TokenCount {
                max,
                with_steps,
                got,
            } => write!(
                f,
                "expected 1 … {max} tokens{}, got {got}",
                if *with_steps { " with the steps" } else { "" }
            ),
            ModelReason::NotAToken { token, vocab } => {
                write!(f, "{token} is not a token of a vocabulary of {vocab}")
            }
            ModelReason::NoDigits => f.write_str("the digits' data is not loaded"),
            ModelReason::Patch(got) => write!(
                f,
                "expected 2 or 4 (the side of the square patches the 8×8 image is cut into), got {got}"
            ),
            ModelReason::DigitsClasses(got) => write!(
                f,
                "digits has 10 classes (the digits 0 … 9): expected 10, got {got}"
            ),
            ModelReason::PatchPositions { patch, need, got } => write!(
                f,
                "a patch side of {patch} gives (8/{patch})² + 1 = {need} positions \
                 (the class token, then one per patch), got {got}"
            ),
            ModelReason::ImageInput => f.write_str("digits reads an image, not tokens"),
        }
    }
}

impl fmt::Display for ModelError {
    /// The field as the file writes it, then the reason.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field.is_empty() {
            true => write!(f, "{}", self.reason),
            false => write!(f, "{}: {}", self.field, self.reason),
        }
    }
}

impl fmt::Display for DigitsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DigitsProblem::EmptyLine => f.write_str("an empty line"),
            DigitsProblem::Label(got) => write!(f, "expected a label 0 … 9 first, got {got:?}"),
            DigitsProblem::Space(Some(got)) => {
                write!(f, "expected a space after the label, got {got:?}")
            }
            DigitsProblem::Space(None) => {
                f.write_str("expected a space and 64 pixels after the label, got the line's end")
            }
            DigitsProblem::Pixel { column, got } => write!(
                f,
                "character {column}: expected a pixel, one of 0123456789abcdefg \
                 (the values 0 … 16), got {got:?}"
            ),
            DigitsProblem::PixelCount(got) => write!(f, "expected {PIXELS} pixels, got {got}"),
            DigitsProblem::TooFew(got) => write!(
                f,
                "expected at least {MIN_IMAGES} images (one in 6 is held out), got {got}"
            ),
        }
    }
}

impl fmt::Display for DigitsError {
    /// The line (when there is one), then the problem.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}", self.problem),
            line => write!(f, "line {line}: {}", self.problem),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_comes_before_its_reason() {
        let e = ModelError::new(
            "config.heads",
            ModelReason::Range {
                lo: 1,
                hi: 4,
                got: 9,
            },
        );
        assert_eq!(e.to_string(), "config.heads: expected 1 … 4, got 9");
        let e = ModelError::new("", ModelReason::NotObject);
        assert_eq!(e.to_string(), "expected a JSON object");
        let e = DigitsError {
            line: 7,
            problem: DigitsProblem::PixelCount(63),
        };
        assert_eq!(e.to_string(), "line 7: expected 64 pixels, got 63");
    }
}
