#!/usr/bin/env bash
# Release build of the static site into dist/ (wasm-opt -Oz), then the size
# budgets, gzip -9 (notes.js belongs to the sample course-notes page, not to
# the app):
# - the first screen: the page's html (with its pre-rendered first
#   screen, scripts/prerender.mjs, and the stylesheet), wasm + js and its
#   snippets, within FIRST_BUDGET_BYTES (338 KB; BUDGET_BYTES is its old name);
# - the labs module (src/bin/labs.rs, loaded after the first paint): its
#   wasm + js, within LABS_BUDGET_BYTES (see README, "The labs module");
# - the training module (src/bin/train.rs, loaded when the reader opens the
#   training lab): its wasm + js, within TRAIN_BUDGET_BYTES
#   (docs/performance.md);
# - everything the page can fetch (the three and the math font), within
#   TOTAL_BUDGET_BYTES.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
FIRST_BUDGET_BYTES=${FIRST_BUDGET_BYTES:-${BUDGET_BYTES:-338000}}
LABS_BUDGET_BYTES=${LABS_BUDGET_BYTES:-216000}
TRAIN_BUDGET_BYTES=${TRAIN_BUDGET_BYTES:-158000}
TOTAL_BUDGET_BYTES=${TOTAL_BUDGET_BYTES:-741000}
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# The release wasm is built with its own copy of the standard library
# (cargo's build-std, from the rust-src component scripts/setup.sh adds),
# compiled at the app's opt-level "z" and with the panic strategy
# immediate-abort: a panic traps at once, as panic = "abort" already made it
# end, but without the code that formats its message and location, which
# no reader sees. Everything the page can fetch is about 75 KB smaller
# gzip (docs/performance.md, "What keeps it fast and small"). Both are
# unstable options of cargo and rustc; RUSTC_BOOTSTRAP=1 lets this stable
# toolchain (1.95) use them. Only these release builds for the browser
# are built this way: the tests and benches build as before. The target's
# rustflags replace .cargo/config.toml's, hence simd128 again.
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 -Z unstable-options -C panic=immediate-abort"
# Two fetches: every platform's crates (the build scripts and macros run on
# this machine), then the wasm target's, which alone brings the standard
# library's own (dlmalloc, …) for build-std.
cargo fetch --locked -q
cargo fetch --locked -q --target wasm32-unknown-unknown
trunk build --release --offline
# A module loaded later (the labs, the training lab: src/bin/NAME.rs): the
# same release profile as Trunk's build (the library is compiled once for
# all), the same wasm-bindgen and wasm-opt settings, into $TARGET_DIR/NAME-web.
build_module() {
  local out="$TARGET_DIR/$1-web"
  cargo build --release --offline --locked --target wasm32-unknown-unknown --bin "$1"
  rm -rf "$out"
  wasm-bindgen --target=web --no-typescript --out-dir="$out" --out-name="$1" \
    "$TARGET_DIR/wasm32-unknown-unknown/release/$1.wasm"
  wasm-opt -Oz --converge --low-memory-unused "$out/$1_bg.wasm" -o "$out/$1_bg.wasm"
}
build_module labs
build_module train
LABS_OUT="$TARGET_DIR/labs-web"
TRAIN_OUT="$TARGET_DIR/train-web"
python3 scripts/postbuild.py dist "$LABS_OUT" "$TRAIN_OUT"
# The first screen as HTML, rendered by the page itself in headless
# Chromium (docs/performance.md, "First paint").
node scripts/prerender.mjs dist
# Each module links only the string tables it shows.
python3 scripts/check-strings.py dist

# Prints each file and returns the gzip total in $sum.
measure() {
  sum=0
  while IFS= read -r f; do
    raw=$(stat -c %s "$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    sum=$((sum + gz))
    printf 'size: %-56s %8d B raw %8d B gzip\n' "${f#dist/}" "$raw" "$gz"
  done
}
measure < <(find dist -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name index.html \) \
  ! -name 'notes.js' ! -name 'labs-*' ! -name 'train-*' | sort)
first=$sum
printf 'size: first screen html+wasm+js+css gzip %d B (budget %d B)\n' "$first" "$FIRST_BUDGET_BYTES"
measure < <(find dist -maxdepth 1 -type f -name 'labs-*' | sort)
labs=$sum
printf 'size: labs module wasm+js gzip %d B (budget %d B)\n' "$labs" "$LABS_BUDGET_BYTES"
measure < <(find dist -maxdepth 1 -type f -name 'train-*' | sort)
train=$sum
printf 'size: training module wasm+js gzip %d B (budget %d B)\n' "$train" "$TRAIN_BUDGET_BYTES"
font=$(find dist/fonts -name '*.woff2' -exec stat -c %s {} + | awk '{s += $1} END {print s + 0}')
# Everything the page can fetch (the math font is already compressed). The
# goal for it is 400,000 B (docs/performance.md, "First paint"): not yet
# met. Until it is, TOTAL_BUDGET_BYTES holds the total where it stands
# (740,403 B since the standard library is built with the app, rounded up;
# each module's budget above likewise), tighter than the three budgets
# above added up, so no part grows at another's expense.
total=$((first + labs + train + font))
printf 'size: everything the page can fetch, gzip %d B (first screen %d + labs %d + training %d + font %d; budget %d B, goal 400000 B)\n' \
  "$total" "$first" "$labs" "$train" "$font" "$TOTAL_BUDGET_BYTES"
if [ "$labs" -eq 0 ] || [ "$train" -eq 0 ]; then
  echo "size: the labs or the training module is missing from dist/" >&2
  exit 1
fi
if [ "$first" -gt "$FIRST_BUDGET_BYTES" ]; then
  echo "size: first screen OVER BUDGET" >&2
  exit 1
fi
if [ "$labs" -gt "$LABS_BUDGET_BYTES" ]; then
  echo "size: labs module OVER BUDGET" >&2
  exit 1
fi
if [ "$train" -gt "$TRAIN_BUDGET_BYTES" ]; then
  echo "size: training module OVER BUDGET" >&2
  exit 1
fi
if [ "$total" -gt "$TOTAL_BUDGET_BYTES" ]; then
  echo "size: everything the page can fetch OVER BUDGET" >&2
  exit 1
fi
