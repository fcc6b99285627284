//! Tests of `parse`, beside it so that the module itself reads as one job.

use super::*;

fn ok(text: &str) -> f64 {
    parse_number(text).unwrap_or_else(|e| panic!("{text:?} refused: {e:?}"))
}

fn m(text: &str) -> Vec<Vec<f64>> {
    parse_matrix(text).unwrap_or_else(|e| panic!("{text:?} refused: {e:?}"))
}

fn bad(row: usize, col: usize, text: &str, why: NumberError) -> PasteError {
    PasteError::BadNumber {
        row,
        col,
        text: text.into(),
        why,
    }
}

const M22: [[f64; 2]; 2] = [[1.0, 2.0], [3.0, 4.0]];

// ---- parse_number: accepted forms ----

#[test]
fn plain_decimals() {
    assert_eq!(ok("1"), 1.0);
    assert_eq!(ok("-2.5"), -2.5);
    assert_eq!(ok("+3"), 3.0);
    assert_eq!(ok(".5"), 0.5);
    assert_eq!(ok("5."), 5.0);
    assert_eq!(ok("-.5"), -0.5);
    assert_eq!(ok("0"), 0.0);
    assert_eq!(ok("007"), 7.0);
    assert_eq!(ok("0.1"), 0.1);
    let neg_zero = ok("-0");
    assert_eq!(neg_zero, 0.0);
    assert!(neg_zero.is_sign_negative());
}

#[test]
fn scientific_notation() {
    assert_eq!(ok("1e-3"), 1e-3);
    assert_eq!(ok("2.0000e+00"), 2.0);
    assert_eq!(ok("1E5"), 1e5);
    assert_eq!(ok("-1.5e2"), -150.0);
    assert_eq!(ok(".5e1"), 5.0);
    assert_eq!(ok("5.e1"), 50.0);
    assert_eq!(ok("1e-300"), 1e-300);
    // Too small for f64: rounds to zero, which is finite.
    assert_eq!(ok("1e-999"), 0.0);
}

#[test]
fn surrounding_whitespace_is_ignored() {
    assert_eq!(ok("  1.5\t"), 1.5);
    assert_eq!(ok("\n-2\r\n"), -2.0);
    // Ideographic space (U+3000) and no-break space.
    assert_eq!(ok("\u{3000}3\u{a0}"), 3.0);
}

#[test]
fn unicode_minus() {
    assert_eq!(ok("\u{2212}2.5"), -2.5);
    assert_eq!(ok("1e\u{2212}3"), 1e-3);
}

#[test]
fn full_width_forms_from_chinese_input_methods() {
    assert_eq!(ok("１．５"), 1.5);
    assert_eq!(ok("－２"), -2.0);
    assert_eq!(ok("．５"), 0.5);
    assert_eq!(ok("＋３"), 3.0);
    assert_eq!(ok("１ｅ３"), 1000.0);
    assert_eq!(ok("２Ｅ－１"), 0.2);
    assert_eq!(ok("０１２３４５６７８９"), 123_456_789.0);
    // Mixed widths are fine too.
    assert_eq!(ok("1．5"), 1.5);
}

#[test]
fn shortest_round_trip_text_reads_back_exactly() {
    for v in [0.1, 1.0 / 3.0, 1e-300, 5e-324, f64::MAX, -f64::MIN_POSITIVE] {
        assert_eq!(ok(&format!("{v}")), v);
        assert_eq!(ok(&format!("{v:?}")), v);
        assert_eq!(ok(&format!("{v:e}")), v);
    }
}

// ---- parse_number: refusals ----

#[test]
fn empty_text() {
    assert_eq!(parse_number(""), Err(NumberError::Empty));
    assert_eq!(parse_number("   "), Err(NumberError::Empty));
    assert_eq!(parse_number("\t\n"), Err(NumberError::Empty));
}

#[test]
fn not_numbers() {
    for t in [
        "abc",
        "1,5",
        "1..2",
        "0x10",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "infinity",
        "Infinity",
        "+",
        "-",
        ".",
        "e5",
        "1e",
        "1e+",
        "--1",
        "+-1",
        "1-",
        "1 2",
        "1.2.3",
        "1_000",
        "½",
        "١",
        "1e5.5",
        "0b1",
        "1f",
        "1.5x",
        "− 2",
        "１，５",
        "∞",
    ] {
        assert_eq!(parse_number(t), Err(NumberError::NotANumber), "{t:?}");
    }
}

