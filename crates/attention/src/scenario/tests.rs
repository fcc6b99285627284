//! Tests of `scenario`, beside it so that the module itself reads as one job.

use super::*;

const ONE_HOT: &str = r#"{
  "format": "attention-lab/1",
  "tokens": ["a", "b"],
  "x": [[1, 2], [3, 0]],
  "heads": [{"w_q": [[1], [0], [0.5], [-1]], "w_k": [[0], [1], [2], [0]], "w_v": [[1], [1], [0], [10]]}],
  "scale": false,
  "positional": "onehot"
}"#;

const SMALL: &str = r#"{"format": "attention-lab/1", "x": [[1, 2]], "heads": [{"w_q": [[1], [2]], "w_k": [[1], [2]], "w_v": [[1], [1]]}]}"#;

/// `(field, reason)` of the refusal of `text`.
#[track_caller]
fn refusal(text: &str) -> (String, Reason) {
    let e = Scenario::from_json(text).expect_err(text);
    (e.field, e.reason)
}

fn json(line: usize, column: usize, problem: JsonProblem) -> (String, Reason) {
    (
        String::new(),
        Reason::Json {
            line,
            column,
            problem,
        },
    )
}

#[test]
fn text_that_is_not_json_is_refused_with_line_and_column() {
    assert_eq!(refusal(""), json(1, 1, JsonProblem::Eof));
    assert_eq!(
        refusal("{\"format\": \"attention-lab/1\", \"x\": [[1, 2]"),
        json(1, 42, JsonProblem::Eof)
    );
    assert_eq!(
        refusal("[1 2]"),
        json(1, 4, JsonProblem::ExpectedCommaOr(']'))
    );
    assert_eq!(refusal("{a: 1}"), json(1, 2, JsonProblem::ExpectedKey));
    assert_eq!(
        refusal("{\"x\": [[01]]}"),
        json(1, 10, JsonProblem::InvalidNumber)
    );
    assert_eq!(
        refusal("{\"format\": \"a\\x\"}"),
        json(1, 15, JsonProblem::InvalidEscape)
    );
    // Text cut short is refused as such, even after a wrong field.
    assert_eq!(
        refusal("{\"format\": \"attention-lab/1\", \"x\": [[1, 2], [3]]"),
        json(1, 48, JsonProblem::Eof)
    );
    assert_eq!(
        refusal("{\"colour\": 1,\n}"),
        json(2, 1, JsonProblem::ExpectedKey)
    );
    // Columns count characters, not bytes; CRLF is one line break; a
    // leading BOM is skipped and not counted.
    assert_eq!(
        refusal("{\"format\":\"é\u{1}\"}"),
        json(1, 13, JsonProblem::ControlCharacter)
    );
    assert_eq!(
        refusal("{\r\n\"x\":\r\n x}"),
        json(3, 2, JsonProblem::ExpectedValue)
    );
    assert_eq!(refusal("\u{feff}{x}"), json(1, 2, JsonProblem::ExpectedKey));
    assert!(Scenario::from_json(&format!("\u{feff}{SMALL}")).is_ok());
    // After a whole scenario, nothing but whitespace.
    assert_eq!(
        refusal(&format!("{SMALL} x")),
        json(1, 116, JsonProblem::Trailing)
    );
    assert!(Scenario::from_json(&format!(" \n{SMALL}\r\n\t")).is_ok());
    // A field given twice is refused (rather than one of them kept).
    let twice = SMALL.replace("\"x\": [[1, 2]]", "\"x\": [[1, 2]], \"x\": [[1, 2]]");
    assert_eq!(
        refusal(&twice),
        json(1, 48, JsonProblem::DuplicateKey("x".into()))
    );
    let twice = SMALL.replace("\"w_k\"", "\"w_q\": [[1], [2]], \"w_k\"");
    assert_eq!(
        refusal(&twice).1.to_string().split(": ").last(),
        Some("duplicate key `w_q`")
    );
}

