//! One heatmap: a canvas (`data-heatmap="R"`), a tooltip that follows the
//! mouse or the arrow keys, exports, and a table for screen readers.

pub mod canvas;
mod cursor;
mod export;
mod tip;

use super::i18n::{Lang, MapText};
use crate::attention::{Matrix, Trace};
use crate::lesson::heads::{difference, query_key};
use crate::lesson::heatmap::{self, Cell, Scale};
use canvas::CellText;
use std::rc::Rc;
use yew::prelude::*;

/// Cells at least this wide (CSS px) carry their number.
const NUMBERS_FROM_CSS: f64 = 36.0;

/// Which map a heatmap shows (heads 0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Map {
    /// One head's attention weights.
    Head(usize),
    /// Head A's weights minus head B's.
    Difference(usize, usize),
}

/// "Head 2" / "头 2" (`r` 0-based).
pub fn head_name(lang: Lang, r: usize) -> String {
    format!("{} {}", MapText::HeadHeading.t(lang), r + 1)
}

#[derive(Clone, Properties)]
pub struct HeatmapProps {
    /// Everything computed; the map reads its numbers from here.
    pub trace: Rc<Trace>,
    pub map: Map,
    /// Keys down and queries across (the column convention).
    pub transpose: bool,
    /// About how wide a cell is, CSS px.
    pub cell_css: f64,
    /// The screen's device pixels per CSS pixel (a prop, so a zoom that
    /// changes it redraws the canvas).
    pub dpr: f64,
    /// The accessible name and the exports' title.
    pub title: AttrValue,
    /// File name stem of the exports.
    pub file: AttrValue,
    pub lang: Lang,
    /// Click or Enter: this heatmap asks to be focused.
    #[prop_or_default]
    pub on_activate: Option<Callback<()>>,
    /// 1-based layer when layers stack (`data-layer`).
    #[prop_or_default]
    pub layer: Option<usize>,
    /// The query under the pointer (or the keyboard's cursor), `None` when
    /// it leaves: the model view outlines that query in every map.
    #[prop_or_default]
    pub on_hover: Option<Callback<Option<usize>>>,
}

/// Props are equal when they show the same trace (the same allocation: a
/// new computation is a new `Rc`), so comparing never walks the matrices.
impl PartialEq for HeatmapProps {
    fn eq(&self, o: &Self) -> bool {
        self.draws_like(o)
            && self.title == o.title
            && self.file == o.file
            && self.lang == o.lang
            && self.on_activate == o.on_activate
            && self.layer == o.layer
            && self.on_hover == o.on_hover
    }
}

impl HeatmapProps {
    /// Whether the canvas would look the same.
    fn draws_like(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.trace, &o.trace)
            && self.map == o.map
            && self.transpose == o.transpose
            && self.cell_css == o.cell_css
            && self.dpr == o.dpr
    }

    fn n(&self) -> usize {
        self.trace.tokens.len()
    }

    fn scale(&self) -> Scale {
        match self.map {
            Map::Head(_) => Scale::Weights,
            Map::Difference(..) => Scale::Difference,
        }
    }

    /// The coloured value of query q, key k.
    fn value(&self, q: usize, k: usize) -> f64 {
        let w = |r: usize| self.trace.heads[r].weights[(q, k)];
        match self.map {
            Map::Head(r) => w(r),
            Map::Difference(a, b) => w(a) - w(b),
        }
    }

    /// The coloured values as a query × key matrix (for the CSV).
    fn matrix(&self) -> Matrix {
        let h = &self.trace.heads;
        match self.map {
            Map::Head(r) => h[r].weights.clone(),
            Map::Difference(a, b) => difference(&h[a].weights, &h[b].weights),
        }
    }

    /// What the tooltip lists for query q, key k.
    fn details(&self, q: usize, k: usize) -> Vec<(String, f64)> {
        let lang = self.lang;
        let h = &self.trace.heads;
        match self.map {
            Map::Head(r) => vec![
                (MapText::TipScore.t(lang).into(), h[r].scores[(q, k)]),
                (MapText::TipScaled.t(lang).into(), h[r].scaled[(q, k)]),
                (MapText::TipWeight.t(lang).into(), h[r].weights[(q, k)]),
            ],
            Map::Difference(a, b) => vec![
                (
                    format!("{} · {}", head_name(lang, a), MapText::TipWeight.t(lang)),
                    h[a].weights[(q, k)],
                ),
                (
                    format!("{} · {}", head_name(lang, b), MapText::TipWeight.t(lang)),
                    h[b].weights[(q, k)],
                ),
                (MapText::LegendDiff.t(lang).into(), self.value(q, k)),
            ],
        }
    }

    fn undefined(&self, q: usize) -> bool {
        self.trace.undefined_rows.contains(&q)
    }

    /// What display cell `(r, c)` shows.
    fn cell(&self, r: usize, c: usize) -> Cell {
        let (q, k) = query_key(r, c, self.transpose);
        if self.undefined(q) || !self.trace.allowed[(q, k)] {
            Cell::Masked
        } else {
            Cell::Value(self.value(q, k))
        }
    }

    fn figure(&self, dpr: f64) -> (heatmap::Layout, Vec<heatmap::Label>) {
        let tokens = &self.trace.tokens;
        heatmap::figure(tokens, tokens, self.cell_css, dpr)
    }
}

