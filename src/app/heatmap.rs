//! One heatmap: a canvas (`data-heatmap="R"`), a tooltip that follows the
//! mouse or the arrow keys, exports, and a table for screen readers.

use super::canvas::{self, CellText};
use super::effects;
use super::i18n::{Lang, S};
use crate::attention::Matrix;
use crate::lesson::format::{exact, short};
use crate::lesson::heads::query_key;
use crate::lesson::heatmap::{self, Cell, Scale};
use nalgebra::DMatrix;
use std::rc::Rc;
use yew::prelude::*;

/// Cells at least this wide (CSS px) carry their number.
const NUMBERS_FROM_CSS: f64 = 36.0;

#[derive(Clone, Properties, PartialEq)]
pub struct HeatmapProps {
    /// The head (1-based) for `data-heatmap`; `None` for a difference map.
    pub head: Option<usize>,
    /// For a difference map: `data-heatmap-diff="A-B"`.
    #[prop_or_default]
    pub diff: Option<AttrValue>,
    /// The coloured values, query × key (n × n).
    pub values: Rc<Matrix>,
    pub scale: Scale,
    pub allowed: Rc<DMatrix<bool>>,
    pub undefined: Rc<Vec<usize>>,
    pub tokens: Rc<Vec<String>>,
    /// Keys down and queries across (the column convention).
    pub transpose: bool,
    /// About how wide a cell is, CSS px.
    pub cell_css: f64,
    /// The screen's device pixels per CSS pixel (a prop, so a zoom that
    /// changes it redraws the canvas).
    pub dpr: f64,
    /// What the tooltip lists for a cell: name and query × key matrix.
    pub details: Rc<Vec<(AttrValue, Matrix)>>,
    /// The accessible name and the exports' title.
    pub title: AttrValue,
    /// File name stem of the exports.
    pub file: AttrValue,
    pub lang: Lang,
    /// Click or Enter: this heatmap asks to be focused.
    #[prop_or_default]
    pub on_activate: Option<Callback<()>>,
}

impl HeatmapProps {
    /// What display cell `(r, c)` shows.
    fn cell(&self, r: usize, c: usize) -> Cell {
        let (q, k) = query_key(r, c, self.transpose);
        if self.undefined.contains(&q) || !self.allowed[(q, k)] {
            Cell::Masked
        } else {
            Cell::Value(self.values[(q, k)])
        }
    }

    fn figure(&self, dpr: f64) -> (heatmap::Layout, Vec<heatmap::Label>) {
        heatmap::figure(&self.tokens, &self.tokens, self.cell_css, dpr)
    }
}

/// Draws the heatmap and notes how long it took (`data-draw-ms`, read by
/// the benchmark script).
fn draw(p: &HeatmapProps, el: &web_sys::HtmlCanvasElement) {
    let perf = web_sys::window().and_then(|w| w.performance());
    let start = perf.as_ref().map_or(0.0, |p| p.now());
    let (layout, labels) = p.figure(p.dpr);
    let pixels = heatmap::raster(&layout, p.scale, |r, c| p.cell(r, c));
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
                        dark: heatmap::dark_text_on(p.scale.colour(v)),
                    });
                }
            }
        }
    }
    canvas::draw(el, &layout, &pixels, &labels, &texts);
    if let Some(perf) = perf {
        let _ = el.set_attribute("data-draw-ms", &format!("{}", perf.now() - start));
    }
}