#[test]
fn nesting_is_bounded_without_overflowing_the_stack() {
    let closed =
        |open: &str, close: &str| format!("{}1{}", open.repeat(1_000_000), close.repeat(1_000_000));
    for deep in [
        closed("[", "]"),
        closed("{\"x\":", "}"),
        format!(
            "{{\"format\": \"attention-lab/1\", \"x\": {}{}}}",
            "[".repeat(400),
            "]".repeat(400)
        ),
        SMALL.replace(
            "}]}",
            &format!(
                "}}], \"mask\": {}1{}}}",
                "{\"custom\":[".repeat(100),
                "]}".repeat(100)
            ),
        ),
    ] {
        let (field, reason) = refusal(&deep);
        assert_eq!(field, "");
        assert!(
            matches!(
                reason,
                Reason::Json {
                    problem: JsonProblem::TooDeep,
                    ..
                }
            ),
            "{reason:?}"
        );
    }
    // Unclosed, it is text cut short.
    for open in ["[", "{\"x\":"] {
        let (_, reason) = refusal(&open.repeat(1_000_000));
        assert!(
            matches!(
                reason,
                Reason::Json {
                    problem: JsonProblem::Eof,
                    ..
                }
            ),
            "{reason:?}"
        );
    }
}

#[test]
fn refusals_name_the_field() {
    let with = |from: &str, to: &str| {
        let text = SMALL.replace(from, to);
        assert_ne!(text, SMALL);
        refusal(&text)
    };
    const KNOWN: &[&str] = &[
        "format",
        "tokens",
        "x",
        "heads",
        "w_o",
        "residual",
        "scale",
        "mask",
        "positional",
        "stack",
    ];
    assert_eq!(
        with("\"x\"", "\"colour\": 1, \"x\""),
        (
            "colour".into(),
            Reason::UnknownField {
                name: "colour".into(),
                known: KNOWN
            }
        )
    );
    assert_eq!(
        with("\"w_q\"", "\"w q\": 1, \"w_q\""),
        (
            "heads[0][\"w q\"]".into(),
            Reason::UnknownField {
                name: "w q".into(),
                known: &["w_q", "w_k", "w_v"]
            }
        )
    );
    assert_eq!(
        with("\"format\": \"attention-lab/1\", ", ""),
        ("format".into(), Reason::MissingField("format"))
    );
    assert_eq!(
        with("\"w_k\": [[1], [2]], ", ""),
        ("heads[0].w_k".into(), Reason::MissingField("w_k"))
    );
    assert_eq!(
        with("[[1, 2]]", "[[1, 2], [3]]"),
        (
            "x".into(),
            Reason::Ragged {
                row: 1,
                len: 1,
                first: 2
            }
        )
    );
    let long = "{\"a\": [1, {\"b\": null}], \"c\": \"0123456789012345678901234567890123456789\"}";
    assert_eq!(
        with("[[1, 2]]", long),
        (
            "x".into(),
            Reason::Expected {
                what: Expected::Rows,
                got: "{\"a\":[1,{\"b\":null}],\"c\":\"012345678901234…".into()
            }
        )
    );
    assert_eq!(
        with("[[1, 2]]", "[[1, 1e999]]"),
        ("x[0][1]".into(), Reason::NumberOutOfRange)
    );
    assert_eq!(
        with("[[1], [1]]}", "[[1], [-1e400]]}"),
        ("heads[0].w_v[1][0]".into(), Reason::NumberOutOfRange)
    );
    assert_eq!(
        with("[[1], [2]], \"w_k\"", "[[1], [\"1\"]], \"w_k\""),
        (
            "heads[0].w_q[1][0]".into(),
            Reason::Expected {
                what: Expected::Number,
                got: "\"1\"".into()
            }
        )
    );
    assert_eq!(
        with("[[1, 2]]", "[1, 2]"),
        (
            "x[0]".into(),
            Reason::Expected {
                what: Expected::Row,
                got: "1".into()
            }
        )
    );
    assert_eq!(
        with("[{", "[3, {"),
        (
            "heads[0]".into(),
            Reason::Expected {
                what: Expected::Object,
                got: "3".into()
            }
        )
    );
    assert_eq!(
        with(
            "[{\"w_q\": [[1], [2]], \"w_k\": [[1], [2]], \"w_v\": [[1], [1]]}]",
            "{}"
        ),
        (
            "heads".into(),
            Reason::Expected {
                what: Expected::Heads,
                got: "{}".into()
            }
        )
    );
    assert_eq!(
        with("\"attention-lab/1\"", "3"),
        ("format".into(), Reason::Format("3".into()))
    );
    let tail = |extra: &str| with("}]}", &format!("}}], {extra}}}"));
    assert_eq!(
        tail("\"tokens\": [\"a\", 3]"),
        (
            "tokens[1]".into(),
            Reason::Expected {
                what: Expected::Label,
                got: "3".into()
            }
        )
    );
    assert_eq!(
        tail("\"tokens\": \"a\""),
        (
            "tokens".into(),
            Reason::Expected {
                what: Expected::Labels,
                got: "\"a\"".into()
            }
        )
    );
    assert_eq!(
        tail("\"scale\": null"),
        (
            "scale".into(),
            Reason::Expected {
                what: Expected::Bool,
                got: "null".into()
            }
        )
    );
    assert_eq!(
        tail("\"mask\": 3"),
        ("mask".into(), Reason::MaskForm("3".into()))
    );
    assert_eq!(
        tail("\"mask\": null"),
        ("mask".into(), Reason::MaskForm("null".into()))
    );
    assert_eq!(
        tail("\"mask\": {\"padding\": 1, \"window\": 1}"),
        (
            "mask".into(),
            Reason::MaskForm("{\"padding\":1,\"window\":1}".into())
        )
    );
    assert_eq!(
        tail("\"mask\": {}"),
        ("mask".into(), Reason::MaskForm("{}".into()))
    );
    assert_eq!(
        tail("\"mask\": {\"window\": 1.5}"),
        ("mask.window".into(), Reason::WholeNumber("1.5".into()))
    );
    assert_eq!(
        tail("\"mask\": {\"padding\": \"1\"}"),
        ("mask.padding".into(), Reason::WholeNumber("\"1\"".into()))
    );
    assert_eq!(
        tail("\"mask\": {\"custom\": [[1]]}"),
        ("mask.custom".into(), Reason::CustomMask)
    );
    assert_eq!(
        tail("\"mask\": {\"custom\": [[true, 1e999]]}"),
        ("mask.custom[0][1]".into(), Reason::NumberOutOfRange)
    );
    assert_eq!(
        tail("\"positional\": true"),
        ("positional".into(), Reason::PositionalForm("true".into()))
    );
    // The document itself must be an object.
    for (text, got) in [
        ("[]", "[]"),
        ("3", "3"),
        ("null", "null"),
        ("\"s\"", "\"s\""),
    ] {
        assert_eq!(
            refusal(text),
            (
                String::new(),
                Reason::Expected {
                    what: Expected::Object,
                    got: got.into()
                }
            )
        );
    }
}

