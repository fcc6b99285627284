#!/usr/bin/env bash
# Sets up what is missing, then runs every gate and test: format, clippy on
# host and wasm32, native tests, browser tests (wasm-bindgen-test in headless
# Chromium), the release build with its size budget, and the end-to-end tests
# (playwright-core driving Debian's Chromium over dist/ on 127.0.0.1), then
# the cross-engine suite in Chromium, Firefox ESR and WebKitGTK.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
t0=$(date +%s)
section() { printf '\n=== %s (%ss)\n' "$*" "$(( $(date +%s) - t0 ))"; }

section setup
bash scripts/setup.sh

section "pure crates stay pure"
# crates/attention and crates/lesson compile and test natively: the
# compiler's own dependency graph must not reach the browser crates.
bash scripts/check-pure.sh

section "no module imports in a circle"
python3 scripts/check-cycles.py

section "cargo fmt --check"
cargo fmt --all -- --check

section "clippy (host)"
cargo clippy --locked --workspace --all-targets -- -D warnings
section "clippy (wasm32)"
cargo clippy --locked --workspace --all-targets --target wasm32-unknown-unknown -- -D warnings
# The release build's split points (the feature `split`, scripts/build.sh).
cargo clippy --locked --target wasm32-unknown-unknown --bin attention-lab --features split -- -D warnings

section "native tests"
cargo test --locked --workspace

section "JavaScript unit tests (node --test tests/js/)"
# The page's own JavaScript that runs outside the app: static/unlzma.js
# against liblzma.
node --test tests/js/

section "browser tests (wasm-bindgen-test, headless Chromium)"
cargo test --locked --target wasm32-unknown-unknown --test web --test kernels_web

section "release build and size budget"
bash scripts/build.sh

section "end-to-end tests (playwright-core, Chromium)"
PORT=${E2E_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
# Served with the Content-Security-Policy the app runs under.
python3 scripts/serve-dist.py "$PORT" dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/')" 2>/dev/null && break
  sleep 0.1
done
BASE_URL="http://127.0.0.1:$PORT/" node --test --test-concurrency=1 tests/e2e/

section "cross-engine suite (Chromium, Firefox ESR, WebKitGTK; tests/cross/)"
# The same flows in each engine, the three engines at once; WebKitGTK draws
# on a virtual X display.
BASE_URL="http://127.0.0.1:$PORT/" xvfb-run -a -s "-screen 0 1600x1200x24" \
  node --test --test-concurrency=3 tests/cross/

section "all tests passed"
