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
