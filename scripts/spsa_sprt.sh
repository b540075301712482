#!/usr/bin/env bash
# SPRT of an SPSA run's tuned search parameters against the defaults: one release build of the working tree
# plays itself, one side with every tuned value that differs from its default (set through the hidden
# `tune.<name>` options), until the test decides.
#
#   scripts/spsa_sprt.sh SPSA_DIR [extra chuhan match options...]
#
# SPSA_DIR is the directory of a `chuhan-tune spsa` run (its state.txt). Environment (defaults): TC (5+0.05),
# CONCURRENCY (number of cores), GAMES (20000, the cap), ELO0 (0), ELO1 (5), ALPHA (0.05), BETA (0.05),
# HASH (16), OUT (target/sprt: results and PGN).
# Interrupted? Run the same command with RESUME=<results file printed at the start>.
set -euo pipefail

dir=${1:?usage: scripts/spsa_sprt.sh SPSA_DIR [extra chuhan match options]}
shift
root=$(git rev-parse --show-toplevel)
cd "$root"
out=${OUT:-$root/target/sprt}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/chuhan-spsa-sprt.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "building the working tree" >&2
cargo build --release -p chuhan-protocol -p chuhan-tune >&2
# A copy, so that a rebuild during the match cannot change the engine under it.
cp target/release/chuhan "$work/chuhan"

mapfile -t tuned < <(target/release/chuhan-tune spsa-values --dir "$dir" --options)
if [[ ${#tuned[@]} -eq 0 ]]; then
    echo "every tuned value in $dir equals its default: nothing to test" >&2
    exit 1
fi
target/release/chuhan-tune spsa-values --dir "$dir" >&2

stamp=$(date +%Y%m%d-%H%M%S)
results=${RESUME:-$out/spsa-vs-defaults-$stamp.txt}
pgn=${results%.txt}.pgn
resume=()
if [[ -n ${RESUME:-} ]]; then resume=(--resume); fi
echo "results: $results" >&2

"$work/chuhan" match \
    --engine name=tuned cmd="$work/chuhan" "${tuned[@]}" \
    --engine name=defaults cmd="$work/chuhan" \
    --each proto=uci option.Hash="${HASH:-16}" option.Threads=1 \
    --tc "${TC:-5+0.05}" \
    --concurrency "${CONCURRENCY:-$(nproc 2>/dev/null || echo 2)}" \
    --games "${GAMES:-20000}" \
    --openings "$root/scripts/openings.fen" --order random \
    --sprt elo0="${ELO0:-0}" elo1="${ELO1:-5}" alpha="${ALPHA:-0.05}" beta="${BETA:-0.05}" \
    --results "$results" --pgn "$pgn" \
    "${resume[@]}" "$@"
