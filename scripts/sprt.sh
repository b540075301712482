#!/usr/bin/env bash
# SPRT of the working tree against a base commit: builds both in release mode and plays them at a fast time
# control until the test decides.
#
#   scripts/sprt.sh BASE_REF [extra chuhan match options...]
#
# Environment (defaults): TC (5+0.05), CONCURRENCY (number of cores), GAMES (20000, the cap), ELO0 (0),
# ELO1 (5), ALPHA (0.05), BETA (0.05), HASH (16), OUT (target/sprt: results and PGN), ENGINE_LOG (0; 1 also
# writes every line to and from the engines next to the results, as <results>.log: large for long runs).
# Interrupted? Run the same command with RESUME=<results file printed at the start>.
set -euo pipefail

base_ref=${1:?usage: scripts/sprt.sh BASE_REF [extra chuhan match options]}
shift
root=$(git rev-parse --show-toplevel)
cd "$root"
base_sha=$(git rev-parse --verify "${base_ref}^{commit}")
short=$(git rev-parse --short "$base_sha")
out=${OUT:-$root/target/sprt}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/chuhan-sprt.XXXXXX")
cleanup() {
    git worktree remove --force "$work/base" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "building the working tree" >&2
cargo build --release -p chuhan-protocol >&2
cp target/release/chuhan "$work/chuhan-new"

echo "building base $base_ref ($short)" >&2
git worktree add --detach "$work/base" "$base_sha" >/dev/null
# A target directory kept between runs makes rebuilding a base cheap.
CARGO_TARGET_DIR="$root/target/sprt-base" cargo build --release -p chuhan-protocol \
    --manifest-path "$work/base/Cargo.toml" >&2
cp "$root/target/sprt-base/release/chuhan" "$work/chuhan-base"

stamp=$(date +%Y%m%d-%H%M%S)
results=${RESUME:-$out/new-vs-$short-$stamp.txt}
log=()
if [[ ${ENGINE_LOG:-0} == 1 ]]; then log=(--engine-log "${results%.txt}.log"); fi
echo "results: $results" >&2

# shellcheck source=lib/sprt_match.sh
source "$root/scripts/lib/sprt_match.sh"
sprt_match "$work/chuhan-new" "$results" \
    --engine name=new cmd="$work/chuhan-new" \
    --engine name="base-$short" cmd="$work/chuhan-base" \
    -- "${log[@]}" "$@"