#[test]
fn optional_fields_read_as_before() {
    let s = Scenario::from_json(SMALL).unwrap();
    assert_eq!(
        (
            s.tokens.clone(),
            s.scale,
            s.mask.clone(),
            s.positional,
            s.w_o.clone()
        ),
        (
            vec!["x1".to_string()],
            true,
            Mask::None,
            Positional::None,
            None
        )
    );
    // `null` tokens and w_o read as absent.
    let nulls = SMALL.replace("}]}", "}], \"tokens\": null, \"w_o\": null}");
    assert_eq!(Scenario::from_json(&nulls).unwrap(), s);
    for (mask, want) in [
        ("\"none\"", Mask::None),
        ("\"causal\"", Mask::Causal),
        ("{\"padding\": 1}", Mask::Padding(1)),
        ("{\"window\": 2}", Mask::Window(2)),
        ("{\"window\": 1e300}", Mask::Window(usize::MAX)),
        ("{\"window\": 2.0}", Mask::Window(2)),
        ("{\"padding\": -0}", Mask::Padding(0)),
        ("{\"custom\": [[true]]}", Mask::Custom(vec![vec![true]])),
    ] {
        let text = SMALL.replace("}]}", &format!("}}], \"mask\": {mask}}}"));
        assert_eq!(Scenario::from_json(&text).unwrap().mask, want, "{mask}");
    }
    let text = SMALL.replace("}]}", "}], \"w_o\": [[0.5]], \"scale\": false, \"positional\": \"sinusoidal\", \"tokens\": [\"é\"]}");
    let s = Scenario::from_json(&text).unwrap();
    assert_eq!(s.w_o, Some(Matrix::from_element(1, 1, 0.5)));
    assert_eq!(
        (s.scale, s.positional, s.tokens),
        (false, Positional::Sinusoidal, vec!["é".to_string()])
    );
}

