//! Why a model file, a config or a prompt was refused, worded in Chinese
//! and English side by side: one table for both languages, so that a
//! reason cannot be said in one and forgotten in the other (as the
//! engine's scenario refusals are, `attention`'s `wording.rs`).
//! [`ModelReason`]'s `Display` is the English.

use crate::digits::{DigitsError, DigitsProblem, MIN_IMAGES, PIXELS};
use crate::{ModelReason, FORMAT};

impl ModelReason {
    /// This reason in Chinese (`zh`) or English.
    pub fn worded(&self, zh: bool) -> String {
        let (c, e): (String, String) = match self {
            ModelReason::NotJson {
                line,
                column,
                problem,
            } => (
                format!("不是 JSON：第 {line} 行第 {column} 列，{}", problem.worded(true)),
                format!("not JSON: line {line}, column {column}: {}", problem.worded(false)),
            ),
            ModelReason::NotObject => ("应为 JSON 对象".into(), "expected a JSON object".into()),
            ModelReason::NumberBeyondF64 => (
                "数字超出了 f64 的范围".into(),
                "a number beyond f64".into(),
            ),
            ModelReason::Missing => ("缺少这一项".into(), "missing".into()),
            ModelReason::ExpectedText => ("应为字符串".into(), "expected a string".into()),
            ModelReason::ExpectedNumber => ("应为数字".into(), "expected a number".into()),
            ModelReason::ExpectedWhole => (
                "应为不小于 0 的整数".into(),
                "expected a whole number ≥ 0".into(),
            ),
            ModelReason::TooLarge => ("太大了".into(), "too large".into()),
            ModelReason::Format(got) => (
                format!("应为 \"{FORMAT}\"，实际是 \"{got}\""),
                format!("expected \"{FORMAT}\", got \"{got}\""),
            ),
            ModelReason::UnknownTask(t) => (
                format!("没有叫 \"{t}\" 的任务"),
                format!("unknown task \"{t}\""),
            ),
            ModelReason::UnknownPositions(p) => (
                format!("没有叫 \"{p}\" 的位置编码"),
                format!("unknown positions \"{p}\""),
            ),
            ModelReason::UnknownReadout(r) => (
                format!("没有叫 \"{r}\" 的读出方式"),
                format!("unknown readout \"{r}\""),
            ),
            ModelReason::ExpectedMatrices => (
                "应为由矩阵组成的对象".into(),
                "expected an object of matrices".into(),
            ),
            ModelReason::ExpectedRows => ("应为由行组成的数组".into(), "expected an array of rows".into()),
            ModelReason::RowCount { rows, cols, got } => (
                format!("应为 {rows}×{cols}，实际有 {got} 行"),
                format!("expected {rows}×{cols}, got {got} rows"),
            ),
            ModelReason::RowLength { rows, cols } => (
                format!("应为 {rows}×{cols}：每行 {cols} 个数"),
                format!("expected {rows}×{cols}: a row of {cols} numbers"),
            ),
            ModelReason::WeightRange { lo, hi } => (
                format!("应为 {lo} 到 {hi} 之间的数"),
                format!("expected a number from {lo} to {hi}"),
            ),
            ModelReason::Range { lo, hi, got } => (
                format!("应在 {lo} … {hi} 之间，实际是 {got}"),
                format!("expected {lo} … {hi}, got {got}"),
            ),
            ModelReason::PositiveLr(lr) => (
                format!("应为正数，实际是 {lr}"),
                format!("expected a positive number, got {lr}"),
            ),
            ModelReason::TaskNeedsN { task, need, got } => (
                format!("“{}”任务需要 n ≥ {need}，实际是 {got}", task_zh(*task)),
                format!("{} needs n ≥ {need}, got {got}", task.code()),
            ),
            ModelReason::SequenceVocab { need, got } => (
                format!(
                    "序列到序列任务需要词表大小 ≥ (n − 2)/2 + 2 = {need}（输入最多 (n − 2)/2 个不同的词，再加 <SEP> 和 <EOS>），实际是 {got}"
                ),
                format!(
                    "seq2seq needs vocab ≥ (n − 2)/2 + 2 = {need} (an input of up to \
                     (n − 2)/2 distinct tokens, then <SEP> and <EOS>), got {got}"
                ),
            ),
            ModelReason::InductionVocab { need, got } => (
                format!(
                    "归纳任务需要词表大小 ≥ n/2 = {need}（一段最多 n/2 − 1 个不同的词，再加一个填充词），实际是 {got}"
                ),
                format!(
                    "induction needs vocab ≥ n/2 = {need} (a block of up to n/2 − 1 \
                     distinct tokens and one more for the filler), got {got}"
                ),
            ),
            ModelReason::TokenCount {
                max,
                with_steps,
                got,
            } => (
                format!(
                    "应为 1 … {max} 个词{}，实际是 {got}",
                    if *with_steps { "（连同要生成的步数）" } else { "" }
                ),
                format!(
                    "expected 1 … {max} tokens{}, got {got}",
                    if *with_steps { " with the steps" } else { "" }
                ),
            ),
            ModelReason::NotAToken { token, vocab } => (
                format!("{token} 不是大小为 {vocab} 的词表中的词"),
                format!("{token} is not a token of a vocabulary of {vocab}"),
            ),
            ModelReason::NoDigits => (
                "手写数字的数据还没有载入".into(),
                "the digits' data is not loaded".into(),
            ),
            ModelReason::Patch(got) => (
                format!("应为 2 或 4（把 8×8 的图像切成小块，小块的边长），实际是 {got}"),
                format!("expected 2 or 4 (the side of the square patches the 8×8 image is cut into), got {got}"),
            ),
            ModelReason::DigitsClasses(got) => (
                format!("手写数字任务有 10 个类别（数字 0 … 9）：应为 10，实际是 {got}"),
                format!("digits has 10 classes (the digits 0 … 9): expected 10, got {got}"),
            ),
            ModelReason::PatchPositions { patch, need, got } => (
                format!(
                    "小块边长为 {patch} 时有 (8/{patch})² + 1 = {need} 个位置（一个类别标记，每个小块一个），实际是 {got}"
                ),
                format!(
                    "a patch side of {patch} gives (8/{patch})² + 1 = {need} positions \
                     (the class token, then one per patch), got {got}"
                ),
            ),
            ModelReason::ImageInput => (
                "手写数字任务的输入是图像，不是词".into(),
                "digits reads an image, not tokens".into(),
            ),
        };
        if zh {
            c
        } else {
            e
        }
    }
}

