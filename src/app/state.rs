//! The one reducer. Every change to what the page shows is an [`Action`];
//! `reduce` is pure (it computes the trace, which is pure too) and does no
//! I/O: storage and URL updates are effects in the components.
//!
//! A scenario that fails validation never replaces the one on screen: the
//! state keeps the last good scenario and carries an [`Alert`] instead.

use super::i18n::Lang;
use super::url::LinkError;
use crate::attention::{compute_stack, Scenario, StackTrace, Trace};
use crate::lesson::edit::{apply, Edit};
use crate::lesson::names::{Convention, MatrixName};
use crate::lesson::presets::{default_scenario_in, Preset, WIDE_DIMS};
use std::rc::Rc;
use yew::Reducible;

/// How many steps undo remembers.
pub const HISTORY: usize = 200;
/// How many numbers the undo history may hold in all (64 MB of f64): at
/// d_model 512 one scenario is a million numbers, and 200 of them would not
/// fit in the page's memory. The last step is always kept.
pub const HISTORY_NUMBERS: usize = 8 << 20;

/// Where a refused scenario or edit came from (the alert says so).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Link,
    Import,
    Edit,
}

/// A message the user must see (rendered with `role="alert"`).
#[derive(Clone, Debug, PartialEq)]
pub enum Alert {
    /// A `#s=` link could not be opened; the reader's own scenario (or the
    /// default when there is none) stays on screen.
    BadLink(LinkError),
    /// An imported file or an edit was refused; nothing changed.
    Refused(Source, Refusal),
    /// The other language's words could not be fetched (the browser's
    /// release build fetches each language's words when it is first
    /// shown): the page stays in its language.
    LangUnavailable,
}

/// Every layer's trace, each shared on its own (a heatmap or a head keeps
/// its layer's trace without copying it), and each layer's output.
#[derive(Clone, Debug, PartialEq)]
pub struct Layers {
    pub traces: Vec<Rc<Trace>>,
    /// `O_l` per layer; the last is the scenario's output.
    pub outputs: Vec<crate::attention::Matrix>,
}

impl Layers {
    pub fn of(stack: StackTrace) -> Rc<Layers> {
        Rc::new(Layers {
            traces: stack.layers.into_iter().map(Rc::new).collect(),
            outputs: stack.outputs,
        })
    }

    /// The scenario's output, the last layer's.
    pub fn output(&self) -> &crate::attention::Matrix {
        self.outputs.last().expect("a stack has at least one layer")
    }

    /// The engine's [`StackTrace`] again (for the results file).
    pub fn to_stack(&self) -> StackTrace {
        StackTrace {
            layers: self.traces.iter().map(|t| (**t).clone()).collect(),
            outputs: self.outputs.clone(),
        }
    }
}

pub use super::refusal::Refusal;

/// A quiet note (rendered with `role="status"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Another tab saved newer work, which this tab now shows.
    OtherTab,
}

/// The cell whose derivation is shown ("show your work"); row-vector
/// orientation, head 0-based (0 for matrices that belong to no head).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selected {
    pub name: MatrixName,
    pub head: usize,
    pub row: usize,
    pub col: usize,
}

/// One entry of the undo/redo history: a scenario and the preset (and
/// seed) it was known as, so undo also restores the preset's name.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub scenario: Rc<Scenario>,
    pub preset: Option<Preset>,
    pub seed: u64,
}

