//! The `cost` lab (docs/figures.md F10, note `000` §7): what attention costs and
//! the cheaper variants. Counts come from `crate::attention::cost`, whose
//! variants are written once and either computed or only counted; times are
//! measured here, one size per task so the page stays responsive.

use super::predict::{Answer, Fixed};
use super::LabCtx;
use super::{keep_setting, mini, setting, whole};
use crate::app::i18n::{fill, CommonText, LabText, Lang};
use crate::app::web::now_ms as now;
use crate::app::Shared;
use crate::attention::cost::{
    complexity, kv_decode, layers_to_reach, linear_parallel, linear_recurrent, run, Counts, Dims,
    Keys, Layer, LayerKind, Real, Variant,
};
use crate::attention::{compute, Mask, Matrix, Scenario, Trace};
use crate::lesson::format::{count, rounded, short};
use crate::lesson::timeline::{sup, Clock, SPEEDS};
use std::rc::Rc;
use yew::prelude::*;

/// The plot's sizes: n = 1, 2, 4, … 4096.
const PLOT_NS: [usize; 13] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
/// Sizes timed in the page.
const TIMED_NS: [usize; 5] = [16, 64, 256, 512, 1024];
/// A size is timed only if its dense layer is at most this many
/// multiply-adds (one task each; more would freeze the page).
const TIME_LIMIT_MADDS: u64 = 30_000_000;
/// Above this many multiply-adds for the dense layer, the lab shows the
/// counting twin's counts only and does not recompute the scenario every
/// way on each edit (the 512-wide preset is about 67M).
const LIVE_LIMIT_MADDS: u64 = 4_000_000;
/// One recurrence step at 1× (ms).
const STEP_MS: f64 = 1200.0;

#[derive(Properties, PartialEq)]
pub struct CostLabProps {
    pub scenario: Rc<Scenario>,
    pub trace: Rc<Trace>,
    pub lang: Lang,
}

/// The lab's question (predict, then reveal).
pub const QUESTION: Fixed = Fixed {
    name: "cost",
    title: LabText::LabCostTitle,
    lead: LabText::LabCostLead,
    question: LabText::LabCostQuestion,
    answers: [Answer::Text("× 2"), Answer::Text("× 4")],
    right: 1,
    explanation: LabText::LabCostExplain,
};

/// The lab, as the labs mount it (a function: see `scaling::lab`).
pub fn lab(c: &LabCtx) -> Html {
    QUESTION.frame(
        c.lang,
        html! { <CostBody scenario={c.scenario.clone()} trace={c.trace.clone()} lang={c.lang} /> },
    )
}

