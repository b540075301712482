# The one SPRT match the SPRT scripts play (sourced by scripts/sprt.sh and scripts/spsa_sprt.sh), so that
# the time control, the bounds and the openings of every keep-or-drop test are set in one place.
#
#   sprt_match RUNNER RESULTS ENGINE_ARGS... -- EXTRA_ARGS...
#
# RUNNER is the chuhan binary that runs the match; ENGINE_ARGS are its `--engine ...` words; RESULTS the
# results file (the PGN goes beside it). Environment (defaults): TC (5+0.05), CONCURRENCY (number of
# cores), GAMES (20000, the cap), ELO0 (0), ELO1 (5), ALPHA (0.05), BETA (0.05), HASH (16), RESUME (set:
# continue RESULTS).
sprt_match() {
    local runner=$1 results=$2
    shift 2
    local engines=()
    while [[ $# -gt 0 && $1 != -- ]]; do
        engines+=("$1")
        shift
    done
    [[ $# -gt 0 ]] && shift
    local resume=()
    if [[ -n ${RESUME:-} ]]; then resume=(--resume); fi
    local root
    root=$(git rev-parse --show-toplevel)
    "$runner" match \
        "${engines[@]}" \
        --each proto=uci option.Hash="${HASH:-16}" option.Threads=1 \
        --tc "${TC:-5+0.05}" \
        --concurrency "${CONCURRENCY:-$(nproc 2>/dev/null || echo 2)}" \
        --games "${GAMES:-20000}" \
        --openings "$root/scripts/openings.fen" --order random \
        --sprt elo0="${ELO0:-0}" elo1="${ELO1:-5}" alpha="${ALPHA:-0.05}" beta="${BETA:-0.05}" \
        --results "$results" --pgn "${results%.txt}.pgn" \
        "${resume[@]}" "$@"
}
