//! Tests of `stage`, beside it so that the module itself reads as one job.

use super::*;
use crate::presets::{notes_004, random, two_heads, Dims};
use crate::timeline::Granularity;
use attention::{compute, Mask};

fn ctx<'a>(s: &'a Scenario, t: &'a Trace, conv: Convention, width: f64) -> Ctx<'a> {
    Ctx {
        trace: t,
        scenario: s,
        conv,
        g: Geometry::new(t, width),
    }
}

fn cells(it: &Item) -> &[Cell] {
    match &it.body {
        Body::Cells { cells, .. } => cells,
        Body::Text { .. } => panic!("{} is text", it.id),
    }
}

fn values(it: &Item) -> Vec<f64> {
    cells(it)
        .iter()
        .filter(|c| c.state == CellState::Value)
        .map(|c| c.value)
        .collect()
}

/// Every frame of every step: inside the scene, inside the width, with
/// something lit, at several moments of the step.
fn check_all_frames(s: &Scenario, width: f64) {
    let t = compute(s).unwrap();
    for conv in [Convention::Row, Convention::Col] {
        let c = ctx(s, &t, conv, width);
        for g in Granularity::ALL {
            let tl = Timeline::new(&t, g, s.w_o.is_some());
            let (ew, eh) = extent(c, &tl);
            for k in 0..tl.len() {
                for p in [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0] {
                    let f = frame(c, &tl, k, p, false);
                    let ctx = format!("{conv:?} {g:?} step {k} {:?} p={p}", tl.steps[k]);
                    assert!(f.items.iter().any(|i| i.lit), "nothing lit: {ctx}");
                    for it in &f.items {
                        let (w, h) = it.size(&c.g);
                        assert!(it.x >= -0.01 && it.y >= -0.01, "{} {ctx}", it.id);
                        if it.lit {
                            // What the step highlights lies inside the stage.
                            assert!(it.x + w <= ew.max(f.w) + 0.01, "{} {ctx}", it.id);
                            assert!(it.y + h <= eh.max(f.h) + 0.01, "{} {ctx}", it.id);
                        }
                        assert!((0.0..=1.0).contains(&it.opacity), "{ctx}");
                        if let Body::Cells { cells, .. } = &it.body {
                            assert!(cells.len() <= SHOWN, "{} {ctx}", it.id);
                        }
                    }
                }
                // At the end of a step, the scene is its own end state.
                assert_eq!(frame(c, &tl, k, 1.0, false), scene(c, tl.steps[k], 1.0));
                assert_eq!(frame(c, &tl, k, 0.3, true), scene(c, tl.steps[k], 1.0));
            }
            {
                for k in 0..tl.len() {
                    let w = scene(c, tl.steps[k], 1.0).w;
                    assert!(
                        w <= width + 0.01,
                        "{conv:?} {g:?} {:?}: {w} wider than {width}",
                        tl.steps[k]
                    );
                }
            }
        }
    }
}

