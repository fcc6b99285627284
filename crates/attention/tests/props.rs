#![cfg(not(target_arch = "wasm32"))]
//! Properties of the attention engine over random shapes and values
//! (docs/format.md §1, §2). The oracles here (which keys a mask allows, how a
//! permutation moves rows, which field a bad number lives in) are written
//! from the contract, independently of the engine's code.

use attention::{
    compute, matmul, matmul_t, softmax_masked, softmax_rows, HeadWeights, Mask, Matrix, Positional,
    Results, Scenario, Trace, FORMAT,
};
use nalgebra::DMatrix;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};

mod common;
use common::{config, same_bits};

// ---------------------------------------------------------------------------
// strategies

/// Finite numbers: mostly moderate, sometimes exactly 0, sometimes tiny or
/// huge. Huge stops at 1e60 so that no valid intermediate can overflow with
/// these shapes: |q|, |k|, |v| ≤ 8·1e60·1e60 = 8e120, |scores| ≤ 6·(8e120)² ≈ 4e242,
/// |output| ≤ 24·8e120·1e60. (Beyond that the engine refuses the scenario as
/// too large: see `overflowing_products_are_refused_naming_the_head`.)
fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => -10.0..10.0f64,
        1 => Just(0.0),
        1 => (any::<bool>(), -300i32..=60).prop_map(|(neg, e)| {
            let v = 10f64.powi(e);
            if neg { -v } else { v }
        }),
        1 => -1e60..1e60f64,
    ]
}

fn matrix(rows: usize, cols: usize) -> impl Strategy<Value = Matrix> {
    vec(value(), rows * cols).prop_map(move |v| Matrix::from_row_slice(rows, cols, &v))
}

#[derive(Clone, Debug)]
struct Dims {
    n: usize,
    d_model: usize,
    d_k: usize,
    d_v: usize,
    h: usize,
    d_out: Option<usize>,
}

fn dims() -> impl Strategy<Value = Dims> {
    (
        1..=12usize,
        1..=8usize,
        1..=6usize,
        1..=6usize,
        1..=4usize,
        prop::option::of(1..=6usize),
    )
        .prop_map(|(n, d_model, d_k, d_v, h, d_out)| Dims {
            n,
            d_model,
            d_k,
            d_v,
            h,
            d_out,
        })
}

/// Every mask kind, valid for `n` (custom rows are sometimes all false or all true).
fn mask(n: usize) -> BoxedStrategy<Mask> {
    let row = prop_oneof![
        3 => vec(any::<bool>(), n),
        1 => Just(vec![false; n]),
        1 => Just(vec![true; n]),
    ];
    prop_oneof![
        Just(Mask::None),
        Just(Mask::Causal),
        (0..=n).prop_map(Mask::Padding),
        prop_oneof![0..=n + 1, Just(usize::MAX)].prop_map(Mask::Window),
        vec(row, n).prop_map(Mask::Custom),
    ]
    .boxed()
}

fn positional() -> BoxedStrategy<Positional> {
    prop_oneof![
        Just(Positional::None),
        Just(Positional::Sinusoidal),
        Just(Positional::OneHot)
    ]
    .boxed()
}

/// `rows`: d_model, or d_model + n with one-hot positions.
fn heads(d: &Dims, rows: usize) -> impl Strategy<Value = Vec<HeadWeights>> {
    vec(
        (
            matrix(rows, d.d_k),
            matrix(rows, d.d_k),
            matrix(rows, d.d_v),
        )
            .prop_map(|(w_q, w_k, w_v)| HeadWeights { w_q, w_k, w_v }),
        d.h,
    )
}

fn labels(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("t{i}")).collect()
}

/// A scenario valid by docs/format.md §1, with the given mask and positional choices.
fn scenario_from(
    d: Dims,
    masks: BoxedStrategy<Mask>,
    positionals: BoxedStrategy<Positional>,
) -> impl Strategy<Value = Scenario> {
    positionals.prop_flat_map(move |positional| {
        let w_o = match d.d_out {
            Some(c) => matrix(d.h * d.d_v, c).prop_map(Some).boxed(),
            None => Just(None).boxed(),
        };
        let n = d.n;
        let rows = match positional {
            Positional::OneHot => d.d_model + n,
            Positional::None | Positional::Sinusoidal => d.d_model,
        };
        (
            matrix(d.n, d.d_model),
            heads(&d, rows),
            w_o,
            any::<bool>(),
            masks.clone(),
        )
            .prop_map(move |(x, heads, w_o, scale, mask)| Scenario {
                format: FORMAT.to_string(),
                tokens: labels(n),
                x,
                heads,
                w_o,
                scale,
                mask,
                positional,
                residual: false,
                stack: Vec::new(),
            })
    })
}

