//! The player's reducer and the workbench's marks, tested natively.

use super::highlight::{highlight_css, tint_percent};
use super::*;
use crate::attention::compute;
use crate::lesson::presets::notes_004;
use crate::lesson::timeline::{Phase, Step};
use crate::lesson::tour::Beat;

fn layers(s: &Scenario) -> Rc<Layers> {
    Layers::of(crate::attention::compute_stack(s).unwrap())
}

fn playback(s: Scenario) -> Rc<Playback> {
    let stack = layers(&s);
    Rc::new(Playback::new(Rc::new(s), stack, Granularity::Row, 0, 1.0))
}

#[test]
fn the_player_reducer_returns_the_same_state_when_nothing_changes() {
    let pb = playback(notes_004());
    // Paused, with reduced motion: a tick changes nothing, so Yew skips the render.
    let same = pb
        .clone()
        .reduce((0.0, PlayerAction::Tick { reduce: true }));
    assert!(Rc::ptr_eq(&same, &pb));
    // The same trace again (a render without an edit): nothing to rebuild.
    let same = pb.clone().reduce((
        0.0,
        PlayerAction::Rebuild(pb.stack.clone(), pb.full.clone()),
    ));
    assert!(Rc::ptr_eq(&same, &pb));
    // Moving is a new state; the old one is untouched.
    let moved = pb.clone().reduce((0.0, PlayerAction::Go(3)));
    assert_eq!((pb.player.step, moved.player.step), (0, 3));
    let back = moved.clone().reduce((0.0, PlayerAction::Back));
    assert_eq!(back.player.step, 2);
    let played = back.reduce((0.0, PlayerAction::Toggle));
    assert!(played.player.clock.playing);
    assert_eq!(
        played
            .clone()
            .reduce((0.0, PlayerAction::Speed(1.5)))
            .player
            .clock
            .speed,
        1.5
    );
}

#[test]
fn an_edit_rebuilds_the_steps_for_the_new_trace() {
    let pb = playback(notes_004()).reduce((0.0, PlayerAction::Go(4)));
    let mut bigger = notes_004();
    bigger.scale = true;
    let stack = layers(&bigger);
    let next = pb
        .clone()
        .reduce((0.0, PlayerAction::Rebuild(stack.clone(), Rc::new(bigger))));
    assert!(Rc::ptr_eq(&next.trace, &stack.traces[0]));
    // Scaling adds a ÷√d_k step per query (15 → 18 steps), and the
    // player stays on the same moment of the computation.
    assert_eq!(
        (pb.player.timeline.len(), next.player.timeline.len()),
        (15, 18)
    );
    assert_eq!(next.player.current(), pb.player.current());
}

#[test]
fn a_stack_is_walked_layer_by_layer_with_the_hand_over_between() {
    let s = crate::lesson::presets::induction();
    let pb = playback(s.clone());
    let first = pb.tour.steps[0];
    assert_eq!(pb.tour.steps.len(), 2);
    // The last step of layer 1, then the residual and the hand-over.
    let end = pb.clone().reduce((0.0, PlayerAction::Go(first - 1)));
    assert_eq!((end.layer, end.beat), (0, None));
    let residual = end.reduce((0.0, PlayerAction::Forward));
    assert_eq!(residual.beat, Some(Beat::Residual));
    let becomes = residual.reduce((0.0, PlayerAction::Forward));
    assert_eq!(becomes.beat, Some(Beat::Becomes));
    let layer2 = becomes.clone().reduce((0.0, PlayerAction::Forward));
    assert_eq!(
        (layer2.layer, layer2.beat, layer2.player.step),
        (1, None, 0)
    );
    // Layer 2 is drawn from its own trace, the one-layer scenario of its input.
    assert!(Rc::ptr_eq(&layer2.trace, &layer2.stack.traces[1]));
    assert_eq!(compute(&layer2.scenario).unwrap(), *layer2.stack.traces[1]);
    assert_eq!(layer2.at(), first + 2);
    // And back.
    assert_eq!(
        layer2.reduce((0.0, PlayerAction::Back)).beat,
        Some(Beat::Becomes)
    );
    // Playing through the end of layer 1 goes on to the hand-over.
    let playing = end_of_layer_playing(&pb, first);
    assert_eq!((playing.layer, playing.beat), (0, Some(Beat::Residual)));
    assert!(playing.player.clock.playing);
    // Removing layer 1 (a new stack of one layer) leaves the hand-over.
    let mut one = s.clone();
    one.stack.clear();
    let stack = layers(&one);
    let after = becomes.reduce((1.0, PlayerAction::Rebuild(stack, Rc::new(one))));
    assert_eq!((after.layer, after.beat), (0, None));
}

