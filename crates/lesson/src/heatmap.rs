//! Attention weights as a heatmap: one coloured square per (query, key) pair.
//!
//! Everything a heatmap is made of is decided here, natively testable: where
//! each cell and label goes at a given device-pixel ratio, which cell lies
//! under a point, the colour of a value, the pixels of the cell area, and the
//! same picture as SVG and the numbers as CSV. The browser side only copies
//! the pixels onto a canvas and writes the labels (`app::heatmap::canvas`).
//!
//! Conventions:
//! - A heatmap is drawn in *display* coordinates `(r, c)`: row r from the top,
//!   column c from the left. In the row convention row r is query r and
//!   column c is key c; the column convention transposes the picture (keys
//!   down, queries across), never the numbers.
//! - Device pixels are whole numbers: a cell is `round(cell_css · dpr)`
//!   device pixels wide, so every edge falls on a pixel and stays crisp on a
//!   high-DPI screen. CSS sizes are device sizes divided by the ratio.
//! - Masked cells are not "weight 0": they are drawn hatched grey, a colour
//!   no value takes (every weight colour is far from grey; the light middle of the
//!   difference scale stays clear of both greys and has no stripes).

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell {
    /// A value in the scale's domain.
    Value(f64),
    /// The key is hidden from this query (or the row's softmax is undefined).
    Masked,
}

/// The colour scales. Both are colour-blind safe: viridis (sequential,
/// readable in grey too) and ColorBrewer's PuOr (diverging, purple–orange).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Attention weights, 0 (dark purple) to 1 (yellow); one scale for every
    /// head, so colours compare across heads.
    Weights,
    /// Head A − head B, −1 (purple: B attends more) to +1 (orange: A attends
    /// more); 0 is near-white.
    Difference,
}

/// Viridis at 0, 1/8, …, 1 (R's `viridis(9)`), linearly interpolated.
const VIRIDIS: [[u8; 3]; 9] = [
    [68, 1, 84],
    [71, 45, 123],
    [59, 82, 139],
    [44, 114, 142],
    [33, 144, 140],
    [39, 173, 129],
    [93, 200, 99],
    [170, 220, 50],
    [253, 231, 37],
];

/// PuOr (7 classes) from −1 to 1, purple to orange.
const PUOR: [[u8; 3]; 7] = [
    [84, 39, 136],
    [153, 142, 195],
    [216, 218, 235],
    [247, 246, 244],
    [254, 224, 182],
    [241, 163, 64],
    [179, 88, 6],
];

/// Masked cells: light grey with darker grey diagonal stripes.
pub const MASK_BASE: [u8; 3] = [226, 226, 226];
/// The stripes of a masked cell.
pub const MASK_STRIPE: [u8; 3] = [140, 140, 140];
/// Between cells (when cells are large enough to separate) and around them.
pub const PAPER: [u8; 3] = [255, 255, 255];

/// Where `t` (clamped to 0…1, NaN as 0) falls among the stops: `x` from 0
/// at the first stop to `stops.len() − 1` at the last.
fn position(stops: &[[u8; 3]], t: f64) -> f64 {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    t * (stops.len() - 1) as f64
}

/// The colour at position `x` (from [`position`]): between stops ⌊x⌋ and
/// ⌊x⌋ + 1, a fraction `x − ⌊x⌋` of the way.
fn lerp_at(stops: &[[u8; 3]], x: f64) -> [u8; 3] {
    let i = (x.floor() as usize).min(stops.len() - 2);
    mix(stops[i], stops[i + 1], x - i as f64)
}

/// A fraction `f` of the way from `a` to `b`, each channel rounded.
fn mix(a: [u8; 3], b: [u8; 3], f: f64) -> [u8; 3] {
    let ch = |k: usize| round_up_from_half(a[k] as f64 + (b[k] as f64 - a[k] as f64) * f) as u8;
    [ch(0), ch(1), ch(2)]
}