fn valid_scenario() -> impl Strategy<Value = Scenario> {
    dims().prop_flat_map(|d| {
        let n = d.n;
        scenario_from(d, mask(n), positional())
    })
}

/// No mask, no positions: attention is then blind to order.
fn unordered_scenario() -> impl Strategy<Value = Scenario> {
    dims().prop_flat_map(|d| {
        scenario_from(d, Just(Mask::None).boxed(), Just(Positional::None).boxed())
    })
}

// ---------------------------------------------------------------------------
// oracles

/// docs/format.md §1: which keys query i may see.
fn oracle_allowed(mask: &Mask, n: usize) -> Vec<Vec<bool>> {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match mask {
                    Mask::None => true,
                    Mask::Causal => j <= i,
                    Mask::Padding(l) => j < *l,
                    Mask::Window(w) => i.max(j) - i.min(j) <= *w,
                    Mask::Custom(rows) => rows[i][j],
                })
                .collect()
        })
        .collect()
}

fn run(s: &Scenario) -> Result<Trace, TestCaseError> {
    compute(s).map_err(|e| TestCaseError::fail(format!("valid scenario refused: {e}")))
}

fn same_or_both_nan(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

// ---------------------------------------------------------------------------
// properties

proptest! {
    #![proptest_config(config(256))]

    /// Each defined row of weights is a probability distribution over the
    /// allowed keys; masked weights are exactly 0; undefined rows are NaN.
    #[test]
    fn weights_are_a_distribution_over_allowed_keys(s in valid_scenario()) {
        let t = run(&s)?;
        let n = s.n();
        let allowed = oracle_allowed(&s.mask, n);
        for (r, h) in t.heads.iter().enumerate() {
            for (i, visible) in allowed.iter().enumerate() {
                let row = h.weights.row(i);
                if visible.iter().any(|&a| a) {
                    let mut sum = 0.0;
                    for (j, &seen) in visible.iter().enumerate() {
                        let w = row[j];
                        if seen {
                            prop_assert!((0.0..=1.0).contains(&w), "head {r} weights[{i}][{j}] = {w}");
                            sum += w;
                        } else {
                            prop_assert!(w == 0.0, "head {r} masked weights[{i}][{j}] = {w}");
                        }
                    }
                    prop_assert!((sum - 1.0).abs() <= 1e-12, "head {r} row {i} sums to {sum}");
                    prop_assert!(h.output.row(i).iter().all(|v| v.is_finite()),
                        "head {r} output row {i} not finite");
                } else {
                    prop_assert!(row.iter().all(|w| w.is_nan()), "head {r} undefined row {i}: {row}");
                    prop_assert!(h.output.row(i).iter().all(|v| v.is_nan()));
                }
            }
        }
        let defined_rows = (0..n).filter(|&i| allowed[i].iter().any(|&a| a));
        for i in defined_rows {
            prop_assert!(t.output.row(i).iter().all(|v| v.is_finite()), "output row {i}");
        }
    }

    /// `undefined_rows` is exactly the set of queries with no allowed key, and
    /// `allowed` is the contract's mask.
    #[test]
    fn undefined_rows_are_the_rows_without_an_allowed_key(s in valid_scenario()) {
        let t = run(&s)?;
        let n = s.n();
        let allowed = oracle_allowed(&s.mask, n);
        for (i, visible) in allowed.iter().enumerate() {
            for (j, &seen) in visible.iter().enumerate() {
                prop_assert_eq!(t.allowed[(i, j)], seen, "allowed[{}][{}] for {:?}", i, j, s.mask);
            }
        }
        let expected: Vec<usize> = (0..n).filter(|&i| !allowed[i].iter().any(|&a| a)).collect();
        prop_assert_eq!(&t.undefined_rows, &expected);
        prop_assert_eq!(t.masked, allowed.iter().flatten().any(|a| !a));
        for i in 0..n {
            let blind = expected.contains(&i);
            prop_assert_eq!(t.output.row(i).iter().all(|v| v.is_nan()), blind, "output row {}", i);
        }
    }

    /// Shapes, scaling and the head layout of concat/output (docs/format.md §2).
    #[test]
    fn shapes_scaling_and_concat_layout(s in valid_scenario()) {
        let t = run(&s)?;
        let (n, d_k, d_v, h) = (s.n(), s.d_k(), s.d_v(), s.heads.len());
        let divisor = if s.scale { (d_k as f64).sqrt() } else { 1.0 };
        prop_assert_eq!(t.heads.len(), h);
        for (r, head) in t.heads.iter().enumerate() {
            prop_assert_eq!(head.q.shape(), (n, d_k));
            prop_assert_eq!(head.k.shape(), (n, d_k));
            prop_assert_eq!(head.v.shape(), (n, d_v));
            prop_assert_eq!(head.scores.shape(), (n, n));
            prop_assert_eq!(head.weights.shape(), (n, n));
            prop_assert_eq!(head.output.shape(), (n, d_v));
            for (a, b) in head.scaled.iter().zip(head.scores.iter()) {
                let want = *b / divisor;
                prop_assert!((a - want).abs() <= 1e-15 * want.abs(), "scaled {a} vs scores/divisor {want}");
            }
            for i in 0..n {
                for c in 0..d_v {
                    prop_assert!(same_or_both_nan(t.concat[(i, r * d_v + c)], head.output[(i, c)]),
                        "concat[{i}][{}] is not head {r} output[{i}][{c}]", r * d_v + c);
                }
            }
        }
        prop_assert_eq!(t.concat.shape(), (n, h * d_v));
        match &s.w_o {
            None => prop_assert_eq!(t.output.shape(), (n, h * d_v)),
            Some(w_o) => {
                prop_assert_eq!(t.output.shape(), (n, w_o.ncols()));
                // output = concat·W_O, checked with a sum of |terms| bound.
                for i in (0..n).filter(|i| !t.undefined_rows.contains(i)) {
                    for j in 0..w_o.ncols() {
                        let terms: Vec<f64> = (0..h * d_v).map(|c| t.concat[(i, c)] * w_o[(c, j)]).collect();
                        let want: f64 = terms.iter().sum();
                        let bound: f64 = terms.iter().map(|v| v.abs()).sum();
                        prop_assert!((t.output[(i, j)] - want).abs() <= 1e-12 * bound,
                            "output[{i}][{j}] = {} vs {want}", t.output[(i, j)]);
                    }
                }
            }
        }
    }

    /// Without mask or positions, permuting the tokens permutes the outputs
    /// (and the weights, in both indices) the same way.
    #[test]
    fn permuting_tokens_permutes_outputs(
        (s, perm) in unordered_scenario().prop_flat_map(|s| {
            let idx: Vec<usize> = (0..s.n()).collect();
            (Just(s), Just(idx).prop_shuffle())
        })
    ) {
        let n = s.n();
        let mut p = s.clone();
        p.x = Matrix::from_fn(n, s.d_model(), |k, c| s.x[(perm[k], c)]);
        p.tokens = perm.iter().map(|&k| s.tokens[k].clone()).collect();
        let t = run(&s)?;
        let tp = run(&p)?;
        // Weights: entries ≤ 1, absolute tolerance.
        for (r, (h, hp)) in t.heads.iter().zip(&tp.heads).enumerate() {
            for k in 0..n {
                for l in 0..n {
                    let (a, b) = (hp.weights[(k, l)], h.weights[(perm[k], perm[l])]);
                    prop_assert!((a - b).abs() <= 1e-12, "head {r} weights[{k}][{l}]: {a} vs {b}");
                }
            }
        }
        // Outputs: tolerance relative to the size of the values they average.
        let d_v = s.d_v();
        let concat_scale: Vec<f64> = (0..s.heads.len() * d_v)
            .map(|c| {
                let v = &t.heads[c / d_v].v;
                (0..n).map(|i| v[(i, c % d_v)].abs()).fold(0.0, f64::max)
            })
            .collect();
        let out_scale: Vec<f64> = match &s.w_o {
            None => concat_scale.clone(),
            Some(w_o) => (0..w_o.ncols())
                .map(|j| (0..w_o.nrows()).map(|c| concat_scale[c] * w_o[(c, j)].abs()).sum())
                .collect(),
        };
        for (k, &from) in perm.iter().enumerate() {
            for (j, scale) in out_scale.iter().enumerate() {
                let (a, b) = (tp.output[(k, j)], t.output[(from, j)]);
                prop_assert!((a - b).abs() <= 1e-9 * scale,
                    "output[{k}][{j}] = {a} but original row {from} has {b} (scale {scale})");
            }
        }
    }

    /// One head with W_O = identity gives exactly the scenario without W_O.
    #[test]
    fn identity_w_o_is_no_w_o(
        s in dims().prop_flat_map(|mut d| {
            d.h = 1;
            d.d_out = None;
            let n = d.n;
            scenario_from(d, mask(n), positional())
        })
    ) {
        let mut with = s.clone();
        with.w_o = Some(Matrix::identity(s.d_v(), s.d_v()));
        let a = run(&s)?;
        let b = run(&with)?;
        prop_assert_eq!(a.output.shape(), b.output.shape());
        for (x, y) in a.output.iter().zip(b.output.iter()) {
            prop_assert!(same_or_both_nan(*x, *y), "{x} vs {y}");
        }
        prop_assert_eq!(a.undefined_rows, b.undefined_rows);
    }

    /// Anything validation accepts computes without panicking, and its results
    /// export as JSON; anything it refuses, compute refuses the same way.
    #[test]
    fn validated_scenarios_never_panic(s in valid_scenario(), edit in scenario_edit()) {
        let s = edit.apply(s);
        match s.validate() {
            Ok(()) => {
                let t = run(&s)?;
                let doc: Value = serde_json::from_str(&Results::from_trace(&t).to_json())
                    .map_err(|e| TestCaseError::fail(format!("results JSON unreadable: {e}")))?;
                prop_assert_eq!(doc["undefined_rows"].as_array().map(Vec::len), Some(t.undefined_rows.len()));
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                prop_assert_eq!(compute(&s).err(), Some(e));
            }
        }
    }

    /// A non-finite number anywhere is refused, naming the matrix and the cell.
    #[test]
    fn non_finite_numbers_are_rejected_with_the_field_named(
        s in valid_scenario(),
        which in any::<Index>(),
        row in any::<Index>(),
        col in any::<Index>(),
        bad in prop::sample::select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY]),
    ) {
        let mut s = s;
        let mut names = vec!["x".to_string()];
        for r in 0..s.heads.len() {
            for w in ["w_q", "w_k", "w_v"] {
                names.push(format!("heads[{r}].{w}"));
            }
        }
        if s.w_o.is_some() {
            names.push("w_o".to_string());
        }
        let name = which.get(&names).clone();
        let target: &mut Matrix = if name == "x" {
            &mut s.x
        } else if name == "w_o" {
            s.w_o.as_mut().unwrap()
        } else {
            let r: usize = name[6..name.find(']').unwrap()].parse().unwrap();
            match &name[name.len() - 3..] {
                "w_q" => &mut s.heads[r].w_q,
                "w_k" => &mut s.heads[r].w_k,
                _ => &mut s.heads[r].w_v,
            }
        };
        let (i, j) = (row.index(target.nrows()), col.index(target.ncols()));
        target[(i, j)] = bad;
        let e = s.validate().err();
        prop_assert!(e.is_some(), "{name}[{i}][{j}] = {bad} accepted");
        let e = e.unwrap();
        prop_assert_eq!(&e.field, &format!("{name}[{i}][{j}]"));
        prop_assert!(e.to_string().contains(&name));
        prop_assert_eq!(compute(&s).err(), Some(e));
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// Export then import gives the same scenario (multiples of 1/64 here; the golden test
    /// `export_import_keeps_every_number_exactly` covers awkward ones).
    #[test]
    fn json_round_trip(
        s in valid_scenario(),
        k in vec(-640i32..=640, 1..=4),
        tokens in vec("\\PC{0,12}", 12),
    ) {
        let mut s = s;
        let mut next = k.iter().cycle().map(|&k| k as f64 / 64.0);
        for h in &mut s.heads {
            for w in [&mut h.w_q, &mut h.w_k, &mut h.w_v] {
                w.iter_mut().for_each(|v| *v = next.next().unwrap());
            }
        }
        s.x.iter_mut().for_each(|v| *v = next.next().unwrap());
        if let Some(w_o) = &mut s.w_o {
            w_o.iter_mut().for_each(|v| *v = next.next().unwrap());
        }
        s.tokens = tokens[..s.n()].to_vec();
        prop_assert_eq!(Scenario::from_json(&s.to_json()).map_err(|e| e.to_string()), Ok(s.clone()));
        prop_assert_eq!(Scenario::from_json(&s.to_json_compact()).map_err(|e| e.to_string()), Ok(s));
    }

    /// Random text never panics from_json.
    #[test]
    fn garbage_text_never_panics(text in prop_oneof![
        any::<String>(),
        "[\\[\\]{}\",:0-9a-z_.eE+\\- ]{0,300}",
    ]) {
        check_json_text(&text)?;
    }

    /// Random JSON documents built from the scenario's own vocabulary never panic.
    #[test]
    fn random_json_documents_never_panic(doc in json_document()) {
        check_json_text(&doc.to_string())?;
    }

    /// A valid scenario's JSON with a few characters changed never panics.
    #[test]
    fn mutated_json_text_never_panics(s in valid_scenario(), edits in vec(text_edit(), 1..=4)) {
        let mut chars: Vec<char> = s.to_json_compact().chars().collect();
        for e in &edits {
            e.apply(&mut chars);
        }
        check_json_text(&chars.into_iter().collect::<String>())?;
    }

    /// A valid scenario's JSON with a node replaced, removed or duplicated
    /// never panics (extreme numbers, wrong shapes, wrong types, odd masks).
    #[test]
    fn mutated_json_structure_never_panics(
        s in valid_scenario(),
        edits in vec((any::<Index>(), node_edit()), 1..=3),
    ) {
        check_json_text(&mutated(&s, &edits))?;
    }
}

