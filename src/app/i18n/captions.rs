//! The walkthrough's captions: one sentence per step with its live numbers.

use super::*;

use crate::lesson::captions::{Caption, Proj, StepCaption};
use crate::lesson::names::Convention;
use crate::lesson::timeline::{subscript, sup};

/// One sentence for a walkthrough step, with its live numbers and the
/// page's token labels (`tokens`), in `lang`. Chinese sentences use
/// full-width punctuation and the notes' own words.
pub fn caption_text(sc: &StepCaption, tokens: &[String], lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let tok = |i: usize| tokens.get(i).cloned().unwrap_or_default();
    // q¹（input 1） / q¹ (input 1)
    let named = |sym: &str, i: usize| {
        if zh {
            format!("{sym}{}（{}）", sup(i + 1), tok(i))
        } else {
            format!("{sym}{} ({})", sup(i + 1), tok(i))
        }
    };
    let num = crate::lesson::format::short;
    let head = match sc.head {
        Some((r, _)) if zh => format!("第 {} 个头：", r + 1),
        Some((r, _)) => format!("Head {}: ", r + 1),
        None => String::new(),
    };
    let row = |conv: Convention| conv == Convention::Row;
    let body = match sc.caption {
        Caption::Inputs { pe, conv } => {
            use crate::attention::Positional as P;
            let x = crate::lesson::captions::projected(conv, P::OneHot);
            match (zh, pe) {
                (true, P::None) => "输入 X：每个位置一个向量。".to_string(),
                (true, P::Sinusoidal) => "输入 X 加上位置编码 PE：每个位置一个向量，并带上了它的位置。".into(),
                (true, P::OneHot) => format!("输入 X 后面拼接独热位置向量 E：每个 aⁱ 后面接上 eⁱ（第 i 位为 1，其余为 0），投影看到的是 {x}。"),
                (false, P::None) => "The inputs X: one vector per position.".into(),
                (false, P::Sinusoidal) => "The inputs X plus the positional encoding PE: one vector per position, now carrying its place.".into(),
                (false, P::OneHot) => format!("The inputs X with the one-hot positions E concatenated: each aⁱ is followed by eⁱ (1 at place i, 0 elsewhere), so the projections see {x}."),
            }
        }
        Caption::Project { m, conv, pe } => {
            let (big, small) = match m {
                Proj::Q => ("Q", "q"),
                Proj::K => ("K", "k"),
                Proj::V => ("V", "v"),
            };
            let x = crate::lesson::captions::projected(conv, pe);
            let product = if row(conv) {
                format!("{x}·W_{big}")
            } else {
                format!("W^{small} {x}")
            };
            let meaning = match (m, zh) {
                (Proj::Q, true) => "我在找什么",
                (Proj::K, true) => "我有什么特征可以被匹配",
                (Proj::V, true) => "被关注时我提供什么",
                (Proj::Q, false) => "what am I looking for",
                (Proj::K, false) => "what features of mine can be matched",
                (Proj::V, false) => "what do I give when attended to",
            };
            let each = if row(conv) {
                if zh { "每一行" } else { "every row" }
            } else if zh {
                "每一列"
            } else {
                "every column"
            };
            if zh {
                format!("{big} = {product}：{each}是一个位置的 {small}ⁱ（{meaning}？）。")
            } else {
                format!("{big} = {product}: {each} is one position's {small}ⁱ ({meaning}?).")
            }
        }
        Caption::Dot { i, j, conv, value } => {
            let pair = if row(conv) {
                format!("q{}·k{}", sup(i + 1), sup(j + 1))
            } else {
                format!("(k{})ᵀq{}", sup(j + 1), sup(i + 1))
            };
            let a = format!("α{},{}", subscript(i + 1), subscript(j + 1));
            if zh {
                format!("{} 与 {} 对应分量相乘再相加：{a} = {pair} = {}。", named("q", i), named("k", j), num(value))
            } else {
                format!("{} and {}, entry by entry, multiplied and added: {a} = {pair} = {}.", named("q", i), named("k", j), num(value))
            }
        }
        Caption::ScoresRow { i, conv } => match (zh, row(conv)) {
            (true, true) => format!("{} 与每个键做点积：分数矩阵 QKᵀ 的第 {} 行。", named("q", i), i + 1),
            (true, false) => format!("{} 与每个键做点积：分数矩阵 KᵀQ 的第 {} 列。", named("q", i), i + 1),
            (false, true) => format!("{} dotted with every key: row {} of the score matrix QKᵀ.", named("q", i), i + 1),
            (false, false) => format!("{} dotted with every key: column {} of the score matrix KᵀQ.", named("q", i), i + 1),
        },
        Caption::ScoresAll { conv } => match (zh, row(conv)) {
            (true, true) => "所有查询与所有键的点积：分数矩阵 QKᵀ，第 i 行是 qⁱ 的分数。".into(),
            (true, false) => "所有查询与所有键的点积：分数矩阵 KᵀQ，第 i 列是 qⁱ 的分数。".into(),
            (false, true) => "Every query dotted with every key: the score matrix QKᵀ, row i holding qⁱ's scores.".into(),
            (false, false) => "Every query dotted with every key: the score matrix KᵀQ, column i holding qⁱ's scores.".into(),
        },
        Caption::Scale { i, d_k, divisor } => {
            let by = format!("√d_k = √{d_k} = {}", num(divisor));
            match (zh, i) {
                (true, Some(i)) => format!("{} 的分数都除以 {by}，让 softmax 不至于过早饱和。", named("q", i)),
                (true, None) => format!("所有分数都除以 {by}，让 softmax 不至于过早饱和。"),
                (false, Some(i)) => format!("The scores of {} divided by {by}, so softmax does not saturate.", named("q", i)),
                (false, None) => format!("Every score divided by {by}, so softmax does not saturate."),
            }
        }
        Caption::Mask { i, hidden } => match (zh, i) {
            (true, Some(i)) => format!("屏蔽：{} 不能看的 {hidden} 个键，其分数被设为 −∞，softmax 之后权重为 0。", named("q", i)),
            (true, None) => format!("屏蔽：不能看的键共 {hidden} 处，其分数被设为 −∞，softmax 之后权重为 0。"),
            (false, Some(i)) => format!("The mask: the scores of the {hidden} key(s) {} may not see become −∞, so their weights will be 0.", named("q", i)),
            (false, None) => format!("The mask: {hidden} hidden score(s) become −∞, so their weights will be 0."),
        },
        Caption::Softmax { i, conv, masked, scaled } => {
            let mut s = match (zh, i, row(conv)) {
                (true, Some(i), _) => format!("对 {} 的分数做 softmax：先减去最大值再取指数，再除以它们的和；权重非负，和为 1。", named("q", i)),
                (true, None, true) => "对每一行做 softmax：权重非负，每行和为 1。".into(),
                (true, None, false) => "对每一列做 softmax（softmax_col）：权重非负，每列和为 1。".into(),
                (false, Some(i), _) => format!("Softmax over the scores of {}: subtract the largest, exponentiate, divide by the sum; the weights are non-negative and sum to 1.", named("q", i)),
                (false, None, true) => "Softmax of every row: non-negative weights, each row summing to 1.".into(),
                (false, None, false) => "Softmax down every column (softmax_col): non-negative weights, each column summing to 1.".into(),
            };
            if masked {
                s.push_str(if zh { "被屏蔽的键权重为 0。" } else { " Hidden keys get weight 0." });
            }
            if !scaled {
                s.push_str(if zh { "（没有缩放：分数直接进入 softmax。）" } else { " (No scaling: the scores go into softmax as they are.)" });
            }
            s
        }
        Caption::WeightedSum { i: Some(i), head, .. } => {
            let b = crate::lesson::notation::output_of(i, head);
            if zh {
                format!("每个 vʲ 乘以它的权重 α′{},ⱼ，再相加，得到 {b}（{}）。", subscript(i + 1), tok(i))
            } else {
                format!("Each vʲ times its weight α′{},ⱼ, added up: {b} ({}).", subscript(i + 1), tok(i))
            }
        }
        Caption::WeightedSum { i: None, conv, head } => {
            let b = crate::lesson::notation::output_matrix(head);
            match (zh, row(conv)) {
                (true, true) => format!("权重乘以 V：{b} = A·V，每一行是一个位置融合了上下文的输出。"),
                (true, false) => format!("V 乘以权重：{b} = V·A，每一列是一个位置融合了上下文的输出。"),
                (false, true) => format!("The weights times V: {b} = A·V, each row one position's context-aware output."),
                (false, false) => format!("V times the weights: {b} = V·A, each column one position's context-aware output."),
            }
        }
        Caption::MatrixForm { conv, scaled, .. } => {
            let f = match (row(conv), scaled) {
                (true, true) => "softmax(QKᵀ/√d_k)V",
                (true, false) => "softmax(QKᵀ)V",
                (false, true) => "V·softmax_col(KᵀQ/√d_k)",
                (false, false) => "V·softmax_col(KᵀQ)",
            };
            if zh {
                format!("同样的计算写成矩阵：{f}，一次算完所有位置。")
            } else {
                format!("The same computation as matrices: {f}, every position at once.")
            }
        }
        Caption::Concat { heads, conv } => match (zh, row(conv)) {
            (true, true) => format!("把 {heads} 个头的输出并排拼接（不是取平均）：每一行变长为 h·d_v。"),
            (true, false) => format!("把 {heads} 个头的输出上下拼接（不是取平均）：每一列变长为 h·d_v。"),
            (false, true) => format!("The {heads} heads' outputs placed side by side (not averaged): each row becomes h·d_v long."),
            (false, false) => format!("The {heads} heads' outputs stacked (not averaged): each column becomes h·d_v long."),
        },
        Caption::Output { heads, w_o, conv } => {
            let wo = if row(conv) { "W_O" } else { "W^O" };
            match (zh, w_o, heads > 1, row(conv)) {
                (true, true, _, true) => "拼接结果乘以 W_O，把各头的信息混合起来：B = concat·W_O，每一行是一个位置最终的 bⁱ。".into(),
                (true, true, _, false) => "W^O 乘以拼接结果，把各头的信息混合起来：B = W^O concat，每一列是一个位置最终的 bⁱ。".into(),
                (true, false, true, _) => format!("没有 {wo}：拼接结果就是最终输出 B。"),
                (true, false, false, _) => format!("只有一个头、没有 {wo}：这个头的输出 B 就是最终输出。"),
                (false, true, _, true) => "The concatenation times W_O mixes the heads: B = concat·W_O, each row one position's final bⁱ.".into(),
                (false, true, _, false) => "W^O times the concatenation mixes the heads: B = W^O concat, each column one position's final bⁱ.".into(),
                (false, false, true, _) => format!("No {wo}: the concatenation is the output B."),
                (false, false, false, _) => format!("One head and no {wo}: the head's output B is the output."),
            }
        }
    };
    format!("{head}{body}")
}

