//! The stage's last steps: the weighted sum into `bⁱ`, the matrix form,
//! the heads side by side, the concatenation and the output projection.

use super::*;

impl<'a> B<'a> {
    pub(super) fn weighted_sum(&self, r: usize, i: Option<usize>) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let Some(i) = i else {
            return self.matrix_form(r);
        };
        if h.weights[(i, 0)].is_nan() {
            let b = self.vector(
                &format!("b.{r}.{i}"),
                Role::Output,
                Self::row(&h.output, i),
                true,
            );
            return self.flow(vec![self.op("op.undefined", "∅"), b]);
        }
        // The keys drawn: all of them, or the SHOWN heaviest (in key order).
        // (A key is kept when fewer than SHOWN keys outweigh it, ties going
        // to the earlier key; no sort, which would cost code size.)
        let keys: Vec<usize> = (0..n)
            .filter(|&j| {
                let w = h.weights[(i, j)];
                let heavier = (0..n)
                    .filter(|&m| {
                        let v = h.weights[(i, m)];
                        v > w || (v == w && m < j)
                    })
                    .count();
                heavier < SHOWN
            })
            .collect();
        let m = keys.len() as f64;
        let g = self.c.g;
        let lw = g.text_w("α′₁₀,₁₀");
        let mut lines = Vec::new();
        for (k, &j) in keys.iter().enumerate() {
            let w = h.weights[(i, j)];
            let appear = ramp(self.lp * m / 0.45, k as f64, k as f64 + 1.0);
            let mut wc = self.vector(
                &format!("aw.{r}.{i}.{j}"),
                Role::Weight,
                vec![Cell {
                    bar: Some(w.clamp(0.0, 1.0)),
                    ..Cell::value(w)
                }],
                true,
            );
            let wlabel = format!("α′{},{}", sub(i), subscript(j + 1));
            wc = self.labelled(wc, &[&wlabel], Some(lw));
            let v = self.vector(
                &format!("v.{r}.{j}"),
                Role::Value,
                Self::row(&h.v, j),
                false,
            );
            let v = self.labelled(v, &[&at("v", j)], None);
            let weighted: Vec<f64> = h.v.row(j).iter().map(|x| w * x).collect();
            let mut wv = self.vector(
                &format!("wv.{r}.{i}.{j}"),
                Role::Weighted,
                Self::cells(weighted.into_iter()),
                true,
            );
            fade(&mut wv, appear);
            let parts = vec![
                wc,
                self.op(&format!("op.x{j}"), "×"),
                v,
                self.op(&format!("op.eq{j}"), "="),
                wv,
            ];
            lines.push(if self.vertical() {
                down(parts, 4.0)
            } else {
                across(parts, g.max_w)
            });
        }
        if n > keys.len() {
            lines.push(self.op("op.rest", &format!("⋯ +{}", n - keys.len())));
        }
        let stack = if self.vertical() {
            across(lines, g.max_w)
        } else {
            down(lines, 4.0)
        };
        let mut b = self.vector(
            &format!("b.{r}.{i}"),
            Role::Output,
            Self::row(&h.output, i),
            true,
        );
        fade(&mut b, ramp(self.lp, 0.8, 0.95));
        let name = self.b_of(r, i);
        let b = if self.vertical() {
            self.labelled(b, &["Σ =", &name], None)
        } else {
            self.labelled(b, &[&format!("{name} = Σ")], Some(lw))
        };
        let mut scene = self.flow(vec![stack, b]);
        // Copies of the weighted values slide together into bⁱ and merge
        // into it; the originals stay where they were computed.
        let slide = ease(ramp(self.lp, 0.5, 0.85));
        let target = scene.get(&format!("b.{r}.{i}")).map(|b| (b.x, b.y));
        if let (Some((bx, by)), true) = (target, slide > 0.0 && slide < 1.0) {
            let prefix = format!("wv.{r}.{i}.");
            let flies: Vec<Item> = scene
                .items
                .iter()
                .filter(|it| it.id.starts_with(&prefix))
                .map(|it| Item {
                    id: format!("{}.fly", it.id),
                    x: lerp(it.x, bx, slide),
                    y: lerp(it.y, by, slide),
                    opacity: it.opacity * (1.0 - slide * slide),
                    ..it.clone()
                })
                .collect();
            scene.items.extend(flies);
        }
        scene
    }

    pub(super) fn matrix_form(&self, r: usize) -> Scene {
        let h = self.head(r);
        let n = self.n();
        let range = window(n, 0);
        let a = self.weights_block(r);
        let v = self.block(
            &format!("v.{r}"),
            "V",
            self.rows_of(&h.v, &format!("v.{r}"), "v", range.clone()),
            Role::Value,
            false,
            n - range.len(),
        );
        let title = self.b_name(r);
        let sym = if self.per_head() {
            format!("b,{r}")
        } else {
            "b".into()
        };
        let b = self.query_block(
            &format!("b.{r}"),
            &title,
            &sym,
            &h.output,
            Role::Output,
            true,
            false,
        );
        self.product(a, v, b)
    }

    /// The heads' output blocks, `spread` px apart (0: one concatenated block).
    pub(super) fn heads_together(&self, spread: f64) -> Scene {
        let t = self.c.trace;
        let n = self.n();
        let range = window(n, 0);
        let hs = t.heads.len();
        let blocks: Vec<Scene> = (0..hs)
            .map(|r| {
                let rows = range
                    .clone()
                    .map(|i| {
                        let cells = Self::row(&t.heads[r].output, i);
                        Row {
                            id: format!("b.{r}.{i}"),
                            label: vec![if r == 0 {
                                self.b_of(r, i)
                            } else {
                                String::new()
                            }],
                            cells,
                            lit: true,
                            opacity: 1.0,
                        }
                    })
                    .collect();
                let title = self.b_name(r);
                self.block(
                    &format!("b.{r}"),
                    &title,
                    rows,
                    Role::Output,
                    false,
                    if r + 1 == hs { n - range.len() } else { 0 },
                )
            })
            .collect();
        let mut out = Scene::default();
        for b in blocks {
            let (bw, bh) = (b.w, b.h);
            if self.vertical() {
                let y = if out.items.is_empty() {
                    0.0
                } else {
                    out.h + spread
                };
                out.items.extend(b.shifted(0.0, y).items);
                out.h = y + bh;
                out.w = out.w.max(bw);
            } else {
                let x = if out.items.is_empty() {
                    0.0
                } else {
                    out.w + spread
                };
                out.items.extend(b.shifted(x, 0.0).items);
                out.w = x + bw;
                out.h = out.h.max(bh);
            }
        }
        out
    }

    pub(super) fn concat(&self) -> Scene {
        let spread = lerp(28.0, 2.0, ease(ramp(self.lp, 0.2, 0.8)));
        let together = self.heads_together(spread);
        let mut label = self.op("op.concat", "concat");
        fade(&mut label, ramp(self.lp, 0.7, 0.9));
        if self.vertical() {
            across(vec![together, label], self.c.g.max_w)
        } else {
            down(vec![together, label], 4.0)
        }
    }

    pub(super) fn output(&self) -> Scene {
        let t = self.c.trace;
        let together = self.heads_together(2.0);
        let out = self.query_block("o", "B", "b", &t.output, Role::Output, true, false);
        match &self.c.scenario.w_o {
            Some(w_o) => {
                let wo = self.param("wo", ("W_O", "W^O"), w_o);
                self.product(together, wo, out)
            }
            None => across(vec![together, self.op("op.eq", "="), out], self.c.g.max_w),
        }
    }

    /// A parameter matrix (W_Q, W_O, …), lit, named `names.0` in the row
    /// layout and `names.1` (its transpose, as note 000 writes it) in the
    /// column layout, where its rows are drawn as columns.
    pub(super) fn param(&self, id: &str, names: (&str, &str), m: &Matrix) -> Scene {
        let d = m.nrows();
        let rows = self
            .rows_of(m, id, "", window(d, 0))
            .into_iter()
            .map(|row| Row {
                label: vec![String::new()],
                lit: true,
                ..row
            })
            .collect();
        let title = if self.vertical() { names.1 } else { names.0 };
        self.block(id, title, rows, Role::Param, false, d.saturating_sub(SHOWN))
    }

    /// Head `r`'s outputs so far, at the side while query `i` is computed:
    /// bʲ for the queries done (`j < i`), empty rows for the rest. The rows
    /// done keep the ids of the bʲ that were computed, so a finished bⁱ
    /// moves here on the next step.
    pub(super) fn done_block(&self, r: usize, i: usize) -> Scene {
        let n = self.n();
        let range = window(n, i);
        let out = &self.head(r).output;
        let rows = range
            .clone()
            .map(|j| {
                let done = j < i;
                let mut cells = Self::row(out, j);
                if !done {
                    cells = cells.into_iter().map(Cell::pending).collect();
                }
                Row {
                    id: if done {
                        format!("b.{r}.{j}")
                    } else {
                        format!("bp.{r}.{j}")
                    },
                    label: vec![self.b_of(r, j)],
                    cells,
                    lit: false,
                    opacity: 1.0,
                }
            })
            .collect();
        self.block(
            &format!("done.{r}"),
            &self.b_name(r),
            rows,
            Role::Output,
            false,
            n - range.len(),
        )
    }
}
