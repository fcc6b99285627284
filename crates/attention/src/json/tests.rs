//! Tests of `json`, beside it so that the module itself reads as one job.

use super::*;
use proptest::prelude::*;

/// Reads `text` as the page's readers do: the whole text first
/// ([`check`]), then the values through serde_json (numbers are f64s;
/// nesting past serde_json's limit of 128 is [`JsonProblem::TooDeep`]).
fn read(text: &str) -> Result<Json, Fault> {
    check(text)?;
    serde_json::from_str(text).map_err(|e| de::fault(text, &e))
}

/// Structural equality with numbers compared bit for bit.
fn identical(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.to_bits() == y.to_bits(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| identical(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && identical(a, b))
        }
        _ => a == b,
    }
}

fn arb_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>()
            .prop_map(f64::from_bits)
            .prop_filter("finite", |x| x.is_finite()),
        (-1000i32..1000).prop_map(f64::from),
        prop::sample::select(vec![
            0.0,
            -0.0,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.1,
            1e16
        ]),
    ]
}

fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z_\"\\\\/\\x00-\\x1f\\x7f é😀\u{2028}\u{ffff}]{0,8}"
    ]
}

fn arb_json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        arb_f64().prop_map(Json::Number),
        arb_string().prop_map(Json::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        let key = prop_oneof![3 => "[ab]{0,2}", 1 => arb_string()];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Json::Array),
            prop::collection::vec((key, inner), 0..6).prop_map(|pairs| {
                let mut unique: Vec<(String, Json)> = Vec::new();
                for (k, v) in pairs {
                    if !unique.iter().any(|(u, _)| *u == k) {
                        unique.push((k, v));
                    }
                }
                Json::Object(unique)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Whatever is written (finite numbers, any string, any key),
    /// compact or pretty, is valid JSON that reads back identically.
    #[test]
    fn written_documents_read_back_identically(v in arb_json()) {
        for text in [v.to_compact(), v.to_pretty()] {
            let back = read(&text);
            prop_assert!(
                back.as_ref().is_ok_and(|b| identical(b, &v)),
                "{text:?} read as {back:?}"
            );
        }
    }

    #[test]
    fn every_finite_f64_reads_back_bit_for_bit(bits in any::<u64>()) {
        let x = f64::from_bits(bits);
        if x.is_finite() {
            check_round_trip(x);
        }
    }
}

// ---- numbers --------------------------------------------------------

fn check_round_trip(x: f64) {
    let v = Json::Number(x);
    let expected = if x.fract() == 0.0 && x.abs() < 1e15 && !(x == 0.0 && x.is_sign_negative()) {
        format!("{}", x as i64)
    } else {
        format!("{x:?}")
    };
    assert_eq!(v.to_compact(), expected);
    let doc = object(vec![
        ("a", Json::Array(vec![v.clone(), v.clone()])),
        ("b", v),
    ]);
    for text in [doc.to_compact(), doc.to_pretty()] {
        let back = read(&text).unwrap();
        assert!(identical(&back, &doc), "{x:?} via {text}");
    }
}

#[test]
fn special_f64s_read_back_bit_for_bit() {
    for x in [
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        f64::from_bits(0x000f_ffff_ffff_ffff), // 2.2250738585072009e-308
        1.7976931348623157e308,
        -1.7976931348623157e308,
        0.0,
        -0.0,
        0.1,
        1.0 / 3.0,
        0.09144338512092887,
        117.63331139400017,
        -1.0393393915616521e-54,
        1e16,
        1e-7,
        9_007_199_254_740_993.0,
        std::f64::consts::PI,
    ] {
        check_round_trip(x);
    }
}

/// serde_json is built with `float_roundtrip`: every literal is rounded
/// correctly, as `str::parse` does (its default parser is off by an ulp
/// on some, serde-rs/json#536, #707).
#[test]
fn numbers_are_read_exactly() {
    let num = |t: &str| match read(t).unwrap() {
        Json::Number(x) => x,
        other => panic!("{other:?}"),
    };
    for t in [
        "-1.0393393915616521e-54",
        "0.09144338512092887",
        "117.63331139400017",
        "1.5777777777770001",
        "123456789012345678901234567890",
        "9007199254740993",
        "9007199254740993.000000000000000000000001",
        "-9007199254740993",
        "1e-00000000000000000000000000001",
        "2.5E-3",
        "1e-999",
    ] {
        assert_eq!(num(t).to_bits(), t.parse::<f64>().unwrap().to_bits(), "{t}");
    }
    let long = format!("0.{}1", "0".repeat(2000));
    assert_eq!(num(&long), long.parse::<f64>().unwrap());
    assert_eq!(num("-0").to_bits(), (-0.0f64).to_bits());
    assert_eq!(num("-1e-999").to_bits(), (-0.0f64).to_bits());
    // Beyond f64 is an error (the scenario reader names the field).
    assert!(read("1e999").is_err());
    assert!(read("[-1e400]").is_err());
}

#[test]
fn writer_output_is_exact() {
    let n = |x: f64| Json::Number(x).to_compact();
    assert_eq!(n(1.0), "1");
    assert_eq!(n(-3.0), "-3");
    assert_eq!(n(0.0), "0");
    assert_eq!(n(999_999_999_999_999.0), "999999999999999");
    assert_eq!(n(1e15), "1000000000000000.0");
    assert_eq!(n(1e16), "1e16");
    assert_eq!(n(0.1), "0.1");
    assert_eq!(n(1e-7), "1e-7");
    assert_eq!(n(1e300), "1e300");
    assert_eq!(n(-0.0), "-0.0");
    assert_eq!(n(123456.5), "123456.5");
    assert_eq!(n(5e-324), "5e-324");
    assert_eq!(n(f64::NAN), "null");
    assert_eq!(n(f64::INFINITY), "null");
    assert_eq!(n(f64::NEG_INFINITY), "null");
    assert_eq!(Json::Null.to_compact(), "null");
    assert_eq!(Json::from(true).to_compact(), "true");
    assert_eq!(Json::from(false).to_pretty(), "false");
    assert_eq!(
        Json::from("q\"b\\s/\n\r\t\u{8}\u{c}\u{0}\u{1f}\u{7f}é😀").to_compact(),
        "\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0000\\u001f\u{7f}é😀\""
    );
    let doc = object(vec![
        ("a", Json::from(vec![1.0.into(), Json::Null, "x".into()])),
        ("", Json::Object(vec![])),
        ("e", Json::Array(vec![])),
    ]);
    assert_eq!(doc.to_compact(), "{\"a\":[1,null,\"x\"],\"\":{},\"e\":[]}");
    assert_eq!(
        doc.to_pretty(),
        "{\n  \"a\": [\n    1,\n    null,\n    \"x\"\n  ],\n  \"\": {},\n  \"e\": []\n}"
    );
    assert_eq!(Json::Array(vec![]).to_pretty(), "[]");
    assert_eq!(Json::Object(vec![]).to_pretty(), "{}");
    assert_eq!(
        Json::from(vec![true.into(), Json::Null, 2.5.into()]).to_pretty(),
        "[true, null, 2.5]"
    );
    assert_eq!(
        Json::from(vec![Json::Array(vec![]), Json::Array(vec![])]).to_pretty(),
        "[\n  [],\n  []\n]"
    );
    assert_eq!(Json::from(String::from("s")), Json::String("s".into()));
    assert_eq!(
        matrix_rows(vec![vec![1.0, 2.0], vec![]].into_iter().map(Vec::into_iter)).to_compact(),
        "[[1,2],[]]"
    );
    assert_eq!(
        matrix_rows(std::iter::empty::<std::iter::Empty<f64>>()).to_compact(),
        "[]"
    );
}

#[test]
fn pretty_layout_of_a_scenario_like_document() {
    let doc = object(vec![
        ("format", "attention-lab/1".into()),
        (
            "x",
            matrix_rows([[1.0, 0.0], [0.5, 2.0]].iter().map(|r| r.iter().copied())),
        ),
        (
            "heads",
            Json::from(vec![object(vec![(
                "w_q",
                matrix_rows([[1.0]].iter().map(|r| r.iter().copied())),
            )])]),
        ),
    ]);
    let expected = r#"{
  "format": "attention-lab/1",
  "x": [
    [1, 0],
    [0.5, 2]
  ],
  "heads": [
    {
      "w_q": [
        [1]
      ]
    }
  ]
}"#;
    assert_eq!(doc.to_pretty(), expected);
    assert_eq!(
        doc.to_compact(),
        r#"{"format":"attention-lab/1","x":[[1,0],[0.5,2]],"heads":[{"w_q":[[1]]}]}"#
    );
    assert_eq!(read(expected).unwrap(), doc);
}

