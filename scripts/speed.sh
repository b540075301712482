#!/usr/bin/env bash
# Speed as ratios measured back to back: chuhan's bench against Fairy-Stockfish's bench on the same 49
# positions, and chuhan on 2 threads against 1. Timings drift by ±15% between runs on a shared VM, so
# each round runs the three benches one after another and prints the ratios of that round; quote the
# range. Run it on an otherwise idle machine.
#
#   scripts/speed.sh [ROUNDS]      # default 3 rounds
#
# Environment: CHUHAN (default target/release/chuhan), FSF (default target/fairy-stockfish/fairy-stockfish,
# built by scripts/fairy_stockfish.sh), FSF_DEPTH (default 12: Fairy-Stockfish's bench to depth 16 takes
# minutes), CHUHAN_ARGS (extra arguments for chuhan bench, e.g. "--eval classical").
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
chuhan=${CHUHAN:-target/release/chuhan}
fsf=${FSF:-target/fairy-stockfish/fairy-stockfish}
fsf_depth=${FSF_DEPTH:-12}
read -r -a extra <<<"${CHUHAN_ARGS:-}"
[ -x "$chuhan" ] || { echo "no $chuhan: cargo build --release first" >&2; exit 2; }
[ -x "$fsf" ] || { echo "no $fsf: run scripts/fairy_stockfish.sh first" >&2; exit 2; }

fens=$(mktemp)
trap 'rm -f "$fens"' EXIT
# Fairy-Stockfish reads the same positions; comments and blank lines are chuhan's only.
grep -v -e '^#' -e '^[[:space:]]*$' engine/src/bench-positions.fen >"$fens"

nps() { awk -F': *' '/^Nodes\/second/ { print $2 }'; }
echo "round  chuhan-1t  chuhan-2t  fsf-1t  chuhan/fsf  2t/1t"
for r in $(seq 1 "$rounds"); do
    c1=$("$chuhan" bench "${extra[@]}" --fens "$fens" 2>/dev/null | nps)
    f1=$("$fsf" bench xiangqi 16 1 "$fsf_depth" "$fens" depth 2>&1 | nps)
    c2=$("$chuhan" bench "${extra[@]}" --fens "$fens" --threads 2 2>/dev/null | nps)
    awk -v r="$r" -v c1="$c1" -v c2="$c2" -v f1="$f1" \
        'BEGIN { printf "%5d  %9d  %9d  %6d  %10.2f  %5.2f\n", r, c1, c2, f1, c1 / f1, c2 / c1 }'
done
