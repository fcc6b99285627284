# Sourced by the other scripts: PATH for the tools scripts/setup.sh installs.
# shellcheck shell=bash
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver || echo /usr/bin/chromedriver)}"
export CHROMIUM="${CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}"
TRUNK_VERSION=0.21.14
# wasm_split_cli_support's CLI, which splits the module (scripts/build.sh),
# made for the wasm_split_helpers of Cargo.lock.
WASM_SPLIT_VERSION=0.2.4
# wasm-bindgen-cli must match the wasm-bindgen in Cargo.lock exactly.
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
export TRUNK_VERSION WASM_BINDGEN_VERSION WASM_SPLIT_VERSION
