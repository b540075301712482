#!/usr/bin/env bash
# Builds the browser package: web/chuhan.wasm beside the worker script, ready for web/page/ and npm.
# Usage: scripts/build_web.sh            (prints the .wasm's size)
# Needs the wasm32-unknown-unknown target (scripts/install_web_deps.sh adds it).
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-unknown-unknown
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "build_web: the $target target is missing; run: rustup target add $target" >&2
    exit 1
fi
# `cargo rustc --crate-type cdylib`: the crate is an rlib on the host (cheap for `cargo test --workspace`);
# only this build links a wasm module. The `web` profile is release with thin LTO (Cargo.toml).
nice -n 15 cargo rustc --quiet -p chuhan-web --lib --target "$target" --profile web --crate-type cdylib
cp "target/$target/web/web.wasm" web/chuhan.wasm
echo "build_web: web/chuhan.wasm $(stat -c %s web/chuhan.wasm) bytes"
