#!/usr/bin/env bash
# Runs the unit tests of the code that uses `unsafe` under Miri (issue 36): the transposition table's
# memory (tt_memory: zeroed allocation, alignment, huge-page placement), the table itself (tt: lock-free
# stores and probes from several threads), the network's SIMD inner loops (nnue::simd: the portable code,
# then the AVX2 code with AVX2 switched on at compile time, which Miri emulates, since it cannot ask the
# CPU).
#
#   scripts/miri.sh
#
# Needs the nightly toolchain with the miri component (`rustup +nightly component add miri rust-src`);
# without it the script says it skipped and exits 0. Miri interprets every instruction, so the tests
# shrink their loops under `cfg(miri)`; the one that needs hundreds of MiB is ignored there.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "miri: skipped (needs: rustup toolchain install nightly; rustup +nightly component add miri rust-src)"
    exit 0
fi

# Separate from the ordinary builds, so neither invalidates the other.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/miri}
# Stacked borrows plus the data-race and weak-memory checks are on by default; leak checks too. Isolation
# is off because sizing the table reads /proc/meminfo.
export MIRIFLAGS=${MIRIFLAGS:-"-Zmiri-strict-provenance -Zmiri-disable-isolation"}

status=0
run() {
    echo "== $*"
    if ! "$@"; then
        status=1
    fi
}

run cargo +nightly miri test -p chuhan-engine --lib -- search::tt
run cargo +nightly miri test -p chuhan-eval --lib -- nnue::simd
if [ "$(uname -m)" = x86_64 ]; then
    # The AVX2 versions: chosen at run time on real CPUs, so only reached when the feature is on at build.
    RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+avx2" CARGO_TARGET_DIR="$CARGO_TARGET_DIR-avx2" \
        run cargo +nightly miri test -p chuhan-eval --lib -- nnue::simd
fi

if [ $status -eq 0 ]; then
    echo "miri: clean"
else
    echo "miri: FAILED"
fi
exit $status
