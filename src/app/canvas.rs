//! The thin drawing step of a heatmap: everything about where and what was
//! decided by `lesson::heatmap`; this copies the pixels onto a canvas and
//! writes the labels and (in large cells) the numbers.

use crate::lesson::heatmap::{Label, Layout, LABEL_PX};
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// Text written inside a cell, CSS pixels (centre), black or white ink.
pub struct CellText {
    pub x: f64,
    pub y: f64,
    pub text: String,
    pub dark: bool,
}

/// The page's font stack, so Chinese token labels draw in a CJK font.
const FONT: &str =
    "system-ui, \"PingFang SC\", \"Microsoft YaHei\", \"Noto Sans CJK SC\", sans-serif";

/// Draws a heatmap: sizes the canvas (device pixels, CSS size = device /
/// ratio), paints it white, puts the cell pixels at the layout's corner and
/// writes the labels. Returns `None` if the browser gave no 2-D context.
pub fn draw(
    canvas: &HtmlCanvasElement,
    layout: &Layout,
    pixels: &[u8],
    labels: &[Label],
    texts: &[CellText],
) -> Option<()> {
    // Setting a canvas's size, even to the size it has, reallocates and
    // clears it: only when the size changes (the white fill clears it).
    if canvas.width() != layout.width || canvas.height() != layout.height {
        canvas.set_width(layout.width);
        canvas.set_height(layout.height);
    }
    let (w, h) = layout.css_size();
    let style = canvas.style();
    style.set_property("width", &format!("{w}px")).ok()?;
    style.set_property("height", &format!("{h}px")).ok()?;
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok()?;
    ctx.set_fill_style_str("#fff");
    ctx.fill_rect(0.0, 0.0, layout.width as f64, layout.height as f64);
    let (aw, ah) = layout.area();
    if aw > 0 && ah > 0 {
        let img = ImageData::new_with_u8_clamped_array_and_sh(Clamped(pixels), aw, ah).ok()?;
        ctx.put_image_data(&img, layout.left as f64, layout.top as f64)
            .ok()?;
    }
    let d = layout.dpr;
    ctx.set_transform(d, 0.0, 0.0, d, 0.0, 0.0).ok()?;
    ctx.set_text_baseline("middle");
    ctx.set_font(&format!("{LABEL_PX}px {FONT}"));
    ctx.set_fill_style_str("#1d2330");
    for l in labels {
        if l.vertical {
            ctx.save();
            ctx.translate(l.x, l.y).ok()?;
            ctx.rotate(-std::f64::consts::FRAC_PI_2).ok()?;
            ctx.set_text_align("start");
            ctx.fill_text(&l.text, 0.0, 0.0).ok()?;
            ctx.restore();
        } else {
            ctx.set_text_align(if l.end { "end" } else { "center" });
            ctx.fill_text(&l.text, l.x, l.y).ok()?;
        }
    }
    ctx.set_text_align("center");
    ctx.set_font(&format!("{}px {FONT}", LABEL_PX - 1.0));
    for t in texts {
        ctx.set_fill_style_str(if t.dark { "#000" } else { "#fff" });
        ctx.fill_text(&t.text, t.x, t.y).ok()?;
    }
    Some(())
}

/// The canvas as a PNG `data:` URL (what the PNG export downloads).
pub fn png_url(canvas: &HtmlCanvasElement) -> Option<String> {
    canvas.to_data_url().ok()
}
