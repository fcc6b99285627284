//! Every string a user can see, in Chinese and English, in seven tables by
//! which part of the app shows it: [`CommonText`] (every part), [`PageText`] (the page:
//! `page.rs`), [`MapText`] (the heatmaps, which the page and the training lab
//! draw: `maps.rs`), [`LabText`] (the labs: `labs.rs`), [`TrainText`] (the training lab:
//! `train.rs`), [`TrainPageText`] (the page's few words about the training lab,
//! also in `train.rs`) and [`TokensText`] (the tokens lab: `tokens.rs`). In
//! the browser's release build (the feature `split`) the tables' texts are
//! not compiled in: each language's are three files of their own, the
//! page's, the labs' and the tokens lab's, and a reader fetches only the
//! language they read, a chunk's words only with the chunk (`load.rs`;
//! docs/architecture.md, "One module and its chunks").
//! `scripts/check-strings.py` checks after the release build that no
//! module carries them. Sentences with numbers are filled from the
//! figure's values ([`fill`]); the walkthrough's captions are worded in
//! `captions.rs`, refusals in `errors.rs`.
//!
//! Each table is written with one macro so that a key cannot exist without
//! both languages; a test checks that neither is empty.

pub use crate::lesson::names::Lang;

mod captions;
mod errors;
mod labs;
mod maps;
mod page;
mod tokens;
mod train;

pub use captions::caption_text;
pub use errors::{error_text, refusal_text, too_long_text};
pub use labs::LabText;
pub use maps::MapText;
pub use page::PageText;
pub use tokens::TokensText;
pub use train::{TrainPageText, TrainText};

macro_rules! strings {
    ($name:ident, $table:ident, $base:expr; $($key:ident => $zh:expr, $en:expr;)*) => {
        /// A key of the string table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($key),* }

        /// Chinese and English of every key, in the order of the keys. Not
        /// in the browser's release build: there the texts come from
        /// `strings-LANG-<hash>.txt` ([`load`]).
        #[cfg(not(feature = "split"))]
        const $table: &[[&str; 2]] = &[$([$zh, $en]),*];

        impl $name {
            /// Every key, for the completeness test.
            #[cfg(test)]
            pub const ALL: &'static [$name] = &[$($name::$key),*];

            /// How many keys the table has.
            pub const COUNT: usize = [$(stringify!($key)),*].len();

            /// Where the table's first text is among all the tables' texts
            /// ([`texts`]): read by `t` in the browser's release build, and
            /// by the tests.
            #[cfg_attr(not(any(test, feature = "split")), allow(dead_code))]
            pub(crate) const BASE: usize = $base;

            /// The text of this key in `lang`.
            #[cfg(not(feature = "split"))]
            pub fn t(self, lang: Lang) -> &'static str {
                $table[self as usize][(lang == Lang::En) as usize]
            }

            /// The text of this key in `lang`, from the texts [`load`] read.
            #[cfg(feature = "split")]
            pub fn t(self, lang: Lang) -> &'static str {
                $crate::app::i18n::loaded(lang, Self::BASE + self as usize)
            }

            /// The table's texts in `lang`, in the order of its keys.
            #[cfg(not(feature = "split"))]
            pub(crate) fn texts(lang: Lang) -> impl Iterator<Item = &'static str> {
                $table.iter().map(move |pair| pair[(lang == Lang::En) as usize])
            }
        }
    };
}
pub(crate) use strings;

strings! {
    CommonText, COMMON, 0;
    QueryWord => "查询", "query";
    KeyWord => "键", "key";
    Play => "播放", "Play";
    Pause => "暂停", "Pause";
    SpeedLabel => "速度", "Speed";
    Colon => "：", ": ";
    LabsHeading => "实验：注意力为什么这样算", "Labs: why attention is computed this way";
}

