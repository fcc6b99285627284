#!/usr/bin/env bash
# Release build of the static site into dist/ (wasm-opt -Oz), then the size
# budget: the app's wasm + js + css in dist/, gzipped, must stay within 380 KB
# (notes.js belongs to the sample course-notes page, not to the app).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
BUDGET_BYTES=${BUDGET_BYTES:-380000}

cargo fetch --locked -q
trunk build --release --offline
python3 scripts/postbuild.py dist

total=0
while IFS= read -r f; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + gz))
  printf 'size: %-48s %8d B raw %8d B gzip\n' "${f#dist/}" "$raw" "$gz"
done < <(find dist -maxdepth 1 -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) ! -name 'notes.js' | sort)
printf 'size: total wasm+js+css gzip %d B (budget %d B)\n' "$total" "$BUDGET_BYTES"
if [ "$total" -gt "$BUDGET_BYTES" ]; then
  echo "size: OVER BUDGET" >&2
  exit 1
fi
