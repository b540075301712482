#!/usr/bin/env bash
# Generates the standard endgame tablebase set into a directory, one material at a time, smallest first,
# until the time budget is spent; each table's line (slots, positions, bytes, seconds) goes to stdout and to
# DIR/generate.log. Tables already in DIR are read, not generated again, so an interrupted run resumes.
#
#   scripts/egtb_set.sh [DIR] [BUDGET_SECONDS] [SET]
#   defaults: DIR=tablebases, BUDGET_SECONDS=7200 (2 hours), SET=standard (see `chuhan egtb generate --help`)
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:-tablebases}
budget=${2:-7200}
set_name=${3:-standard}
cargo build --release -p chuhan-protocol --bin chuhan || exit 1
bin=target/release/chuhan
mkdir -p "$dir"
log="$dir/generate.log"
# The set's materials in the order `chuhan` lists them for the set (its subtables come with each).
materials=$("$bin" egtb generate --set "$set_name" --dir "$dir" --list-only) || exit 1
start=$(date +%s)
for m in $materials; do
    elapsed=$(( $(date +%s) - start ))
    if (( elapsed >= budget )); then
        echo "budget of ${budget}s spent after ${elapsed}s; stopping before $m" | tee -a "$log"
        break
    fi
    # A table that fails (out of memory: the perpetual-check phase holds the graph of every position plain
    # retrograde analysis leaves undecided, about 20 bytes a move) is logged and the set goes on.
    if ! "$bin" egtb generate "$m" --dir "$dir" | tee -a "$log"; then
        echo "$m: failed" | tee -a "$log"
    fi
done
echo "total: $(du -sb "$dir" | cut -f1) bytes in $(( $(date +%s) - start )) s" | tee -a "$log"
"$bin" egtb list --dir "$dir"
