// static/unlzma.js, the decoder of the .lzma files dist/ ships its
// WebAssembly in, against liblzma (Python's lzma module, through
// scripts/lzma_pack.py): every byte liblzma packs comes back, for each
// setting of the literal and position coders, for inputs that exercise
// literals, short and long matches, repeats and distances of every size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unlzma } from '../../static/unlzma.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'unlzma-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** liblzma's packing of `data`, with the given lc, lp and pb (or the build's). */
function pack(data, params = []) {
  const input = join(dir, 'in'), output = join(dir, 'out');
  writeFileSync(input, data);
  execFileSync('python3', [join(root, 'scripts', 'lzma_pack.py'), input, output, ...params.map(String)]);
  return readFileSync(output);
}

/** A deterministic generator (xorshift32), so a failure can be replayed. */
function random(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** Bytes with structure: runs, text, copies from near and far back, noise. */
function structured(length, seed) {
  const next = random(seed), out = new Uint8Array(length);
  const words = ['attention', 'query', 'key', 'value', 'softmax', '注意力', '\0\x01\x7f', 'W_Q·X'].map((w) => new TextEncoder().encode(w));
  let at = 0;
  while (at < length) {
    const kind = next();
    if (kind < 0.3) {
      for (const b of words[Math.floor(next() * words.length)]) if (at < length) out[at++] = b;
    } else if (kind < 0.6 && at > 0) {
      const from = at - 1 - Math.floor(next() ** 3 * Math.min(at, 1 << 20));
      for (let n = 2 + Math.floor(next() * 300); n > 0 && at < length; n--) out[at] = out[from + (at++ - from) % (at - from)];
    } else if (kind < 0.7) {
      const b = Math.floor(next() * 256);
      for (let n = Math.floor(next() * 40); n > 0 && at < length; n--) out[at++] = b;
    } else {
      for (let n = Math.floor(next() * 20); n > 0 && at < length; n--) out[at++] = Math.floor(next() * 256);
    }
  }
  return out;
}

test('what liblzma packs comes back byte for byte', () => {
  const inputs = [
    new Uint8Array(0),
    new Uint8Array([42]),
    new Uint8Array(10000),
    Uint8Array.from({ length: 5000 }, random(7)).map((x) => x * 256),
    structured(300000, 1),
    structured(40000, 2),
    readFileSync(join(root, 'Cargo.lock')),
  ];
  for (const data of inputs) {
    const packed = pack(data);
    assert.equal(packed.length >= 18, true);
    assert.deepEqual(unlzma(packed), new Uint8Array(data), `an input of ${data.length} bytes`);
  }
});

test('every setting of the literal and position coders decodes', () => {
  const data = structured(60000, 3);
  for (const [lc, lp, pb] of [[0, 0, 0], [1, 0, 0], [3, 0, 2], [4, 0, 4], [0, 4, 0], [2, 2, 1], [4, 0, 0], [3, 1, 3]]) {
    assert.deepEqual(unlzma(pack(data, [lc, lp, pb])), data, `lc ${lc}, lp ${lp}, pb ${pb}`);
  }
});

test('a damaged or cut file is refused or differs, never hangs', () => {
  const data = structured(50000, 4), packed = pack(data);
  assert.throws(() => unlzma(packed.subarray(0, 10)));
  const wrongProps = Uint8Array.from(packed);
  wrongProps[0] = 250;
  assert.throws(() => unlzma(wrongProps), /not an LZMA file/);
  const next = random(5);
  for (let k = 0; k < 20; k++) {
    const damaged = Uint8Array.from(packed);
    damaged[18 + Math.floor(next() * (damaged.length - 18))] ^= 1 + Math.floor(next() * 255);
    let out = null;
    try {
      out = unlzma(damaged);
    } catch (e) {
      assert.match(String(e), /unlzma|Error/);
      continue;
    }
    assert.equal(out.length, data.length);
  }
  // Cut short, anywhere after the header: refused.
  for (const keep of [14, 18, 100, Math.floor(packed.length / 2), packed.length - 40]) {
    assert.throws(() => unlzma(packed.subarray(0, keep)), /ended early|unlzma/, `cut to ${keep} bytes`);
  }
});