// ---------------------------------------------------------------------------
// helpers for the "never panics" properties

/// from_json must return (Ok or Err, never panic); whatever it accepts must
/// validate, and compute and export unless its numbers are so large that a
/// product overflows f64 (then compute refuses, saying so).
fn check_json_text(text: &str) -> Result<(), TestCaseError> {
    if let Ok(s) = Scenario::from_json(text) {
        prop_assert!(s.validate().is_ok());
        prop_assert_eq!(s.tokens.len(), s.n());
        match compute(&s) {
            Ok(t) => {
                let _ = Results::from_trace(&t).to_json();
            }
            Err(e) => prop_assert!(
                e.reason.to_string().contains("too large"),
                "valid scenario refused: {e}"
            ),
        }
        prop_assert!(Scenario::from_json(&s.to_json()).is_ok());
    }
    Ok(())
}

/// Small changes that may or may not make a valid scenario invalid.
#[derive(Clone, Debug)]
enum ScenarioEdit {
    Nothing,
    Padding(usize),
    CustomShape {
        extra_rows: usize,
        short_row: Option<Index>,
    },
    WoRows(bool),
    WiderKey(Index),
    Tokens(bool),
    LongToken(usize),
    Format(String),
    NoHeads,
    TooManyHeads,
}

fn scenario_edit() -> impl Strategy<Value = ScenarioEdit> {
    prop_oneof![
        3 => Just(ScenarioEdit::Nothing),
        1 => (0..=3usize).prop_map(ScenarioEdit::Padding),
        1 => (0..=1usize, prop::option::of(any::<Index>()))
            .prop_map(|(extra_rows, short_row)| ScenarioEdit::CustomShape { extra_rows, short_row }),
        1 => any::<bool>().prop_map(ScenarioEdit::WoRows),
        1 => any::<Index>().prop_map(ScenarioEdit::WiderKey),
        1 => any::<bool>().prop_map(ScenarioEdit::Tokens),
        1 => (38..=42usize).prop_map(ScenarioEdit::LongToken),
        1 => prop::sample::select(vec!["", "attention-lab/0", "attention-lab/1 ", "Attention-Lab/1"])
            .prop_map(|f| ScenarioEdit::Format(f.to_string())),
        1 => Just(ScenarioEdit::NoHeads),
        1 => Just(ScenarioEdit::TooManyHeads),
    ]
}

