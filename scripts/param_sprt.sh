#!/usr/bin/env bash
# SPRT of search parameters on one binary: the working tree's build plays itself, one side with the given
# `tune.<name>` values and the other with the defaults. This is how an idea that lands switched off (a
# parameter whose default keeps the old behaviour, see engine/src/search/params.rs) earns its place.
#
#   scripts/param_sprt.sh NAME name=value [name=value...]
#
# NAME names the tested side and the results file. Environment as scripts/sprt.sh: TC (5+0.05),
# CONCURRENCY, GAMES, ELO0 (0), ELO1 (5), ALPHA, BETA, HASH (16), OUT (target/sprt); BIN=<a chuhan binary>
# plays instead of building the working tree. Interrupted? Run the same command with RESUME=<results file
# printed at the start> (any build with the same bench signature continues it).
set -euo pipefail

name=${1:?usage: scripts/param_sprt.sh NAME name=value [name=value...]}
shift
[[ $# -gt 0 ]] || { echo "param_sprt: give at least one name=value" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
cd "$root"
out=${OUT:-$root/target/sprt}
mkdir -p "$out"

options=()
for pair in "$@"; do
    [[ $pair == *=* ]] || { echo "param_sprt: '$pair' is not name=value" >&2; exit 2; }
    options+=("option.tune.$pair")
done

if [[ -n ${BIN:-} ]]; then
    bin=$BIN
else
    echo "building the working tree" >&2
    cargo build --release -p chuhan-protocol >&2
    bin=$out/chuhan-$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo -dirty)
    cp target/release/chuhan "$bin"
fi
# Every option must exist: an unknown one would make both sides play the defaults.
for pair in "$@"; do
    reply=$(printf 'uci\nsetoption name tune.%s value %s\nisready\nquit\n' "${pair%%=*}" "${pair#*=}" | "$bin" 2>&1)
    if grep -q "info string" <<<"$reply"; then
        echo "param_sprt: $pair refused: $(grep "info string" <<<"$reply" | head -1)" >&2
        exit 2
    fi
done
"$bin" bench 2>/dev/null | grep "Nodes searched" >&2 || true

results=${RESUME:-$out/$name-$(date +%Y%m%d-%H%M%S).txt}
echo "results: $results" >&2
# shellcheck source=lib/sprt_match.sh
source "$root/scripts/lib/sprt_match.sh"
sprt_match "$bin" "$results" \
    --engine name="$name" cmd="$bin" "${options[@]}" \
    --engine name=base cmd="$bin" \
    --
