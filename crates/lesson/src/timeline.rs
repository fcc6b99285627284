//! The walkthrough as a timeline: the notes' animated figures (docs/figures.md F1,
//! F2, F4, F5) as an ordered list of steps over whatever scenario is loaded.
//!
//! For each head: the projections Q, K, V; then, query by query, each score
//! `q^i·k^j`, the division by √d_k, the mask, the softmax and the weighted
//! sum `b^i`; then the same computation in matrix form. Several heads: each
//! head in turn, then the concatenation, then W_O.
//!
//! Time is an input. A [`Clock`] turns real milliseconds into virtual ones
//! (speed multiplies the clock and changing speed re-anchors it, so the
//! position never jumps), and [`Timeline::position`] is a pure function of
//! virtual time. Nothing here knows about frames or the DOM.

use super::names::MatrixName;
use attention::{Positional, Trace};
use std::rc::Rc;

/// How finely the walkthrough steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Granularity {
    /// One step per matrix.
    Matrix,
    /// One query row at a time.
    Row,
    /// Every dot product q^i·k^j.
    Dot,
}

impl Granularity {
    pub const ALL: [Granularity; 3] = [Granularity::Matrix, Granularity::Row, Granularity::Dot];

    pub fn code(self) -> &'static str {
        match self {
            Granularity::Matrix => "matrix",
            Granularity::Row => "row",
            Granularity::Dot => "dot",
        }
    }

    pub fn parse(code: &str) -> Option<Granularity> {
        Granularity::ALL.into_iter().find(|g| g.code() == code)
    }
}

/// What a step shows. `i` is a query row, `j` a key; `None` means all rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The inputs X (plus the positional encoding).
    Inputs,
    /// `Q = X·W_Q`.
    Query,
    /// `K = X·W_K`.
    Key,
    /// `V = X·W_V`.
    Value,
    /// Scores: one (`Some(i), Some(j)`), a query's row, or all.
    Scores { i: Option<usize>, j: Option<usize> },
    /// Division by √d_k.
    Scale { i: Option<usize> },
    /// Masked keys are removed.
    Mask { i: Option<usize> },
    /// Softmax along the keys.
    Softmax { i: Option<usize> },
    /// `b^i = Σ_j α'_{i,j} v^j`.
    WeightedSum { i: Option<usize> },
    /// After the query-by-query steps: the whole head as matrices.
    MatrixForm,
    /// The heads side by side.
    Concat,
    /// `concat · W_O` (or the concatenation itself).
    Output,
}

impl Phase {
    /// The query a step works on, for the steps that take one query at a
    /// time.
    pub fn query(self) -> Option<usize> {
        match self {
            Phase::Scores { i, .. }
            | Phase::Scale { i }
            | Phase::Mask { i }
            | Phase::Softmax { i }
            | Phase::WeightedSum { i } => i,
            _ => None,
        }
    }
}

/// One step of the walkthrough.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// 0-based head, for the per-head phases.
    pub head: Option<usize>,
    pub phase: Phase,
}

/// Which cells of a matrix a highlight covers (row-vector orientation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cells {
    All,
    Row(usize),
    Col(usize),
    Cell(usize, usize),
}

/// How a highlighted cell takes part in the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Read by the step.
    Source,
    /// Written by the step.
    Result,
    /// Hidden by the mask.
    Masked,
}

/// One highlighted region. `weight` (0..=1) tints value rows by how much
/// of them flows into the weighted sum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Highlight {
    pub matrix: MatrixName,
    /// 0-based head for per-head matrices.
    pub head: Option<usize>,
    pub cells: Cells,
    pub tone: Tone,
    pub weight: Option<f64>,
}

/// Virtual milliseconds a step lasts at 1×.
/// The first dot product is played slowly, term by term; the others are
/// quick replays of the same move.
pub fn duration(phase: Phase) -> f64 {
    match phase {
        Phase::Scores {
            i: Some(0),
            j: Some(0),
        } => 2400.0,
        Phase::Scores {
            i: Some(_),
            j: Some(_),
        } => 1200.0,
        Phase::Scale { .. } | Phase::Mask { .. } => 1200.0,
        Phase::MatrixForm => 2400.0,
        _ => 1800.0,
    }
}

