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

use crate::app::state::Refusal;
use crate::attention::json::JsonProblem;
use crate::attention::{grouped, DimName, Expected, Reason, ScenarioError, Stage};

/// A refusal of any layer in `lang`, worded here for both languages: a
/// scenario's ([`error_text`]), an edit's, or a file's that was not read.
pub fn refusal_text(r: &Refusal, lang: Lang) -> String {
    use crate::app::effects::LoadError;
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
    let reason = match (lang, &e.reason) {
        (Lang::En, r) => r.to_string(),
        (Lang::Zh, r) => reason_zh(r),
    };
    match (e.field.is_empty(), lang) {
        (true, _) => reason,
        (false, Lang::Zh) => format!("{}：{reason}", e.field),
        (false, Lang::En) => format!("{}: {reason}", e.field),
    }
}

fn reason_zh(r: &Reason) -> String {
    match r {
        Reason::Shape { want, got } => {
            format!("应为 {}×{}，实际是 {}×{}", want.0, want.1, got.0, got.1)
        }
        Reason::NotFinite(v) => format!("{v} 不是有限的数"),
        Reason::Dim { what, max, got } => {
            let what = match what {
                DimName::Rows => "行数（词元个数）",
                DimName::Width => "每行的宽度 d_model",
                DimName::Heads => "头数",
                DimName::DK => "d_k（列数）",
                DimName::DV => "d_v（列数）",
                DimName::OutWidth => "输出宽度（列数）",
                DimName::Layers => "层数",
            };
            format!("{what}必须在 1 到 {max} 之间，实际是 {got}")
        }
        Reason::Range { lo, hi, got } => format!("必须在 {lo} 到 {hi} 之间，实际是 {got}"),
        Reason::Format(got) => format!("应为 \"{}\"，实际是 \"{got}\"", crate::attention::FORMAT),
        Reason::TokenCount { want, got } => {
            format!("应有 {want} 个标签（x 的每行一个），实际有 {got} 个")
        }
        Reason::TokenTooLong { max, got } => format!("最多 {max} 个字符，实际有 {got} 个"),
        Reason::PaddingTooLong { n, got } => format!("真实的键最多 n = {n} 个，实际是 {got}"),
        Reason::MaskRows { want, got } => format!("应有 {want} 行，实际有 {got} 行"),
        Reason::MaskRowLength { want, got } => {
            format!("应有 {want} 个 true/false，实际有 {got} 个")
        }
        Reason::OneHotRows {
            d_model,
            n,
            cols,
            got,
        } => format!(
            "应为 (d_model + n)×{cols} = ({d_model} + {n})×{cols} = {}×{cols}（独热位置向量为每个位置多加一行），实际是 {}×{}",
            d_model + n,
            got.0,
            got.1
        ),
        Reason::Overflow { row, what } => {
            let what = match what {
                Stage::Input => "X + PE",
                Stage::Q => "Q",
                Stage::K => "K",
                Stage::V => "V",
                Stage::Scores => "分数 QKᵀ",
                Stage::HeadOutput => "这个头的输出",
                Stage::Output => "concat·W_O",
            };
            format!("数字太大：{what} 的第 {row} 行超出了 f64 的范围")
        }
        Reason::ResidualWidth { input, output } => {
            format!("要把输入加回来，注意力输出必须和输入一样宽（{input} 列），实际是 {output} 列")
        }
        Reason::Json {
            line,
            column,
            problem,
        } => format!("不是有效的 JSON：第 {line} 行第 {column} 列，{}", json_zh(problem)),
        Reason::Expected { what, got } => {
            let what = match what {
                Expected::Object => "一个对象 {…}",
                Expected::Rows => "由行组成的数组",
                Expected::Row => "一行（由数字组成的数组）",
                Expected::Number => "一个数字",
                Expected::Bool => "true 或 false",
                Expected::Labels => "由标签组成的数组",
                Expected::Label => "一个字符串",
                Expected::Heads => "由头组成的数组",
                Expected::Layers => "由层组成的数组",
            };
            format!("应为{what}，实际是 {got}")
        }
        Reason::UnknownField { name, known } => {
            format!("没有 “{name}” 这个字段，可用的字段是 {}", known.join("、"))
        }
        Reason::MissingField(key) => format!("缺少字段 “{key}”"),
        Reason::NumberOutOfRange => "数字超出了范围（不是有限的 f64）".into(),
        Reason::Ragged { row, len, first } => format!(
            "第 {row} 行有 {len} 个数，第 0 行有 {first} 个；每行的长度必须相同"
        ),
        Reason::MaskForm(got) => format!(
            "应为 \"none\"、\"causal\"、{{\"padding\": L}}、{{\"window\": W}} 或 {{\"custom\": n×n 个 true/false}}，实际是 {got}"
        ),
        Reason::WholeNumber(got) => format!("必须是 ≥ 0 的整数，实际是 {got}"),
        Reason::CustomMask => "custom 必须是由 true/false 组成的二维数组".into(),
        Reason::PositionalForm(got) => {
            format!("应为 \"none\"、\"sinusoidal\" 或 \"onehot\"，实际是 {got}")
        }
    }
}

fn json_zh(p: &JsonProblem) -> String {
    match p {
        JsonProblem::Eof => "内容意外结束".into(),
        JsonProblem::Trailing => "值的后面还有多余的字符".into(),
        JsonProblem::ExpectedValue => "这里应有一个值".into(),
        JsonProblem::TooDeep => "嵌套层数太深".into(),
        JsonProblem::TrailingComma => "最后一项后面多了逗号".into(),
        JsonProblem::ExpectedCommaOr(c) => format!("这里应有 “,” 或 “{c}”"),
        JsonProblem::ExpectedKey => "这里应有一个字符串形式的键".into(),
        JsonProblem::ExpectedColon => "这里应有 “:”".into(),
        JsonProblem::DuplicateKey(k) => format!("键 “{k}” 重复出现"),
        JsonProblem::ControlCharacter => "字符串中有控制字符（必须转义）".into(),
        JsonProblem::LoneSurrogate => "\\u 转义中有落单的代理项".into(),
        JsonProblem::InvalidEscape => "无效的转义".into(),
        JsonProblem::InvalidNumber => "无效的数字".into(),
    }
}

#[cfg(test)]
mod error_tests {
    use super::*;

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
