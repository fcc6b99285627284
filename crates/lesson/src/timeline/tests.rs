//! Tests of `timeline`, beside it so that the module itself reads as one job.

use super::*;
use crate::presets::{notes_004, random, Dims};
use attention::{compute, Mask, Scenario};

fn trace(s: &Scenario) -> Trace {
    compute(s).unwrap()
}

fn count(s: &Scenario, g: Granularity) -> usize {
    Timeline::new(&trace(s), g, s.w_o.is_some()).len()
}

#[test]
fn step_counts_for_one_head() {
    // n = 3, 1 head, no W_O, no mask, no scaling (no scale steps).
    let mut s = notes_004();
    // Inputs, Q, K, V, scores, softmax, weighted sum, output.
    assert_eq!(count(&s, Granularity::Matrix), 8);
    // Inputs, Q, K, V, 3 × (scores, softmax, sum), matrix form, output.
    assert_eq!(count(&s, Granularity::Row), 4 + 3 * 3 + 1 + 1);
    // As rows, but n scores per query.
    assert_eq!(count(&s, Granularity::Dot), 4 + 3 * (3 + 2) + 1 + 1);
    // With scaling, one ÷√d_k step per query (or one for the matrix).
    s.scale = true;
    assert_eq!(count(&s, Granularity::Matrix), 9);
    assert_eq!(count(&s, Granularity::Row), 4 + 3 * 4 + 1 + 1);
    assert_eq!(count(&s, Granularity::Dot), 4 + 3 * (3 + 3) + 1 + 1);
}

#[test]
fn step_counts_for_heads_masks_and_w_o() {
    let d = Dims {
        n: 4,
        d_model: 4,
        d_k: 2,
        d_v: 2,
        heads: 2,
    };
    let mut s = random(3, d, true);
    // Inputs, 2 × (Q, K, V, scores, scale, softmax, sum), concat, output.
    assert_eq!(count(&s, Granularity::Matrix), 1 + 2 * 7 + 2);
    s.mask = Mask::Causal; // rows 0..2 hide a key; row 3 hides none
    assert_eq!(count(&s, Granularity::Matrix), 1 + 2 * 8 + 2);
    let per_head_rows = 3 + 4 * 4 + 3 + 1;
    assert_eq!(count(&s, Granularity::Row), 1 + 2 * per_head_rows + 2);
    let per_head_dots = 3 + 4 * (4 + 3) + 3 + 1;
    assert_eq!(count(&s, Granularity::Dot), 1 + 2 * per_head_dots + 2);
    // One head without W_O: no concatenation step.
    let one = random(3, Dims { heads: 1, ..d }, false);
    assert_eq!(count(&one, Granularity::Matrix), 1 + 7 + 1);
}

#[test]
fn steps_follow_the_notes_order() {
    let mut scaled = notes_004();
    scaled.scale = true;
    let tl = Timeline::new(&trace(&scaled), Granularity::Dot, false);
    let phases: Vec<Phase> = tl.steps.iter().take(11).map(|s| s.phase).collect();
    assert_eq!(
        phases,
        vec![
            Phase::Inputs,
            Phase::Query,
            Phase::Key,
            Phase::Value,
            Phase::Scores {
                i: Some(0),
                j: Some(0)
            },
            Phase::Scores {
                i: Some(0),
                j: Some(1)
            },
            Phase::Scores {
                i: Some(0),
                j: Some(2)
            },
            Phase::Scale { i: Some(0) },
            Phase::Softmax { i: Some(0) },
            Phase::WeightedSum { i: Some(0) },
            Phase::Scores {
                i: Some(1),
                j: Some(0)
            },
        ]
    );
    assert_eq!(tl.steps.last().unwrap().phase, Phase::Output);
}

#[test]
fn position_is_a_function_of_virtual_time() {
    let tl = Timeline::new(&trace(&notes_004()), Granularity::Matrix, false);
    assert_eq!(tl.position(-5.0), (0, 0.0));
    assert_eq!(tl.position(0.0), (0, 0.0));
    let d0 = duration(Phase::Inputs);
    assert_eq!(tl.position(d0 / 2.0), (0, 0.5));
    assert_eq!(tl.position(d0), (1, 0.0));
    assert_eq!(tl.start_of(1), d0);
    for k in 0..tl.len() {
        assert_eq!(tl.position(tl.start_of(k)).0, k);
    }
    assert_eq!(tl.position(tl.total()), (tl.len() - 1, 1.0));
    assert_eq!(tl.position(f64::NAN), (0, 0.0));
}

