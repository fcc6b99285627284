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

# In-page figures over the release build.
bash scripts/build.sh >/dev/null
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 scripts/serve-dist.py "$PORT" dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 0.5
BASE_URL="http://127.0.0.1:$PORT/" node scripts/bench-ui.mjs
