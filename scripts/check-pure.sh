#!/usr/bin/env bash
# The pure crates (the engine, the teaching logic and the training lab's
# model) must not depend on any browser crate, directly or through another
# dependency, for the native target or for wasm32. Asked of cargo's own
# dependency graph, so a new dependency cannot slip past it the way a text
# search could.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
status=0
for crate in attention lesson train; do
  for target in "" "--target wasm32-unknown-unknown"; do
    # shellcheck disable=SC2086
    deps=$(cargo tree --locked -p "$crate" -e normal,build --prefix none $target --format '{p}' | awk '{print $1}' | sort -u)
    bad=$(grep -xE 'yew|yew-macro|web-sys|js-sys|wasm-bindgen|wasm-bindgen-futures|gloo|gloo-.*' <<<"$deps" || true)
    if [ -n "$bad" ]; then
      echo "check-pure: crate '$crate' ${target:+($target) }depends on browser crates: $(tr '\n' ' ' <<<"$bad")" >&2
      status=1
    fi
  done
done
[ "$status" = 0 ] && echo "check-pure: attention, lesson and train depend on no browser crate"
exit "$status"
