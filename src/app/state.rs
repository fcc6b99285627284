//! The one reducer. Every change to what the page shows is an [`Action`];
//! `reduce` is pure (it computes the trace, which is pure too) and does no
//! I/O: storage and URL updates are effects in the components.

use super::i18n::Lang;
use super::url::LinkError;
use crate::attention::{compute, Scenario, Trace};
use crate::lesson::presets::default_scenario;
use std::rc::Rc;
use yew::Reducible;

/// A message the user must see (rendered with `role="alert"`).
#[derive(Clone, Debug, PartialEq)]
pub enum Alert {
    /// A `#s=` link could not be opened; the default scenario is shown.
    BadLink(LinkError),
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub lang: Lang,
    pub scenario: Rc<Scenario>,
    pub trace: Rc<Trace>,
    pub alert: Option<Alert>,
}

/// Every change the page can make.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Show the page in another language.
    SetLang(Lang),
    /// Replace the scenario (a preset, a link, an import). An invalid one is
    /// refused and the current scenario stays.
    Load(Scenario),
    /// A `#s=` link was broken: show why, and the default scenario.
    BadLink(LinkError),
    /// Close the alert.
    DismissAlert,
}

impl State {
    /// The state for `scenario`, or for the default scenario (with `alert`)
    /// when `scenario` is a broken link.
    pub fn start(lang: Lang, link: Option<Result<Scenario, LinkError>>) -> State {
        match link {
            Some(Ok(s)) => match compute(&s) {
                Ok(trace) => State {
                    lang,
                    scenario: Rc::new(s),
                    trace: Rc::new(trace),
                    alert: None,
                },
                Err(e) => State::start(lang, Some(Err(LinkError::Invalid(e)))),
            },
            Some(Err(e)) => State {
                alert: Some(Alert::BadLink(e)),
                ..State::start(lang, None)
            },
            None => {
                let s = default_scenario();
                let trace = compute(&s).expect("the default scenario is valid");
                State {
                    lang,
                    scenario: Rc::new(s),
                    trace: Rc::new(trace),
                    alert: None,
                }
            }
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::SetLang(lang) if lang != self.lang => Rc::new(State {
                lang,
                ..(*self).clone()
            }),
            Action::SetLang(_) => self,
            Action::Load(s) => match compute(&s) {
                Ok(trace) => Rc::new(State {
                    scenario: Rc::new(s),
                    trace: Rc::new(trace),
                    alert: None,
                    ..(*self).clone()
                }),
                Err(e) => Rc::new(State {
                    alert: Some(Alert::BadLink(LinkError::Invalid(e))),
                    ..(*self).clone()
                }),
            },
            Action::BadLink(e) => Rc::new(State::start(self.lang, Some(Err(e)))),
            Action::DismissAlert if self.alert.is_some() => Rc::new(State {
                alert: None,
                ..(*self).clone()
            }),
            Action::DismissAlert => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::presets::notes_004;

    #[test]
    fn broken_link_shows_alert_and_default() {
        let s = State::start(Lang::En, Some(Err(LinkError::NotBase64)));
        assert_eq!(s.alert, Some(Alert::BadLink(LinkError::NotBase64)));
        assert_eq!(*s.scenario, default_scenario());
    }

    #[test]
    fn invalid_load_keeps_the_scenario() {
        let start = Rc::new(State::start(Lang::Zh, None));
        let mut bad = notes_004();
        bad.heads[0].w_k = crate::attention::Matrix::zeros(4, 2);
        let after = start.clone().reduce(Action::Load(bad));
        assert_eq!(after.scenario, start.scenario);
        assert!(
            matches!(after.alert, Some(Alert::BadLink(LinkError::Invalid(ref e))) if e.field == "heads[0].w_k")
        );
    }

    #[test]
    fn load_recomputes() {
        let start = Rc::new(State::start(Lang::Zh, None));
        let mut s = notes_004();
        s.scale = true;
        let after = start.reduce(Action::Load(s.clone()));
        assert_eq!(*after.trace, compute(&s).unwrap());
    }

    #[test]
    fn same_language_is_the_same_state() {
        let start = Rc::new(State::start(Lang::Zh, None));
        assert!(Rc::ptr_eq(
            &start,
            &start.clone().reduce(Action::SetLang(Lang::Zh))
        ));
        assert_eq!(start.reduce(Action::SetLang(Lang::En)).lang, Lang::En);
    }
}
