//! Why a scenario was refused, worded in Chinese and English side by side:
//! one table for both languages, so that a reason cannot be said in one and
//! forgotten in the other. [`Reason`]'s `Display` is the English; the page
//! shows [`Reason::worded`] in its language.

use super::json::JsonProblem;
use super::scenario::{DimName, Expected, Reason, Stage, FORMAT, MASK_FORMS};

/// `zh` or `en`, as the page picks.
fn pick(zh: bool, c: &str, e: &str) -> String {
    if zh { c } else { e }.to_string()
}

impl Reason {
    /// This reason in Chinese (`zh`) or English.
    pub fn worded(&self, zh: bool) -> String {
        let p = |c: String, e: String| if zh { c } else { e };
        match self {
            Reason::Shape { want, got } => p(
                format!("应为 {}×{}，实际是 {}×{}", want.0, want.1, got.0, got.1),
                format!("expected {}×{}, got {}×{}", want.0, want.1, got.0, got.1),
            ),
            Reason::NotFinite(v) => p(format!("{v} 不是有限的数"), format!("{v} is not a finite number")),
            Reason::Dim { what, max, got } => {
                let (c, e) = match what {
                    DimName::Rows => ("行数（词元个数）", "the number of rows (tokens)"),
                    DimName::Width => ("每行的宽度 d_model", "the row width d_model"),
                    DimName::Heads => ("头数", "the number of heads"),
                    DimName::DK => ("d_k（列数）", "d_k (its number of columns)"),
                    DimName::DV => ("d_v（列数）", "d_v (its number of columns)"),
                    DimName::OutWidth => ("输出宽度（列数）", "the output width (its number of columns)"),
                    DimName::Layers => ("层数", "the number of layers"),
                };
                p(
                    format!("{c}必须在 1 到 {max} 之间，实际是 {got}"),
                    format!("{e} must be between 1 and {max}, got {got}"),
                )
            }
            Reason::Range { lo, hi, got } => p(
                format!("必须在 {lo} 到 {hi} 之间，实际是 {got}"),
                format!("must be between {lo} and {hi}, got {got}"),
            ),
            Reason::Format(got) => p(
                format!("应为 \"{FORMAT}\"，实际是 \"{got}\""),
                format!("expected \"{FORMAT}\", got \"{got}\""),
            ),
            Reason::TokenCount { want, got } => p(
                format!("应有 {want} 个标签（x 的每行一个），实际有 {got} 个"),
                format!("expected {want} labels (one per row of x), got {got}"),
            ),
            Reason::TokenTooLong { max, got } => p(
                format!("最多 {max} 个字符，实际有 {got} 个"),
                format!("at most {max} characters, got {got}"),
            ),
            Reason::PaddingTooLong { n, got } => p(
                format!("真实的键最多 n = {n} 个，实际是 {got}"),
                format!("at most n = {n} real keys, got {got}"),
            ),
            Reason::MaskRows { want, got } => p(
                format!("应有 {want} 行，实际有 {got} 行"),
                format!("expected {want} rows, got {got}"),
            ),
            Reason::MaskRowLength { want, got } => p(
                format!("应有 {want} 个 true/false，实际有 {got} 个"),
                format!("expected {want} booleans, got {got}"),
            ),
            Reason::OneHotRows {
                d_model,
                n,
                cols,
                got,
            } => {
                let rows = d_model + n;
                p(
                    format!(
                        "应为 (d_model + n)×{cols} = ({d_model} + {n})×{cols} = {rows}×{cols}（独热位置向量为每个位置多加一行），实际是 {}×{}",
                        got.0, got.1
                    ),
                    format!(
                        "expected (d_model + n)×{cols} = ({d_model} + {n})×{cols} = {rows}×{cols} \
                         (the one-hot positions add one row per position), got {}×{}",
                        got.0, got.1
                    ),
                )
            }
            Reason::Overflow { row, what } => {
                let (c, e) = match what {
                    Stage::Input => ("X + PE", "x + PE"),
                    Stage::Q => ("Q", "Q"),
                    Stage::K => ("K", "K"),
                    Stage::V => ("V", "V"),
                    Stage::Scores => ("分数 QKᵀ", "the scores QKᵀ"),
                    Stage::HeadOutput => ("这个头的输出", "the head output"),
                    Stage::Output => ("concat·W_O", "concat · W_O"),
                };
                p(
                    format!("数字太大：{c} 的第 {row} 行超出了 f64 的范围"),
                    format!("the numbers are too large: row {row} of {e} overflows f64"),
                )
            }
            Reason::ResidualWidth { input, output } => p(
                format!("要把输入加回来，注意力输出必须和输入一样宽（{input} 列），实际是 {output} 列"),
                format!(
                    "adding the input back needs an attention output as wide as the input ({input} columns); it has {output}"
                ),
            ),
            Reason::Json {
                line,
                column,
                problem,
            } => p(
                format!("不是有效的 JSON：第 {line} 行第 {column} 列，{}", problem.worded(true)),
                format!("not valid JSON: line {line}, column {column}: {}", problem.worded(false)),
            ),
            Reason::Expected { what, got } => {
                let (c, e) = match what {
                    Expected::Object => ("一个对象 {…}", "an object"),
                    Expected::Rows => ("由行组成的数组", "an array of rows"),
                    Expected::Row => ("一行（由数字组成的数组）", "a row (an array of numbers)"),
                    Expected::Number => ("一个数字", "a number"),
                    Expected::Bool => ("true 或 false", "true or false"),
                    Expected::Labels => ("由标签组成的数组", "an array of labels"),
                    Expected::Label => ("一个字符串", "a string"),
                    Expected::Heads => ("由头组成的数组", "an array of heads"),
                    Expected::Layers => ("由层组成的数组", "an array of layers"),
                };
                p(format!("应为{c}，实际是 {got}"), format!("expected {e}, got {got}"))
            }
            Reason::UnknownField { name, known } => p(
                format!("没有 “{name}” 这个字段，可用的字段是 {}", known.join("、")),
                format!("unknown field `{name}`, expected one of {}", known.join(", ")),
            ),
            Reason::MissingField(key) => p(format!("缺少字段 “{key}”"), format!("missing field `{key}`")),
            Reason::NumberOutOfRange => pick(
                zh,
                "数字超出了范围（不是有限的 f64）",
                "number out of range (not a finite f64)",
            ),
            Reason::Ragged { row, len, first } => p(
                format!("第 {row} 行有 {len} 个数，第 0 行有 {first} 个；每行的长度必须相同"),
                format!(
                    "row {row} has {len} numbers but row 0 has {first}; every row must have the same length"
                ),
            ),
            Reason::MaskForm(got) => p(
                format!(
                    "应为 \"none\"、\"causal\"、{{\"padding\": L}}、{{\"window\": W}} 或 {{\"custom\": n×n 个 true/false}}，实际是 {got}"
                ),
                format!("{MASK_FORMS}, got {got}"),
            ),
            Reason::WholeNumber(got) => p(
                format!("必须是 ≥ 0 的整数，实际是 {got}"),
                format!("must be a whole number ≥ 0, got {got}"),
            ),
            Reason::CustomMask => pick(
                zh,
                "custom 必须是由 true/false 组成的二维数组",
                "custom must be an array of arrays of true/false",
            ),
            Reason::PositionalForm(got) => p(
                format!("应为 \"none\"、\"sinusoidal\" 或 \"onehot\"，实际是 {got}"),
                format!("expected \"none\", \"sinusoidal\" or \"onehot\", got {got}"),
            ),
        }
    }
}

