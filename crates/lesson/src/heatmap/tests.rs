//! Tests of `heatmap`, beside it so that the module itself reads as one job.

use super::*;
use attention::Matrix;

#[test]
fn scales_hit_their_end_stops_and_clamp() {
    assert_eq!(Scale::Weights.colour(0.0), [68, 1, 84]);
    assert_eq!(Scale::Weights.colour(1.0), [253, 231, 37]);
    assert_eq!(Scale::Weights.colour(0.5), [33, 144, 140]);
    assert_eq!(Scale::Weights.colour(-3.0), Scale::Weights.colour(0.0));
    assert_eq!(Scale::Weights.colour(7.0), Scale::Weights.colour(1.0));
    assert_eq!(Scale::Weights.colour(f64::NAN), Scale::Weights.colour(0.0));
    assert_eq!(Scale::Difference.colour(-1.0), [84, 39, 136]);
    assert_eq!(Scale::Difference.colour(0.0), [247, 246, 244]);
    assert_eq!(Scale::Difference.colour(1.0), [179, 88, 6]);
    // Halfway between two stops is their rounded mean.
    assert_eq!(Scale::Weights.colour(1.0 / 16.0), [70, 23, 104]);
}

#[test]
fn weight_scale_gets_lighter_as_weights_grow() {
    // Viridis is monotone in luminance: a larger weight never looks darker.
    let lum = |c: [u8; 3]| 0.2126 * c[0] as f64 + 0.7152 * c[1] as f64 + 0.0722 * c[2] as f64;
    let mut last = -1.0;
    for i in 0..=200 {
        let l = lum(Scale::Weights.colour(i as f64 / 200.0));
        assert!(l >= last, "luminance fell at {i}/200");
        last = l;
    }
}

#[test]
fn no_scale_colour_is_a_mask_grey() {
    // Masked cells must never look like a value. The mask colours are
    // pure greys; every weight colour is far from grey, and the
    // difference scale stays visibly away from both greys (its light
    // middle is told apart by the stripes as well).
    assert_eq!(MASK_BASE[0], MASK_BASE[2]);
    assert_eq!(MASK_STRIPE[0], MASK_STRIPE[2]);
    let far = |a: [u8; 3], b: [u8; 3]| (0..3).map(|k| a[k].abs_diff(b[k])).max().unwrap() >= 8;
    for i in 0..=1000 {
        let t = i as f64 / 1000.0;
        let w = Scale::Weights.colour(t);
        let spread = w.iter().max().unwrap() - w.iter().min().unwrap();
        assert!(spread >= 30, "greyish weight colour {w:?} at {t}");
        let d = Scale::Difference.colour(2.0 * t - 1.0);
        for grey in [MASK_BASE, MASK_STRIPE] {
            assert!(
                far(w, grey) && far(d, grey),
                "{w:?} / {d:?} near {grey:?} at {t}"
            );
        }
    }
}

#[test]
fn hex_and_text_contrast() {
    assert_eq!(hex([0, 15, 255]), "#000fff");
    assert!(!dark_text_on(Scale::Weights.colour(0.0)));
    assert!(dark_text_on(Scale::Weights.colour(1.0)));
    assert_eq!(luminance([255, 255, 255]), 1.0);
    assert_eq!(luminance([0, 0, 0]), 0.0);
    assert!((contrast(1.0, 0.0) - 21.0).abs() < 1e-12);
    // Numbers in cells are readable on every colour of both scales
    // (WCAG AA for normal text: 4.5:1), black or white as chosen.
    for i in 0..=1000 {
        let t = i as f64 / 1000.0;
        for c in [
            Scale::Weights.colour(t),
            Scale::Difference.colour(2.0 * t - 1.0),
        ] {
            let ink = if dark_text_on(c) { 0.0 } else { 1.0 };
            let ratio = contrast(luminance(c), ink);
            assert!(ratio >= 4.5, "{c:?}: {ratio:.2}:1");
        }
    }
    assert_eq!(Scale::Weights.css_stops().len(), 9);
    assert_eq!(Scale::Weights.css_stops()[0], "#440154");
}

