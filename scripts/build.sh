#!/usr/bin/env bash
# Release build of the static site into dist/ (docs/architecture.md, "One
# module and its chunks"): Trunk builds the page, its stylesheet and static
# files; cargo builds the one binary with its own standard library;
# wasm-split-cli cuts the labs' and the training lab's code into chunks;
# wasm-bindgen, wasm-opt, scripts/order-functions.mjs, scripts/postbuild.py
# (LZMA, dist/'s names), scripts/prerender.mjs and scripts/check-strings.py
# finish it. Then each file's size, gzip -9, and a budget per part: what
# the page was asked to keep for the first screen, the labs, the training
# lab and everything, and for the parts added since (the words, the tokens
# lab, the digits) the part's size rounded up to the next 1,000 B
# (docs/performance.md, "Budgets"); the build fails past any:
# - FIRST_BUDGET_BYTES (or BUDGET_BYTES): the first screen, that is the
#   page's html (with the pre-rendered first screen and the stylesheet),
#   the main module, its glue, the chunks' loader, the start script, the
#   snippets and one language's words (the larger file);
# - LABS_BUDGET_BYTES: the labs' chunk and the chunks it shares with the
#   training lab and the tokens lab, loaded after the first paint;
# - TRAIN_BUDGET_BYTES: the training lab's chunk, loaded when it is opened;
# - WORDS_BUDGET_BYTES: the labs' and the training lab's words (one
#   language, the larger file), fetched with the first lab's chunk;
# - TOTAL_BUDGET_BYTES: all of these and the math font, everything the page
#   can fetch but the tokens lab and the digits (notes.js, of the sample
#   course-notes page, aside), within the page's goal of 400,000 B;
# - TOKENS_BUDGET_BYTES: the tokens lab's chunk, what it shares with the
#   training lab only and its words (one language, the larger file), loaded
#   when it is opened;
# - DIGITS_BUDGET_BYTES: the digits, data the training lab fetches when its
#   `digits` task is chosen.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
FIRST_BUDGET_BYTES=${FIRST_BUDGET_BYTES:-${BUDGET_BYTES:-266000}}
LABS_BUDGET_BYTES=${LABS_BUDGET_BYTES:-71000}
TRAIN_BUDGET_BYTES=${TRAIN_BUDGET_BYTES:-42000}
WORDS_BUDGET_BYTES=${WORDS_BUDGET_BYTES:-8000}
TOTAL_BUDGET_BYTES=${TOTAL_BUDGET_BYTES:-390000}
TOKENS_BUDGET_BYTES=${TOKENS_BUDGET_BYTES:-26000}
DIGITS_BUDGET_BYTES=${DIGITS_BUDGET_BYTES:-43000}
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# The release wasm is built with its own copy of the standard library
# (cargo's build-std, from the rust-src component scripts/setup.sh adds),
# compiled at the app's opt-level "z" and with the panic strategy
# immediate-abort: a panic traps at once, without the code that formats its
# message and location, which no reader sees (the page's script shows a
# failure in the reader's language instead: src/app/failure.rs). Everything the page can fetch is about 75 KB smaller
# gzip (docs/performance.md, "What keeps it fast and small"). Both are
# unstable options of cargo and rustc; RUSTC_BOOTSTRAP=1 lets this stable
# toolchain (1.95) use them. Only these release builds for the browser
# are built this way: the tests and benches build with the ordinary
# toolchain and profile. The target's
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
# The wasm-split CLI reads the linker's relocations to see which code and
# data each function reaches.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS -C link-arg=--emit-relocs"
cargo build --release --offline --locked --target wasm32-unknown-unknown --bin attention-lab --features split
SPLIT="$TARGET_DIR/wasm-split"
WEB="$TARGET_DIR/web"
rm -rf "$SPLIT" "$WEB"
wasm-split-cli "$TARGET_DIR/wasm32-unknown-unknown/release/attention-lab.wasm" "$SPLIT"
# No module links a function of the standard library that brings a large
# table for a call the app can do without (read while the names are there).
python3 scripts/check-linked.py "$SPLIT"
# --keep-lld-exports: the chunks import the main module's memory, table and
# the functions they share with it by the names the split gave them.
wasm-bindgen --target=web --no-typescript --keep-lld-exports --out-dir="$WEB" --out-name=attention-lab "$SPLIT/main.wasm"
cp "$SPLIT"/__wasm_split.js "$WEB"/
find "$SPLIT" -name '*.wasm' ! -name main.wasm -exec cp {} "$WEB"/ \;
# The chunks carry no target_features section to read the features from:
# the ones rustc emits for this target (with simd128) are named. The
# producers and target_features sections are for tools, not browsers.
OPT=(-Oz --converge --low-memory-unused --enable-bulk-memory --enable-sign-ext
  --enable-mutable-globals --enable-nontrapping-float-to-int --enable-multivalue
  --enable-reference-types --enable-simd --strip-producers --strip-target-features)
