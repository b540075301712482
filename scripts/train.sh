#!/usr/bin/env bash
# Make a network for chuhan's learned evaluation from nothing but chuhan's own games: two commands.
#
#   scripts/train.sh data    # self-play games into target/datagen/games.bin (resumable: run it again)
#   scripts/train.sh net     # train on them; writes target/nnue/net.nnue and target/nnue/chuhan-<sum>.nnue
#                            # (FEATURES=kingbuckets: inputs bucketed by the own king, file format version 2)
#   scripts/train.sh check   # optional: 200 games at 20,000 nodes a move, new net against the built-in one
#   scripts/train.sh sprt    # the test a net must pass to ship: SPRT at 5+0.05 (elo0=0 elo1=10) against
#                            # the built-in net; RESUME=<results file> continues an interrupted one
#
# The next generation plays its data with the last network: EVAL=nnue EVALFILE=target/nnue/net.nnue
# OUT=target/datagen/games-net2.bin scripts/train.sh data, then DATA="target/datagen/games.bin
# target/datagen/games-net2.bin" scripts/train.sh net. The committed games (data/*.bin.xz) are used when
# DATA names them: they are decompressed next to themselves first. The built-in network's generations:
#   1. data/games-hce-s1: SEED=1 (handcrafted evaluation, 5,000 nodes; cd13f73); its first 4,430 games
#      gave chuhan-471f9665
#   2. data/games-nnue1-s2: EVAL=nnue NODES=2500 SEED=2 GAMES=41332 with net 1 built in (79e9ebc), then
#      DATA="data/games-hce-s1.bin.xz data/games-nnue1-s2.bin.xz" HIDDEN=128 EPOCHS=30 scripts/train.sh net:
#      chuhan-2a986b82
#   3. games-nnue2-s3 (outside the repository, data/manifest.toml): EVAL=nnue NODES=5000 SEED=3 MIN_PLIES=0
#      with net 2 built in, its first 25,207 games; then DATA="<1> <2> <those games>" HIDDEN=256 EPOCHS=6
#      scripts/train.sh net: chuhan-c42c3947
#
# Everything is deterministic for the seeds below: the same build, settings and seeds give the same
# games and the same network, whatever THREADS is. Measured on the 2-core development machine (2 threads):
# at 5,000 nodes a move about 390 training positions a second with the handcrafted evaluation, 478 with
# the network; at 2,500 nodes with the network about 1,000 a second on an idle machine. Training on
# 650,000 positions for 30 epochs takes under a minute, on 5 million about 5 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-60000}           # games the data file should hold (about 105 training positions each)
NODES=${NODES:-5000}            # nodes per move in the data games
THREADS=${THREADS:-2}           # games played (or training chunks run) at once
SEED=${SEED:-1}                 # data: openings order and random plies; training: initial weights
MIN_PLIES=${MIN_PLIES:-2}       # data: at least this many random plies after each opening line (the files
                                # made before this setting existed, seeds 1-3, used 0: MIN_PLIES=0 remakes them)
EVAL=${EVAL:-classical}         # which evaluation plays the data games: classical or nnue
EVALFILE=${EVALFILE:-}          # the network for EVAL=nnue (default: the built-in one)
OUT=${OUT:-target/datagen/games.bin}
DATA=${DATA:-$OUT}              # game files to train on (space-separated)
HIDDEN=${HIDDEN:-256}           # neurons per perspective (net 3: 256; nets 1 and 2: 128)
FEATURES=${FEATURES:-piecesquare} # the network's inputs: piecesquare (nets 1, 2) or kingbuckets
EPOCHS=${EPOCHS:-6}             # passes over the data, the best validation epoch kept (net 3: 6; nets 1, 2: 30)
NET=${NET:-target/nnue/net.nnue}

step=${1:-}
case "$step" in
data)
    cargo build --release -p chuhan-tune
    args=(--games "$GAMES" --nodes "$NODES" --threads "$THREADS" --seed "$SEED" --eval "$EVAL" --min-random-plies "$MIN_PLIES"
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
    target/release/chuhan-tune train "${files[@]}" --features "$FEATURES" --hidden "$HIDDEN" \
        --epochs "$EPOCHS" --seed "$SEED" --threads "$THREADS" --out "$NET"
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
    echo "results: $results" >&2
    # shellcheck source=lib/sprt_match.sh
    source scripts/lib/sprt_match.sh
    ELO1=${ELO1:-10} CONCURRENCY=${CONCURRENCY:-$THREADS} sprt_match "$bin" "$results" \
        --engine name=new cmd="$bin" option.Eval=nnue "option.EvalFile=$NET" \
        --engine name=builtin cmd="$bin" option.Eval=nnue \
        -- --seed "$SEED"
    ;;
*)
    sed -n '2,24p' "$0"
    exit 2
    ;;
esac
