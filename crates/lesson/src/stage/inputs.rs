//! The stage's first steps: the inputs (with their positional encoding) and
//! the projections `Q = X·W_Q`, `K`, `V`, drawn as products.

use super::*;

impl<'a> B<'a> {
    /// What the projections multiply: `X`, `X + PE`, or with one-hot
    /// positions `[X | E]` (row layout) / `[X;E]` (column layout).
    pub(super) fn input_name(&self) -> &'static str {
        match self.c.trace.positional {
            Positional::OneHot => projected(self.c.conv, Positional::OneHot),
            pe => input_symbol(pe),
        }
    }

    /// The symbol of a row the projections multiply: `aⁱ` itself, or none
    /// when a positional encoding joined it (the row is then `aⁱ + pⁱ` or
    /// `[aⁱ | eⁱ]`, named by its token).
    pub(super) fn input_sym(&self) -> &'static str {
        match self.c.trace.positional {
            Positional::None => "a",
            _ => "",
        }
    }

    /// Whether each head's output has a name of its own, `b^{i,r}` in a
    /// matrix `Bʳ` (several heads, or a W_O after the head: note 000 §5.1),
    /// rather than being the layer's output `bⁱ`, `B`.
    pub(super) fn per_head(&self) -> bool {
        self.c.trace.heads.len() > 1 || self.c.scenario.w_o.is_some()
    }

    /// Head `r`'s output of position `i`: `b^{i,r}`, or `bⁱ` (see [`Self::per_head`]).
    pub(super) fn b_of(&self, r: usize, i: usize) -> String {
        crate::notation::output_of(i, self.per_head().then_some(r))
    }

    /// Head `r`'s output matrix: `Bʳ`, or `B`.
    pub(super) fn b_name(&self, r: usize) -> String {
        crate::notation::output_matrix(self.per_head().then_some(r))
    }

    pub(super) fn inputs(&self) -> Scene {
        let t = self.c.trace;
        let n = self.n();
        let range = window(n, 0);
        let hidden = n - range.len();
        let appear = |i: usize| ramp(self.lp * n as f64, i as f64, i as f64 + 1.0);
        let token = |i: usize| {
            let s: String = t.tokens[i].chars().take(10).collect();
            s
        };
        let rows = |m: &Matrix, prefix: &str, sym: &str| {
            range
                .clone()
                .map(|i| Row {
                    id: format!("{prefix}.{i}"),
                    label: [token(i), at(sym, i)]
                        .into_iter()
                        .filter(|l| !l.is_empty())
                        .collect(),
                    cells: Self::row(m, i),
                    lit: true,
                    opacity: appear(i),
                })
                .collect::<Vec<_>>()
        };
        match &t.pe {
            None => self.block(
                "x",
                "X",
                rows(&t.input, "x", "a"),
                Role::Input,
                false,
                hidden,
            ),
            Some(pe) => across(
                vec![
                    self.block(
                        "xraw",
                        "X",
                        rows(&self.c.scenario.x, "xraw", "a"),
                        Role::Input,
                        false,
                        hidden,
                    ),
                    // Added (sinusoidal) or concatenated after (one-hot).
                    match t.positional {
                        Positional::OneHot => self.op("op.cat", "|"),
                        _ => self.op("op.plus", "+"),
                    },
                    match t.positional {
                        Positional::OneHot => {
                            self.block("pe", "E", rows(pe, "pe", "e"), Role::Param, false, hidden)
                        }
                        _ => {
                            self.block("pe", "PE", rows(pe, "pe", "p"), Role::Param, false, hidden)
                        }
                    },
                    self.op("op.eq", "="),
                    self.block(
                        "x",
                        self.input_name(),
                        rows(&t.input, "x", self.input_sym()),
                        Role::Input,
                        false,
                        hidden,
                    ),
                ],
                self.c.g.max_w,
            ),
        }
    }

    pub(super) fn project(&self, r: usize, which: usize) -> Scene {
        let t = self.c.trace;
        let n = self.n();
        let (w, m, sym, role, wname) = {
            let hw = &self.c.scenario.heads[r];
            let (wq, wk, wv) = (&hw.w_q, &hw.w_k, &hw.w_v);
            let h = self.head(r);
            match which {
                0 => (wq, &h.q, "q", Role::Query, ("W_Q", "W^q")),
                1 => (wk, &h.k, "k", Role::Key, ("W_K", "W^k")),
                _ => (wv, &h.v, "v", Role::Value, ("W_V", "W^v")),
            }
        };
        // The row being computed right now.
        let current = ((self.lp * n as f64) as usize).min(n - 1);
        let range = window(n, current);
        let hidden = n - range.len();
        let appear = |i: usize| ramp(self.lp * n as f64, i as f64, i as f64 + 0.6);
        let mut xs = self.rows_of(&t.input, "x", self.input_sym(), range.clone());
        let mut out = self.rows_of(m, &format!("{sym}.{r}"), sym, range.clone());
        for (k, i) in range.clone().enumerate() {
            xs[k].lit = i == current;
            out[k].lit = i == current;
            out[k].opacity = appear(i);
        }
        let wblock = self.param(&format!("w{sym}.{r}"), wname, w);
        let xname = self.input_name();
        let xblock = self.block("x", xname, xs, Role::Input, false, hidden);
        let big = sym.to_ascii_uppercase();
        let result = self.block(&format!("{sym}.{r}"), &big, out, role, false, hidden);
        self.product(xblock, wblock, result)
    }

    /// `left · right = result` as the row layout writes a product (`X·W_Q`,
    /// `QKᵀ`, `A·V`); the column layout writes it the other way round
    /// (`W^q X`, `KᵀQ`, `V·A`).
    pub(super) fn product(&self, left: Scene, right: Scene, result: Scene) -> Scene {
        let (a, b) = if self.vertical() {
            (right, left)
        } else {
            (left, right)
        };
        across(
            vec![a, self.op("op.dot", "·"), b, self.op("op.eq", "="), result],
            self.c.g.max_w,
        )
    }
}
