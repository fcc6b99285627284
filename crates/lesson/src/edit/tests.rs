//! Tests of `edit`, beside it so that the module itself reads as one job.

use super::*;
use crate::presets::{notes_004, random, Dims};
use attention::compute;

fn dims(s: &Scenario) -> (usize, usize, usize, usize, usize) {
    (s.n(), s.d_model(), s.d_k(), s.d_v(), s.heads.len())
}

#[test]
fn a_cell_edit_changes_one_number() {
    let s = notes_004();
    let e = Edit::Cell {
        target: Target::WQ(0),
        row: 1,
        col: 2,
        value: 5.5,
    };
    let t = apply(&s, &e, 1).unwrap();
    assert_eq!(t.heads[0].w_q[(1, 2)], 5.5);
    let mut expected = s.clone();
    expected.heads[0].w_q[(1, 2)] = 5.5;
    assert_eq!(t, expected);
}

#[test]
fn out_of_range_cells_and_missing_matrices_are_refused() {
    let s = notes_004();
    let e = apply(
        &s,
        &Edit::Cell {
            target: Target::X,
            row: 3,
            col: 0,
            value: 1.0,
        },
        1,
    )
    .unwrap_err();
    assert_eq!(
        e,
        EditError::OutsideMatrix {
            field: "x[3][0]".into(),
            rows: 3,
            cols: 4
        }
    );
    let e = apply(
        &s,
        &Edit::Cell {
            target: Target::WO,
            row: 0,
            col: 0,
            value: 1.0,
        },
        1,
    )
    .unwrap_err();
    assert_eq!(
        e,
        EditError::NoSuchMatrix {
            field: "w_o".into()
        }
    );
    let e = apply(
        &s,
        &Edit::Cell {
            target: Target::X,
            row: 0,
            col: 0,
            value: f64::NAN,
        },
        1,
    )
    .unwrap_err();
    assert_eq!(e.field(), "x[0][0]");
}

#[test]
fn a_pasted_matrix_must_fit() {
    let s = notes_004();
    let rows = vec![vec![1.0, 2.0, 3.0]; 3];
    let e = apply(
        &s,
        &Edit::Matrix {
            target: Target::X,
            rows: rows.clone(),
        },
        1,
    )
    .unwrap_err();
    assert!(
        matches!(&e, EditError::Scenario(se) if se.to_string() == "x: expected 3×4, got 3×3"),
        "{e:?}"
    );
    let t = apply(
        &s,
        &Edit::Matrix {
            target: Target::WV(0),
            rows: vec![vec![1.0, 2.0, 3.0]; 4],
        },
        1,
    )
    .unwrap();
    assert_eq!(t.heads[0].w_v, Matrix::from_fn(4, 3, |_, c| c as f64 + 1.0));
}

#[test]
fn growing_keeps_numbers_and_shrinking_back_restores() {
    let s = notes_004();
    for dim in [Dim::N, Dim::DModel, Dim::DK, Dim::DV, Dim::Heads] {
        let grown = apply(&s, &Edit::Resize { dim, size: 5 }, 9).unwrap();
        assert_eq!(dim.of(&grown), 5, "{dim:?}");
        assert_eq!(grown.x.view((0, 0), (3, 4)).clone_owned(), s.x);
        assert_eq!(
            grown.heads[0].w_q.view((0, 0), (4, 3)).clone_owned(),
            s.heads[0].w_q
        );
        let back = apply(
            &grown,
            &Edit::Resize {
                dim,
                size: dim.of(&s),
            },
            9,
        )
        .unwrap();
        assert_eq!(back, s, "{dim:?} back");
        // Same seed, same new numbers.
        let again = apply(&s, &Edit::Resize { dim, size: 5 }, 9).unwrap();
        assert_eq!(again, grown);
        compute(&grown).unwrap();
    }
}

