//! The stage's steps from a query to its weights: dot products, a query's
//! row of scores, the score matrix, ÷√d_k, the mask and the softmax.

use super::*;

impl<'a> B<'a> {
    /// The scores row of query `i` with the first `filled` entries shown.
    pub(super) fn score_cells(
        &self,
        r: usize,
        i: usize,
        filled: usize,
        lit: Option<usize>,
    ) -> Vec<Cell> {
        let h = self.head(r);
        let n = self.n();
        let range = key_window(n, lit.unwrap_or(0));
        let mut cells: Vec<Cell> = range
            .clone()
            .map(|j| {
                let mut c = Cell::value(h.scores[(i, j)]);
                if j >= filled {
                    c = c.pending();
                }
                c.lit = Some(j) == lit;
                c
            })
            .collect();
        if n > SHOWN {
            cells.push(Cell::ellipsis(n - range.len()));
        }
        cells
    }

    pub(super) fn dot(&self, r: usize, i: usize, j: usize) -> Scene {
        let h = self.head(r);
        let d = h.q.ncols();
        let shown = d.min(SHOWN);
        let terms_at = 0.6; // the products have all appeared
        let now = ((self.lp / terms_at) * shown as f64) as usize; // the pair being multiplied
        let mut q = Self::row(&h.q, i);
        let mut k = Self::row(&h.k, j);
        let mut prod: Vec<Cell> = (0..d)
            .map(|c| h.q[(i, c)] * h.k[(j, c)])
            .collect::<Vec<_>>()
            .into_iter()
            .enumerate()
            .map(|(c, v)| {
                let cell = Cell::value(v);
                if c < now || self.lp >= terms_at {
                    cell
                } else {
                    cell.pending()
                }
            })
            .take(if d > SHOWN { SHOWN - 1 } else { d })
            .collect();
        if d > SHOWN {
            prod.push(Cell::ellipsis(d - (SHOWN - 1)));
        }
        if now < shown && self.lp < terms_at {
            q[now].lit = true;
            k[now].lit = true;
            prod[now].lit = true;
        }
        let sid = format!("s.{r}.{i}");
        let qv = self.strip(&format!("q.{r}.{i}"), &at("q", i), Role::Query, q, true);
        let kv = self.strip(&format!("k.{r}.{j}"), &at("k", j), Role::Key, k, true);
        let pv = self.strip(&format!("prod.{r}.{i}.{j}"), "×", Role::Score, prod, true);
        let landed = self.lp >= 1.0;
        let alpha_id = format!("alpha.{r}.{i}.{j}");
        let fly_id = format!("{alpha_id}.fly");
        let mut alpha = self.vector(
            &alpha_id,
            Role::Score,
            vec![Cell::value(h.scores[(i, j)])],
            true,
        );
        let show_alpha = ramp(self.lp, 0.62, 0.7);
        alpha.items[0].opacity = show_alpha;
        let mut fly = alpha.items[0].clone();
        fly.id = fly_id.clone();
        fly.opacity = ramp(self.lp, 0.72, 0.73);
        let sum = self.labelled(alpha, &["Σ ="], Some(self.strip_label_w()));
        let row = self.strip(
            &sid,
            &format!("α{},·", sub(i)),
            Role::Score,
            self.score_cells(r, i, if landed { j + 1 } else { j }, Some(j)),
            true,
        );
        let mut scene = self.flow(vec![qv, kv, pv, sum, row]);
        // A copy of the sum travels into its slot of the scores row.
        if let Some(a) = scene.get(&alpha_id) {
            fly.x = a.x;
            fly.y = a.y;
        }
        scene.items.push(fly);
        let travel = ease(ramp(self.lp, 0.72, 1.0));
        let slot = {
            let row = scene.get(&sid).expect("scores row");
            let k = key_window(self.n(), j).position(|x| x == j).unwrap_or(0) as f64;
            if self.vertical() {
                (row.x, row.y + k * self.c.g.ch)
            } else {
                (row.x + k * self.c.g.cw, row.y)
            }
        };
        if let Some(a) = scene.items.iter_mut().find(|it| it.id == fly_id) {
            a.x = lerp(a.x, slot.0, travel);
            a.y = lerp(a.y, slot.1, travel);
        }
        scene
    }

