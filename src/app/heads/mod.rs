//! The heads side by side: one weight heatmap per head on one colour scale,
//! a one-line summary of each, the difference of two heads, and the "one big
//! W_Q" form of the projections.

mod induction;
mod model;
mod split;

pub use induction::VotePanel;
use model::model_view;
use split::{NotesView, SplitView};

use super::collapse::Collapse;
use super::heatmap::{head_name, Heatmap, Map};
use super::i18n::{Lang, MapText, PageText};
use super::state::Layers;
use crate::attention::{Scenario, Trace};
use crate::lesson::heads::{summary, Summary};
use crate::lesson::heatmap::{cell_text, Scale};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HeadsProps {
    pub scenario: super::Shared<Scenario>,
    /// Layer 1's trace.
    pub trace: super::Shared<Trace>,
    /// Every layer: with more than one, the model view shows them all.
    pub stack: super::Shared<Layers>,
    pub transpose: bool,
    /// Start the big-matrix view closed (large scenarios).
    pub collapsed: bool,
    /// Shown alone (the embedded heatmaps figure): the heatmaps only (no
    /// difference map, split or notes' form), and no "see below".
    pub standalone: bool,
    pub lang: Lang,
}

/// The window's width in CSS pixels and its device-pixel ratio.
fn window_size() -> (f64, f64) {
    web_sys::window().map_or((800.0, 1.0), |w| {
        let width = w.inner_width().ok().and_then(|v| v.as_f64());
        (width.unwrap_or(800.0), w.device_pixel_ratio())
    })
}

/// A legend for `scale`: the gradient with its ends and middle, and (for
/// weights) the hatched swatch of masked cells.
fn legend(scale: Scale, lang: Lang) -> Html {
    let (lo, hi) = scale.domain();
    let gradient = format!(
        "background:linear-gradient(to right,{})",
        scale.css_stops().join(",")
    );
    let name = match scale {
        Scale::Weights => MapText::TipWeight,
        Scale::Difference => MapText::LegendDiff,
    };
    html! {
        <div class="legend" role="img" aria-label={format!("{}: {} … {}", name.t(lang), lo, hi)}>
            <span class="legend-name">{ name.t(lang) }</span>
            <span class="legend-end">{ lo.to_string() }</span>
            <span class="legend-bar" style={gradient}></span>
            <span class="legend-end">{ hi.to_string() }</span>
            if scale == Scale::Weights {
                <span class="legend-masked"></span>
                <span>{ MapText::MaskedCell.t(lang) }</span>
            }
        </div>
    }
}

/// "mean entropy 0.85 bits (spread evenly: 1.58) · looks most at I→saw, …"
/// or, with no defined row, that there is none.
fn summary_line(sm: &Summary, tokens: &[String], lang: Lang) -> String {
    const SHOWN: usize = 6;
    let (Some(entropy), Some(even)) = (sm.entropy, sm.uniform_entropy) else {
        return PageText::NoDefinedRows.t(lang).to_string();
    };
    let pairs: Vec<String> = sm
        .strongest
        .iter()
        .zip(&sm.visible)
        .enumerate()
        .filter(|(_, (keys, _))| !keys.is_empty())
        .take(SHOWN)
        .map(|(q, (keys, &visible))| {
            let to = if keys.len() > 1 && keys.len() == visible {
                PageText::Evenly.t(lang).to_string()
            } else {
                keys.iter()
                    .map(|&k| tokens[k].as_str())
                    .collect::<Vec<_>>()
                    .join("/")
            };
            format!("{}→{to}", tokens[q])
        })
        .collect();
    let more = if sm.strongest.iter().filter(|k| !k.is_empty()).count() > SHOWN {
        " …"
    } else {
        ""
    };
    format!(
        "{} {} {} ({} {}) · {} {}{more}",
        PageText::MeanEntropy.t(lang),
        cell_text(entropy),
        PageText::Bits.t(lang),
        PageText::IfEven.t(lang),
        cell_text(even),
        PageText::LooksMost.t(lang),
        pairs.join(", ")
    )
}

/// The heads panel. It follows an edit a frame later while it is off
/// screen: the 32 maps of four layers alone take 6–9 ms to draw
/// (docs/performance.md, "An edit at n = 64 in its frame"); the view below
/// then does not even render, as it is handed the very scenario and traces
/// it shows already.
#[component]
pub fn HeadsPanel(props: &HeadsProps) -> Html {
    let node = use_node_ref();
    let (scenario, trace, stack) = super::hooks::use_when_seen(
        node.clone(),
        (
            props.scenario.clone(),
            props.trace.clone(),
            props.stack.clone(),
        ),
    );
    html! {
        <HeadsView {scenario} {trace} {stack} transpose={props.transpose} collapsed={props.collapsed}
            standalone={props.standalone} lang={props.lang} {node} />
    }
}

#[derive(Properties, PartialEq)]
struct ViewProps {
    scenario: super::Shared<Scenario>,
    trace: super::Shared<Trace>,
    stack: super::Shared<Layers>,
    transpose: bool,
    collapsed: bool,
    standalone: bool,
    lang: Lang,
    /// The panel's `<section>`, watched by [`HeadsPanel`].
    node: NodeRef,
}