/// The speeds of the notes' figures.
pub const SPEEDS: [f64; 3] = [0.5, 1.0, 1.5];

/// The ordered steps for a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub steps: Vec<Step>,
    /// Virtual start time of each step, and the total at the end.
    starts: Vec<f64>,
}

impl Timeline {
    /// Builds the steps for `trace` at `granularity`; `has_w_o` says whether
    /// the scenario has an output projection.
    pub fn new(trace: &Trace, granularity: Granularity, has_w_o: bool) -> Timeline {
        let n = trace.n();
        let h = trace.heads.len();
        let row_has_mask = |i: usize| (0..n).any(|j| !trace.allowed[(i, j)]);
        let mut steps = vec![Step {
            head: None,
            phase: Phase::Inputs,
        }];
        for r in 0..h {
            let head = Some(r);
            let mut push = |phase| steps.push(Step { head, phase });
            push(Phase::Query);
            push(Phase::Key);
            push(Phase::Value);
            match granularity {
                Granularity::Matrix => {
                    push(Phase::Scores { i: None, j: None });
                    if trace.scale {
                        push(Phase::Scale { i: None });
                    }
                    if trace.masked {
                        push(Phase::Mask { i: None });
                    }
                    push(Phase::Softmax { i: None });
                    push(Phase::WeightedSum { i: None });
                }
                Granularity::Row | Granularity::Dot => {
                    for i in 0..n {
                        if granularity == Granularity::Dot {
                            for j in 0..n {
                                push(Phase::Scores {
                                    i: Some(i),
                                    j: Some(j),
                                });
                            }
                        } else {
                            push(Phase::Scores {
                                i: Some(i),
                                j: None,
                            });
                        }
                        // Without scaling there is nothing to show between
                        // the scores and the softmax (the stage says so there).
                        if trace.scale {
                            push(Phase::Scale { i: Some(i) });
                        }
                        if row_has_mask(i) {
                            push(Phase::Mask { i: Some(i) });
                        }
                        push(Phase::Softmax { i: Some(i) });
                        push(Phase::WeightedSum { i: Some(i) });
                    }
                    push(Phase::MatrixForm);
                }
            }
        }
        if h > 1 || has_w_o {
            steps.push(Step {
                head: None,
                phase: Phase::Concat,
            });
        }
        steps.push(Step {
            head: None,
            phase: Phase::Output,
        });
        let mut starts = Vec::with_capacity(steps.len() + 1);
        let mut t = 0.0;
        for s in &steps {
            starts.push(t);
            t += duration(s.phase);
        }
        starts.push(t);
        Timeline { steps, starts }
    }

    /// The first step that shows the same moment as `old` (same head and
    /// phase, and the same query where both name one), if any.
    pub fn equivalent(&self, old: Step) -> Option<usize> {
        let kind = |p: Phase| std::mem::discriminant(&p);
        let query = Phase::query;
        let (k, q) = (kind(old.phase), query(old.phase));
        self.steps.iter().position(|s| {
            s.head == old.head
                && kind(s.phase) == k
                && (q.is_none() || query(s.phase).is_none() || query(s.phase) == q)
        })
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether there are no steps (never, for a computed trace).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Total virtual length in ms at 1×.
    pub fn total(&self) -> f64 {
        *self.starts.last().unwrap_or(&0.0)
    }

    /// Virtual time at which step `k` starts (clamped to the last step).
    pub fn start_of(&self, k: usize) -> f64 {
        self.starts[k.min(self.len().saturating_sub(1))]
    }

    /// The step at virtual time `t` and how far into it (0..1). Before the
    /// start: step 0; at or past the end: the last step, fully done.
    pub fn position(&self, t: f64) -> (usize, f64) {
        let last = self.len().saturating_sub(1);
        if t.is_nan() || t <= 0.0 {
            return (0, 0.0);
        }
        if t >= self.total() {
            return (last, 1.0);
        }
        // The last start not after t.
        let k = self.starts[..self.len()].partition_point(|&s| s <= t) - 1;
        let d = self.starts[k + 1] - self.starts[k];
        (k, ((t - self.starts[k]) / d).clamp(0.0, 1.0))
    }
}

/// A play clock: virtual time advances at `speed` × real time while playing.
/// Changing the speed re-anchors the clock at the current virtual time, so
/// the position never jumps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub speed: f64,
    pub playing: bool,
    anchor_real: f64,
    anchor_virtual: f64,
}

