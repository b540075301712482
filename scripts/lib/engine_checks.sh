# The checks a foreign build of chuhan must pass, whatever runs it (qemu-aarch64, wine), sourced by
# scripts/cross_test.sh and scripts/windows_test.sh so that both targets answer the same questions.
#
# Every function takes the command that starts the engine in the array RUN (e.g. RUN=(wine chuhan.exe)),
# writes what it saw under the directory LOG, prints one line per check and counts failures in FAILED.

FAILED=0

check_fail() {
    echo "FAIL: $*" >&2
    FAILED=$((FAILED + 1))
}

# converse NAME LINE...: sends the lines to a fresh engine, one by one; a line `wait REGEX` sends nothing
# but waits (60 s at most) until the engine has written a line matching REGEX, so a `quit` never cuts a
# search short. The engine's stdout, carriage returns dropped, goes to $LOG/NAME.out.
converse() {
    local name=$1 out="$LOG/$1.out"
    shift
    : >"$out.raw"
    {
        local line
        for line in "$@"; do
            if [[ $line == wait\ * ]]; then
                local tries=0
                until tr -d '\r' <"$out.raw" | grep -qE -- "${line#wait }"; do
                    tries=$((tries + 1))
                    [ "$tries" -gt 600 ] && break
                    sleep 0.1
                done
            else
                printf '%s\n' "$line"
            fi
        done
    } | timeout 300 "${RUN[@]}" >"$out.raw" 2>"$LOG/$name.err" || true
    tr -d '\r' <"$out.raw" >"$out"
    rm -f "$out.raw"
}

# expect_lines NAME REGEX...: every REGEX matches a whole line of $LOG/NAME.out.
expect_lines() {
    local name=$1 out="$LOG/$1.out" re
    shift
    for re in "$@"; do
        grep -qxE -- "$re" "$out" || check_fail "$name: no line matching '$re' (see $out, $LOG/$name.err)"
    done
}

# A UCCI and a UCI session: handshake, options, a position with moves, a search to a depth, a search
# stopped by `stop`, and the replies GUIs wait for.
protocol_sessions() {
    converse ucci ucci 'wait ^ucciok$' 'setoption hashsize 16' isready 'wait ^readyok$' \
        'position startpos moves h2e2 h9g7' 'go depth 6' 'wait ^bestmove' \
        'position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' \
        'go depth infinite' 'wait ^info' stop 'wait ^bestmove.*' quit
    expect_lines ucci 'id name chuhan.*' ucciok readyok 'bestmove [a-i][0-9][a-i][0-9]( .*)?'
    [ "$(grep -c '^bestmove' "$LOG/ucci.out")" = 2 ] || check_fail "ucci: not two bestmove lines"
    echo "UCCI session: $(grep -c . "$LOG/ucci.out") lines, $(grep '^bestmove' "$LOG/ucci.out" | tr '\n' ' ')"

    converse uci uci 'wait ^uciok$' 'setoption name Hash value 16' 'setoption name UCI_ShowWDL value true' \
        isready 'wait ^readyok$' ucinewgame 'position startpos moves h2e2 h9g7 h0g2' 'go depth 6' \
        'wait ^bestmove' 'position startpos' 'go wtime 60000 btime 60000' 'wait ^info' stop 'wait ^bestmove' \
        quit
    expect_lines uci 'id name chuhan.*' uciok readyok 'info .* wdl [0-9]+ [0-9]+ [0-9]+ .*' \
        'bestmove [a-i][0-9][a-i][0-9]( .*)?'
    [ "$(grep -c '^bestmove' "$LOG/uci.out")" = 2 ] || check_fail "uci: not two bestmove lines"
    echo "UCI session: $(grep -c . "$LOG/uci.out") lines, $(grep '^bestmove' "$LOG/uci.out" | tr '\n' ' ')"
}

# bench_signature WANT: `chuhan bench` (the default: 49 positions, depth 16, the built-in network) must
# print `Nodes searched: WANT`.
bench_signature() {
    local want=$1
    "${RUN[@]}" bench >"$LOG/bench.out.raw" 2>"$LOG/bench.err" || check_fail "bench exited with $?"
    tr -d '\r' <"$LOG/bench.out.raw" >"$LOG/bench.out"
    rm -f "$LOG/bench.out.raw"
    local got
    got=$(sed -n 's/^Nodes searched: *//p' "$LOG/bench.out")
    if [ "$got" = "$want" ]; then
        echo "bench: Nodes searched: $got, the same as native x86-64"
    else
        check_fail "bench: Nodes searched: '${got}', native x86-64 gives $want"
    fi
}

# native_signature NATIVE: the bench signature of the native build at NATIVE; the pinned value in
# tests/bench_signature.rs is the fallback when there is no such binary, and says so.
native_signature() {
    local native=$1 pinned
    pinned=$(sed -n 's/^const SIGNATURE: u64 = \([0-9_]*\);/\1/p' tests/bench_signature.rs | tr -d _)
    if [ -x "$native" ]; then
        local got
        got=$("$native" bench 2>/dev/null | sed -n 's/^Nodes searched: *//p')
        [ "$got" = "$pinned" ] || echo "note: native $native gives $got, tests/bench_signature.rs pins $pinned" >&2
        echo "$got"
    else
        echo "note: no native build at $native; comparing with the pinned $pinned" >&2
        echo "$pinned"
    fi
}