#[test]
fn resizing_n_extends_tokens_and_masks() {
    let mut s = notes_004();
    s.mask = Mask::Custom(vec![vec![true, false, false]; 3]);
    let t = apply(
        &s,
        &Edit::Resize {
            dim: Dim::N,
            size: 4,
        },
        3,
    )
    .unwrap();
    assert_eq!(t.tokens, vec!["input 1", "input 2", "input 3", "x4"]);
    match &t.mask {
        Mask::Custom(rows) => {
            assert_eq!(rows.len(), 4);
            assert_eq!(rows[0], vec![true, false, false, true]);
            assert_eq!(rows[3], vec![true; 4]);
        }
        m => panic!("{m:?}"),
    }
    s.mask = Mask::Padding(3);
    let t = apply(
        &s,
        &Edit::Resize {
            dim: Dim::N,
            size: 2,
        },
        3,
    )
    .unwrap();
    assert_eq!(t.mask, Mask::Padding(2));
}

#[test]
fn dims_out_of_range_are_refused_with_the_field() {
    let s = notes_004();
    let e = apply(
        &s,
        &Edit::Resize {
            dim: Dim::N,
            size: 65,
        },
        1,
    )
    .unwrap_err();
    assert!(
        matches!(&e, EditError::Scenario(se) if se.to_string() == "n: must be between 1 and 64, got 65"),
        "{e:?}"
    );
    let e = apply(
        &s,
        &Edit::Resize {
            dim: Dim::Heads,
            size: 0,
        },
        1,
    )
    .unwrap_err();
    assert_eq!(e.field(), "h");
    let e = apply(
        &s,
        &Edit::Resize {
            dim: Dim::DK,
            size: 129,
        },
        1,
    )
    .unwrap_err();
    assert_eq!(e.field(), "d_k");
}

#[test]
fn w_o_follows_heads_and_d_v_blockwise() {
    let s = random(
        5,
        Dims {
            n: 3,
            d_model: 4,
            d_k: 2,
            d_v: 2,
            heads: 2,
        },
        true,
    );
    let w_o = s.w_o.clone().unwrap();
    assert_eq!(w_o.shape(), (4, 4));
    let t = apply(
        &s,
        &Edit::Resize {
            dim: Dim::DV,
            size: 3,
        },
        5,
    )
    .unwrap();
    let t_o = t.w_o.clone().unwrap();
    assert_eq!(t_o.shape(), (6, 4));
    // Head 2's first row moved from row 2 to row 3, unchanged.
    assert_eq!(t_o.row(3), w_o.row(2));
    assert_eq!(t_o.row(4), w_o.row(3));
    assert_eq!(t_o.row(0), w_o.row(0));
    let t = apply(
        &s,
        &Edit::Resize {
            dim: Dim::Heads,
            size: 3,
        },
        5,
    )
    .unwrap();
    assert_eq!(t.w_o.as_ref().unwrap().shape(), (6, 4));
    assert_eq!(dims(&t), (3, 4, 2, 2, 3));
    let t = apply(
        &s,
        &Edit::Resize {
            dim: Dim::DModel,
            size: 5,
        },
        5,
    )
    .unwrap();
    assert_eq!(t.w_o.as_ref().unwrap().shape(), (4, 5));
}

#[test]
fn options_and_output_projection() {
    let s = notes_004();
    let t = apply(&s, &Edit::Scale(true), 1).unwrap();
    assert!(t.scale);
    let t = apply(&s, &Edit::Mask(Mask::Window(1)), 1).unwrap();
    assert_eq!(t.mask, Mask::Window(1));
    let e = apply(&s, &Edit::Mask(Mask::Padding(4)), 1).unwrap_err();
    assert_eq!(e.field(), "mask.padding");
    let t = apply(&s, &Edit::OutputProjection(true), 1).unwrap();
    assert_eq!(t.w_o.as_ref().unwrap().shape(), (3, 4));
    let u = apply(&t, &Edit::OutputProjection(false), 1).unwrap();
    assert_eq!(u, s);
    let t = apply(&s, &Edit::Positional(Positional::Sinusoidal), 1).unwrap();
    assert_eq!(t.positional, Positional::Sinusoidal);
    let t = apply(
        &s,
        &Edit::Token {
            index: 1,
            label: "  saw ".into(),
        },
        1,
    )
    .unwrap();
    assert_eq!(t.tokens[1], "saw");
    let e = apply(
        &s,
        &Edit::Token {
            index: 0,
            label: "x".repeat(41),
        },
        1,
    )
    .unwrap_err();
    assert_eq!(e.field(), "tokens[0]");
}

