//! Draws a [`Scene`] of the stage as SVG: one keyed `<g>` per item, moved by
//! its `transform`, so a frame only changes positions, opacities and the
//! few cells whose state changed. Everything about *where* is decided by
//! the pure layout in [`crate::lesson::stage`].

use crate::lesson::stage::{Body, CellState, Geometry, Item, Scene};
use yew::prelude::*;

/// Two decimals are plenty for positions (and keep attribute strings short).
fn px(v: f64) -> String {
    crate::lesson::format::rounded(v, 2)
}

fn item_view(it: &Item, g: &Geometry) -> Html {
    let class = classes!(
        "it",
        it.role.class(),
        it.lit.then_some("lit"),
        matches!(it.body, Body::Text { .. }).then_some("label")
    );
    let transform = format!("translate({} {})", px(it.x), px(it.y));
    let body = match &it.body {
        Body::Cells { cells, vertical } => html! {<>{
            for cells.iter().enumerate().map(|(k, c)| {
                let (x, y) = if *vertical { (0.0, k as f64 * g.ch) } else { (k as f64 * g.cw, 0.0) };
                let state = match c.state {
                    CellState::Value => "v",
                    CellState::Pending => "pending",
                    CellState::Masked => "masked",
                    CellState::Ellipsis => "more",
                };
                let text = if c.state == CellState::Pending { String::new() } else { c.text.clone() };
                html! {
                    <g class={classes!("cell", state, c.lit.then_some("lit"))} transform={format!("translate({} {})", px(x), px(y))}>
                        <rect width={px(g.cw)} height={px(g.ch)} />
                        if let (Some(b), CellState::Value) = (c.bar, c.state) {
                            <rect class="bar" y={px(g.ch * (1.0 - b))} width={px(g.cw)} height={px(g.ch * b)} />
                        }
                        <text x={px(g.cw - 5.0)} y={px(g.ch / 2.0 + g.font * 0.36)}
                            data-value={(c.state == CellState::Value).then(|| crate::lesson::format::exact(c.value))}>{ text }</text>
                    </g>
                }
            })
        }</>},
        Body::Text { lines, w, .. } => html! {<>{
            for lines.iter().enumerate().map(|(k, line)| html! {
                <text x={px(w / 2.0)} y={px(k as f64 * g.ch + g.ch / 2.0 + g.font * 0.36)} text-anchor="middle">{ crate::app::rich::rich_svg(line) }</text>
            })
        }</>},
    };
    html! {
        <g key={it.id.clone()} class={class} transform={transform}
            opacity={(it.opacity < 1.0).then(|| px(it.opacity))}
            data-id={it.id.clone()} data-lit={it.lit.then_some("true")}>
            { body }
        </g>
    }
}

/// The SVG of `scene`, `extent` (w, h) px, described by `label`.
pub fn draw(scene: &Scene, g: &Geometry, extent: (f64, f64), label: &str) -> Html {
    let w = extent.0.max(scene.w).ceil() + 2.0;
    let h = extent.1.max(scene.h).ceil() + 2.0;
    html! {
        <svg class="stage-svg" width={px(w)} height={px(h)} viewBox={format!("-1 -1 {} {}", px(w), px(h))}
            role="img" aria-label={crate::lesson::format::plain(label)} style={format!("font-size:{}px", px(g.font))}>
            { for scene.items.iter().filter(|it| it.opacity > 0.001).map(|it| item_view(it, g)) }
        </svg>
    }
}
