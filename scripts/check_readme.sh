#!/usr/bin/env bash
# Checks the README's commands as a newcomer would type them: every line of every ```sh block is either run
# here, exactly as written (or with a placeholder such as <FEN> filled in), and its output checked, or named
# as skipped with the reason. A command line this script does not know fails the check, so a new README
# command must be classified below before it lands.
#
#   scripts/check_readme.sh            # run the cheap commands (needs a release build; builds one if not)
#   scripts/check_readme.sh --list     # only print how each command is classified
#
# `.ci/run` calls it after the tests, so the README's first command, `cargo run --release`, is proven on
# every submission.
set -euo pipefail
cd "$(dirname "$0")/.."

list_only=false
[ "${1:-}" = "--list" ] && list_only=true

failures=0
checked=0
skipped=0
START_FEN="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
exe=target/release/chuhan
[ -x "$exe.exe" ] && exe="$exe.exe"

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

skip() {
    skipped=$((skipped + 1))
    echo "skip: $1"
    echo "      ($2)"
}

# Runs `cmd` (a README line, comment included: bash drops it) with `input` on stdin and checks that it
# exits 0 and prints every one of the remaining arguments.
run_expect() {
    local cmd=$1 input=$2
    shift 2
    checked=$((checked + 1))
    if [ -n "$input" ]; then
        echo "run:  $cmd   <<< $(printf '%b' "$input" | tr '\n' ' ')"
    else
        echo "run:  $cmd"
    fi
    $list_only && return 0
    local out rc=0 errors
    errors=$(mktemp)
    out=$(printf '%b' "$input" | bash -c "$cmd" 2>"$errors") || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "'$cmd' exited with $rc; its last words:"
        tail -5 "$errors" >&2
        rm -f "$errors"
        return 0
    fi
    rm -f "$errors"
    local want
    for want in "$@"; do
        if ! grep -qF -- "$want" <<<"$out"; then
            fail "'$cmd' did not print '$want'; it printed:"
            printf '%s\n' "$out" | head -20 >&2
        fi
    done
}

