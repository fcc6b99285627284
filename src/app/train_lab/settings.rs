//! The lab's settings as a pure machine: which control changed, to what
//! text, gives the next model's config (or nothing, for a text that names
//! no value). Tested natively below.

use train::{Config, Positions, Readout, Task};

/// A control of the lab's settings row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Setting {
    Task,
    Layers,
    Heads,
    DModel,
    Positions,
    Seed,
    /// How `multilabel` reads its answer out.
    Readout,
    /// The side of `digits`' patches.
    Patch,
}

impl Setting {
    /// The config after this control changed to `value`: a new task starts
    /// from its own defaults (docs/training.md) with the same seed; any
    /// other control keeps the rest of the reader's settings. `None` when
    /// `value` names no value of the control.
    pub(super) fn apply(self, c: &Config, value: &str) -> Option<Config> {
        let (mut layers, mut heads, mut d_model, mut positions, mut seed, mut readout) =
            (c.layers, c.heads, c.d_model, c.positions, c.seed, c.readout);
        let mut patch = c.patch;
        match self {
            Setting::Task => return Task::from_code(value).map(|t| Config::new(t, c.seed)),
            Setting::Layers => layers = value.parse().ok()?,
            Setting::Heads => heads = value.parse().ok()?,
            Setting::DModel => d_model = value.parse().ok()?,
            Setting::Positions => positions = Positions::from_code(value)?,
            Setting::Seed => seed = value.trim().parse().ok()?,
            Setting::Readout => readout = Readout::from_code(value)?,
            Setting::Patch => patch = value.parse().ok().filter(|p| train::PATCHES.contains(p))?,
        }
        let mut next = Config::new(c.task, seed);
        next.layers = layers;
        next.d_model = d_model;
        next.positions = positions;
        next.readout = readout;
        Some(next.with_heads(heads).with_patch(patch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader() -> Config {
        let mut c = Config::new(Task::Previous, 5);
        c.layers = 2;
        c.d_model = 16;
        c.positions = Positions::Sinusoidal;
        c.with_heads(2)
    }

    #[test]
    fn a_control_changes_its_setting_and_keeps_the_others() {
        let c = reader();
        let l = Setting::Layers.apply(&c, "1").unwrap();
        assert_eq!((l.layers, l.heads, l.d_model, l.seed), (1, 2, 16, 5));
        assert_eq!(l.positions, Positions::Sinusoidal);
        let h = Setting::Heads.apply(&c, "3").unwrap();
        assert_eq!((h.layers, h.heads, h.d_model), (2, 3, 16));
        let d = Setting::DModel.apply(&c, "32").unwrap();
        assert_eq!((d.layers, d.heads, d.d_model), (2, 2, 32));
        let p = Setting::Positions.apply(&c, "none").unwrap();
        assert_eq!((p.positions, p.heads), (Positions::None, 2));
        let s = Setting::Seed.apply(&c, " 42 ").unwrap();
        assert_eq!((s.seed, s.layers, s.heads), (42, 2, 2));
        let r = Setting::Readout.apply(&c, "sequence").unwrap();
        assert_eq!((r.readout, r.layers, r.heads), (Readout::Sequence, 2, 2));
        assert_eq!(
            Setting::Layers.apply(&r, "1").unwrap().readout,
            Readout::Sequence
        );
        let d = Setting::Patch
            .apply(&Config::new(Task::Digits, 5), "2")
            .unwrap();
        assert_eq!((d.patch, d.n), (2, 17));
        assert_eq!(Setting::Heads.apply(&d, "2").unwrap().patch, 2);
        // Each one's config is the task's, with the reader's settings.
        assert_eq!(s.n, Config::new(Task::Previous, 42).n);
    }

    #[test]
    fn a_new_task_starts_from_its_own_defaults_with_the_same_seed() {
        let c = reader();
        for task in Task::ALL {
            let next = Setting::Task.apply(&c, task.code()).unwrap();
            let own = Config::new(task, 5);
            assert_eq!(
                (next.task, next.layers, next.heads, next.d_model, next.n),
                (own.task, own.layers, own.heads, own.d_model, own.n)
            );
        }
    }

    #[test]
    fn a_text_that_names_no_value_changes_nothing() {
        let c = reader();
        for (s, v) in [
            (Setting::Seed, "-1"),
            (Setting::Seed, "1.5"),
            (Setting::Seed, ""),
            (Setting::Layers, "two"),
            (Setting::Positions, "rotary"),
            (Setting::Task, "translate"),
            (Setting::Readout, "softmax"),
            (Setting::Patch, "3"),
        ] {
            assert!(s.apply(&c, v).is_none(), "{s:?} {v:?}");
        }
    }
}