#[test]
fn onehot_is_read_written_and_read_back() {
    let s = Scenario::from_json(ONE_HOT).unwrap();
    assert_eq!(s.positional, Positional::OneHot);
    assert_eq!((s.d_model(), s.d_in()), (2, 4));
    let text = s.to_json();
    assert!(text.contains("\"positional\": \"onehot\""), "{text}");
    assert_eq!(Scenario::from_json(&text).unwrap(), s);
    let compact = s.to_json_compact();
    assert!(compact.contains("\"positional\":\"onehot\""), "{compact}");
    assert_eq!(Scenario::from_json(&compact).unwrap(), s);
    // Re-exporting what was read gives the same bytes.
    assert_eq!(Scenario::from_json(&text).unwrap().to_json(), text);
}

#[test]
fn onehot_files_need_d_model_plus_n_rows_and_old_files_are_unchanged() {
    let short = ONE_HOT.replace("[[1], [0], [0.5], [-1]]", "[[1], [0], [0.5]]");
    let e = Scenario::from_json(&short).unwrap_err();
    assert_eq!(e.field, "heads[0].w_q");
    assert_eq!(
        e.reason,
        Reason::OneHotRows {
            d_model: 2,
            n: 2,
            cols: 1,
            got: (3, 1)
        }
    );
    // The same file without positions needs 2 rows.
    let none = ONE_HOT.replace("\"onehot\"", "\"none\"");
    assert_eq!(
        Scenario::from_json(&none).unwrap_err().to_string(),
        "heads[0].w_q: expected 2×1, got 4×1"
    );
    let bad = ONE_HOT.replace("\"onehot\"", "\"one-hot\"");
    assert_eq!(
        Scenario::from_json(&bad).unwrap_err().to_string(),
        "positional: expected \"none\", \"sinusoidal\" or \"onehot\", got \"one-hot\""
    );
    // A file without the field, or with `none` or `sinusoidal`, is read and
    // written back with that value.
    let old = ONE_HOT
        .replace("[[1], [0], [0.5], [-1]]", "[[1], [0]]")
        .replace("[[0], [1], [2], [0]]", "[[0], [1]]")
        .replace("[[1], [1], [0], [10]]", "[[1], [1]]");
    for (field, written) in [
        ("\"positional\": \"none\"", "none"),
        ("\"positional\": \"sinusoidal\"", "sinusoidal"),
    ] {
        let text = old.replace("\"positional\": \"onehot\"", field);
        let s = Scenario::from_json(&text).unwrap();
        let out = s.to_json();
        assert!(out.contains(&format!("\"positional\": \"{written}\"")));
        assert_eq!(Scenario::from_json(&out).unwrap().to_json(), out);
    }
}

/// The reader on scenario texts cut, joined and changed at random: it never
/// panics, a refusal names its field (or, for text that is not JSON, its
/// line and column; a document that is not an object is refused whole),
/// and what it accepts writes and reads back to the same bytes.
#[cfg(not(target_arch = "wasm32"))]
mod hostile_texts {
    use super::*;
    use proptest::prelude::*;