impl ScenarioEdit {
    fn apply(&self, mut s: Scenario) -> Scenario {
        let n = s.n();
        match self {
            ScenarioEdit::Nothing => {}
            ScenarioEdit::Padding(extra) => s.mask = Mask::Padding(n + extra),
            ScenarioEdit::CustomShape {
                extra_rows,
                short_row,
            } => {
                let mut rows = vec![vec![true; n]; n + extra_rows];
                if let Some(i) = short_row {
                    rows[i.index(n)].pop();
                }
                s.mask = Mask::Custom(rows);
            }
            ScenarioEdit::WoRows(more) => {
                let rows = s.heads.len() * s.d_v();
                let rows = if *more { rows + 1 } else { rows - 1 };
                s.w_o = Some(Matrix::from_element(rows, 2, 0.5));
            }
            ScenarioEdit::WiderKey(r) => {
                let r = r.index(s.heads.len());
                let w = &s.heads[r].w_k;
                s.heads[r].w_k = w.clone().insert_column(w.ncols(), 1.0);
            }
            ScenarioEdit::Tokens(more) => {
                if *more {
                    s.tokens.push("extra".into());
                } else {
                    s.tokens.pop();
                }
            }
            ScenarioEdit::LongToken(len) => s.tokens[0] = "é".repeat(*len),
            ScenarioEdit::Format(f) => s.format = f.clone(),
            ScenarioEdit::NoHeads => s.heads.clear(),
            ScenarioEdit::TooManyHeads => {
                let h = s.heads[0].clone();
                s.heads.resize(9, h);
                s.w_o = None;
            }
        }
        s
    }
}

