#!/usr/bin/env bash
# Installs everything the project needs beyond the Rust toolchain, Node,
# Python and apt, from the package registries only. Idempotent: whatever is
# already there at the right version is skipped, so a second run takes seconds.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

say() { printf 'setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
start=$(date +%s)

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32 target: present"
else
  say "wasm32 target: installing"
  rustup target add wasm32-unknown-unknown
fi

# The standard library's source: scripts/build.sh compiles it with the app
# (docs/performance.md, "What keeps it fast and small").
if rustup component list --installed | grep -q '^rust-src'; then
  say "rust-src: present"
else
  say "rust-src: installing"
  rustup component add rust-src
fi

if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION: present"
else
  say "trunk $TRUNK_VERSION: installing (about 9 minutes on 2 cores)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ] &&
   command -v wasm-bindgen-test-runner >/dev/null; then
  say "wasm-bindgen-cli $WASM_BINDGEN_VERSION: present"
else
  say "wasm-bindgen-cli $WASM_BINDGEN_VERSION: installing (about 6 minutes)"
  # --locked fails for this version on the registry; the exact version pin
  # is what Trunk and wasm-bindgen-test need.
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION"
fi

# The CLI that splits the one WebAssembly module into chunks (scripts/build.sh).
# (It has no --version: cargo's list of installed packages says which.)
if command -v wasm-split-cli >/dev/null &&
   cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "wasm-split-cli $WASM_SPLIT_VERSION: present"
else
  say "wasm-split-cli $WASM_SPLIT_VERSION: installing (about 2 minutes)"
  cargo install --locked wasm_split_cli_support --version "=$WASM_SPLIT_VERSION" --features build-binary
fi

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
# Chinese glyphs for the Chinese interface in screenshots.
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need_apt+=(fonts-noto-cjk)
# The cross-engine suite (tests/cross/): Firefox ESR (driven over WebDriver
# BiDi), WebKitGTK's WebDriver and MiniBrowser (Safari's engine), and the
# virtual X display WebKitGTK draws on.
command -v firefox-esr >/dev/null || need_apt+=(firefox-esr)
command -v WebKitWebDriver >/dev/null || need_apt+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null || need_apt+=(xvfb)
command -v xauth >/dev/null || need_apt+=(xauth)
if [ ${#need_apt[@]} -eq 0 ]; then
  say "chromium, chromedriver, CJK fonts, firefox-esr, WebKitWebDriver, xvfb: present"
else
  say "apt: installing ${need_apt[*]}"
  apt_start=$(date +%s)
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  say "apt: done in $(( $(date +%s) - apt_start )) s"
fi

# numpy, to check that the "copy as NumPy" snippets compute the engine's numbers.
if python3 -c 'import numpy' 2>/dev/null; then
  say "numpy: present"
else
  say "numpy: installing"
  python3 -m pip install --quiet --disable-pip-version-check numpy
fi

# npm dev tools (binaryen for wasm-opt, playwright-core, puppeteer-core for
# Firefox), as the lockfile says.
# A stamp of package-lock.json's hash says node_modules matches it.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.lock-hash 2>/dev/null)" = "$lock_hash" ] && [ -x node_modules/.bin/wasm-opt ]; then
  say "npm dev tools: present"
else
  say "npm dev tools: installing"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.lock-hash
fi

say "done in $(( $(date +%s) - start )) s"