#[test]
fn fill_values_depend_on_place_and_seed() {
    let a = fill_value(1, Target::X, 0, 0);
    assert_eq!(a, fill_value(1, Target::X, 0, 0));
    let others = [
        fill_value(2, Target::X, 0, 0),
        fill_value(1, Target::X, 0, 1),
        fill_value(1, Target::X, 1, 0),
        fill_value(1, Target::WQ(0), 0, 0),
    ];
    assert!(others.iter().any(|v| *v != a));
    for v in others {
        assert!((-1.0..=1.0).contains(&v));
    }
}

/// notes_004 with one-hot positions (the 3 position rows appended).
fn one_hot_004() -> (Scenario, Scenario) {
    let s = notes_004();
    let t = apply(&s, &Edit::Positional(Positional::OneHot), 7).unwrap();
    (s, t)
}

#[test]
fn switching_to_one_hot_appends_position_rows_and_back_removes_them() {
    let (s, t) = one_hot_004();
    assert_eq!(t.positional, Positional::OneHot);
    assert_eq!(t.d_in(), 7);
    for (w, v) in s.heads.iter().zip(&t.heads) {
        for (old, new) in [(&w.w_q, &v.w_q), (&w.w_k, &v.w_k), (&w.w_v, &v.w_v)] {
            assert_eq!(new.shape(), (4 + 3, old.ncols()));
            // The x part is untouched, above the position rows.
            assert_eq!(new.rows(0, 4).clone_owned(), *old);
            let pos = new.rows(4, 3);
            assert!(pos.iter().any(|v| *v != 0.0), "positions must matter");
            for v in pos.iter() {
                assert!((-1.0..=1.0).contains(v));
                assert_eq!((v * 100.0).round() / 100.0, *v, "two decimals");
            }
        }
    }
    // The position rows do not depend on the page's seed.
    let other = apply(&s, &Edit::Positional(Positional::OneHot), 12345).unwrap();
    assert_eq!(other, t);
    assert_eq!(
        t.heads[0].w_q[(4 + 1, 2)],
        position_value(Target::WQ(0), 1, 2)
    );
    // Positions now matter: the outputs differ from the plain scenario.
    assert_ne!(compute(&t).unwrap().output, compute(&s).unwrap().output);
    // And back: the rows go, the scenario is the old one again.
    assert_eq!(
        apply(&t, &Edit::Positional(Positional::None), 7).unwrap(),
        s
    );
    // Sinusoidal keeps the shapes; from there one-hot adds the same rows.
    let sin = apply(&s, &Edit::Positional(Positional::Sinusoidal), 7).unwrap();
    assert_eq!(sin.heads, s.heads);
    let from_sin = apply(&sin, &Edit::Positional(Positional::OneHot), 7).unwrap();
    assert_eq!(from_sin.heads, t.heads);
}

#[test]
fn n_under_one_hot_adds_and_removes_position_rows() {
    let (_, t) = one_hot_004();
    let grown = apply(
        &t,
        &Edit::Resize {
            dim: Dim::N,
            size: 5,
        },
        3,
    )
    .unwrap();
    assert_eq!(grown.d_in(), 4 + 5);
    let (a, b) = (&t.heads[0].w_k, &grown.heads[0].w_k);
    assert_eq!(b.shape(), (9, 3));
    // x rows and the first three positions kept, two new positions after.
    assert_eq!(b.rows(0, 7).clone_owned(), *a);
    for p in 3..5 {
        for c in 0..3 {
            assert_eq!(b[(4 + p, c)], position_value(Target::WK(0), p, c));
        }
    }
    compute(&grown).unwrap();
    let shrunk = apply(
        &t,
        &Edit::Resize {
            dim: Dim::N,
            size: 2,
        },
        3,
    )
    .unwrap();
    assert_eq!(shrunk.heads[0].w_k.shape(), (6, 3));
    assert_eq!(shrunk.heads[0].w_k.rows(0, 6), a.rows(0, 6));
    let back = apply(
        &shrunk,
        &Edit::Resize {
            dim: Dim::N,
            size: 3,
        },
        3,
    )
    .unwrap();
    assert_eq!(back.heads, t.heads);
}