impl JsonProblem {
    /// What is wrong with the text, in Chinese (`zh`) or English.
    pub fn worded(&self, zh: bool) -> String {
        let (c, e): (String, String) = match self {
            JsonProblem::Eof => ("内容意外结束".into(), "unexpected end of input".into()),
            JsonProblem::Trailing => (
                "值的后面还有多余的字符".into(),
                "trailing characters after the value".into(),
            ),
            JsonProblem::ExpectedValue => ("这里应有一个值".into(), "expected a value".into()),
            JsonProblem::TooDeep => ("嵌套层数太深".into(), "nested too deeply".into()),
            JsonProblem::TrailingComma => ("最后一项后面多了逗号".into(), "trailing comma".into()),
            JsonProblem::ExpectedCommaOr(ch) => (
                format!("这里应有 “,” 或 “{ch}”"),
                format!("expected `,` or `{ch}`"),
            ),
            JsonProblem::ExpectedKey => (
                "这里应有一个字符串形式的键".into(),
                "expected a string key".into(),
            ),
            JsonProblem::ExpectedColon => ("这里应有 “:”".into(), "expected `:`".into()),
            JsonProblem::DuplicateKey(k) => {
                (format!("键 “{k}” 重复出现"), format!("duplicate key `{k}`"))
            }
            JsonProblem::ControlCharacter => (
                "字符串中有控制字符（必须转义）".into(),
                "control character in string (must be escaped)".into(),
            ),
            JsonProblem::LoneSurrogate => (
                "\\u 转义中有落单的代理项".into(),
                "lone surrogate in `\\u` escape".into(),
            ),
            JsonProblem::InvalidEscape => ("无效的转义".into(), "invalid escape".into()),
            JsonProblem::InvalidNumber => ("无效的数字".into(), "invalid number".into()),
        };
        if zh {
            c
        } else {
            e
        }
    }
}