/// The draw effect's dependency: redraw only when the picture changes.
struct DrawKey(HeatmapProps);

impl PartialEq for DrawKey {
    fn eq(&self, o: &Self) -> bool {
        self.0.draws_like(&o.0)
    }
}

/// A heatmap's layout and labels.
type Figure = (heatmap::Layout, Vec<heatmap::Label>);

/// The figure for these props, worked out again only when what it depends
/// on changes (the tokens, the cell size, the pixel ratio), not with every
/// new trace. Holds no trace, only a copy of the tokens.
#[hook]
fn use_figure(p: &HeatmapProps) -> Rc<Figure> {
    let cache = use_mut_ref(|| None::<(Vec<String>, f64, f64, Rc<Figure>)>);
    let mut cache = cache.borrow_mut();
    match &*cache {
        Some((tokens, cell, dpr, figure))
            if *tokens == p.trace.tokens && *cell == p.cell_css && *dpr == p.dpr =>
        {
            figure.clone()
        }
        _ => {
            let figure = Rc::new(p.figure(p.dpr));
            *cache = Some((p.trace.tokens.clone(), p.cell_css, p.dpr, figure.clone()));
            figure
        }
    }
}

/// Draws the heatmap and notes how long it took (`data-draw-ms`, read by
/// the benchmark script).
fn draw(
    p: &HeatmapProps,
    (layout, labels): &Figure,
    el: &web_sys::HtmlCanvasElement,
    labelled: bool,
) {
    let perf = web_sys::window().and_then(|w| w.performance());
    let start = perf.as_ref().map_or(0.0, |p| p.now());
    let scale = p.scale();
    let pixels = heatmap::pixels(layout, scale, |r, c| p.cell(r, c));
    let mut texts = Vec::new();
    if p.cell_css >= NUMBERS_FROM_CSS {
        for r in 0..layout.rows {
            for c in 0..layout.cols {
                if let Cell::Value(v) = p.cell(r, c) {
                    let (x, y, w, h) = layout.cell_rect_css(r, c);
                    texts.push(CellText {
                        x: x + w / 2.0,
                        y: y + h / 2.0,
                        text: heatmap::cell_text(v),
                        dark: heatmap::dark_text_on(scale.colour(v)),
                    });
                }
            }
        }
    }
    canvas::draw(el, layout, &pixels, labels, &texts, labelled);
    if let Some(perf) = perf {
        let _ = el.set_attribute("data-draw-ms", &format!("{}", perf.now() - start));
    }
}

