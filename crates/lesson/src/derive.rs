//! # Show your work: how one cell got its number
//!
//! Every number attention produces is a short calculation on numbers the
//! learner can already see. Selecting a cell opens that calculation, written
//! out with the actual values:
//!
//! - a **score** `α_{i,j}` is the dot product of query `i` with key `j`,
//!   `q^i (k^j)ᵀ = Σ_c q^i_c k^j_c` (column convention: `(k^j)ᵀ q^i`), every
//!   product shown (`1·4 + 0·4 + 2·0 = 4` in note `004`);
//! - a **scaled** score divides it by `√d_k` (or keeps it, without scaling);
//! - a **weight** `α′_{i,j}` is a softmax over the keys query `i` may see:
//!   `exp(s′_{i,j}) / Σ_m exp(s′_{i,m})`. The engine subtracts the row's
//!   largest score `μ_i` first (`exp(s′ − μ_i)`, which cannot overflow); the
//!   factor `exp(−μ_i)` cancels, and the derivation shows both forms. A
//!   masked key counts as a score of `−∞`: its weight is exactly 0 and it
//!   adds 0 to the normaliser. A query that may see no key at all has no
//!   softmax: its derivation is one `Undefined` step;
//! - a **head output** `b^i_c = Σ_j α′_{i,j} v^j_c` is a weighted sum of the
//!   values;
//! - an **output** entry is `Σ_m concat_{i,m} (W_O)_{m,c}`, or, without
//!   `W_O`, a copy of one head's output column.
//!
//! Indices are 0-based in [`CellRef`] (like `data-row`/`data-col`) and
//! 1-based on screen (`α_{1,2}`). Numbers are shown with
//! [`format::short`](super::format::short); each step's `value` is the exact
//! f64. The engine sums products left to right
//! ([`matmul`](attention::matmul)), and the derivation lists the terms
//! in that same order, so adding up the exact terms gives the stored value
//! bit for bit (the tests check it). Sums longer than 8 terms show the first
//! 6, `⋯`, and the last 2; the `∑` bounds say how many terms there are.

use super::formulas::ml::*;
use super::names::Convention;
use attention::{HeadTrace, Scenario, Trace};

/// One cell of a computed matrix, in the row-vector orientation (docs/format.md §3,
/// whatever the display convention). `head` is 0-based, `i` the query row,
/// `j` the key, `c` the feature column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellRef {
    /// `scores[i][j]` of a head.
    Scores { head: usize, i: usize, j: usize },
    /// `scaled[i][j]` of a head.
    Scaled { head: usize, i: usize, j: usize },
    /// `weights[i][j]` of a head.
    Weights { head: usize, i: usize, j: usize },
    /// `head_output[i][c]` of a head.
    HeadOutput { head: usize, i: usize, c: usize },
    /// `output[i][c]`.
    Output { i: usize, c: usize },
}

impl CellRef {
    /// The head the cell belongs to (`None` for the output).
    pub fn head(self) -> Option<usize> {
        match self {
            CellRef::Scores { head, .. }
            | CellRef::Scaled { head, .. }
            | CellRef::Weights { head, .. }
            | CellRef::HeadOutput { head, .. } => Some(head),
            CellRef::Output { .. } => None,
        }
    }

    /// The matrix the cell belongs to.
    pub fn matrix(self) -> super::names::MatrixName {
        use super::names::MatrixName as M;
        match self {
            CellRef::Scores { .. } => M::Scores,
            CellRef::Scaled { .. } => M::Scaled,
            CellRef::Weights { .. } => M::Weights,
            CellRef::HeadOutput { .. } => M::HeadOutput,
            CellRef::Output { .. } => M::Output,
        }
    }

    /// `(data-row, data-col)` of the cell.
    pub fn row_col(self) -> (usize, usize) {
        match self {
            CellRef::Scores { i, j, .. }
            | CellRef::Scaled { i, j, .. }
            | CellRef::Weights { i, j, .. } => (i, j),
            CellRef::HeadOutput { i, c, .. } | CellRef::Output { i, c } => (i, c),
        }
    }
}

/// What a step does; the page turns it into a caption in the learner's
/// language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// `α_{i,j} = q^i (k^j)ᵀ`, every product written out.
    DotProduct,
    /// `s′_{i,j} = α_{i,j} / √d_k`, or `s′_{i,j} = α_{i,j}` when the scenario
    /// does not scale (the page knows which from `Scenario::scale`).
    Scale,
    /// Key `j` is hidden from query `i`: its score counts as `−∞`, its weight
    /// is exactly 0.
    Mask,
    /// `μ_i = max_m s′_{i,m}` and `exp(s′_{i,j} − μ_i)`.
    Exp,
    /// `Σ_m exp(s′_{i,m} − μ_i)`, masked keys contributing 0.
    Normaliser,
    /// `α′_{i,j}`: the exponential divided by the normaliser.
    Weight,
    /// `b^i_c = Σ_j α′_{i,j} v^j_c`.
    WeightedSum,
    /// An output entry: `concat · W_O`.
    Projection,
    /// An output entry without `W_O`: the concatenation's entry, which is
    /// one head's output entry.
    Copy,
    /// Query `i` may see no key, so its softmax (and everything after it)
    /// does not exist. `value` is NaN.
    Undefined,
}

/// One line of a derivation.
#[derive(Clone, Debug, PartialEq)]
pub struct DerivationStep {
    pub kind: StepKind,
    /// One `<math display="block">` element.
    pub math: String,
    /// The exact result of this step (NaN for [`StepKind::Undefined`]).
    pub value: f64,
}