#[test]
fn the_clock_scales_with_speed_and_never_jumps() {
    for speed in SPEEDS {
        let c = Clock::paused_at(0.0, speed).play(1000.0);
        assert_eq!(c.at(3000.0), 2000.0 * speed);
    }
    // Change speed mid-step: the virtual time is continuous.
    let c = Clock::paused_at(0.0, 1.0).play(0.0);
    let before = c.at(1000.0);
    let c = c.set_speed(1.5, 1000.0);
    assert_eq!(c.at(1000.0), before);
    assert_eq!(c.at(2000.0), before + 1500.0);
    let c = c.set_speed(0.5, 2000.0);
    assert_eq!(c.at(4000.0), before + 1500.0 + 1000.0);
    // Paused: time stands still; seek moves it.
    let p = c.pause(4000.0);
    assert_eq!(p.at(9000.0), p.at(4000.0));
    assert_eq!(p.seek(123.0, 9000.0).at(10_000.0), 123.0);
    // Real time going backwards never moves virtual time back.
    let c = Clock::paused_at(500.0, 1.0).play(100.0);
    assert_eq!(c.at(50.0), 500.0);
}

#[test]
fn a_dot_product_step_lights_the_pair_being_multiplied() {
    let t = trace(&notes_004());
    let step = Step {
        head: Some(0),
        phase: Phase::Scores {
            i: Some(0),
            j: Some(1),
        },
    };
    let at = |p: f64| step.highlights(&t, p);
    let cells = |hs: Vec<Highlight>, m: MatrixName| -> Vec<Cells> {
        hs.into_iter()
            .filter(|h| h.matrix == m && h.tone == Tone::Result)
            .map(|h| h.cells)
            .collect()
    };
    assert_eq!(cells(at(0.0), MatrixName::Q), vec![Cells::Cell(0, 0)]);
    assert_eq!(cells(at(0.5), MatrixName::K), vec![Cells::Cell(1, 1)]);
    assert_eq!(cells(at(0.99), MatrixName::Q), vec![Cells::Cell(0, 2)]);
    assert_eq!(cells(at(1.0), MatrixName::Q), vec![Cells::Cell(0, 2)]);
    assert_eq!(cells(at(0.2), MatrixName::Scores), vec![Cells::Cell(0, 1)]);
}

#[test]
fn the_weighted_sum_tints_value_rows_by_their_weights() {
    let t = trace(&notes_004());
    let step = Step {
        head: Some(0),
        phase: Phase::WeightedSum { i: Some(0) },
    };
    let tints: Vec<(Cells, f64)> = step
        .highlights(&t, 0.0)
        .into_iter()
        .filter_map(|h| h.weight.map(|w| (h.cells, w)))
        .collect();
    assert_eq!(tints.len(), 3);
    for (j, (cells, w)) in tints.into_iter().enumerate() {
        assert_eq!(cells, Cells::Row(j));
        assert_eq!(w, t.heads[0].weights[(0, j)]);
    }
}

#[test]
fn the_mask_step_marks_exactly_the_hidden_keys() {
    let mut s = notes_004();
    s.mask = Mask::Causal;
    let t = trace(&s);
    let step = Step {
        head: Some(0),
        phase: Phase::Mask { i: Some(0) },
    };
    let masked: Vec<Cells> = step
        .highlights(&t, 0.0)
        .into_iter()
        .filter(|h| h.tone == Tone::Masked && h.matrix == MatrixName::Scaled)
        .map(|h| h.cells)
        .collect();
    assert_eq!(masked, vec![Cells::Cell(0, 1), Cells::Cell(0, 2)]);
}

#[test]
fn positions_are_written_as_superscripts() {
    assert_eq!(sup(1), "¹");
    assert_eq!(sup(10), "¹⁰");
    assert_eq!(sup(64), "⁶⁴");
}

#[test]
fn granularities_parse() {
    let g = Granularity::parse("dot");
    assert_eq!(g, Some(Granularity::Dot));
    assert_eq!(Granularity::parse("x"), None);
}
