#![cfg(not(target_arch = "wasm32"))]
//! Properties of heatmap layout and hit-testing over random sizes and
//! device-pixel ratios: the oracle is integer division of device pixels,
//! written here from the layout's definition, not from its code.

use attention_lab::lesson::heatmap::{
    figure, raster, text_width, Cell, Layout, Scale, LABEL_PX, MASK_BASE, MASK_STRIPE,
};
use proptest::prelude::*;

mod common;
use common::config;

fn ratio() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1.0),
        Just(1.25),
        Just(1.5),
        Just(2.0),
        Just(3.0),
        0.5f64..4.0
    ]
}

proptest! {
    #![proptest_config(config(256))]

    /// Any point over the cell area maps to the cell whose device-pixel
    /// square holds it; points left of or above the area map to none.
    #[test]
    fn hit_testing_is_integer_division_of_device_pixels(
        rows in 1usize..=64, cols in 1usize..=64,
        cell in 1.0f64..48.0, left in 0.0f64..80.0, top in 0.0f64..80.0,
        dpr in ratio(),
        fx in 0.0f64..1.0, fy in 0.0f64..1.0,
    ) {
        let l = Layout::new(rows, cols, cell, left, top, dpr);
        prop_assert!(l.cell >= 1);
        prop_assert_eq!(l.width, l.left + cols as u32 * l.cell);
        // A device pixel anywhere on the canvas, probed at its centre.
        let px = (fx * l.width as f64).floor().min(l.width as f64 - 1.0) as u32;
        let py = (fy * l.height as f64).floor().min(l.height as f64 - 1.0) as u32;
        let want = (px >= l.left && py >= l.top)
            .then(|| (((py - l.top) / l.cell) as usize, ((px - l.left) / l.cell) as usize));
        let got = l.cell_at((px as f64 + 0.5) / l.dpr, (py as f64 + 0.5) / l.dpr);
        prop_assert_eq!(got, want);
    }

    /// The labelled figure leaves each label room outside the cell area and
    /// inside the canvas (by the generous width estimate, which the
    /// end-to-end tests check against the browser's measure), and every
    /// cell's centre maps back to that cell.
    #[test]
    fn figures_leave_room_for_labels(
        n in 1usize..=64, cell in 2.0f64..44.0, dpr in ratio(),
        long in proptest::bool::ANY,
    ) {
        let tokens: Vec<String> = (0..n)
            .map(|i| if long { format!("WMtoken-{i}-我") } else { format!("x{i}") })
            .collect();
        let (l, labels) = figure(&tokens, &tokens, cell, dpr);
        let (x0, y0) = (l.left as f64 / l.dpr, l.top as f64 / l.dpr);
        for lab in &labels {
            let w = text_width(&lab.text, LABEL_PX);
            if lab.end {
                // A row label: right-aligned before the cells, fully inside
                // the canvas, vertically within the cell area.
                prop_assert!(lab.x < x0 && lab.x - w >= 0.0, "row label {:?} ({w} px)", lab);
                prop_assert!(lab.y > y0);
            } else if lab.vertical {
                // A turned column label reads upwards from above the cells.
                prop_assert!(lab.y < y0 && lab.y - w >= 0.0, "column label {:?} ({w} px)", lab);
            } else {
                // A level column label sits above the cells, within its column.
                prop_assert!(lab.y < y0 && lab.y - LABEL_PX / 2.0 >= 0.0, "{:?}", lab);
                // Level labels are written every `step` columns only when the
                // widest fits that span: neighbours never overlap.
                // (measured between neighbouring label centres as drawn).
                let step = ((LABEL_PX + 1.0) / cell).ceil().max(1.0);
                let spacing = step * l.cell as f64 / l.dpr;
                prop_assert!(w <= spacing, "{:?} ({w} px, {spacing} px apart)", lab);
            }
        }
        for r in [0, n / 2, n - 1] {
            let (x, y, w, h) = l.cell_rect_css(r, n - 1 - r);
            prop_assert_eq!(l.cell_at(x + w / 2.0, y + h / 2.0), Some((r, n - 1 - r)));
        }
    }

    /// Masked cells hold only the two mask greys; other cells only their
    /// scale colour and (between cells) white.
    #[test]
    fn raster_keeps_masked_and_valued_cells_apart(
        n in 1usize..=12, cell in 1.0f64..20.0, dpr in ratio(), seed in 0u64..1000,
    ) {
        let l = Layout::new(n, n, cell, 0.0, 0.0, dpr);
        let masked = |r: usize, c: usize| (r * 31 + c * 17 + seed as usize) % 3 == 0;
        let value = |r: usize, c: usize| ((r * 7 + c * 3 + seed as usize) % 11) as f64 / 10.0;
        let px = raster(&l, Scale::Weights, |r, c| {
            if masked(r, c) { Cell::Masked } else { Cell::Value(value(r, c)) }
        });
        let (w, _) = l.area();
        for (i, p) in px.chunks(4).enumerate() {
            let (x, y) = (i as u32 % w, i as u32 / w);
            let (r, c) = ((y / l.cell) as usize, (x / l.cell) as usize);
            let rgb = [p[0], p[1], p[2]];
            let gap = x % l.cell >= l.cell - l.gap || y % l.cell >= l.cell - l.gap;
            if gap {
                prop_assert_eq!(rgb, [255, 255, 255]);
            } else if masked(r, c) {
                prop_assert!(rgb == MASK_BASE || rgb == MASK_STRIPE);
            } else {
                prop_assert_eq!(rgb, Scale::Weights.colour(value(r, c)));
            }
        }
    }
}
