#!/usr/bin/env bash
# Round trips through the UCI front door: ROUNDS times `position` + `go depth 1` and ROUNDS times
# `position` + `go movetime 5`, each sent only after the previous `bestmove` came back, so the figure is
# the time a GUI waits per short search (what bullet games and analysis GUIs pay on every move).
#
#   scripts/latency.sh [BINARY] [ROUNDS]      # default: target/release/chuhan, 1000
#
# Prints one line per kind: total seconds and milliseconds per round trip. Compare two builds back to
# back on a quiet machine.
set -euo pipefail
bin=${1:-target/release/chuhan}
rounds=${2:-1000}

round_trips() {
    local go=$1
    coproc ENGINE { "$bin"; }
    local line
    echo "uci" >&"${ENGINE[1]}"
    while read -r line <&"${ENGINE[0]}"; do [ "$line" = uciok ] && break; done
    echo "isready" >&"${ENGINE[1]}"
    while read -r line <&"${ENGINE[0]}"; do [ "$line" = readyok ] && break; done
    local start end i
    start=$(date +%s%N)
    for ((i = 0; i < rounds; i++)); do
        if ((i % 2)); then
            echo "position startpos moves h2e2 h9g7" >&"${ENGINE[1]}"
        else
            echo "position startpos moves h2e2" >&"${ENGINE[1]}"
        fi
        echo "$go" >&"${ENGINE[1]}"
        while read -r line <&"${ENGINE[0]}"; do [[ $line == bestmove* ]] && break; done
    done
    end=$(date +%s%N)
    echo "quit" >&"${ENGINE[1]}"
    wait "$ENGINE_PID" 2>/dev/null || true
    awk -v ns=$((end - start)) -v n="$rounds" -v go="$go" \
        'BEGIN { printf "%-16s %d round trips: %.3f s, %.3f ms each\n", go, n, ns / 1e9, ns / 1e6 / n }'
}

round_trips "go depth 1"
round_trips "go movetime 5"
