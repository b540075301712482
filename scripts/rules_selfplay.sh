#!/usr/bin/env bash
# The self-play check of the rule sets (docs/rules.md, "Rule sets"): for each set, chuhan plays itself
# GAMES games refereed by that set, with the engines told the set (`Rule`) and NOT told which moves a
# repetition rule forbids (--no-banmoves), so that only their own search keeps them out of a forbidden
# repetition. scripts/rule_verdicts.py then counts the games a rule verdict decided and lists any whose
# loser's search thought the repetition allowed (there should be none).
#
#   scripts/rules_selfplay.sh [BINARY]     # default: target/release/chuhan
#
# Environment (defaults): SETS ("chinese asian computer"), GAMES (200), TC (2+0.02), CONCURRENCY
# (number of cores), SEED (1), OUT (target/rules-selfplay). Interrupted? Run it again: each set's match
# resumes from its results file.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
bin=${1:-$root/target/release/chuhan}
out=${OUT:-$root/target/rules-selfplay}
mkdir -p "$out"
status=0
for set in ${SETS:-chinese asian computer}; do
    results="$out/$set.txt"
    resume=()
    if [[ -s $results ]]; then resume=(--resume); fi
    "$bin" match \
        --engine name=a cmd="$bin" --engine name=b cmd="$bin" \
        --each proto=uci option.Hash=16 option.Threads=1 option.Rule="$set" \
        --rules "$set" --no-banmoves \
        --tc "${TC:-2+0.02}" --games "${GAMES:-200}" \
        --concurrency "${CONCURRENCY:-$(nproc 2>/dev/null || echo 2)}" \
        --openings "$root/scripts/openings.fen" --order random --seed "${SEED:-1}" \
        --event "rules self-play ($set)" \
        --results "$results" --pgn "$out/$set.pgn" "${resume[@]}" >&2
    python3 "$root/scripts/rule_verdicts.py" "$out/$set.pgn" || status=1
done
exit $status
