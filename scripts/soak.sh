#!/usr/bin/env bash
# The reliability soak (issue 36, part 5): 1,000 games at 1+0.01 of chuhan (release build of the working
# tree) against ElephantEye and against the previous chuhan build, two games at a time while two extra
# busy processes load the two cores, as on a crowded tournament machine. Then a small summary of what
# went wrong (crashes, illegal moves, stalls, time forfeits, by engine) goes into data/soak-DATE.md; the
# results file and PGN stay under OUT.
#
#   scripts/soak.sh [extra chuhan match options...]
#
# Environment (defaults): BASE (HEAD~1: the previous build), GAMES (500 per opponent, 1,000 in all),
# TC (1+0.01), CONCURRENCY (2), BUSY (2 busy processes), BUSY_CMD (unset: the busy processes are empty
# loops; set it to a command, such as a data generation with --threads 2, to load the machine with useful
# work instead: it runs in place of the loops and is stopped at the end), PEERS (../shared/peers, where
# build-eleeye.sh is), ELEEYE (the ElephantEye binary; built from PEERS when unset), OUT (target/soak), ENGINE_LOG (0; 1
# keeps every line to and from the engines, large). Interrupted? Run it again with RESUME=<results file>.
# It takes about an hour on two cores; it is not part of CI.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
cd "$root"
base_ref=${BASE:-HEAD~1}
base_sha=$(git rev-parse --verify "${base_ref}^{commit}")
short=$(git rev-parse --short "$base_sha")
out=${OUT:-$root/target/soak}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/chuhan-soak.XXXXXX")
busy_pids=()
cleanup() {
    for pid in "${busy_pids[@]}"; do kill -- "$pid" 2>/dev/null || true; done
    git worktree remove --force "$work/base" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "building the working tree" >&2
cargo build --release -p chuhan-protocol >&2
cp target/release/chuhan "$work/chuhan"
new_sha=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo "+changes")

echo "building the previous build, $base_ref ($short)" >&2
git worktree add --detach "$work/base" "$base_sha" >/dev/null
CARGO_TARGET_DIR="$root/target/sprt-base" cargo build --release -p chuhan-protocol \
    --manifest-path "$work/base/Cargo.toml" >&2
cp "$root/target/sprt-base/release/chuhan" "$work/chuhan-base"

peers=${PEERS:-$root/../shared/peers}
eleeye=${ELEEYE:-}
if [ -z "$eleeye" ]; then
    if [ ! -x "$peers/build-eleeye.sh" ]; then
        echo "soak: no ElephantEye: set ELEEYE=/path/to/ELEEYE or PEERS=<folder with build-eleeye.sh>" >&2
        exit 2
    fi
    eleeye=$("$peers/build-eleeye.sh" "$root/target/eleeye" | tail -1)
fi
eleeye_dir=$(dirname "$eleeye")

stamp=$(date +%Y%m%d-%H%M%S)
results=${RESUME:-$out/soak-$stamp.txt}
pgn=${results%.txt}.pgn
summary_table=${results%.txt}.summary
log=()
if [[ ${ENGINE_LOG:-0} == 1 ]]; then log=(--engine-log "${results%.txt}.log"); fi
resume=()
if [ -n "${RESUME:-}" ]; then resume=(--resume); fi

# The load, at the same priority as the match: busy loops, one per core the match does not have to
# itself, or the given command.
if [ -n "${BUSY_CMD:-}" ]; then
    # Its own process group (job control on for this one start), so that stopping it stops everything it
    # started; but the same session. With the kernel's autogroup scheduling on (the default on many
    # kernels), a command in a session of its own (setsid) is scheduled as a group against the match's
    # whole session; run that way, the engines lost 168 of 1,000 games on time, moves stalled by up to
    # 1.7 s (data/soak-20261206-221615.md), against none with the load in the match's session.
    set -m
    bash -c "$BUSY_CMD" &
    set +m
    busy_pids+=(-$!)
    load="the load: $BUSY_CMD"
else
    for _ in $(seq 1 "${BUSY:-2}"); do
        (while :; do :; done) &
        busy_pids+=($!)
    done
    load="${BUSY:-2} busy processes"
fi

echo "results: $results" >&2
started=$(date +%s)
set +e
"$work/chuhan" match \
    --engine name=chuhan cmd="$work/chuhan" proto=uci option.Hash=16 \
    --engine name=eleeye cmd="$eleeye" dir="$eleeye_dir" proto=ucci option.usebook=false option.hashsize=16 \
    --engine name="base-$short" cmd="$work/chuhan-base" proto=uci option.Hash=16 \
    --tc "${TC:-1+0.01}" \
    --games "${GAMES:-500}" \
    --concurrency "${CONCURRENCY:-2}" \
    --openings "$root/scripts/openings.fen" --order random \
    --results "$results" --pgn "$pgn" \
    "${resume[@]}" "${log[@]}" "$@" | tee "$summary_table"
status=${PIPESTATUS[0]}
set -e
elapsed=$(($(date +%s) - started))
for pid in "${busy_pids[@]}"; do kill -- "$pid" 2>/dev/null || true; done
busy_pids=()

# The faults, by the engine that lost the game by them. A stall is a `no-reply` (no move even after
# `stop`); a crash is the engine exiting or not answering its handshake.
faults=$(awk -F'\t' '
    /^#/ || NF < 5 { next }
    {
        split("", f)
        for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
        games++
        loser = f["result"] == "1-0" ? f["black"] : f["result"] == "0-1" ? f["red"] : ""
        t = f["termination"]
        if (t == "crash" || t == "no-reply" || t == "time-forfeit" || t == "illegal-move") {
            count[loser " " t]++
            if (length(lines) < 4000) lines = lines sprintf("- game %s %s/%s (%s vs %s): %s %s: %s\n",
                f["pairing"], f["pair"], f["slot"], f["red"], f["black"], f["result"], t, f["detail"])
        }
        ends[t]++
    }
    END {
        printf "games: %d\n\nFaults (engine, kind: games):\n", games
        n = 0
        for (k in count) { printf "- %s: %d\n", k, count[k]; n++ }
        if (n == 0) print "- none"
        printf "\nEvery ending:\n"
        for (t in ends) printf "- %s: %d\n", t, ends[t]
        if (lines != "") printf "\nThe faulty games:\n%s", lines
    }' "$results")

summary=$root/data/soak-$stamp.md
{
    echo "# Soak $stamp"
    echo
    echo "chuhan $new_sha against ElephantEye ($eleeye) and the previous build base-$short, ${GAMES:-500} games"
    echo "each at ${TC:-1+0.01}, ${CONCURRENCY:-2} at a time with $load on $(nproc) cores;"
    echo "$((elapsed / 60)) min; the runner exited with status $status. Results: $(basename "$results") (not in git)."
    echo
    echo '```'
    cat "$summary_table"
    echo '```'
    echo
    echo "$faults"
} >"$summary"
echo "summary: $summary" >&2
cat "$summary"
exit "$status"