/// The menu preset `s` is exactly, if any.
fn preset_of(s: &Scenario) -> Option<Preset> {
    Preset::MENU
        .iter()
        .copied()
        // The wide preset is a million numbers: built only to compare with a
        // scenario of its shape.
        .filter(|p| {
            !matches!(p, Preset::Wide(_))
                || (s.n(), s.d_model()) == (WIDE_DIMS.n, WIDE_DIMS.d_model)
        })
        .find(|p| [Lang::Zh, Lang::En].iter().any(|l| p.build_in(*l) == *s))
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub lang: Lang,
    pub convention: Convention,
    pub scenario: Rc<Scenario>,
    /// Every layer's trace and output (docs/format.md §1b); the last
    /// output is the scenario's.
    pub stack: Rc<Layers>,
    pub alert: Option<Alert>,
    /// Earlier scenarios, most recent last.
    pub undo: Vec<Snapshot>,
    /// Scenarios undone, most recent last.
    pub redo: Vec<Snapshot>,
    /// Fills new cells when a dimension grows; the random preset's seed.
    pub seed: u64,
    /// The preset the scenario started from, if any.
    pub preset: Option<Preset>,
    /// Kept across edits; the view ignores it when the cell no longer exists.
    pub selected: Option<Selected>,
    /// The reader's own work that a link (or another tab) replaced: kept in
    /// storage under its own key and offered back ("Back to my previous
    /// work", hidden while it is on screen) until it is restored, or the
    /// reader goes back to it by Undo and edits on from there.
    pub previous: Option<Rc<Scenario>>,
    /// Counts changes of the scenario made in this tab, which the page
    /// saves; 0 means nothing is to be written (a broken link writes
    /// nothing, and neither does merely opening the page).
    pub saves: u64,
    /// Counts changes of `previous`, which the page writes (or removes).
    pub previous_saves: u64,
    pub notice: Option<Notice>,
    /// Saving failed (storage full or blocked): said once, quietly.
    pub storage_failed: bool,
}

/// Every change the page can make.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Show the page in another language.
    SetLang(Lang),
    /// Show matrices with positions as rows or as columns.
    SetConvention(Convention),
    /// Change the scenario (one number, a paste, a dimension, an option).
    Edit(Edit),
    /// Open a preset (undoable).
    LoadPreset(Preset),
    /// Replace the scenario (an import, a pasted link; undoable). An invalid
    /// one is refused and the current scenario stays.
    Load(Scenario, Source),
    /// A `#s=` link was broken: show why; the scenario on screen stays.
    BadLink(LinkError),
    /// The other language's words could not be fetched: say so.
    LangUnavailable,
    /// Open the work a link or another tab replaced (undoable).
    RestorePrevious,
    /// Another tab saved this scenario: show it, keeping this tab's
    /// scenario as the previous work. Nothing is saved for it.
    Foreign(Scenario),
    /// Saving failed (storage full or blocked).
    StorageFailed,
    /// Something (an import) was refused before it became a scenario.
    Refuse(Source, Refusal),
    Undo,
    Redo,
    /// Show the derivation of a cell (or close it).
    Select(Option<Selected>),
    /// Close the alert.
    DismissAlert,
}

impl State {
    /// Layer 1's trace (the whole scenario's when it has one layer): most of
    /// the page draws one layer.
    pub fn trace(&self) -> &Rc<Trace> {
        &self.stack.traces[0]
    }

    /// The opening state: the link's scenario, else the stored one, else
    /// the default. A broken link (or one whose numbers cannot be computed)
    /// shows an alert and opens the stored scenario, else the default, and
    /// marks nothing to save. A valid link that replaces different stored
    /// work keeps that work as [`State::previous`] (saved under its own key
    /// before the link's scenario is saved) and one Undo away; a previous
    /// work saved by an earlier visit (`previous`) is offered the same way.
    pub fn start(
        lang: Lang,
        convention: Convention,
        link: Option<Result<Scenario, LinkError>>,
        stored: Option<Scenario>,
        previous: Option<Scenario>,
    ) -> State {
        let own = stored.filter(|s| compute_stack(s).is_ok());
        let fallback = || own.clone().unwrap_or_else(|| default_scenario_in(lang));
        let (scenario, alert, linked) = match link {
            Some(Ok(s)) => match compute_stack(&s) {
                Ok(_) => (s, None, true),
                Err(e) => (
                    fallback(),
                    Some(Alert::BadLink(LinkError::Invalid(e))),
                    false,
                ),
            },
            Some(Err(e)) => (fallback(), Some(Alert::BadLink(e)), false),
            None => (fallback(), None, false),
        };
        let stack = Layers::of(
            compute_stack(&scenario).expect("a link, stored or default scenario that computes"),
        );
        // Name the preset when the scenario is exactly one (the first visit).
        let preset = preset_of(&scenario);
        // A link different from the stored work is saved (after that work is
        // kept as the previous one).
        let saves = u64::from(linked && own.as_ref() != Some(&scenario));
        let replaced = own.filter(|o| linked && *o != scenario);
        let previous_saves = u64::from(replaced.is_some());
        let previous = replaced
            .or(previous.filter(|p| compute_stack(p).is_ok()))
            .filter(|p| *p != scenario);
        let undo = previous
            .iter()
            .map(|p| Snapshot {
                preset: preset_of(p),
                scenario: Rc::new(p.clone()),
                seed: 1,
            })
            .collect();
        State {
            lang,
            convention,
            scenario: Rc::new(scenario),
            stack,
            alert,
            undo,
            redo: Vec::new(),
            seed: 1,
            preset,
            selected: None,
            previous: previous.map(Rc::new),
            saves,
            previous_saves,
            notice: None,
            storage_failed: false,
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            scenario: self.scenario.clone(),
            preset: self.preset,
            seed: self.seed,
        }
    }

