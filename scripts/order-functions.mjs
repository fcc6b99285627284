// Orders a WebAssembly module's functions so gzip compresses it better
// (docs/performance.md, "Functions in an order gzip likes").
//
//   node scripts/order-functions.mjs IN.wasm OPTIMISED.wasm OUT.wasm
//
// IN is the module before wasm-opt, OPTIMISED the same module after
// `wasm-opt -Oz -g` (its functions' final bodies, under the same names).
// Writes IN to OUT with every function renamed `<rank>` + its old name, the
// ranks in the order chosen here; `wasm-opt --reorder-functions-by-name`
// then lays the functions out in that order. Only the names section
// changes: no code, no index, no export.
//
// The order: gzip finds repeats within the last 32 KB it wrote, so
// functions that share byte sequences should sit side by side. Each
// optimised body gets a MinHash signature of its 4-byte sequences; starting
// from the largest function, the next one is always the unplaced function
// whose signature agrees most with the last one's (ties: the lower function index).
// Deterministic: fixed hash seeds, no randomness from the run.
import { readFileSync, writeFileSync } from "node:fs";

const [input, optimised, output] = process.argv.slice(2);
if (!output) {
  console.error("usage: order-functions.mjs IN.wasm OPTIMISED.wasm OUT.wasm");
  process.exit(2);
}

function leb(b, i) {
  let r = 0;
  let s = 0;
  for (;;) {
    const x = b[i++];
    r += (x & 0x7f) * 2 ** s;
    s += 7;
    if (x < 0x80) return [r, i];
  }
}

function uleb(n) {
  const o = [];
  for (;;) {
    const x = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) o.push(x | 0x80);
    else {
      o.push(x);
      return o;
    }
  }
}

// The module's sections as [id, start, payload start, end].
function sections(b) {
  const out = [];
  let i = 8;
  while (i < b.length) {
    const start = i;
    const id = b[i++];
    let size;
    [size, i] = leb(b, i);
    out.push([id, start, i, i + size]);
    i += size;
  }
  return out;
}

// Imported functions (they come first in the index space), the bodies of
// the defined ones, and the names section's function names by index.
function functions(b) {
  let imported = 0;
  const bodies = [];
  const names = new Map();
  for (const [id, , i, end] of sections(b)) {
    if (id === 2) {
      let [n, j] = leb(b, i);
      let l;
      for (let k = 0; k < n; k++) {
        [l, j] = leb(b, j);
        j += l;
        [l, j] = leb(b, j);
        j += l;
        const kind = b[j++];
        if (kind === 0) {
          [, j] = leb(b, j);
          imported++;
        } else if (kind === 1 || kind === 2) {
          // table (reftype first) or memory: limits
          if (kind === 1) j++;
          let flags;
          [flags, j] = leb(b, j);
          [, j] = leb(b, j);
          if (flags & 1) [, j] = leb(b, j);
        } else if (kind === 3) j += 2;
        else throw new Error(`import kind ${kind}`);
      }
    } else if (id === 10) {
      let [n, j] = leb(b, i);
      for (let k = 0; k < n; k++) {
        let size;
        [size, j] = leb(b, j);
        bodies.push(b.subarray(j, j + size));
        j += size;
      }
    } else if (id === 0) {
      let [l, j] = leb(b, i);
      const name = b.subarray(j, j + l).toString();
      j += l;
      if (name !== "name") continue;
      while (j < end) {
        const sub = b[j++];
        let size;
        [size, j] = leb(b, j);
        if (sub === 1) {
          let [n, k] = leb(b, j);
          for (let m = 0; m < n; m++) {
            let idx;
            [idx, k] = leb(b, k);
            [l, k] = leb(b, k);
            names.set(idx, b.subarray(k, k + l).toString());
            k += l;
          }
        }
        j += size;
      }
    }
  }
  return { imported, bodies, names };
}

