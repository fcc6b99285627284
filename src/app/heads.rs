//! The heads side by side: one weight heatmap per head on one colour scale,
//! a one-line summary of each, the difference of two heads, and the "one big
//! W_Q" form of the projections.

use super::collapse::Collapse;
use super::heatmap::{head_name, Heatmap, Map};
use super::i18n::{row_suffix, Lang, MapText, PageText};
use super::matrix::{use_window, window_nav};
use super::state::Layers;
use crate::attention::{Matrix, Scenario, Trace};
use crate::lesson::format::{exact, short};
use crate::lesson::formulas::split_captions;
use crate::lesson::heads::{notes_form, split, summary, Summary};
use crate::lesson::heatmap::{cell_text, Scale};
use crate::lesson::names::Convention;
use crate::lesson::window::{swap_if, Axis};
use std::rc::Rc;
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

#[derive(Properties, PartialEq)]
struct BlockProps {
    /// The `data-matrix` name.
    name: &'static str,
    /// 1-based head of the first block (also `data-head`), if one head's.
    #[prop_or_default]
    head: Option<usize>,
    m: Rc<Matrix>,
    /// Columns per block.
    block: usize,
    /// MathML (trusted markup generated here or by `lesson::formulas`).
    caption: AttrValue,
    transpose: bool,
    lang: Lang,
}