#[component]
pub fn Heatmap(props: &HeatmapProps) -> Html {
    let canvas_ref = use_node_ref();
    let table_open = use_state(|| false);
    let lang = props.lang;
    // Layout and labels once per picture, not on every pointer move nor
    // on every edit (new values leave them as they are).
    let figure = use_figure(props);
    let layout = figure.0;
    let n = props.n();

    // The figure (layout and labels) the canvas shows: a redraw of the
    // same figure with new values repaints only the cells.
    let shown = use_mut_ref(|| None::<Rc<Figure>>);
    {
        let canvas_ref = canvas_ref.clone();
        let figure = figure.clone();
        use_effect_with(DrawKey(props.clone()), move |key| {
            if let Some(el) = canvas_ref.cast::<web_sys::HtmlCanvasElement>() {
                let labelled = shown
                    .borrow()
                    .as_ref()
                    .is_some_and(|s| Rc::ptr_eq(s, &figure) || **s == *figure);
                draw(&key.0, &figure, &el, labelled);
                *shown.borrow_mut() = Some(figure);
            }
        });
    }
    let cur = cursor::use_cursor(layout, n, props.on_activate.clone());
    let at = cur.at;
    // Whoever listens hears which query the cursor is on.
    {
        let (on_hover, transpose) = (props.on_hover.clone(), props.transpose);
        use_effect_with(at, move |at| {
            if let Some(cb) = on_hover {
                cb.emit(at.map(|(r, c)| query_key(r, c, transpose).0));
            }
        });
    }

    let onclick = props
        .on_activate
        .clone()
        .map(|cb| Callback::from(move |_: MouseEvent| cb.emit(())));
    let [png, svg, csv] = export::exports(props, &canvas_ref);
    let toggle_table = {
        let table_open = table_open.clone();
        Callback::from(move |_| table_open.set(!*table_open))
    };

    let tip = at.map(|at| tip::tip(props, &layout, at));
    let (head, diff) = match props.map {
        Map::Head(r) => (Some((r + 1).to_string()), None),
        Map::Difference(a, b) => (None, Some(format!("{}-{}", a + 1, b + 1))),
    };
    let (w_css, h_css) = layout.css_size();
    html! {
        <div class="heatmap">
            <div class="heat-canvas" style={format!("width:{w_css}px;height:{h_css}px")}
                data-heat-head={head.clone()}>
                <canvas ref={canvas_ref} tabindex="0" role="application"
                    aria-roledescription={MapText::HeatmapRole.t(lang)}
                    aria-label={format!("{}. {}", props.title,
                        if props.on_activate.is_some() { MapText::HeatmapKeys } else { MapText::HeatmapKeysNoEnter }.t(lang))}
                    data-heatmap={head.clone()}
                    data-layer={props.layer.map(|l| l.to_string())}
                    data-heatmap-diff={diff}
                    data-rows={n.to_string()} data-cols={n.to_string()}
                    data-cell={(layout.cell as f64 / layout.dpr).to_string()}
                    data-left={(layout.left as f64 / layout.dpr).to_string()}
                    data-top={(layout.top as f64 / layout.dpr).to_string()}
                    onpointerdown={cur.onpointermove.clone()} onpointermove={cur.onpointermove} onpointerleave={cur.onpointerleave}
                    onfocus={cur.onfocus} onblur={cur.onblur} onkeydown={cur.onkeydown} {onclick}></canvas>
                <div aria-live="polite">{ tip.unwrap_or_default() }</div>
                if head.is_some() {
                    // One frame for the walkthrough to outline the query it
                    // computes: hidden until its style sets --q to that query.
                    <div class="heat-q" style={{
                        let (a, b) = (layout.left as f64 / layout.dpr, layout.top as f64 / layout.dpr);
                        let (cell, span) = (layout.cell as f64 / layout.dpr, n as f64 * layout.cell as f64 / layout.dpr);
                        if props.transpose {
                            format!("left:calc({a}px + var(--q,0)*{cell}px);top:{b}px;width:{cell}px;height:{span}px")
                        } else {
                            format!("left:{a}px;top:calc({b}px + var(--q,0)*{cell}px);width:{span}px;height:{cell}px")
                        }
                    }}></div>
                }
            </div>
            <p class="heat-tools">
                <button class="link" onclick={png}>{ "PNG" }</button>
                <button class="link" onclick={svg}>{ "SVG" }</button>
                <button class="link" onclick={csv}>{ "CSV" }</button>
                <button class="link" aria-expanded={(*table_open).to_string()} onclick={toggle_table}>
                    { if *table_open { MapText::HideTable.t(lang) } else { MapText::ShowTable.t(lang) } }
                </button>
            </p>
            if *table_open {
                { tip::table(props) }
            }
        </div>
    }
}
