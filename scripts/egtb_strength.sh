#!/usr/bin/env bash
# What the tablebases are worth in games: one chuhan binary with `EGTBPath` set against the same binary
# without it, colour-swapped pairs, 1 thread and 16 MiB hash each.
#
#   scripts/egtb_strength.sh endgames TABLE_DIR   # 200 games from scripts/endgames.fen (a covered material
#                                                 # plus a piece or two), where the tables should show
#   scripts/egtb_strength.sh won TABLE_DIR        # 200 games from scripts/endgames_won.fen (covered positions
#                                                 # the tables call won): who converts
#   scripts/egtb_strength.sh sprt TABLE_DIR       # SPRT from scripts/openings.fen: the tables must not cost
#
# Environment (defaults): BIN (target/release/chuhan, built if missing), TC (5+0.05), CONCURRENCY (number
# of cores), GAMES (200 for endgames, 20000 for sprt), ELO0 (0), ELO1 (5), OUT (target/egtb-strength).
# Interrupted? Run the same command with RESUME=<results file printed at the start>.
set -euo pipefail
mode=${1:?usage: scripts/egtb_strength.sh endgames|won|sprt TABLE_DIR}
dir=${2:?usage: scripts/egtb_strength.sh endgames|won|sprt TABLE_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$root/target/release/chuhan}
if [[ ! -x $bin ]]; then
    (cd "$root" && cargo build --release -p chuhan-protocol --bin chuhan)
fi
[[ -d $dir ]] || { echo "no table directory $dir" >&2; exit 1; }
dir=$(cd "$dir" && pwd)
out=${OUT:-$root/target/egtb-strength}
mkdir -p "$out"
case $mode in
    endgames) openings=$root/scripts/endgames.fen; games=${GAMES:-200}; order=sequential; sprt=() ;;
    won) openings=$root/scripts/endgames_won.fen; games=${GAMES:-200}; order=sequential; sprt=() ;;
    sprt) openings=$root/scripts/openings.fen; games=${GAMES:-20000}; order=random
        sprt=(--sprt elo0="${ELO0:-0}" elo1="${ELO1:-5}" alpha=0.05 beta=0.05) ;;
    *) echo "mode: endgames, won or sprt" >&2; exit 2 ;;
esac
results=${RESUME:-$out/$mode-tb-vs-notb-$(date +%Y%m%d-%H%M%S).txt}
resume=()
[[ -n ${RESUME:-} ]] && resume=(--resume)
echo "results: $results" >&2
"$bin" match \
    --engine name=tb cmd="$bin" option.EGTBPath="$dir" \
    --engine name=notb cmd="$bin" \
    --each proto=uci option.Hash=16 option.Threads=1 \
    --tc "${TC:-5+0.05}" --concurrency "${CONCURRENCY:-$(nproc 2>/dev/null || echo 2)}" \
    --games "$games" --openings "$openings" --order "$order" "${sprt[@]}" \
    --results "$results" --pgn "${results%.txt}.pgn" "${resume[@]}"
