#!/usr/bin/env python3
"""How each engine of a match spent its clock, from the PGN that ../shared/tools/match.py writes.

    tools/time-use.py MATCH.pgn [MORE.pgn ...]

match.py leaves each move's search time in its comment ("{ +0.16/13 0.120s }"). Per engine this prints
the games, the mean moves a game, the mean seconds a move over the first 10, 20 and 40 moves of a game,
and the clock left at the end (base + increments - time used; median over its games, which includes
adjudicated games that ended early). Needs python-chess.
"""
import re
import statistics
import sys

import chess.pgn

TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def side_times(game):
    """The search times of White's and Black's moves, in order."""
    times = {chess.WHITE: [], chess.BLACK: []}
    for node in game.mainline():
        m = TIME.search(node.comment)
        if m:
            times[not node.turn()].append(float(m.group(1)))
    return times


def main(paths):
    if not paths:
        sys.exit(__doc__.strip())
    engines = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                base, _, inc = game.headers.get("TimeControl", "0+0").partition("+")
                base, inc = float(base), float(inc or 0)
                for color, times in side_times(game).items():
                    if not times:
                        continue
                    name = game.headers["White" if color == chess.WHITE else "Black"]
                    left = base + inc * len(times) - sum(times)
                    engines.setdefault(name, []).append((times, left))
    head = f"{'engine':40} {'games':>5} {'moves':>6} {'s/move 1-10':>11} {'11-20':>6} {'21-40':>6} {'left':>6}"
    print(head)
    for name, games in engines.items():
        def mean_of(lo, hi):
            xs = [t for times, _ in games for t in times[lo:hi]]
            return f"{statistics.mean(xs):.3f}" if xs else "-"
        moves = statistics.mean(len(times) for times, _ in games)
        left = statistics.median(left for _, left in games)
        print(f"{name[:40]:40} {len(games):5} {moves:6.1f} {mean_of(0, 10):>11} {mean_of(10, 20):>6} "
              f"{mean_of(20, 40):>6} {left:6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
