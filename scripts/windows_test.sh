#!/usr/bin/env bash
# Builds chuhan.exe for x86-64 Windows (x86_64-pc-windows-gnu, with MinGW-w64) and starts it under Wine:
# `--version`, a UCCI and a UCI session (scripts/lib/engine_checks.sh), `bench` (its Nodes searched must
# be the native x86-64 build's), and a short `chuhan.exe match`: two games, chuhan.exe against chuhan.exe
# (one side by UCCI, the other by UCI, `cmd=` without `.exe` for one of them), all inside Wine, so the
# runner's Windows process and pipe code is what plays.
#
# Wine 8 (Debian 12) has no bcryptprimitives.dll, whose ProcessPrng Rust's standard library calls, and
# refuses to start any Rust program. When this Wine cannot start chuhan.exe as it is, the script builds
# scripts/windows/process_prng.c into a stand-in DLL and puts it beside the copy of chuhan.exe in its scratch
# directory (never in target/.../release, never in a release archive). A Wine that has the DLL runs the
# executable alone.
#
#   scripts/windows_test.sh      # after scripts/install_cross_deps.sh; some 5-10 minutes, mostly the build
#
# Environment: CARGO_TARGET_DIR (default target), NATIVE (the native binary whose bench is the reference;
# default: built here, $CARGO_TARGET_DIR/release/chuhan), WINEPREFIX (default: a scratch prefix under
# $CARGO_TARGET_DIR/windows-test). Exits 0 with a "skipped" line when a tool is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/engine_checks.sh

target=x86_64-pc-windows-gnu
skip() {
    echo "windows_test: skipped: $1 (scripts/install_cross_deps.sh installs it)"
    exit 0
}
command -v x86_64-w64-mingw32-gcc >/dev/null || skip "no x86_64-w64-mingw32-gcc"
command -v wine >/dev/null || skip "no wine"
rustup target list --installed 2>/dev/null | grep -qx "$target" || skip "no Rust target $target"

dir=${CARGO_TARGET_DIR:-target}
LOG=$dir/windows-test
work=$LOG/run
rm -rf "$work"
mkdir -p "$work"
export WINEPREFIX=${WINEPREFIX:-$(realpath "$LOG")/wineprefix}
# No Gecko or Mono installer prompts while the prefix is made, no debug chatter on stderr.
export WINEDLLOVERRIDES="mscoree,mshtml=" WINEDEBUG=-all

echo "== release build for $target"
cargo build --release --locked --target "$target" -p chuhan-protocol --bin chuhan
cp "$dir/$target/release/chuhan.exe" "$work/"
echo "wine: $(wine --version 2>/dev/null)"
# Wine's loader errors on, for the probe only: they name the missing DLL.
if (cd "$work" && WINEDEBUG=-all,err+module timeout 300 wine chuhan.exe --version) >"$LOG/version.out" \
    2>"$LOG/version.err"; then
    echo "chuhan.exe starts under this Wine as it is"
else
    echo "chuhan.exe does not start under this Wine ($(grep -m1 -o 'Library [^ ]*\.dll.*not found' \
        "$LOG/version.err" || tail -1 "$LOG/version.err")): adding the test-only bcryptprimitives.dll"
    x86_64-w64-mingw32-gcc -shared -O2 -Wall -o "$work/bcryptprimitives.dll" \
        scripts/windows/process_prng.c -ladvapi32
    (cd "$work" && timeout 300 wine chuhan.exe --version) >"$LOG/version.out" 2>"$LOG/version.err" ||
        check_fail "chuhan.exe --version under wine, with the DLL, exited with $? (see $LOG/version.err)"
fi
echo "version: $(tr -d '\r' <"$LOG/version.out")"

echo "== native reference"
native=${NATIVE:-$dir/release/chuhan}
[ -n "${NATIVE:-}" ] || cargo build --release --locked -p chuhan-protocol --bin chuhan
want=$(native_signature "$native")

echo "== chuhan.exe under wine"
work_abs=$(realpath "$work")
LOG=$(realpath "$LOG")
cd "$work_abs"
RUN=(wine chuhan.exe)
protocol_sessions
bench_signature "$want"

# Two games at depth 5 from the start: UCCI chuhan.exe named with its extension, UCI chuhan.exe without.
rc=0
timeout 600 wine chuhan.exe match --engine name=ucci cmd=chuhan.exe proto=ucci \
    --engine name=uci cmd=chuhan proto=uci --each option.Hash=16 --depth 5 --games 2 --max-plies 200 \
    --results match.txt --pgn match.pgn >"$LOG/match.out.raw" 2>"$LOG/match.err" || rc=$?
tr -d '\r' <"$LOG/match.out.raw" >"$LOG/match.out"
rm -f "$LOG/match.out.raw"
cp match.txt match.pgn "$LOG/" 2>/dev/null || true
if [ "$rc" -ne 0 ]; then
    check_fail "match under wine exited with $rc (see $LOG/match.out, $LOG/match.err)"
else
    results=$(grep -o '^\[Result "[^"]*"\]' match.pgn 2>/dev/null | grep -c . || true)
    [ "$results" = 2 ] || check_fail "match: $results games in match.pgn instead of 2 (see $LOG/match.out)"
    echo "match: $results games: $(grep -h -o '^\[Result "[^"]*"\]' match.pgn | tr '\n' ' ')"
    tail -4 "$LOG/match.out"
fi
wineserver -w 2>/dev/null || true

if [ "$FAILED" -eq 0 ]; then
    echo "windows_test: all passed (logs in $LOG)"
else
    echo "windows_test: $FAILED failed (logs in $LOG)"
    exit 1
fi
