#!/usr/bin/env bash
# Plays complete games between chuhan and Sjaak II inside XBoard, under a virtual X server, and checks that
# none ended on an illegal move, a stall or a crash. Needs: apt-get install xboard xvfb sjaakii.
#   scripts/xboard_games.sh [GAMES] [TC_MINUTES_OR_MIN:SEC] [INC_SECONDS]    (default 2 games, 0:15 + 0.1)
# Writes target/xboard/games.pgn (XBoard's own PGN) and target/xboard/xboard.debug (every line XBoard sent
# and received); prints each game's result and termination.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-2}
TC=${2:-0:15}
INC=${3:-0.1}
OUT=target/xboard
XBOARD=$(command -v xboard || echo /usr/games/xboard)
SJAAK=$(command -v sjaakii || echo /usr/games/sjaakii)
for tool in "$XBOARD" "$SJAAK" xvfb-run; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install xboard xvfb sjaakii" >&2; exit 2; }
done
cargo build --release --quiet
mkdir -p "$OUT"
rm -f "$OUT/games.pgn" "$OUT/xboard.debug"
# A game's worst case is both clocks plus increments over 300 plies; anything longer is a stall.
BASE_S=$(awk -v t="$TC" 'BEGIN { n = split(t, p, ":"); print (n == 2 ? p[1] * 60 + p[2] : t * 60) }')
LIMIT=$(awk -v b="$BASE_S" -v i="$INC" -v g="$GAMES" 'BEGIN { printf "%d", g * (2 * b + 300 * i + 20) + 60 }')
# Its own HOME keeps a user's ~/.xboardrc out of it; `-noChessProgram false` makes sure engines are started
# (without it this XBoard 4.9.1 refuses: "Can't have a match with no chess programs").
set +e
HOME="$PWD/$OUT" timeout "$LIMIT" xvfb-run -a "$XBOARD" -noChessProgram false -variant xiangqi \
    -fcp "$PWD/target/release/chuhan" -scp "$SJAAK" \
    -tc "$TC" -inc "$INC" -mg "$GAMES" -popupExitMessage false \
    -saveSettingsOnExit false -saveGameFile "$PWD/$OUT/games.pgn" \
    -debug -nameOfDebugFile "$PWD/$OUT/xboard.debug" >"$OUT/xboard.out" 2>&1
RC=$?
set -e
if [ "$RC" = 124 ]; then echo "STALL: XBoard did not finish $GAMES games within $LIMIT s" >&2; exit 1; fi
[ -s "$OUT/games.pgn" ] || { echo "no games saved; see $OUT/xboard.out" >&2; exit 1; }
grep -E '^\[(White|Black|Result) ' "$OUT/games.pgn" | paste - - - | sed 's/\[//g; s/\]//g'
grep -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\|\*\)$' "$OUT/games.pgn" || true
PLAYED=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$OUT/games.pgn" || true)
BAD=$(grep -ciE 'illegal move|false illegal|crash|exited|timeout|stall|Error \(' "$OUT/xboard.debug" || true)
echo "games finished: $PLAYED of $GAMES; suspicious lines in xboard.debug: $BAD"
[ "$PLAYED" = "$GAMES" ] && [ "$BAD" = 0 ]