#[component]
pub fn Heatmap(props: &HeatmapProps) -> Html {
    let canvas_ref = use_node_ref();
    let cursor = use_state(|| None::<(usize, usize)>);
    let table_open = use_state(|| false);
    let lang = props.lang;
    let (layout, _) = props.figure(props.dpr);
    let n = props.tokens.len().min(props.values.nrows());

    {
        let canvas_ref = canvas_ref.clone();
        use_effect_with(props.clone(), move |p| {
            if let Some(el) = canvas_ref.cast::<web_sys::HtmlCanvasElement>() {
                draw(p, &el);
            }
        });
    }
    // A smaller scenario may leave the cursor outside.
    let at = (*cursor).filter(|&(r, c)| r < n && c < n);

    // Pointer events: fractional coordinates (Chromium rounds mouse events
    // to whole CSS pixels), and touch and pen too: a tap (pointerdown, which
    // comes before focus) shows the tapped cell.
    let onpointermove = {
        let cursor = cursor.clone();
        Callback::from(move |e: PointerEvent| {
            // offsetX/Y are fractional CSS pixels; web-sys's offset_x() is an
            // integer, which would pick a neighbour near edges at ratios like 1.25.
            let at = |k: &str| {
                js_sys::Reflect::get(&e, &k.into())
                    .ok()
                    .and_then(|v| v.as_f64())
            };
            let (Some(x), Some(y)) = (at("offsetX"), at("offsetY")) else {
                return;
            };
            let cell = layout.cell_at(x, y);
            if cell != *cursor {
                cursor.set(cell);
            }
        })
    };
    let clear = {
        let cursor = cursor.clone();
        Callback::from(move |_: FocusEvent| cursor.set(None))
    };
    // A lifted finger "leaves" too: keep a tapped cell's tooltip up.
    let onpointerleave = {
        let cursor = cursor.clone();
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() != "touch" {
                cursor.set(None)
            }
        })
    };
    let onfocus = {
        let cursor = cursor.clone();
        Callback::from(move |_: FocusEvent| {
            if cursor.is_none() {
                cursor.set(Some((0, 0)));
            }
        })
    };
    let onclick = props
        .on_activate
        .clone()
        .map(|cb| Callback::from(move |_: MouseEvent| cb.emit(())));
    let onkeydown = {
        let cursor = cursor.clone();
        let activate = props.on_activate.clone();
        Callback::from(move |e: KeyboardEvent| {
            let (r, c) = at.unwrap_or((0, 0));
            let last = n.saturating_sub(1);
            let next = match e.key().as_str() {
                "ArrowUp" => Some((r.saturating_sub(1), c)),
                "ArrowDown" => Some(((r + 1).min(last), c)),
                "ArrowLeft" => Some((r, c.saturating_sub(1))),
                "ArrowRight" => Some((r, (c + 1).min(last))),
                "Home" => Some((r, 0)),
                "End" => Some((r, last)),
                "Escape" => {
                    cursor.set(None);
                    return;
                }
                "Enter" => {
                    if let Some(cb) = &activate {
                        cb.emit(());
                    }
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            cursor.set(next);
        })
    };

    let export = |kind: &'static str| {
        let p = props.clone();
        let canvas_ref = canvas_ref.clone();
        Callback::from(move |_: MouseEvent| {
            let name = format!("{}.{kind}", p.file);
            match kind {
                "png" => {
                    if let Some(url) = canvas_ref
                        .cast::<web_sys::HtmlCanvasElement>()
                        .and_then(|c| canvas::png_url(&c))
                    {
                        effects::download_url(&name, &url);
                    }
                }
                "svg" => {
                    let (layout, labels) = p.figure(1.0);
                    let text =
                        heatmap::svg(&layout, &labels, p.scale, &p.title, |r, c| p.cell(r, c));
                    effects::download(&name, "image/svg+xml", &text);
                }
                _ => {
                    effects::download(&name, "text/csv", &heatmap::csv(&p.tokens, &p.values));
                }
            }
        })
    };
    let (png, svg, csv) = (export("png"), export("svg"), export("csv"));
    let toggle_table = {
        let table_open = table_open.clone();
        Callback::from(move |_| table_open.set(!*table_open))
    };

    let tip = at.map(|(r, c)| {
        let (q, k) = query_key(r, c, props.transpose);
        let tok = |i: usize| props.tokens.get(i).cloned().unwrap_or_default();
        let (x, y, w, h) = layout.cell_rect_css(r, c);
        let flip = c * 2 >= n;
        let tip_style = if flip {
            format!("left:{}px;top:{y}px;transform:translateX(-100%)", x - 6.0)
        } else {
            format!("left:{}px;top:{y}px", x + w + 6.0)
        };
        let masked = props.cell(r, c) == Cell::Masked;
        let value = props.values[(q, k)];
        html! {
            <>
                <div class="heat-cursor" style={format!("left:{x}px;top:{y}px;width:{w}px;height:{h}px")}></div>
                <div class="heat-tip" style={tip_style} data-query={q.to_string()} data-key={k.to_string()}
                    data-value={exact(value)}>
                    <div><b>{ S::QueryWord.t(lang) }</b>{ " " }{ tok(q) }{ " → " }<b>{ S::KeyWord.t(lang) }</b>{ " " }{ tok(k) }</div>
                    { for props.details.iter().map(|(name, m)| html! {
                        <div>{ name.clone() }{ ": " }<span class="num">{ short(m[(q, k)]) }</span></div>
                    }) }
                    if props.undefined.contains(&q) {
                        <div class="tip-wrap">{ S::UndefinedRow.t(lang) }</div>
                    } else if masked {
                        <div class="tip-masked">{ S::MaskedCell.t(lang) }</div>
                    }
                </div>
            </>
        }
    });
    let (w_css, h_css) = layout.css_size();
    let corner = if props.transpose {
        format!("{} \\ {}", S::KeyWord.t(lang), S::QueryWord.t(lang))
    } else {
        format!("{} \\ {}", S::QueryWord.t(lang), S::KeyWord.t(lang))
    };

    html! {
        <div class="heatmap">
            <div class="heat-canvas" style={format!("width:{w_css}px;height:{h_css}px")}
                data-heat-head={props.head.map(|h| h.to_string())}>
                <canvas ref={canvas_ref} tabindex="0" role="application"
                    aria-roledescription={S::HeatmapRole.t(lang)}
                    aria-label={format!("{}. {}", props.title,
                        if props.on_activate.is_some() { S::HeatmapKeys } else { S::HeatmapKeysNoEnter }.t(lang))}
                    data-heatmap={props.head.map(|h| h.to_string())}
                    data-heatmap-diff={props.diff.clone()}
                    data-rows={n.to_string()} data-cols={n.to_string()}
                    data-cell={(layout.cell as f64 / layout.dpr).to_string()}
                    data-left={(layout.left as f64 / layout.dpr).to_string()}
                    data-top={(layout.top as f64 / layout.dpr).to_string()}
                    onpointerdown={onpointermove.clone()} {onpointermove} {onpointerleave} {onfocus} onblur={clear} {onkeydown} {onclick}></canvas>
                <div aria-live="polite">{ tip.unwrap_or_default() }</div>
                if props.head.is_some() {
                    // One frame per query for the walkthrough to outline.
                    { for (0..n).map(|q| {
                        let (x, y, _, _) = layout.cell_rect_css(q, q);
                        let (a, b) = (layout.left as f64 / layout.dpr, layout.top as f64 / layout.dpr);
                        let (cell, span) = (layout.cell as f64 / layout.dpr, n as f64 * layout.cell as f64 / layout.dpr);
                        let style = if props.transpose {
                            format!("left:{x}px;top:{b}px;width:{cell}px;height:{span}px")
                        } else {
                            format!("left:{a}px;top:{y}px;width:{span}px;height:{cell}px")
                        };
                        html! { <div class="heat-q" data-q={q.to_string()} style={style}></div> }
                    }) }
                }
            </div>
            <p class="heat-tools">
                <button class="link" onclick={png}>{ "PNG" }</button>
                <button class="link" onclick={svg}>{ "SVG" }</button>
                <button class="link" onclick={csv}>{ "CSV" }</button>
                <button class="link" aria-expanded={(*table_open).to_string()} onclick={toggle_table}>
                    { if *table_open { S::HideTable.t(lang) } else { S::ShowTable.t(lang) } }
                </button>
            </p>
            if *table_open {
                <div class="grid-scroll">
                    <table class="heat-table">
                        <caption>{ props.title.clone() }</caption>
                        <tr>
                            <th scope="col">{ corner }</th>
                            { for props.tokens.iter().take(n).enumerate().map(|(c, t)| html! {
                                <th scope="col">
                                    { t.clone() }
                                    // Column layout: a query is a column.
                                    if props.transpose && props.undefined.contains(&c) {
                                        { format!(" ({})", S::UndefinedShort.t(lang)) }
                                    }
                                </th>
                            }) }
                        </tr>
                        { for (0..n).map(|r| html! {
                            <tr>
                                <th scope="row">
                                    { props.tokens[r].clone() }
                                    // A query with no visible key (row layout: its row).
                                    if !props.transpose && props.undefined.contains(&r) {
                                        { format!(" ({})", S::UndefinedShort.t(lang)) }
                                    }
                                </th>
                                { for (0..n).map(|c| html! {
                                    <td>{ match props.cell(r, c) {
                                        Cell::Value(v) => short(v),
                                        // The softmax of this query does not exist: "—", as in the matrices.
                                        Cell::Masked if props.undefined.contains(&query_key(r, c, props.transpose).0) => "—".to_string(),
                                        Cell::Masked => S::MaskedCell.t(lang).to_string(),
                                    } }</td>
                                }) }
                            </tr>
                        }) }
                    </table>
                </div>
            }
        </div>
    }
}