/// The steps that lead to one cell's value; the last step's `value` is the
/// cell's value in the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Derivation {
    pub steps: Vec<DerivationStep>,
}

impl Derivation {
    /// The cell's value (the last step's), NaN if undefined.
    pub fn value(&self) -> f64 {
        self.steps.last().map_or(f64::NAN, |s| s.value)
    }
}

/// Derives one cell of `trace` (computed from `scenario`) with its numbers,
/// written in `conv`.
///
/// Returns `None` when the cell is out of range (head, row or column), or
/// when `scenario` and `trace` do not fit together.
pub fn derive(
    scenario: &Scenario,
    trace: &Trace,
    cell: CellRef,
    conv: Convention,
) -> Option<Derivation> {
    let steps = build(scenario, trace, cell, conv)?;
    Some(Derivation {
        steps: steps.into_iter().map(|b| b.step).collect(),
    })
}

/// A step plus the exact summands it shows, in the order shown (including
/// those elided behind `⋯`); empty when the step is not a sum.
struct Built {
    step: DerivationStep,
    // Read by the tests, which re-add the terms to check the shown sum.
    #[cfg_attr(not(test), allow(dead_code))]
    terms: Vec<f64>,
}

fn built(kind: StepKind, body: Vec<String>, value: f64, terms: Vec<f64>) -> Built {
    Built {
        step: DerivationStep {
            kind,
            math: block(&lines(&body)),
            value,
        },
        terms,
    }
}

/// A chain `a = b = c = value` as one line per `=` (`a = b`, then `= c`,
/// then `= value`), left-aligned rows of an `mtable`: a long sum wraps
/// instead of pushing its result out of sight in a narrow panel.
fn lines(body: &[String]) -> String {
    let eq = mo("=");
    let mut rows: Vec<Vec<&str>> = vec![Vec::new()];
    for part in body {
        let first_line_has_eq = rows.len() == 1 && rows[0].iter().any(|p| *p == eq);
        if *part == eq && (rows.len() > 1 || first_line_has_eq) {
            rows.push(Vec::new());
        }
        rows.last_mut().expect("one row at least").push(part);
    }
    if rows.len() == 1 {
        return row(&rows[0]);
    }
    let cells: String = rows
        .iter()
        .map(|r| format!("<mtr><mtd>{}</mtd></mtr>", row(r)))
        .collect();
    format!("<mtable class=\"chain\">{cells}</mtable>")
}

fn build(
    scenario: &Scenario,
    trace: &Trace,
    cell: CellRef,
    conv: Convention,
) -> Option<Vec<Built>> {
    let n = trace.n();
    let undefined = |i: usize| trace.undefined_rows.contains(&i);
    match cell {
        CellRef::Scores { head, i, j } => {
            let cx = Ctx::new(scenario, trace, head, conv)?;
            (i < n && j < n).then(|| vec![cx.dot(i, j)])
        }
        CellRef::Scaled { head, i, j } => {
            let cx = Ctx::new(scenario, trace, head, conv)?;
            (i < n && j < n).then(|| vec![cx.dot(i, j), cx.scale(i, j)])
        }
        CellRef::Weights { head, i, j } => {
            let cx = Ctx::new(scenario, trace, head, conv)?;
            if i >= n || j >= n {
                return None;
            }
            if undefined(i) {
                return Some(vec![cx.undefined(i, cx.weight_lhs(i, j))]);
            }
            let mut steps = vec![cx.dot(i, j), cx.scale(i, j)];
            if trace.allowed[(i, j)] {
                let (mu, exps, z) = cx.softmax_parts(i);
                steps.push(cx.exp(i, j, mu, exps[j]));
                let e = exps[j];
                steps.push(cx.normaliser(i, exps, z));
                steps.push(cx.weight(i, j, e, z));
            } else {
                steps.push(cx.mask(i, j));
            }
            Some(steps)
        }
        CellRef::HeadOutput { head, i, c } => {
            let cx = Ctx::new(scenario, trace, head, conv)?;
            if i >= n || c >= cx.h.output.ncols() {
                return None;
            }
            if undefined(i) {
                return Some(vec![cx.undefined(i, cx.head_output_lhs(i, c))]);
            }
            Some(vec![cx.weighted_sum(i, c)])
        }
        CellRef::Output { i, c } => {
            // The output belongs to no head: borrow head 0's context for
            // the shapes, without a head mark in the notation.
            let mut cx = Ctx::new(scenario, trace, 0, conv)?;
            cx.r = None;
            if i >= n || c >= trace.output.ncols() {
                return None;
            }
            if undefined(i) {
                return Some(vec![cx.undefined(i, cx.output_lhs(i, c))]);
            }
            cx.output(i, c).map(|b| vec![b])
        }
    }
}

/// Shows `items` joined by `+`; more than 8 become the first 6, `⋯`, the
/// last 2.
fn elided_sum(items: Vec<String>) -> String {
    let shown: Vec<String> = if items.len() > 8 {
        let mut v = items[..6].to_vec();
        v.push(mo("⋯"));
        v.extend_from_slice(&items[items.len() - 2..]);
        v
    } else {
        items
    };
    let mut parts = Vec::with_capacity(shown.len() * 2);
    for (k, it) in shown.into_iter().enumerate() {
        if k > 0 {
            parts.push(mo("+"));
        }
        parts.push(it);
    }
    row(&parts)
}

/// `a·b` for each pair, as a (possibly elided) sum.
fn products(pairs: &[(f64, f64)]) -> String {
    elided_sum(
        pairs
            .iter()
            .map(|&(a, b)| row(&[factor(a), mo("·"), factor(b)]))
            .collect(),
    )
}