// MinHash: K hashes of the body's 4-byte sequences, each the least value.
const K = 48;
const P = 2147483647;
const seeds = [];
let state = 12345;
for (let k = 0; k < 2 * K; k++) {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  seeds.push((state % (P - 1)) + 1);
}
function signature(body) {
  const sig = new Int32Array(K).fill(-1);
  if (body.length < 4) {
    sig.fill(-2 - body.length);
    return sig;
  }
  const min = new Float64Array(K).fill(Infinity);
  for (let i = 0; i + 3 < body.length; i++) {
    const h = ((body[i] << 24) | (body[i + 1] << 16) | (body[i + 2] << 8) | body[i + 3]) >>> 0;
    for (let k = 0; k < K; k++) {
      // (a·h + c) mod P, exact in doubles: a, h < 2^32, so split h.
      const a = seeds[2 * k];
      const v = ((((a * (h >>> 16)) % P) * 65536) % P + a * (h & 0xffff) + seeds[2 * k + 1]) % P;
      if (v < min[k]) min[k] = v;
    }
  }
  for (let k = 0; k < K; k++) sig[k] = min[k];
  return sig;
}

const before = readFileSync(input);
const after = functions(readFileSync(optimised));
const pre = functions(before);

// Final bodies by name (a name wasm-opt merged away has none).
const finalBody = new Map();
after.bodies.forEach((body, k) => {
  const name = after.names.get(after.imported + k);
  if (name !== undefined) finalBody.set(name, body);
});
const indices = [...pre.names.keys()].sort((a, b) => a - b);
const known = indices.filter((i) => finalBody.has(pre.names.get(i)));
const rest = indices.filter((i) => !finalBody.has(pre.names.get(i)));
const sigs = known.map((i) => signature(finalBody.get(pre.names.get(i))));
const sizes = known.map((i) => finalBody.get(pre.names.get(i)).length);

const order = [];
if (known.length) {
  const left = new Uint8Array(known.length).fill(1);
  let cur = sizes.indexOf(Math.max(...sizes));
  for (;;) {
    order.push(known[cur]);
    left[cur] = 0;
    const s = sigs[cur];
    let best = -1;
    let bestSim = -1;
    for (let j = 0; j < known.length; j++) {
      if (!left[j]) continue;
      const t = sigs[j];
      let sim = 0;
      for (let k = 0; k < K; k++) if (s[k] === t[k]) sim++;
      if (sim > bestSim) {
        bestSim = sim;
        best = j;
      }
    }
    if (best < 0) break;
    cur = best;
  }
}
order.push(...rest);

// The names section with the new names; every other section as it was.
const width = String(order.length).length;
const renamed = new Map(order.map((idx, rank) => [idx, String(rank).padStart(width, "0") + pre.names.get(idx)]));
const parts = [before.subarray(0, 8)];
for (const [id, start, i, end] of sections(before)) {
  if (id === 0) {
    let [l, j] = leb(before, i);
    if (before.subarray(j, j + l).toString() === "name") {
      j += l;
      const subs = [];
      while (j < end) {
        const from = j;
        const sub = before[j++];
        let size;
        [size, j] = leb(before, j);
        if (sub === 1) {
          const body = [...uleb(renamed.size)];
          for (const idx of [...renamed.keys()].sort((a, b) => a - b)) {
            const name = Buffer.from(renamed.get(idx));
            body.push(...uleb(idx), ...uleb(name.length), ...name);
          }
          subs.push(Buffer.from([1, ...uleb(body.length), ...body]));
        } else subs.push(before.subarray(from, j + size));
        j += size;
      }
      const payload = Buffer.concat([Buffer.from([4, ...Buffer.from("name")]), ...subs]);
      parts.push(Buffer.from([0, ...uleb(payload.length)]), payload);
      continue;
    }
  }
  parts.push(before.subarray(start, end));
}
writeFileSync(output, Buffer.concat(parts));
