//! Mounting the lab into the page (once), its language, and the benchmark
//! hook `window.attentionLabTrainBench` (scripts/bench-train.mjs).

use super::*;
use crate::app::i18n::Lang;
use crate::app::roots::Root;
use std::cell::RefCell;
use train::{Config, Model, Task};
use wasm_bindgen::prelude::*;
use yew::prelude::*;

thread_local! {
    static ROOT: RefCell<Option<Root<TrainLab>>> = const { RefCell::new(None) };
}

/// Renders the lab into `host` (once), writing the contract's attributes
/// on `lab`; `on_open` receives the scenario JSON of "Open in the
/// workbench".
pub fn mount(
    host: web_sys::Element,
    lab: web_sys::Element,
    lang: Lang,
    on_open: Option<Callback<String>>,
) {
    if Root::mount_once(&ROOT, host, TrainProps { lang, lab, on_open }) {
        expose_bench();
    }
}

/// Makes [`bench`] callable from a script once the lab is mounted, as
/// `window.attentionLabTrainBench(task, steps)` (scripts/bench-train.mjs):
/// here rather than as an export of the page's module, so that the code
/// stays in the training lab's chunk.
fn expose_bench() {
    let f = Closure::<dyn Fn(String, u32) -> Vec<f64>>::new(|task: String, steps: u32| {
        bench(&task, steps)
    });
    js_sys::Reflect::set(
        &gloo::utils::window(),
        &JsValue::from_str("attentionLabTrainBench"),
        &f.into_js_value(),
    )
    .ok();
}

/// Shows the lab in `lang`.
pub fn set_lang(lang: Lang) {
    Root::update(&ROOT, |p| std::mem::replace(&mut p.lang, lang) != lang);
}

/// For scripts/bench-train.mjs: the milliseconds `steps` Adam steps of
/// `task`'s default model take in this browser, then one evaluation on
/// the evaluation set, then one evaluation sample's trace; empty for an
/// unknown task.
pub fn bench(task: &str, steps: u32) -> Vec<f64> {
    let Some(Ok(mut m)) = Task::from_code(task).map(|t| Model::new(Config::new(t, DEFAULT_SEED)))
    else {
        return Vec::new();
    };
    let t0 = now();
    for _ in 0..steps {
        m.step();
    }
    let t1 = now();
    m.evaluate();
    let t2 = now();
    m.eval_trace();
    let t3 = now();
    vec![t1 - t0, t2 - t1, t3 - t2]
}