#[test]
fn layout_is_whole_device_pixels_at_any_ratio() {
    for dpr in [1.0, 1.25, 1.5, 2.0, 2.625, 3.0] {
        let l = Layout::new(4, 6, 20.0, 30.3, 17.0, dpr);
        assert_eq!(l.cell, (20.0 * dpr).round() as u32);
        assert_eq!(l.width, l.left + 6 * l.cell);
        assert_eq!(l.height, l.top + 4 * l.cell);
        assert!(l.left as f64 >= 30.3 * dpr);
        let (w, h) = l.css_size();
        assert!((w * dpr - l.width as f64).abs() < 1e-9);
        assert!((h * dpr - l.height as f64).abs() < 1e-9);
    }
    // Nonsense ratios fall back to 1; a cell is never empty.
    assert_eq!(Layout::new(1, 1, 10.0, 0.0, 0.0, f64::NAN).dpr, 1.0);
    assert_eq!(Layout::new(1, 1, 10.0, 0.0, 0.0, -2.0).dpr, 1.0);
    assert_eq!(Layout::new(64, 64, 0.1, 0.0, 0.0, 1.0).cell, 1);
}

#[test]
fn hit_testing_finds_the_cell_under_every_point() {
    for dpr in [1.0, 1.5, 2.0, 3.0] {
        let l = Layout::new(3, 5, 13.0, 20.0, 11.0, dpr);
        // The centre of each cell's coloured rectangle maps back to it.
        for r in 0..3 {
            for c in 0..5 {
                let (x, y, w, h) = l.cell_rect_css(r, c);
                assert_eq!(
                    l.cell_at(x + w / 2.0, y + h / 2.0),
                    Some((r, c)),
                    "dpr {dpr}"
                );
                // Its top-left corner too, and the last pixel before the next cell.
                assert_eq!(l.cell_at(x, y), Some((r, c)));
                let edge = (l.cell as f64 - 0.5) / dpr;
                assert_eq!(l.cell_at(x + edge, y + edge), Some((r, c)));
            }
        }
        // Labels and outside: nothing.
        let (x0, y0, _, _) = l.cell_rect_css(0, 0);
        assert_eq!(l.cell_at(x0 - 0.5, y0 + 1.0), None);
        assert_eq!(l.cell_at(x0 + 1.0, y0 - 0.5), None);
        let (w, h) = l.css_size();
        assert_eq!(l.cell_at(w + 0.1, h - 1.0), None);
        assert_eq!(l.cell_at(w - 1.0, h + 0.1), None);
        assert_eq!(l.cell_at(f64::NAN, 3.0), None);
    }
}

#[test]
fn hit_testing_agrees_with_a_pixel_walk() {
    // Every device pixel of the area belongs to the cell whose integer
    // range holds it, at a fractional ratio too.
    let l = Layout::new(4, 4, 9.0, 7.0, 5.0, 1.75);
    for py in 0..l.height {
        for px in 0..l.width {
            let expect = (px >= l.left && py >= l.top).then(|| {
                (
                    ((py - l.top) / l.cell) as usize,
                    ((px - l.left) / l.cell) as usize,
                )
            });
            let got = l.cell_at((px as f64 + 0.5) / l.dpr, (py as f64 + 0.5) / l.dpr);
            assert_eq!(got, expect, "pixel ({px}, {py})");
        }
    }
}

fn pixel(px: &[u8], l: &Layout, x: u32, y: u32) -> [u8; 3] {
    let i = ((y * l.area().0 + x) * 4) as usize;
    [px[i], px[i + 1], px[i + 2]]
}

/// The raster as first written: every pixel worked out on its own.
fn raster_per_pixel(layout: &Layout, scale: Scale, cell: impl Fn(usize, usize) -> Cell) -> Vec<u8> {
    let (w, h) = layout.area();
    let (w, h) = (w as usize, h as usize);
    let size = layout.cell as usize;
    let inner = size - layout.gap as usize;
    let period = ((5.0 * layout.dpr).round() as usize).max(4);
    let stripe = ((1.5 * layout.dpr).round() as usize).max(1);
    let mut px = vec![255u8; w * h * 4];
    for y in 0..h {
        for x in 0..w {
            let (r, c) = (y / size, x / size);
            let rgb = if y % size >= inner || x % size >= inner {
                PAPER
            } else {
                match cell(r, c) {
                    Cell::Value(v) => scale.colour(v),
                    Cell::Masked if (x + y) % period < stripe => MASK_STRIPE,
                    Cell::Masked => MASK_BASE,
                }
            };
            px[(y * w + x) * 4..(y * w + x) * 4 + 3].copy_from_slice(&rgb);
        }
    }
    px
}

#[test]
fn raster_equals_the_per_pixel_raster() {
    for (rows, cols) in [(1, 1), (3, 5), (8, 8), (17, 9), (64, 64)] {
        for cell_css in [2.0, 7.0, 9.0, 20.0] {
            for dpr in [1.0, 1.5, 2.0] {
                let l = Layout::new(rows, cols, cell_css, 12.0, 7.0, dpr);
                let cell = |r: usize, c: usize| {
                    if (r * 7 + c * 3) % 5 == 0 || r == 2 {
                        Cell::Masked
                    } else {
                        Cell::Value(((r * cols + c) % 11) as f64 / 10.0)
                    }
                };
                assert_eq!(
                    raster(&l, Scale::Weights, cell),
                    raster_per_pixel(&l, Scale::Weights, cell),
                    "{rows}×{cols} at {cell_css} px, dpr {dpr}"
                );
            }
        }
    }
}

