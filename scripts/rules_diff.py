#!/usr/bin/env python3
"""Fairy-Stockfish's verdict (pyffish, its Asian-rules approximation) on repeated cycles.

Reads lines `FEN|m1 m2 ...` (ICCS moves, ranks 0-9) on stdin; for each, plays the cycle twice from the
FEN and prints one line: the result from Red's side (`1-0`, `0-1`, `1/2-1/2`) or `*` when pyffish sees no
game end. Exit code 3 (and a message on stderr) when pyffish is not installed (`pip install pyffish`).
Used by engine/tests/rule_sets.rs (asian_verdicts_agree_with_pyffish), which skips when it is missing.
"""
import sys

try:
    import pyffish as sf
except ImportError:
    print("pyffish is not installed (pip install pyffish)", file=sys.stderr)
    sys.exit(3)


def fsf_move(m):
    """ICCS (ranks 0-9) to Fairy-Stockfish's coordinates (ranks 1-10)."""
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def verdict(fen, cycle):
    moves = [fsf_move(m) for m in (cycle + " " + cycle).split()]
    ended, value = sf.is_optional_game_end("xiangqi", fen, moves)
    if not ended:
        return "*"
    if value == 0:
        return "1/2-1/2"
    red_to_move = (fen.split()[1] in ("w", "r")) == (len(moves) % 2 == 0)
    red_wins = (value > 0) == red_to_move
    return "1-0" if red_wins else "0-1"


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    fen, cycle = line.split("|", 1)
    print(verdict(fen.strip(), cycle.strip()), flush=True)
