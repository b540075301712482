#!/usr/bin/env bash
# Texel-tune chuhan's evaluation from its own games, then check the tuned weights in a match.
#
#   scripts/tune.sh                       # defaults below, a few minutes on one core
#   GAMES=2000 THREADS=4 scripts/tune.sh  # more data
#
# Writes target/tune/{data.txt,weights.rs}. The tuned weights only replace eval/src/weights.rs by hand,
# after the match says they are not worse: cp target/tune/weights.rs eval/src/weights.rs
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-400}             # self-play games for the data
DEPTH=${DEPTH:-3}               # fixed search depth per move
THREADS=${THREADS:-1}           # games played in parallel
SEED=${SEED:-1}                 # openings: a few random legal moves from this seed
ITERATIONS=${ITERATIONS:-400}   # Adam steps
MATCH_GAMES=${MATCH_GAMES:-100} # tuned vs compiled-in weights, on other openings
OUT=${OUT:-target/tune}

cargo build --release -p chuhan-tune
bin=target/release/chuhan-tune

$bin selfplay --games "$GAMES" --depth "$DEPTH" --threads "$THREADS" --seed "$SEED" --out "$OUT/data.txt"
$bin tune --data "$OUT/data.txt" --iterations "$ITERATIONS" --out "$OUT/weights.rs"
$bin match --games "$MATCH_GAMES" --depth "$DEPTH" --threads "$THREADS" --seed "$((SEED + 1000))" \
    --a "$OUT/weights.rs" --b full

echo "If the match favours $OUT/weights.rs: cp $OUT/weights.rs eval/src/weights.rs && cargo test --release -p chuhan-eval -p chuhan-tune"