/// The scenario's shapes with `n` positions.
fn dims(s: &Scenario, t: &Trace, n: usize) -> Dims {
    let h = &t.heads[0];
    Dims {
        n,
        d_in: t.input.ncols(),
        d_k: h.q.ncols(),
        d_v: h.v.ncols(),
        heads: t.heads.len(),
        d_out: s.w_o.as_ref().map(|w| w.ncols()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Metric {
    Madds,
    Exps,
    Stored,
}

impl Metric {
    /// Its `<option>` value (and `cost.metric=` in the address).
    fn code(self) -> &'static str {
        match self {
            Metric::Madds => "madds",
            Metric::Exps => "exps",
            Metric::Stored => "stored",
        }
    }

    fn parse(code: &str) -> Metric {
        match code {
            "exps" => Metric::Exps,
            "stored" => Metric::Stored,
            _ => Metric::Madds,
        }
    }

    fn of(self, c: Counts) -> u64 {
        match self {
            Metric::Madds => c.madds,
            Metric::Exps => c.exps,
            Metric::Stored => c.stored,
        }
    }
}

/// A difference: 0, a short decimal, or a power of ten when tiny.
fn diff_text(d: f64) -> String {
    if d == 0.0 {
        "0".into()
    } else if d >= 1e-3 {
        short(d)
    } else {
        format!("{d:.1e}")
    }
}

fn variants(w: usize, r: usize) -> [(&'static str, Variant); 4] {
    [
        ("dense", Variant::Dense(Keys::All)),
        ("window", Variant::Window(w)),
        ("lowrank", Variant::LowRank(r)),
        ("linear", Variant::Linear),
    ]
}

fn variant_name(id: &str, lang: Lang) -> &'static str {
    match id {
        "dense" => LabText::LabDense.t(lang),
        "window" => LabText::LabWindowed.t(lang),
        "lowrank" => LabText::LabLowRank.t(lang),
        _ => LabText::LabLinear.t(lang),
    }
}

#[component]
fn CostBody(p: &CostLabProps) -> Html {
    let lang = p.lang;
    let (s, t) = (&p.scenario, &p.trace);
    let n = t.n();
    let w = use_state(|| setting("cost.window", |v| (1..=4096).contains(v)).unwrap_or(2usize));
    let r = use_state(|| setting("cost.rank", |v| (1..=4096).contains(v)).unwrap_or(2usize));
    let metric = use_state(|| {
        setting::<String>("cost.metric", |_| true).map_or(Metric::Madds, |m| Metric::parse(&m))
    });
    let set_w = {
        let w = w.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = whole(&e, 1, 4096) {
                keep_setting("cost.window", v);
                w.set(v)
            }
        })
    };
    let set_r = {
        let r = r.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = whole(&e, 1, 4096) {
                keep_setting("cost.rank", v);
                r.set(v)
            }
        })
    };
    let set_metric = {
        let metric = metric.clone();
        Callback::from(move |e: Event| {
            if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                let m = Metric::parse(&sel.value());
                keep_setting("cost.metric", m.code());
                metric.set(m);
            }
        })
    };
    let vs = variants(*w, *r);

    // The plot: log–log, one curve per variant, the scenario's n marked.
    let (pw, ph, ml, mb) = (440.0, 230.0, 46.0, 26.0);
    let series: Vec<(&str, Vec<u64>)> = vs
        .iter()
        .map(|(id, v)| {
            (
                *id,
                PLOT_NS
                    .iter()
                    .map(|&k| metric.of(dims(s, t, k).counts(*v)).max(1))
                    .collect(),
            )
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|(_, ys)| ys.iter())
        .copied()
        .max()
        .unwrap_or(1) as f64;
    let top_exp = top.log10().ceil().max(1.0);
    let x = |k: f64| ml + (pw - ml - 24.0) * k.log2() / 12.0;
    let y = |v: f64| (ph - mb) - (ph - mb - 8.0) * v.log10() / top_exp;
    let plot = html! {
        <svg class="cost-plot" data-plot="" viewBox={format!("0 0 {pw} {ph}")} width={pw.to_string()} height={ph.to_string()}
            role="img" aria-label={LabText::LabPlotLabel.t(lang)}>
            { for (0..=top_exp as i32).step_by(if top_exp > 8.0 { 2 } else { 1 }).map(|e| html! {
                <g>
                    <line class="axis" x1={ml.to_string()} x2={(pw - 8.0).to_string()} y1={y(10f64.powi(e)).to_string()} y2={y(10f64.powi(e)).to_string()} />
                    <text x={(ml - 4.0).to_string()} y={(y(10f64.powi(e)) + 3.0).to_string()} text-anchor="end">{ format!("1e{e}") }</text>
                </g>
            }) }
            { for [1usize, 16, 256, 4096].iter().map(|&k| html! {
                <text x={x(k as f64).to_string()} y={(ph - 8.0).to_string()} text-anchor="middle">{ k }</text>
            }) }
            <line class="now" data-n={n.to_string()} x1={x(n as f64).to_string()} x2={x(n as f64).to_string()} y1="4" y2={(ph - mb).to_string()} />
            { for series.iter().map(|(id, ys)| html! {
                <polyline class={format!("curve-{id}")} data-curve={*id}
                    points={PLOT_NS.iter().zip(ys).map(|(&k, &v)| format!("{:.1},{:.1}", x(k as f64), y(v as f64))).collect::<Vec<_>>().join(" ")} />
            }) }
        </svg>
    };

    // The current scenario computed every way, next to its reference.
    let l = Layer::of(s, t);
    let reference = |mask: Mask| {
        compute(&Scenario {
            mask,
            ..(**s).clone()
        })
        .ok()
        .map(|t| t.output)
    };
    let live = dims(s, t, n).counts(Variant::Dense(Keys::All)).madds <= LIVE_LIMIT_MADDS;
    let mut sides: Vec<Html> = Vec::new();
    let rows: Vec<Html> = vs
        .iter()
        .map(|(id, v)| {
            let (exact, approx) = (LabText::LabExact.t(lang), LabText::LabApprox.t(lang));
            if !live {
                let c = dims(s, t, n).counts(*v);
                let is_exact = matches!(v, Variant::Dense(_) | Variant::Window(_)) || matches!(v, Variant::LowRank(r) if *r >= n);
                return html! {
                    <tr data-variant={*id}>
                        <th scope="row">{ variant_name(id, lang) }</th>
                        <td data-madds={c.madds.to_string()}>{ count(c.madds) }</td>
                        <td data-exps={c.exps.to_string()}>{ count(c.exps) }</td>
                        <td data-stored={c.stored.to_string()}>{ count(c.stored) }</td>
                        <td>{ "—" }</td>
                        <td>{ if is_exact { exact } else { approx } }</td>
                    </tr>
                };
            }
            let mut ops = Real::default();
            let out = run(&mut ops, &l, *v);
            let (reference, exact) = match v {
                Variant::Dense(_) => (reference(Mask::None), true),
                Variant::Window(w) => (reference(Mask::Window(*w)), true),
                Variant::LowRank(r) => (reference(Mask::None), *r >= n),
                Variant::Linear => (reference(Mask::Causal), false),
            };
            let diff = reference.as_ref().map(|m| (&out - m).abs().max());
            sides.push(html! {
                <figure class="side" data-side={*id}>
                    <figcaption>{ format!("{}: {} | {}", variant_name(id, lang), LabText::LabOutputs.t(lang), LabText::LabReference.t(lang)) }</figcaption>
                    <div class="pair-minis">
                        { mini(&out, "variant", false, false, None) }
                        if let Some(m) = &reference { { mini(m, "reference", false, false, None) } }
                    </div>
                </figure>
            });
            html! {
                <tr data-variant={*id}>
                    <th scope="row">{ variant_name(id, lang) }</th>
                    <td data-madds={ops.0.madds.to_string()}>{ count(ops.0.madds) }</td>
                    <td data-exps={ops.0.exps.to_string()}>{ count(ops.0.exps) }</td>
                    <td data-stored={ops.0.stored.to_string()}>{ count(ops.0.stored) }</td>
                    <td data-diff={diff.map_or(String::new(), |d| d.to_string())}>{ diff.map_or("—".into(), diff_text) }</td>
                    <td>{ if exact { LabText::LabExact.t(lang) } else { LabText::LabApprox.t(lang) } }</td>
                </tr>
            }
        })
        .collect();

    html! {
        <>
            <div class="lab-controls">
                <label class="field small" for="lab-cost-w"><span>{ LabText::LabWindowW.t(lang) }</span>
                    <input id="lab-cost-w" type="number" min="1" value={w.to_string()} onchange={set_w} /></label>
                <label class="field small" for="lab-cost-r"><span>{ LabText::LabRankR.t(lang) }</span>
                    <input id="lab-cost-r" type="number" min="1" value={r.to_string()} onchange={set_r} /></label>
                <label class="field small" for="lab-cost-metric"><span>{ LabText::LabPlotWhat.t(lang) }</span>
                    <select id="lab-cost-metric" onchange={set_metric}>
                        <option value="madds" selected={*metric == Metric::Madds}>{ LabText::LabMaddsCol.t(lang) }</option>
                        <option value="exps" selected={*metric == Metric::Exps}>{ LabText::LabExpsCol.t(lang) }</option>
                        <option value="stored" selected={*metric == Metric::Stored}>{ LabText::LabStoredCol.t(lang) }</option>
                    </select></label>
            </div>
            <div class="lab-row">
                <figure>
                    { plot }
                    <figcaption>
                        <span class="legend">{ for vs.iter().map(|(id, _)| html! { <span class={format!("key curve-{id}")}>{ format!("— {}", variant_name(id, lang)) }</span> }) }</span>
                        { format!(" {} n = {n}.", LabText::LabPlotCaption.t(lang)) }
                    </figcaption>
                </figure>
            </div>
            <table class="lab-table cost-table" data-counts={n.to_string()}>
                <caption>{ format!("{} (n = {n})", LabText::LabCountsCaption.t(lang)) }</caption>
                <thead><tr>
                    <th></th><th scope="col">{ LabText::LabMaddsCol.t(lang) }</th><th scope="col">{ LabText::LabExpsCol.t(lang) }</th>
                    <th scope="col">{ LabText::LabStoredCol.t(lang) }</th><th scope="col">{ LabText::LabDiffCol.t(lang) }</th><th></th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            if !live { <p class="note" data-counts-only="">{ LabText::LabCountsOnly.t(lang) }</p> }
            <p class="note">{ LabText::LabCostHonest.t(lang) }</p>
            <div class="lab-row sides">{ for sides }</div>
            <Timing trace={t.clone()} scenario={s.clone()} lang={lang} />
            <LinearDemo trace={t.clone()} scenario={s.clone()} lang={lang} />
            <KvCache trace={t.clone()} scenario={s.clone()} lang={lang} />
            <LayerTypes scenario={s.clone()} n={n} window={*w} lang={lang} />
        </>
    }
}

