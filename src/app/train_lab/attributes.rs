//! The page contract's attributes the lab writes on its element after
//! each of its renders, and at once on Train and Pause (docs/format.md §3).

use super::*;
use crate::lesson::format::{exact, rounded};

/// Writes the page contract's attributes on the lab element.
pub(super) fn mark(lab: &web_sys::Element, r: &Run) {
    let s = &r.shown;
    let sample = r
        .model
        .config
        .sequence_labels(r.model.eval_sample())
        .join(" ");
    let measured = r.measured.map(|m| rounded(m, 2)).unwrap_or_default();
    for (k, v) in [
        ("data-train-step", s.step.to_string()),
        ("data-loss", exact(s.loss)),
        ("data-accuracy", exact(s.accuracy)),
        ("data-whole-accuracy", exact(s.whole)),
        ("data-state", r.phase.code().to_string()),
        ("data-sample", sample),
        ("data-speed", exact(r.speed)),
        ("data-steps-per-second", measured),
        ("data-longest-slice-ms", rounded(r.longest_ms, 2)),
        (
            "data-slices",
            format!("{} {} {}", r.slices[0], r.slices[1], r.slices[2]),
        ),
    ] {
        let _ = lab.set_attribute(k, &v);
    }
}