/// A character-level edit of JSON text.
#[derive(Clone, Debug)]
enum TextEdit {
    Delete(Index),
    Insert(Index, &'static str),
    Replace(Index, &'static str),
    Truncate(Index),
}

const SNIPPETS: &[&str] = &[
    "1e999",
    "-1e400",
    "-",
    "0",
    "9",
    ".5",
    "e",
    "null",
    "true",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "\\",
    "\"padding\":",
    "\"custom\":[[true]]",
    "[[]]",
    "[]",
    "NaN",
    "Infinity",
    "18446744073709551616",
    "\"w_o\":[[1]],",
    "\u{0}",
    "é",
];

fn text_edit() -> impl Strategy<Value = TextEdit> {
    let snippet = prop::sample::select(SNIPPETS);
    prop_oneof![
        any::<Index>().prop_map(TextEdit::Delete),
        (any::<Index>(), snippet.clone()).prop_map(|(i, s)| TextEdit::Insert(i, s)),
        (any::<Index>(), snippet).prop_map(|(i, s)| TextEdit::Replace(i, s)),
        any::<Index>().prop_map(TextEdit::Truncate),
    ]
}

impl TextEdit {
    fn apply(&self, chars: &mut Vec<char>) {
        if chars.is_empty() {
            return;
        }
        match self {
            TextEdit::Delete(i) => {
                chars.remove(i.index(chars.len()));
            }
            TextEdit::Insert(i, s) => {
                let at = i.index(chars.len() + 1);
                chars.splice(at..at, s.chars());
            }
            TextEdit::Replace(i, s) => {
                let at = i.index(chars.len());
                chars.splice(at..at + 1, s.chars());
            }
            TextEdit::Truncate(i) => chars.truncate(i.index(chars.len())),
        }
    }
}

/// A structural edit of a JSON document at a path.
#[derive(Clone, Debug)]
enum NodeEdit {
    Replace(Value),
    Remove,
    Duplicate,
}

fn extreme_number() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!(f64::MAX),
        json!(-f64::MAX),
        json!(1e308),
        json!(5e-324),
        json!(-0.0),
        json!(0),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(65),
        json!(129),
        json!(1.5),
        json!(-1),
    ])
}

