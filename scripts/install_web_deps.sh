#!/usr/bin/env bash
# Installs what the browser build and its test need: the wasm32 target, Debian's chromium (no browser
# download) and playwright-core from npm into web/tools/ (git-ignored). Run as root (apt-get).
#   scripts/install_web_deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-unknown-unknown wasm32-wasip1-threads
# fonts-wqy-microhei: a small CJK font (1.6 MB), so that the pieces' characters show in the screenshot.
if ! command -v chromium >/dev/null || ! fc-list | grep -qi microhei; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei
fi
if [ ! -d web/tools/node_modules/playwright-core ]; then
    mkdir -p web/tools
    # playwright-core ships no browser and downloads none; web/test/drive.mjs points it at /usr/bin/chromium.
    (cd web/tools && npm init -y >/dev/null && nice -n 15 npm install --no-audit --no-fund playwright-core@1)
fi
echo "install_web_deps: $(chromium --version 2>/dev/null || echo 'chromium missing'); playwright-core $(node -p 'require("./web/tools/node_modules/playwright-core/package.json").version')"
