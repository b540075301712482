#!/usr/bin/env python3
"""Differential test of chuhan's legal move generation against Fairy-Stockfish (pyffish).

Plays random games with pyffish, and for every position compares the set of legal moves with
`chuhan perft 1 --divide`. pyffish writes ranks 1-10; chuhan (and xiangqi GUIs) write 0-9.

    pip install pyffish
    cargo build --release
    python3 scripts/perft_diff.py --positions 5000 [--binary target/release/chuhan] [--seed 1]

Exits non-zero and prints the position on the first disagreement.
"""
import argparse
import random
import re
import subprocess
import sys

try:
    import pyffish as sf
except ImportError:
    sys.exit("pyffish is not installed: pip install pyffish")

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_ours(m):
    """pyffish move (ranks 1-10) -> chuhan move (ranks 0-9)."""
    f1, r1, f2, r2 = MOVE.match(m).groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def ours(binary, fen):
    out = subprocess.run([binary, "perft", "1", "--divide", "--fen", fen],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    # The divide lines, then "Nodes searched: N" and "Nodes/second: R".
    assert out[-2].startswith("Nodes searched: ") and out[-1].startswith("Nodes/second: "), out
    return {line.split(":")[0] for line in out[:-2]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=5000)
    ap.add_argument("--binary", default="target/release/chuhan")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=200)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    checked = games = total_moves = 0
    while checked < args.positions:
        games += 1
        moves = []
        for _ in range(args.max_plies):
            fen = sf.get_fen("xiangqi", START, moves)
            theirs = {to_ours(m) for m in sf.legal_moves("xiangqi", START, moves)}
            mine = ours(args.binary, fen)
            checked += 1
            total_moves += len(theirs)
            if mine != theirs:
                print(f"MISMATCH in {fen}")
                print(f"  only chuhan:  {sorted(mine - theirs)}")
                print(f"  only pyffish: {sorted(theirs - mine)}")
                return 1
            if not theirs or checked >= args.positions:
                break
            pick = rng.choice(sorted(theirs))
            moves.append(next(m for m in sf.legal_moves("xiangqi", START, moves) if to_ours(m) == pick))
    print(f"OK: {checked} positions from {games} random games, {total_moves} legal moves, identical move sets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
