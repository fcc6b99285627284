//! Every string a user can see, in Chinese and English, in one table.
//!
//! The table is written with one macro so that a key cannot exist without
//! both languages; a test checks that neither is empty.

use serde::{Deserialize, Serialize};

/// The page language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// The `?lang=` / `<html lang>` code.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// Reads `zh` / `en` (also `zh-CN`, `en-US`, any case).
    pub fn parse(code: &str) -> Option<Lang> {
        let c = code.trim().to_ascii_lowercase();
        if c == "zh" || c.starts_with("zh-") || c.starts_with("zh_") {
            Some(Lang::Zh)
        } else if c == "en" || c.starts_with("en-") || c.starts_with("en_") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The language of a browser's `navigator.language`: Chinese for any
    /// `zh*`, English otherwise.
    pub fn from_browser(code: &str) -> Lang {
        if code.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// The other language (for the switch).
    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }
}

macro_rules! strings {
    ($($key:ident => $zh:expr, $en:expr;)*) => {
        /// A key of the string table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum S { $($key),* }

        impl S {
            /// Every key, for the completeness test.
            pub const ALL: &'static [S] = &[$(S::$key),*];

            /// The text of this key in `lang`.
            pub fn t(self, lang: Lang) -> &'static str {
                match (self, lang) {
                    $((S::$key, Lang::Zh) => $zh, (S::$key, Lang::En) => $en,)*
                }
            }
        }
    };
}

strings! {
    Title => "注意力实验室", "Attention Lab";
    Tagline => "亲手算一遍自注意力：每个矩阵都由你的数字实时算出。",
        "Compute self-attention yourself: every matrix comes live from your numbers.";
    SwitchLang => "English", "中文";
    ScenarioHeading => "当前场景", "Current scenario";
    ScenarioSummary => "位置数 n，输入宽度 d_model，d_k，d_v，头数 h", "positions n, input width d_model, d_k, d_v, heads h";
    ScaleOn => "分数除以 √d_k", "scores divided by √d_k";
    ScaleOff => "不缩放（与笔记 004 相同，直接对 QKᵀ 做 softmax）",
        "no scaling (as in note 004: softmax of QKᵀ directly)";
    MaskLabel => "掩码", "Mask";
    MaskNone => "无", "none";
    MaskCausal => "因果（只看自己和之前的位置）", "causal (self and earlier positions)";
    MaskPadding => "填充：只有前 L 个键有效", "padding: only the first L keys are real";
    MaskWindow => "窗口：|i − j| ≤ W", "window: |i − j| ≤ W";
    MaskCustom => "自定义", "custom";
    PositionalLabel => "位置编码", "Positional encoding";
    PositionalNone => "无", "none";
    PositionalSin => "正弦位置编码，加到 X 上", "sinusoidal, added to X";
    InputsHeading => "输入", "Inputs";
    HeadHeading => "头", "Head";
    ProjectionsHeading => "投影矩阵（可学习参数）", "Projections (learned parameters)";
    QkvHeading => "Query、Key、Value", "Queries, keys, values";
    AttentionHeading => "注意力分数与权重", "Attention scores and weights";
    CombineHeading => "合并各头", "Combining the heads";
    OutputHeading => "输出", "Output";
    CapX => "输入 X：每行一个位置", "Input X: one row per position";
    CapPe => "位置编码 PE（加到 X 上）", "Positional encoding PE (added to X)";
    CapWq => "Query 投影：把每个输入行映射成查询向量", "Query projection: turns each input row into a query";
    CapWk => "Key 投影：把每个输入行映射成键向量", "Key projection: turns each input row into a key";
    CapWv => "Value 投影：把每个输入行映射成值向量", "Value projection: turns each input row into a value";
    CapQ => "Query（我在找什么）", "Query (what am I looking for)";
    CapK => "Key（我能被怎样匹配）", "Key (what can I be matched by)";
    CapV => "Value（被关注时我提供什么）", "Value (what I give when attended to)";
    CapScores => "注意力分数：第 i 行是 q^i 与每个 k^j 的点积", "Attention scores: row i is q^i dotted with every k^j";
    CapScaled => "缩放后的分数：除以 √d_k，让 softmax 不会过早饱和", "Scaled scores: divided by √d_k so the softmax does not saturate";
    CapScaledOff => "缩放已关闭：这里等于原始分数", "Scaling is off here, so these equal the scores";
    CapWeights => "注意力权重：每行做 softmax，和为 1", "Attention weights: softmax of each row, summing to 1";
    CapHeadOutput => "该头的输出：权重对 V 加权求和", "This head's output: the weights applied to V";
    CapConcat => "拼接：各头输出并排放在一起（不是取平均）", "Concatenation: the heads' outputs side by side (not averaged)";
    CapWo => "输出投影 W_O", "Output projection W_O";
    CapOutput => "输出：每个位置一个融合了上下文的新向量", "Output: one new, context-aware vector per position";
    CapOutputNoWo => "（场景没有 W_O，输出即拼接结果）", "(the scenario has no W_O, so the output is the concatenation)";
    MaskedCell => "被掩码", "masked";
    UndefinedRow => "这一行的所有键都被掩码，softmax 没有定义，因此没有权重和输出。",
        "Every key of this row is masked: its softmax is undefined, so it has no weights and no output.";
    UndefinedRowsAlert => "有查询行的所有键都被掩码，这些行的 softmax 没有定义（显示为 —）：",
        "Some query rows have every key masked; their softmax is undefined (shown as —): rows";
    ShowMatrix => "展开", "Show";
    HideMatrix => "收起", "Hide";
    CollapsedNote => "较大的中间矩阵默认收起。", "Large intermediate matrices start collapsed.";
    BadLink => "分享链接无法打开，已载入默认场景。原因：", "The shared link could not be opened, so the default scenario is shown. Reason:";
    LinkNotBase64 => "链接中 #s= 之后的内容不是有效的 base64url 编码", "the text after #s= is not valid base64url";
    LinkNotUtf8 => "解码后的内容不是 UTF-8 文本", "the decoded bytes are not UTF-8 text";
    LinkTooLong => "链接过长", "the link is too long";
    Dismiss => "关闭", "Dismiss";
    Row => "行", "row";
    Col => "列", "column";
    Shape => "形状", "shape";
    Footer => "所有计算都在你的浏览器中完成，不会发送任何数据。", "Everything is computed in your browser; nothing is sent anywhere.";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_both_languages() {
        for key in S::ALL {
            assert!(
                !key.t(Lang::Zh).trim().is_empty(),
                "{key:?} has no Chinese text"
            );
            assert!(
                !key.t(Lang::En).trim().is_empty(),
                "{key:?} has no English text"
            );
        }
    }

    #[test]
    fn chinese_text_is_chinese_where_it_is_prose() {
        // A Chinese entry that equals its English one must be a symbol (W_Q).
        for key in S::ALL {
            let (zh, en) = (key.t(Lang::Zh), key.t(Lang::En));
            if zh == en {
                assert!(zh.len() <= 4, "{key:?} looks untranslated: {zh}");
            }
        }
    }

    #[test]
    fn language_codes() {
        assert_eq!(Lang::parse("zh"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("EN-us"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::parse(""), None);
        assert_eq!(Lang::from_browser("zh-TW"), Lang::Zh);
        assert_eq!(Lang::from_browser("de-DE"), Lang::En);
        assert_eq!(Lang::Zh.other(), Lang::En);
    }
}
