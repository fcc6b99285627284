//! The thin drawing step of a heatmap: everything about where and what was
//! decided by `lesson::heatmap`; this copies the pixels onto a canvas and
//! writes the labels and (in large cells) the numbers.

use crate::lesson::heatmap::{Label, Layout, Pixels, LABEL_PX};
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

thread_local! {
    /// A canvas off the page that one heatmap's cells (one pixel each) are
    /// put on before they are drawn scaled up.
    static SCRATCH: Option<HtmlCanvasElement> = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("canvas").ok())
        .and_then(|e| e.dyn_into().ok());
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// Puts `layout.cols × layout.rows` cell pixels on the scratch canvas and
/// draws them onto `ctx` scaled up by the whole number `layout.cell`, with
/// no smoothing: each cell a square of exactly its colour. Then the gaps
/// are painted white (the tests' `expand` in `lesson::heatmap` is the
/// result).
fn draw_cells(ctx: &CanvasRenderingContext2d, layout: &Layout, cells: &[u8]) -> Option<()> {
    let (cols, rows) = (layout.cols as u32, layout.rows as u32);
    let img = ImageData::new_with_u8_clamped_array_and_sh(Clamped(cells), cols, rows).ok()?;
    SCRATCH.with(|scratch| {
        let scratch = scratch.as_ref()?;
        if scratch.width() != cols || scratch.height() != rows {
            scratch.set_width(cols);
            scratch.set_height(rows);
        }
        context(scratch)?.put_image_data(&img, 0.0, 0.0).ok()?;
        let (aw, ah) = layout.area();
        let (left, top) = (layout.left as f64, layout.top as f64);
        ctx.set_image_smoothing_enabled(false);
        ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
            scratch, left, top, aw as f64, ah as f64,
        )
        .ok()?;
        if layout.gap > 0 {
            let (cell, gap) = (layout.cell, layout.gap as f64);
            let inner = (cell - layout.gap) as f64;
            ctx.set_fill_style_str("#fff");
            for k in 0..cols {
                ctx.fill_rect(left + (k * cell) as f64 + inner, top, gap, ah as f64);
            }
            for k in 0..rows {
                ctx.fill_rect(left, top + (k * cell) as f64 + inner, aw as f64, gap);
            }
        }
        Some(())
    })
}

/// Draws a heatmap: sizes the canvas (device pixels, CSS size = device /
/// ratio), paints it white, draws the cells at the layout's corner and
/// writes the labels. With `labelled` (the canvas shows this layout and
/// its labels already, so its sizes are set) and no numbers in cells,
/// only the cell area is drawn again: it is opaque and the labels are
/// outside it. Returns `None` if the browser gave no 2-D context.
pub fn draw(
    canvas: &HtmlCanvasElement,
    layout: &Layout,
    pixels: &Pixels,
    labels: &[Label],
    texts: &[CellText],
    labelled: bool,
) -> Option<()> {
    // Setting a canvas's size, even to the size it has, reallocates and
    // clears it: only when the size changes (the white fill clears it).
    let resized = canvas.width() != layout.width || canvas.height() != layout.height;
    if resized {
        canvas.set_width(layout.width);
        canvas.set_height(layout.height);
    }
    // The CSS size is the layout's: set with the layout, and as it is
    // when the canvas shows this layout already.
    if !labelled || resized {
        let (w, h) = layout.css_size();
        let style = canvas.style();
        style.set_property("width", &format!("{w}px")).ok()?;
        style.set_property("height", &format!("{h}px")).ok()?;
    }
    // Numbers in cells may reach past the area's edge: drawn in full.
    let labelled = labelled && !resized && texts.is_empty();
    let ctx = context(canvas)?;
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok()?;
    if !labelled {
        ctx.set_fill_style_str("#fff");
        ctx.fill_rect(0.0, 0.0, layout.width as f64, layout.height as f64);
    }
    let (aw, ah) = layout.area();
    if aw > 0 && ah > 0 {
        match pixels {
            Pixels::Cells(cells) => draw_cells(&ctx, layout, cells)?,
            Pixels::Area(px) => {
                let img = ImageData::new_with_u8_clamped_array_and_sh(Clamped(px), aw, ah).ok()?;
                ctx.put_image_data(&img, layout.left as f64, layout.top as f64)
                    .ok()?;
            }
        }
    }
    if labelled {
        // The labels are there and there are no numbers to write.
        return Some(());
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