# Each module twice: once with its names kept (-g), for
# scripts/order-functions.mjs to read the functions' final bodies and
# choose an order that puts functions sharing byte sequences side by side,
# where gzip's 32 KB window finds them; then again, laid out in that order
# (--reorder-functions-by-name). Only the order of the functions moves:
# everything the page can fetch is about 5.5 KB smaller gzip
# (docs/performance.md, "Functions in an order gzip likes").
for w in "$WEB"/*.wasm; do
  wasm-opt "${OPT[@]}" -g "$w" -o "$w.g"
  node scripts/order-functions.mjs "$w" "$w.g" "$w.in"
  wasm-opt "${OPT[@]}" --reorder-functions-by-name "$w.in" -o "$w"
  rm "$w.g" "$w.in"
done
# Each language's words in a file of its own (src/app/i18n/load.rs),
# written by a native build of the tables: not with build-std or the
# wasm target's flags, which are for the browser's build only.
env -u CARGO_UNSTABLE_BUILD_STD -u RUSTC_BOOTSTRAP cargo run --offline --locked -q --example strings -- "$WEB"
python3 scripts/postbuild.py dist "$WEB"
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
# A reader fetches one language's words (src/app/i18n/load.rs): the
# larger file counts.
larger() {
  for f in "$@"; do printf '%d %s\n' "$(gzip -9 -c "$f" | wc -c)" "$f"; done | sort -n | tail -1 | cut -d' ' -f2
}
words=$(larger dist/strings-zh-*.txt dist/strings-en-*.txt)
measure < <( (find dist -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name index.html \) \
  ! -name 'notes.js' ! -name 'labs-*' ! -name 'train-*' ! -name 'tokens-*' ! -name 'shared-*'; echo "$words") | sort)
first=$sum
printf 'size: first screen html+wasm+js+css gzip %d B (budget %d B)\n' "$first" "$FIRST_BUDGET_BYTES"
# A shared chunk counts with the first part that fetches it: the labs
# come after every first paint, so what they share is theirs
# (shared-labs-…); what only the later labs share is the tokens lab's, the
# newest (shared-tokens-train-…).
measure < <(find dist -maxdepth 1 -type f \( -name 'labs-*' -o -name 'shared-labs-*' \) | sort)
labs=$sum
printf 'size: labs chunk and the chunks it shares, gzip %d B (budget %d B)\n' "$labs" "$LABS_BUDGET_BYTES"
measure < <(find dist -maxdepth 1 -type f -name 'train-*' | sort)
train=$sum
printf 'size: training lab chunk gzip %d B (budget %d B)\n' "$train" "$TRAIN_BUDGET_BYTES"
measure < <(larger dist/strings-labs-zh-*.txt dist/strings-labs-en-*.txt)
labwords=$sum
printf "size: the labs' words (one language), fetched with the first lab's chunk, gzip %d B (budget %d B)\n" "$labwords" "$WORDS_BUDGET_BYTES"
measure < <( (find dist -maxdepth 1 -type f \( -name 'tokens-*' -o -name 'shared-tokens-*' \) | sort
  larger dist/strings-tokens-zh-*.txt dist/strings-tokens-en-*.txt) )
tokens=$sum
printf 'size: tokens lab chunk and its words gzip %d B (budget %d B)\n' "$tokens" "$TOKENS_BUDGET_BYTES"
measure < <(find dist -maxdepth 1 -type f -name 'digits-*' | sort)
digits=$sum
printf 'size: the digits (data of the training lab'"'"'s digits task), gzip %d B (budget %d B)\n' "$digits" "$DIGITS_BUDGET_BYTES"
font=$(find dist/fonts -name '*.woff2' -exec stat -c %s {} + | awk '{s += $1} END {print s + 0}')
# Everything the page can fetch (the math font is already compressed);
# TOTAL_BUDGET_BYTES is tighter than the parts' budgets added up, so no
# part grows at another's expense (docs/performance.md, "Budgets").
total=$((first + labs + train + labwords + font))
printf 'size: everything the page can fetch but the tokens lab and the digits, gzip %d B (first screen %d + labs %d + training %d + labs'"'"' words %d + font %d; budget %d B)\n' \
  "$total" "$first" "$labs" "$train" "$labwords" "$font" "$TOTAL_BUDGET_BYTES"
printf 'size: with the tokens lab, gzip %d B; and the digits, %d B\n' "$((total + tokens))" "$((total + tokens + digits))"
if [ "$labs" -eq 0 ] || [ "$train" -eq 0 ] || [ "$tokens" -eq 0 ] || [ "$labwords" -eq 0 ] || [ "$digits" -eq 0 ]; then
  echo "size: a chunk, the labs' words or the digits are missing from dist/" >&2
  exit 1
fi
for part in "FIRST:$first:first screen" "LABS:$labs:labs chunk" "TRAIN:$train:training lab chunk" \
  "WORDS:$labwords:the labs' words" "TOKENS:$tokens:tokens lab chunk" "DIGITS:$digits:the digits" \
  "TOTAL:$total:everything the page can fetch"; do
  IFS=: read -r name size what <<<"$part"
  budget_var="${name}_BUDGET_BYTES"
  if [ "$size" -gt "${!budget_var}" ]; then
    echo "size: $what OVER BUDGET" >&2
    exit 1
  fi
done