// Each table's first text among all the tables' texts: the order of
// [`texts`] and of the files the browser's build reads ([`load`]).
// The page's tables first, then those only the chunks show.
const BASE_S: usize = CommonText::BASE + CommonText::COUNT;
const BASE_H: usize = BASE_S + PageText::COUNT;
const BASE_TP: usize = BASE_H + MapText::COUNT;
/// How many of the texts the page shows (the first screen's file of each
/// language); the rest are the chunks', in two files fetched with them
/// (`load.rs`).
pub const FIRST_TEXTS: usize = BASE_TP + TrainPageText::COUNT;
const BASE_L: usize = FIRST_TEXTS;
const BASE_T: usize = BASE_L + LabText::COUNT;
/// Where the labs' and the training lab's texts end (a file fetched with
/// the first of their chunks) and the tokens lab's begin (a file fetched
/// with its chunk).
pub const LABS_TEXTS: usize = BASE_T + TrainText::COUNT;
const BASE_K: usize = LABS_TEXTS;
/// How many texts the tables hold in each language.
pub const TEXTS: usize = BASE_K + TokensText::COUNT;

/// Every table's texts in `lang`, one after the other (CommonText,
/// PageText, MapText, TrainPageText, then LabText, TrainText, TokensText):
/// what `examples/strings.rs` writes, cut at [`FIRST_TEXTS`] and
/// [`LABS_TEXTS`], into the three files of each language that the
/// browser's release build reads instead
/// of carrying both languages in its code (docs/performance.md, "Each
/// language's words when it is read").
#[cfg(not(feature = "split"))]
pub fn texts(lang: Lang) -> Vec<&'static str> {
    CommonText::texts(lang)
        .chain(PageText::texts(lang))
        .chain(MapText::texts(lang))
        .chain(TrainPageText::texts(lang))
        .chain(LabText::texts(lang))
        .chain(TrainText::texts(lang))
        .chain(TokensText::texts(lang))
        .collect()
}

#[cfg(feature = "split")]
mod load;
#[cfg(feature = "split")]
pub use load::{load, load_words, loaded};

/// The words a chunk's lab shows, beyond the page's: what it asks for
/// before it mounts ([`load_words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChunkWords {
    /// The labs' and the training lab's ([`LabText`], [`TrainText`]).
    Labs,
    /// The tokens lab's ([`TokensText`]) and the labs' (whose question
    /// frame it shows).
    Tokens,
}

/// Without the `split` feature the tables are compiled in: a chunk's
/// words are always here.
#[cfg(not(feature = "split"))]
pub async fn load_words(_words: ChunkWords, _lang: Lang) -> bool {
    true
}

