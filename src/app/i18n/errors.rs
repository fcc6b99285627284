//! Why a scenario or an edit was refused, in both languages.

use super::*;

/// A too-long `#s=` link: its length and the limit, in `lang`.
pub fn too_long_text(limit: usize, got: usize, lang: Lang) -> String {
    let (got, kb, limit) = (grouped(got), limit / 1024, grouped(limit));
    match lang {
        Lang::Zh => format!("链接有 {got} 个字符，超过了 {limit} 个字符（{kb} KB）的上限"),
        Lang::En => format!("the link has {got} characters, over the limit of {limit} ({kb} KB)"),
    }
}

use crate::app::refusal::Refusal;
use crate::attention::{grouped, ScenarioError};

/// A refusal of any layer in `lang`, worded here for both languages: a
/// scenario's ([`error_text`]), an edit's, or a file's that was not read.
pub fn refusal_text(r: &Refusal, lang: Lang) -> String {
    use crate::app::refusal::LoadError;
    use crate::lesson::edit::EditError;
    let zh = lang == Lang::Zh;
    let named = |field: &str, why: String| match lang {
        Lang::Zh => format!("{field}：{why}"),
        Lang::En => format!("{field}: {why}"),
    };
    match r {
        Refusal::Scenario(e) => error_text(e, lang),
        Refusal::Edit(EditError::Scenario(e)) => error_text(e, lang),
        Refusal::Edit(EditError::NoSuchMatrix { field }) => named(
            field,
            if zh {
                "没有这个矩阵"
            } else {
                "this matrix does not exist"
            }
            .into(),
        ),
        Refusal::Edit(EditError::OutsideMatrix { field, rows, cols }) => named(
            field,
            if zh {
                format!("超出了这个 {rows}×{cols} 的矩阵")
            } else {
                format!("outside the {rows}×{cols} matrix")
            },
        ),
        Refusal::Edit(e @ EditError::NoSuchPosition { .. }) => named(
            &e.field(),
            if zh {
                "没有这个位置"
            } else {
                "no such position"
            }
            .into(),
        ),
        Refusal::Load(LoadError::TooLarge { limit, got }) => {
            let (got, mb, limit) = (grouped(*got), limit / (1024 * 1024), grouped(*limit));
            if zh {
                format!("文件有 {got} 字节，超过了 {limit} 字节（{mb} MB）的上限")
            } else {
                format!("the file has {got} bytes, over the limit of {limit} bytes ({mb} MB)")
            }
        }
        Refusal::Load(LoadError::Unreadable) => if zh {
            "无法读取这个文件"
        } else {
            "the file could not be read"
        }
        .into(),
    }
}

/// `e` in `lang`: the field as the format writes it, then the reason. Every
/// reason is typed, so the Chinese page shows no English reason.
pub fn error_text(e: &ScenarioError, lang: Lang) -> String {
    // Worded for both languages in one table, beside the reasons
    // (crates/attention/src/wording.rs).
    let reason = e.reason.worded(lang == Lang::Zh);
    match (e.field.is_empty(), lang) {
        (true, _) => reason,
        (false, Lang::Zh) => format!("{}：{reason}", e.field),
        (false, Lang::En) => format!("{}: {reason}", e.field),
    }
}

#[cfg(test)]
mod error_tests {
    use super::*;
    use crate::attention::json::JsonProblem;
    use crate::attention::{DimName, Expected, Reason, Stage};

    #[test]
    fn every_typed_reason_is_worded_in_chinese_without_english_words() {
        let reasons = [
            Reason::Shape {
                want: (4, 3),
                got: (4, 2),
            },
            Reason::NotFinite("inf".into()),
            Reason::Range {
                lo: 1,
                hi: 64,
                got: 65,
            },
            Reason::Format("attention-lab/9".into()),
            Reason::TokenCount { want: 3, got: 2 },
            Reason::TokenTooLong { max: 40, got: 41 },
            Reason::PaddingTooLong { n: 3, got: 4 },
            Reason::MaskRows { want: 3, got: 2 },
            Reason::MaskRowLength { want: 3, got: 2 },
            Reason::ResidualWidth {
                input: 4,
                output: 3,
            },
            Reason::Expected {
                what: Expected::Object,
                got: "3".into(),
            },
            Reason::UnknownField {
                name: "w_x".into(),
                known: &["w_q", "w_k", "w_v"],
            },
            Reason::MissingField("heads"),
            Reason::NumberOutOfRange,
            Reason::Ragged {
                row: 1,
                len: 2,
                first: 3,
            },
            Reason::MaskForm("3".into()),
            Reason::WholeNumber("-1".into()),
            Reason::CustomMask,
            Reason::PositionalForm("3".into()),
            Reason::OneHotRows {
                d_model: 4,
                n: 3,
                cols: 2,
                got: (4, 2),
            },
        ];
        let dims = [
            DimName::Rows,
            DimName::Width,
            DimName::Heads,
            DimName::DK,
            DimName::DV,
            DimName::OutWidth,
            DimName::Layers,
        ]
        .map(|what| Reason::Dim {
            what,
            max: 64,
            got: 0,
        });
        let stages = [
            Stage::Input,
            Stage::Q,
            Stage::K,
            Stage::V,
            Stage::Scores,
            Stage::HeadOutput,
            Stage::Output,
        ]
        .map(|what| Reason::Overflow { row: 2, what });
        let expected = [
            Expected::Object,
            Expected::Rows,
            Expected::Row,
            Expected::Number,
            Expected::Bool,
            Expected::Labels,
            Expected::Label,
            Expected::Heads,
            Expected::Layers,
        ]
        .map(|what| Reason::Expected {
            what,
            got: "3".into(),
        });
        let json = [
            JsonProblem::Eof,
            JsonProblem::Trailing,
            JsonProblem::ExpectedValue,
            JsonProblem::TooDeep,
            JsonProblem::TrailingComma,
            JsonProblem::ExpectedCommaOr(']'),
            JsonProblem::ExpectedKey,
            JsonProblem::ExpectedColon,
            JsonProblem::DuplicateKey("x".into()),
            JsonProblem::ControlCharacter,
            JsonProblem::LoneSurrogate,
            JsonProblem::InvalidEscape,
            JsonProblem::InvalidNumber,
        ]
        .map(|problem| Reason::Json {
            line: 1,
            column: 2,
            problem,
        });
        let allowed = [
            "d_model",
            "d_k",
            "d_v",
            "n",
            "X",
            "PE",
            "Q",
            "K",
            "V",
            "QK",
            "concat",
            "W_O",
            "f",
            "x",
            "true",
            "false",
            "inf",
            "attention",
            "lab",
            "MB",
            // The format's own words, as a file writes them.
            "JSON",
            "u",
            "w_q",
            "w_k",
            "w_v",
            "w_x",
            "heads",
            "none",
            "causal",
            "padding",
            "window",
            "custom",
            "sinusoidal",
            "onehot",
            "L",
            "W",
        ];
        for r in reasons
            .iter()
            .chain(&dims)
            .chain(&stages)
            .chain(&expected)
            .chain(&json)
        {
            let e = ScenarioError::new("heads[1].w_k", r.clone());
            let (zh, en) = (error_text(&e, Lang::Zh), error_text(&e, Lang::En));
            assert_eq!(en, e.to_string(), "English is the format's own message");
            let body = zh
                .strip_prefix("heads[1].w_k：")
                .expect("the field, then a full-width colon");
            let words: Vec<&str> = body
                .split(|c: char| !(c.is_ascii_alphabetic() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            for w in &words {
                assert!(allowed.contains(w), "{w:?} in {zh}");
            }
        }
    }
}
