#!/usr/bin/env bash
# Runs tests under a sanitizer (issue 36): the unit tests of the crates with `unsafe` code (engine: the
# transposition table and its memory; eval: the SIMD network code) and the protocol tests that drive the
# `chuhan` binary, which is then built with the sanitizer too (searches with several threads, bad input,
# the faults of tests/engine_faults.rs).
#
#   scripts/sanitize.sh [address|thread] [--all]
#
# address (the default) is AddressSanitizer: out-of-bounds accesses, use after free, leaks. thread is
# ThreadSanitizer; it needs the standard library rebuilt with it (-Zbuild-std, the rust-src component) and
# takes much longer. --all runs every test of the workspace instead of the selection (tens of minutes).
# Needs the nightly toolchain; without it the script says it skipped and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."

kind=address
all=0
for a in "$@"; do
    case "$a" in
        address | thread) kind=$a ;;
        --all) all=1 ;;
        *) echo "usage: scripts/sanitize.sh [address|thread] [--all]" >&2; exit 2 ;;
    esac
done
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "sanitize: skipped (needs the nightly toolchain: rustup toolchain install nightly)"
    exit 0
fi

target=$(rustc +nightly -vV | sed -n 's/^host: //p')
# --target keeps build scripts and proc macros (which run on the build machine) uninstrumented.
flags=(--target "$target")
export RUSTFLAGS="${RUSTFLAGS:-} -Zsanitizer=$kind"
export RUSTDOCFLAGS="${RUSTDOCFLAGS:-} -Zsanitizer=$kind"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/sanitize-$kind}
# Tests that cannot run as they are under a sanitizer read this (a `ulimit -v` cannot hold its shadow memory).
export CHUHAN_SANITIZER=$kind
if [ "$kind" = thread ]; then
    flags+=(-Zbuild-std)
fi
# Leaks are reported but the engine's global tables (built once, kept for the process) are not leaks.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}

if [ $all = 1 ]; then
    runs=("--workspace --exclude chuhan-web")
else
    runs=("-p chuhan-engine -p chuhan-eval --lib"
        "-p chuhan-protocol --test robustness --test engine_faults --test search_threads --test uci_session")
fi
status=0
for selection in "${runs[@]}"; do
    echo "sanitize ($kind): cargo +nightly test ${flags[*]} $selection"
    # Every test binary runs even when one fails, so one finding does not hide the rest.
    # shellcheck disable=SC2086 # the selection is words
    if ! cargo +nightly test "${flags[@]}" --no-fail-fast $selection; then
        status=1
    fi
done
if [ $status = 0 ]; then
    echo "sanitize ($kind): clean"
else
    echo "sanitize ($kind): FAILED"
fi
exit $status
