#!/usr/bin/env bash
# Gauntlet: chuhan (release build of the working tree) against every engine listed in a config file.
#
#   scripts/gauntlet.sh ENGINES.conf [extra chuhan match options...]
#
# ENGINES.conf holds one engine per line, as the key=value words of `chuhan match --engine` (no spaces
# inside a value); blank lines and lines starting with # are ignored. Example:
#
#   name=pikafish cmd=/opt/pikafish/pikafish proto=uci option.Threads=1 option.Hash=64
#   name=eleeye   cmd=/opt/eleeye/ELEEYE.EXE dir=/opt/eleeye proto=ucci
#   name=weak     cmd=/opt/pikafish/pikafish proto=uci option.Skill_Level=5 tc=20+0.2
#
# Environment (defaults): TC (10+0.1), GAMES per opponent (100), CONCURRENCY (number of cores),
# OUT (target/gauntlet: results and PGN).
set -euo pipefail

conf=${1:?usage: scripts/gauntlet.sh ENGINES.conf [extra chuhan match options]}
shift
root=$(git rev-parse --show-toplevel)
conf=$(cd "$(dirname "$conf")" && pwd)/$(basename "$conf")
cd "$root"
cargo build --release -p chuhan-protocol >&2
chuhan=$root/target/release/chuhan

engines=()
while IFS= read -r line || [[ -n $line ]]; do
    line=${line%%#*}
    read -ra words <<<"$line"
    if ((${#words[@]} == 0)); then continue; fi
    engines+=(--engine "${words[@]}")
done <"$conf"
if ((${#engines[@]} == 0)); then
    echo "gauntlet: no engines in $conf" >&2
    exit 2
fi

out=${OUT:-$root/target/gauntlet}
mkdir -p "$out"
stamp=$(date +%Y%m%d-%H%M%S)
"$chuhan" match \
    --engine name=chuhan cmd="$chuhan" proto=uci option.Hash=64 \
    "${engines[@]}" \
    --tc "${TC:-10+0.1}" \
    --games "${GAMES:-100}" \
    --concurrency "${CONCURRENCY:-$(nproc 2>/dev/null || echo 2)}" \
    --openings "$root/scripts/openings.fen" --order random \
    --results "$out/gauntlet-$stamp.txt" --pgn "$out/gauntlet-$stamp.pgn" \
    "$@"
