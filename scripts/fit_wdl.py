#!/usr/bin/env python3
"""Fits the UCI_ShowWDL model (protocol/src/wdl.rs) to chuhan's own games.

Reads PGN files written by `chuhan match --pgn` (each move comment holds the mover's score, e.g.
`{炮二平五 +20/10 15ms}`), pairs every scored move with the game's result from the mover's point of view,
and fits by maximum likelihood the model

    win(x)  = 1 / (1 + exp((m - x) / s))
    loss(x) = 1 / (1 + exp((m + x) / s))
    draw(x) = 1 - win(x) - loss(x)

where x is the score in centipawns (100 = a horse). Prints m and s to paste into wdl.rs.

    python3 scripts/fit_wdl.py games1.pgn [games2.pgn ...] [--min-ply 16]
"""
import argparse
import math
import re

SCORE = re.compile(r"\{[^}]*?([+-]\d+)/\d+[^}]*\}")
RESULT = re.compile(r'\[Result "([^"]+)"\]')


def samples(paths, min_ply):
    out = []
    for path in paths:
        text = open(path, encoding="utf-8").read()
        for game in text.split('[Game "')[1:]:
            r = RESULT.search(game)
            if not r or r.group(1) not in ("1-0", "0-1", "1/2-1/2"):
                continue
            red = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[r.group(1)]
            body = game[game.rfind("]") + 1:]
            # Comments follow moves in order: Red's, Black's, Red's ...
            comments = re.findall(r"\{[^}]*\}", body)
            for ply, c in enumerate(comments):
                m = SCORE.match(c)
                if ply < min_ply or not m:
                    continue
                x = int(m.group(1))
                if abs(x) >= 5000:  # mate scores and the like
                    continue
                out.append((x, red if ply % 2 == 0 else -red))
    return out


def nll(data, m, s):
    total = 0.0
    for x, r in data:
        w = 1 / (1 + math.exp((m - x) / s))
        l = 1 / (1 + math.exp((m + x) / s))
        d = max(1e-9, 1 - w - l)
        p = w if r == 1 else l if r == -1 else d
        total -= math.log(max(p, 1e-9))
    return total / len(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--min-ply", type=int, default=16, help="skip the opening book and first moves")
    args = ap.parse_args()
    data = samples(args.pgn, args.min_ply)
    print(f"{len(data)} scored positions")
    best = (float("inf"), None, None)
    # Coarse grid, then refine around the best point.
    for m in range(0, 400, 10):
        for s in range(10, 300, 10):
            v = nll(data, m, s)
            if v < best[0]:
                best = (v, m, s)
    _, m0, s0 = best
    for m in [m0 + i for i in range(-10, 11)]:
        for s in [s0 + i for i in range(-10, 11) if s0 + i > 0]:
            v = nll(data, m, s)
            if v < best[0]:
                best = (v, m, s)
    v, m, s = best
    print(f"WDL_MIDPOINT_CP = {m:.1f}, WDL_SCALE_CP = {s:.1f} (mean negative log-likelihood {v:.4f})")


if __name__ == "__main__":
    main()
