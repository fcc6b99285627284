//! A heatmap's exports: the canvas as PNG, the map as SVG (the same
//! layout, drawn as vectors) and its numbers as CSV.

use super::{canvas, HeatmapProps};
use crate::app::web;
use crate::lesson::heatmap;
use yew::prelude::*;

/// The PNG, SVG and CSV buttons' handlers.
pub(super) fn exports(props: &HeatmapProps, canvas_ref: &NodeRef) -> [Callback<MouseEvent>; 3] {
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
                        web::download_url(&name, &url);
                    }
                }
                "svg" => {
                    let (layout, labels) = p.figure(1.0);
                    let text =
                        heatmap::svg(&layout, &labels, p.scale(), &p.title, |r, c| p.cell(r, c));
                    web::download(&name, "image/svg+xml", &text);
                }
                _ => {
                    web::download(
                        &name,
                        "text/csv",
                        &heatmap::csv(&p.trace.tokens, &p.matrix()),
                    );
                }
            }
        })
    };
    [export("png"), export("svg"), export("csv")]
}