impl Clock {
    /// A paused clock at virtual time `t`.
    pub fn paused_at(t: f64, speed: f64) -> Clock {
        Clock {
            speed,
            playing: false,
            anchor_real: 0.0,
            anchor_virtual: t,
        }
    }

    /// Virtual time at real time `now` (ms).
    pub fn at(&self, now: f64) -> f64 {
        if self.playing {
            self.anchor_virtual + (now - self.anchor_real).max(0.0) * self.speed
        } else {
            self.anchor_virtual
        }
    }

    fn anchored(self, now: f64, t: f64) -> Clock {
        Clock {
            anchor_real: now,
            anchor_virtual: t,
            ..self
        }
    }

    pub fn play(self, now: f64) -> Clock {
        Clock {
            playing: true,
            ..self.anchored(now, self.at(now))
        }
    }

    pub fn pause(self, now: f64) -> Clock {
        Clock {
            playing: false,
            ..self.anchored(now, self.at(now))
        }
    }

    pub fn set_speed(self, speed: f64, now: f64) -> Clock {
        Clock {
            speed,
            ..self.anchored(now, self.at(now))
        }
    }

    /// Jump to virtual time `t`.
    pub fn seek(self, t: f64, now: f64) -> Clock {
        self.anchored(now, t)
    }
}

