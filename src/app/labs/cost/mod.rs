//! The `cost` lab (docs/figures.md F10, note `000` §7): what attention costs and
//! the cheaper variants. Counts come from `crate::attention::cost`, whose
//! variants are written once and either computed or only counted; times are
//! measured here, one size per task so the page stays responsive.

mod decoding;
mod linear;
mod timing;

use decoding::{KvCache, LayerTypes};
use linear::LinearDemo;
use timing::Timing;

use super::predict::{Answer, Fixed};
use super::LabCtx;
use super::{keep_setting, kept, mini, number_field, setting};
use crate::app::i18n::{LabText, Lang};
use crate::attention::cost::{run, Counts, Dims, Keys, Layer, Real, Variant};
use crate::attention::{compute, Mask, Scenario, Trace};
use crate::lesson::format::{count, short};
use std::rc::Rc;
use yew::prelude::*;

/// The plot's sizes: n = 1, 2, 4, … 4096.
const PLOT_NS: [usize; 13] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
/// Above this many multiply-adds for the dense layer, the lab shows the
/// counting twin's counts only and does not recompute the scenario every
/// way on each edit (the 512-wide preset is about 67M).
const LIVE_LIMIT_MADDS: u64 = 4_000_000;

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

/// The largest window W and rank r the lab takes.
const MAX_WR: usize = 4096;

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

/// A row of the counts table: the variant's counts, its largest
/// difference from the reference (`None`, "—", when the scenario is only
/// counted, too large to compute) and whether it is exact.
fn count_row(id: &'static str, name: &str, c: Counts, diff: Option<f64>, exact: &str) -> Html {
    html! {
        <tr data-variant={id}>
            <th scope="row">{ name }</th>
            <td data-madds={c.madds.to_string()}>{ count(c.madds) }</td>
            <td data-exps={c.exps.to_string()}>{ count(c.exps) }</td>
            <td data-stored={c.stored.to_string()}>{ count(c.stored) }</td>
            <td data-diff={diff.map(|d| d.to_string())}>{ diff.map_or("—".into(), short) }</td>
            <td>{ exact }</td>
        </tr>
    }
}

#[component]
fn CostBody(p: &CostLabProps) -> Html {
    let lang = p.lang;
    let (s, t) = (&p.scenario, &p.trace);
    let n = t.n();
    let w = use_state(|| setting("cost.window", |v| (1..=MAX_WR).contains(v)).unwrap_or(2usize));
    let r = use_state(|| setting("cost.rank", |v| (1..=MAX_WR).contains(v)).unwrap_or(2usize));
    let metric = use_state(|| {
        setting::<String>("cost.metric", |_| true).map_or(Metric::Madds, |m| Metric::parse(&m))
    });
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
                return count_row(id, variant_name(id, lang), c, None, if is_exact { exact } else { approx });
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
            count_row(id, variant_name(id, lang), ops.0, diff, if exact { LabText::LabExact.t(lang) } else { approx })
        })
        .collect();

    html! {
        <>
            <div class="lab-controls">
                { number_field("lab-cost-w", LabText::LabWindowW.t(lang), *w, MAX_WR, kept("cost.window", &w)) }
                { number_field("lab-cost-r", LabText::LabRankR.t(lang), *r, MAX_WR, kept("cost.rank", &r)) }
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