    const STACKED: &str = r#"{"format": "attention-lab/1", "tokens": ["a", "b"],
  "x": [[1, 0.5], [-2, 3e-3]],
  "heads": [{"w_q": [[1], [2]], "w_k": [[1], [2]], "w_v": [[1, 0], [1, 1]]}],
  "w_o": [[1, 0], [0, 1]], "residual": true, "scale": true,
  "mask": {"custom": [[true, false], [true, true]]}, "positional": "sinusoidal",
  "stack": [{"heads": [{"w_q": [[1], [0]], "w_k": [[0], [1]], "w_v": [[2, 1], [0, 1]]}], "w_o": null, "residual": false}]
}"#;

    const PIECES: &[&str] = &[
        "",
        "\"",
        "\\",
        ",",
        "]",
        "}",
        "[",
        "{",
        ":",
        "-",
        "0",
        "1e400",
        " ",
        "\u{1}",
        "\\u",
        "\\ud800",
        "\\udc00",
        "null",
        "true",
        "\"x\": [[1]], ",
        "\"colour\": 1, ",
        "\"w_q\": [[1], [2]], ",
        "\"format\": \"attention-lab/1\", ",
        "\"mask\": {\"padding\": 1}, ",
        "\"mask\": {\"window\": -1}, ",
        "\"mask\": \"causal\", ",
        "\"tokens\": null, ",
        "\"stack\": [], ",
        "\"stack\": [{}], ",
        "[[1, 2], [3]]",
        "{\"a\": [[[[1]]]]}",
        "é",
        "😀",
        "\"heads\": [], ",
        "\"residual\": 1, ",
        "\"w q\": 2, ",
    ];

    fn changed(base: &str, edits: &[(usize, usize, usize)]) -> String {
        let mut text = base.to_owned();
        for &(at, drop, piece) in edits {
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + drop).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            text.replace_range(at..end, PIECES[piece % PIECES.len()]);
        }
        text
    }

    fn sound(text: &str) -> Result<(), TestCaseError> {
        match Scenario::from_json(text) {
            Ok(s) => {
                let out = s.to_json();
                let back = Scenario::from_json(&out);
                prop_assert_eq!(back.map(|b| b.to_json()), Ok(out), "{:?}", text);
            }
            Err(e) => {
                prop_assert!(
                    e.is_placed(),
                    "refusal names no field: {:?} for {:?}",
                    e,
                    text
                );
                if let Reason::Json { line, column, .. } = e.reason {
                    prop_assert!(line >= 1 && column >= 1, "{:?}", text);
                    prop_assert!(line <= text.lines().count().max(1), "{:?}", text);
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn changed_texts_are_read_or_refused_by_name(
            base in prop::sample::select(vec![ONE_HOT, SMALL, STACKED]),
            edits in prop::collection::vec((any::<usize>(), 0usize..6, any::<usize>()), 0..4),
        ) {
            sound(&changed(base, &edits))?;
        }
    }

    #[test]
    fn a_stacked_layer_without_heads_is_refused_by_name() {
        let text = STACKED.replace("\"stack\": [{\"heads\"", "\"stack\": [{}, {\"heads\"");
        assert_eq!(
            refusal(&text),
            ("stack[0].heads".into(), Reason::MissingField("heads"))
        );
    }

    #[test]
    fn an_unknown_field_of_a_stacked_layer_lists_a_layers_fields() {
        let text = STACKED.replace("\"w_o\": null,", "\"w_x\": null,");
        assert_eq!(
            refusal(&text),
            (
                "stack[0].w_x".into(),
                Reason::UnknownField {
                    name: "w_x".into(),
                    known: &["heads", "w_o", "residual"]
                }
            )
        );
    }

    #[test]
    fn the_tests_texts_are_read_or_refused_by_name() {
        for text in [
            ONE_HOT,
            SMALL,
            STACKED,
            "",
            "[]",
            "{}",
            "1e400",
            "[1e400]",
            "\"\\ud800\"",
        ] {
            sound(text).unwrap();
        }
    }
}
