#!/usr/bin/env bash
# Sets up what is missing, builds the release site and serves it on
# http://127.0.0.1:${PORT:-8080}/ (Ctrl+C to stop).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
PORT=${PORT:-8080}
bash scripts/setup.sh
bash scripts/build.sh
echo "serve: Attention Lab at http://127.0.0.1:$PORT/"
exec python3 scripts/serve-dist.py "$PORT" dist