#[test]
fn d_model_under_one_hot_changes_the_x_rows_before_the_position_rows() {
    let (_, t) = one_hot_004();
    let grown = apply(
        &t,
        &Edit::Resize {
            dim: Dim::DModel,
            size: 5,
        },
        3,
    )
    .unwrap();
    let (a, b) = (&t.heads[0].w_v, &grown.heads[0].w_v);
    assert_eq!(b.shape(), (5 + 3, 3));
    assert_eq!(b.rows(0, 4), a.rows(0, 4));
    for c in 0..3 {
        assert_eq!(b[(4, c)], fill_value(3, Target::WV(0), 4, c), "new x row");
    }
    assert_eq!(
        b.rows(5, 3),
        a.rows(4, 3),
        "position rows moved down, unchanged"
    );
    compute(&grown).unwrap();
    let shrunk = apply(
        &t,
        &Edit::Resize {
            dim: Dim::DModel,
            size: 2,
        },
        3,
    )
    .unwrap();
    let c = &shrunk.heads[0].w_v;
    assert_eq!(c.shape(), (2 + 3, 3));
    assert_eq!(c.rows(0, 2), a.rows(0, 2));
    assert_eq!(c.rows(2, 3), a.rows(4, 3));
    let back = apply(
        &grown,
        &Edit::Resize {
            dim: Dim::DModel,
            size: 4,
        },
        3,
    )
    .unwrap();
    assert_eq!(back, t);
}

#[test]
fn d_k_d_v_and_heads_under_one_hot_keep_the_d_model_plus_n_rows() {
    let (_, t) = one_hot_004();
    for dim in [Dim::DK, Dim::DV, Dim::Heads] {
        let grown = apply(&t, &Edit::Resize { dim, size: 4 }, 5).unwrap();
        for w in &grown.heads {
            assert_eq!(w.w_q.nrows(), 7, "{dim:?}");
            assert_eq!(w.w_v.nrows(), 7, "{dim:?}");
        }
        compute(&grown).unwrap();
        let back = apply(
            &grown,
            &Edit::Resize {
                dim,
                size: dim.of(&t),
            },
            5,
        )
        .unwrap();
        assert_eq!(back, t, "{dim:?}");
    }
    let two = apply(
        &t,
        &Edit::Resize {
            dim: Dim::Heads,
            size: 2,
        },
        5,
    )
    .unwrap();
    assert!(two.heads[1].w_q.rows(4, 3).iter().any(|v| *v != 0.0));
}

// Layers (docs/format.md §1b).

#[test]
fn a_layer_is_added_reading_the_last_layers_output() {
    let s = notes_004();
    let two = apply(&s, &Edit::AddLayer, 7).unwrap();
    assert_eq!(two.layers(), 2);
    let added = &two.stack[0];
    assert_eq!(added.heads.len(), s.heads.len());
    // notes 004 has no W_O: layer 1's output is h·d_v wide, layer 2 reads it.
    let width = s.heads.len() * s.d_v();
    assert_eq!(added.heads[0].w_q.shape(), (width, s.d_k()));
    assert_eq!(added.heads[0].w_v.shape(), (width, s.d_v()));
    assert!(added.w_o.is_none() && !added.residual);
    // Layer 1 untouched; the same seed gives the same numbers.
    assert_eq!(
        (two.heads.clone(), two.x.clone()),
        (s.heads.clone(), s.x.clone())
    );
    assert_eq!(two, apply(&s, &Edit::AddLayer, 7).unwrap());
    assert_ne!(two, apply(&s, &Edit::AddLayer, 8).unwrap());
    attention::compute_stack(&two).unwrap();
    // Up to four layers, then refused naming the stack.
    let mut many = two;
    for _ in 0..2 {
        many = apply(&many, &Edit::AddLayer, 7).unwrap();
    }
    assert_eq!(many.layers(), 4);
    let e = apply(&many, &Edit::AddLayer, 7).unwrap_err();
    assert_eq!(e.field(), "stack");
}