impl Step {
    /// The cells this step lights up. In a dot-product step, `progress`
    /// (0..1) picks which pair q^i_c · k^j_c is being multiplied.
    pub fn highlights(&self, trace: &Trace, progress: f64) -> Vec<Highlight> {
        let hl = |matrix, head, cells, tone| Highlight {
            matrix,
            head,
            cells,
            tone,
            weight: None,
        };
        let rows = |i: Option<usize>| i.map_or(Cells::All, Cells::Row);
        let head = self.head;
        use MatrixName as M;
        use Tone::{Masked, Result, Source};
        let mut out = Vec::new();
        match self.phase {
            Phase::Inputs => {
                out.push(hl(M::X, None, Cells::All, Result));
                match trace.positional {
                    Positional::None => {}
                    Positional::Sinusoidal => out.push(hl(M::Pe, None, Cells::All, Result)),
                    Positional::OneHot => out.push(hl(M::Input, None, Cells::All, Result)),
                }
            }
            Phase::Query | Phase::Key | Phase::Value => {
                let (w, m) = match self.phase {
                    Phase::Query => (M::WQ, M::Q),
                    Phase::Key => (M::WK, M::K),
                    _ => (M::WV, M::V),
                };
                out.push(hl(M::X, None, Cells::All, Source));
                if trace.positional == Positional::OneHot {
                    // What is multiplied is [X | E].
                    out.push(hl(M::Input, None, Cells::All, Source));
                }
                out.push(hl(w, head, Cells::All, Source));
                out.push(hl(m, head, Cells::All, Result));
            }
            Phase::Scores { i, j } => match (i, j) {
                (Some(i), Some(j)) => {
                    let d_k = head
                        .and_then(|r| trace.heads.get(r))
                        .map_or(1, |h| h.q.ncols());
                    let c = ((progress * d_k as f64) as usize).min(d_k.saturating_sub(1));
                    out.push(hl(M::Q, head, Cells::Row(i), Source));
                    out.push(hl(M::K, head, Cells::Row(j), Source));
                    out.push(hl(M::Q, head, Cells::Cell(i, c), Result));
                    out.push(hl(M::K, head, Cells::Cell(j, c), Result));
                    out.push(hl(M::Scores, head, Cells::Cell(i, j), Result));
                }
                _ => {
                    out.push(hl(M::Q, head, rows(i), Source));
                    out.push(hl(M::K, head, Cells::All, Source));
                    out.push(hl(M::Scores, head, rows(i), Result));
                }
            },
            Phase::Scale { i } => {
                out.push(hl(M::Scores, head, rows(i), Source));
                out.push(hl(M::Scaled, head, rows(i), Result));
            }
            Phase::Mask { i } => {
                out.push(hl(M::Scaled, head, rows(i), Source));
                let n = trace.n();
                for q in i.map_or(0..n, |i| i..i + 1) {
                    for k in 0..n {
                        if !trace.allowed[(q, k)] {
                            out.push(hl(M::Scaled, head, Cells::Cell(q, k), Masked));
                            out.push(hl(M::Weights, head, Cells::Cell(q, k), Masked));
                        }
                    }
                }
            }
            Phase::Softmax { i } => {
                out.push(hl(M::Scaled, head, rows(i), Source));
                out.push(hl(M::Weights, head, rows(i), Result));
            }
            Phase::WeightedSum { i } => {
                out.push(hl(M::Weights, head, rows(i), Source));
                match (i, head.and_then(|r| trace.heads.get(r))) {
                    (Some(i), Some(h)) => {
                        for j in 0..trace.n() {
                            let w = h.weights[(i, j)];
                            if w.is_finite() && w > 0.0 {
                                out.push(Highlight {
                                    weight: Some(w),
                                    ..hl(M::V, head, Cells::Row(j), Source)
                                });
                            }
                        }
                    }
                    _ => out.push(hl(M::V, head, Cells::All, Source)),
                }
                out.push(hl(M::HeadOutput, head, rows(i), Result));
            }
            Phase::MatrixForm => {
                for m in [M::Q, M::K, M::V] {
                    out.push(hl(m, head, Cells::All, Source));
                }
                for m in [M::Scores, M::Scaled, M::Weights, M::HeadOutput] {
                    out.push(hl(m, head, Cells::All, Result));
                }
            }
            Phase::Concat => {
                for r in 0..trace.heads.len() {
                    out.push(hl(M::HeadOutput, Some(r), Cells::All, Source));
                }
                out.push(hl(M::Concat, None, Cells::All, Result));
            }
            Phase::Output => {
                out.push(hl(M::Concat, None, Cells::All, Source));
                out.push(hl(M::WO, None, Cells::All, Source));
                out.push(hl(M::Output, None, Cells::All, Result));
            }
        }
        out
    }
}

/// A number as subscript digits, as the notes write α₁,₂.
pub fn subscript(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|d| ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'][d as usize - '0' as usize])
        .collect()
}

/// A position as superscript digits, as the notes write q¹, k², b³.
pub fn sup(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|d| ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize - '0' as usize])
        .collect()
}

#[cfg(test)]
mod tests;

/// The walkthrough's whole state, independent of the DOM: which timeline,
/// the clock, the current step and (inside a dot product) which pair is lit.
/// Every method takes the real time `now` (ms) as an input.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Shared, so a player is cheap to clone (one state per animation frame).
    pub timeline: Rc<Timeline>,
    pub granularity: Granularity,
    pub clock: Clock,
    pub step: usize,
    /// Which pair of a dot product is lit (0 otherwise).
    pub sub: usize,
    /// How many pairs each step has (d_k for dot products, else 1).
    subs: Rc<[usize]>,
}

impl Player {
    /// A paused player at `step` (0-based, clamped).
    pub fn new(
        trace: &Trace,
        granularity: Granularity,
        has_w_o: bool,
        step: usize,
        speed: f64,
    ) -> Player {
        let mut p = Player {
            timeline: Rc::new(Timeline::new(trace, granularity, has_w_o)),
            granularity,
            clock: Clock::paused_at(0.0, speed),
            step: 0,
            sub: 0,
            subs: Rc::from(Vec::new()),
        };
        p.subs = subs(&p.timeline, trace).into();
        p.go(step, 0.0);
        p
    }

