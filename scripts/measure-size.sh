#!/usr/bin/env bash
# What each of the release build's size measures saves, against the build
# without it (docs/performance.md, "What each size measure costs"). Run
# after `bash scripts/build.sh`, which leaves the linked module in
# target/wasm32-unknown-unknown/release/attention-lab.wasm. Prints, for the
# page's WebAssembly (the main module and its chunks), gzip -9 in bytes:
#   - as shipped: functions reordered, then LZMA (scripts/order-functions.mjs,
#     scripts/lzma_pack.py);
#   - without the function order (wasm-opt's own order, then LZMA);
#   - without LZMA (functions reordered, gzip only), and the time
#     static/unlzma.js takes to decode the main module in Node;
#   - with MEASURE_BUILD_STD=1 also without build-std: the standard library
#     as the toolchain ships it, panic = "abort" (a full rebuild, about as
#     long as the release build).
# Nothing in dist/ changes.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
OPT=(-Oz --converge --low-memory-unused --enable-bulk-memory --enable-sign-ext
  --enable-mutable-globals --enable-nontrapping-float-to-int --enable-multivalue
  --enable-reference-types --enable-simd --strip-producers --strip-target-features)

# The split and bound modules of the linked `$1`, optimised both ways, in $2.
variants() {
  local linked=$1 out=$2
  mkdir -p "$out/split" "$out/web" "$out/plain" "$out/ordered"
  wasm-split-cli "$linked" "$out/split" >/dev/null
  wasm-bindgen --target=web --no-typescript --keep-lld-exports --out-dir="$out/web" --out-name=attention-lab "$out/split/main.wasm"
  find "$out/split" -name '*.wasm' ! -name main.wasm -exec cp {} "$out/web"/ \;
  for w in "$out"/web/*.wasm; do
    local name
    name=$(basename "$w")
    wasm-opt "${OPT[@]}" "$w" -o "$out/plain/$name"
    wasm-opt "${OPT[@]}" -g "$w" -o "$out/g.wasm"
    node scripts/order-functions.mjs "$w" "$out/g.wasm" "$out/in.wasm"
    wasm-opt "${OPT[@]}" --reorder-functions-by-name "$out/in.wasm" -o "$out/ordered/$name"
  done
}

# gzip -9 of every module in $1, LZMA-packed first when $2 is "lzma".
total() {
  python3 - "$1" "$2" <<'EOF'
import gzip, pathlib, sys
sys.path.insert(0, "scripts")
import lzma_pack
total = 0
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.wasm")):
    data = f.read_bytes()
    if sys.argv[2] == "lzma":
        data = lzma_pack.pack(data)
    total += len(gzip.compress(data, 9))
print(total)
EOF
}

linked="$TARGET_DIR/wasm32-unknown-unknown/release/attention-lab.wasm"
[ -f "$linked" ] || { echo "measure-size: build first (bash scripts/build.sh)" >&2; exit 1; }
variants "$linked" "$WORK/now"
shipped=$(total "$WORK/now/ordered" lzma)
unordered=$(total "$WORK/now/plain" lzma)
gzip_only=$(total "$WORK/now/ordered" gzip)
printf 'measure-size: the WebAssembly as shipped (ordered, LZMA): %d B\n' "$shipped"
printf 'measure-size: without the function order: %d B (the order saves %d B)\n' "$unordered" $((unordered - shipped))
printf 'measure-size: without LZMA (gzip only): %d B (LZMA saves %d B)\n' "$gzip_only" $((gzip_only - shipped))
python3 scripts/lzma_pack.py "$WORK/now/ordered/attention-lab_bg.wasm" "$WORK/main.lzma"
node --input-type=module -e "
import { readFileSync } from 'node:fs';
import { unlzma } from './static/unlzma.js';
const data = readFileSync('$WORK/main.lzma');
const buf = data.buffer.slice(data.byteOffset, data.byteOffset + data.length);
for (let i = 0; i < 3; i++) unlzma(buf);
const times = [];
for (let i = 0; i < 9; i++) { const t = performance.now(); unlzma(buf); times.push(performance.now() - t); }
times.sort((a, b) => a - b);
console.log('measure-size: decoding the main module with static/unlzma.js in Node: ' + times[4].toFixed(1) + ' ms (median of 9)');
"

if [ "${MEASURE_BUILD_STD:-0}" = 1 ]; then
  # The same binary with the toolchain's standard library, in a target
  # directory of its own so the release build's stays as it is.
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 -C link-arg=--emit-relocs" \
    CARGO_TARGET_DIR="$TARGET_DIR/no-build-std" \
    cargo build --release --offline --locked --target wasm32-unknown-unknown --bin attention-lab --features split
  variants "$TARGET_DIR/no-build-std/wasm32-unknown-unknown/release/attention-lab.wasm" "$WORK/std"
  no_std_build=$(total "$WORK/std/ordered" lzma)
  printf 'measure-size: without build-std: %d B (build-std saves %d B)\n' "$no_std_build" $((no_std_build - shipped))
fi
