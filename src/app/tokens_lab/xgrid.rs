//! A matrix drawn as coloured cells (orange positive, green negative, the
//! strength the entry's share of the largest magnitude), each cell's value
//! in its tooltip: X of a hundred frames does not fit as numbers, but its
//! pattern does.

use crate::attention::Matrix;
use crate::lesson::format::exact_rows;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct XGridProps {
    pub x: std::rc::Rc<crate::app::tokens_lab::Seen>,
    /// Drawn transposed: one column per token (the audio's spectrogram).
    #[prop_or_default]
    pub transposed: bool,
    /// The query's token, outlined.
    pub query: usize,
    pub caption: AttrValue,
}

/// Cell colour of `v` where the largest magnitude is `max`.
fn fill(v: f64, max: f64) -> String {
    let a = if max > 0.0 {
        (v.abs() / max).min(1.0)
    } else {
        0.0
    };
    if v >= 0.0 {
        format!("rgba(217,95,2,{a:.3})")
    } else {
        format!("rgba(27,158,119,{a:.3})")
    }
}

#[component]
pub fn XGrid(p: &XGridProps) -> Html {
    let x: &Matrix = &p.x.x;
    let (n, d) = (x.nrows(), x.ncols());
    let (rows, cols) = if p.transposed { (d, n) } else { (n, d) };
    // Cells as large as fit in 320 × 260 px, at most 14 px.
    let cell = (320.0 / cols as f64).min(260.0 / rows as f64).min(14.0);
    let max = x.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let (w, h) = (cell * cols as f64, cell * rows as f64);
    let q = p.query as f64 * cell;
    let (qx, qy, qw, qh) = if p.transposed {
        (q, 0.0, cell, h)
    } else {
        (0.0, q, w, cell)
    };
    html! {
        <figure class="x-grid" data-x={format!("{n}x{d}")} data-values={exact_rows(x)}>
            <figcaption>{ p.caption.clone() }</figcaption>
            <svg viewBox={format!("0 0 {w} {h}")} width={w.to_string()} height={h.to_string()} role="img" aria-label={p.caption.clone()}>
                { for (0..n).flat_map(|i| (0..d).map(move |c| (i, c))).map(|(i, c)| {
                    let v = x[(i, c)];
                    let (cx, cy) = if p.transposed { (i, c) } else { (c, i) };
                    html! {
                        <rect x={(cx as f64 * cell).to_string()} y={(cy as f64 * cell).to_string()}
                            width={cell.to_string()} height={cell.to_string()} fill={fill(v, max)}>
                            <title>{ format!("X[{}, {}] = {:.3}", i + 1, c + 1, v) }</title>
                        </rect>
                    }
                }) }
                <rect class="query" x={qx.to_string()} y={qy.to_string()} width={qw.to_string()} height={qh.to_string()} />
            </svg>
        </figure>
    }
}
