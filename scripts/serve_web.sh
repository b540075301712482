#!/usr/bin/env bash
# Builds the browser package and serves it: open http://localhost:PORT/page/ to play and analyse.
#   scripts/serve_web.sh [PORT]      (default 8035)
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8035}
scripts/build_web.sh
echo "serve_web: http://localhost:$port/page/  (Ctrl-C stops)"
exec python3 scripts/lib/web_server.py "$port" web
