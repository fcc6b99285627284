#![cfg(not(target_arch = "wasm32"))]
//! Stacked layers (docs/format.md §1b): a stack of one layer is today's
//! engine bit for bit; L layers are a loop of one-layer traces, each on the
//! previous layer's output; the file format reads and writes them and
//! names a stacked layer's fields in its refusals.

use attention::random::{scenario as random, Dims, Rng};
use attention::{
    compute, compute_stack, HeadWeights, Layer, Mask, Matrix, Positional, Reason, Scenario,
};
use proptest::prelude::*;

fn bits(m: &Matrix) -> Vec<u64> {
    m.iter().map(|v| v.to_bits()).collect()
}

/// A layer reading `input` columns: `heads` heads of width `d`, W_O back
/// to `out` columns when `out` is given.
fn layer(rng: &mut Rng, input: usize, heads: usize, d: usize, out: Option<usize>) -> Layer {
    Layer {
        heads: (0..heads)
            .map(|_| HeadWeights {
                w_q: rng.matrix(input, d),
                w_k: rng.matrix(input, d),
                w_v: rng.matrix(input, d),
            })
            .collect(),
        w_o: out.map(|o| rng.matrix(heads * d, o)),
        residual: false,
    }
}

/// The one-layer scenario of layer `l` of `s`, reading `input`.
fn alone(s: &Scenario, l: &Layer, input: &Matrix) -> Scenario {
    Scenario {
        x: input.clone(),
        heads: l.heads.clone(),
        w_o: l.w_o.clone(),
        positional: Positional::None,
        residual: false,
        stack: Vec::new(),
        ..s.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// One layer: the stack's trace is `compute`'s, its output the trace's.
    #[test]
    fn a_stack_of_one_layer_is_the_engine(seed in 0u64..10_000, n in 1usize..7, d in 1usize..6,
                                         heads in 1usize..4, w_o: bool, mask in 0usize..3) {
        let mut s = random(seed, Dims { n, d_model: d, d_k: d, d_v: d, heads }, w_o);
        s.mask = [Mask::None, Mask::Causal, Mask::Window(1)][mask].clone();
        let one = compute(&s).unwrap();
        let stack = compute_stack(&s).unwrap();
        prop_assert_eq!(stack.layers.len(), 1);
        prop_assert_eq!(&stack.layers[0], &one);
        prop_assert_eq!(bits(stack.output()), bits(&one.output));
    }

    /// L layers, with or without W_O and residual: layer l is the one layer
    /// of a scenario whose x is layer l's input, bit for bit, and layer
    /// l + 1 reads layer l's output (X + A with the residual, else A).
    #[test]
    fn layers_are_a_loop_of_one_layer_traces(seed in 0u64..10_000, n in 1usize..6, d in 2usize..5,
                                            extra in 1usize..4, residual in 0u8..16,
                                            positional in 0usize..2) {
        let mut s = random(seed, Dims { n, d_model: d, d_k: d, d_v: d, heads: 2 }, true);
        s.positional = [Positional::None, Positional::Sinusoidal][positional];
        s.mask = Mask::Causal;
        s.residual = residual & 1 == 1;
        let mut rng = Rng::new(seed ^ 0x5eed);
        for l in 0..extra {
            // Keep the width d so that any layer may add its input back.
            let mut next = layer(&mut rng, d, 1 + l % 3, 2, Some(d));
            next.residual = residual >> (l + 1) & 1 == 1;
            s.stack.push(next);
        }
        let stack = compute_stack(&s).unwrap();
        prop_assert_eq!(stack.layers.len(), 1 + extra);
        prop_assert_eq!(&stack.layers[0], &compute(&s).unwrap());
        let mut residuals = vec![s.residual];
        residuals.extend(s.stack.iter().map(|l| l.residual));
        for (l, (t, &residual)) in stack.layers.iter().zip(&residuals).enumerate() {
            let want = if residual { &t.input + &t.output } else { t.output.clone() };
            prop_assert_eq!(bits(&stack.outputs[l]), bits(&want));
            if l > 0 {
                prop_assert_eq!(bits(&t.input), bits(&stack.outputs[l - 1]));
                let one = compute(&alone(&s, &s.stack[l - 1], &t.input)).unwrap();
                prop_assert_eq!(t, &one);
            }
        }
    }
}

/// A two-layer scenario: 3 tokens of width 4, one head of d_k = 2 in each
/// layer, layer 2 reading layer 1's 2 columns.
fn two_layers() -> Scenario {
    let mut s = random(
        7,
        Dims {
            n: 3,
            d_model: 4,
            d_k: 2,
            d_v: 2,
            heads: 1,
        },
        false,
    );
    let mut rng = Rng::new(8);
    s.stack.push(layer(&mut rng, 2, 2, 2, None));
    s
}

#[test]
fn refusals_name_the_layer() {
    let mut s = two_layers();
    s.stack[0].heads[1].w_k = Matrix::zeros(4, 2);
    let e = compute_stack(&s).unwrap_err();
    assert_eq!(e.field, "stack[0].heads[1].w_k");
    assert_eq!(
        e.to_string(),
        "stack[0].heads[1].w_k: expected 2×2, got 4×2",
        "{e:?}"
    );
    // A residual needs an attention output as wide as the layer's input.
    let mut s = two_layers();
    s.stack[0].residual = true;
    s.stack[0].w_o = None; // 2 heads × 2 = 4 columns out, 2 in
    let e = compute_stack(&s).unwrap_err();
    assert_eq!(e.field, "stack[0].residual");
    assert_eq!(
        e.reason,
        Reason::ResidualWidth {
            input: 2,
            output: 4
        }
    );
    let mut s = two_layers();
    s.residual = true; // layer 1: 4 columns in, 2 out
    assert_eq!(compute_stack(&s).unwrap_err().field, "residual");
    // At most four layers.
    let mut s = two_layers();
    let extra = s.stack[0].clone();
    s.stack.extend([extra.clone(), extra.clone(), extra]);
    let e = compute_stack(&s).unwrap_err();
    assert_eq!(e.field, "stack");
    assert!(e.to_string().contains("number of layers"), "{e}");
}

#[test]
fn stacked_files_read_and_write_exactly() {
    let mut s = two_layers();
    s.stack[0].w_o = Some(Rng::new(3).matrix(4, 2));
    s.stack[0].residual = true;
    let text = s.to_json();
    assert!(
        text.contains("\"stack\"") && text.contains("\"residual\": true"),
        "{text}"
    );
    let back = Scenario::from_json(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.to_json(), text);
    assert_eq!(
        Scenario::from_json(&s.to_json_compact())
            .unwrap()
            .to_json_compact(),
        s.to_json_compact()
    );
    // One layer writes neither `residual` nor `stack`.
    let one = random(
        1,
        Dims {
            n: 2,
            d_model: 2,
            d_k: 2,
            d_v: 2,
            heads: 1,
        },
        false,
    );
    let text = one.to_json();
    assert!(
        !text.contains("stack") && !text.contains("residual"),
        "{text}"
    );
}

#[test]
fn the_reader_names_a_layer_s_fields() {
    let base = two_layers().to_json_compact();
    let with = |from: &str, to: &str| {
        let t = base.replacen(from, to, 1);
        assert_ne!(t, base, "{from}");
        Scenario::from_json(&t).unwrap_err()
    };
    // A layer's unknown field lists a layer's fields.
    let e = with("\"stack\":[{", "\"stack\":[{\"mask\":1,");
    assert_eq!(e.field, "stack[0].mask");
    assert!(
        matches!(e.reason, Reason::UnknownField { known, .. } if known == ["heads", "w_o", "residual"]),
        "{e:?}"
    );
    // A stack that is not an array of layers.
    let e =
        Scenario::from_json(&base.replacen("\"stack\":[", "\"stack\":3,\"_\":[", 1)).unwrap_err();
    assert_eq!(e.field, "stack", "{e:?}");
    // A layer without heads.
    let e = with("\"stack\":[{\"heads\"", "\"stack\":[{\"w_heads\"");
    assert!(e.field.starts_with("stack[0]"), "{e:?}");
    // residual must be true or false.
    let e = with("\"scale\":", "\"residual\":1,\"scale\":");
    assert_eq!(e.field, "residual", "{e:?}");
}

#[test]
fn results_export_every_layer() {
    // One layer: exactly the one-layer export.
    let one = random(
        3,
        Dims {
            n: 3,
            d_model: 2,
            d_k: 2,
            d_v: 2,
            heads: 1,
        },
        false,
    );
    let t = compute(&one).unwrap();
    assert_eq!(
        attention::Results::from_stack(&compute_stack(&one).unwrap()).to_json(),
        attention::Results::from_trace(&t).to_json()
    );
    // Two layers: the last layer's output as `output`, and each layer's own.
    let s = two_layers();
    let stack = compute_stack(&s).unwrap();
    let doc = attention::Results::from_stack(&stack).to_json();
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    let rows = |v: &serde_json::Value| -> Vec<Vec<f64>> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            })
            .collect()
    };
    let m = |m: &Matrix| -> Vec<Vec<f64>> {
        (0..m.nrows())
            .map(|i| (0..m.ncols()).map(|j| m[(i, j)]).collect())
            .collect()
    };
    assert_eq!(rows(&v["output"]), m(stack.output()));
    assert_eq!(rows(&v["layer_output"]), m(&stack.outputs[0]));
    assert_eq!(
        rows(&v["stack"][0]["heads"][1]["weights"]),
        m(&stack.layers[1].heads[1].weights)
    );
    assert_eq!(rows(&v["stack"][0]["layer_output"]), m(&stack.outputs[1]));
}