/// Every key of the tables with its two texts, for the tests that
/// read the whole table.
#[cfg(test)]
pub(crate) fn all_texts() -> Vec<(String, [&'static str; 2])> {
    let both = |t: &dyn Fn(Lang) -> &'static str| [t(Lang::Zh), t(Lang::En)];
    let mut all: Vec<(String, [&'static str; 2])> = Vec::new();
    all.extend(
        CommonText::ALL
            .iter()
            .map(|k| (format!("{k:?}"), both(&|l| k.t(l)))),
    );
    all.extend(
        PageText::ALL
            .iter()
            .map(|k| (format!("{k:?}"), both(&|l| k.t(l)))),
    );
    all.extend(
        MapText::ALL
            .iter()
            .map(|k| (format!("{k:?}"), both(&|l| k.t(l)))),
    );
    all.extend(
        LabText::ALL
            .iter()
            .map(|k| (format!("{k:?}"), both(&|l| k.t(l)))),
    );
    all.extend(
        TrainText::ALL
            .iter()
            .map(|k| (format!("{k:?}"), both(&|l| k.t(l)))),
    );
    all.extend(
        TrainPageText::ALL
            .iter()
            .map(|k| (format!("{k:?}"), both(&|l| k.t(l)))),
    );
    all.extend(
        TokensText::ALL
            .iter()
            .map(|k| (format!("{k:?}"), both(&|l| k.t(l)))),
    );
    all
}

/// A sentence of the table with its numbers: `{1}`, `{2}`, … in `template`
/// become `args[0]`, `args[1]`, …. Numbers in sentences always come this way,
/// from the values the figure beside them shows, never typed into the table.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let (before, after) = rest.split_at(open);
        out.push_str(before);
        let close = after.find('}').unwrap_or(0);
        match after[1..close.max(1)].parse::<usize>() {
            Ok(k) if close > 1 && (1..=args.len()).contains(&k) => {
                out.push_str(args[k - 1]);
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// ", row 3" / " 第 3 行" after a matrix's name (1-based).
pub fn row_suffix(lang: Lang, row: usize) -> String {
    match lang {
        Lang::Zh => format!(" 第 {row} 行"),
        Lang::En => format!(", row {row}"),
    }
}

/// "columns 17–32 of 512" (1-based, inclusive) for a windowed matrix axis.
pub fn window_text(lang: Lang, columns: bool, first: usize, last: usize, len: usize) -> String {
    match (lang, columns) {
        (Lang::Zh, true) => format!("第 {first}–{last} 列，共 {len} 列"),
        (Lang::Zh, false) => format!("第 {first}–{last} 行，共 {len} 行"),
        (Lang::En, true) => format!("columns {first}–{last} of {len}"),
        (Lang::En, false) => format!("rows {first}–{last} of {len}"),
    }
}

/// Note 004's rounding of the first row of weights, told with the engine's
/// numbers: the note rounds head 1's first row of weights to halves
/// (0, 0.5, 0.5) and weighs the values with them ([2, 7, 1.5]); the exact
/// softmax gives the first output row of the trace. `None` for a trace
/// without a first row.
pub fn rounded_note(t: &crate::attention::Trace, lang: Lang) -> Option<String> {
    use crate::lesson::format::rounded;
    let head = t.heads.first()?;
    if head.weights.nrows() == 0 || t.output.nrows() == 0 {
        return None;
    }
    let sep = PageText::ListSep.t(lang);
    let list = |xs: &mut dyn Iterator<Item = f64>, sep: &str| {
        xs.map(|v| rounded(v, 4)).collect::<Vec<_>>().join(sep)
    };
    let exact: Vec<f64> = head.weights.row(0).iter().copied().collect();
    let halves: Vec<f64> = exact.iter().map(|w| (w * 2.0).round() / 2.0).collect();
    let by_halves = (0..head.v.ncols()).map(|c| {
        halves
            .iter()
            .enumerate()
            .map(|(j, w)| w * head.v[(j, c)])
            .sum::<f64>()
    });
    Some(fill(
        PageText::NoteRounded.t(lang),
        &[
            &list(&mut halves.iter().copied(), sep),
            &list(&mut exact.iter().copied(), sep),
            &list(&mut by_halves.into_iter(), ", "),
            &list(&mut t.output.row(0).iter().copied(), ", "),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_004_rounding_is_told_with_the_engine_numbers() {
        let t = crate::attention::compute(&crate::lesson::presets::notes_004()).unwrap();
        assert_eq!(
            rounded_note(&t, Lang::En).unwrap(),
            "To keep the arithmetic easy, the note approximates the first row of weights as \
0, 0.5, 0.5 (exactly 0.0634, 0.4683, 0.4683) and gets [2, 7, 1.5] for the first output; \
here the exact softmax gives [1.9366, 6.6831, 1.5951]."
        );
        let zh = rounded_note(&t, Lang::Zh).unwrap();
        assert!(
            zh.contains("0、0.5、0.5（精确值是 0.0634、0.4683、0.4683）")
                && zh.contains("[2, 7, 1.5]")
                && zh.contains("[1.9366, 6.6831, 1.5951]"),
            "{zh}"
        );
    }

    #[test]
    fn each_key_is_found_at_its_tables_base_in_the_texts_of_both_languages() {
        // The order the browser's release build reads its texts in
        // (load.rs): text BASE + key of `texts(lang)` is the key's text.
        for lang in [Lang::Zh, Lang::En] {
            let all = texts(lang);
            assert_eq!(all.len(), TEXTS);
            let mut checked = 0;
            macro_rules! check {
                ($($table:ident),*) => {$(
                    for k in $table::ALL {
                        let at = $table::BASE + *k as usize;
                        assert_eq!(all[at], k.t(lang), "text {at} in {lang:?}");
                        checked += 1;
                    }
                )*};
            }
            check!(
                CommonText,
                PageText,
                MapText,
                LabText,
                TrainText,
                TrainPageText,
                TokensText
            );
            assert_eq!(checked, TEXTS);
            // The file separates texts with NUL.
            assert!(all.iter().all(|t| !t.contains('\0')));
        }
    }

    #[test]
    fn every_key_has_both_languages() {
        for (key, [zh, en]) in all_texts() {
            assert!(!zh.trim().is_empty(), "{key} has no Chinese text");
            assert!(!en.trim().is_empty(), "{key} has no English text");
        }
    }

    #[test]
    fn chinese_text_is_chinese_where_it_is_prose() {
        // A Chinese entry that equals its English one must be a symbol (W_Q).
        for (key, [zh, en]) in all_texts() {
            if zh == en {
                assert!(zh.len() <= 4, "{key} looks untranslated: {zh}");
            }
        }
    }

    #[test]
    fn a_key_is_in_one_table_only() {
        let mut names: Vec<String> = all_texts().into_iter().map(|(k, _)| k).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "a key in two tables");
    }

    /// Numbers a sentence may state in the table itself, by key: constants
    /// of the formulas (a softmax row sums to 1, e^{−∞} = 0), limits of an
    /// input, indices that name a head or a row, sizes fixed by a figure's
    /// code, and facts of the notes (note 004's rounded weights and its
    /// [2, 7, 1.5]). Anything measured on the figure (a score, a weight, an
    /// output, a length) must be a `{n}` placeholder filled from the values
    /// on screen: a number typed here goes stale the moment the reader
    /// edits, and a wrong number teaches as surely as a wrong word.
    const NUMBERS: &[(&str, &[&str])] = &[
        ("NotesIntro", &["0/1"]),
        // The model file's refusals: the format's constants, said as the
        // crate's checks hold them (crates/train/src/file.rs).
        ("WhyBeyondF64", &["f64"]),
        ("WhyWhole", &["0"]),
        ("WhySequenceVocab", &["2"]),
        ("WhyInductionVocab", &["2", "1"]),
        ("WhyTokenCount", &["1"]),
        ("WhyTokenCountSteps", &["1"]),
        ("WhyPatch", &["2", "4", "8×8"]),
        ("WhyDigitsClasses", &["10", "0", "9"]),
        ("WhyPatchPositions", &["8", "1"]),
        ("DigitsSource", &["1998", "4.0", "8"]),
        ("TokDuration", &["0.1", "2"]),
        ("TokBadDuration", &["0.1", "2"]),
        ("TokFeatures", &["1"]),
        ("TokAnswerZero", &["0"]),
        ("TokGraphExplain", &["0", "1"]),
        ("EMultilabel", &["1"]),
        ("BothSigmoid", &["1/2"]),
        ("CapWeights", &["1"]),
        ("CapWeightsCol", &["1"]),
        ("CapInputOneHot", &["1"]),
        ("CapInputOneHotCol", &["1"]),
        ("LinkNotBase64", &["base64"]),
        ("LinkNotUtf8", &["UTF-8"]),
        ("AboutTwoHeads", &["1", "2"]),
        ("PresetWide", &["8", "64", "512"]),
        (
            "AboutWide",
            &["512", "8", "64", "16", "N(0, 1)", "N(0, 1/d_model)"],
        ),
        ("AboutNotes004", &["3", "4", "4×3"]),
        ("AboutISawASaw", &["2", "4"]),
        ("AboutUniform", &["0", "1/n"]),
        ("LabScalingLead", &["0", "1"]),
        ("LabScalingQuestion", &["4", "256", "8"]),
        ("LabScalingExplain", &["0", "1"]),
        ("LabScalingNumbers", &["100"]),
        ("LabDk", &["1–512"]),
        ("LabBadDk", &["1", "512"]),
        ("LabBadSeed", &["0"]),
        ("LabCurveTitle", &["8"]),
        ("LabTableCaption", &["8", "100"]),
        ("LabScoringLead", &["1"]),
        ("LabPeMapLabel", &["32"]),
        ("LabPeMapCaption", &["−1", "0", "+1"]),
        ("LabMasksZero", &["0"]),
        ("LabMasksExplain", &["0", "1"]),
        ("LabMasksExplainOpen", &["0", "1"]),
        ("LabGraphTooBig", &["16"]),
        ("LabWeightsNoMask", &["1"]),
        ("LabWeightsMasked", &["1"]),
        ("LabDropoutLead", &["1/(1−p)"]),
        ("LabDropoutQuestion", &["1"]),
        ("LabDropoutNotAlways", &["1"]),
        ("LabDropoutExplain", &["1/(1−p)", "0", "1"]),
        ("LabDropoutExplainZero", &["1/(1−p)", "1"]),
        ("LabBadRate", &["0", "0.9"]),
        ("LabWhyNotOne", &["1/(1−p)", "0", "1"]),
        ("LabInferenceNote", &["1"]),
        ("LabCostExplain", &["4"]),
        ("LabLinear", &["1"]),
        ("LabPlotCaption", &["1", "4096"]),
        ("LabCostHonest", &["0"]),
        ("LabLinearHow", &["1"]),
        // The name of the number type the model trains in.
        ("TrainLead", &["f64"]),
    ];

    /// `text` without what may always hold digits: `{n}` placeholders, the
    /// notes' numbers (note 004, §6.1–6.3, 第 8 节) and the speeds (0.5×).
    fn without_references(text: &str) -> String {
        let mut t = text.to_string();
        for k in 1..=9 {
            t = t.replace(&format!("{{{k}}}"), "");
        }
        for note in ["000", "001", "004"] {
            for word in ["笔记 ", "note ", "Note ", "notes ", "Notes "] {
                t = t.replace(&format!("{word}{note}"), "");
            }
        }
        for speed in ["0.5×", "1.5×", "1×"] {
            t = t.replace(speed, "");
        }
        // § followed by a section (6.1–6.3); 第 … 节 around one.
        let mut out = String::new();
        let mut chars = t.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '§' || c == '第' {
                let mut section = String::new();
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_digit() || matches!(d, '.' | '–' | ' ') {
                        section.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let is_section = c == '§' || chars.peek() == Some(&'节');
                if is_section && section.chars().any(|d| d.is_ascii_digit()) {
                    if c == '第' {
                        chars.next();
                    }
                    continue;
                }
                out.push(c);
                out.push_str(&section);
                continue;
            }
            out.push(c);
        }
        out
    }

    /// Every digit in the table is a reference, a placeholder, or in the
    /// list above; every listed number is still used (a stale entry would
    /// let a typed number back in).
    #[test]
    fn numbers_in_sentences_come_from_the_figure() {
        for (key, texts) in all_texts() {
            let allowed: &[&str] = NUMBERS
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(&[], |(_, n)| n);
            for text in texts {
                let mut t = without_references(text);
                // Longest first, so "0.5" is not read as "0" and "5".
                let mut sorted = allowed.to_vec();
                sorted.sort_by_key(|a| std::cmp::Reverse(a.len()));
                for a in sorted {
                    t = t.replace(a, "");
                }
                assert!(
                    !t.chars().any(|c| c.is_ascii_digit()),
                    "{key} types a number; fill it from the figure with {{n}} \
                     (or, if it is a constant, list it with its reason): {text}"
                );
            }
            for a in allowed {
                assert!(
                    texts.iter().any(|t| without_references(t).contains(a)),
                    "{key}: {a} is listed but no longer said"
                );
            }
        }
        // Every listed key exists.
        let names: Vec<String> = all_texts().into_iter().map(|(k, _)| k).collect();
        for (k, _) in NUMBERS {
            assert!(
                names.iter().any(|n| n == k),
                "{k} is listed but no longer a key"
            );
        }
    }

    #[test]
    fn placeholders_are_filled_in_order() {
        assert_eq!(
            fill("q·k¹ = {1}, q·k² = {2}", &["2.5", "4"]),
            "q·k¹ = 2.5, q·k² = 4"
        );
        assert_eq!(
            fill("{2} then {1}, {1} again", &["a", "b"]),
            "b then a, a again"
        );
        // Not a placeholder: kept as written.
        assert_eq!(fill("q^{i,r} and {3}", &["x"]), "q^{i,r} and {3}");
        assert_eq!(fill("{", &[]), "{");
        // Every placeholder a sentence uses is one its caller fills: a
        // template's highest {n} is at most 9, and none is skipped.
        for (key, texts) in all_texts() {
            for t in texts {
                let used: Vec<usize> = (1..=9)
                    .filter(|k| t.contains(&format!("{{{k}}}")))
                    .collect();
                if let Some(&max) = used.last() {
                    assert_eq!(
                        used,
                        (1..=max).collect::<Vec<_>>(),
                        "{key} skips a placeholder"
                    );
                }
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