    /// The state showing `next` (already validated), with the current
    /// scenario pushed onto the undo history. The preset is named only when
    /// `next` is exactly one (an edited preset is no longer that preset).
    fn with_scenario(&self, next: Scenario, stack: StackTrace) -> State {
        let stack = Layers::of(stack);
        let mut undo = self.undo.clone();
        undo.push(self.snapshot());
        let mut numbers: usize = undo.iter().map(|u| u.scenario.numbers()).sum();
        while undo.len() > 1 && (undo.len() > HISTORY || numbers > HISTORY_NUMBERS) {
            numbers -= undo.remove(0).scenario.numbers();
        }
        State {
            preset: preset_of(&next),
            scenario: Rc::new(next),
            stack,
            alert: None,
            notice: None,
            undo,
            redo: Vec::new(),
            ..self.clone()
        }
    }

    fn refused(&self, source: Source, e: Refusal) -> State {
        State {
            alert: Some(Alert::Refused(source, e)),
            ..self.clone()
        }
    }

    /// Replace the scenario if it is valid (undoable), else refuse it.
    fn load(&self, s: Scenario, source: Source) -> State {
        if s == *self.scenario {
            return State {
                alert: None,
                ..self.clone()
            };
        }
        match compute_stack(&s) {
            Ok(t) => self.with_scenario(s, t),
            Err(e) => self.refused(source, Refusal::Scenario(e)),
        }
    }

    /// Move one step through history: `from` loses its last entry, `to`
    /// gains the current scenario.
    fn travel(&self, back: bool) -> Option<State> {
        let (mut from, mut to) = if back {
            (self.undo.clone(), self.redo.clone())
        } else {
            (self.redo.clone(), self.undo.clone())
        };
        let target = from.pop()?;
        let stack = Layers::of(compute_stack(&target.scenario).ok()?);
        to.push(self.snapshot());
        let (undo, redo) = if back { (from, to) } else { (to, from) };
        Some(State {
            scenario: target.scenario,
            preset: target.preset,
            seed: target.seed,
            stack,
            alert: None,
            undo,
            redo,
            ..self.clone()
        })
    }
}

impl Reducible for State {
    type Action = Action;

    /// [`State::step`], then the bookkeeping every action shares: a changed
    /// scenario is to be saved (unless another tab saved it), and the
    /// previous work stops being offered once it is on screen again.
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let foreign = matches!(action, Action::Foreign(_));
        let travel = matches!(action, Action::Undo | Action::Redo);
        let next = self.clone().step(action);
        if Rc::ptr_eq(&next, &self) {
            return next;
        }
        let mut next = Rc::unwrap_or_clone(next);
        if !Rc::ptr_eq(&next.scenario, &self.scenario) && !foreign {
            next.saves += 1;
        }
        // Back at the previous work (by Undo) and going on from there: it
        // is the current work again. (Undo and Redo alone keep the offer.)
        if !travel && self.previous.as_deref() == Some(&*self.scenario) {
            next.previous = None;
        }
        let same_previous = match (&next.previous, &self.previous) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same_previous {
            next.previous_saves += 1;
        }
        Rc::new(next)
    }
}

