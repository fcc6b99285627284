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

use super::mathml::*;
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
        self.entry_of(&mi(m), a, b)
    }

    /// [`Self::entry`] of a symbol already in MathML (`(Bʳ)`).
    fn entry_of(&self, m: &str, a: &str, b: &str) -> String {
        if self.row_conv() {
            sub(m, &pair(a, b))
        } else {
            sub(m, &pair(b, a))
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
            .map(|j| {
                if visible(j) {
                    attention::exp(s(j) - mu)
                } else {
                    0.0
                }
            })
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
        row(&[
            self.entry_of(&m, &is, &cs),
            mo("="),
            self.component("b", &is, &cs),
        ])
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
mod tests;
