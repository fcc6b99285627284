//! The walkthrough's state machine, pure: the player and the trace it was
//! built for, changed only by [`PlayerAction`]s (a frame, a step, play or pause, the
//! speed, the granularity, a new scenario). Tested natively.

use crate::app::state::Layers;
use crate::attention::{Scenario, Trace};
use crate::lesson::edit::layer_weights;
use crate::lesson::timeline::{Granularity, Player, Timeline};
use crate::lesson::tour::{layer_scenario, Beat, Stop, Tour};
use std::rc::Rc;
use yew::prelude::*;

/// The player and the trace (and scenario) it was built for: the
/// walkthrough's state, changed only by [`PlayerAction`]s. The stage is drawn from
/// this trace, so an edit shows the new numbers once the player has been
/// rebuilt for them (an effect keyed on the trace), never a timeline built
/// for other shapes.
#[derive(Clone)]
pub(super) struct Playback {
    pub(super) player: Player,
    /// The current layer's trace, and that layer as a one-layer scenario
    /// over its input (`tour::layer_scenario`): the stage draws a layer of
    /// a stack exactly as it draws a scenario of one layer.
    pub(super) trace: Rc<Trace>,
    pub(super) scenario: Rc<Scenario>,
    pub(super) has_w_o: bool,
    /// Real time (ms) of the animation frame this state was made for.
    pub(super) frame: f64,
    /// The whole scenario and every layer (compared by pointer).
    pub(super) full: Rc<Scenario>,
    pub(super) stack: Rc<Layers>,
    /// The layer on the stage (0-based) and, between two layers, the beat
    /// of the hand-over on screen (with the real time it began).
    pub(super) layer: usize,
    pub(super) beat: Option<Beat>,
    pub(super) beat_since: f64,
    /// Every layer's steps and residual: the one sequence of stops.
    pub(super) tour: Rc<Tour>,
}

/// How long a beat of the hand-over stays on screen at 1× (ms).
pub(super) const BEAT_MS: f64 = 2400.0;

impl Playback {
    /// A paused walkthrough of `full` at stop `at` (0-based, clamped).
    pub(super) fn new(
        full: Rc<Scenario>,
        stack: Rc<Layers>,
        g: Granularity,
        at: usize,
        speed: f64,
    ) -> Playback {
        let (scenario, has_w_o) = layer_view(&full, &stack, 0);
        let trace = stack.traces[0].clone();
        let mut pb = Playback {
            player: Player::new(&trace, g, has_w_o, 0, speed),
            trace,
            scenario,
            has_w_o,
            frame: 0.0,
            tour: Rc::new(tour_of(&full, &stack, g)),
            full,
            stack,
            layer: 0,
            beat: None,
            beat_since: 0.0,
        };
        let stop = pb.tour.stop(at);
        pb.enter(stop, 0.0);
        pb
    }

    /// Where the walkthrough is.
    pub(super) fn stop(&self) -> Stop {
        match self.beat {
            Some(beat) => Stop::HandOver {
                from: self.layer,
                beat,
            },
            None => Stop::Layer {
                layer: self.layer,
                step: self.player.step,
            },
        }
    }

    /// The number of the stop on screen (0-based) in the whole walk.
    pub(super) fn at(&self) -> usize {
        self.tour.index(self.stop())
    }

    /// Show layer `l`'s steps (a new player when the layer changes; the
    /// clock keeps playing or not, at its speed).
    pub(super) fn show_layer(&mut self, l: usize, now: f64) {
        if l == self.layer {
            return;
        }
        let (scenario, has_w_o) = layer_view(&self.full, &self.stack, l);
        let trace = self.stack.traces[l].clone();
        let (playing, speed, g) = (
            self.player.clock.playing,
            self.player.clock.speed,
            self.player.granularity,
        );
        let mut player = Player::new(&trace, g, has_w_o, 0, speed);
        if playing {
            player.clock = player.clock.play(now);
        }
        self.player = player;
        (self.layer, self.trace, self.scenario, self.has_w_o) = (l, trace, scenario, has_w_o);
    }

    /// Go to `stop`.
    pub(super) fn enter(&mut self, stop: Stop, now: f64) {
        match stop {
            Stop::Layer { layer, step } => {
                self.show_layer(layer, now);
                self.beat = None;
                self.player.go(step, now);
            }
            Stop::HandOver { from, beat } => {
                self.show_layer(from, now);
                let last = self.player.timeline.len().saturating_sub(1);
                self.player.go(last, now);
                self.beat = Some(beat);
                self.beat_since = now;
            }
        }
    }

    pub(super) fn set_playing(&mut self, on: bool, now: f64) {
        let c = self.player.clock;
        self.player.clock = if on { c.play(now) } else { c.pause(now) };
        self.beat_since = now;
    }
}

/// Layer `l` of `full` as the stage draws it, and whether it has a W_O.
pub(super) fn layer_view(full: &Rc<Scenario>, stack: &Layers, l: usize) -> (Rc<Scenario>, bool) {
    if l == 0 {
        return (full.clone(), full.w_o.is_some());
    }
    let s = layer_scenario(full, &stack.traces[l].input, l);
    let has_w_o = s.w_o.is_some();
    (Rc::new(s), has_w_o)
}