    pub(super) fn scores_row(&self, r: usize, i: usize) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let now = ((self.lp * n as f64) as usize).min(n); // keys done so far
        let lit = now.min(n - 1);
        let range = window(n, lit);
        let mut keys = self.rows_of(&h.k, &format!("k.{r}"), "k", range.clone());
        for (k, j) in range.clone().enumerate() {
            keys[k].lit = j == lit;
        }
        let q = Self::row(&h.q, i);
        let qv = self.strip(&format!("q.{r}.{i}"), &at("q", i), Role::Query, q, true);
        let kb = self.block(
            &format!("k.{r}"),
            "K",
            keys,
            Role::Key,
            false,
            n - range.len(),
        );
        let row = self.strip(
            &format!("s.{r}.{i}"),
            &format!("α{},·", sub(i)),
            Role::Score,
            self.score_cells(r, i, if self.lp >= 1.0 { n } else { now }, Some(lit)),
            true,
        );
        self.flow(vec![qv, kb, row])
    }

    /// A whole per-head matrix whose row `i` is query `i`'s vector (scores,
    /// weights), rows appearing one by one.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn query_block(
        &self,
        id: &str,
        title: &str,
        sym: &str,
        m: &Matrix,
        role: Role,
        appear: bool,
        bars: bool,
    ) -> Scene {
        let n = m.nrows();
        let range = window(n, 0);
        let rows = range
            .clone()
            .map(|i| {
                let mut cells = self.row_cells(m, i, bars);
                if !bars {
                    for (c, j) in cells.iter_mut().zip(0..) {
                        let hidden =
                            role == Role::Score && j < self.n() && !self.c.trace.allowed[(i, j)];
                        if c.state == CellState::Value && hidden {
                            c.state = CellState::Masked;
                            c.text = "−∞".into();
                        }
                    }
                }
                // Scores and weights are α₁,·; outputs are b¹, or head r's
                // b^{1,r} (`sym` "b,r", r 0-based).
                let label = match sym.strip_prefix("b,").and_then(|r| r.parse().ok()) {
                    Some(r) => crate::notation::output_of(i, Some(r)),
                    None if sym == "b" => crate::notation::output_of(i, None),
                    None => format!("{sym}{}", sub(i)),
                };
                Row {
                    id: format!("{id}.{i}"),
                    label: vec![label],
                    cells,
                    lit: true,
                    opacity: if appear {
                        ramp(self.lp * n as f64, i as f64, i as f64 + 0.6)
                    } else {
                        1.0
                    },
                }
            })
            .collect();
        self.block(id, title, rows, role, false, n - range.len())
    }

    /// A matrix of scores, query `i`'s row (column) as vector `{id}.{i}`,
    /// hidden scores shown as −∞.
    pub(super) fn scores_block(&self, id: &str, title: &str, sym: &str, m: &Matrix) -> Scene {
        self.query_block(id, title, sym, m, Role::Score, false, false)
    }

    /// Head `r`'s attention weights A, each query's weights with bars.
    pub(super) fn weights_block(&self, r: usize) -> Scene {
        let w = &self.head(r).weights;
        self.query_block(&format!("a.{r}"), "A", "α′", w, Role::Weight, false, true)
    }

    /// Row `i` of `m`, with weight bars.
    pub(super) fn row_cells(&self, m: &Matrix, i: usize, bars: bool) -> Vec<Cell> {
        let mut cells = Self::row(m, i);
        if bars {
            for c in &mut cells {
                if c.state == CellState::Value && c.value.is_finite() {
                    c.bar = Some(c.value.clamp(0.0, 1.0));
                }
            }
        }
        cells
    }

    pub(super) fn scores_all(&self, r: usize) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let range = window(n, 0);
        let hidden = n - range.len();
        let q = self.rows_of(&h.q, &format!("q.{r}"), "q", range.clone());
        let k = self.rows_of(&h.k, &format!("k.{r}"), "k", range);
        let s = self.query_block(
            &format!("s.{r}"),
            "S",
            "α",
            &h.scores,
            Role::Score,
            true,
            false,
        );
        let s = unmask(s);
        self.product(
            self.block(&format!("q.{r}"), "Q", q, Role::Query, false, hidden),
            self.block(&format!("k.{r}"), "Kᵀ", k, Role::Key, true, hidden),
            s,
        )
    }

    /// The id of the row query `i`'s softmax reads: masked, scaled or raw.
    pub(super) fn softmax_input(&self, r: usize, i: usize) -> (String, Vec<Cell>, String) {
        let t = self.c.trace;
        let h = self.head(r);
        let n = self.n();
        let masked = (0..n).any(|j| !t.allowed[(i, j)]);
        let mut cells = Self::row(&h.scaled, i);
        let id = if masked {
            for (c, j) in cells.iter_mut().zip(0..) {
                if c.state == CellState::Value && !t.allowed[(i, j)] {
                    c.state = CellState::Masked;
                    c.text = "−∞".into();
                }
            }
            format!("m.{r}.{i}")
        } else if t.scale {
            format!("sc.{r}.{i}")
        } else {
            format!("s.{r}.{i}")
        };
        let label = if t.scale {
            format!("α̃{},·", sub(i))
        } else {
            format!("α{},·", sub(i))
        };
        (id, cells, label)
    }

    pub(super) fn scale(&self, r: usize, i: Option<usize>) -> Scene {
        let t = self.c.trace;
        let h = self.head(r);
        let d_k = h.q.ncols();
        let op = format!("÷ √{d_k} = ÷ {}", short(t.divisor));
        let show = ramp(self.lp, 0.25, 0.6);
        match i {
            Some(i) => {
                let s = Self::row(&h.scores, i);
                let row = self.strip(
                    &format!("s.{r}.{i}"),
                    &format!("α{},·", sub(i)),
                    Role::Score,
                    s,
                    true,
                );
                let mut sc = self.strip(
                    &format!("sc.{r}.{i}"),
                    &format!("α̃{},·", sub(i)),
                    Role::Score,
                    Self::row(&h.scaled, i),
                    true,
                );
                fade(&mut sc, show);
                self.flow(vec![row, self.op("op.scale", &op), sc])
            }
            None => {
                let s = unmask(self.scores_block(&format!("s.{r}"), "S", "α", &h.scores));
                let mut sc =
                    unmask(self.scores_block(&format!("sc.{r}"), "S / √d_k", "α̃", &h.scaled));
                fade(&mut sc, show);
                across(vec![s, self.op("op.scale", &op), sc], self.c.g.max_w)
            }
        }
    }

    pub(super) fn mask(&self, r: usize, i: Option<usize>) -> Scene {
        let t = self.c.trace;
        let h = self.head(r);
        let hide = ramp(self.lp, 0.2, 0.5) >= 1.0;
        let sym = if t.scale { "α̃" } else { "α" };
        let src = if t.scale { "sc" } else { "s" };
        match i {
            Some(i) => {
                let before = Self::row(&h.scaled, i);
                let (_, mut after, label) = self.softmax_input(r, i);
                for c in &mut after {
                    if c.state == CellState::Masked {
                        c.lit = true;
                        if !hide {
                            c.state = CellState::Value;
                            c.text = short(c.value);
                        }
                    }
                }
                let a = self.strip(
                    &format!("{src}.{r}.{i}"),
                    &format!("{sym}{},·", sub(i)),
                    Role::Score,
                    before,
                    true,
                );
                let b = self.strip(&format!("m.{r}.{i}"), &label, Role::Score, after, true);
                self.flow(vec![a, self.op("op.mask", "→ −∞"), b])
            }
            None => {
                let a = unmask(self.scores_block(&format!("{src}.{r}"), "S", sym, &h.scaled));
                let mut b = self.scores_block(&format!("m.{r}"), "S + M", sym, &h.scaled);
                if !hide {
                    b = unmask(b);
                }
                across(vec![a, self.op("op.mask", "→ −∞"), b], self.c.g.max_w)
            }
        }
    }

    pub(super) fn softmax(&self, r: usize, i: Option<usize>) -> Scene {
        let t = self.c.trace;
        let h = self.head(r);
        let Some(i) = i else {
            let (sym, src) = if t.masked {
                (if t.scale { "α̃" } else { "α" }, "m")
            } else if t.scale {
                ("α̃", "sc")
            } else {
                ("α", "s")
            };
            let s = self.scores_block(&format!("{src}.{r}"), "S", sym, &h.scaled);
            let mut a = self.weights_block(r);
            fade(&mut a, ramp(self.lp, 0.2, 0.7));
            return across(
                vec![s, self.op("op.softmax", "softmax →"), a],
                self.c.g.max_w,
            );
        };
        let n = self.n();
        let (in_id, in_cells, label) = self.softmax_input(r, i);
        let input = self.strip(&in_id, &label, Role::Score, in_cells, true);
        let row: Vec<f64> = h.scaled.row(i).iter().copied().collect();
        let allowed: Vec<bool> = (0..n).map(|j| t.allowed[(i, j)]).collect();
        let Some(parts) = softmax_parts(&row, &allowed) else {
            return self.flow(vec![input, self.op("op.undefined", "∅")]);
        };
        let mut exps = Self::cells(parts.exps.clone().into_iter());
        for (c, j) in exps.iter_mut().zip(0..) {
            if c.state == CellState::Value {
                c.bar = Some(parts.exps[j] / parts.sum);
            }
        }
        let mut e = self.strip(&format!("e.{r}.{i}"), "exp", Role::Score, exps, true);
        fade(&mut e, ramp(self.lp, 0.1, 0.35));
        let mut sum = self.op(
            &format!("sum.{r}.{i}"),
            &format!("Σ = {}", short(parts.sum)),
        );
        fade(&mut sum, ramp(self.lp, 0.4, 0.55));
        let weights = self.row_cells(&h.weights, i, true);
        let mut w = self.strip(
            &format!("a.{r}.{i}"),
            &format!("α′{},·", sub(i)),
            Role::Weight,
            weights,
            true,
        );
        fade(&mut w, ramp(self.lp, 0.6, 0.85));
        let max = self.op(
            &format!("max.{r}.{i}"),
            &format!("− max ({})", short(parts.max)),
        );
        self.flow(vec![input, max, e, sum, w])
    }
}
