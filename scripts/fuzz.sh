#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ (issue 36) for SECONDS seconds each (default 5), or only the targets
# named after SECONDS, and prints one line per target: executions, corpus size, and whether it crashed.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`); without them it says it skipped
# and exits 0, so CI on a stable-only machine passes. The committed seeds in fuzz/corpus/<target>/ are read
# but never written: what a run discovers goes to fuzz/target/corpus/<target>/ (ignored by git) and is
# reused by the next run on this machine. A crash leaves its input in fuzz/artifacts/<target>/ and makes the
# script exit 1 after the other targets have run; `cargo +nightly fuzz run <target> <file>` replays it.
# The targets are built with AddressSanitizer and debug assertions (cargo-fuzz's defaults).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-5}
shift || true
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly' || ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: skipped (needs the nightly toolchain and cargo-fuzz: rustup toolchain install nightly; cargo install cargo-fuzz)"
    exit 0
fi

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

# One build of every target first, so that the seconds below are spent fuzzing, not compiling.
mkdir -p fuzz/target
if ! cargo +nightly fuzz build >fuzz/target/build.log 2>&1; then
    tail -30 fuzz/target/build.log
    echo "fuzz: the targets do not build (fuzz/target/build.log)"
    exit 1
fi

bin=fuzz/target/x86_64-unknown-linux-gnu/release
failed=()
printf '%-18s %12s %10s %8s  %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
    work=fuzz/target/corpus/$t
    mkdir -p "$work" "fuzz/artifacts/$t"
    log=fuzz/target/fuzz-$t.log
    # -rss_limit_mb and -timeout turn a runaway allocation or a hang into a reported failure.
    # The binary built above, run directly: `cargo fuzz run` would rebuild it if a source changed meanwhile.
    if "$bin/$t" -artifact_prefix="fuzz/artifacts/$t/" -max_total_time="$seconds" -rss_limit_mb=2048 \
        -timeout=10 -print_final_stats=1 "$work" "fuzz/corpus/$t" >"$log" 2>&1; then
        result=ok
    else
        result="FAILED (see $log and fuzz/artifacts/$t/)"
        failed+=("$t")
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    corpus=$(find "$work" -type f | wc -l)
    printf '%-18s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$corpus" "$result"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}"
    exit 1
fi
echo "fuzz: all ${#targets[@]} targets ran ${seconds}s each without a finding"