/// Texts (labels, operators) that overlap another visible item while
/// both are drawn at more than half strength, in any frame of `s`.
fn overlaps(s: &Scenario, width: f64) -> Vec<String> {
    let t = compute(s).unwrap();
    let mut found = Vec::new();
    for conv in [Convention::Row, Convention::Col] {
        let c = ctx(s, &t, conv, width);
        for g in Granularity::ALL {
            let tl = Timeline::new(&t, g, s.w_o.is_some());
            for k in 0..tl.len() {
                for p in [0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0] {
                    let f = frame(c, &tl, k, p, false);
                    let shown: Vec<&Item> = f.items.iter().filter(|i| i.opacity > 0.5).collect();
                    let texts: Vec<&&Item> = shown
                        .iter()
                        .filter(|i| matches!(i.body, Body::Text { .. }))
                        .collect();
                    for a in &texts {
                        let (aw, ah) = a.size(&c.g);
                        for b in &texts {
                            if std::ptr::eq(**a, **b) {
                                continue;
                            }
                            let (bw, bh) = b.size(&c.g);
                            let ox = (a.x + aw).min(b.x + bw) - a.x.max(b.x);
                            let oy = (a.y + ah).min(b.y + bh) - a.y.max(b.y);
                            if ox > 2.0 && oy > 2.0 {
                                found.push(format!(
                                    "{conv:?} {g:?} step {} {:?} p={p}: {} over {}",
                                    k + 1,
                                    tl.steps[k].phase,
                                    a.id,
                                    b.id
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    found
}

/// Every name the stage draws is in the notation table of its layout
/// (`crate::notation`): inputs aⁱ, outputs B and bⁱ (b^{i,r}
/// per head), never x, o, H or Y.
#[test]
fn the_stage_names_things_only_by_the_notation_table() {
    use crate::edit::{apply, Edit};
    use crate::notation::is_symbol;
    use crate::presets::Preset;
    let mut one_hot = notes_004();
    one_hot = apply(
        &one_hot,
        &Edit::Positional(attention::Positional::OneHot),
        1,
    )
    .unwrap();
    for s in [
        notes_004(),
        one_hot,
        Preset::TwoHeads.build(),
        Preset::ISawASaw.build(),
        Preset::PreviousToken.build(),
    ] {
        let t = compute(&s).unwrap();
        let token_words: Vec<&str> = s.tokens.iter().flat_map(|t| t.split_whitespace()).collect();
        for conv in [Convention::Row, Convention::Col] {
            let c = ctx(&s, &t, conv, 660.0);
            for g in Granularity::ALL {
                let tl = Timeline::new(&t, g, s.w_o.is_some());
                for k in 0..tl.len() {
                    for it in scene(c, tl.steps[k], 1.0).items {
                        let Body::Text { lines, .. } = &it.body else {
                            continue;
                        };
                        let words = lines.iter().flat_map(|l| {
                            l.split(|c: char| c.is_whitespace() || "[];|+=()".contains(c))
                        });
                        for word in words {
                            if token_words.contains(&word) || !word.chars().any(char::is_alphabetic)
                            {
                                continue;
                            }
                            assert!(
                                    is_symbol(word, conv),
                                    "{conv:?} {g:?} step {} {:?}: {word:?} in {lines:?} is not in the table",
                                    k + 1,
                                    tl.steps[k].phase
                                );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn no_label_is_drawn_over_another_item_in_any_frame() {
    let two = crate::presets::Preset::TwoHeads.build();
    for (s, width) in [(notes_004(), 660.0), (notes_004(), 350.0), (two, 660.0)] {
        let found = overlaps(&s, width);
        assert!(
            found.is_empty(),
            "{} overlaps, first: {:#?}",
            found.len(),
            &found[..found.len().min(40)]
        );
    }
}

#[test]
fn every_frame_of_note_004_fits_at_700_and_390_px() {
    let s = notes_004();
    check_all_frames(&s, 660.0);
    check_all_frames(&s, 350.0);
    let t = compute(&s).unwrap();
    for conv in [Convention::Row, Convention::Col] {
        for g in Granularity::ALL {
            let c = ctx(&s, &t, conv, 660.0);
            let (w, h) = extent(c, &Timeline::new(&t, g, false));
            // Room for the controls and the caption within 640 px.
            assert!(h <= 330.0 && w <= 660.0, "{conv:?} {g:?}: {w}×{h}");
        }
    }
}

#[test]
fn every_frame_fits_for_heads_masks_scaling_and_large_scenarios() {
    let mut s = two_heads();
    check_all_frames(&s, 660.0);
    s.scale = false;
    s.mask = Mask::Window(1);
    check_all_frames(&s, 350.0);
    let big = Dims {
        n: 12,
        d_model: 20,
        d_k: 10,
        d_v: 9,
        heads: 2,
    };
    let mut s = random(4, big, true);
    s.mask = Mask::Padding(3);
    s.positional = attention::Positional::Sinusoidal;
    let t = compute(&s).unwrap();
    for conv in [Convention::Row, Convention::Col] {
        let c = ctx(&s, &t, conv, 660.0);
        let tl = Timeline::new(&t, Granularity::Row, true);
        for k in 0..tl.len() {
            let f = frame(c, &tl, k, 0.6, false);
            assert!(f.items.iter().any(|i| i.lit));
            for it in &f.items {
                if let Body::Cells { cells, .. } = &it.body {
                    assert!(cells.len() <= SHOWN, "{}", it.id);
                }
            }
        }
    }
}

#[test]
fn one_hot_positions_are_drawn_concatenated_and_fit() {
    use crate::edit::{apply, Edit};
    let one_hot = Edit::Positional(attention::Positional::OneHot);
    let s = apply(&notes_004(), &one_hot, 1).unwrap();
    // 660 px (an embedded figure). [X | E] is 7 numbers wide, so on a
    // phone it scrolls inside the figure, as any wide input does.
    check_all_frames(&s, 660.0);
    let t = compute(&s).unwrap();
    let c = ctx(&s, &t, Convention::Row, 660.0);
    let tl = Timeline::new(&t, Granularity::Matrix, false);
    let f = frame(c, &tl, 0, 1.0, false);
    let item = |id: &str| {
        f.items
            .iter()
            .find(|i| i.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    // x¹ = [1, 0, 1, 0] | e¹ = [1, 0, 0] → [1, 0, 1, 0, 1, 0, 0].
    assert_eq!(values(item("xraw.0")), vec![1.0, 0.0, 1.0, 0.0]);
    assert_eq!(values(item("pe.1")), vec![0.0, 1.0, 0.0]);
    assert_eq!(values(item("x.0")), vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0]);
    assert!(matches!(&item("op.cat").body, Body::Text { lines, .. } if lines == &["|"]));
    assert!(f.items.iter().all(|i| i.id != "op.plus"));
    // The projections multiply [X | E] by the 7-row W_Q.
    let q = tl
        .steps
        .iter()
        .position(|st| st.phase == Phase::Query)
        .unwrap();
    let f = frame(c, &tl, q, 1.0, false);
    let x = f.items.iter().find(|i| i.id == "x.0").unwrap();
    assert_eq!(cells(x).len(), 7);
}

#[test]
fn every_number_on_stage_is_the_engines() {
    let s = notes_004();
    let t = compute(&s).unwrap();
    let h = &t.heads[0];
    let c = ctx(&s, &t, Convention::Row, 660.0);
    let tl = Timeline::new(&t, Granularity::Dot, false);
    // α₁,₂ = q¹·k² = 1·4 + 0·4 + 2·0 = 4 (note 004).
    let k = tl
        .steps
        .iter()
        .position(|st| {
            st.phase
                == Phase::Scores {
                    i: Some(0),
                    j: Some(1),
                }
        })
        .unwrap();
    let f = frame(c, &tl, k, 1.0, false);
    assert_eq!(values(f.get("prod.0.0.1").unwrap()), vec![4.0, 0.0, 0.0]);
    assert_eq!(values(f.get("alpha.0.0.1").unwrap()), vec![4.0]);
    // The scores row holds α₁,₁ and α₁,₂ now, α₁,₃ still to come.
    assert_eq!(values(f.get("s.0.0").unwrap()), vec![2.0, 4.0]);
    // Softmax of query 1: the engine's weights, exps that divide into them.
    let k = tl
        .steps
        .iter()
        .position(|st| st.phase == Phase::Softmax { i: Some(0) })
        .unwrap();
    let f = frame(c, &tl, k, 1.0, false);
    let w = values(f.get("a.0.0").unwrap());
    assert_eq!(w, h.weights.row(0).iter().copied().collect::<Vec<_>>());
    let e = values(f.get("e.0.0").unwrap());
    let sum: f64 = e.iter().sum();
    for (e, w) in e.iter().zip(&w) {
        assert_eq!(e / sum, *w);
    }
    // b¹ = [1.9366, 6.6831, 1.5951] (the note's exact softmax), the
    // engine's numbers bit for bit; the weighted values are α′·vʲ.
    let k = tl
        .steps
        .iter()
        .position(|st| st.phase == Phase::WeightedSum { i: Some(0) })
        .unwrap();
    let f = frame(c, &tl, k, 1.0, false);
    let b = values(f.get("b.0.0").unwrap());
    assert_eq!(b, h.output.row(0).iter().copied().collect::<Vec<_>>());
    assert_eq!(short(b[0]), "1.9366");
    assert_eq!(short(b[1]), "6.6831");
    assert_eq!(short(b[2]), "1.5951");
    for j in 0..3 {
        let wv = values(f.get(&format!("wv.0.0.{j}")).unwrap());
        let want: Vec<f64> = h.v.row(j).iter().map(|v| h.weights[(0, j)] * v).collect();
        assert_eq!(wv, want);
    }
}

#[test]
fn products_appear_term_by_term_and_the_score_lands_in_its_slot() {
    let s = notes_004();
    let t = compute(&s).unwrap();
    for conv in [Convention::Row, Convention::Col] {
        let c = ctx(&s, &t, conv, 660.0);
        let st = Step {
            head: Some(0),
            phase: Phase::Scores {
                i: Some(0),
                j: Some(1),
            },
        };
        let shown = |lp: f64| {
            let f = scene(c, st, lp);
            cells(f.get("prod.0.0.1").unwrap())
                .iter()
                .filter(|c| c.state == CellState::Value)
                .count()
        };
        assert_eq!(shown(0.0), 0);
        assert_eq!(shown(0.25), 1);
        assert_eq!(shown(0.45), 2);
        assert_eq!(shown(0.65), 3);
        // The pair being multiplied is lit in q, k and the products.
        let f = scene(c, st, 0.25);
        for id in ["q.0.0", "k.0.1", "prod.0.0.1"] {
            let lit: Vec<bool> = cells(f.get(id).unwrap()).iter().map(|c| c.lit).collect();
            assert_eq!(lit, vec![false, true, false], "{id}");
        }
        // α₁,₂ sits by its Σ, then travels into slot 2 of the scores row.
        let mid = scene(c, st, 0.7);
        let end = scene(c, st, 1.0);
        let row = end.get("s.0.0").unwrap();
        let a_end = end.get("alpha.0.0.1.fly").unwrap();
        let slot = if conv == Convention::Row {
            (row.x + c.g.cw, row.y)
        } else {
            (row.x, row.y + c.g.ch)
        };
        assert!((a_end.x - slot.0).abs() < 1e-9 && (a_end.y - slot.1).abs() < 1e-9);
        let a_mid = mid.get("alpha.0.0.1.fly").unwrap();
        assert!((a_mid.x, a_mid.y) != (a_end.x, a_end.y));
        // Column layout: vectors are columns.
        let Body::Cells { vertical, .. } = &row.body else {
            panic!()
        };
        assert_eq!(*vertical, conv == Convention::Col);
    }
}

#[test]
fn a_step_arrives_from_where_the_last_one_left_its_items() {
    let s = notes_004();
    let t = compute(&s).unwrap();
    let c = ctx(&s, &t, Convention::Row, 660.0);
    let tl = Timeline::new(&t, Granularity::Row, false);
    // Scores of query 1 → softmax of query 1: the scores row moves.
    let k = tl
        .steps
        .iter()
        .position(|st| st.phase == Phase::Softmax { i: Some(0) })
        .unwrap();
    let before = scene(c, tl.steps[k - 1], 1.0);
    let after = scene(c, tl.steps[k], 1.0);
    let id = "s.0.0";
    let (b, a) = (before.get(id).unwrap(), after.get(id).unwrap());
    assert!((b.x, b.y) != (a.x, a.y), "the row moves");
    let start = frame(c, &tl, k, 0.0, false);
    let s0 = start.get(id).unwrap();
    assert_eq!((s0.x, s0.y), (b.x, b.y));
    let mid = frame(c, &tl, k, ARRIVE / 2.0, false);
    let m = mid.get(id).unwrap();
    assert!(m.y > b.y.min(a.y) - 1e-9 && m.y < b.y.max(a.y) + 1e-9);
    let done = frame(c, &tl, k, ARRIVE, false);
    let d = done.get(id).unwrap();
    assert_eq!((d.x, d.y), (a.x, a.y));
    // Items of the last step that this one does not use fade out.
    assert!(start
        .items
        .iter()
        .any(|i| i.id.starts_with("k.0.") && i.opacity > 0.99));
    assert!(done.get("k.0.1").is_none());
}

#[test]
fn the_mask_sets_scores_to_minus_infinity_and_softmax_gives_them_zero() {
    let mut s = notes_004();
    s.mask = Mask::Causal;
    s.scale = true;
    let t = compute(&s).unwrap();
    let c = ctx(&s, &t, Convention::Row, 660.0);
    let st = Step {
        head: Some(0),
        phase: Phase::Mask { i: Some(0) },
    };
    let before = scene(c, st, 0.0);
    let after = scene(c, st, 1.0);
    let states = |sc: &Scene| -> Vec<CellState> {
        cells(sc.get("m.0.0").unwrap())
            .iter()
            .map(|c| c.state)
            .collect()
    };
    assert_eq!(states(&before), vec![CellState::Value; 3]);
    assert_eq!(
        states(&after),
        vec![CellState::Value, CellState::Masked, CellState::Masked]
    );
    let texts: Vec<String> = cells(after.get("m.0.0").unwrap())
        .iter()
        .map(|c| c.text.clone())
        .collect();
    assert_eq!(texts[1], "−∞");
    let sm = scene(
        c,
        Step {
            head: Some(0),
            phase: Phase::Softmax { i: Some(0) },
        },
        1.0,
    );
    let w: Vec<f64> = cells(sm.get("a.0.0").unwrap())
        .iter()
        .map(|c| c.value)
        .collect();
    assert_eq!(w, vec![1.0, 0.0, 0.0]);
    // The scaling step says by what: ÷ √3.
    let sc = scene(
        c,
        Step {
            head: Some(0),
            phase: Phase::Scale { i: Some(0) },
        },
        1.0,
    );
    let Body::Text { lines, .. } = &sc.get("op.scale").unwrap().body else {
        panic!()
    };
    assert!(lines[0].starts_with("÷ √3 = ÷ 1.7321"), "{lines:?}");
}

#[test]
fn heads_slide_together_into_the_concatenation() {
    let s = two_heads();
    let t = compute(&s).unwrap();
    for conv in [Convention::Row, Convention::Col] {
        let c = ctx(&s, &t, conv, 660.0);
        let st = Step {
            head: None,
            phase: Phase::Concat,
        };
        let gap = |lp: f64| {
            let sc = scene(c, st, lp);
            let (a, b) = (sc.get("b.0.0").unwrap(), sc.get("b.1.0").unwrap());
            if conv == Convention::Row {
                b.x - (a.x + a.size(&c.g).0)
            } else {
                b.y - a.y
            }
        };
        assert!(
            gap(0.0) > gap(1.0) + 10.0,
            "{conv:?}: {} vs {}",
            gap(0.0),
            gap(1.0)
        );
    }
}

/// Any shape the format allows: every step of every granularity in
/// both conventions draws without panicking, with at most SHOWN cells.
#[test]
fn any_shape_draws_without_panicking() {
    let masks = [Mask::None, Mask::Causal, Mask::Padding(2), Mask::Window(1)];
    let mut seed = 0;
    for n in [1, 5, 9] {
        for d_model in [1, 10] {
            for (d_k, d_v) in [(1, 1), (9, 3)] {
                for heads in [1, 3] {
                    seed += 1;
                    let dims = Dims {
                        n,
                        d_model,
                        d_k,
                        d_v,
                        heads,
                    };
                    let mut s = random(seed, dims, seed % 2 == 0);
                    s.mask = masks[seed as usize % masks.len()].clone();
                    if let Mask::Padding(l) = &mut s.mask {
                        *l = (*l).min(n);
                    }
                    s.scale = seed % 3 != 0;
                    let Ok(t) = compute(&s) else { continue };
                    for conv in [Convention::Row, Convention::Col] {
                        for width in [350.0, 660.0] {
                            let c = ctx(&s, &t, conv, width);
                            for g in Granularity::ALL {
                                let tl = Timeline::new(&t, g, s.w_o.is_some());
                                let _ = extent(c, &tl);
                                for k in 0..tl.len() {
                                    for p in [0.0, 0.5, 1.0] {
                                        for it in frame(c, &tl, k, p, false).items {
                                            if let Body::Cells { cells, .. } = &it.body {
                                                assert!(cells.len() <= SHOWN);
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn finished_outputs_wait_at_the_side_and_the_new_one_moves_there() {
    let s = notes_004();
    let t = compute(&s).unwrap();
    // A wide stage (the page at 1280 px): the side block fits.
    let c = ctx(&s, &t, Convention::Row, 1100.0);
    let tl = Timeline::new(&t, Granularity::Row, false);
    let at_step = |phase| tl.steps.iter().position(|st| st.phase == phase).unwrap();
    // Computing b¹: no output done yet, three empty rows at the side.
    let k = at_step(Phase::WeightedSum { i: Some(0) });
    let f = frame(c, &tl, k, 1.0, false);
    assert!(f.get("bp.0.0").is_some() && f.get("bp.0.2").is_some());
    let b1 = f.get("b.0.0").unwrap().clone();
    // Next step (q² against every key): b¹ now sits in the side block,
    // arriving from where it was computed.
    let next = frame(c, &tl, k + 1, 1.0, false);
    let side = next.get("b.0.0").unwrap();
    assert_eq!(values(side), h_row(&t, 0));
    assert!(next.get("bp.0.0").is_none() && next.get("bp.0.1").is_some());
    let arriving = frame(c, &tl, k + 1, 0.0, false);
    let a = arriving.get("b.0.0").unwrap();
    assert_eq!((a.x, a.y), (b1.x, b1.y));
    assert!((side.x, side.y) != (b1.x, b1.y));
}

fn h_row(t: &Trace, i: usize) -> Vec<f64> {
    t.heads[0].output.row(i).iter().copied().collect()
}

#[test]
fn an_edit_that_keeps_the_shapes_keeps_the_size() {
    let s = notes_004();
    let t = compute(&s).unwrap();
    let c = ctx(&s, &t, Convention::Row, 660.0);
    let tl = Timeline::new(&t, Granularity::Row, false);
    let mut e = notes_004();
    e.x[(0, 0)] = 0.0;
    let te = compute(&e).unwrap();
    let ce = ctx(&e, &te, Convention::Row, 660.0);
    let tle = Timeline::new(&te, Granularity::Row, false);
    assert_eq!(size_key(c, &tl), size_key(ce, &tle));
    assert_eq!(extent(c, &tl), extent(ce, &tle));
    // A new mask, another convention or another width is another size.
    let mut m = notes_004();
    m.mask = Mask::Causal;
    let tm = compute(&m).unwrap();
    let tlm = Timeline::new(&tm, Granularity::Row, false);
    assert_ne!(
        size_key(c, &tl),
        size_key(ctx(&m, &tm, Convention::Row, 660.0), &tlm)
    );
    assert_ne!(
        size_key(c, &tl),
        size_key(ctx(&s, &t, Convention::Col, 660.0), &tl)
    );
    assert_ne!(
        size_key(c, &tl),
        size_key(ctx(&s, &t, Convention::Row, 500.0), &tl)
    );
}

#[test]
fn windows_keep_the_current_query_in_view() {
    assert_eq!(window(5, 3), 0..5);
    assert_eq!(window(64, 0), 0..SHOWN);
    assert_eq!(window(64, 63), 64 - SHOWN..64);
    for f in 0..64 {
        assert!(window(64, f).contains(&f));
    }
}
