#!/usr/bin/env bash
# The page in a real browser: builds the wasm package, serves web/, and drives the page in headless
# chromium (web/test/drive.mjs): waits for uciok, plays a game of at least 20 engine moves through the
# board's click handlers, checks every engine move against the referee's legal moves and the analysis
# panel, with the threaded build and a search thread a core; checks that stop, ponderhit and isready
# reach a running search in the threaded build and in the one-thread worker; then replays the game
# through the native binary's referee (`chuhan judge`) and compares one conversation's lines from the
# worker and from the threaded build with the native binary's. Leaves
# target/web/screenshot.png. Exit 0 only when everything passed; skips (exit 0) without chromium.
#   scripts/web_test.sh            (scripts/install_web_deps.sh installs what it needs)
# Environment: WEB_MOVETIME (engine ms a move, default 150), WEB_ENGINE_MOVES (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
# Where the browser is installed, fetch the rest as a user can (the npm package and the Rust target; no
# root needed), so that a fresh clone on such a machine runs the test instead of skipping it.
if command -v chromium >/dev/null && command -v npm >/dev/null; then
    if [ ! -d web/tools/node_modules/playwright-core ]; then
        echo "web_test: installing playwright-core into web/tools (npm; it downloads no browser)"
        (mkdir -p web/tools && cd web/tools && { [ -f package.json ] || npm init -y >/dev/null; } &&
            nice -n 15 npm install --no-audit --no-fund playwright-core@1 >/dev/null 2>&1) ||
            echo "web_test: npm could not install playwright-core"
    fi
    for target in wasm32-unknown-unknown wasm32-wasip1-threads; do
        if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
            rustup target add "$target" >/dev/null 2>&1 || echo "web_test: rustup could not add $target"
        fi
    done
fi
installed=$(rustup target list --installed 2>/dev/null || true)
if ! command -v chromium >/dev/null || ! command -v node >/dev/null || [ ! -d web/tools/node_modules/playwright-core ] ||
    ! grep -qx wasm32-unknown-unknown <<<"$installed" || ! grep -qx wasm32-wasip1-threads <<<"$installed"; then
    echo "web_test: skipped: chromium, node, playwright-core or a wasm32 target is not installed (scripts/install_web_deps.sh)"
    exit 0
fi
scripts/build_web.sh
out=target/web
mkdir -p "$out"
# shellcheck source=lib/web_server.sh
source scripts/lib/web_server.sh
serve_web "$out/http.log"
movetime=${WEB_MOVETIME:-150}
nice -n 15 node web/test/drive.mjs play \
    "http://127.0.0.1:$port/page/?side=red&movetime=$movetime&analysetime=$movetime" "$out" "${WEB_ENGINE_MOVES:-20}"
# stop, ponderhit and isready reach a running search in the worker (the page is cross-origin isolated).
nice -n 15 node web/test/drive.mjs stop "http://127.0.0.1:$port/page/"
# The same game judged by the native engine's referee: an illegal move would end it as illegal-move. Then
# the worker's lines against the native engine's for one conversation (times and speeds aside).
chuhan=target/release/chuhan
if [ -x "$chuhan" ]; then
    conversation='uci
setoption name UCI_ShowWDL value true
setoption name MultiPV value 2
position startpos moves h2e2 h9g7
go depth 8'
    normal() { sed -E 's/ (time|nps) [0-9]+//g'; }
    python3 web/test/native_lines.py "$chuhan" <<<"$conversation" | normal >"$out/lines-native.txt"
    for kind in worker threads; do
        node web/test/drive.mjs lines "http://127.0.0.1:$port/page/" "$kind" <<<"$conversation" | normal >"$out/lines-$kind.txt"
        if ! diff -u "$out/lines-native.txt" "$out/lines-$kind.txt"; then
            echo "web_test: FAIL: the $kind build's lines differ from the native engine's (above)"
            exit 1
        fi
        echo "web_test: the $kind build wrote the native engine's $(wc -l <"$out/lines-$kind.txt") lines (times and speeds aside)"
    done
    read -r -a moves <"$out/game.txt"
    verdict=$("$chuhan" judge --moves "${moves[@]}")
    echo "web_test: native referee on the game's ${#moves[@]} plies: $verdict"
    case "$verdict" in *illegal-move*) echo "web_test: FAIL: the native referee found an illegal move"; exit 1 ;; esac
else
    echo "web_test: no $chuhan, the native replay is skipped"
fi
echo "web_test: passed; screenshot at $out/screenshot.png"