/// Each gap between two stops is cut into this many equal buckets of the
/// position `x` (a power of two, so `x · BUCKETS` is exact and its whole
/// part is the bucket).
const BUCKETS: usize = 1024;
/// A bucket in which the colour changes: its colours are computed.
const MIXED: u32 = 1 << 24;

/// The colour lookup table of a scale: one entry per bucket of positions,
/// the colour every position in the bucket has (`r | g << 8 | b << 16`),
/// or [`MIXED`] when they do not all have the same one.
///
/// Exact, not an approximation: within the gap between two stops each
/// channel of [`mix`] is a monotone function of the fraction (a product by
/// a constant, a sum and a rounding, each monotone), so a bucket whose
/// lowest and highest fractions give the same colour gives it everywhere
/// in between. Every other bucket is [`MIXED`] and its colours are
/// interpolated between the stops ([`mix`]).
fn table(stops: &[[u8; 3]]) -> Vec<u32> {
    let pack = |c: [u8; 3]| c[0] as u32 | (c[1] as u32) << 8 | (c[2] as u32) << 16;
    let mut t = Vec::with_capacity((stops.len() - 1) * BUCKETS);
    for gap in stops.windows(2) {
        let at = |k: usize| mix(gap[0], gap[1], k as f64 / BUCKETS as f64);
        let mut low = at(0);
        for k in 0..BUCKETS {
            let high = at(k + 1);
            t.push(if low == high { pack(low) } else { MIXED });
            low = high;
        }
    }
    t
}

/// The colour at position `x` (from [`position`]), read from the scale's
/// table where its bucket has one colour: the same colour as
/// [`lerp_at`], for every position (`lut_is_the_interpolation` tests it).
fn lookup(stops: &[[u8; 3]], table: &[u32], x: f64) -> [u8; 3] {
    // x ≥ 0, so the cast is the floor; the last stop (x = len − 1) is past
    // the table.
    match table.get((x * BUCKETS as f64) as usize) {
        Some(&e) if e & MIXED == 0 => [e as u8, (e >> 8) as u8, (e >> 16) as u8],
        _ => lerp_at(stops, x),
    }
}

/// The tables of both scales, built on first use (per thread: a
/// WebAssembly page has one), then kept for good.
fn tables() -> &'static [Vec<u32>; 2] {
    thread_local! {
        static T: std::cell::Cell<Option<&'static [Vec<u32>; 2]>> = const { std::cell::Cell::new(None) };
    }
    T.with(|t| {
        t.get().unwrap_or_else(|| {
            let built = Box::leak(Box::new([table(&VIRIDIS), table(&PUOR)]));
            t.set(Some(built));
            built
        })
    })
}

/// `x.round()` for `x ≥ 0` (halves go up), from `floor`, which WebAssembly
/// has as an instruction, where `round` is a library call: a heatmap
/// colours tens of thousands of cells per edit. `x − ⌊x⌋` is exact.
fn round_up_from_half(x: f64) -> f64 {
    let r = x.floor();
    if x - r >= 0.5 {
        r + 1.0
    } else {
        r
    }
}

impl Scale {
    /// The domain of values this scale colours; values outside are clamped.
    pub fn domain(self) -> (f64, f64) {
        match self {
            Scale::Weights => (0.0, 1.0),
            Scale::Difference => (-1.0, 1.0),
        }
    }

    /// The colour of `v` (clamped to the domain; NaN takes the low end):
    /// the stops linearly interpolated, each channel rounded.
    pub fn colour(self, v: f64) -> [u8; 3] {
        let stops = self.stops();
        lerp_at(stops, position(stops, self.t(v)))
    }

    /// The same colour as [`Scale::colour`], looked up in a table built on
    /// first use, which gives exactly the interpolated colour (see
    /// [`table`]). For the cells of whole heatmaps ([`pixels`]: a model
    /// view colours 32 maps of 64 × 64 per edit).
    pub fn colour_fast(self, v: f64) -> [u8; 3] {
        let stops = self.stops();
        let table = &tables()[self as usize];
        lookup(stops, table, position(stops, self.t(v)))
    }

