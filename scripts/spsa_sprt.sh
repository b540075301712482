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
echo "results: $results" >&2

# shellcheck source=lib/sprt_match.sh
source "$root/scripts/lib/sprt_match.sh"
sprt_match "$work/chuhan" "$results" \
    --engine name=tuned cmd="$work/chuhan" "${tuned[@]}" \
    --engine name=defaults cmd="$work/chuhan" \
    -- "$@"
