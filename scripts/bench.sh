#!/usr/bin/env bash
# Benchmarks (not tests): the full trace at three sizes (the main one n = 64,
# d_model = 64, 8 heads), natively and in headless Chromium (WebAssembly,
# release profile), and the ratio of the two for each size.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
bash scripts/setup.sh >/dev/null

native=$(cargo bench --locked --bench trace 2>/dev/null | grep 'median')
echo "$native"
wasm=$(cargo test --locked --release --target wasm32-unknown-unknown --test bench_web -- --nocapture 2>/dev/null | grep 'BENCH' | sed 's/^.*BENCH //')
echo "$wasm"
# The wasm twin times the first three sizes (same labels): ratio per size.
NATIVE="$native" WASM="$wasm" python3 - <<'PY'
import os, re
line = re.compile(r"full trace \((.*)\): median ([0-9.]+) ms")
native = dict(m.groups() for m in map(line.search, os.environ["NATIVE"].splitlines()) if m)
for m in map(line.search, os.environ["WASM"].splitlines()):
    if m and m.group(1) in native:
        label, w = m.groups()
        print(f"ratio wasm/native ({label}): {float(w) / float(native[label]):.2f}x")
PY

# In-page figures over the release build: bench-ui.mjs (load, cost lab,
# heatmaps, playback, edits), then bench-first.mjs (first paint, bytes),
# then the four rows of docs/performance.md, "First paint".
bash scripts/build.sh >/dev/null
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 scripts/serve-dist.py "$PORT" dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
GZ_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 scripts/serve-dist.py "$GZ_PORT" dist --gzip >/dev/null 2>&1 &
gz_server=$!
trap 'kill $server $gz_server 2>/dev/null || true' EXIT
sleep 0.5
ui=$(BASE_URL="http://127.0.0.1:$PORT/" node scripts/bench-ui.mjs | tee /dev/stderr)
# The first paint and the page's bytes, served gzip-compressed.
first=$(BASE_URL="http://127.0.0.1:$GZ_PORT/" DIST=dist node scripts/bench-first.mjs | tee /dev/stderr)

# The four figures of docs/performance.md, "First paint", in one table.
UI="$ui" FIRST="$first" python3 - <<'PY'
import os, re
first = os.environ["FIRST"].splitlines()
edit = next((l for l in os.environ["UI"].splitlines() if l.startswith("edit n=64, d_model=64, 8 heads:")), "")
m = re.search(r"edit to next frame median ([0-9.]+) ms; (\S+) edits missed", edit)
rows = [
    ("stage painted, 1.6 Mbit/s, 150 ms round trips", re.search(r"median (\d+) ms", first[0]).group(1) + " ms", "≤ 800 ms"),
    ("stage painted, local server (later of FCP and the stage in the DOM)", re.search(r"median (\d+) ms", first[1]).group(1) + " ms", "≤ 150 ms"),
    ("everything the page can fetch, gzip", re.search(r"gzip: (\d+ KB)", first[2]).group(1), "≤ 400 KB"),
    ("edit → the frame that shows it, n = 64, d_model 64, 8 heads", (m.group(1) + " ms, " + m.group(2) + " missed") if m else "?", "≤ 16.7 ms"),
]
print("\n| what | now | goal |\n|---|---|---|")
for what, now, goal in rows:
    print(f"| {what} | {now} | {goal} |")
PY
