#!/usr/bin/env bash
# The fuzz run (not part of scripts/test.sh or CI): FUZZ_CASES generated and
# mutated scenario texts (default 100,000) through decode → validate →
# compute → encode, in the release profile. Prints the count and the time.
#   bash scripts/fuzz.sh            # 100,000 cases
#   FUZZ_CASES=1000000 bash scripts/fuzz.sh
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
FUZZ_CASES=${FUZZ_CASES:-100000} cargo test --locked --release -p attention --test props \
  fuzz_scenario_texts -- --ignored --nocapture