#[test]
fn rounding_up_from_half_is_round_on_colour_values() {
    let mut rng = crate::random::Rng::new(7);
    let mut xs: Vec<f64> = (0..1_000_000).map(|_| rng.unit() * 256.0).collect();
    for k in 0..256 {
        let h = k as f64 + 0.5;
        xs.extend([
            k as f64,
            h,
            h.next_down(),
            h.next_up(),
            (k as f64).next_down().max(0.0),
        ]);
    }
    for x in xs {
        assert_eq!(
            round_up_from_half(x).to_bits(),
            x.round().to_bits(),
            "{x:e}"
        );
    }
}

/// The area's pixels that [`Pixels::Cells`] stands for: each cell's colour
/// over its whole square but the gap, which is paper. (What the canvas
/// draws; the tests hold it equal to [`raster`].)
fn expand(layout: &Layout, cells: &[u8]) -> Vec<u8> {
    let (w, h) = layout.area();
    let (w, h) = (w as usize, h as usize);
    let size = layout.cell as usize;
    let inner = size - layout.gap as usize;
    let mut px = vec![255u8; w * h * 4];
    for y in 0..h {
        if y % size >= inner {
            continue;
        }
        let r = y / size;
        for x in 0..w {
            if x % size < inner {
                let k = (r * layout.cols + x / size) * 4;
                px[(y * w + x) * 4..(y * w + x) * 4 + 4].copy_from_slice(&cells[k..k + 4]);
            }
        }
    }
    px
}

#[test]
fn cells_scaled_up_are_the_raster_when_nothing_is_masked() {
    for (rows, cols) in [(1, 1), (3, 5), (8, 8), (17, 9), (64, 64)] {
        for cell_css in [2.0, 7.0, 9.0, 20.0] {
            for dpr in [1.0, 1.5, 2.0] {
                let l = Layout::new(rows, cols, cell_css, 12.0, 7.0, dpr);
                let cell =
                    |r: usize, c: usize| Cell::Value(((r * 7 + c * 3) % 23) as f64 / 11.0 - 0.5);
                for scale in [Scale::Weights, Scale::Difference] {
                    let Pixels::Cells(cells) = pixels(&l, scale, cell) else {
                        panic!("no cell is masked")
                    };
                    assert_eq!(cells.len(), rows * cols * 4);
                    assert_eq!(
                        expand(&l, &cells),
                        raster(&l, scale, cell),
                        "{rows}×{cols} at {cell_css} px, dpr {dpr}"
                    );
                }
            }
        }
    }
    // One masked cell and the whole area is rastered (the stripes).
    let l = Layout::new(4, 4, 9.0, 0.0, 0.0, 1.0);
    let cell = |r: usize, c: usize| {
        if (r, c) == (3, 0) {
            Cell::Masked
        } else {
            Cell::Value(0.25)
        }
    };
    assert_eq!(
        pixels(&l, Scale::Weights, cell),
        Pixels::Area(raster(&l, Scale::Weights, cell))
    );
}

#[test]
fn raster_colours_cells_hatches_masks_and_separates() {
    let l = Layout::new(2, 2, 10.0, 0.0, 0.0, 2.0);
    assert_eq!((l.cell, l.gap), (20, 2));
    let px = raster(&l, Scale::Weights, |r, c| {
        if r == 0 && c == 1 {
            Cell::Masked
        } else {
            Cell::Value((r + c) as f64 / 2.0)
        }
    });
    assert_eq!(px.len(), 40 * 40 * 4);
    assert!(px.chunks(4).all(|p| p[3] == 255), "opaque");
    assert_eq!(pixel(&px, &l, 5, 5), Scale::Weights.colour(0.0));
    assert_eq!(pixel(&px, &l, 25, 25), Scale::Weights.colour(1.0));
    assert_eq!(pixel(&px, &l, 5, 25), Scale::Weights.colour(0.5));
    // Gap columns and rows are paper.
    assert_eq!(pixel(&px, &l, 19, 5), PAPER);
    assert_eq!(pixel(&px, &l, 5, 18), PAPER);
    // The masked cell holds only the two greys, and both of them.
    let mut seen = std::collections::BTreeSet::new();
    for y in 0..18 {
        for x in 20..38 {
            seen.insert(pixel(&px, &l, x, y));
        }
    }
    assert_eq!(seen, [MASK_STRIPE, MASK_BASE].into_iter().collect());
}

