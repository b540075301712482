#!/usr/bin/env bash
# Builds the browser package beside the worker script, ready for web/page/ and npm:
#   web/chuhan.wasm       the portable build, for any browser with WebAssembly
#   web/chuhan-simd.wasm  the same with SIMD128 (the network's loops vectorised, identical results),
#                         which chuhan-worker.js loads where the browser validates SIMD128
#   web/chuhan-threads.wasm  the native engine loop with its search threads (wasm32-wasip1-threads,
#                         SIMD128), which chuhan-engine.js runs where the page is cross-origin isolated
# Usage: scripts/build_web.sh            (prints the sizes)
# Needs the wasm32-unknown-unknown and wasm32-wasip1-threads targets (scripts/install_web_deps.sh adds
# them); without the second, the threaded module is left out with a message and pages use one thread.
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-unknown-unknown
installed=$(rustup target list --installed 2>/dev/null || true)
if ! grep -qx "$target" <<<"$installed"; then
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
# The threaded build is a program (the engine's stdin/stdout loop), not a library: chuhan-threads.js
# plays the operating system for it. Its imported shared memory may grow to 1 GiB (the target's default
# maximum, which chuhan-engine.js gives the memory it creates).
threads_target=wasm32-wasip1-threads
if grep -qx "$threads_target" <<<"$installed"; then
    RUSTFLAGS="-C target-feature=+simd128" nice -n 15 cargo build --quiet -p chuhan-web --bin chuhan-threads \
        --target "$threads_target" --release --target-dir target/wasm-threads
    cp "target/wasm-threads/$threads_target/release/chuhan-threads.wasm" web/chuhan-threads.wasm
    echo "build_web: web/chuhan-threads.wasm $(stat -c %s web/chuhan-threads.wasm) bytes"
else
    rm -f web/chuhan-threads.wasm
    echo "build_web: no $threads_target target (rustup target add $threads_target): the threaded build is left out"
fi
