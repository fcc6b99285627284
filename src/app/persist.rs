//! When the page writes the reader's work, and when a link leaves the
//! address: a small pure state machine, run by the page's hook.
//!
//! Every change the reader makes moves the state's counters (`saves`, and
//! `previous_saves` when a link or another tab replaced their work). A
//! write then waits for a task of its own (an encoded 64 × 64 scenario
//! takes a few ms), the newest replacing any still waiting, and is done
//! when that task runs, when the page is left, or when a link must leave
//! the address. The work a link replaces is written before the link's
//! scenario (if it cannot be, the scenario is not written over it). A link
//! leaves the address only after its scenario is written, so a reload at
//! any moment finds one or the other: never neither.

/// One thing to do, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveStep {
    /// Write the previous work (before anything else; if it fails, stop).
    WritePrevious,
    /// Write the scenario.
    WriteScenario,
    /// Take the share link out of the address.
    ClearLink,
}

/// What has been written and what waits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Persistence {
    /// The counters `(saves, previous_saves)` last written.
    written: (u64, u64),
    /// The counters of the write waiting, if any.
    waiting: Option<(u64, u64)>,
    /// A pasted link is loading: it leaves the address after the render
    /// that loads it.
    link_loading: bool,
}

impl Persistence {
    /// The state's counters are now `counters`: a write waits (replacing
    /// one still waiting). Returns whether a write is waiting.
    pub fn changed(&mut self, counters: (u64, u64)) -> bool {
        self.waiting = (counters != self.written).then_some(counters);
        self.waiting.is_some()
    }

    /// The waiting write, done now (its task ran, or the page is left):
    /// what to write, previous work first.
    pub fn flush(&mut self) -> Vec<SaveStep> {
        let Some(now) = self.waiting.take() else {
            return Vec::new();
        };
        let before = std::mem::replace(&mut self.written, now);
        let mut steps = Vec::new();
        if now.1 != before.1 {
            steps.push(SaveStep::WritePrevious);
        }
        if now.0 != before.0 {
            steps.push(SaveStep::WriteScenario);
        }
        steps
    }

    /// The page opened on a link: once the first render's write is set up,
    /// it is done, then the link leaves the address.
    pub fn opened_link(&mut self) -> Vec<SaveStep> {
        let mut steps = self.flush();
        steps.push(SaveStep::ClearLink);
        steps
    }

    /// A link was pasted into this tab (its scenario is loading).
    pub fn pasted_link(&mut self) {
        self.link_loading = true;
    }

    /// A render happened: after the one that loads a pasted link, its
    /// write is done and the link leaves the address.
    pub fn rendered(&mut self) -> Vec<SaveStep> {
        if std::mem::take(&mut self.link_loading) {
            self.opened_link()
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_written_until_its_task_and_the_newest_replaces_a_waiting_write() {
        let mut p = Persistence::default();
        // Opening the page writes nothing.
        assert!(!p.changed((0, 0)));
        assert_eq!(p.flush(), vec![]);
        assert!(p.changed((1, 0)));
        assert!(p.changed((2, 0)));
        assert_eq!(p.flush(), vec![SaveStep::WriteScenario]);
        // Done once: a second flush (the page left just after) writes nothing.
        assert_eq!(p.flush(), vec![]);
        // Back to what is written: nothing waits.
        assert!(!p.changed((2, 0)));
    }

    #[test]
    fn the_work_a_link_replaces_is_written_before_the_link_s_scenario() {
        let mut p = Persistence::default();
        p.changed((3, 0));
        p.flush();
        p.changed((4, 1));
        assert_eq!(
            p.flush(),
            vec![SaveStep::WritePrevious, SaveStep::WriteScenario]
        );
        // Only the previous work moved (another tab's newer work shown).
        p.changed((4, 2));
        assert_eq!(p.flush(), vec![SaveStep::WritePrevious]);
    }

    #[test]
    fn a_link_leaves_the_address_only_after_its_scenario_is_written() {
        // Opened on a link: the first render's write, then the link goes.
        let mut p = Persistence::default();
        p.changed((1, 1));
        assert_eq!(
            p.opened_link(),
            vec![
                SaveStep::WritePrevious,
                SaveStep::WriteScenario,
                SaveStep::ClearLink
            ]
        );
        // Pasted: nothing until the render that loads it; then the write
        // (even though its task has not run) and only then the link goes.
        p.pasted_link();
        p.changed((2, 2));
        assert_eq!(
            p.rendered(),
            vec![
                SaveStep::WritePrevious,
                SaveStep::WriteScenario,
                SaveStep::ClearLink
            ]
        );
        // Later renders do nothing more.
        assert_eq!(p.rendered(), vec![]);
        // The waiting task then finds nothing left to write.
        assert_eq!(p.flush(), vec![]);
    }
}
