#!/usr/bin/env bash
# Builds chuhan for aarch64 Linux on an x86-64 machine and runs it under qemu's user-mode emulator:
#   1. tests under qemu: chuhan-engine's unit tests (but three long random sweeps against slow references)
#      and perft suite (tests/perft.rs, depth 5; the deep perft stays #[ignore]d), chuhan-eval's unit tests
#      (the NEON loops against the portable ones, on random rows and on the built-in network over game
#      positions);
#   2. a release build, whose `chuhan bench` under qemu must print the native x86-64 build's Nodes searched;
#   3. a UCCI and a UCI session with that binary (scripts/lib/engine_checks.sh);
#   4. for Android, `cargo check --target aarch64-linux-android` (linking needs the NDK: see the README).
# Some 10-20 minutes on two busy cores, most of it the two release builds (fat LTO) and bench under qemu.
#
#   scripts/cross_test.sh        # after scripts/install_cross_deps.sh
#
# Environment: CARGO_TARGET_DIR (default target), NATIVE (the native binary whose bench is the reference;
# default: built here, $CARGO_TARGET_DIR/release/chuhan). Exits 0 with a "skipped" line when a tool is
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/engine_checks.sh

target=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu
skip() {
    echo "cross_test: skipped: $1 (scripts/install_cross_deps.sh installs it)"
    exit 0
}
command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc"
command -v qemu-aarch64 >/dev/null || skip "no qemu-aarch64"
[ -d "$sysroot/lib" ] || skip "no aarch64 C library in $sysroot"
rustup target list --installed 2>/dev/null | grep -qx "$target" || skip "no Rust target $target"

# Set here rather than in .cargo/config.toml: a config entry would also apply on a real aarch64 Linux host,
# where there is neither the cross linker nor a need for qemu.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $sysroot"
dir=${CARGO_TARGET_DIR:-target}
LOG=$dir/cross-test
mkdir -p "$LOG"

echo "== tests under qemu-aarch64"
tests_log=$LOG/tests.log
# Release code, as .ci/run tests (the debug build's tests ran for over ten minutes under qemu), but without
# the release profile's fat LTO and single codegen unit, which would cost minutes of linking per test binary.
tests=(cargo test --release --target "$target")
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
# Three sweeps of the engine's lib tests compare fast code with slow references over thousands of random
# positions (attack tables, move generation, SEE); they took most of ten minutes under qemu, and the perft
# suite and the bench signature exercise the same code on aarch64 from end to end, so they stay native.
sweeps=(--skip fast_tables_match_slow_walks --skip same_moves_in_the_same_order_as_the_reference
    --skip agrees_with_the_reference_over_random_games)
if "${tests[@]}" -p chuhan-engine --lib --test perft -- "${sweeps[@]}" >"$tests_log" 2>&1 &&
    "${tests[@]}" -p chuhan-eval --lib >>"$tests_log" 2>&1; then
    grep -E '^test result' "$tests_log" |
        awk '{p += $4; i += $8; f += $12} END {print "tests: " p " passed in " NR " binaries (" i " ignored, " f " skipped)"}'
else
    check_fail "tests under qemu failed; the end of $tests_log:"
    tail -30 "$tests_log" >&2
fi

unset CARGO_PROFILE_RELEASE_LTO CARGO_PROFILE_RELEASE_CODEGEN_UNITS

echo "== release build for $target"
cargo build --release --locked --target "$target" -p chuhan-protocol --bin chuhan
exe=$dir/$target/release/chuhan
if command -v file >/dev/null; then
    file "$exe" | grep -q 'ARM aarch64' || check_fail "$exe is not an aarch64 executable"
fi
RUN=(qemu-aarch64 -L "$sysroot" "$exe")

echo "== native reference"
native=${NATIVE:-$dir/release/chuhan}
[ -n "${NATIVE:-}" ] || cargo build --release --locked -p chuhan-protocol --bin chuhan
want=$(native_signature "$native")

echo "== $target under qemu"
version=$("${RUN[@]}" --version) || check_fail "--version exited with $?"
echo "version: $version"
protocol_sessions
bench_signature "$want"

echo "== aarch64-linux-android"
if rustup target list --installed 2>/dev/null | grep -qx aarch64-linux-android; then
    if cargo check --release --locked --target aarch64-linux-android -p chuhan-protocol --bin chuhan \
        >"$LOG/android.log" 2>&1; then
        echo "android: chuhan compiles for aarch64-linux-android (not linked: that needs the NDK)"
    else
        check_fail "android: cargo check failed; see $LOG/android.log"
    fi
else
    echo "android: skipped: no Rust target aarch64-linux-android"
fi

if [ "$FAILED" -eq 0 ]; then
    echo "cross_test: all passed (logs in $LOG)"
else
    echo "cross_test: $FAILED failed (logs in $LOG)"
    exit 1
fi