#[test]
fn a_later_layers_cells_are_edited_and_named_by_their_layer() {
    let two = apply(&notes_004(), &Edit::AddLayer, 1).unwrap();
    let t = Target::W(1, Weight::WK(0));
    assert_eq!(t.field(), "stack[0].heads[0].w_k");
    let e = Edit::Cell {
        target: t,
        row: 0,
        col: 1,
        value: 2.5,
    };
    let out = apply(&two, &e, 1).unwrap();
    assert_eq!(out.stack[0].heads[0].w_k[(0, 1)], 2.5);
    assert_eq!(out.heads, two.heads);
    let outside = Edit::Cell {
        target: Target::W(2, Weight::WQ(0)),
        row: 0,
        col: 0,
        value: 1.0,
    };
    assert_eq!(
        apply(&two, &outside, 1).unwrap_err().field(),
        "stack[1].heads[0].w_q"
    );
}

#[test]
fn a_resize_upstream_refits_the_layers_after_it_keeping_their_numbers() {
    let two = apply(&notes_004(), &Edit::AddLayer, 3).unwrap();
    // Without W_O, layer 1's output is h·d_v wide: growing its d_v widens
    // what layer 2 reads.
    let d_v = two.d_v();
    let wider = apply(
        &two,
        &Edit::Resize {
            dim: Dim::DV,
            size: d_v + 1,
        },
        3,
    )
    .unwrap();
    let width = wider.heads.len() * (d_v + 1);
    let before = &two.stack[0].heads[0].w_q;
    let after = &wider.stack[0].heads[0].w_q;
    assert_eq!(after.nrows(), width);
    for r in 0..before.nrows() {
        for c in 0..before.ncols() {
            assert_eq!(after[(r, c)], before[(r, c)], "kept ({r}, {c})");
        }
    }
    attention::compute_stack(&wider).unwrap();
    // Back again: the same numbers as before.
    let back = apply(
        &wider,
        &Edit::Resize {
            dim: Dim::DV,
            size: d_v,
        },
        3,
    )
    .unwrap();
    assert_eq!(back.stack, two.stack);
}

#[test]
fn a_layers_own_sizes_and_w_o_change_only_that_layer() {
    let two = apply(&notes_004(), &Edit::AddLayer, 1).unwrap();
    let more = apply(
        &two,
        &Edit::LayerResize {
            layer: 1,
            dim: Dim::Heads,
            size: 3,
        },
        1,
    )
    .unwrap();
    assert_eq!(more.stack[0].heads.len(), 3);
    assert_eq!(more.heads, two.heads);
    let k = apply(
        &more,
        &Edit::LayerResize {
            layer: 1,
            dim: Dim::DK,
            size: 5,
        },
        1,
    )
    .unwrap();
    assert!(k.stack[0].heads.iter().all(|w| w.w_q.ncols() == 5));
    let with_o = apply(&k, &Edit::LayerOutputProjection { layer: 1, on: true }, 1).unwrap();
    let w_o = with_o.stack[0].w_o.as_ref().unwrap();
    assert_eq!(w_o.nrows(), 3 * k.stack[0].heads[0].w_v.ncols());
    assert_eq!(
        w_o.ncols(),
        k.stack[0].heads[0].w_q.nrows(),
        "as wide as its input"
    );
    attention::compute_stack(&with_o).unwrap();
    // N and d_model are the scenario's, not a layer's.
    let e = Edit::LayerResize {
        layer: 1,
        dim: Dim::N,
        size: 2,
    };
    assert!(apply(&with_o, &e, 1).is_err());
}

#[test]
fn a_residual_needs_an_output_as_wide_as_the_input() {
    let two = apply(&notes_004(), &Edit::AddLayer, 1).unwrap();
    // Layer 2 reads h·d_v columns; with W_O (as wide as its input) the
    // residual fits, and stays fitted when its W_O was narrower.
    let with_o = apply(&two, &Edit::LayerOutputProjection { layer: 1, on: true }, 1).unwrap();
    let on = apply(&with_o, &Edit::Residual { layer: 1, on: true }, 1).unwrap();
    let stack = attention::compute_stack(&on).unwrap();
    assert_eq!(
        stack.outputs[1],
        &stack.layers[1].input + &stack.layers[1].output
    );
    // Layer 1 of notes 004 has no W_O and its concat (h·d_v) is not x's
    // width: refused, naming the field, the scenario unchanged.
    let s = notes_004();
    if s.heads.len() * s.d_v() != s.d_model() {
        let e = apply(&two, &Edit::Residual { layer: 0, on: true }, 1).unwrap_err();
        assert_eq!(e.field(), "residual");
    }
}

