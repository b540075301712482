#!/usr/bin/env bash
# Builds the browser package beside the worker script, ready for web/page/ and npm:
#   web/chuhan.wasm       the portable build, for any browser with WebAssembly
#   web/chuhan-simd.wasm  the same with SIMD128 (the network's loops vectorised, identical results),
#                         which chuhan-worker.js loads where the browser validates SIMD128
# Usage: scripts/build_web.sh            (prints the sizes)
# Needs the wasm32-unknown-unknown target (scripts/install_web_deps.sh adds it).
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-unknown-unknown
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "build_web: the $target target is missing; run: rustup target add $target" >&2
    exit 1
fi
# `cargo rustc --crate-type cdylib`: the crate is an rlib on the host (cheap for `cargo test --workspace`);
# only this build links a wasm module. The release profile's fat LTO costs little here (measured
# 2026-12-06: the web crate and link took 6.7 s with fat LTO, 9.7 s with thin, and gave a 3% smaller
# module). The SIMD build has its own target directory: other RUSTFLAGS would rebuild the portable one's
# crates each time.
build() {
    local out=$1 dir=$2 flags=$3
    RUSTFLAGS="$flags" nice -n 15 cargo rustc --quiet -p chuhan-web --lib --target "$target" --release \
        --crate-type cdylib --target-dir "$dir"
    cp "$dir/$target/release/web.wasm" "web/$out"
    echo "build_web: web/$out $(stat -c %s "web/$out") bytes"
}
build chuhan.wasm target ""
build chuhan-simd.wasm target/wasm-simd "-C target-feature=+simd128"