    /// A new trace or granularity: rebuild the steps and stay on the same
    /// moment of the computation (the same head, phase and query where the
    /// new steps have it; else the same step number, clamped), playing or not.
    pub fn rebuild(&mut self, trace: &Trace, granularity: Granularity, has_w_o: bool, now: f64) {
        let old = self.current();
        let index = self.step;
        self.timeline = Rc::new(Timeline::new(trace, granularity, has_w_o));
        self.granularity = granularity;
        self.subs = subs(&self.timeline, trace).into();
        let step = self.timeline.equivalent(old).unwrap_or(index);
        self.go(step, now);
    }

    /// Jump to the start of step `k` (clamped).
    pub fn go(&mut self, k: usize, now: f64) {
        self.step = k.min(self.timeline.len().saturating_sub(1));
        self.sub = 0;
        self.clock = self.clock.seek(self.timeline.start_of(self.step), now);
    }

    /// Play or pause; playing at the end starts again from the beginning.
    pub fn toggle(&mut self, now: f64) {
        if self.clock.playing {
            self.clock = self.clock.pause(now);
        } else {
            if self.clock.at(now) >= self.timeline.total() {
                self.go(0, now);
            }
            self.clock = self.clock.play(now);
        }
    }

    pub fn set_speed(&mut self, speed: f64, now: f64) {
        self.clock = self.clock.set_speed(speed, now);
    }

    /// Advance to real time `now`. Returns whether what is shown changed
    /// (step, lit pair, or playing stopped at the end). With `reduce_motion`
    /// the pairs of a dot product are not stepped through.
    pub fn tick(&mut self, now: f64, reduce_motion: bool) -> bool {
        let t = self.clock.at(now);
        let (step, progress) = self.timeline.position(t);
        let n = self.subs.get(step).copied().unwrap_or(1).max(1);
        let sub = if reduce_motion {
            0
        } else {
            ((progress * n as f64) as usize).min(n - 1)
        };
        let ended = self.clock.playing && t >= self.timeline.total();
        if ended {
            self.clock = self.clock.pause(now);
        }
        let changed = (step, sub) != (self.step, self.sub) || ended;
        self.step = step;
        self.sub = sub;
        changed
    }

    /// The current step's progress as the highlights use it: the middle of
    /// the lit pair's share of the step.
    pub fn progress(&self) -> f64 {
        let n = self.subs.get(self.step).copied().unwrap_or(1).max(1);
        (self.sub as f64 + 0.5) / n as f64
    }

    /// The current step.
    pub fn current(&self) -> Step {
        self.timeline.steps[self.step]
    }
}

fn subs(tl: &Timeline, trace: &Trace) -> Vec<usize> {
    tl.steps
        .iter()
        .map(
            |s| match (s.phase, s.head.and_then(|r| trace.heads.get(r))) {
                (
                    Phase::Scores {
                        i: Some(_),
                        j: Some(_),
                    },
                    Some(h),
                ) => h.q.ncols(),
                _ => 1,
            },
        )
        .collect()
}

#[cfg(test)]
mod player_tests {
    use super::*;
    use crate::presets;
    use attention::compute;

    /// Note 004's example with scaling on (one ÷√d_k step per query).
    fn notes_004() -> attention::Scenario {
        let mut s = presets::notes_004();
        s.scale = true;
        s
    }

    fn player(g: Granularity, speed: f64) -> Player {
        Player::new(&compute(&notes_004()).unwrap(), g, false, 0, speed)
    }

    #[test]
    fn steps_reached_scale_with_speed() {
        // After the same real time, 1.5× is three times as far as 0.5×.
        for (speed, real) in [(0.5, 5400.0), (1.0, 2700.0), (1.5, 1800.0)] {
            let mut p = player(Granularity::Matrix, speed);
            p.toggle(0.0);
            p.tick(real, false);
            // 2700 virtual ms = one and a half steps of 1800 ms.
            assert_eq!(p.step, 1, "speed {speed}");
            assert_eq!(p.clock.at(real), 2700.0);
        }
    }