#[test]
fn removing_the_first_layer_of_the_induction_circuit_leaves_the_second_reading_x() {
    let s = crate::presets::induction();
    let one = apply(&s, &Edit::RemoveLayer(0), 1).unwrap();
    assert_eq!(one.layers(), 1);
    assert_eq!(one.heads, s.stack[0].heads);
    assert_eq!((one.w_o.clone(), one.residual), (None, false));
    assert_eq!(one.x, s.x);
    let last = compute(&one).unwrap().output.row(4).into_owned();
    assert!(last[1] < 0.5, "no longer finds B: {last}");
    // Removing the second instead leaves layer 1 alone.
    let first = apply(&s, &Edit::RemoveLayer(1), 1).unwrap();
    assert_eq!(
        (first.heads.clone(), first.stack.len()),
        (s.heads.clone(), 0)
    );
    // The last layer cannot be removed.
    assert!(apply(&first, &Edit::RemoveLayer(0), 1).is_err());
}

#[test]
fn edits_leave_a_fitting_scenario_as_it_was() {
    for p in crate::presets::Preset::MENU {
        let s = p.build();
        assert_eq!(apply(&s, &Edit::Scale(s.scale), 1).unwrap(), s, "{p:?}");
    }
    let s = crate::presets::induction();
    assert_eq!(apply(&s, &Edit::Scale(s.scale), 1).unwrap(), s);
}

// proptest is a native dev-dependency only.
#[cfg(not(target_arch = "wasm32"))]
mod layer_properties {
    use super::*;
    use proptest::prelude::*;

    /// One layer edit, its numbers drawn small.
    fn edit() -> impl Strategy<Value = Edit> {
        prop_oneof![
            Just(Edit::AddLayer),
            (0usize..5).prop_map(Edit::RemoveLayer),
            (0usize..5, 0usize..3, 0usize..7).prop_map(|(layer, d, size)| Edit::LayerResize {
                layer,
                dim: [Dim::Heads, Dim::DK, Dim::DV][d],
                size,
            }),
            (0usize..5, any::<bool>())
                .prop_map(|(layer, on)| Edit::LayerOutputProjection { layer, on }),
            (0usize..5, any::<bool>()).prop_map(|(layer, on)| Edit::Residual { layer, on }),
            (0usize..2, 1usize..6).prop_map(|(d, size)| Edit::Resize {
                dim: [Dim::N, Dim::DModel][d],
                size,
            }),
            Just(Edit::Positional(Positional::OneHot)),
            Just(Edit::Positional(Positional::None)),
            (0usize..5, 0usize..3, 0usize..8, 0usize..8).prop_map(|(l, h, row, col)| Edit::Cell {
                target: Target::W(l, Weight::WV(h)),
                row,
                col,
                value: 0.5,
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// Any sequence of layer edits either gives a scenario that
        /// validates and computes every layer, or is refused with a field
        /// and leaves the scenario as it was: never a panic.
        #[test]
        fn layer_edits_never_break_a_scenario(
            induction in any::<bool>(),
            edits in proptest::collection::vec(edit(), 1..12),
        ) {
            let mut s = if induction {
                crate::presets::induction()
            } else {
                random(3, Dims { n: 3, d_model: 4, d_k: 2, d_v: 2, heads: 2 }, true)
            };
            for e in &edits {
                match apply(&s, e, 5) {
                    Ok(next) => {
                        prop_assert!(next.validate().is_ok());
                        prop_assert!(attention::compute_stack(&next).is_ok());
                        s = next;
                    }
                    Err(err) => prop_assert!(!err.field().is_empty(), "{e:?}"),
                }
            }
        }
    }
}