# The README's ```sh blocks, one command a line: comment-only lines dropped, continuation lines joined.
readme_commands() {
    awk '
        /^```sh[[:space:]]*$/ { inside = 1; next }
        /^```/ { inside = 0; next }
        !inside { next }
        {
            line = $0
            if (pending != "") { sub(/^[[:space:]]+/, "", line); line = pending " " line }
            if (line ~ /\\[[:space:]]*$/) { sub(/[[:space:]]*\\[[:space:]]*$/, "", line); pending = line; next }
            pending = ""
            if (line ~ /^[[:space:]]*(#|$)/) next
            print line
        }
    ' README.md
}

if ! $list_only && [ ! -x "$exe" ]; then
    cargo build --release -p chuhan-protocol
fi

commands=$(readme_commands)
[ -n "$commands" ] || fail "no command blocks found in README.md"

while IFS= read -r cmd; do
    case "$cmd" in
    "cargo run --release "*"# start the engine"*)
        run_expect "$cmd" 'uci\nisready\nquit\n' "uciok" "readyok"
        run_expect "$cmd" 'ucci\nisready\nquit\n' "ucciok" "readyok"
        run_expect "$cmd" 'xboard\nprotover 2\nquit\n' "feature" "done=1"
        ;;
    "cargo test --release --workspace"*)
        skip "$cmd" "the test command itself: .ci/run runs it just before this script"
        ;;
    "cargo run --release -- perft 5 "*)
        run_expect "$cmd" '' "Nodes searched: 133312995"
        ;;
    "cargo run --release -- perft 3 --fen \"<FEN>\" --divide")
        run_expect "${cmd/<FEN>/$START_FEN}" '' "h2e2: " "Nodes searched: 79666"
        ;;
    "cargo install --path protocol "*)
        # Into a scratch root, reusing this checkout's build, and only `chuhan` may be installed.
        root=$(mktemp -d)
        run_expect "${cmd%%#*} --root $root --target-dir target --quiet" '' ""
        if ! $list_only; then
            installed=$(ls "$root/bin" 2>/dev/null | tr '\n' ' ')
            case "$installed" in
            "chuhan " | "chuhan.exe ") ;;
            *) fail "'$cmd' installed '$installed' instead of chuhan alone" ;;
            esac
        fi
        rm -rf "$root"
        ;;
    "chuhan judge --fen startpos --moves h2e2 h9g7"*"# -> \""*)
        want=${cmd##*# -> \"}
        want=${want%\"*}
        run_expect "$exe ${cmd#chuhan }" '' "$want"
        ;;
    "chuhan judge --fen \"<FEN>\""*)
        skip "$cmd" "a template: <FEN> and m1 m2 ... stand for the user's game"
        ;;
    "chuhan egtb generate KRKAA --dir /tmp/tb "*)
        run_expect "rm -rf /tmp/tb && $exe ${cmd#chuhan }" '' "KRKAA: " "KRK: "
        ;;
    "chuhan egtb probe --dir /tmp/tb "*)
        run_expect "$exe ${cmd#chuhan }" '' "win 3" "a0a8"
        ;;
    "chuhan egtb list --dir /tmp/tb "*)
        run_expect "$exe ${cmd#chuhan }" '' "KRKAA 97200 slots"
        ;;
    "scripts/egtb_set.sh "*)
        skip "$cmd" "generates the set for about half an hour; engine/tests/egtb.rs checks small tables"
        ;;
    "scripts/egtb_strength.sh "*)
        skip "$cmd" "hundreds of timed games; protocol/tests/egtb_session.rs tests probing through the protocols"
        ;;
    "xboard "*)
        skip "$cmd" "needs an X display and XBoard; scripts/xboard_games.sh runs it under xvfb"
        ;;
    "chuhan match "* | "target/release/chuhan match --engine name=chuhan cmd=target/release/chuhan "*)
        skip "$cmd" "hundreds of games against other engines; protocol/tests/match_runner.rs tests the runner"
        ;;
    "M=\"match "* | "parallel "*"/chuhan \$M "* | "target/release/chuhan match merge "*)
        skip "$cmd" "a sharded 2,000-game match; the shard test in protocol/tests/match_runner.rs plays a small one"
        ;;
    "D=\"datagen "* | "parallel "*"/chuhan-tune \$D "* | "target/release/chuhan-tune datagen-merge "*)
        skip "$cmd" "sharded data generation, hours; tune/tests/datagen_shards.rs runs a small one"
        ;;
    "printf '%s\n' "* | "OUT=data/gauntlet "*)
        skip "$cmd" "needs ElephantEye and Fairy-Stockfish built (../shared/peers, scripts/fairy_stockfish.sh)"
        ;;
    "scripts/fairy_stockfish.sh"*)
        skip "$cmd" "downloads and builds Fairy-Stockfish, minutes of compiling"
        ;;
    "cargo build --release -p chuhan-protocol -p chuhan-tune"* | "target/release/chuhan-tune spsa "*)
        skip "$cmd" "an SPSA run of hours"
        ;;
    "scripts/train.sh "* | "cargo build --release -p chuhan-tune"* | "target/release/chuhan-tune "*)
        skip "$cmd" "self-play data generation and network training, hours"
        ;;
    "target/release/chuhan match --engine name=nnue "*)
        skip "$cmd" "a 100-game match"
        ;;
    "scripts/cross_test.sh"* | "scripts/windows_test.sh"*)
        skip "$cmd" "cross compilers, qemu or Wine and two release builds, 10-20 minutes; CHUHAN_CROSS=1 .ci/run runs it"
        ;;
    "rustup target add aarch64-linux-android"* | "export CARGO_TARGET_AARCH64_LINUX_ANDROID_LINKER="* | \
        "cargo build --release --target aarch64-linux-android "* | "adb push "*)
        skip "$cmd" "needs the Android NDK (and a device for adb); scripts/cross_test.sh checks the Android build compiles"
        ;;
    "scripts/install_web_deps.sh"*)
        skip "$cmd" "installs packages as root (apt-get, npm)"
        ;;
    "scripts/serve_web.sh"*)
        skip "$cmd" "serves the page until stopped"
        ;;
    "scripts/web_test.sh"*)
        skip "$cmd" ".ci/run runs it just after this script"
        ;;
    "scripts/web_bench.sh"*)
        skip "$cmd" "a benchmark of minutes (the 49 bench positions in the browser and natively)"
        ;;
    *)
        fail "README command not classified in scripts/check_readme.sh: $cmd"
        ;;
    esac
done <<<"$commands"

echo "README commands: $checked checked, $skipped skipped, $failures failed"
[ "$failures" -eq 0 ]