    #[test]
    fn tick_reports_only_changes_and_stops_at_the_end() {
        let mut p = player(Granularity::Matrix, 1.0);
        p.toggle(0.0);
        assert!(!p.tick(100.0, false));
        assert!(p.tick(1900.0, false));
        assert_eq!(p.step, 1);
        assert!(!p.tick(2000.0, false));
        let end = p.timeline.total() + 10.0;
        assert!(p.tick(end, false));
        assert!(!p.clock.playing);
        assert_eq!(p.step, p.timeline.len() - 1);
        // Play at the end starts over.
        p.toggle(end);
        assert_eq!(p.step, 0);
        assert!(p.clock.playing);
    }

    #[test]
    fn a_dot_product_steps_through_its_pairs_unless_motion_is_reduced() {
        let mut p = player(Granularity::Dot, 1.0);
        p.go(4, 0.0); // α(1,1), d_k = 3
        assert_eq!(
            p.current().phase,
            Phase::Scores {
                i: Some(0),
                j: Some(0)
            }
        );
        p.toggle(0.0);
        let d = duration(p.current().phase);
        assert!(p.tick(d * 0.5, false));
        assert_eq!(p.sub, 1);
        assert!((p.progress() - 0.5).abs() < 1e-12);
        let mut q = player(Granularity::Dot, 1.0);
        q.go(4, 0.0);
        q.toggle(0.0);
        assert!(!q.tick(d * 0.5, true));
        assert_eq!(q.sub, 0);
    }

    #[test]
    fn changing_granularity_stays_on_the_same_moment() {
        let t = compute(&notes_004()).unwrap();
        // Dot step 12 is α(2,2): query 2's scores.
        let mut p = Player::new(&t, Granularity::Dot, false, 11, 1.0);
        assert_eq!(
            p.current().phase,
            Phase::Scores {
                i: Some(1),
                j: Some(1)
            }
        );
        p.rebuild(&t, Granularity::Row, false, 50.0);
        assert_eq!(
            p.current().phase,
            Phase::Scores {
                i: Some(1),
                j: None
            }
        );
        assert_eq!(p.clock.at(50.0), p.timeline.start_of(p.step));
        p.rebuild(&t, Granularity::Matrix, false, 60.0);
        assert_eq!(p.current().phase, Phase::Scores { i: None, j: None });
        p.rebuild(&t, Granularity::Dot, false, 70.0);
        assert_eq!(
            p.current().phase,
            Phase::Scores {
                i: Some(0),
                j: Some(0)
            }
        );
        // A step with no counterpart keeps its number, clamped.
        let mut p = Player::new(&t, Granularity::Row, false, 16, 1.0);
        assert_eq!(p.current().phase, Phase::MatrixForm);
        p.rebuild(&t, Granularity::Matrix, false, 0.0);
        assert_eq!(p.step, 8); // the last of 9
    }

    #[test]
    fn an_edit_keeps_the_step_even_when_mask_steps_come_and_go() {
        let t = compute(&notes_004()).unwrap();
        let mut edited = notes_004();
        edited.x[(0, 0)] = 5.0;
        let mut p = Player::new(&t, Granularity::Row, false, 6, 1.0);
        p.toggle(0.0);
        p.rebuild(&compute(&edited).unwrap(), Granularity::Row, false, 10.0);
        assert_eq!(p.step, 6);
        assert!(p.clock.playing);
        // A causal mask adds mask steps for queries 1 and 2: query 2's
        // softmax moves from step 11 to step 13, and the player follows it.
        let mut p = Player::new(&t, Granularity::Row, false, 10, 1.0);
        assert_eq!(p.current().phase, Phase::Softmax { i: Some(1) });
        edited.mask = attention::Mask::Causal;
        p.rebuild(&compute(&edited).unwrap(), Granularity::Row, false, 0.0);
        assert_eq!(p.current().phase, Phase::Softmax { i: Some(1) });
        assert_eq!(p.step, 12);
    }

    #[test]
    fn changing_speed_mid_step_keeps_the_position() {
        let mut p = player(Granularity::Matrix, 1.0);
        p.toggle(0.0);
        p.tick(900.0, false);
        let before = p.clock.at(900.0);
        p.set_speed(1.5, 900.0);
        assert_eq!(p.clock.at(900.0), before);
        assert!(!p.tick(900.0, false));
        assert_eq!(p.step, 0);
    }
}
