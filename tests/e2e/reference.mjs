// An independent, deliberately plain implementation of docs/format.md §2 in
// JavaScript, used only as the reference the page is checked against.
const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));
const transpose = (a) => a[0].map((_, j) => a.map((row) => row[j]));

function allowed(mask, n, i, j) {
  if (mask === undefined || mask === 'none') return true;
  if (mask === 'causal') return j <= i;
  if (mask.padding !== undefined) return j < mask.padding;
  if (mask.window !== undefined) return Math.abs(i - j) <= mask.window;
  if (mask.custom !== undefined) return mask.custom[i][j];
  throw new Error('unknown mask');
}

export function reference(s) {
  const n = s.x.length;
  const dModel = s.x[0].length;
  let x = s.x;
  if (s.positional === 'sinusoidal') {
    x = x.map((row, p) => row.map((v, c) => {
      const angle = p / Math.pow(10000, (c - (c % 2)) / dModel);
      return v + (c % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
    }));
  } else if (s.positional === 'onehot') {
    // Note 001: position p's one-hot e^p (length n) concatenated after x_p.
    x = x.map((row, p) => [...row, ...Array.from({ length: n }, (_, j) => (j === p ? 1 : 0))]);
  }
  const heads = s.heads.map((h) => {
    const q = matmul(x, h.w_q);
    const k = matmul(x, h.w_k);
    const v = matmul(x, h.w_v);
    const scores = matmul(q, transpose(k));
    const dk = h.w_q[0].length;
    const scaled = scores.map((r) => r.map((e) => (s.scale === false ? e : e / Math.sqrt(dk))));
    const weights = scaled.map((r, i) => {
      const vis = r.map((_, j) => allowed(s.mask, n, i, j));
      if (!vis.some(Boolean)) return r.map(() => NaN);
      const m = Math.max(...r.filter((_, j) => vis[j]));
      const e = r.map((val, j) => (vis[j] ? Math.exp(val - m) : 0));
      const z = e.reduce((a, b) => a + b, 0);
      return e.map((val) => val / z);
    });
    return { q, k, v, scores, scaled, weights, head_output: matmul(weights, v) };
  });
  const concat = x.map((_, i) => heads.flatMap((h) => h.head_output[i]));
  const output = s.w_o ? matmul(concat, s.w_o) : concat;
  return { input: x, heads, concat, output };
}

/** docs/format.md §1b: every layer, each computed as §2 on the previous
 * layer's output (plus its input with `residual`). Returns each layer's
 * reference and output, and the scenario's output. */
export function referenceStack(s) {
  const layers = [];
  let first = reference(s);
  const add = (a, b) => a.map((row, i) => row.map((v, j) => v + b[i][j]));
  let out = s.residual ? add(first.input, first.output) : first.output;
  layers.push({ ...first, layer_output: out });
  for (const l of s.stack ?? []) {
    const r = reference({ x: out, heads: l.heads, w_o: l.w_o, scale: s.scale, mask: s.mask });
    out = l.residual ? add(r.input, r.output) : r.output;
    layers.push({ ...r, layer_output: out });
  }
  return { layers, output: out };
}
