//! Browser tests (wasm-bindgen-test in headless Chromium): the real app
//! mounted into a fresh element; its cells must carry the engine's numbers.
#![cfg(target_arch = "wasm32")]

use attention_lab::app::App;
use attention_lab::attention::{compute, Matrix};
use attention_lab::lesson::presets::default_scenario;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

async fn mount_app() -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    root
}

/// The `data-value` of every cell of `[data-matrix=name]` (first match),
/// as a matrix, checking that `data-row`/`data-col` cover it exactly once.
fn read_matrix(root: &Element, selector: &str, rows: usize, cols: usize) -> Matrix {
    let fig = root
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"));
    let cells = fig.query_selector_all("[data-row][data-col]").unwrap();
    assert_eq!(
        cells.length() as usize,
        rows * cols,
        "{selector}: cell count"
    );
    let mut m = Matrix::from_element(rows, cols, f64::NAN);
    for i in 0..cells.length() {
        let cell: Element = cells.item(i).unwrap().dyn_into().unwrap();
        let r: usize = cell.get_attribute("data-row").unwrap().parse().unwrap();
        let c: usize = cell.get_attribute("data-col").unwrap().parse().unwrap();
        let v: f64 = cell.get_attribute("data-value").unwrap().parse().unwrap();
        assert!(
            m[(r, c)].is_nan(),
            "{selector}: cell ({r},{c}) appears twice"
        );
        m[(r, c)] = v;
    }
    m
}

use wasm_bindgen::JsCast;

#[wasm_bindgen_test]
async fn output_cells_carry_the_engines_values() {
    let root = mount_app().await;
    let trace = compute(&default_scenario()).unwrap();
    let (n, w) = trace.output.shape();
    let shown = read_matrix(&root, "[data-matrix=output]", n, w);
    // Exactly equal: data-value is Rust's round-trip formatting.
    assert_eq!(shown, trace.output);
    // The note 004 example: output row 1 begins 1.9366… (not the note's
    // rounded 2).
    assert!((shown[(0, 0)] - 1.9366).abs() < 1e-4, "{}", shown[(0, 0)]);
}

#[wasm_bindgen_test]
async fn every_intermediate_of_the_head_is_on_the_page() {
    let root = mount_app().await;
    let s = default_scenario();
    let trace = compute(&s).unwrap();
    let h = &trace.heads[0];
    for (name, m) in [
        ("q", &h.q),
        ("k", &h.k),
        ("v", &h.v),
        ("scores", &h.scores),
        ("scaled", &h.scaled),
        ("weights", &h.weights),
        ("head_output", &h.output),
        ("w_q", &s.heads[0].w_q),
    ] {
        let sel = format!("[data-matrix={name}][data-head=\"1\"]");
        assert_eq!(&read_matrix(&root, &sel, m.nrows(), m.ncols()), m, "{name}");
    }
    assert_eq!(read_matrix(&root, "[data-matrix=x]", 3, 4), s.x);
    // X is not a per-head matrix.
    let x = root.query_selector("[data-matrix=x]").unwrap().unwrap();
    assert!(x.get_attribute("data-head").is_none());
}

/// Every RGBA byte of a canvas.
fn canvas_pixels(el: &web_sys::HtmlCanvasElement) -> Vec<u8> {
    use wasm_bindgen::JsCast;
    let ctx: web_sys::CanvasRenderingContext2d =
        el.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    ctx.get_image_data(0.0, 0.0, el.width() as f64, el.height() as f64)
        .unwrap()
        .data()
        .0
}