/// A read-only matrix cut into column blocks of `block` columns, block r
/// tinted and labelled as head r (`data-matrix`, cells with the page
/// contract's attributes, always in row orientation). The column layout
/// shows it transposed: the blocks are stacked rows. A long axis shows a
/// window with a slider, like the workbench's matrices.
#[component]
fn BlockMatrix(p: &BlockProps) -> Html {
    let (win, on_move) = use_window(p.transpose);
    let (m, lang, transpose) = (&p.m, p.lang, p.transpose);
    let block = p.block.max(1);
    let first = p.head.unwrap_or(1) - 1;
    let tint = |c: usize| format!("blk{}", (first + c / block) % 4);
    let label = |b: usize| format!("{} {}", MapText::HeadHeading.t(lang), first + b + 1);
    let (rows, cols) = if transpose {
        (m.ncols(), m.nrows())
    } else {
        (m.nrows(), m.ncols())
    };
    let (a0, b0) = swap_if(transpose, *win);
    let (ra, ca) = (Axis::new(rows, a0), Axis::columns(cols, b0));
    let multi = m.ncols() > block;
    let cell = |a: usize, b: usize| {
        let (r, c) = if transpose { (b, a) } else { (a, b) };
        html! {
            <td class={tint(c)} data-row={r.to_string()} data-col={c.to_string()} data-value={exact(m[(r, c)])}>
                { short(m[(r, c)]) }
            </td>
        }
    };
    let row_heads: Vec<(usize, usize, usize)> = if multi && transpose {
        ra.blocks(block).collect()
    } else {
        Vec::new()
    };
    html! {
        <figure class="matrix" data-matrix={p.name} data-head={p.head.map(|h| h.to_string())}>
            <figcaption><span class="formula">{ Html::from_html_unchecked(p.caption.clone()) }</span>
                <span class="shape">{ format!("{rows}×{cols}") }</span></figcaption>
            { window_nav(ra, ca, lang, &on_move) }
            <div class="grid-scroll">
                <table>
                    if multi && !transpose {
                        <tr>
                            { for ca.blocks(block).map(|(b, _, n)| html! {
                                <th colspan={n.to_string()} class={tint(b * block)}>{ label(b) }</th>
                            }) }
                        </tr>
                    }
                    { for ra.range().map(|a| html! {
                        <tr>
                            if let Some(&(b, _, n)) = row_heads.iter().find(|(_, from, _)| *from == a) {
                                <th rowspan={n.to_string()} class={tint(b * block)}>{ label(b) }</th>
                            }
                            { for ca.range().map(|b| cell(a, b)) }
                        </tr>
                    }) }
                </table>
            </div>
        </figure>
    }
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

/// The model view (BertViz's, note 000 §3.2): one row of maps per layer,
/// one map per head, on the weights' one colour scale. Hovering a cell
/// outlines its query in every map; clicking a map enlarges it. The grid
/// scrolls inside itself on a narrow screen.
fn model_view(
    stack: &Layers,
    focus: &UseStateHandle<Option<(usize, usize)>>,
    hover: &UseStateHandle<Option<usize>>,
    (big, small): (f64, f64),
    dpr: f64,
    transpose: bool,
    lang: Lang,
) -> Html {
    let on_hover = {
        let hover = hover.clone();
        Callback::from(move |q: Option<usize>| hover.set(q))
    };
    let style = hover.map(|q| format!("--q:{q}"));
    html! {
        <div class={classes!("model-view", hover.is_some().then_some("hovering"))} style={style}
            data-model-view="" data-hover-query={hover.map(|q| q.to_string())}>
            <h3>{ PageText::ModelViewHeading.t(lang) }</h3>
            <p class="note">{ PageText::ModelViewIntro.t(lang) }</p>
            <div class="model-grid">
                { for stack.traces.iter().enumerate().map(|(l, t)| html! {
                    <div class="model-row" role="group" aria-label={super::workbench::layers::layer_heading(l + 1, lang)}>
                        <span class="model-layer">{ super::workbench::layers::layer_heading(l + 1, lang) }</span>
                        { for (0..t.heads.len()).map(|r| {
                            let is_focused = **focus == Some((l, r));
                            let activate = {
                                let focus = focus.clone();
                                Callback::from(move |_| focus.set(if is_focused { None } else { Some((l, r)) }))
                            };
                            let name = format!("{} · {}", super::workbench::layers::layer_heading(l + 1, lang), head_name(lang, r));
                            html! {
                                <figure class={classes!("heat-fig", "model-cell", is_focused.then_some("focused"))}>
                                    <figcaption><span class="head-name">{ head_name(lang, r) }</span></figcaption>
                                    <Heatmap trace={t.clone()} map={Map::Head(r)} layer={Some(l + 1)}
                                        transpose={transpose} cell_css={if is_focused { big } else { small }} dpr={dpr}
                                        title={format!("{name} · {}", MapText::TipWeight.t(lang))}
                                        file={format!("attention-layer-{}-head-{}", l + 1, r + 1)} lang={lang}
                                        on_activate={Some(activate)} on_hover={Some(on_hover.clone())} />
                                </figure>
                            }
                        }) }
                    </div>
                }) }
            </div>
        </div>
    }
}

/// A [`BlockMatrix`] (one call site keeps the bundle small).
#[inline(never)]
fn block_matrix(
    name: &'static str,
    head: Option<usize>,
    m: Matrix,
    block: usize,
    caption: String,
    transpose: bool,
    lang: Lang,
) -> Html {
    html! { <BlockMatrix name={name} head={head} m={Rc::new(m)} block={block} caption={caption} transpose={transpose} lang={lang} /> }
}

#[derive(Properties, PartialEq)]
struct SplitProps {
    scenario: super::Shared<Scenario>,
    trace: super::Shared<Trace>,
    transpose: bool,
    lang: Lang,
}

/// "One big W_Q, or h small ones?": the heads' W_Q as one matrix and each
/// head's own, X·W_Q from one product and each head's Q, and the check.
#[component]
fn SplitView(props: &SplitProps) -> Html {
    let (s, t, tr, lang) = (&props.scenario, &props.trace, props.transpose, props.lang);
    let sp = split(s, t);
    let conv = if tr { Convention::Col } else { Convention::Row };
    let d_k = s.heads.first().map_or(1, |w| w.w_q.ncols());
    html! {
        <>
            <p class="note split-intro">{ super::rich::rich(if tr { PageText::SplitIntroCol } else { PageText::SplitIntro }.t(lang)) }</p>
            { block_matrix("w_q_all", None, sp.w_q_all, d_k, split_captions(conv, 1).w_all, tr, lang) }
            { for s.heads.iter().enumerate().map(|(r, w)| block_matrix("w_q_split", Some(r + 1), w.w_q.clone(), d_k, split_captions(conv, r + 1).w_head, tr, lang)) }
            { block_matrix("q_all", None, sp.q_all, d_k, split_captions(conv, 1).q_all, tr, lang) }
            { for t.heads.iter().enumerate().map(|(r, h)| block_matrix("q_split", Some(r + 1), h.q.clone(), d_k, split_captions(conv, r + 1).q_head, tr, lang)) }
            <p class="note split-check" data-identical={sp.identical.to_string()}>
                { if sp.identical { PageText::SplitIdentical.t(lang) } else { PageText::SplitDifferent.t(lang) } }
            </p>
        </>
    }
}

/// `<math>` around `inner`.
fn math(inner: String) -> String {
    format!("<math>{inner}</math>")
}

/// `base` with a superscript of `sup` (numbers or letters) joined by commas.
fn sup(base: &str, sup: &[String]) -> String {
    let tag = |s: &str| {
        if s.bytes().all(|b| b.is_ascii_digit()) {
            "mn"
        } else {
            "mi"
        }
    };
    let sup: Vec<String> = sup
        .iter()
        .map(|s| format!("<{t}>{s}</{t}>", t = tag(s)))
        .collect();
    format!(
        "<msup><mi>{base}</mi><mrow>{}</mrow></msup>",
        sup.join("<mo>,</mo>")
    )
}

/// The notes view's four formulas for token `i` and head `r` (0-based):
/// `qⁱ`, head r's `W^{q,r}` (transposed in the row layout), their product
/// `q^{i,r}`, and head r's own Q row.
fn notes_math(i: usize, r: usize, tr: bool, lang: Lang) -> [String; 4] {
    let (ti, hr) = ((i + 1).to_string(), (r + 1).to_string());
    let q_i = sup("q", std::slice::from_ref(&ti));
    let w_r = sup("W", &["q".into(), hr.clone()]);
    let (w_caption, product) = if tr {
        (
            math(w_r.clone()),
            math(format!(
                "{}<mo>=</mo>{w_r}{q_i}",
                sup("q", &[ti.clone(), hr.clone()])
            )),
        )
    } else {
        let w_t = format!("<msup><mrow><mo>(</mo>{w_r}<mo>)</mo></mrow><mi>T</mi></msup>");
        (
            math(w_t.clone()),
            math(format!(
                "{}<mo>=</mo>{q_i}{w_t}",
                sup("q", &[ti.clone(), hr.clone()])
            )),
        )
    };
    // Row i of head r's own Q: "Q², row 3" / "Q² 第 3 行".
    let head_row = math(format!(
        "{}<mtext>{}</mtext>",
        sup("Q", std::slice::from_ref(&hr)),
        row_suffix(lang, i + 1)
    ));
    [math(q_i), w_caption, product, head_row]
}

/// Multi-head attention as note 000 §5.1 writes it: for a chosen token i and
/// head r, the shared `qⁱ`, head r's 0/1 matrix `W^{q,r}`, their product
/// `q^{i,r}`, the head's own Q row, and the computed check that they agree.
#[component]
fn NotesView(props: &SplitProps) -> Html {
    let (s, t, tr, lang) = (&props.scenario, &props.trace, props.transpose, props.lang);
    let pick = use_state(|| (0usize, 0usize));
    let f = notes_form(s, t, pick.0, pick.1);
    let (i, r) = (pick.0.min(s.n() - 1), pick.1.min(s.heads.len() - 1));
    let d_k = s.d_k();
    let choose = |which: usize| {
        let pick = pick.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|el| el.value().parse::<usize>().ok())
            {
                pick.set(if which == 0 { (v, pick.1) } else { (pick.0, v) });
            }
        })
    };
    let options = |labels: Vec<String>, chosen: usize| {
        labels
            .into_iter()
            .enumerate()
            .map(|(k, l)| html! { <option value={k.to_string()} selected={k == chosen}>{ l }</option> })
            .collect::<Html>()
    };
    let [q_i, w_caption, product, head_row] = notes_math(i, r, tr, lang);
    let answer = if f.equal { PageText::Yes } else { PageText::No };
    html! {
        <section class="heads-notes" data-figure="heads-notes" aria-labelledby="heads-notes-title">
            <h3 id="heads-notes-title">{ PageText::NotesHeading.t(lang) }</h3>
            <p class="note">{ super::rich::rich(PageText::NotesIntro.t(lang)) }</p>
            <p class="notes-pick">
                <label>{ PageText::NotesToken.t(lang) }{ " " }
                    <select data-pick="token" onchange={choose(0)}>{ options(t.tokens.clone(), i) }</select></label>
                { " " }
                <label>{ PageText::NotesHead.t(lang) }{ " " }
                    <select data-pick="head" onchange={choose(1)}>{ options((0..s.heads.len()).map(|k| head_name(lang, k)).collect(), r) }</select></label>
            </p>
            <div class="row-of-matrices">
                { block_matrix("q_shared", None, f.shared, d_k, q_i, tr, lang) }
                // Stored as the notes write it (d_k × h·d_k): the row layout shows it transposed.
                { block_matrix("w_q_head", None, f.select, d_k, w_caption, !tr, lang) }
                { block_matrix("q_head_notes", Some(r + 1), f.q_r, d_k, product, tr, lang) }
                { block_matrix("q_head_row", Some(r + 1), f.head_row, d_k, head_row, tr, lang) }
            </div>
            <p class="note" data-equal={f.equal.to_string()}>{ super::rich::rich(PageText::NotesEqual.t(lang)) }{ " " }<strong>{ answer.t(lang) }</strong></p>
            <p class="note">{ super::rich::rich(PageText::NotesRelate.t(lang)) }</p>
            <p class="note">{ PageText::NotesLearned.t(lang) }</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::glyphs::{drawn_chars, font_chars, formula_chars};

    /// The math font (cut to `crates/lesson/formula-chars.txt` by
    /// scripts/make-math-font.sh) holds exactly the characters the
    /// formulas draw: the engine's and the teaching logic's
    /// (`formula_chars`, whose own test checks the same list) and the
    /// notes view's above. A missing one would be drawn with another font;
    /// a spare one is bytes every reader fetches for nothing.
    #[test]
    fn the_math_font_holds_exactly_what_the_formulas_draw() {
        let mut used = formula_chars();
        for lang in [Lang::Zh, Lang::En] {
            for tr in [false, true] {
                for (i, r) in [(0, 0), (8, 11), (99, 3)] {
                    for f in notes_math(i, r, tr, lang) {
                        drawn_chars(&f, &mut used);
                    }
                }
            }
        }
        let font = font_chars();
        let missing: String = used.difference(&font).collect();
        let spare: String = font.difference(&used).collect();
        assert!(
            missing.is_empty() && spare.is_empty(),
            "crates/lesson/formula-chars.txt: add {missing:?}, remove {spare:?}, \
             then run scripts/make-math-font.sh"
        );
    }
}
