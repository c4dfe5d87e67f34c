#!/usr/bin/env python3
"""Where an engine's own scores and its opponent's disagree, from a match.py PGN.

    tools/eval-gaps.py MATCH.pgn [--engine NAME] [--ours 1.5] [--theirs 0.5] [--result draw|loss|any] [--top 20]

match.py writes each move's score and depth in its comment ("+0.17/16 0.352s"). For the engine whose name
starts with NAME (default "Homeostat"), this takes every position where it was to move, its score was at least
--ours pawns and the opponent's score after that move, turned to the engine's side, at most --theirs, in games
ending as --result (default draw: games the engine thought it was winning and did not win). It prints how many
such positions and games each material signature has (the engine's side first), the --top most first, then
the totals: the endings the engine's evaluation overrates against its opponent's.
"""
import argparse
import collections
import re
import sys

import chess
import chess.pgn

SCORE = re.compile(r"\s*([+-]?)(M?)([\d.]+)/\d+")
ORDER = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def score(comment):
    """A comment's score in pawns from the mover's side (mates as ±99), or None."""
    m = SCORE.match(comment)
    if not m:
        return None
    value = 99.0 if m.group(2) else float(m.group(3))
    return -value if m.group(1) == "-" else value


def signature(board, us):
    """The material as "KRBP v KR", side `us` first."""
    side = lambda c: "K" + "".join(chess.piece_symbol(t).upper() * len(board.pieces(t, c)) for t in ORDER)
    return f"{side(us)} v {side(not us)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="Homeostat")
    ap.add_argument("--ours", type=float, default=1.5)
    ap.add_argument("--theirs", type=float, default=0.5)
    ap.add_argument("--result", choices=["draw", "loss", "any"], default="draw")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()

    positions = collections.Counter()
    games = collections.defaultdict(set)
    examined = 0
    with open(args.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            white = game.headers.get("White", "").startswith(args.engine)
            if not white and not game.headers.get("Black", "").startswith(args.engine):
                continue
            result = game.headers.get("Result")
            lost = result == ("0-1" if white else "1-0")
            if (args.result == "draw" and result != "1/2-1/2") or (args.result == "loss" and not lost):
                continue
            examined += 1
            # One board played along the game: a node's board() would replay the game from its start each time.
            board = game.board()
            moves = list(game.mainline())
            for ours_node, reply in zip(moves, moves[1:] + [None]):
                if board.turn == white and reply is not None:
                    ours = score(ours_node.comment)
                    theirs = score(reply.comment)
                    if ours is not None and theirs is not None and ours >= args.ours and -theirs <= args.theirs:
                        key = signature(board, board.turn)
                        positions[key] += 1
                        games[key].add(game.headers.get("Round", str(examined)))
                board.push(ours_node.move)
    print(f"{examined} games ({args.result}); positions where {args.engine} said >= {args.ours:+.2f} "
          f"and its opponent <= {args.theirs:+.2f} for it:")
    print(f"{'positions':>9} {'games':>5}  material ({args.engine}'s side first)")
    for key, n in positions.most_common(args.top):
        print(f"{n:>9} {len(games[key]):>5}  {key}")
    print(f"{sum(positions.values()):>9} {len(set().union(*games.values())):>5}  in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