impl DigitsProblem {
    /// This problem in Chinese (`zh`) or English.
    pub fn worded(&self, zh: bool) -> String {
        let (c, e): (String, String) = match self {
            DigitsProblem::EmptyLine => ("空行".into(), "an empty line".into()),
            DigitsProblem::Label(got) => (
                format!("行首应为标签 0 … 9，实际是 {got:?}"),
                format!("expected a label 0 … 9 first, got {got:?}"),
            ),
            DigitsProblem::Space(got) => (
                match got {
                    Some(got) => format!("标签后应为一个空格，实际是 {got:?}"),
                    None => "标签后应为一个空格和 64 个像素，这一行却结束了".into(),
                },
                match got {
                    Some(got) => format!("expected a space after the label, got {got:?}"),
                    None => "expected a space and 64 pixels after the label, got the line's end"
                        .into(),
                },
            ),
            DigitsProblem::Pixel { column, got } => (
                format!("第 {column} 个字符：像素应为 0123456789abcdefg 之一（值 0 … 16），实际是 {got:?}"),
                format!(
                    "character {column}: expected a pixel, one of 0123456789abcdefg \
                     (the values 0 … 16), got {got:?}"
                ),
            ),
            DigitsProblem::PixelCount(got) => (
                format!("应为 {PIXELS} 个像素，实际是 {got} 个"),
                format!("expected {PIXELS} pixels, got {got}"),
            ),
            DigitsProblem::TooFew(got) => (
                format!("应至少有 {MIN_IMAGES} 张图像（每 6 张留出 1 张做评估），实际是 {got} 张"),
                format!(
                    "expected at least {MIN_IMAGES} images (one in 6 is held out), got {got}"
                ),
            ),
        };
        if zh {
            c
        } else {
            e
        }
    }
}

