#!/usr/bin/env bash
# Speed of the browser builds against the native one, back to back on the same 49 bench positions: the
# wasm `bench` (the SIMD128 build, then the portable one) in chuhan's worker inside headless chromium,
# the threaded build's `bench threads 1` and `bench threads N` (N: the machine's cores), then
# `target/release/chuhan bench` and `bench --threads N`; every one-thread `Nodes searched` line must be
# equal (the signature; several threads search differently each run). First
# the page's load time to `uciok`, cold (a fresh browser profile) and cached (a reload). A benchmark, not
# a test: run it on an idle machine.
#   scripts/web_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || [ ! -d web/tools/node_modules/playwright-core ]; then
    echo "web_bench: chromium or playwright-core is missing: run scripts/install_web_deps.sh" >&2
    exit 2
fi
scripts/build_web.sh
cargo build --quiet --release -p chuhan-protocol
out=target/web
mkdir -p "$out"
# shellcheck source=lib/web_server.sh
source scripts/lib/web_server.sh
serve_web "$out/http-bench.log"
node web/test/drive.mjs bench "http://127.0.0.1:$port/page/" | tee "$out/bench.txt"
target/release/chuhan bench 2>/dev/null | sed 's/^/web bench: native /' | tee -a "$out/bench.txt"
cores=$(nproc)
if [ "$cores" -gt 1 ]; then
    target/release/chuhan bench --threads "$cores" 2>/dev/null | sed "s/^/web bench: native-threads($cores) /" |
        tail -2 | tee -a "$out/bench.txt"
fi
native_sig=$(grep 'native Nodes searched' "$out/bench.txt" | awk '{print $NF}')
native_nps=$(grep 'native Nodes/second' "$out/bench.txt" | awk '{print $NF}')
status=0
for build in simd128 portable 'threads(1)'; do
    sig=$(grep "wasm-$build Nodes searched" "$out/bench.txt" | awk '{print $NF}')
    nps=$(grep "wasm-$build Nodes/second" "$out/bench.txt" | awk '{print $NF}')
    same=$([ "$sig" = "$native_sig" ] && echo equal || echo DIFFERENT)
    [ "$same" = equal ] || status=1
    echo "web bench: wasm-$build/native speed $(python3 -c "print(f'{$nps / $native_nps:.2f}')"); signature $same ($sig, native $native_sig)"
done
if [ "$cores" -gt 1 ]; then
    nps=$(grep "wasm-threads($cores) Nodes/second" "$out/bench.txt" | awk '{print $NF}')
    native=$(grep "native-threads($cores) Nodes/second" "$out/bench.txt" | awk '{print $NF}')
    one=$(grep "wasm-threads(1) Nodes/second" "$out/bench.txt" | awk '{print $NF}')
    echo "web bench: wasm-threads($cores)/native-threads($cores) speed $(python3 -c "print(f'{$nps / $native:.2f}')"); wasm-threads($cores)/wasm-threads(1) $(python3 -c "print(f'{$nps / $one:.2f}')")"
fi
echo "web bench: sizes: web/chuhan.wasm $(stat -c %s web/chuhan.wasm) bytes, web/chuhan-simd.wasm $(stat -c %s web/chuhan-simd.wasm) bytes, web/chuhan-threads.wasm $(stat -c %s web/chuhan-threads.wasm) bytes"
exit $status