#[test]
fn overflow_is_not_finite() {
    for t in ["1e999", "-1e400", "1.8e308", "１ｅ９９９"] {
        assert_eq!(parse_number(t), Err(NumberError::NotFinite), "{t:?}");
    }
    // The largest f64 itself is fine.
    assert_eq!(ok("1.7976931348623157e308"), f64::MAX);
}

// ---- parse_matrix: accepted forms ----

#[test]
fn csv() {
    assert_eq!(m("1,2\n3,4"), M22);
    assert_eq!(m("1, 2\r\n3, 4\r\n"), M22);
    // Trailing comma at line end, as some exporters write.
    assert_eq!(m("1,2,\n3,4,"), M22);
    // A quoting exporter.
    assert_eq!(m("\"1\",\"2\"\n\"3\",\"4\""), M22);
}

#[test]
fn tsv_from_a_spreadsheet() {
    assert_eq!(m("1\t2\n3\t4"), M22);
    // Spreadsheets end the copy with a newline, sometimes with a tab.
    assert_eq!(m("1\t2\t\r\n3\t4\t\r\n"), M22);
    assert_eq!(m(" 1.5 \t -2 \n 3 \t 4 "), [[1.5, -2.0], [3.0, 4.0]]);
}

#[test]
fn whitespace_rows() {
    assert_eq!(m("1 2\n3 4"), M22);
    assert_eq!(m("  1   2  \n\n\n   3\t 4  \n"), [[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(m("7"), [[7.0]]);
    // One column.
    assert_eq!(m("1\n2\n3"), [[1.0], [2.0], [3.0]]);
}

#[test]
fn byte_order_mark() {
    assert_eq!(m("\u{FEFF}1,2\n3,4"), M22);
}

#[test]
fn blank_lines_and_surrounding_whitespace() {
    assert_eq!(m("\n\n  1 2\n\n   \n3 4\n\n"), M22);
    assert_eq!(m("\n[[1, 2],\n\n [3, 4]]\n\n"), M22);
}

#[test]
fn semicolon_rows_matlab_style() {
    assert_eq!(m("1 2; 3 4"), M22);
    assert_eq!(m("1, 2; 3, 4;"), M22);
    assert_eq!(m("[1 2; 3 4]"), M22);
    assert_eq!(m("[1, 2; 3, 4;]"), M22);
    assert_eq!(m("A = [1 2; 3 4];"), M22);
}

#[test]
fn json_arrays() {
    assert_eq!(m("[[1, 2], [3, 4]]"), M22);
    assert_eq!(m("[[1,2],[3,4]]"), M22);
    assert_eq!(m("[[1.5e0, -2], [3, 4e-1]]"), [[1.5, -2.0], [3.0, 0.4]]);
    // Python's trailing commas.
    assert_eq!(m("[[1, 2,], [3, 4,],]"), M22);
    // Rows on separate lines, each bracketed.
    assert_eq!(m("[1, 2]\n[3, 4]"), M22);
    assert_eq!(m("[1, 2],\n[3, 4]"), M22);
}

#[test]
fn a_single_bracketed_row_is_one_by_n() {
    assert_eq!(m("[1, 2, 3]"), [[1.0, 2.0, 3.0]]);
    assert_eq!(m("[[1, 2, 3]]"), [[1.0, 2.0, 3.0]]);
    assert_eq!(m("[5]"), [[5.0]]);
}

#[test]
fn numpy_repr() {
    assert_eq!(m("array([[1., 2.],\n       [3., 4.]])"), M22);
    assert_eq!(m("array([[1., 2.],\n       [3., 4.]], dtype=float32)"), M22);
    assert_eq!(m("np.array([[1, 2], [3, 4]])"), M22);
    assert_eq!(m("x = np.array([[1, 2], [3, 4]])"), M22);
    assert_eq!(m("array([1., 2., 3.])"), [[1.0, 2.0, 3.0]]);
    assert_eq!(
            m("array([[ 1.00000000e+00, -2.50000000e-01],\n       [ 3.00000000e+00,  4.00000000e+00]])"),
            [[1.0, -0.25], [3.0, 4.0]]
        );
    // NumPy 2 prints list elements as scalars.
    assert_eq!(m("[np.float64(1.0), np.float64(2.0)]"), [[1.0, 2.0]]);
}

#[test]
fn numpy_print() {
    assert_eq!(m("[[1. 2.]\n [3. 4.]]"), M22);
    assert_eq!(m("[[ 1.  -2. ]\n [ 3.   4.5]]"), [[1.0, -2.0], [3.0, 4.5]]);
}

#[test]
fn pytorch_repr() {
    assert_eq!(
        m("tensor([[1.0000, 2.0000], [3.0000, 4.0000]], dtype=torch.float64)"),
        M22
    );
    assert_eq!(
        m("tensor([[1.0000, 2.0000],\n        [3.0000, 4.0000]], requires_grad=True)"),
        M22
    );
    assert_eq!(m("torch.tensor([[1., 2.], [3., 4.]])"), M22);
    assert_eq!(
        m("tensor([[1., 2.],\n        [3., 4.]], device='cuda:0', grad_fn=<MmBackward0>)"),
        M22
    );
    // A batch of one: leading dimensions of size one are squeezed.
    assert_eq!(m("tensor([[[1., 2.],\n         [3., 4.]]])"), M22);
}

#[test]
fn numbers_inside_go_through_parse_number() {
    assert_eq!(m("１．５，－２\n３，４"), [[1.5, -2.0], [3.0, 4.0]]);
    assert_eq!(m("［［1，2］，［3，4］］"), M22);
    assert_eq!(m("1；2"), [[1.0], [2.0]]);
    assert_eq!(m("\u{2212}1 .5\n5. +3"), [[-1.0, 0.5], [5.0, 3.0]]);
}

// ---- parse_matrix: refusals ----

#[test]
fn empty_paste() {
    for t in [
        "",
        "   ",
        "\n\n\t\n",
        ";;",
        "[]",
        "[[]]",
        "[ ]",
        "array([])",
    ] {
        assert_eq!(parse_matrix(t), Err(PasteError::Empty), "{t:?}");
    }
}

#[test]
fn ragged_rows_say_which_and_how_long() {
    let ragged = |row, len, expected| PasteError::Ragged { row, len, expected };
    assert_eq!(parse_matrix("1 2\n3"), Err(ragged(1, 1, 2)));
    assert_eq!(parse_matrix("1 2\n3 4\n5 6 7"), Err(ragged(2, 3, 2)));
    // Blank lines do not count as rows.
    assert_eq!(parse_matrix("1 2\n\n3 4 5"), Err(ragged(1, 3, 2)));
    assert_eq!(parse_matrix("[[1, 2], [3]]"), Err(ragged(1, 1, 2)));
    assert_eq!(parse_matrix("[[1, 2], []]"), Err(ragged(1, 0, 2)));
    assert_eq!(parse_matrix("1,2;3,4,5"), Err(ragged(1, 3, 2)));
    assert_eq!(parse_matrix("[[1, 2], 3]"), Err(ragged(1, 1, 2)));
}

#[test]
fn bad_cells_say_where_and_what() {
    use NumberError::*;
    assert_eq!(
        parse_matrix("1 2\n3 abc"),
        Err(bad(1, 1, "abc", NotANumber))
    );
    assert_eq!(parse_matrix("1,,2"), Err(bad(0, 1, "", Empty)));
    assert_eq!(parse_matrix(",1"), Err(bad(0, 0, "", Empty)));
    assert_eq!(parse_matrix("1\t\t2"), Err(bad(0, 1, "", Empty)));
    assert_eq!(parse_matrix("1 1e999"), Err(bad(0, 1, "1e999", NotFinite)));
    assert_eq!(
        parse_matrix("[[1, nan], [3, 4]]"),
        Err(bad(0, 1, "nan", NotANumber))
    );
    assert_eq!(
        parse_matrix("[[1, 2], [inf, 4]]"),
        Err(bad(1, 0, "inf", NotANumber))
    );
    assert_eq!(parse_matrix("[1, , 2]"), Err(bad(0, 1, "", Empty)));
    assert_eq!(parse_matrix("[,1]"), Err(bad(0, 0, "", Empty)));
    assert_eq!(parse_matrix("1 0x10"), Err(bad(0, 1, "0x10", NotANumber)));
    // A header line is not numbers.
    assert_eq!(parse_matrix("a,b\n1,2"), Err(bad(0, 0, "a", NotANumber)));
    // A bad number is reported even when the row is also too short.
    assert_eq!(parse_matrix("1 2\nx"), Err(bad(1, 0, "x", NotANumber)));
    // Summarised NumPy output cannot be read back.
    assert_eq!(
        parse_matrix("array([1., 2., ..., 9.])"),
        Err(bad(0, 2, "...", NotANumber))
    );
    // Three levels deep: the inner list is not a number.
    assert_eq!(
        parse_matrix("[[[1, 2]], [[3, 4]]]"),
        Err(bad(0, 0, "[1, 2]", NotANumber))
    );
    // Garbage around an array.
    assert_eq!(
        parse_matrix("hello [1, 2]"),
        Err(bad(0, 0, "hello", NotANumber))
    );
}

#[test]
fn unbalanced_brackets_are_cells_holding_the_bracket() {
    use NumberError::NotANumber;
    assert_eq!(parse_matrix("[1, 2"), Err(bad(0, 2, "[", NotANumber)));
    assert_eq!(
        parse_matrix("[[1, 2], [3, 4]"),
        Err(bad(2, 0, "[", NotANumber))
    );
    assert_eq!(parse_matrix("[1, 2]]"), Err(bad(1, 0, "]", NotANumber)));
    // Outside brackets each bare number is a row of one.
    assert_eq!(parse_matrix("1, 2]"), Err(bad(2, 0, "]", NotANumber)));
    assert!(parse_matrix("array([[1, 2], [3, 4]").is_err());
}

#[test]
fn never_panics_on_odd_text() {
    let odd = [
        "[",
        "]",
        "[[",
        "]]",
        "][",
        "[]]",
        "[[]",
        "[[[[[[[[[[",
        "]]]]]]]]",
        "[[1]",
        "[1]]",
        "(",
        ")",
        "()",
        "array(",
        "array()",
        "array([",
        "tensor(]",
        "np.array)",
        "x =",
        "x = ",
        "=",
        "==",
        "x == [1]",
        ",",
        ",,,",
        ";",
        "\t",
        "\t\t\n\t",
        "\r",
        "\r\n\r\n",
        "'",
        "\"",
        "''",
        "\"\"",
        "'1",
        "1'",
        "(1)",
        "f(1",
        "f(1))",
        "..",
        "...",
        "-",
        "\u{2212}",
        "１",
        "［",
        "］",
        "，",
        "；",
        "é",
        "😀",
        "😀[1]",
        "[😀]",
        "1😀",
        "\u{0}",
        "\u{feff}1",
        "\u{200b}",
        "1\u{0}2",
        "中文",
        "[中文, 1]",
        "[1,\u{3000}2]",
        "array([[1,2]], dtype=",
        "tensor([[1.]], requires_grad=True",
        "a = b = [1]",
        "[1 2; ; 3 4]",
        "[;]",
        "[,]",
        "[;,;]",
        "[[1];[2]]",
        "1;;;2",
        "e",
        "E",
        "ｅ",
    ];
    for t in odd {
        let _ = parse_matrix(t);
        let _ = parse_number(t);
    }
    // Deep nesting is refused quickly, without overflowing the stack.
    let deep = "[".repeat(100_000) + &"]".repeat(99_999);
    assert!(parse_matrix(&deep).is_err());
    let deep_closed = "[".repeat(50_000) + "1" + &"]".repeat(50_000);
    assert!(parse_matrix(&deep_closed).is_err());
    // A few singleton dimensions are squeezed.
    let nested = "[".repeat(20) + "1" + &"]".repeat(20);
    assert_eq!(parse_matrix(&nested), Ok(vec![vec![1.0]]));
    // Random text over an alphabet of the characters that matter.
    let alphabet: Vec<char> = "[](),;=.eE+-−0123456789 \t\n\r'\"ab_xy１．－ｅ，［］😀é"
        .chars()
        .collect();
    let mut rng = crate::random::Rng::new(2024);
    for _ in 0..20_000 {
        let len = (rng.next_u64() % 24) as usize;
        let t: String = (0..len)
            .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
            .collect();
        if let Ok(rows) = parse_matrix(&t) {
            assert!(!rows.is_empty() && !rows[0].is_empty(), "{t:?}");
            assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{t:?}");
            assert!(rows.iter().flatten().all(|v| v.is_finite()), "{t:?}");
        }
        if let Ok(v) = parse_number(&t) {
            assert!(v.is_finite(), "{t:?}");
        }
    }
}

#[test]
fn rust_display_of_a_matrix_reads_back_exactly() {
    let rows = vec![vec![0.1, -0.0, 1e-300], vec![1.0 / 3.0, 2.5e20, -7.0]];
    let csv: String = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| format!("{v}"))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(m(&csv), rows);
    let json = attention::json::matrix_rows(rows.iter().map(|r| r.iter().copied())).to_compact();
    assert_eq!(m(&json), rows);
}