#[component]
fn HeadsView(props: &ViewProps) -> Html {
    let (s, t, stack) = (&props.scenario, &props.trace, &props.stack);
    let lang = props.lang;
    let h = t.heads.len();
    let n = t.tokens.len();
    let focused = use_state(|| 0usize);
    // The model view: the enlarged map (layer, head) and the query hovered.
    let model_focus = use_state(|| None::<(usize, usize)>);
    let hover = use_state_eq(|| None::<usize>);
    let pair = use_state(|| (0usize, 1usize));
    let focus = (*focused).min(h.saturating_sub(1));
    // After the head count drops, never compare a head with itself.
    let (a, b) = {
        let (a, b) = (pair.0.min(h - 1), pair.1.min(h - 1));
        if a == b && h >= 2 && pair.0 != pair.1 {
            (a, (a + 1) % h)
        } else {
            (a, b)
        }
    };
    // Resizing the window (or zooming, which changes the pixel ratio too)
    // redraws the maps at their new size.
    let size = use_state_eq(window_size);
    {
        let size = size.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo::events::EventListener::new(&w, "resize", move |_| size.set(window_size()))
            });
            move || drop(listener)
        });
    }
    let (width, dpr) = *size;
    let (big, small) = crate::lesson::heatmap::cell_sizes(n, width);

    let head_name = |r: usize| head_name(lang, r);
    let axes = if props.transpose {
        PageText::AxesKeysDown
    } else {
        PageText::AxesQueriesDown
    };

    let heatmaps = (0..h).map(|r| {
        let ht = &t.heads[r];
        let sm = summary(&ht.weights, &t.allowed, &t.undefined_rows);
        let on_activate = {
            let focused = focused.clone();
            Callback::from(move |_| focused.set(r))
        };
        let is_focused = r == focus;
        html! {
            <figure class={classes!("heat-fig", is_focused.then_some("focused"))}>
                <figcaption>
                    <button class="head-name" aria-pressed={is_focused.to_string()} onclick={on_activate.reform(|_| ())}>
                        { head_name(r) }
                    </button>
                    <span class="heat-summary">{ summary_line(&sm, &t.tokens, lang) }</span>
                </figcaption>
                <Heatmap trace={t.clone()} map={Map::Head(r)}
                    transpose={props.transpose} cell_css={if is_focused { big } else { small }} dpr={dpr}
                    title={format!("{} · {}", head_name(r), MapText::TipWeight.t(lang))}
                    file={format!("attention-head-{}", r + 1)} lang={lang}
                    on_activate={(!is_focused).then_some(on_activate)} />
            </figure>
        }
    });

    let diff = (h >= 2 && !props.standalone).then(|| {
        let select = |which: usize| {
            let pair = pair.clone();
            Callback::from(move |e: Event| {
                let v = e
                    .target_dyn_into::<web_sys::HtmlSelectElement>()
                    .and_then(|el| el.value().parse::<usize>().ok())
                    .unwrap_or(1)
                    .saturating_sub(1);
                // From the pair as shown (clamped to the heads there are).
                pair.set(if which == 0 { (v, b) } else { (a, v) });
            })
        };
        let options = |chosen: usize| {
            (0..h)
                .map(|r| html! { <option value={(r + 1).to_string()} selected={r == chosen}>{ head_name(r) }</option> })
                .collect::<Html>()
        };
        html! {
            <section class="heat-diff">
                <h3>{ PageText::DiffHeading.t(lang) }</h3>
                <p class="note">{ PageText::DiffIntro.t(lang) }</p>
                <p class="diff-pick">
                    <label>{ PageText::DiffA.t(lang) }{ " " }<select onchange={select(0)}>{ options(a) }</select></label>
                    { " − " }
                    <label>{ PageText::DiffB.t(lang) }{ " " }<select onchange={select(1)}>{ options(b) }</select></label>
                </p>
                { legend(Scale::Difference, lang) }
                <Heatmap trace={t.clone()} map={Map::Difference(a, b)}
                    transpose={props.transpose} cell_css={big} dpr={dpr}
                    title={format!("{} − {}", head_name(a), head_name(b))}
                    file={format!("attention-head-{}-minus-{}", a + 1, b + 1)} lang={lang} />
            </section>
        }
    });

    // What happens to the heads' outputs next, true to this scenario.
    let combine = match (h, s.w_o.is_some()) {
        (1, false) => PageText::CombineOneHead,
        (1, true) => PageText::CombineOneHeadWo,
        (_, false) => PageText::CombineNoWo,
        (_, true) if props.standalone => PageText::CombineNoteAlone,
        (_, true) => PageText::CombineNote,
    };
    let tr = props.transpose;
    let model = (stack.traces.len() > 1).then(|| {
        model_view(
            stack,
            &model_focus,
            &hover,
            (big, small),
            dpr,
            props.transpose,
            lang,
        )
    });
    html! {
        <section class="heads-panel" aria-labelledby="heads-title" ref={props.node.clone()}>
            <h2 id="heads-title">{ PageText::HeadsHeading.t(lang) }</h2>
            <p class="note">{ PageText::HeadsIntro.t(lang) }</p>
            { legend(Scale::Weights, lang) }
            <p class="note axes">{ axes.t(lang) }</p>
            if !t.undefined_rows.is_empty() {
                <p class="note">{ PageText::UndefinedRowsAlert.t(lang) }{ " " }
                    { t.undefined_rows.iter().map(|&i| t.tokens[i].clone()).collect::<Vec<_>>().join(", ") }</p>
            }
            if let Some(model) = model {
                { model }
            } else {
                <div class="multiples">{ for heatmaps }</div>
            }
            // Embedded alone (`view=heatmaps`), the figure is the heatmaps:
            // the difference, the split and the notes' form stay on the page.
            if !props.standalone {
                { diff.unwrap_or_default() }
                <Collapse title={PageText::SplitHeading.t(lang)} collapsed={props.collapsed} lang={lang}>
                    // A component, so that its tables are built only when open.
                    <SplitView scenario={s.clone()} trace={t.clone()} transpose={tr} lang={lang} />
                </Collapse>
                <NotesView scenario={s.clone()} trace={t.clone()} transpose={tr} lang={lang} />
            }
            <p class="note combine-note">{ combine.t(lang) }</p>
        </section>
    }
}