impl DigitsError {
    /// The line, then the problem, in Chinese (`zh`) or English.
    pub fn worded(&self, zh: bool) -> String {
        let problem = self.problem.worded(zh);
        match (self.line, zh) {
            (0, _) => problem,
            (line, true) => format!("第 {line} 行：{problem}"),
            (line, false) => format!("line {line}: {problem}"),
        }
    }
}

/// The task's name on the Chinese page (its code is the file's word).
fn task_zh(task: crate::Task) -> &'static str {
    match task {
        crate::Task::Previous => "前一个词",
        crate::Task::Reverse => "倒序",
        crate::Task::Induction => "归纳",
        crate::Task::Majority => "多数",
        crate::Task::Seq2seq => "序列到序列",
        crate::Task::Multilabel => "多标签",
        crate::Task::Digits => "手写数字",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Task;
    use attention::json::JsonProblem;

    /// Every reason, in Chinese, holds no English word (names of the format
    /// and the tasks' codes aside), and differs from the English.
    #[test]
    fn every_reason_is_worded_in_chinese() {
        let reasons = [
            ModelReason::NotJson {
                line: 1,
                column: 2,
                problem: JsonProblem::Eof,
            },
            ModelReason::NotObject,
            ModelReason::NumberBeyondF64,
            ModelReason::Missing,
            ModelReason::ExpectedText,
            ModelReason::ExpectedNumber,
            ModelReason::ExpectedWhole,
            ModelReason::TooLarge,
            ModelReason::Format("某".into()),
            ModelReason::UnknownTask("某".into()),
            ModelReason::UnknownPositions("某".into()),
            ModelReason::UnknownReadout("某".into()),
            ModelReason::ExpectedMatrices,
            ModelReason::ExpectedRows,
            ModelReason::RowCount {
                rows: 2,
                cols: 3,
                got: 1,
            },
            ModelReason::RowLength { rows: 2, cols: 3 },
            ModelReason::WeightRange { lo: 0.0, hi: 1e6 },
            ModelReason::Range {
                lo: 1,
                hi: 4,
                got: 9,
            },
            ModelReason::PositiveLr(-1.0),
            ModelReason::TaskNeedsN {
                task: Task::Induction,
                need: 8,
                got: 4,
            },
            ModelReason::InductionVocab { need: 4, got: 2 },
            ModelReason::SequenceVocab { need: 7, got: 4 },
            ModelReason::TokenCount {
                max: 8,
                with_steps: true,
                got: 9,
            },
            ModelReason::NotAToken { token: 9, vocab: 4 },
            ModelReason::NoDigits,
            ModelReason::Patch(3),
            ModelReason::DigitsClasses(8),
            ModelReason::PatchPositions {
                patch: 4,
                need: 5,
                got: 17,
            },
            ModelReason::ImageInput,
        ];
        let allowed = [FORMAT, "vocab", "JSON", "f64", "<SEP>", "<EOS>"];
        for r in reasons {
            let (zh, en) = (r.worded(true), r.worded(false));
            assert_ne!(zh, en);
            let mut rest = zh.clone();
            for a in allowed {
                rest = rest.replace(a, "");
            }
            assert!(
                !rest.chars().any(|c| c.is_ascii_alphabetic() && c != 'n'),
                "English in {zh:?}"
            );
        }
    }

    /// Every problem of a digits file, in Chinese, holds no English word
    /// (the pixel characters and the character shown aside), and differs
    /// from the English.
    #[test]
    fn every_digits_problem_is_worded_in_chinese() {
        let problems = [
            DigitsProblem::EmptyLine,
            DigitsProblem::Label('x'),
            DigitsProblem::Space(Some('1')),
            DigitsProblem::Space(None),
            DigitsProblem::Pixel {
                column: 9,
                got: 'h',
            },
            DigitsProblem::PixelCount(63),
            DigitsProblem::TooFew(2),
        ];
        for p in problems {
            for line in [0, 7] {
                let e = DigitsError {
                    line,
                    problem: p.clone(),
                };
                let (zh, en) = (e.worded(true), e.worded(false));
                assert_ne!(zh, en);
                let rest = zh
                    .replace("0123456789abcdefg", "")
                    .replace("'x'", "")
                    .replace("'h'", "");
                assert!(
                    !rest.chars().any(|c| c.is_ascii_alphabetic()),
                    "English in {zh:?}"
                );
                assert_eq!(e.to_string(), en);
            }
        }
    }
}