/// A heatmap's cells drawn scaled up by the canvas (one pixel per cell,
/// no smoothing, gaps painted over) come out as exactly the pixels of the
/// full raster, at cell sizes with and without gaps and at two ratios.
#[wasm_bindgen_test]
fn heatmap_cells_scaled_by_the_canvas_equal_the_raster() {
    use attention_lab::app::canvas;
    use attention_lab::lesson::heatmap::{self, Cell, Layout, Pixels, Scale};
    use wasm_bindgen::JsCast;
    let document = web_sys::window().unwrap().document().unwrap();
    let read = |layout: &Layout, pixels: &Pixels| -> Vec<u8> {
        let el: web_sys::HtmlCanvasElement = document
            .create_element("canvas")
            .unwrap()
            .dyn_into()
            .unwrap();
        canvas::draw(&el, layout, pixels, &[], &[], false).expect("drawn");
        canvas_pixels(&el)
    };
    for (rows, cols) in [(1, 1), (3, 5), (8, 8), (17, 9), (64, 64)] {
        for cell_css in [2.0, 7.0, 9.0, 20.0] {
            for dpr in [1.0, 2.0] {
                let layout = Layout::new(rows, cols, cell_css, 12.0, 7.0, dpr);
                let cell = |r: usize, c: usize| Cell::Value(((r * 7 + c * 3) % 23) as f64 / 22.0);
                let scaled = heatmap::pixels(&layout, Scale::Weights, cell);
                assert!(matches!(scaled, Pixels::Cells(_)));
                let full = Pixels::Area(heatmap::raster(&layout, Scale::Weights, cell));
                assert!(
                    read(&layout, &scaled) == read(&layout, &full),
                    "{rows}×{cols} at {cell_css} px, dpr {dpr}"
                );
            }
        }
    }
}

/// Redrawing a heatmap with new values over the same figure repaints only
/// the cells (the labels stay; numbers in cells redraw it all): the canvas
/// ends exactly as a full drawing of the new values, with and without
/// masked cells and numbers in cells.
#[wasm_bindgen_test]
fn a_redraw_of_new_values_equals_a_full_drawing() {
    use attention_lab::app::canvas::{self, CellText};
    use attention_lab::lesson::heatmap::{self, Cell, Scale};
    use wasm_bindgen::JsCast;
    let document = web_sys::window().unwrap().document().unwrap();
    let new_canvas = || -> web_sys::HtmlCanvasElement {
        document
            .create_element("canvas")
            .unwrap()
            .dyn_into()
            .unwrap()
    };
    let tokens: Vec<String> = ["the", "cat", "sat", "on", "a", "mat"]
        .map(String::from)
        .to_vec();
    for (cell_css, masked) in [(7.0, false), (30.0, false), (30.0, true)] {
        let (layout, labels) = heatmap::figure(&tokens, &tokens, cell_css, 1.0);
        let cells = |shift: usize| {
            move |r: usize, c: usize| {
                if masked && c > r {
                    Cell::Masked
                } else {
                    Cell::Value(((r * 5 + c * 3 + shift) % 7) as f64 / 6.0)
                }
            }
        };
        // Numbers only in cells large enough for them (as the page does).
        let texts = |shift: usize| -> Vec<CellText> {
            (0..if cell_css >= 20.0 { 6 } else { 0 })
                .map(|r| {
                    let (x, y, w, h) = layout.cell_rect_css(r, r);
                    CellText {
                        x: x + w / 2.0,
                        y: y + h / 2.0,
                        text: format!("{}", r + shift),
                        dark: r % 2 == 0,
                    }
                })
                .collect()
        };
        let once = new_canvas();
        let first = heatmap::pixels(&layout, Scale::Weights, cells(0));
        canvas::draw(&once, &layout, &first, &labels, &texts(0), false).unwrap();
        let second = heatmap::pixels(&layout, Scale::Weights, cells(3));
        canvas::draw(&once, &layout, &second, &labels, &texts(3), true).unwrap();
        let fresh = new_canvas();
        canvas::draw(&fresh, &layout, &second, &labels, &texts(3), false).unwrap();
        let (a, b) = (canvas_pixels(&once), canvas_pixels(&fresh));
        let diff: Vec<(usize, usize)> = (0..a.len() / 4)
            .filter(|&i| a[i * 4..i * 4 + 4] != b[i * 4..i * 4 + 4])
            .map(|i| (i % layout.width as usize, i / layout.width as usize))
            .collect();
        assert!(diff.is_empty(), "cells of {cell_css} px, masked {masked}: {} pixels differ, first {:?}, layout {layout:?}", diff.len(), &diff[..diff.len().min(8)]);
        // And the labels are on it (the picture is not only cells).
        let blank = new_canvas();
        canvas::draw(&blank, &layout, &second, &[], &texts(3), false).unwrap();
        assert!(
            canvas_pixels(&fresh) != canvas_pixels(&blank),
            "labels drawn"
        );
    }
}