fn node_edit() -> impl Strategy<Value = NodeEdit> {
    prop_oneof![
        3 => extreme_number().prop_map(NodeEdit::Replace),
        2 => json_document().prop_map(NodeEdit::Replace),
        2 => Just(NodeEdit::Remove),
        2 => Just(NodeEdit::Duplicate),
    ]
}

const KEYS: &[&str] = &[
    "format",
    "tokens",
    "x",
    "heads",
    "w_q",
    "w_k",
    "w_v",
    "w_o",
    "scale",
    "mask",
    "positional",
    "padding",
    "window",
    "custom",
    "extra",
];

fn json_document() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        value().prop_map(|v| json!(v)),
        (-3i64..70).prop_map(|v| json!(v)),
        extreme_number(),
        prop::sample::select(vec![
            "attention-lab/1",
            "none",
            "causal",
            "sinusoidal",
            "onehot",
            "x1",
            "",
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
    .boxed()
}

/// `s`'s JSON with each edit applied in turn at the node its index picks
/// among the nodes there are then.
fn mutated(s: &Scenario, edits: &[(Index, NodeEdit)]) -> String {
    let mut doc: Value = serde_json::from_str(&s.to_json()).unwrap();
    for (at, e) in edits {
        let mut paths = Vec::new();
        collect_paths(&doc, String::new(), &mut paths);
        let path = at.get(&paths).clone();
        e.apply(&mut doc, &path);
    }
    doc.to_string()
}

/// Every JSON pointer in `v` ("" is the root).
fn collect_paths(v: &Value, here: String, out: &mut Vec<String>) {
    out.push(here.clone());
    match v {
        Value::Array(items) => {
            for (i, e) in items.iter().enumerate() {
                collect_paths(e, format!("{here}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, e) in map {
                collect_paths(e, format!("{here}/{k}"), out);
            }
        }
        _ => {}
    }
}

impl NodeEdit {
    fn apply(&self, doc: &mut Value, path: &str) {
        match self {
            NodeEdit::Replace(v) => {
                if let Some(node) = doc.pointer_mut(path) {
                    *node = v.clone();
                }
            }
            NodeEdit::Remove | NodeEdit::Duplicate => {
                let Some(cut) = path.rfind('/') else { return };
                let (parent, last) = (&path[..cut], &path[cut + 1..]);
                match doc.pointer_mut(parent) {
                    Some(Value::Array(items)) => {
                        let i: usize = last.parse().unwrap();
                        if matches!(self, NodeEdit::Remove) {
                            items.remove(i);
                        } else {
                            let copy = items[i].clone();
                            items.insert(i, copy);
                        }
                    }
                    Some(Value::Object(map)) => {
                        if matches!(self, NodeEdit::Remove) {
                            map.remove(last);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The engine's kernels (crates/kernels): the same sums in the same order

/// The plain triple loop every derivation on the page writes out:
/// `Σ_k a[i,k]·b[k,j]` folded left to right from 0.
fn naive(a: &Matrix, b: &Matrix) -> Matrix {
    Matrix::from_fn(a.nrows(), b.ncols(), |i, j| {
        (0..a.ncols()).fold(0.0, |acc, k| acc + a[(i, k)] * b[(k, j)])
    })
}

/// [`value`], plus -0.0 (whose products and sums have signed zeros).
fn kernel_value() -> impl Strategy<Value = f64> {
    prop_oneof![8 => value(), 1 => Just(-0.0)]
}

/// The row softmax a row at a time, as the engine computed it before its
/// kernel walked columns: [`softmax_masked`] of each row.
fn softmax_by_rows(scores: &Matrix, allowed: &DMatrix<bool>) -> Matrix {
    let (n, m) = scores.shape();
    let mut w = Matrix::from_element(n, m, f64::NAN);
    for i in 0..n {
        let row: Vec<f64> = (0..m).map(|j| scores[(i, j)]).collect();
        let visible: Vec<bool> = (0..m).map(|j| allowed[(i, j)]).collect();
        if let Some(ws) = softmax_masked(&row, &visible) {
            for (j, v) in ws.into_iter().enumerate() {
                w[(i, j)] = v;
            }
        }
    }
    w
}

fn bits(m: &Matrix) -> Vec<u64> {
    m.iter().map(|v| v.to_bits()).collect()
}

proptest! {
    #![proptest_config(config(512))]

    /// Shapes from 0 to 17 cover the kernels' 4×4 tiles and every remainder
    /// (2 and 1 rows or columns), with zeros, -0.0, huge and tiny values.
    #[test]
    fn matmul_kernels_equal_the_plain_loop_bit_for_bit(
        n in 0usize..=17, k in 0usize..=17, m in 0usize..=17, seed in vec(kernel_value(), 601),
    ) {
        let mut it = seed.iter().cycle().copied();
        let a = Matrix::from_fn(n, k, |_, _| it.next().unwrap());
        let b = Matrix::from_fn(k, m, |_, _| it.next().unwrap());
        let expect = naive(&a, &b);
        prop_assert_eq!(bits(&matmul(&a, &b)), bits(&expect));
        prop_assert_eq!(bits(&matmul_t(&a, &b.transpose())), bits(&expect));
    }

    /// The column-walking softmax kernel gives the row-at-a-time softmax
    /// bit for bit: any mask (none, rows without a visible key, a mask
    /// larger than the scores), scores from tiny to ±1e300.
    #[test]
    fn softmax_kernel_equals_the_row_softmax_bit_for_bit(
        n in 0usize..=17,
        m in 0usize..=17,
        extra in (0usize..=2, 0usize..=2),
        kind in 0u8..4,
        seed in vec((kernel_value(), -1e300..1e300f64, any::<bool>()), 19 * 19),
    ) {
        let mut it = seed.iter().cycle().copied();
        let scores = Matrix::from_fn(n, m, |_, _| {
            let (v, huge, pick) = it.next().unwrap();
            if pick && kind == 3 { huge } else { v }
        });
        let mut bools = seed.iter().cycle().map(|t| t.2);
        let allowed = DMatrix::from_fn(n + extra.0, m + extra.1, |i, _| match kind {
            0 => true,
            1 => i % 3 != 1 && bools.next().unwrap(),
            _ => bools.next().unwrap(),
        });
        prop_assert_eq!(bits(&softmax_rows(&scores, &allowed)), bits(&softmax_by_rows(&scores, &allowed)));
        // The scaled scores: one division per entry.
        let d = 8f64.sqrt();
        let mut scaled = vec![0.0; n * m];
        attention_kernels::div_by(scores.as_slice(), d, &mut scaled);
        prop_assert_eq!(
            scaled.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            bits(&scores.map(|s| s / d))
        );
    }
}

// ---------------------------------------------------------------------------
// the fuzz run (`bash scripts/fuzz.sh`; ignored by `cargo test` and CI)

/// One fuzz input: a generated or mutated scenario text.
fn fuzz_text() -> impl Strategy<Value = String> {
    prop_oneof![
        // Valid scenarios, compact or pretty.
        2 => (valid_scenario(), any::<bool>())
            .prop_map(|(s, pretty)| if pretty { s.to_json() } else { s.to_json_compact() }),
        // Characters changed, inserted, removed.
        4 => (valid_scenario(), vec(text_edit(), 1..=6)).prop_map(|(s, edits)| {
            let mut chars: Vec<char> = s.to_json_compact().chars().collect();
            for e in &edits {
                e.apply(&mut chars);
            }
            chars.into_iter().collect()
        }),
        // Nodes replaced, removed or duplicated.
        4 => (valid_scenario(), vec((any::<Index>(), node_edit()), 1..=4)).prop_map(|(s, edits)| {
            mutated(&s, &edits)
        }),
        // Documents in the scenario's vocabulary, and plain garbage.
        1 => json_document().prop_map(|d| d.to_string()),
        1 => prop_oneof![any::<String>(), "[\\[\\]{}\",:0-9a-z_.eE+\\- ]{0,300}"],
    ]
}

/// decode → validate → compute → encode: no panic; every refusal names a
/// field (or, for text that is not JSON, its line and column; a document
/// that is not an object is refused as a whole); every accepted text
/// round-trips exactly (the same scenario bit for bit, the same bytes).
fn fuzz_one(text: &str) -> Result<bool, TestCaseError> {
    let s = match Scenario::from_json(text) {
        Ok(s) => s,
        Err(e) => {
            prop_assert!(e.is_placed(), "refusal names no field: {e:?} for {text:?}");
            // Worded in both languages without panicking.
            prop_assert!(!e.reason.worded(true).is_empty() && !e.reason.worded(false).is_empty());
            return Ok(false);
        }
    };
    prop_assert!(s.validate().is_ok());
    if let Err(e) = compute(&s) {
        prop_assert!(!e.field.is_empty(), "compute refusal names no field: {e:?}");
    }
    let compact = s.to_json_compact();
    let back = Scenario::from_json(&compact).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    prop_assert!(same_bits(&s, &back), "compact round trip: {compact}");
    prop_assert_eq!(back.to_json_compact(), compact);
    let pretty = s.to_json();
    let back = Scenario::from_json(&pretty).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    prop_assert!(same_bits(&s, &back), "pretty round trip: {pretty}");
    prop_assert_eq!(back.to_json(), pretty);
    Ok(true)
}

/// `FUZZ_CASES` cases (default 100,000); prints the count, how many were
/// accepted, and the time.
#[test]
#[ignore = "the fuzz run: bash scripts/fuzz.sh"]
fn fuzz_scenario_texts() {
    use std::cell::Cell;
    let cases: u32 = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100_000);
    let (runs, accepted) = (Cell::new(0u64), Cell::new(0u64));
    let start = std::time::Instant::now();
    let mut runner = proptest::test_runner::TestRunner::new(config(cases));
    let result = runner.run(&fuzz_text(), |text| {
        runs.set(runs.get() + 1);
        if fuzz_one(&text)? {
            accepted.set(accepted.get() + 1);
        }
        Ok(())
    });
    println!(
        "fuzz: {} cases ({} accepted, {} refused) in {:.1} s",
        runs.get(),
        accepted.get(),
        runs.get() - accepted.get(),
        start.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}