#[cfg(test)]
mod caption_tests {
    use super::*;
    use crate::lesson::captions::caption;

    /// Symbol names that may appear in Chinese text; any other Latin word is
    /// an untranslated word.
    const SYMBOLS: &[&str] = &[
        "X",
        "PE",
        "E",
        "e",
        "Q",
        "K",
        "V",
        "W_Q",
        "W_K",
        "W_V",
        "W_O",
        "W",
        "O",
        "q",
        "k",
        "v",
        "b",
        "a",
        "softmax",
        "softmax_col",
        "d_k",
        "d_v",
        "h",
        "i",
        "j",
        "QKᵀ",
        "KᵀQ",
        "A",
        "B",
        "V·A",
        "A·V",
        "concat",
        "QK",
    ];

    /// The Latin words of `s` (runs of ASCII letters and `_`).
    fn latin_words(s: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        for c in s.chars() {
            if c.is_ascii_alphabetic() || c == '_' {
                cur.push(c);
            } else if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        out
    }

    fn all_captions() -> Vec<StepCaption> {
        let mut out = Vec::new();
        crate::lesson::captions::for_each_case(|step, t, conv, s| {
            out.push(caption(step, t, conv, s.w_o.is_some()))
        });
        out
    }

    /// The layout a caption is written for (captions that read the same in
    /// both, as the scaling and mask steps do, are checked as row).
    fn layout_of(c: &Caption) -> Convention {
        match *c {
            Caption::Inputs { conv, .. }
            | Caption::Project { conv, .. }
            | Caption::Dot { conv, .. }
            | Caption::ScoresRow { conv, .. }
            | Caption::ScoresAll { conv }
            | Caption::Softmax { conv, .. }
            | Caption::WeightedSum { conv, .. }
            | Caption::MatrixForm { conv, .. }
            | Caption::Concat { conv, .. }
            | Caption::Output { conv, .. } => conv,
            Caption::Scale { .. } | Caption::Mask { .. } => Convention::Row,
        }
    }

    /// Every symbol a caption or its formula writes, in either language and
    /// layout, is one of the notation table's (`crate::lesson::notation`):
    /// a word that carries an index or a sub/superscript must name a symbol
    /// of that layout (so never x¹, oⁱ, H or Y, and W^q only in columns).
    #[test]
    fn captions_use_only_the_notation_table() {
        use crate::lesson::notation::is_symbol;
        let tokens: Vec<String> = (1..=3).map(|i| format!("t{i}")).collect();
        let indexed = |w: &str| {
            w.chars()
                .any(|c| "⁰¹²³⁴⁵⁶⁷⁸⁹ⁱʲʳʰ₀₁₂₃₄₅₆₇₈₉ᵢⱼ^_ᵀ′".contains(c))
                || ["H", "Y", "O"].contains(&w)
        };
        for sc in all_captions() {
            let conv = layout_of(&sc.caption);
            let formula = crate::lesson::captions::plain_formula(&sc.caption);
            for lang in [Lang::Zh, Lang::En] {
                let text = caption_text(&sc, &tokens, lang);
                for source in [&text, &formula] {
                    let words = source.split(|c: char| {
                        c.is_whitespace()
                            || "，。：；（）()[]|=+·/√?？,:;.".contains(c)
                            || (c as u32) >= 0x4E00
                    });
                    for w in words.filter(|w| indexed(w) && w.chars().any(char::is_alphabetic)) {
                        // Products of symbols written together, and Σ's index.
                        if ["QKᵀ", "KᵀQ", "Σ_j", "A·V", "V·A"].contains(&w)
                            || w.starts_with("softmax")
                        {
                            continue;
                        }
                        let w = w.strip_suffix("'s").unwrap_or(w).trim_matches(['ᵀ', '\'']);
                        if crate::lesson::notation::base(w).is_none() {
                            continue; // an index alone, after a split at its comma
                        }
                        assert!(is_symbol(w, conv), "{w:?} ({conv:?}, {lang:?}) in {source}");
                    }
                }
            }
        }
    }

    #[test]
    fn chinese_captions_have_no_english_words() {
        // Chinese token labels, as the Chinese presets have.
        let tokens: Vec<String> = (1..=3).map(|i| format!("输入 {i}")).collect();
        for sc in all_captions() {
            let zh = caption_text(&sc, &tokens, Lang::Zh);
            for w in latin_words(&zh) {
                assert!(SYMBOLS.contains(&w.as_str()), "{w:?} in {zh}");
            }
            // Full-width punctuation in Chinese sentences.
            for bad in [", ", ": ", "; "] {
                assert!(!zh.contains(bad), "{bad:?} in {zh}");
            }
            // ASCII brackets only inside formulas, never around Chinese.
            let cjk = |c: char| (c as u32) >= 0x4E00;
            let chars: Vec<char> = zh.chars().collect();
            for w in chars.windows(2) {
                assert!(
                    !(w[0] == '(' && cjk(w[1]) || cjk(w[0]) && w[1] == ')'),
                    "{zh}"
                );
            }
            assert!(zh.ends_with('。') || zh.ends_with('）'), "{zh}");
            assert!(!zh.contains("为正") && !zh.contains("掩码"), "{zh}");
        }
    }

    #[test]
    fn captions_follow_the_convention_scaling_and_w_o() {
        let tokens: Vec<String> = (1..=3).map(|i| format!("t{i}")).collect();
        for sc in all_captions() {
            for lang in [Lang::Zh, Lang::En] {
                let text = caption_text(&sc, &tokens, lang);
                let formula = crate::lesson::captions::plain_formula(&sc.caption);
                let ctx = format!("{sc:?}: {text}");
                match sc.caption {
                    Caption::ScoresAll { conv } | Caption::ScoresRow { conv, .. } => {
                        let (yes, no) = if conv == Convention::Row {
                            ("QKᵀ", "KᵀQ")
                        } else {
                            ("KᵀQ", "QKᵀ")
                        };
                        assert!(text.contains(yes) && !text.contains(no), "{ctx}");
                    }
                    Caption::Softmax {
                        scaled, conv, i, ..
                    } => {
                        assert!(!text.contains('√'), "{ctx}");
                        if lang == Lang::En {
                            assert!(
                                text.contains("non-negative") && !text.contains("positive weights"),
                                "{ctx}"
                            );
                            if i.is_none() {
                                assert_eq!(
                                    text.contains("column"),
                                    conv == Convention::Col,
                                    "{ctx}"
                                );
                            }
                            assert_eq!(text.contains("No scaling"), !scaled, "{ctx}");
                        } else {
                            assert!(text.contains("非负"), "{ctx}");
                        }
                    }
                    Caption::MatrixForm { scaled, .. } => {
                        assert_eq!(text.contains('√'), scaled, "{ctx}");
                    }
                    Caption::Mask { .. } => {
                        // The score is set to −∞, never "the key".
                        if lang == Lang::En {
                            assert!(
                                text.contains("scores") || text.contains("score(s)"),
                                "{ctx}"
                            );
                            assert!(!text.contains("keys become"), "{ctx}");
                        } else {
                            assert!(
                                text.contains("屏蔽") && text.contains("分数被设为 −∞"),
                                "{ctx}"
                            );
                        }
                    }
                    Caption::Output { w_o, heads, .. } => {
                        if w_o {
                            assert!(text.contains("W_O") || text.contains("W^O"), "{ctx}");
                        } else {
                            // W_O / W^O only to say there is none.
                            assert!(!text.contains("mixes") && !text.contains("混合"), "{ctx}");
                            assert!(
                                text.to_lowercase().contains("no w") || text.contains("没有 W"),
                                "{ctx}"
                            );
                        }
                        if heads == 1 && !w_o {
                            assert!(!text.contains("concat") && !text.contains("拼接"), "{ctx}");
                        }
                    }
                    _ => {}
                }
                // The sentence names the same formula the step shows.
                if let Caption::Project { .. } | Caption::WeightedSum { i: None, .. } = sc.caption {
                    let key = formula.split(" = ").last().unwrap_or_default().to_string();
                    assert!(text.contains(&key), "{ctx} / {formula}");
                }
            }
        }
    }
}