/// `pb` played from the last step of layer 1 past its end.
fn end_of_layer_playing(pb: &Rc<Playback>, first: usize) -> Rc<Playback> {
    let at_end = pb
        .clone()
        .reduce((0.0, PlayerAction::Go(first - 1)))
        .reduce((0.0, PlayerAction::Toggle));
    at_end.reduce((1.0e7, PlayerAction::Tick { reduce: false }))
}

#[test]
fn highlight_rules_select_by_the_page_contract() {
    let t = compute(&notes_004()).unwrap();
    let step = Step {
        head: Some(0),
        phase: Phase::Scores {
            i: Some(1),
            j: Some(2),
        },
    };
    let css = highlight_css(&step.highlights(&t, 0.0), None);
    assert!(css.contains("[data-matrix=\"q\"][data-head=\"1\"] td[data-row=\"1\"]{"));
    assert!(css.contains("[data-matrix=\"k\"][data-head=\"1\"] td[data-row=\"2\"]{"));
    assert!(css
        .contains("[data-matrix=\"scores\"][data-head=\"1\"] td[data-row=\"1\"][data-col=\"2\"]{"));
    // The pair being multiplied at the start of the dot product.
    assert!(
        css.contains("[data-matrix=\"q\"][data-head=\"1\"] td[data-row=\"1\"][data-col=\"0\"]{")
    );
    let sum = Step {
        head: Some(0),
        phase: Phase::WeightedSum { i: Some(0) },
    };
    let css = highlight_css(&sum.highlights(&t, 0.0), None);
    let w = t.heads[0].weights[(0, 1)];
    assert!(
        css.contains(&format!("rgba(212,172,13,{}%)", tint_percent(w))),
        "{css}"
    );
    let out = Step {
        head: None,
        phase: Phase::Output,
    };
    let css = highlight_css(&out.highlights(&t, 0.0), None);
    assert!(css.contains("[data-matrix=\"output\"] td{"), "{css}");
    assert!(!css.contains("data-head"), "{css}");
    assert!(!css.contains("heat-"), "{css}");
}

#[test]
fn the_heads_heatmap_follows_the_query_being_computed() {
    let t = compute(&crate::lesson::presets::two_heads()).unwrap();
    let step = Step {
        head: Some(1),
        phase: Phase::Softmax { i: Some(2) },
    };
    let css = highlight_css(&step.highlights(&t, 0.0), None);
    assert!(
        css.contains(".heat-canvas[data-heat-head=\"2\"] .heat-q{display:block;--q:2}"),
        "{css}"
    );
    assert!(!css.contains("data-heat-head=\"1\""), "{css}");
    // The matrix-level mask step marks masked cells of every query: no
    // single query is framed, the whole map is.
    let mask = Step {
        head: Some(0),
        phase: Phase::Mask { i: None },
    };
    let css = highlight_css(&mask.highlights(&t, 0.0), None);
    assert!(!css.contains("--q"), "{css}");
    // One query's mask step frames that query.
    let mask = Step {
        head: Some(0),
        phase: Phase::Mask { i: Some(3) },
    };
    let css = highlight_css(&mask.highlights(&t, 0.0), None);
    let frames: Vec<&str> = css.lines().filter(|l| l.contains("--q")).collect();
    assert!(
        !frames.is_empty() && frames.iter().all(|l| l.contains("--q:3}")),
        "{css}"
    );
}