/// Adds `terms` left to right, as the engine's `matmul` does.
#[cfg(test)]
fn left_to_right(terms: &[f64]) -> f64 {
    terms.iter().fold(0.0, |acc, t| acc + t)
}

/// 1-based on screen.
fn one(i: usize) -> String {
    int(i + 1)
}

/// Everything needed to write one head's steps.
struct Ctx<'a> {
    conv: Convention,
    /// The 1-based head shown in superscripts, when there is more than one.
    r: Option<usize>,
    h: &'a HeadTrace,
    trace: &'a Trace,
    scenario: &'a Scenario,
}

impl<'a> Ctx<'a> {
    fn new(
        scenario: &'a Scenario,
        trace: &'a Trace,
        head: usize,
        conv: Convention,
    ) -> Option<Ctx<'a>> {
        let h = trace.heads.get(head)?;
        let n = trace.n();
        let fits = h.scores.shape() == (n, n)
            && h.scaled.shape() == (n, n)
            && h.weights.shape() == (n, n)
            && h.q.shape() == h.k.shape()
            && h.q.nrows() == n
            && h.v.nrows() == n
            && h.output.shape() == h.v.shape()
            && trace.allowed.shape() == (n, n);
        fits.then_some(Ctx {
            conv,
            r: (trace.heads.len() > 1).then_some(head + 1),
            h,
            trace,
            scenario,
        })
    }

    fn row_conv(&self) -> bool {
        self.conv == Convention::Row
    }

    /// The `(r)` superscript of per-head scalars, if any.
    fn head_mark(&self) -> Option<String> {
        self.r.map(|r| paren(&int(r)))
    }

    /// `α_{i,j}` (primed: `α′_{i,j}`), with `(r)` when there are heads.
    fn alpha(&self, i: &str, j: &str, primed: bool) -> String {
        self.scalar("α", i, j, primed)
    }

    /// `s′_{i,j}`.
    fn s_prime(&self, i: &str, j: &str) -> String {
        self.scalar("s", i, j, true)
    }

    fn scalar(&self, letter: &str, i: &str, j: &str, primed: bool) -> String {
        let idx = pair(i, j);
        let mut mark = Vec::new();
        if primed {
            mark.push(mo("′"));
        }
        if let Some(h) = self.head_mark() {
            mark.push(h);
        }
        if mark.is_empty() {
            sub(&mi(letter), &idx)
        } else {
            subsup(&mi(letter), &idx, &row(&mark))
        }
    }

    /// The superscript of a per-position vector: `i` or `i,r`.
    fn vec_index(&self, i: &str) -> String {
        match self.r {
            Some(r) => pair(i, &int(r)),
            None => i.to_string(),
        }
    }

    /// `q^i` (or `q^{i,r}`).
    fn vector(&self, letter: &str, i: &str) -> String {
        sup(&mi(letter), &self.vec_index(i))
    }

    /// `q^i_c` (or `q^{i,r}_c`).
    fn component(&self, letter: &str, i: &str, c: &str) -> String {
        subsup(&mi(letter), c, &self.vec_index(i))
    }

    /// `M_{a,b}` with the indices in the displayed orientation: `(a, b)` in
    /// the row convention, `(b, a)` in the column one.
    fn entry(&self, m: &str, a: &str, b: &str) -> String {
        if self.row_conv() {
            sub(&mi(m), &pair(a, b))
        } else {
            sub(&mi(m), &pair(b, a))
        }
    }

    /// `μ_i`, the largest visible scaled score of row `i`.
    fn mu(&self, i: &str) -> String {
        sub(&mi("μ"), i)
    }

    fn exp(&self, i: usize, j: usize, mu: f64, e: f64) -> Built {
        let (is, js) = (one(i), one(j));
        let s = self.h.scaled[(i, j)];
        let m_sym = mi("m");
        let body = vec![
            self.mu(&is),
            mo("="),
            sub(&mi("max"), &m_sym),
            self.s_prime(&is, &m_sym),
            mo("="),
            num(mu),
            mo(","),
            gap(),
            call(
                &mi("exp"),
                &row(&[self.s_prime(&is, &js), mo("−"), self.mu(&is)]),
            ),
            mo("="),
            call(&mi("exp"), &row(&[num(s), mo("−"), factor(mu)])),
            mo("="),
            num(e),
        ];
        built(StepKind::Exp, body, e, Vec::new())
    }

    fn dot(&self, i: usize, j: usize) -> Built {
        let (is, js) = (one(i), one(j));
        let d_k = self.h.q.ncols();
        let pairs: Vec<(f64, f64)> = (0..d_k)
            .map(|c| (self.h.q[(i, c)], self.h.k[(j, c)]))
            .collect();
        let terms: Vec<f64> = pairs.iter().map(|(a, b)| a * b).collect();
        let value = self.h.scores[(i, j)];
        let c = mi("c");
        let q_i = self.vector("q", &is);
        let k_j_t = transpose(&paren(&self.vector("k", &js)));
        let q_c = self.component("q", &is, &c);
        let k_c = self.component("k", &js, &c);
        let (definition, summand, shown) = if self.row_conv() {
            (row(&[q_i, k_j_t]), row(&[q_c, k_c]), pairs)
        } else {
            let swapped = pairs.iter().map(|&(a, b)| (b, a)).collect();
            (row(&[k_j_t, q_i]), row(&[k_c, q_c]), swapped)
        };
        let body = vec![
            self.entry("S", &is, &js),
            mo("="),
            self.alpha(&is, &js, false),
            mo("="),
            definition,
            mo("="),
            sigma("c", &int(d_k)),
            summand,
            mo("="),
            products(&shown),
            mo("="),
            num(value),
        ];
        built(StepKind::DotProduct, body, value, terms)
    }

    fn scale(&self, i: usize, j: usize) -> Built {
        let (is, js) = (one(i), one(j));
        let score = self.h.scores[(i, j)];
        let value = self.h.scaled[(i, j)];
        let mut body = vec![
            self.entry("S′", &is, &js),
            mo("="),
            self.s_prime(&is, &js),
            mo("="),
        ];
        if self.scenario.scale {
            let d_k = self.h.q.ncols();
            body.extend([
                frac(&self.alpha(&is, &js, false), &sqrt_d_k()),
                mo("="),
                frac(&num(score), &sqrt(&int(d_k))),
                mo("="),
                frac(&num(score), &num(self.trace.divisor)),
            ]);
        } else {
            body.push(self.alpha(&is, &js, false));
        }
        body.extend([mo("="), num(value)]);
        built(StepKind::Scale, body, value, Vec::new())
    }

    fn mask(&self, i: usize, j: usize) -> Built {
        let (is, js) = (one(i), one(j));
        let value = self.h.weights[(i, j)];
        let body = vec![
            self.s_prime(&is, &js),
            mo("↦"),
            mo("−"),
            mi("∞"),
            mo(","),
            gap(),
            self.weight_lhs(i, j),
            mo("="),
            num(value),
        ];
        built(StepKind::Mask, body, value, Vec::new())
    }

    /// `A_{i,j} = α′_{i,j}` (column convention `A_{j,i}`).
    fn weight_lhs(&self, i: usize, j: usize) -> String {
        let (is, js) = (one(i), one(j));
        row(&[
            self.entry("A", &is, &js),
            mo("="),
            self.alpha(&is, &js, true),
        ])
    }

    /// The row's largest visible scaled score, the exponentials
    /// `exp(s′ − μ)` (0 for masked keys) and their sum: exactly the
    /// engine's `softmax_masked`.
    fn softmax_parts(&self, i: usize) -> (f64, Vec<f64>, f64) {
        let n = self.trace.n();
        let visible = |j: usize| self.trace.allowed[(i, j)];
        let s = |j: usize| self.h.scaled[(i, j)];
        let mu = (0..n)
            .filter(|&j| visible(j))
            .map(s)
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
            .unwrap_or(f64::NAN);
        let exps: Vec<f64> = (0..n)
            .map(|j| if visible(j) { (s(j) - mu).exp() } else { 0.0 })
            .collect();
        let z: f64 = exps.iter().sum();
        (mu, exps, z)
    }

    fn normaliser(&self, i: usize, exps: Vec<f64>, z: f64) -> Built {
        let is = one(i);
        let m_sym = mi("m");
        let body = vec![
            sigma("m", &int(exps.len())),
            call(
                &mi("exp"),
                &row(&[self.s_prime(&is, &m_sym), mo("−"), self.mu(&is)]),
            ),
            mo("="),
            elided_sum(exps.iter().map(|&e| num(e)).collect()),
            mo("="),
            num(z),
        ];
        built(StepKind::Normaliser, body, z, exps)
    }

    /// `e_j = exp(s′_{i,j} − μ_i)` and `z` the normaliser, as the engine
    /// computed them.
    fn weight(&self, i: usize, j: usize, e_j: f64, z: f64) -> Built {
        let (is, js) = (one(i), one(j));
        let n = self.trace.n();
        let value = self.h.weights[(i, j)];
        let e = |arg: String| call(&mi("exp"), &arg);
        let m_sym = mi("m");
        let body = vec![
            self.weight_lhs(i, j),
            mo("="),
            frac(
                &e(self.s_prime(&is, &js)),
                &row(&[sigma("m", &int(n)), e(self.s_prime(&is, &m_sym))]),
            ),
            mo("="),
            frac(
                &e(row(&[self.s_prime(&is, &js), mo("−"), self.mu(&is)])),
                &row(&[
                    sigma("m", &int(n)),
                    e(row(&[self.s_prime(&is, &m_sym), mo("−"), self.mu(&is)])),
                ]),
            ),
            mo("="),
            frac(&num(e_j), &num(z)),
            mo("="),
            num(value),
        ];
        built(StepKind::Weight, body, value, Vec::new())
    }

    /// `B_{i,c} = b^i_c` (column convention `B_{c,i} = b^i_c`); with heads,
    /// `(Bʳ)_{i,c} = b^{i,r}_c`.
    fn head_output_lhs(&self, i: usize, c: usize) -> String {
        let (is, cs) = (one(i), one(c));
        let m = match self.r {
            Some(r) => paren(&sup(&mi("B"), &int(r))),
            None => mi("B"),
        };
        let (a, b) = if self.row_conv() {
            (&is, &cs)
        } else {
            (&cs, &is)
        };
        row(&[sub(&m, &pair(a, b)), mo("="), self.component("b", &is, &cs)])
    }

    fn weighted_sum(&self, i: usize, c: usize) -> Built {
        let (is, cs) = (one(i), one(c));
        let n = self.trace.n();
        let pairs: Vec<(f64, f64)> = (0..n)
            .map(|j| (self.h.weights[(i, j)], self.h.v[(j, c)]))
            .collect();
        let terms: Vec<f64> = pairs.iter().map(|(a, b)| a * b).collect();
        let value = self.h.output[(i, c)];
        let j_sym = mi("j");
        let mut body = Vec::new();
        if !self.row_conv() {
            // b^i = Σ_j α′_{i,j} v^j, column vectors (note 000 §4.4).
            body.extend([
                self.vector("b", &is),
                mo("="),
                sigma("j", &int(n)),
                self.alpha(&is, &j_sym, true),
                self.vector("v", &j_sym),
                mo(","),
                gap(),
            ]);
        }
        body.extend([
            self.head_output_lhs(i, c),
            mo("="),
            sigma("j", &int(n)),
            self.alpha(&is, &j_sym, true),
            self.component("v", &j_sym, &cs),
            mo("="),
            products(&pairs),
            mo("="),
            num(value),
        ]);
        built(StepKind::WeightedSum, body, value, terms)
    }

    /// `B_{i,c}` (column convention `B_{c,i} = b^i_c`): note 000 names the
    /// layer's output B, like a single head's.
    fn output_lhs(&self, i: usize, c: usize) -> String {
        let (is, cs) = (one(i), one(c));
        if self.row_conv() {
            self.entry("B", &is, &cs)
        } else {
            row(&[
                self.entry("B", &is, &cs),
                mo("="),
                subsup(&mi("b"), &cs, &is),
            ])
        }
    }

    fn output(&self, i: usize, c: usize) -> Option<Built> {
        let (is, cs) = (one(i), one(c));
        let trace = self.trace;
        let value = trace.output[(i, c)];
        let width = trace.concat.ncols();
        let m_sym = mi("m");
        match &self.scenario.w_o {
            Some(w_o) => {
                if w_o.nrows() != width || w_o.ncols() != trace.output.ncols() {
                    return None;
                }
                let pairs: Vec<(f64, f64)> = (0..width)
                    .map(|m| (trace.concat[(i, m)], w_o[(m, c)]))
                    .collect();
                let terms: Vec<f64> = pairs.iter().map(|(a, b)| a * b).collect();
                let concat = self.entry("concat", &is, &m_sym);
                let (summand, shown) = if self.row_conv() {
                    let w = sub(&paren(&sub(&mi("W"), &mi("O"))), &pair(&m_sym, &cs));
                    (row(&[concat, w]), pairs)
                } else {
                    let w = subsup(&mi("W"), &pair(&cs, &m_sym), &mi("O"));
                    let swapped = pairs.iter().map(|&(a, b)| (b, a)).collect();
                    (row(&[w, concat]), swapped)
                };
                let body = vec![
                    self.output_lhs(i, c),
                    mo("="),
                    sigma("m", &int(width)),
                    summand,
                    mo("="),
                    products(&shown),
                    mo("="),
                    num(value),
                ];
                Some(built(StepKind::Projection, body, value, terms))
            }
            None => {
                if width != trace.output.ncols() {
                    return None;
                }
                let d_v = self.h.v.ncols();
                let (r, col) = (c / d_v, c % d_v);
                let source = if trace.heads.len() == 1 {
                    // One head and no W_O: the head's output is the output.
                    subsup(&mi("b"), &one(col), &is)
                } else if self.row_conv() {
                    sub(&paren(&sup(&mi("B"), &int(r + 1))), &pair(&is, &one(col)))
                } else {
                    subsup(&mi("b"), &one(col), &pair(&is, &int(r + 1)))
                };
                let body = vec![
                    self.output_lhs(i, c),
                    mo("="),
                    self.entry("concat", &is, &cs),
                    mo("="),
                    source,
                    mo("="),
                    num(value),
                ];
                Some(built(StepKind::Copy, body, value, Vec::new()))
            }
        }
    }

    /// Query `i` sees no key: the normaliser is an empty sum, 0, so `what`
    /// has no value.
    fn undefined(&self, i: usize, what: String) -> Built {
        let is = one(i);
        let m_sym = mi("m");
        let body = vec![
            what,
            mo("="),
            mtext("—"),
            gap(),
            paren(&row(&[
                sub(&mo("∑"), &row(&[m_sym.clone(), mo("∈"), mi("∅")])),
                call(&mi("exp"), &self.s_prime(&is, &m_sym)),
                mo("="),
                mn("0"),
            ])),
        ];
        built(StepKind::Undefined, body, f64::NAN, Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulas::check::{plain, well_formed};
    use crate::names::MatrixName;
    use crate::presets::{notes_004, random, Dims};
    use crate::random::Rng;
    use attention::{compute, Mask};

    const CONVS: [Convention; 2] = [Convention::Row, Convention::Col];

    /// Every cell of every kind of the trace.
    fn all_cells(trace: &Trace) -> Vec<CellRef> {
        let n = trace.n();
        let mut cells = Vec::new();
        for head in 0..trace.heads.len() {
            for i in 0..n {
                for j in 0..n {
                    cells.push(CellRef::Scores { head, i, j });
                    cells.push(CellRef::Scaled { head, i, j });
                    cells.push(CellRef::Weights { head, i, j });
                }
                for c in 0..trace.heads[head].output.ncols() {
                    cells.push(CellRef::HeadOutput { head, i, c });
                }
            }
        }
        for i in 0..trace.n() {
            for c in 0..trace.output.ncols() {
                cells.push(CellRef::Output { i, c });
            }
        }
        cells
    }

    fn trace_value(trace: &Trace, cell: CellRef) -> f64 {
        match cell {
            CellRef::Scores { head, i, j } => trace.heads[head].scores[(i, j)],
            CellRef::Scaled { head, i, j } => trace.heads[head].scaled[(i, j)],
            CellRef::Weights { head, i, j } => trace.heads[head].weights[(i, j)],
            CellRef::HeadOutput { head, i, c } => trace.heads[head].output[(i, c)],
            CellRef::Output { i, c } => trace.output[(i, c)],
        }
    }

    fn same_bits(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    /// Checks every property of one derivation against the trace.
    fn check_cell(s: &Scenario, t: &Trace, cell: CellRef, conv: Convention) {
        let steps = build(s, t, cell, conv).expect("in range");
        let expected = trace_value(t, cell);
        let last = steps.last().unwrap();
        assert!(
            same_bits(last.step.value, expected),
            "{cell:?}: last step {} vs trace {expected}",
            last.step.value
        );
        for b in &steps {
            well_formed(&b.step.math).unwrap_or_else(|e| panic!("{cell:?}: {e}"));
            assert!(b.step.math.starts_with("<math display=\"block\">"));
            if !b.terms.is_empty() {
                // Re-adding the exact terms, in the order shown, gives the
                // step's value bit for bit.
                let sum = left_to_right(&b.terms);
                assert!(
                    same_bits(sum, b.step.value),
                    "{cell:?} {:?}: terms add to {sum}, step says {}",
                    b.step.kind,
                    b.step.value
                );
                let text = plain(&b.step.math);
                assert_eq!(text.contains('⋯'), b.terms.len() > 8, "{cell:?}: {text}");
            }
        }
        let kinds: Vec<StepKind> = steps.iter().map(|b| b.step.kind).collect();
        if expected.is_nan() {
            assert_eq!(kinds, [StepKind::Undefined], "{cell:?}");
            return;
        }
        match cell {
            CellRef::Scores { .. } => assert_eq!(kinds, [StepKind::DotProduct]),
            CellRef::Scaled { head, i, j } => {
                assert_eq!(kinds, [StepKind::DotProduct, StepKind::Scale]);
                let h = &t.heads[head];
                let want = if s.scale {
                    h.scores[(i, j)] / t.divisor
                } else {
                    h.scores[(i, j)]
                };
                assert!(same_bits(steps[1].step.value, want));
            }
            CellRef::Weights { head, i, j } => {
                let h = &t.heads[head];
                assert!(same_bits(steps[0].step.value, h.scores[(i, j)]));
                assert!(same_bits(steps[1].step.value, h.scaled[(i, j)]));
                if t.allowed[(i, j)] {
                    assert_eq!(
                        kinds,
                        [
                            StepKind::DotProduct,
                            StepKind::Scale,
                            StepKind::Exp,
                            StepKind::Normaliser,
                            StepKind::Weight
                        ]
                    );
                    let e = steps[2].step.value;
                    let z = steps[3].step.value;
                    assert!(same_bits(z, left_to_right(&steps[3].terms)));
                    // The stable, shown form reproduces the weight.
                    let w = h.weights[(i, j)];
                    assert!((e / z - w).abs() <= 1e-15 * w.abs(), "{cell:?}");
                    // So does the textbook form exp(s′)/Σ exp(s′) (scores here
                    // are small, so nothing overflows).
                    let naive_z: f64 = (0..t.n())
                        .filter(|&m| t.allowed[(i, m)])
                        .map(|m| h.scaled[(i, m)].exp())
                        .sum();
                    let naive = h.scaled[(i, j)].exp() / naive_z;
                    assert!((naive - w).abs() <= 1e-12 * w.abs(), "{cell:?}");
                } else {
                    assert_eq!(
                        kinds,
                        [StepKind::DotProduct, StepKind::Scale, StepKind::Mask]
                    );
                    assert_eq!(steps[2].step.value.to_bits(), 0.0f64.to_bits());
                }
            }
            CellRef::HeadOutput { .. } => assert_eq!(kinds, [StepKind::WeightedSum]),
            CellRef::Output { i, c } => {
                let want = if s.w_o.is_some() {
                    StepKind::Projection
                } else {
                    StepKind::Copy
                };
                assert_eq!(kinds, [want], "no W_O step without a W_O");
                if s.w_o.is_none() {
                    let d_v = t.heads[0].v.ncols();
                    let src = t.heads[c / d_v].output[(i, c % d_v)];
                    assert!(same_bits(steps[0].step.value, src));
                } else {
                    assert_eq!(steps[0].terms.len(), t.concat.ncols());
                }
            }
        }
    }

    /// A random mask for `n` positions, sometimes hiding every key of a row.
    fn some_mask(rng: &mut Rng, n: usize) -> Mask {
        match rng.next_u64() % 6 {
            0 => Mask::None,
            1 => Mask::Causal,
            2 => Mask::Window((rng.next_u64() % 3) as usize),
            3 => Mask::Padding((rng.next_u64() % (n as u64 + 1)) as usize),
            _ => Mask::Custom(
                (0..n)
                    .map(|_| (0..n).map(|_| rng.next_u64() % 3 != 0).collect())
                    .collect(),
            ),
        }
    }

    #[test]
    fn every_cell_adds_up_exactly_on_random_scenarios() {
        let mut rng = Rng::new(2024);
        let mut undefined_seen = false;
        let mut masked_seen = false;
        for seed in 0..60u64 {
            let dims = Dims {
                n: 1 + (rng.next_u64() % 7) as usize,
                d_model: 1 + (rng.next_u64() % 12) as usize,
                d_k: 1 + (rng.next_u64() % 12) as usize,
                d_v: 1 + (rng.next_u64() % 5) as usize,
                heads: 1 + (rng.next_u64() % 3) as usize,
            };
            let mut s = random(seed, dims, seed % 3 != 0);
            s.scale = seed % 4 != 1;
            s.mask = some_mask(&mut rng, dims.n);
            let t = compute(&s).unwrap();
            undefined_seen |= !t.undefined_rows.is_empty();
            masked_seen |= t.masked;
            for cell in all_cells(&t) {
                for conv in CONVS {
                    check_cell(&s, &t, cell, conv);
                }
            }
        }
        assert!(undefined_seen && masked_seen, "the sample covers masks");
    }

    #[test]
    fn long_sums_add_up_exactly_and_are_elided() {
        // n = 64 keys, d_k = 128 products, 4·32 = 128 concat columns.
        let dims = Dims {
            n: 64,
            d_model: 20,
            d_k: 128,
            d_v: 32,
            heads: 4,
        };
        for (seed, w_o) in [(7u64, true), (8, false)] {
            let mut s = random(seed, dims, w_o);
            s.mask = Mask::Window(20);
            let t = compute(&s).unwrap();
            let mut rng = Rng::new(seed);
            let mut pick = |k: usize| (rng.next_u64() % k as u64) as usize;
            for _ in 0..40 {
                let (head, i, j, c) = (pick(4), pick(64), pick(64), pick(32));
                let oc = pick(t.output.ncols());
                for cell in [
                    CellRef::Scores { head, i, j },
                    CellRef::Scaled { head, i, j },
                    CellRef::Weights { head, i, j },
                    CellRef::HeadOutput { head, i, c },
                    CellRef::Output { i, c: oc },
                ] {
                    for conv in CONVS {
                        check_cell(&s, &t, cell, conv);
                    }
                }
            }
            let d = derive(
                &s,
                &t,
                CellRef::Scores {
                    head: 0,
                    i: 0,
                    j: 0,
                },
                Convention::Row,
            )
            .unwrap();
            let text = plain(&d.steps[0].math);
            // The Σ bound says how many terms; 6 shown, ⋯, 2 more.
            assert!(text.contains("∑c=1128"), "{text}");
            assert_eq!(text.matches('·').count(), 8, "{text}");
        }
    }

    #[test]
    fn notes_004_first_query_against_second_key() {
        let s = notes_004();
        let t = compute(&s).unwrap();
        let d = derive(
            &s,
            &t,
            CellRef::Scores {
                head: 0,
                i: 0,
                j: 1,
            },
            Convention::Row,
        )
        .unwrap();
        assert_eq!(d.steps.len(), 1);
        assert_eq!(d.steps[0].kind, StepKind::DotProduct);
        assert_eq!(d.value(), 4.0);
        let text = plain(&d.steps[0].math);
        for part in ["1·4", "0·4", "2·0", "α1,2", "1·4+0·4+2·0=4"] {
            assert!(text.contains(part), "{part} missing from {text}");
        }
        assert!(text.ends_with("=4"), "{text}");
        assert!(text.starts_with("S1,2=α1,2=q1(k2)T"), "{text}");

        // The column convention writes (k^j)ᵀ q^i and S_{j,i}.
        let col = derive(
            &s,
            &t,
            CellRef::Scores {
                head: 0,
                i: 0,
                j: 1,
            },
            Convention::Col,
        )
        .unwrap();
        let text = plain(&col.steps[0].math);
        assert!(text.starts_with("S2,1=α1,2=(k2)Tq1"), "{text}");
        assert!(text.contains("4·1+4·0+0·2=4"), "{text}");
    }

    #[test]
    fn notes_004_exact_softmax_and_weighted_sum() {
        // docs/figures.md F5: exact softmax gives 1.9366, not the note's rounded 2.
        let s = notes_004();
        let t = compute(&s).unwrap();
        let w = derive(
            &s,
            &t,
            CellRef::Weights {
                head: 0,
                i: 0,
                j: 1,
            },
            Convention::Row,
        )
        .unwrap();
        let kinds: Vec<StepKind> = w.steps.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            [
                StepKind::DotProduct,
                StepKind::Scale,
                StepKind::Exp,
                StepKind::Normaliser,
                StepKind::Weight
            ]
        );
        // No scaling in note 004: s′ = α.
        assert_eq!(plain(&w.steps[1].math), "S′1,2=s1,2′=α1,2=4");
        assert_eq!(
            plain(&w.steps[2].math),
            "μ1=maxms1,m′=4,exp(s1,2′−μ1)=exp(4−4)=1"
        );
        assert!(plain(&w.steps[3].math).ends_with("=0.1353+1+1=2.1353"));
        assert!(plain(&w.steps[4].math).ends_with("=12.1353=0.4683"));
        let h = derive(
            &s,
            &t,
            CellRef::HeadOutput {
                head: 0,
                i: 0,
                c: 0,
            },
            Convention::Row,
        )
        .unwrap();
        let text = plain(&h.steps[0].math);
        assert!(
            text.ends_with("=0.0634·1+0.4683·2+0.4683·2=1.9366"),
            "{text}"
        );
        let col = derive(
            &s,
            &t,
            CellRef::HeadOutput {
                head: 0,
                i: 0,
                c: 0,
            },
            Convention::Col,
        )
        .unwrap();
        let text = plain(&col.steps[0].math);
        assert!(text.starts_with("b1=∑j=13α1,j′vj,B1,1=b11"), "{text}");
        // Without W_O the output copies the head's column.
        let o = derive(&s, &t, CellRef::Output { i: 0, c: 2 }, Convention::Row).unwrap();
        assert_eq!(plain(&o.steps[0].math), "B1,3=concat1,3=b31=1.5951");
    }

    #[test]
    fn scaling_shows_the_square_root_and_its_value() {
        let mut s = notes_004();
        s.scale = true;
        let t = compute(&s).unwrap();
        let d = derive(
            &s,
            &t,
            CellRef::Scaled {
                head: 0,
                i: 0,
                j: 1,
            },
            Convention::Row,
        )
        .unwrap();
        assert_eq!(
            plain(&d.steps[1].math),
            "S′1,2=s1,2′=α1,2dk=43=41.7321=2.3094"
        );
        assert!(d.steps[1].math.contains("<msqrt><mn>3</mn></msqrt>"));
    }

    #[test]
    fn masked_keys_and_undefined_rows() {
        let mut s = notes_004();
        s.mask = Mask::Custom(vec![
            vec![false, false, false],
            vec![true, false, true],
            vec![true, true, true],
        ]);
        let t = compute(&s).unwrap();
        assert_eq!(t.undefined_rows, [0]);
        for conv in CONVS {
            for cell in [
                CellRef::Weights {
                    head: 0,
                    i: 0,
                    j: 2,
                },
                CellRef::HeadOutput {
                    head: 0,
                    i: 0,
                    c: 1,
                },
                CellRef::Output { i: 0, c: 0 },
            ] {
                let d = derive(&s, &t, cell, conv).unwrap();
                assert_eq!(d.steps.len(), 1, "{cell:?}");
                assert_eq!(d.steps[0].kind, StepKind::Undefined);
                assert!(d.value().is_nan());
                assert!(plain(&d.steps[0].math).contains("=—"));
                assert!(!plain(&d.steps[0].math).contains("NaN"));
            }
            // Scores of an undefined row still exist.
            let sc = derive(
                &s,
                &t,
                CellRef::Scores {
                    head: 0,
                    i: 0,
                    j: 2,
                },
                conv,
            )
            .unwrap();
            assert_eq!(sc.value(), 4.0);
            // A masked key: weight exactly 0, shown as s′ ↦ −∞.
            let m = derive(
                &s,
                &t,
                CellRef::Weights {
                    head: 0,
                    i: 1,
                    j: 1,
                },
                conv,
            )
            .unwrap();
            assert_eq!(m.steps.last().unwrap().kind, StepKind::Mask);
            assert_eq!(m.value(), 0.0);
            assert!(plain(&m.steps[2].math).contains("↦−∞"));
            // The visible keys' normaliser shows the masked one as 0.
            let v = derive(
                &s,
                &t,
                CellRef::Weights {
                    head: 0,
                    i: 1,
                    j: 0,
                },
                conv,
            )
            .unwrap();
            assert!(
                plain(&v.steps[3].math).contains("+0+"),
                "{}",
                v.steps[3].math
            );
        }
    }

    #[test]
    fn several_heads_are_marked_in_the_notation() {
        let dims = Dims {
            n: 3,
            d_model: 4,
            d_k: 2,
            d_v: 2,
            heads: 2,
        };
        let s = random(5, dims, true);
        let t = compute(&s).unwrap();
        let d = derive(
            &s,
            &t,
            CellRef::Scores {
                head: 1,
                i: 0,
                j: 1,
            },
            Convention::Row,
        )
        .unwrap();
        assert!(plain(&d.steps[0].math).contains("=α1,2(2)=q1,2(k2,2)T"));
        let o = derive(&s, &t, CellRef::Output { i: 2, c: 3 }, Convention::Col).unwrap();
        assert!(plain(&o.steps[0].math).starts_with("B4,3=b43=∑m=14W4,mOconcatm,3"));
    }

    #[test]
    fn out_of_range_is_none() {
        let s = notes_004();
        let t = compute(&s).unwrap();
        let conv = Convention::Row;
        for cell in [
            CellRef::Scores {
                head: 1,
                i: 0,
                j: 0,
            },
            CellRef::Scores {
                head: 0,
                i: 3,
                j: 0,
            },
            CellRef::Scaled {
                head: 0,
                i: 0,
                j: 3,
            },
            CellRef::Weights {
                head: 0,
                i: 0,
                j: 9,
            },
            CellRef::HeadOutput {
                head: 0,
                i: 0,
                c: 3,
            },
            CellRef::HeadOutput {
                head: 0,
                i: 3,
                c: 0,
            },
            CellRef::Output { i: 0, c: 3 },
            CellRef::Output { i: 3, c: 0 },
        ] {
            assert_eq!(derive(&s, &t, cell, conv), None, "{cell:?}");
        }
        // A trace that does not belong to the scenario (W_O of the wrong shape).
        let mut other = s.clone();
        other.w_o = Some(attention::Matrix::zeros(2, 2));
        assert_eq!(
            derive(&other, &t, CellRef::Output { i: 0, c: 0 }, conv),
            None
        );
    }

    #[test]
    fn cell_refs_name_their_matrix_and_place() {
        let expected = [
            (MatrixName::Scores, (1, 2)),
            (MatrixName::Scaled, (0, 0)),
            (MatrixName::Weights, (3, 4)),
            (MatrixName::HeadOutput, (5, 6)),
            (MatrixName::Output, (7, 8)),
        ];
        for (cell, (name, place)) in [
            CellRef::Scores {
                head: 0,
                i: 1,
                j: 2,
            },
            CellRef::Scaled {
                head: 1,
                i: 0,
                j: 0,
            },
            CellRef::Weights {
                head: 2,
                i: 3,
                j: 4,
            },
            CellRef::HeadOutput {
                head: 0,
                i: 5,
                c: 6,
            },
            CellRef::Output { i: 7, c: 8 },
        ]
        .into_iter()
        .zip(expected)
        {
            assert_eq!(cell.matrix(), name);
            assert_eq!(cell.row_col(), place);
        }
        assert_eq!(
            CellRef::Weights {
                head: 2,
                i: 3,
                j: 4
            }
            .matrix(),
            crate::names::MatrixName::Weights
        );
        assert_eq!(CellRef::Output { i: 7, c: 8 }.head(), None);
        assert_eq!(
            CellRef::HeadOutput {
                head: 0,
                i: 5,
                c: 6
            }
            .row_col(),
            (5, 6)
        );
    }
}