/// The dense layer timed in this browser at several n, one size per task.
#[component]
fn Timing(p: &CostLabProps) -> Html {
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
fn time_from(
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

/// Causal linear attention both ways, and the recurrence played position
/// by position with the walkthrough's clock and speeds.
#[component]
fn LinearDemo(p: &CostLabProps) -> Html {
    let lang = p.lang;
    let n = p.trace.n();
    // Both forms once per trace, not on every animation tick.
    let both = use_memo(Shared(p.trace.clone()), |t| {
        let h = &t.0.heads[0];
        let par = linear_parallel(&h.q, &h.k, &h.v);
        let steps = linear_recurrent(&h.q, &h.k, &h.v);
        let rec = Matrix::from_fn(n, h.v.ncols(), |i, c| steps[i].output[c]);
        let diff = (&par - &rec).abs().max();
        (par, steps, rec, diff)
    });
    let (par, steps, rec, diff) = (&both.0, &both.1, &both.2, both.3);
    let clock = use_state(|| Clock::paused_at(0.0, 1.0));
    let tick = use_state(|| 0u32);
    let total = STEP_MS * n as f64;
    let t_now = now();
    let at = clock.at(t_now).min(total - 1.0).max(0.0);
    let step = ((at / STEP_MS) as usize).min(n - 1);
    let done = clock.playing && clock.at(t_now) >= total;
    {
        // While playing, re-render every 100 ms; stop at the end.
        let (clock, tick) = (clock.clone(), tick.clone());
        let playing = clock.playing && !done;
        use_effect_with(playing, move |playing| {
            let interval = playing.then(|| {
                gloo::timers::callback::Interval::new(100, move || tick.set(tick.wrapping_add(1)))
            });
            move || drop(interval)
        });
        if done {
            clock.set(Clock::paused_at(total - 1.0, clock.speed));
        }
    }
    let toggle = {
        let clock = clock.clone();
        Callback::from(move |_: MouseEvent| {
            let t = now();
            let c = if clock.playing {
                clock.pause(t)
            } else if clock.at(t) >= total - 1.0 {
                clock.seek(0.0, t).play(t)
            } else {
                clock.play(t)
            };
            clock.set(c);
        })
    };
    let go = |k: usize| {
        let clock = clock.clone();
        Callback::from(move |_: MouseEvent| {
            clock.set(clock.pause(now()).seek(k as f64 * STEP_MS, now()))
        })
    };
    let st = &steps[step];
    html! {
        <div class="linear" data-linear="" data-step={(step + 1).to_string()} data-playing={clock.playing.to_string()} data-speed={clock.speed.to_string()}>
            <h3>{ LabText::LabLinearTitle.t(lang) }</h3>
            <p class="note">{ LabText::LabLinearHow.t(lang) }</p>
            <ul class="formula">
                { for ["φ(x) = elu(x) + 1", "S = Σⱼ φ(kʲ)(vʲ)ᵀ", "z = Σⱼ φ(kʲ)", "bⁱ = φ(qⁱ)ᵀS / φ(qⁱ)ᵀz"].iter().map(|f| html! { <li>{ *f }</li> }) }
            </ul>
            <div class="lab-row">
                <figure><figcaption>{ LabText::LabParallel.t(lang) }</figcaption>{ mini(par, "parallel", false, false, None) }</figure>
                <figure><figcaption>{ LabText::LabRecurrent.t(lang) }</figcaption>{ mini(rec, "recurrent", false, false, None) }</figure>
            </div>
            <p class="verdict-line yes" data-linear-diff={diff.to_string()}>{ format!("{} {}", LabText::LabLargestDiff.t(lang), diff_text(diff)) }</p>
            <div class="player-bar mini-player">
                <button class="lin-back" aria-label={LabText::LabPrevPos.t(lang)} onclick={go(step.saturating_sub(1))}>{ "◀" }</button>
                <button class="lin-play" aria-pressed={clock.playing.to_string()} onclick={toggle}>
                    { if clock.playing { format!("⏸ {}", CommonText::Pause.t(lang)) } else { format!("▶ {}", CommonText::Play.t(lang)) } }
                </button>
                <button class="lin-fwd" aria-label={LabText::LabNextPos.t(lang)} onclick={go((step + 1).min(n - 1))}>{ "▶" }</button>
                <span class="speeds" role="group" aria-label={CommonText::SpeedLabel.t(lang)}>
                    { for SPEEDS.iter().map(|&sp| {
                        let clock = clock.clone();
                        html! { <button aria-pressed={(clock.speed == sp).to_string()} data-speed={sp.to_string()}
                            onclick={Callback::from(move |_: MouseEvent| clock.set(clock.set_speed(sp, now())))}>{ format!("{sp}×") }</button> }
                    }) }
                </span>
                <span class="counter">{ format!("{} {} / {n}", LabText::LabPosition.t(lang), step + 1) }</span>
            </div>
            <div class="lab-row recurrence">
                <figure><figcaption>{ format!("S (Σ j ≤ {})", step + 1) }</figcaption>{ mini(&st.state, "state", false, false, None) }</figure>
                <figure><figcaption>{ "z" }</figcaption>{ mini(&Matrix::from_row_slice(1, st.z.len(), &st.z), "z", false, false, None) }</figure>
                <figure><figcaption>{ format!("b{}", sup(step + 1)) }</figcaption>{ mini(&Matrix::from_row_slice(1, st.output.len(), &st.output), "b", false, false, None) }</figure>
            </div>
        </div>
    }
}

/// Decoding one token at a time with a KV cache.
#[component]
fn KvCache(p: &CostLabProps) -> Html {
    let lang = p.lang;
    let s = Scenario {
        mask: Mask::Causal,
        ..(*p.scenario).clone()
    };
    let too_big = dims(&s, &p.trace, s.n())
        .counts(Variant::Dense(Keys::All))
        .madds
        > LIVE_LIMIT_MADDS;
    let full = match compute(&s) {
        Ok(full) if !too_big => full,
        _ => {
            return html! { <div class="kv"><h3>{ LabText::LabKvTitle.t(lang) }</h3><p class="note">{ LabText::LabCountsOnly.t(lang) }</p></div> }
        }
    };
    let steps = kv_decode(&Layer::of(&s, &full));
    html! {
        <div class="kv">
            <h3>{ LabText::LabKvTitle.t(lang) }</h3>
            <p class="note">{ LabText::LabKvHow.t(lang) }</p>
            <table class="lab-table" data-kv="">
                <thead><tr>
                    <th scope="col">{ LabText::LabNewToken.t(lang) }</th><th scope="col">{ LabText::LabSameRow.t(lang) }</th>
                    <th scope="col">{ LabText::LabWithCache.t(lang) }</th><th scope="col">{ LabText::LabRecompute.t(lang) }</th>
                </tr></thead>
                <tbody>
                    { for steps.iter().enumerate().take(16).map(|(k, st)| {
                        let same = st.output.iter().zip(full.output.row(k).iter()).all(|(a, b)| a.to_bits() == b.to_bits());
                        html! {
                            <tr data-kv-step={k.to_string()} data-same={same.to_string()}>
                                <td>{ format!("{} {}", k + 1, full.tokens[k]) }</td>
                                <td>{ if same { LabText::AnswerYesPlain.t(lang) } else { LabText::AnswerNoPlain.t(lang) } }</td>
                                <td data-madds={st.cached.madds.to_string()}>{ count(st.cached.madds) }</td>
                                <td data-madds={st.recomputed.madds.to_string()}>{ count(st.recomputed.madds) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct LayerTypesProps {
    scenario: Rc<Scenario>,
    /// The scenario's number of positions.
    n: usize,
    /// The window W chosen above: the restricted layer and the reach use it.
    window: usize,
    lang: Lang,
}

/// The Transformer paper's Table 1 at the scenario's d and a chosen n, with
/// the window W of the variants above. Path lengths are whole counts of
/// layers (steps for the RNN), see [`complexity`].
#[component]
fn LayerTypes(p: &LayerTypesProps) -> Html {
    let lang = p.lang;
    let d = p.scenario.d_model();
    let n = use_state(|| p.n.max(2));
    let on_n = {
        let n = n.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .and_then(|i| crate::attention::json::decimal(&i.value()))
            {
                n.set(2f64.powf(v).round() as usize);
            }
        })
    };
    let (k, w) = (3usize, p.window);
    let kinds = [
        (
            LabText::LabSelfAttention,
            LayerKind::SelfAttention,
            "n²·d",
            "1",
            "1",
        ),
        (
            LabText::LabRecurrentLayer,
            LayerKind::Recurrent,
            "n·d²",
            "n",
            "n − 1",
        ),
        (
            LabText::LabConv,
            LayerKind::Convolution { k, dilated: true },
            "k·n·d²",
            "1",
            "≈ log_k n",
        ),
        (
            LabText::LabConvPlain,
            LayerKind::Convolution { k, dilated: false },
            "k·n·d²",
            "1",
            "⌈(n − 1)/⌊k/2⌋⌉",
        ),
        (
            LabText::LabRestricted,
            LayerKind::Restricted(w),
            "(2W + 1)·n·d",
            "1",
            "⌈(n − 1)/W⌉",
        ),
    ];
    let sa = complexity(LayerKind::SelfAttention, *n, d);
    let rnn = complexity(LayerKind::Recurrent, *n, d);
    let cheaper = if sa.ops < rnn.ops {
        LabText::LabAttnCheaper
    } else {
        LabText::LabRnnCheaper
    };
    let m = p.n;
    html! {
        <div class="layer-types">
            <h3>{ LabText::LabWhyAttention.t(lang) }</h3>
            <label class="field" for="lab-cost-n">
                <span>{ format!("n = {} (d = d_model = {d}, k = {k}, W = {w})", *n) }</span>
                <input id="lab-cost-n" type="range" min="1" max="12" step="1" value={(*n as f64).log2().round().to_string()} oninput={on_n} />
            </label>
            <table class="lab-table" data-layers={n.to_string()}>
                <thead><tr><th></th><th scope="col">{ LabText::LabOpsPerLayer.t(lang) }</th><th scope="col">{ LabText::LabSequential.t(lang) }</th><th scope="col">{ LabText::LabPathLength.t(lang) }</th></tr></thead>
                <tbody>
                    { for kinds.iter().map(|(name, kind, f_ops, f_seq, f_path)| {
                        let c = complexity(*kind, *n, d);
                        html! {
                            <tr>
                                <th scope="row">{ name.t(lang) }</th>
                                <td data-ops={c.ops.to_string()}>{ format!("{f_ops} = {}", count(c.ops as u64)) }</td>
                                <td>{ format!("{f_seq} = {}", rounded(c.sequential, 1)) }</td>
                                <td data-path={c.path.to_string()}>{ format!("{f_path} = {}", c.path) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <p class="note" data-cheaper={if sa.ops < rnn.ops { "attention" } else { "rnn" }}>{ format!("n = {}, d = {d}: {}", *n, cheaper.t(lang)) }</p>
            <p class="note" data-reach={layers_to_reach(m, w).to_string()}>
                { fill(LabText::LabReach.t(lang), &[&w.to_string(), &m.to_string(), &layers_to_reach(m, w).to_string()]) }
            </p>
        </div>
    }
}
