//! `use_persistence`: the reader's work saved in the browser, share links
//! opened from the address, and another tab's newer work, run by the pure
//! machine of [`crate::app::persist`].

use crate::app::persist::{Persistence, SaveStep};
use crate::app::state::{Action, Source, State};
use crate::app::web;
use crate::attention::Scenario;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The longest a write of the reader's work waits for the frame after
/// the edit (ms).
const SAVE_LATEST_MS: u32 = 200;

/// The scenario and previous work the next write writes.
type Latest = Rc<RefCell<(Rc<Scenario>, Option<Rc<Scenario>>)>>;

/// Does what the persistence machine says, in order: the previous work,
/// then the scenario (not written over work that could not be kept), then
/// the link out of the address.
fn perform(steps: &[SaveStep], latest: &Latest, d: &UseReducerDispatcher<State>) {
    let (s, previous) = &*latest.borrow();
    let mut kept = true;
    for step in steps {
        match step {
            SaveStep::WritePrevious => {
                if web::store_previous(previous.as_deref()).is_err() {
                    d.dispatch(Action::StorageFailed);
                    kept = false;
                }
            }
            SaveStep::WriteScenario if kept => match web::store_scenario(s) {
                Ok(()) => {}
                Err(web::SaveError::Unavailable) => d.dispatch(Action::StorageFailed),
                // Another tab saved newer work unseen: show it, keep ours
                // as the previous work (written by the next write).
                Err(web::SaveError::Newer(theirs)) => d.dispatch(Action::Foreign(*theirs)),
            },
            SaveStep::WriteScenario => {}
            SaveStep::ClearLink => web::clear_share_fragment(),
        }
    }
}

/// Never lose work: every change made on the page is saved and comes back
/// on reload (not from a `guest` page, which must not overwrite it). Work a
/// link replaces is kept first, under its own key; if that cannot be
/// written, the link's scenario is not saved over it. Merely opening the
/// page (or a broken link) writes nothing.
///
/// Writing happens in a task of its own after the frame that shows the
/// edit (an encoded 64 × 64 scenario is a few ms, four such layers over
/// 10 ms: run at once after the edit, it would hold up the next frame),
/// or after `SAVE_LATEST_MS` at the latest (a hidden page draws no
/// frames), or at once when the page is left (`pagehide`) with a write
/// still waiting. Whichever comes first writes; the others find nothing
/// waiting.
///
/// A link pasted into the same tab changes only the hash: it is opened
/// here too. Once opened, a link leaves the address (outside a guest
/// page), so a reload keeps the edits; it leaves only once its scenario is
/// written, so a reload at any moment finds one or the other: on opening,
/// after the first render's save is set up; when pasted, after the render
/// that loads it, not in the `hashchange` handler itself, since Yew may
/// yield before that render's effects and a reload in between would find
/// neither.
#[hook]
pub fn use_persistence(state: &UseReducerHandle<State>, guest: bool) {
    let dispatcher = state.dispatcher();
    let persist = use_mut_ref(Persistence::default);
    let latest: Latest = use_mut_ref(|| (state.scenario.clone(), state.previous.clone()));
    let save_timer = use_mut_ref(|| {
        None::<(
            gloo::render::AnimationFrame,
            gloo::timers::callback::Timeout,
        )>
    });
    {
        let d = dispatcher.clone();
        let (s, previous) = (state.scenario.clone(), state.previous.clone());
        let (persist, latest, timer) = (persist.clone(), latest.clone(), save_timer.clone());
        // The counters change whenever what they count does: comparing them
        // is cheaper than comparing scenarios on every render.
        use_effect_with((state.saves, state.previous_saves), move |&counters| {
            if guest {
                return;
            }
            *latest.borrow_mut() = (s, previous);
            if persist.borrow_mut().changed(counters) {
                let write = Rc::new(move || {
                    let steps = persist.borrow_mut().flush();
                    perform(&steps, &latest, &d);
                });
                let late = write.clone();
                *timer.borrow_mut() = Some((
                    web::after_paint(move || write()),
                    gloo::timers::callback::Timeout::new(SAVE_LATEST_MS, move || late()),
                ));
            }
        });
    }
    {
        let (persist, latest, d) = (persist.clone(), latest.clone(), dispatcher.clone());
        use_effect(move || {
            let steps = persist.borrow_mut().rendered();
            perform(&steps, &latest, &d);
        });
    }
    use_effect_with((), move |_| {
        if !guest {
            let steps = persist.borrow_mut().opened_link();
            perform(&steps, &latest, &dispatcher);
        }
        let listeners = web_sys::window().map(|w| {
            let d = dispatcher.clone();
            let pasted = persist.clone();
            let hash = gloo::events::EventListener::new(&w, "hashchange", move |_| {
                match web::link_in_address() {
                    Some(Ok(s)) => {
                        d.dispatch(Action::Load(s, Source::Link));
                        if !guest {
                            pasted.borrow_mut().pasted_link();
                        }
                    }
                    Some(Err(e)) => {
                        d.dispatch(Action::BadLink(e));
                        if !guest {
                            web::clear_share_fragment();
                        }
                    }
                    None => {}
                }
            });
            // Leaving the page: the write still waiting is done now.
            let (p, l, d) = (persist.clone(), latest.clone(), dispatcher.clone());
            let leave = gloo::events::EventListener::new(&w, "pagehide", move |_| {
                let steps = p.borrow_mut().flush();
                perform(&steps, &l, &d);
            });
            // Another tab's newer work: shown here, ours kept.
            let d = dispatcher.clone();
            let tabs = (!guest)
                .then(|| web::on_other_tab_save(move |s| d.dispatch(Action::Foreign(s))))
                .flatten();
            (hash, tabs, leave)
        });
        move || drop(listeners)
    });
}