    /// `v` as a fraction of the domain (unclamped).
    fn t(self, v: f64) -> f64 {
        let (lo, hi) = self.domain();
        (v - lo) / (hi - lo)
    }

    fn stops(self) -> &'static [[u8; 3]] {
        match self {
            Scale::Weights => &VIRIDIS,
            Scale::Difference => &PUOR,
        }
    }

    /// The stops of the scale as CSS colours from low to high, for a legend
    /// (`linear-gradient` with evenly spaced stops).
    pub fn css_stops(self) -> Vec<String> {
        self.stops().iter().map(|c| hex(*c)).collect()
    }
}

/// `#rrggbb`.
pub fn hex(c: [u8; 3]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::from("#");
    for b in c {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// WCAG relative luminance of an sRGB colour (0 black … 1 white).
pub fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let v = v as f64 / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG contrast ratio of two luminances (1 … 21).
pub fn contrast(a: f64, b: f64) -> f64 {
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

/// Whether a number written on this colour should be black (`true`) or
/// white: whichever contrasts more (at least 4.5:1 on both scales).
pub fn dark_text_on(c: [u8; 3]) -> bool {
    let l = luminance(c);
    contrast(l, 0.0) >= contrast(l, 1.0)
}

/// Where things go on a heatmap canvas, in device pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Display rows and columns.
    pub rows: usize,
    pub cols: usize,
    /// Device pixels per CSS pixel (`window.devicePixelRatio`).
    pub dpr: f64,
    /// Width and height of one cell, gap included.
    pub cell: u32,
    /// White pixels at the right and bottom of each cell (0 for small cells).
    pub gap: u32,
    /// Where the cells start (room for the row labels on the left and the
    /// column labels on top).
    pub left: u32,
    pub top: u32,
    /// The whole canvas.
    pub width: u32,
    pub height: u32,
}

impl Layout {
    /// A `rows × cols` heatmap with cells of about `cell_css` CSS pixels and
    /// label margins of `left_css` and `top_css`. A ratio that is not a
    /// positive number counts as 1; a cell is at least one device pixel.
    pub fn new(
        rows: usize,
        cols: usize,
        cell_css: f64,
        left_css: f64,
        top_css: f64,
        dpr: f64,
    ) -> Layout {
        let dpr = if dpr.is_finite() && dpr > 0.0 {
            dpr
        } else {
            1.0
        };
        let cell = ((cell_css * dpr).round().max(1.0)) as u32;
        let gap = if cell >= 8 {
            (dpr.round() as u32).max(1)
        } else {
            0
        };
        let left = (left_css.max(0.0) * dpr).ceil() as u32;
        let top = (top_css.max(0.0) * dpr).ceil() as u32;
        Layout {
            rows,
            cols,
            dpr,
            cell,
            gap,
            left,
            top,
            width: left + cols as u32 * cell,
            height: top + rows as u32 * cell,
        }
    }

    /// The canvas size in CSS pixels.
    pub fn css_size(&self) -> (f64, f64) {
        (self.width as f64 / self.dpr, self.height as f64 / self.dpr)
    }

    /// The cell under a point given in CSS pixels from the canvas's top-left
    /// corner (as `offsetX`/`offsetY` give it), if any. A gap belongs to the
    /// cell on its left/top.
    pub fn cell_at(&self, x_css: f64, y_css: f64) -> Option<(usize, usize)> {
        let x = x_css * self.dpr - self.left as f64;
        let y = y_css * self.dpr - self.top as f64;
        if !(x >= 0.0 && y >= 0.0) {
            return None;
        }
        let (c, r) = (
            (x / self.cell as f64) as usize,
            (y / self.cell as f64) as usize,
        );
        (r < self.rows && c < self.cols).then_some((r, c))
    }

    /// The coloured part of cell `(r, c)` (gap excluded) in CSS pixels:
    /// `(x, y, width, height)`.
    pub fn cell_rect_css(&self, r: usize, c: usize) -> (f64, f64, f64, f64) {
        let d = self.dpr;
        let x = self.left + c as u32 * self.cell;
        let y = self.top + r as u32 * self.cell;
        let s = (self.cell - self.gap) as f64 / d;
        (x as f64 / d, y as f64 / d, s, s)
    }

    /// The cell area's size in device pixels (what [`raster`] fills).
    pub fn area(&self) -> (u32, u32) {
        (self.cols as u32 * self.cell, self.rows as u32 * self.cell)
    }
}

/// The RGBA pixels of the cell area (`area()` wide and high, row-major,
/// opaque), ready for `putImageData` at `(left, top)`.
///
/// `cell(r, c)` gives what display cell `(r, c)` shows. Stripes of masked
/// cells run diagonally across the whole area, so neighbouring masked cells
/// join into one hatched region.
pub fn raster(layout: &Layout, scale: Scale, cell: impl Fn(usize, usize) -> Cell) -> Vec<u8> {
    let (w, h) = layout.area();
    let (w, h) = (w as usize, h as usize);
    let size = layout.cell as usize;
    let inner = size - layout.gap as usize;
    let period = ((5.0 * layout.dpr).round() as usize).max(4);
    let stripe = ((1.5 * layout.dpr).round() as usize).max(1);
    let mut px = vec![255u8; w * h * 4];
    // One colour per cell, looked up once.
    let colours: Vec<Option<[u8; 3]>> = (0..layout.rows)
        .flat_map(|r| (0..layout.cols).map(move |c| (r, c)))
        .map(|(r, c)| match cell(r, c) {
            Cell::Value(v) => Some(scale.colour(v)),
            Cell::Masked => None,
        })
        .collect();
    // Each pixel column's cell and whether it is inside it (not the gap),
    // worked out once rather than per pixel.
    let columns: Vec<(usize, bool)> = (0..w).map(|x| (x / size, x % size < inner)).collect();
    let line_of = |y: usize| (y / size, y % size < inner);
    for y in 0..h {
        let (r, in_y) = line_of(y);
        let hatched = in_y
            && colours[r * layout.cols..(r + 1) * layout.cols]
                .iter()
                .any(Option::is_none);
        // A line like the one above (same cell row, both inside or both
        // gap) with no hatching in it is the same pixels: copied.
        if y > 0 && !hatched && line_of(y - 1) == (r, in_y) {
            px.copy_within((y - 1) * w * 4..y * w * 4, y * w * 4);
            continue;
        }
        let line = &mut px[y * w * 4..(y + 1) * w * 4];
        for (x, &(c, in_x)) in columns.iter().enumerate() {
            let rgb = if !in_y || !in_x {
                PAPER
            } else {
                match colours[r * layout.cols + c] {
                    Some(rgb) => rgb,
                    None if (x + y) % period < stripe => MASK_STRIPE,
                    None => MASK_BASE,
                }
            };
            line[x * 4..x * 4 + 3].copy_from_slice(&rgb);
        }
    }
    px
}

/// What fills a heatmap's cell area.
#[derive(Clone, Debug, PartialEq)]
pub enum Pixels {
    /// Every device pixel of the area, as [`raster`] makes it (needed when
    /// a cell is masked: its stripes are finer than a cell).
    Area(Vec<u8>),
    /// One RGBA pixel per cell (`cols × rows`, row-major). The area is
    /// these scaled up to `cell`-pixel squares with the gap painted as
    /// paper over each cell's right and bottom edge (the tests' `expand`), which a
    /// canvas does itself: 64 × 64 cells are 16 KB to hand over, not the
    /// area's 800 KB.
    Cells(Vec<u8>),
}

/// The pixels of a heatmap: [`Pixels::Cells`] when no cell is masked,
/// else the whole [`raster`].
pub fn pixels(layout: &Layout, scale: Scale, cell: impl Fn(usize, usize) -> Cell) -> Pixels {
    let mut rgba = Vec::with_capacity(layout.rows * layout.cols * 4);
    for r in 0..layout.rows {
        for c in 0..layout.cols {
            match cell(r, c) {
                Cell::Value(v) => {
                    rgba.extend_from_slice(&scale.colour_fast(v));
                    rgba.push(255);
                }
                Cell::Masked => return Pixels::Area(raster(layout, scale, cell)),
            }
        }
    }
    Pixels::Cells(rgba)
}

/// One label of a heatmap, in CSS pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub x: f64,
    pub y: f64,
    pub text: String,
    /// Column labels that do not fit across a cell read upwards.
    pub vertical: bool,
    /// Row labels end at `x` (right-aligned); others are centred on it.
    pub end: bool,
}

/// Font size of heatmap labels, CSS pixels.
pub const LABEL_PX: f64 = 11.0;
/// Longest label shown in full (in characters); longer ones end in "…".
const LABEL_CHARS: usize = 8;

/// A label as drawn: at most [`LABEL_CHARS`] characters.
pub fn label_text(s: &str) -> String {
    if s.chars().count() <= LABEL_CHARS {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(LABEL_CHARS - 1).collect();
        t.push('…');
        t
    }
}

/// A generous width of a label in CSS pixels, so canvas and SVG need no
/// text measuring: CJK and other wide characters one em, the widest Latin
/// letters (W, M, m, w) one em, other capitals 0.8 em, the rest 0.66 em
/// (above the advance widths of the usual UI fonts, DejaVu Sans included;
/// the end-to-end tests measure real labels against it).
pub fn text_width(s: &str, px: f64) -> f64 {
    s.chars()
        .map(|c| match c {
            'W' | 'M' | 'm' | 'w' => 1.0,
            'A'..='Z' => 0.8,
            c if (c as u32) < 0x1100 => 0.66,
            _ => 1.0,
        })
        .sum::<f64>()
        * px
}

/// A heatmap's layout and labels: cells of about `cell_css` pixels,
/// `row_labels` down the left, `col_labels` along the top. When cells are
/// smaller than the text, only every k-th label is written.
pub fn figure(
    row_labels: &[String],
    col_labels: &[String],
    cell_css: f64,
    dpr: f64,
) -> (Layout, Vec<Label>) {
    let rows: Vec<String> = row_labels.iter().map(|s| label_text(s)).collect();
    let cols: Vec<String> = col_labels.iter().map(|s| label_text(s)).collect();
    let widest = |v: &[String]| {
        v.iter()
            .map(|s| text_width(s, LABEL_PX))
            .fold(0.0, f64::max)
    };
    let step = ((LABEL_PX + 1.0) / cell_css).ceil().max(1.0) as usize;
    let vertical = widest(&cols) > cell_css * step as f64 - 2.0;
    let left = widest(&rows) + 6.0;
    let top = if vertical {
        widest(&cols) + 6.0
    } else {
        LABEL_PX + 6.0
    };
    let layout = Layout::new(rows.len(), cols.len(), cell_css, left, top, dpr);
    let d = layout.dpr;
    let mut labels = Vec::new();
    for (i, t) in rows.into_iter().enumerate().filter(|(i, _)| i % step == 0) {
        let (_, y, _, s) = layout.cell_rect_css(i, 0);
        labels.push(Label {
            x: layout.left as f64 / d - 4.0,
            y: y + s / 2.0,
            text: t,
            vertical: false,
            end: true,
        });
    }
    for (j, t) in cols.into_iter().enumerate().filter(|(j, _)| j % step == 0) {
        let (x, _, s, _) = layout.cell_rect_css(0, j);
        labels.push(Label {
            x: x + s / 2.0,
            y: layout.top as f64 / d - 4.0,
            text: t,
            vertical,
            end: false,
        });
    }
    (layout, labels)
}

/// The number written inside a large cell: two decimals at most, trailing
/// zeros dropped (`0.5`, `0.07`, `1`); `—` when there is no value.
pub fn cell_text(v: f64) -> String {
    if v.is_finite() {
        super::format::rounded(v, 2)
    } else {
        "—".into()
    }
}

/// Escapes text for XML; characters XML 1.0 forbids (most control
/// characters, U+FFFE, U+FFFF) become U+FFFD, so any token label gives a
/// well-formed document.
fn xml(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\t' | '\n' | '\r' => o.push(ch),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => o.push('\u{fffd}'),
            _ => o.push(ch),
        }
    }
    o
}