#[test]
fn values_keep_their_order_and_kinds() {
    let v = read(r#"{"z": 1, "a": [true, false], "m": {"": "e"}, "n": null, "s": "\ud83d\ude00"}"#)
        .unwrap();
    assert_eq!(
        v,
        object(vec![
            ("z", 1.0.into()),
            ("a", Json::from(vec![true.into(), false.into()])),
            ("m", object(vec![("", "e".into())])),
            ("n", Json::Null),
            ("s", "😀".into()),
        ])
    );
    assert_eq!(v.as_object().map(<[_]>::len), Some(5));
    assert_eq!(Json::Null.as_f64(), None);
    assert_eq!(Json::Null.as_bool(), None);
    assert_eq!(Json::Null.as_str(), None);
    assert_eq!(Json::Null.as_array(), None);
    assert_eq!(Json::Null.as_object(), None);
}

/// Every syntax error has its own words (no English message reaches the
/// Chinese page). A trailing comma is a value missing (the first pass,
/// which reads the whole text before any value, says so).
#[test]
fn syntax_errors_are_problems() {
    let problem = |t: &str| read(t).unwrap_err().problem;
    for (text, want) in [
        ("", JsonProblem::Eof),
        ("[1, 2", JsonProblem::Eof),
        ("\"abc", JsonProblem::Eof),
        ("[1, 2,]", JsonProblem::ExpectedValue),
        ("{\"a\": 1,}", JsonProblem::ExpectedKey),
        ("1 2", JsonProblem::Trailing),
        ("[1 2]", JsonProblem::ExpectedCommaOr(']')),
        ("{\"a\": 1 \"b\": 2}", JsonProblem::ExpectedCommaOr('}')),
        ("{\"a\" 1}", JsonProblem::ExpectedColon),
        ("{a: 1}", JsonProblem::ExpectedKey),
        ("{1: 1}", JsonProblem::ExpectedKey),
        ("[x]", JsonProblem::ExpectedValue),
        ("[tru]", JsonProblem::ExpectedValue),
        ("[NaN]", JsonProblem::ExpectedValue),
        ("+1", JsonProblem::ExpectedValue),
        ("\"a\u{1}\"", JsonProblem::ControlCharacter),
        ("\"\\ud800\"", JsonProblem::LoneSurrogate),
        ("\"\\udc00\"", JsonProblem::LoneSurrogate),
        ("\"\\ud800\\u0041\"", JsonProblem::LoneSurrogate),
        ("\"a\\x\"", JsonProblem::InvalidEscape),
        ("\"a\\u12g4\"", JsonProblem::InvalidEscape),
        ("[01]", JsonProblem::InvalidNumber),
        ("[1.]", JsonProblem::InvalidNumber),
        ("[-]", JsonProblem::InvalidNumber),
        ("[1e+]", JsonProblem::InvalidNumber),
        ("1e999", JsonProblem::InvalidNumber),
        (&"[".repeat(200), JsonProblem::Eof),
    ] {
        assert_eq!(problem(text), want, "{text:?}");
    }
    // As serde_json's recursion limit: 127 levels are fine, 128 are not
    // (a scenario needs 4), and a million never overflow the stack.
    let ok = format!("{}{}", "[".repeat(127), "]".repeat(127));
    assert_eq!(read(&ok).unwrap().to_compact(), ok);
    let over = format!("{}{}", "[".repeat(128), "]".repeat(128));
    assert_eq!(problem(&over), JsonProblem::TooDeep);
    let over = format!("{}1{}", "{\"a\":".repeat(1_000_000), "}".repeat(1_000_000));
    assert_eq!(problem(&over), JsonProblem::TooDeep);
    // Cut short, it is cut short, however deep.
    assert_eq!(problem(&"{\"a\":".repeat(1_000_000)), JsonProblem::Eof);
}

/// Where a problem is: line and column in characters, as the page has
/// always said them.
#[test]
fn problems_say_line_and_column() {
    let at = |t: &str| {
        let f = read(t).unwrap_err();
        (f.line, f.column)
    };
    assert_eq!(at(""), (1, 1));
    assert_eq!(at("[1 2]"), (1, 4));
    assert_eq!(at("[1,\n  x]"), (2, 3));
    assert_eq!(at("[\"é\u{1}\"]"), (1, 4));
    assert_eq!(at("[\"ab"), (1, 4));
    assert_eq!(at("{\r\n\"a\" 1}"), (2, 5));
}

/// Whole numbers (a model's seed) are written digit for digit, beyond
/// 2⁵³ too, and serde reads them back exactly as `u64`.
#[test]
fn whole_numbers_are_written_exactly() {
    for n in [0, 3, 9_007_199_254_740_993, u64::MAX] {
        let text = object(vec![("seed", Json::Whole(n))]).to_compact();
        assert_eq!(text, format!("{{\"seed\":{n}}}"));
        let back: std::collections::BTreeMap<String, u64> = serde_json::from_str(&text).unwrap();
        assert_eq!(back["seed"], n);
    }
    // Read as a value, every number is an f64.
    assert_eq!(read("[0]").unwrap(), Json::Array(vec![Json::Number(0.0)]));
}

/// The page's one decimal reader against the standard library's, bit for
/// bit: every finite f64 written any way, hard cases, and what both refuse.
#[test]
fn decimals_read_as_str_parse_reads_them() {
    let same = |t: &str| {
        let ours = decimal(t).map(f64::to_bits);
        let std = t.parse::<f64>().ok().filter(|_| {
            // inf and nan are words, not decimals.
            !t.trim_start_matches(['+', '-'])
                .starts_with(|c: char| c.is_ascii_alphabetic())
        });
        assert_eq!(ours, std.map(f64::to_bits), "{t:?}");
    };
    for t in [
        "0", "-0", "+0", "007", "1.", ".5", "-.5", "+1e5", "1E-5", "1e+05", "00.0100",
        "1e400", "-1e400", "1e-400", "2.2250738585072011e-308", "4.9406564584124654e-324",
        "2.47032822920623272e-324", "9007199254740993", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
        "", ".", "-", "+", "e5", "1e", "1e+", "1.2.3", "1,5", "0x10", "inf", "-inf", "NaN", "infinity",
        " 1", "1 ", "--1", "1e5.5", "١",
    ] {
        same(t);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn every_written_f64_reads_as_str_parse_reads_it(bits in any::<u64>(), exp in -30i32..30) {
        let x = f64::from_bits(bits);
        if x.is_finite() {
            for t in [format!("{x:?}"), format!("{x:e}"), format!("{:.3e}", x), format!("{}e{exp}", x.abs())] {
                prop_assert_eq!(decimal(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{}", t);
            }
        }
    }

    #[test]
    fn digit_strings_read_as_str_parse_reads_them(t in "[+-]?[0-9]{0,25}(\\.[0-9]{0,25})?([eE][+-]?[0-9]{1,3})?") {
        prop_assert_eq!(decimal(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{}", t);
    }
}

#[test]
fn extreme_exponents_read_as_str_parse_reads_them() {
    for t in [
        "0e99999999999999999999",
        "0.0e999",
        "1e99999999999999999999",
        "1e-99999999999999999999",
        "-0e-99999999999999999999",
        "0.000000000000000000000000000001e330",
    ] {
        assert_eq!(
            decimal(t).map(f64::to_bits),
            t.parse::<f64>().ok().map(f64::to_bits),
            "{t}"
        );
    }
}