#[test]
fn small_cells_have_no_gap() {
    let l = Layout::new(64, 64, 3.0, 0.0, 0.0, 1.0);
    assert_eq!(l.gap, 0);
    let px = raster(&l, Scale::Weights, |_, _| Cell::Value(1.0));
    assert!(px.chunks(4).all(|p| p[..3] == Scale::Weights.colour(1.0)));
}

#[test]
fn labels_fit_or_turn_or_thin_out() {
    let toks = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // Short labels in big cells: horizontal, one per column, centred.
    let (l, labels) = figure(&toks(&["a", "b"]), &toks(&["a", "b"]), 40.0, 1.0);
    let cols: Vec<_> = labels.iter().filter(|x| !x.end).collect();
    assert_eq!(cols.len(), 2);
    assert!(cols.iter().all(|x| !x.vertical));
    let (x, _, w, _) = l.cell_rect_css(0, 1);
    assert_eq!(cols[1].x, x + w / 2.0);
    // Long labels turn upright and make room on top.
    let long = toks(&["attention", "softmax"]);
    let (l2, labels2) = figure(&long, &long, 20.0, 2.0);
    assert!(labels2.iter().filter(|x| !x.end).all(|x| x.vertical));
    assert!(l2.top as f64 / 2.0 >= text_width("attenti…", LABEL_PX));
    assert_eq!(labels2[0].text, "attenti…");
    // 64 tiny cells: every 4th label (3 px cells, 11 px text).
    let many: Vec<String> = (1..=64).map(|i| format!("x{i}")).collect();
    let (_, labels3) = figure(&many, &many, 3.0, 1.0);
    assert_eq!(labels3.iter().filter(|x| x.end).count(), 16);
    // Chinese labels count wider than Latin ones.
    assert!(text_width("我喜欢", 10.0) > text_width("abc", 10.0));
}

#[test]
fn svg_has_one_rect_per_cell_and_hatches_masks() {
    let l = Layout::new(2, 3, 10.0, 5.0, 5.0, 1.0);
    let svg = svg(&l, &[], Scale::Weights, "Head <1>", |r, c| {
        if c > r {
            Cell::Masked
        } else {
            Cell::Value(1.0)
        }
    });
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("<title>Head &lt;1&gt;</title>"));
    // 6 cells + background + 2 pattern rects.
    assert_eq!(svg.matches("<rect").count(), 6 + 1 + 2);
    assert_eq!(svg.matches("url(#masked)").count(), 3);
    assert_eq!(svg.matches("#fde725").count(), 3);
}

#[test]
fn cell_text_rounds_to_two_decimals() {
    assert_eq!(cell_text(0.5), "0.5");
    assert_eq!(cell_text(0.0663), "0.07");
    assert_eq!(cell_text(0.999), "1");
    assert_eq!(cell_text(-0.004), "0");
    assert_eq!(cell_text(-0.256), "-0.26");
    assert_eq!(cell_text(f64::NAN), "—");
}

#[test]
fn csv_is_exact_and_quotes_awkward_tokens() {
    let toks = vec!["a,b".to_string(), "say \"hi\"".to_string()];
    let m = Matrix::from_row_slice(2, 2, &[0.1 + 0.2, 0.0, f64::NAN, 1.0 / 3.0]);
    let text = csv(&toks, &m);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "query\\key,\"a,b\",\"say \"\"hi\"\"\"");
    assert_eq!(lines[1], "\"a,b\",0.30000000000000004,0");
    assert_eq!(lines[2], "\"say \"\"hi\"\"\",,0.3333333333333333");
    // Every written value reads back bit for bit.
    let back: f64 = lines[2].rsplit(',').next().unwrap().parse().unwrap();
    assert_eq!(back.to_bits(), (1.0f64 / 3.0).to_bits());
    // Labels that look like formulas are defused; numbers are not.
    let toks = vec!["=1+1".to_string(), "@x".to_string()];
    let m = Matrix::from_row_slice(2, 2, &[-0.5, 1.5, 0.0, 1.0]);
    let lines: Vec<String> = csv(&toks, &m).lines().map(String::from).collect();
    assert_eq!(lines[0], "query\\key,'=1+1,'@x");
    assert_eq!(lines[1], "'=1+1,-0.5,1.5");
}