/// Whether `a` and `b` have the same layers, shapes and mask (then their
/// walks have the same stops).
pub(super) fn same_shapes(a: &Scenario, b: &Scenario) -> bool {
    let shapes = |s: &Scenario| -> Vec<(usize, usize, usize, bool, bool)> {
        (0..s.layers())
            .filter_map(|l| layer_weights(s, l))
            .map(|(heads, w_o, residual)| {
                let first = heads.first();
                (
                    heads.len(),
                    first.map_or(0, |w| w.w_q.ncols()),
                    first.map_or(0, |w| w.w_v.ncols()),
                    w_o.is_some(),
                    residual,
                )
            })
            .collect()
    };
    (a.n(), a.scale, a.positional, &a.mask) == (b.n(), b.scale, b.positional, &b.mask)
        && shapes(a) == shapes(b)
}

/// The walk's stops: each layer's steps at granularity `g` and its residual.
pub(super) fn tour_of(full: &Scenario, stack: &Layers, g: Granularity) -> Tour {
    let layers = stack.traces.len();
    let (mut steps, mut residual) = (Vec::new(), Vec::new());
    for l in 0..layers {
        let (_, w_o, res) = layer_weights(full, l).expect("a layer of the scenario");
        steps.push(Timeline::new(&stack.traces[l], g, w_o.is_some()).len());
        residual.push(res);
    }
    Tour { steps, residual }
}

/// What happens to the player (dispatched with the real time).
#[derive(Clone)]
pub(super) enum PlayerAction {
    /// An animation frame (with reduced motion, steps only).
    Tick {
        reduce: bool,
    },
    Go(usize),
    Back,
    Forward,
    Toggle,
    Speed(f64),
    Granularity(Granularity),
    /// A new scenario: rebuild the steps, keeping the moment.
    Rebuild(Rc<Layers>, Rc<Scenario>),
}

impl Reducible for Playback {
    /// The action and the real time (ms) it happens at.
    type Action = (f64, PlayerAction);

    fn reduce(self: Rc<Self>, (t, act): (f64, PlayerAction)) -> Rc<Self> {
        let mut next = (*self).clone();
        let total = self.tour.total();
        match act {
            PlayerAction::Tick { reduce } => {
                if let Some(beat) = self.beat {
                    // A beat of the hand-over: the next stop once its time is up.
                    let speed = self.player.clock.speed.max(0.1);
                    if !(self.player.clock.playing && t - self.beat_since >= BEAT_MS / speed) {
                        return self;
                    }
                    let k = self.tour.index(Stop::HandOver {
                        from: self.layer,
                        beat,
                    });
                    next.enter(self.tour.stop(k + 1), t);
                } else {
                    let was = self.player.clock.playing;
                    let changed = next.player.tick(t, reduce);
                    // The end of a layer that is not the last: the hand-over.
                    let ended = was && !next.player.clock.playing;
                    if ended && self.layer + 1 < self.tour.steps.len() {
                        let k = next.at();
                        next.enter(self.tour.stop(k + 1), t);
                        next.set_playing(true, t);
                    } else if !changed && reduce {
                        // With reduced motion a tick that changes no step
                        // changes nothing: Yew skips the render.
                        return self;
                    }
                }
                next.frame = t;
            }
            PlayerAction::Go(k) => next.enter(self.tour.stop(k), t),
            PlayerAction::Back => next.enter(self.tour.stop(self.at().saturating_sub(1)), t),
            PlayerAction::Forward => next.enter(self.tour.stop((self.at() + 1).min(total - 1)), t),
            PlayerAction::Toggle => {
                let playing = self.player.clock.playing;
                let at_end = self.player.clock.at(t) >= self.player.timeline.total();
                if self.beat.is_some() {
                    next.set_playing(!playing, t);
                } else if !playing && at_end && self.layer + 1 < self.tour.steps.len() {
                    // Paused at the end of a layer: on to the hand-over.
                    next.enter(self.tour.stop(self.at() + 1), t);
                    next.set_playing(true, t);
                } else if !playing && at_end && self.layer > 0 {
                    // The end of the whole walk: from the start again.
                    next.enter(self.tour.stop(0), t);
                    next.set_playing(true, t);
                } else {
                    next.player.toggle(t);
                }
            }
            PlayerAction::Speed(v) => next.player.set_speed(v, t),
            PlayerAction::Granularity(g) => {
                next.player.rebuild(&self.trace, g, self.has_w_o, t);
                next.tour = Rc::new(tour_of(&self.full, &self.stack, g));
            }
            PlayerAction::Rebuild(stack, full) => {
                if Rc::ptr_eq(&stack, &self.stack) && Rc::ptr_eq(&full, &self.full) {
                    return self;
                }
                let g = self.player.granularity;
                let layers = stack.traces.len();
                let layer = self.layer.min(layers - 1);
                let (scenario, has_w_o) = layer_view(&full, &stack, layer);
                let trace = stack.traces[layer].clone();
                next.player.rebuild(&trace, g, has_w_o, t);
                // The steps depend on the shapes and the mask, not on the
                // numbers: an edit of a number keeps the tour.
                if !same_shapes(&full, &self.full) {
                    next.tour = Rc::new(tour_of(&full, &stack, g));
                }
                (next.layer, next.trace, next.scenario, next.has_w_o) =
                    (layer, trace, scenario, has_w_o);
                (next.full, next.stack) = (full, stack);
                if layer + 1 >= layers {
                    next.beat = None;
                }
                if let Some(beat) = next.beat {
                    // A hand-over whose residual was turned off has one beat.
                    if !next.tour.beats(layer).contains(&beat) {
                        next.beat = Some(Beat::Becomes);
                    }
                }
            }
        }
        Rc::new(next)
    }
}
