#!/usr/bin/env bash
# Make a network for chuhan's learned evaluation from nothing but chuhan's own games: two commands.
#
#   scripts/train.sh data    # self-play games into target/datagen/games.bin (resumable: run it again)
#   scripts/train.sh net     # train on them; writes target/nnue/net.nnue and target/nnue/chuhan-<sum>.nnue
#   scripts/train.sh check   # optional: 200 games at 20,000 nodes a move, new net against the built-in one
#   scripts/train.sh sprt    # the test a net must pass to ship: SPRT at 5+0.05 (elo0=0 elo1=10) against
#                            # the built-in net; RESUME=<results file> continues an interrupted one
#
# The next generation plays its data with the last network: EVAL=nnue EVALFILE=target/nnue/net.nnue
# OUT=target/datagen/games-net2.bin scripts/train.sh data, then DATA="target/datagen/games.bin
# target/datagen/games-net2.bin" scripts/train.sh net. The committed games (data/*.bin.xz) are used when
# DATA names them: they are decompressed next to themselves first.
#
# Everything is deterministic for the seeds below: the same build, settings and seeds give the same
# games and the same network, whatever THREADS is. Measured on the 2-core development machine at 5,000
# nodes a move: about 390 training positions a second with the handcrafted evaluation, 478 with the
# network (2 threads); training 650,000 positions for 30 epochs takes under a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-60000}           # games the data file should hold (about 105 training positions each)
NODES=${NODES:-5000}            # nodes per move in the data games
THREADS=${THREADS:-2}           # games played (or training chunks run) at once
SEED=${SEED:-1}                 # data: openings order and random plies; training: initial weights
EVAL=${EVAL:-classical}         # which evaluation plays the data games: classical or nnue
EVALFILE=${EVALFILE:-}          # the network for EVAL=nnue (default: the built-in one)
OUT=${OUT:-target/datagen/games.bin}
DATA=${DATA:-$OUT}              # game files to train on (space-separated)
HIDDEN=${HIDDEN:-128}           # neurons per perspective
EPOCHS=${EPOCHS:-30}            # passes over the data (the best validation epoch is kept)
NET=${NET:-target/nnue/net.nnue}

step=${1:-}
case "$step" in
data)
    cargo build --release -p chuhan-tune
    args=(--games "$GAMES" --nodes "$NODES" --threads "$THREADS" --seed "$SEED" --eval "$EVAL"
        --openings scripts/openings.fen --out "$OUT")
    if [ -n "$EVALFILE" ]; then args+=(--evalfile "$EVALFILE"); fi
    mkdir -p "$(dirname "$OUT")"
    target/release/chuhan-tune datagen "${args[@]}"
    ;;
net)
    cargo build --release -p chuhan-tune
    files=()
    for f in $DATA; do
        case "$f" in
        *.xz)
            raw="${f%.xz}"
            [ -f "$raw" ] || xz -dk "$f"
            files+=(--data "$raw")
            ;;
        *) files+=(--data "$f") ;;
        esac
    done
    target/release/chuhan-tune train "${files[@]}" --hidden "$HIDDEN" --epochs "$EPOCHS" --seed "$SEED" \
        --threads "$THREADS" --out "$NET"
    ;;
check)
    cargo build --release -p chuhan-protocol
    target/release/chuhan match --engine name=new cmd=target/release/chuhan option.Eval=nnue \
        "option.EvalFile=$NET" --engine name=builtin cmd=target/release/chuhan option.Eval=nnue \
        --nodes 20000 --games 200 --concurrency "$THREADS" --openings scripts/openings.fen --order random
    ;;
sprt)
    cargo build --release -p chuhan-protocol
    mkdir -p target/nnue
    bin=target/nnue/chuhan-sprt
    cp target/release/chuhan "$bin"
    results=${RESUME:-target/nnue/sprt-$(date +%Y%m%d-%H%M%S).txt}
    resume=()
    if [ -n "${RESUME:-}" ]; then resume=(--resume); fi
    echo "results: $results" >&2
    "$bin" match --engine name=new cmd="$bin" option.Eval=nnue "option.EvalFile=$NET" \
        --engine name=builtin cmd="$bin" option.Eval=nnue --tc 5+0.05 --games 20000 \
        --concurrency "$THREADS" --openings scripts/openings.fen --order random --seed "$SEED" \
        --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --results "$results" "${resume[@]}" \
        --pgn "${results%.txt}.pgn"
    ;;
*)
    sed -n '2,18p' "$0"
    exit 2
    ;;
esac