#[test]
fn svg_text_is_well_formed_for_any_label() {
    assert_eq!(
        xml("a<b>&\"c\u{1}\u{ffff}\t"),
        "a&lt;b&gt;&amp;&quot;c\u{fffd}\u{fffd}\t"
    );
    let l = Layout::new(1, 1, 10.0, 40.0, 20.0, 1.0);
    let (_, labels) = figure(&["\u{0}x".to_string()], &["y".to_string()], 10.0, 1.0);
    let doc = svg(&l, &labels, Scale::Weights, "t\u{8}", |_, _| {
        Cell::Value(0.5)
    });
    assert!(!doc
        .chars()
        .any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r')));
}

#[test]
fn cell_sizes_fit_the_width_and_stay_readable() {
    // Note 004's three tokens in a wide window: big cells, capped.
    assert_eq!(cell_sizes(3, 1280.0), (44.0, 22.0));
    // 64 tokens: the focused map fills its room, the small ones stay visible.
    let (big, small) = cell_sizes(64, 1280.0);
    assert_eq!((big, small), (7.0, 2.0));
    // A phone: the room never drops below 120 px.
    assert_eq!(cell_sizes(8, 200.0).0, 15.0);
    // Never zero, even for n = 0.
    assert!(cell_sizes(0, 800.0).0 >= 3.0);
}

/// The colour by interpolation alone, without the lookup table: the reference the
/// table must give bit for bit (`round` here, which is what
/// `round_up_from_half` computes on these values).
fn colour_by_interpolation(scale: Scale, v: f64) -> [u8; 3] {
    let stops: &[[u8; 3]] = match scale {
        Scale::Weights => &VIRIDIS,
        Scale::Difference => &PUOR,
    };
    let (lo, hi) = scale.domain();
    let t = (v - lo) / (hi - lo);
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let (a, b) = (stops[i], stops[i + 1]);
    let mix = |k: usize| (a[k] as f64 + (b[k] as f64 - a[k] as f64) * f).round() as u8;
    [mix(0), mix(1), mix(2)]
}

#[test]
fn lut_is_the_interpolation() {
    for (scale, stops, table) in [
        (Scale::Weights, &VIRIDIS[..], &tables()[0]),
        (Scale::Difference, &PUOR[..], &tables()[1]),
    ] {
        let gaps = stops.len() - 1;
        assert_eq!(table.len(), gaps * BUCKETS);
        // Every bucket's edges and the positions just beside them, where a
        // colour would change if the table were off by one.
        for j in 0..=gaps * BUCKETS {
            let x = j as f64 / BUCKETS as f64;
            for x in [x, x.next_up(), x.next_down(), x + 0.5 / BUCKETS as f64] {
                let x = x.clamp(0.0, gaps as f64);
                assert_eq!(
                    lookup(stops, table, x),
                    lerp_at(stops, x),
                    "{scale:?} at x = {x:e}"
                );
            }
        }
        // A bucket with one colour has it at its lowest and highest
        // positions (the monotonicity the table relies on, checked).
        let mut uniform = 0;
        for (j, &e) in table.iter().enumerate() {
            if e & MIXED == 0 {
                uniform += 1;
                let low = j as f64 / BUCKETS as f64;
                let high = ((j + 1) as f64 / BUCKETS as f64).next_down();
                assert_eq!(
                    lerp_at(stops, low),
                    lerp_at(stops, high),
                    "{scale:?} bucket {j}"
                );
            }
        }
        // Most buckets need no arithmetic (else the table would not help).
        assert!(
            uniform * 10 > table.len() * 8,
            "{scale:?}: {uniform} of {}",
            table.len()
        );
        // Values: random ones across and beyond the domain, the domain's
        // ends and the awkward ones.
        let mut rng = crate::random::Rng::new(11);
        let (lo, hi) = scale.domain();
        let mut vs: Vec<f64> = (0..400_000)
            .map(|_| lo - 0.25 + rng.unit() * (hi - lo + 0.5))
            .collect();
        // Small weights (a softmax over many keys) are the common case.
        vs.extend((0..200_000).map(|_| rng.unit() * 0.05));
        vs.extend([
            lo,
            hi,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            1e-300,
            0.5,
            lo.next_up(),
            hi.next_down(),
            hi.next_up(),
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
        ]);
        for k in 0..=4096 {
            let v = lo + (hi - lo) * k as f64 / 4096.0;
            vs.extend([v, v.next_up(), v.next_down()]);
        }
        for v in vs {
            let want = colour_by_interpolation(scale, v);
            assert_eq!(scale.colour(v), want, "{scale:?} at {v:e}");
            assert_eq!(scale.colour_fast(v), want, "{scale:?} at {v:e}, looked up");
        }
    }
}
