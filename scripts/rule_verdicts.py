#!/usr/bin/env python3
"""Counts the games of `chuhan match` PGN files that a repetition rule decided, and whether the losing
side's own search saw the loss coming.

    scripts/rule_verdicts.py GAMES.pgn...

For each file: the games, their terminations, and every game lost by a rule verdict (perpetual check,
perpetual chase, a forbidden repetition): the loser's last search score (the match runner writes it in
each move's comment; `score mate -N` is written as -(32000 - N)). A loser whose last score was not a
mate-range loss thought the repetition was allowed: its search and the referee disagree, and the script
lists such games and exits with status 1. Used by scripts/rules_selfplay.sh (issue 34's check of each rule
set: docs/rules.md, "Rule sets").
"""
import re
import sys
from collections import Counter

RULE_LOSSES = {"perpetual-check", "perpetual-chase", "forbidden-repetition"}
# Scores at or below this are mate-range losses: the match runner writes `score mate -N` as -(32000 - N),
# and chuhan scores a rule loss like being mated.
MATED_BELOW = -30000

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
COMMENT = re.compile(r"\{([^}]*)\}")
SCORE = re.compile(r"(?:^|\s)([+-]\d+)(?:/\d+)?(?:\s|$)")


def games(path):
    """Yields (tags, list of comments in move order) for each game of a PGN file."""
    tags, text = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if text:
                    yield tags, COMMENT.findall(" ".join(text))
                    tags, text = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                text.append(line.strip())
    if tags:
        yield tags, COMMENT.findall(" ".join(text))


def last_score(comments, first_is_red, loser_is_red):
    """The loser's last searched score (None when it never searched: book moves only)."""
    for i in range(len(comments) - 1, -1, -1):
        red_moved = (i % 2 == 0) == first_is_red
        if red_moved != loser_is_red:
            continue
        m = SCORE.search(comments[i])
        if m:
            return int(m.group(1))
    return None


def check(path):
    """Prints the summary of one file; returns the number of rule losses the loser's search did not see."""
    terms, unseen, lost = Counter(), [], []
    n = 0
    for tags, comments in games(path):
        n += 1
        term = tags.get("Termination", "?")
        terms[term] += 1
        if term not in RULE_LOSSES:
            continue
        result = tags.get("Result", "*")
        if result not in ("1-0", "0-1"):
            continue
        loser_is_red = result == "0-1"
        fen = tags.get("FEN", "")
        first_is_red = not fen or fen.split()[1] in ("w", "r")
        score = last_score(comments, first_is_red, loser_is_red)
        row = (tags.get("Round", "?"), term, "Red" if loser_is_red else "Black", score)
        lost.append(row)
        if score is None or score > MATED_BELOW:
            unseen.append(row)
    rules = "?"
    for tags, _ in games(path):
        rules = tags.get("Rules", "?")
        break
    print(f"{path}: rules {rules}, {n} games")
    for term, count in terms.most_common():
        print(f"  {term:22} {count}")
    print(f"  lost by a rule verdict: {len(lost)}; the loser's search saw it: {len(lost) - len(unseen)};"
          f" thought it allowed: {len(unseen)}")
    for rnd, term, loser, score in unseen:
        print(f"    round {rnd}: {term}, {loser} lost, its last score {score}")
    return len(unseen)


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = 0
    for path in sys.argv[1:]:
        try:
            bad += check(path)
        except OSError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