impl State {
    fn step(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match action {
            // An untouched preset follows the language of its labels.
            Action::SetLang(lang) if lang != self.lang => {
                let relabelled = preset_of(&self.scenario)
                    .map(|p| p.build_in(lang))
                    .filter(|s| *s != *self.scenario)
                    .and_then(|s| compute_stack(&s).ok().map(|t| (s, Layers::of(t))));
                match relabelled {
                    Some((scenario, stack)) => State {
                        lang,
                        scenario: Rc::new(scenario),
                        stack,
                        ..(*self).clone()
                    },
                    None => State {
                        lang,
                        ..(*self).clone()
                    },
                }
            }
            Action::SetConvention(c) if c != self.convention => State {
                convention: c,
                ..(*self).clone()
            },
            Action::SetLang(_) | Action::SetConvention(_) => return self,
            Action::Edit(edit) => match apply(&self.scenario, &edit, self.seed) {
                Ok(s) if s == *self.scenario => return self,
                Ok(s) => match compute_stack(&s) {
                    Ok(t) => self.with_scenario(s, t),
                    Err(e) => self.refused(Source::Edit, Refusal::Scenario(e)),
                },
                Err(e) => self.refused(Source::Edit, Refusal::Edit(e)),
            },
            Action::LoadPreset(p) => {
                let mut next = self.load(p.build_in(self.lang), Source::Import);
                next.preset = Some(p);
                if let Some(seed) = p.seed() {
                    next.seed = seed;
                }
                next
            }
            // A valid link keeps the work it replaces as the previous work.
            Action::Load(s, Source::Link) => {
                let mut next = self.load(s, Source::Link);
                if !Rc::ptr_eq(&next.scenario, &self.scenario) {
                    next.previous = Some(self.scenario.clone());
                }
                next
            }
            Action::Load(s, source) => self.load(s, source),
            Action::BadLink(e) => State {
                alert: Some(Alert::BadLink(e)),
                ..(*self).clone()
            },
            Action::LangUnavailable => State {
                alert: Some(Alert::LangUnavailable),
                ..(*self).clone()
            },
            Action::RestorePrevious => match self.previous.clone() {
                Some(p) => State {
                    previous: None,
                    ..self.load((*p).clone(), Source::Import)
                },
                None => return self,
            },
            Action::Foreign(s) if s != *self.scenario => match compute_stack(&s) {
                Ok(t) => {
                    let mut next = self.with_scenario(s, t);
                    next.previous = Some(self.scenario.clone());
                    next.notice = Some(Notice::OtherTab);
                    next
                }
                Err(_) => return self,
            },
            Action::Foreign(_) => return self,
            Action::StorageFailed if !self.storage_failed => State {
                storage_failed: true,
                ..(*self).clone()
            },
            Action::StorageFailed => return self,
            Action::Refuse(source, e) => self.refused(source, e),
            Action::Undo => match self.travel(true) {
                Some(s) => s,
                None => return self,
            },
            Action::Redo => match self.travel(false) {
                Some(s) => s,
                None => return self,
            },
            Action::Select(sel) if sel != self.selected => State {
                selected: sel,
                ..(*self).clone()
            },
            Action::Select(_) => return self,
            Action::DismissAlert if self.alert.is_some() || self.notice.is_some() => State {
                alert: None,
                notice: None,
                ..(*self).clone()
            },
            Action::DismissAlert => return self,
        };
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::Matrix;
    use crate::lesson::edit::{Dim, Target};
    use crate::lesson::presets::default_scenario;
    use crate::lesson::presets::notes_004;

    fn start() -> Rc<State> {
        Rc::new(State::start(Lang::En, Convention::Row, None, None, None))
    }

    fn cell(value: f64) -> Action {
        Action::Edit(Edit::Cell {
            target: Target::X,
            row: 0,
            col: 1,
            value,
        })
    }

    #[test]
    fn broken_link_without_saved_work_shows_alert_and_default() {
        let s = State::start(
            Lang::En,
            Convention::Row,
            Some(Err(LinkError::NotBase64)),
            None,
            None,
        );
        assert_eq!(s.alert, Some(Alert::BadLink(LinkError::NotBase64)));
        assert_eq!(*s.scenario, default_scenario());
        assert_eq!(s.preset, Some(Preset::Notes004));
    }

    #[test]
    fn words_that_cannot_be_fetched_leave_the_language_and_the_work_and_say_so() {
        let s = start().reduce(cell(7.0));
        let after = s.clone().reduce(Action::LangUnavailable);
        assert_eq!(after.alert, Some(Alert::LangUnavailable));
        assert_eq!(after.lang, Lang::En);
        assert_eq!(after.scenario, s.scenario);
        assert_eq!(after.undo.len(), 1);
        let dismissed = after.reduce(Action::DismissAlert);
        assert_eq!(dismissed.alert, None);
    }

    #[test]
    fn presets_are_labelled_in_the_page_language() {
        let zh = State::start(Lang::Zh, Convention::Row, None, None, None);
        assert_eq!(zh.scenario.tokens, ["输入 1", "输入 2", "输入 3"]);
        assert_eq!(zh.preset, Some(Preset::Notes004));
        // Switching language relabels the untouched preset, nothing else.
        let en = Rc::new(zh).reduce(Action::SetLang(Lang::En));
        assert_eq!(en.scenario.tokens, ["input 1", "input 2", "input 3"]);
        assert_eq!(en.scenario.x, default_scenario().x);
        let edited = en.reduce(cell(2.0));
        let zh = edited.clone().reduce(Action::SetLang(Lang::Zh));
        assert_eq!(zh.scenario, edited.scenario);
        assert_eq!(zh.lang, Lang::Zh);
    }

    #[test]
    fn a_link_wins_over_storage_and_storage_over_the_default() {
        let stored = Preset::Uniform.build();
        let linked = Preset::SelfAttend.build();
        let s = State::start(
            Lang::En,
            Convention::Row,
            Some(Ok(linked.clone())),
            Some(stored.clone()),
            None,
        );
        assert_eq!(*s.scenario, linked);
        let s = State::start(Lang::En, Convention::Row, None, Some(stored.clone()), None);
        assert_eq!(*s.scenario, stored);
        let mut bad = stored;
        bad.format = "x".into();
        let s = State::start(Lang::En, Convention::Row, None, Some(bad), None);
        assert_eq!(*s.scenario, default_scenario());
    }

    #[test]
    fn an_edit_recomputes_everything_downstream() {
        let after = start().reduce(cell(2.0));
        let mut expected = notes_004();
        expected.x[(0, 1)] = 2.0;
        assert_eq!(*after.scenario, expected);
        assert_eq!(
            **after.trace(),
            crate::attention::compute(&expected).unwrap()
        );
        assert_ne!(after.trace().output, start().trace().output);
    }

    #[test]
    fn invalid_edits_keep_the_scenario_and_say_why() {
        let s = start();
        let after = s.clone().reduce(Action::Edit(Edit::Resize {
            dim: Dim::N,
            size: 0,
        }));
        assert_eq!(after.scenario, s.scenario);
        assert!(matches!(&after.alert, Some(Alert::Refused(Source::Edit, e)) if e.field() == "n"));
        let mut bad = notes_004();
        bad.heads[0].w_k = Matrix::zeros(4, 2);
        let after = s.clone().reduce(Action::Load(bad, Source::Import));
        assert_eq!(after.scenario, s.scenario);
        assert!(
            matches!(&after.alert, Some(Alert::Refused(Source::Import, e)) if e.field() == "heads[0].w_k")
        );
        assert!(after.undo.is_empty());
    }

    #[test]
    fn undo_and_redo_walk_the_history() {
        let s0 = start();
        let s1 = s0.clone().reduce(cell(2.0));
        let s2 = s1.clone().reduce(Action::Edit(Edit::Resize {
            dim: Dim::Heads,
            size: 2,
        }));
        let s3 = s2.clone().reduce(Action::LoadPreset(Preset::Uniform));
        assert_eq!(s3.undo.len(), 3);
        assert_eq!(s3.preset, Some(Preset::Uniform));
        let u1 = s3.clone().reduce(Action::Undo);
        assert_eq!(u1.scenario, s2.scenario);
        // Undo restores the preset's name too: two heads is no preset.
        assert_eq!(u1.preset, None);
        let u2 = u1.reduce(Action::Undo);
        assert_eq!(u2.scenario, s1.scenario);
        assert_eq!(*u2.trace(), *s1.trace());
        let r1 = u2.clone().reduce(Action::Redo);
        assert_eq!(r1.scenario, s2.scenario);
        // A new edit after undo forgets the redo branch.
        let branch = u2.reduce(cell(3.0));
        assert!(branch.redo.is_empty());
        // Nothing to undo: the same state.
        assert!(Rc::ptr_eq(&s0, &s0.clone().reduce(Action::Undo)));
        assert!(Rc::ptr_eq(&s3, &s3.clone().reduce(Action::Redo)));
    }

    #[test]
    fn one_hot_positions_and_their_resizes_undo_like_any_edit() {
        use crate::attention::Positional;
        let s0 = start();
        let s1 = s0
            .clone()
            .reduce(Action::Edit(Edit::Positional(Positional::OneHot)));
        let d = s0.scenario.d_model() + s0.scenario.n();
        assert_eq!(s1.scenario.heads[0].w_q.nrows(), d);
        assert_eq!(s1.trace().input.ncols(), d);
        let s2 = s1.clone().reduce(Action::Edit(Edit::Resize {
            dim: Dim::N,
            size: s0.scenario.n() + 1,
        }));
        assert_eq!(s2.scenario.heads[0].w_k.nrows(), d + 1);
        let u1 = s2.reduce(Action::Undo);
        assert_eq!(u1.scenario, s1.scenario);
        let u0 = u1.reduce(Action::Undo);
        assert_eq!(u0.scenario, s0.scenario);
        assert_eq!(*u0.trace(), *s0.trace());
        assert_eq!(u0.reduce(Action::Redo).scenario, s1.scenario);
    }

    #[test]
    fn history_is_bounded() {
        let mut s = start();
        for i in 0..(HISTORY + 20) {
            s = s.reduce(cell(i as f64 + 10.0));
        }
        assert_eq!(s.undo.len(), HISTORY);
    }

    #[test]
    fn history_of_wide_scenarios_is_bounded_by_its_numbers() {
        let mut s = start().reduce(Action::LoadPreset(Preset::Wide(2)));
        assert_eq!((s.preset, s.seed), (Some(Preset::Wide(2)), 2));
        for i in 0..10 {
            s = s.reduce(cell(i as f64 + 10.0));
        }
        let held: usize = s.undo.iter().map(|u| u.scenario.numbers()).sum();
        assert!(held <= HISTORY_NUMBERS, "{held} numbers held");
        assert!((2..10).contains(&s.undo.len()), "{} steps", s.undo.len());
        // The most recent steps are the ones kept.
        let back = s.reduce(Action::Undo);
        assert_eq!(back.scenario.x[(0, 1)], 18.0);
    }

    #[test]
    fn an_edit_that_changes_nothing_is_not_a_step() {
        let s = start();
        let same = s.clone().reduce(cell(0.0));
        assert!(Rc::ptr_eq(&s, &same));
    }

    #[test]
    fn presets_are_named_only_while_the_scenario_is_one() {
        let s = start();
        assert_eq!(s.preset, Some(Preset::Notes004));
        let edited = s.clone().reduce(cell(2.0));
        assert_eq!(edited.preset, None, "an edited preset is not that preset");
        let back = edited.reduce(Action::Undo);
        assert_eq!(back.preset, Some(Preset::Notes004));
        let imported = s.reduce(Action::Load(Preset::SelfAttend.build(), Source::Import));
        assert_eq!(imported.preset, Some(Preset::SelfAttend));
        let r = imported.reduce(Action::LoadPreset(Preset::Random(42)));
        let u = r.clone().reduce(Action::Undo).reduce(Action::Redo);
        assert_eq!((u.preset, u.seed), (Some(Preset::Random(42)), 42));
    }

    #[test]
    fn a_link_keeps_the_saved_work_one_undo_away() {
        let saved = Preset::Uniform.build();
        let linked = Preset::SelfAttend.build();
        let s = Rc::new(State::start(
            Lang::En,
            Convention::Row,
            Some(Ok(linked.clone())),
            Some(saved.clone()),
            None,
        ));
        assert_eq!(*s.scenario, linked);
        let back = s.reduce(Action::Undo);
        assert_eq!(*back.scenario, saved);
        assert_eq!(back.preset, Some(Preset::Uniform));
    }

    /// The reader's own work: note 004 with X[0][0] = 7.
    fn work() -> Scenario {
        let mut s = notes_004();
        s.x[(0, 0)] = 7.0;
        s
    }

    /// A page open on the reader's saved work.
    fn open_with_work() -> Rc<State> {
        Rc::new(State::start(
            Lang::En,
            Convention::Row,
            None,
            Some(work()),
            None,
        ))
    }

    #[test]
    fn a_broken_link_opens_the_saved_work_and_saves_nothing() {
        let mut overflow = notes_004();
        overflow.x[(0, 0)] = 1e300;
        overflow.heads[0].w_q[(0, 0)] = 1e300;
        for link in [
            Err(LinkError::NotBase64),
            Err(LinkError::TooLong { limit: 1, got: 2 }),
            Ok(overflow),
        ] {
            let s = State::start(Lang::En, Convention::Row, Some(link), Some(work()), None);
            assert_eq!(*s.scenario, work());
            assert!(matches!(s.alert, Some(Alert::BadLink(_))), "{:?}", s.alert);
            assert_eq!((s.saves, s.previous_saves), (0, 0), "nothing to write");
            assert_eq!(s.previous, None);
        }
        // Pasted into an open page: the alert, and the work stays.
        let open = open_with_work();
        let after = open.clone().reduce(Action::BadLink(LinkError::NotUtf8));
        assert_eq!(*after.scenario, work());
        assert_eq!(after.alert, Some(Alert::BadLink(LinkError::NotUtf8)));
        assert_eq!((after.saves, after.previous_saves), (0, 0));
    }

    #[test]
    fn a_valid_link_keeps_the_work_it_replaces_recoverable() {
        let linked = Preset::SelfAttend.build();
        let s = Rc::new(State::start(
            Lang::En,
            Convention::Row,
            Some(Ok(linked.clone())),
            Some(work()),
            None,
        ));
        assert_eq!(*s.scenario, linked);
        assert_eq!(s.previous.as_deref(), Some(&work()));
        // Both are written: the previous work first (the page's effect),
        // then the link's scenario.
        assert_eq!((s.saves, s.previous_saves), (1, 1));
        let back = s.clone().reduce(Action::RestorePrevious);
        assert_eq!(*back.scenario, work());
        assert_eq!(back.previous, None, "no longer offered once it is back");
        assert_eq!((back.saves, back.previous_saves), (2, 2));
        assert_eq!(
            *back.reduce(Action::Undo).scenario,
            linked,
            "restoring is undoable"
        );
        // Undo returns to it too; Redo goes back to the link, still offering
        // the work; an edit after the Undo makes it the current work again.
        let undone = s.reduce(Action::Undo);
        assert_eq!(*undone.scenario, work());
        let redone = undone.clone().reduce(Action::Redo);
        assert_eq!(redone.previous.as_deref(), Some(&work()));
        assert_eq!(undone.reduce(cell(4.0)).previous, None);
        // After a reload the stored previous work is still offered, and
        // still one Undo away; nothing is written just by opening.
        let reloaded = Rc::new(State::start(
            Lang::En,
            Convention::Row,
            None,
            Some(linked.clone()),
            Some(work()),
        ));
        assert_eq!(reloaded.previous.as_deref(), Some(&work()));
        assert_eq!((reloaded.saves, reloaded.previous_saves), (0, 0));
        assert_eq!(*reloaded.clone().reduce(Action::Undo).scenario, work());
        assert_eq!(*reloaded.reduce(Action::RestorePrevious).scenario, work());
        // A link equal to the saved work replaces nothing.
        let same = State::start(
            Lang::En,
            Convention::Row,
            Some(Ok(work())),
            Some(work()),
            None,
        );
        assert_eq!((same.saves, same.previous, same.undo.len()), (0, None, 0));
    }

    #[test]
    fn a_link_pasted_into_an_open_page_keeps_the_work_too() {
        let open = open_with_work();
        let linked = Preset::SelfAttend.build();
        let after = open.reduce(Action::Load(linked.clone(), Source::Link));
        assert_eq!(*after.scenario, linked);
        assert_eq!(after.previous.as_deref(), Some(&work()));
        assert_eq!((after.saves, after.previous_saves), (1, 1));
        // Editing the link's scenario keeps the offer.
        let edited = after.reduce(cell(4.0));
        assert_eq!(edited.previous.as_deref(), Some(&work()));
        assert_eq!(*edited.reduce(Action::RestorePrevious).scenario, work());
    }

    #[test]
    fn another_tabs_newer_work_is_shown_and_this_tabs_kept() {
        let open = open_with_work();
        let theirs = Preset::Uniform.build();
        let after = open.clone().reduce(Action::Foreign(theirs.clone()));
        assert_eq!(*after.scenario, theirs);
        assert_eq!(after.notice, Some(Notice::OtherTab));
        assert_eq!(after.previous.as_deref(), Some(&work()));
        assert_eq!(after.saves, 0, "the other tab saved it already");
        assert_eq!(after.previous_saves, 1);
        // The same scenario again changes nothing.
        assert!(Rc::ptr_eq(
            &after,
            &after.clone().reduce(Action::Foreign(theirs))
        ));
        // An edit clears the notice and is saved.
        let edited = after.reduce(cell(4.0));
        assert_eq!((edited.notice, edited.saves), (None, 1));
    }

    #[test]
    fn storage_failure_is_said_once() {
        let s = start().reduce(Action::StorageFailed);
        assert!(s.storage_failed);
        assert!(Rc::ptr_eq(&s, &s.clone().reduce(Action::StorageFailed)));
    }

    #[test]
    fn random_preset_sets_the_seed() {
        let s = start().reduce(Action::LoadPreset(Preset::Random(42)));
        assert_eq!(s.seed, 42);
        assert_eq!(s.preset, Some(Preset::Random(42)));
        assert_eq!(*s.scenario, Preset::Random(42).build());
    }

    #[test]
    fn language_convention_and_selection_are_not_history() {
        let s = start();
        let zh = s.clone().reduce(Action::SetLang(Lang::Zh));
        assert!(zh.undo.is_empty() && zh.redo.is_empty());
        assert_eq!(zh.scenario.x, s.scenario.x);
        let edited = s.clone().reduce(cell(5.0));
        assert!(Rc::ptr_eq(
            &edited,
            &edited.clone().reduce(Action::SetLang(Lang::En))
        ));
        let t = s.clone().reduce(Action::SetConvention(Convention::Col));
        assert_eq!(t.convention, Convention::Col);
        let sel = Selected {
            name: MatrixName::Scores,
            head: 0,
            row: 0,
            col: 1,
        };
        let t = t.reduce(Action::Select(Some(sel)));
        assert_eq!(t.selected, Some(sel));
        assert!(t.undo.is_empty());
    }

    #[test]
    fn a_stacked_scenario_opens_with_every_layer_computed() {
        let s = start();
        let induction = crate::lesson::presets::induction();
        let after = s
            .clone()
            .reduce(Action::Load(induction.clone(), Source::Import));
        assert_eq!(*after.scenario, induction);
        let stack = crate::attention::compute_stack(&induction).unwrap();
        assert_eq!(after.stack.to_stack(), stack);
        assert_eq!(**after.trace(), stack.layers[0], "layer 1's trace");
        assert!(Rc::ptr_eq(after.trace(), &after.stack.traces[0]), "shared");
        // Removing layer 1 is one undoable edit.
        let one = after.clone().reduce(Action::Edit(Edit::RemoveLayer(0)));
        assert_eq!(one.stack.traces.len(), 1);
        assert_eq!(*one.trace(), one.stack.traces[0]);
        let back = one.reduce(Action::Undo);
        assert_eq!(back.stack.to_stack(), stack);
        // Opened as a link, too.
        let opened = State::start(Lang::En, Convention::Row, Some(Ok(induction)), None, None);
        assert!(opened.alert.is_none());
        assert_eq!(opened.stack.traces.len(), 2);
    }
}