/// The heatmap as a standalone SVG document (CSS pixels, labels as text,
/// masked cells hatched with a pattern), titled `title`.
pub fn svg(
    layout: &Layout,
    labels: &[Label],
    scale: Scale,
    title: &str,
    cell: impl Fn(usize, usize) -> Cell,
) -> String {
    let (w, h) = layout.css_size();
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"{LABEL_PX}\">\n<title>{}</title>\n<defs><pattern id=\"masked\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"5\" height=\"5\" fill=\"{}\"/><rect width=\"1.5\" height=\"5\" fill=\"{}\"/></pattern></defs>\n<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n",
        xml(title),
        hex(MASK_BASE),
        hex(MASK_STRIPE)
    );
    for r in 0..layout.rows {
        for c in 0..layout.cols {
            let (x, y, cw, ch) = layout.cell_rect_css(r, c);
            let fill = match cell(r, c) {
                Cell::Value(v) => hex(scale.colour(v)),
                Cell::Masked => "url(#masked)".to_string(),
            };
            s.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" fill=\"{fill}\"/>\n"
            ));
        }
    }
    for l in labels {
        // Turned labels read upwards from just above their column.
        let anchor = match (l.vertical, l.end) {
            (true, _) => "start",
            (false, true) => "end",
            (false, false) => "middle",
        };
        let turn = if l.vertical {
            format!(" transform=\"rotate(-90 {} {})\"", l.x, l.y)
        } else {
            String::new()
        };
        s.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" dominant-baseline=\"middle\"{turn}>{}</text>\n",
            l.x,
            l.y,
            xml(&l.text)
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// One CSV text field: quoted when it holds a comma, quote or line break,
/// and prefixed with `'` when it starts like a spreadsheet formula (`=`,
/// `+`, `-`, `@`, tab, carriage return), so a token label from a shared
/// link cannot run as one.
fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// A query-by-key matrix as CSV, always queries down and keys across (the
/// row-vector orientation of the results, whatever the page shows): a
/// header of key tokens, then one line per query starting with its token.
/// Values are exact (Rust's shortest round-trip `{}`); a value that does not
/// exist (an undefined softmax row) is an empty field.
pub fn csv(tokens: &[String], m: &attention::Matrix) -> String {
    let mut s = String::from("query\\key");
    for t in tokens.iter().take(m.ncols()) {
        s.push(',');
        s.push_str(&csv_field(t));
    }
    s.push('\n');
    for i in 0..m.nrows() {
        s.push_str(&csv_field(tokens.get(i).map_or("", |t| t.as_str())));
        for j in 0..m.ncols() {
            s.push(',');
            let v = m[(i, j)];
            if v.is_finite() {
                s.push_str(&format!("{v}"));
            }
        }
        s.push('\n');
    }
    s
}

/// Cell size (CSS px) of the focused heatmap and of the others, for n tokens
/// in a window `width` CSS px wide.
pub fn cell_sizes(n: usize, width: f64) -> (f64, f64) {
    // Room for labels and the page's padding.
    let room = (width - 110.0).clamp(120.0, 460.0);
    let n = n.max(1) as f64;
    (
        (room / n).floor().clamp(3.0, 44.0),
        (150.0 / n).floor().clamp(2.0, 22.0),
    )
}

#[cfg(test)]
mod tests;
