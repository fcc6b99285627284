//! The cost lab's timings: the dense layer run in this browser at several
//! n, one size per task so the page stays responsive.

use crate::app::i18n::LabText;
use crate::app::web::now_ms as now;
use crate::attention::cost::{run, Keys, Layer, Real, Variant};
use crate::attention::{Matrix, Scenario, Trace};
use crate::lesson::format::{count, rounded};
use std::rc::Rc;
use yew::prelude::*;

use super::{dims, CostLabProps};

/// Sizes timed in the page.
const TIMED_NS: [usize; 5] = [16, 64, 256, 512, 1024];
/// A size is timed only if its dense layer is at most this many
/// multiply-adds (one task each; more would freeze the page).
const TIME_LIMIT_MADDS: u64 = 30_000_000;

/// The dense layer timed in this browser at several n, one size per task.
#[component]
pub(super) fn Timing(p: &CostLabProps) -> Html {
    let lang = p.lang;
    // (n, ms per run or None when skipped)
    let results = use_state(Vec::<(usize, Option<f64>)>::new);
    let running = use_state(|| false);
    let start = {
        let (results, running, s, t) = (
            results.clone(),
            running.clone(),
            p.scenario.clone(),
            p.trace.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            if !*running {
                running.set(true);
                time_from(
                    0,
                    Vec::new(),
                    results.clone(),
                    running.clone(),
                    s.clone(),
                    t.clone(),
                );
            }
        })
    };
    html! {
        <div class="timing" data-timing={if *running { "running" } else if results.is_empty() { "idle" } else { "done" }}>
            <h3>{ LabText::LabTimingTitle.t(lang) }</h3>
            <p class="note">{ LabText::LabTimingHow.t(lang) }</p>
            <button class="measure" disabled={*running} onclick={start}>{ LabText::LabMeasure.t(lang) }</button>
            if !results.is_empty() {
                <table class="lab-table">
                    <thead><tr><th scope="col">{ "n" }</th><th scope="col">{ LabText::LabMaddsCol.t(lang) }</th><th scope="col">{ LabText::LabTimeCol.t(lang) }</th></tr></thead>
                    <tbody>
                        { for results.iter().map(|(k, ms)| html! {
                            <tr data-timed={k.to_string()}>
                                <td>{ k }</td>
                                <td>{ count(dims(&p.scenario, &p.trace, *k).counts(Variant::Dense(Keys::All)).madds) }</td>
                                <td data-ms={ms.map_or(String::new(), |m| m.to_string())}>{ ms.map_or(LabText::LabSkipped.t(lang).to_string(), |m| format!("{} ms", rounded(m, 3))) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </div>
    }
}

/// Times `TIMED_NS[at]` in its own task (a zero timeout lets the browser
/// paint and handle input between sizes), then the next one.
pub(super) fn time_from(
    at: usize,
    mut out: Vec<(usize, Option<f64>)>,
    results: UseStateHandle<Vec<(usize, Option<f64>)>>,
    running: UseStateHandle<bool>,
    s: Rc<Scenario>,
    t: Rc<Trace>,
) {
    gloo::timers::callback::Timeout::new(0, move || {
        let k = TIMED_NS[at];
        let ms = (dims(&s, &t, k).counts(Variant::Dense(Keys::All)).madds <= TIME_LIMIT_MADDS)
            .then(|| {
                let l = sized(&s, &t, k);
                let t0 = now();
                let mut runs = 0u32;
                while runs == 0 || (now() - t0 < 5.0 && runs < 50) {
                    let _ = run(&mut Real::default(), &l, Variant::Dense(Keys::All));
                    runs += 1;
                }
                (now() - t0) / f64::from(runs)
            });
        out.push((k, ms));
        results.set(out.clone());
        if at + 1 < TIMED_NS.len() {
            time_from(at + 1, out, results, running, s, t);
        } else {
            running.set(false);
        }
    })
    .forget();
}

/// The scenario's layer with `k` seeded inputs (same widths; `k` may pass
/// the editor's limit of 64 tokens, so the layer is run directly, the same
/// computation as the engine's without the scenario checks).
fn sized(s: &Scenario, t: &Trace, k: usize) -> Layer<Matrix> {
    let mut l = Layer::of(s, t);
    l.input = crate::lesson::random::Rng::new(k as u64).matrix(k, t.input.ncols());
    l
}
