// The decoder of the .lzma files dist/ ships its WebAssembly in
// (docs/architecture.md, "Modules compressed with LZMA"): LZMA1 as
// Igor Pavlov's specification of it has it (the LZMA SDK's
// DOC/lzma-specification.txt), with the header liblzma's "lzma_alone"
// format writes: one byte of properties (lc, lp, pb), four of dictionary
// size (not needed: the whole output is in memory), eight of the
// uncompressed size, little-endian, which scripts/postbuild.py always
// writes. scripts/postbuild.py inlines this file into the chunks' loader;
// tests/js/unlzma.test.mjs checks it against Python's lzma module.
export function unlzma(src) {
  src = new Uint8Array(src);
  let props = src[0], lc = props % 9, lp = ((props / 9) | 0) % 5, pb = (props / 45) | 0;
  let size = 0;
  for (let i = 12; i >= 5; i--) size = size * 256 + src[i];
  if (props >= 225 || size > 2 ** 31) throw new Error('unlzma: not an LZMA file of known size');
  const out = new Uint8Array(size);
  // The probabilities, at these offsets into one array: is-match and
  // is-rep-0-long (state × pos-state), the four is-rep bits (per state),
  // the distance slots (4 × 64), the distances' middle bits, their low
  // four bits, the two length coders and the literal coders.
  const IS_MATCH = 0, IS_REP = 192, IS_REP_G0 = 204, IS_REP_G1 = 216, IS_REP_G2 = 228,
    IS_REP0_LONG = 240, SLOT = 432, SPEC = 688, ALIGN = 803, LEN = 819, REP_LEN = 1333, LIT = 1847;
  const probs = new Uint16Array(LIT + (0x300 << (lc + lp))).fill(1024);
  if (src[13] !== 0) throw new Error('unlzma: the range coder does not start with 0');
  // The range coder's state: its range, its code and where it reads. In a
  // typed array rather than in variables the closures share, where every
  // 32-bit value written would be a new boxed number (about 3 times
  // slower in V8).
  const rc = new Uint32Array([0xffffffff, ((src[14] << 24) | (src[15] << 16) | (src[16] << 8) | src[17]) >>> 0, 18]);
  const normalize = () => {
    if (rc[0] < 0x1000000) {
      rc[0] *= 256;
      rc[1] = rc[1] * 256 + src[rc[2]++];
    }
  };
  const bit = (i) => {
    const p = probs[i], bound = (rc[0] >>> 11) * p;
    let b = 0;
    if (rc[1] < bound) {
      rc[0] = bound;
      probs[i] = p + ((2048 - p) >>> 5);
    } else {
      rc[0] -= bound;
      rc[1] -= bound;
      probs[i] = p - (p >>> 5);
      b = 1;
    }
    normalize();
    return b;
  };
  const tree = (base, bits) => {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
    return m - (1 << bits);
  };
  const reverse = (base, bits) => {
    let m = 1, s = 0;
    for (let i = 0; i < bits; i++) {
      const b = bit(base + m);
      m = (m << 1) | b;
      s |= b << i;
    }
    return s;
  };
  const length = (base, posState) =>
    bit(base) === 0 ? tree(base + 2 + posState * 8, 3)
      : bit(base + 1) === 0 ? 8 + tree(base + 130 + posState * 8, 3)
        : 16 + tree(base + 258, 8);
  const pbMask = (1 << pb) - 1, lpMask = (1 << lp) - 1;
  let pos = 0, state = 0, rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
  while (pos < size) {
    const posState = pos & pbMask;
    if (bit(IS_MATCH + (state << 4) + posState) === 0) {
      const prev = pos > 0 ? out[pos - 1] : 0;
      const base = LIT + 0x300 * (((pos & lpMask) << lc) + (prev >> (8 - lc)));
      // The literal's eight bits, the hottest loop (after the match byte's
      // bits while they agree, when the last packet was a match).
      let s = 1;
      if (state >= 7) {
        let match = out[pos - rep0 - 1];
        do {
          const mb = (match >> 7) & 1;
          match <<= 1;
          const b = bit(base + ((1 + mb) << 8) + s);
          s = (s << 1) | b;
          if (mb !== b) break;
        } while (s < 0x100);
      }
      while (s < 0x100) s = (s << 1) | bit(base + s);
      out[pos++] = s & 0xff;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len;
    if (bit(IS_REP + state) !== 0) {
      if (pos === 0) throw new Error('unlzma: a repeat before any byte');
      if (bit(IS_REP_G0 + state) === 0) {
        if (bit(IS_REP0_LONG + (state << 4) + posState) === 0) {
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        let dist;
        if (bit(IS_REP_G1 + state) === 0) dist = rep1;
        else {
          if (bit(IS_REP_G2 + state) === 0) dist = rep2;
          else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = length(REP_LEN, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(LEN, posState);
      state = state < 7 ? 7 : 10;
      const slot = tree(SLOT + (Math.min(len, 3) << 6), 6);
      if (slot < 4) rep0 = slot;
      else {
        const bits = (slot >> 1) - 1;
        rep0 = ((2 | (slot & 1)) << bits) >>> 0;
        if (slot < 14) rep0 += reverse(SPEC + rep0 - slot, bits);
        else {
          let direct = 0;
          for (let i = bits - 4; i > 0; i--) {
            rc[0] >>>= 1;
            const b = rc[1] >= rc[0] ? 1 : 0;
            if (b) rc[1] -= rc[0];
            direct = direct * 2 + b;
            normalize();
          }
          rep0 += direct * 16 + reverse(ALIGN, 4);
        }
        if (rep0 === 0xffffffff) break; // the end marker
      }
      if (rep0 >= pos) throw new Error('unlzma: a match before the start');
    }
    len += 2;
    if (len > size - pos) throw new Error('unlzma: a match past the end');
    for (const end = pos + len; pos < end; pos++) out[pos] = out[pos - rep0 - 1];
  }
  // A cut file: the reader ran past its end (reading undefined, as 0).
  if (pos !== size || rc[2] > src.length) throw new Error('unlzma: the data ended early');
  return out;
}
