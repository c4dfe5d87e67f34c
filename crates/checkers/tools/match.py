#!/usr/bin/env python3
"""Match between two builds of homeostat-checkers, driven through their `play` protocol.

    python3 crates/checkers/tools/match.py NEW_BINARY OLD_BINARY [--games 200] [--nodes 20000 | --depth 6]
        [--seed 1]

Each random three-move opening is played twice, NEW taking Black then White. Prints wins, draws and
losses of NEW, the pentanomial pair counts and an Elo estimate with a 95 % interval from the pairs.
Games still going after 200 plies count as draws.
"""

import argparse
import math
import random
import subprocess


class Player:
    """One `homeostat-checkers play` process."""

    def __init__(self, binary, limit, seed):
        self.proc = subprocess.Popen([binary, "play"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for command in ["auto off", *limit, "movetime off", f"seed {seed}"]:
            self.ask(command, "ok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the engine closed its output")
        return line.strip()

    def ask(self, command, *prefixes):
        """Sends a command and returns the first answer starting with one of the prefixes."""
        self.send(command)
        while True:
            line = self.read()
            if line.startswith("error"):
                raise RuntimeError(f"{command!r}: {line}")
            if line.startswith(prefixes):
                return line

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def legal_moves(player):
    return player.ask("moves", "moves").split()[1:]


def play_game(black, white, opening):
    """Plays one game; returns 'black', 'white' or None (draw)."""
    for p in (black, white):
        p.ask("new", "ok")
        for m in opening:
            p.ask(m, "ok")
    side = {"black": black, "white": white}
    to_move = "black" if len(opening) % 2 == 0 else "white"
    for _ in range(200):
        mover, other = side[to_move], side["white" if to_move == "black" else "black"]
        move = mover.ask("go", "move").split()[1]
        answer = other.ask(move, "ok", "result")
        if answer.startswith("result"):
            mover.ask("fen", "fen")  # drains the mover's own result line
            if "wins" in answer:
                return answer.split()[1]
            return None
        to_move = "white" if to_move == "black" else "black"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("new")
    parser.add_argument("old")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nodes", type=int)
    parser.add_argument("--depth", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    limit = [f"nodes {args.nodes}"] if args.nodes else [f"depth {args.depth or 6}"]
    rng = random.Random(args.seed)
    new = Player(args.new, limit, rng.randrange(1 << 32))
    old = Player(args.old, limit, rng.randrange(1 << 32))
    pairs = [0] * 5
    wins = draws = losses = 0
    for pair in range(max(1, args.games // 2)):
        new.ask("new", "ok")
        opening = []
        for _ in range(3):
            moves = legal_moves(new)
            opening.append(rng.choice(moves))
            new.ask(opening[-1], "ok", "result")
        half_points = 0
        for new_black in (True, False):
            for p in (new, old):
                p.ask(f"seed {rng.randrange(1 << 32)}", "ok")
            black, white = (new, old) if new_black else (old, new)
            winner = play_game(black, white, opening)
            if winner is None:
                draws += 1
                half_points += 1
            elif (winner == "black") == new_black:
                wins += 1
                half_points += 2
            else:
                losses += 1
        pairs[half_points] += 1
        print(f"pair {pair + 1}: {half_points} half points ({' '.join(opening)})", flush=True)
    new.close()
    old.close()
    n = sum(pairs)
    mean = sum(i / 4 * k for i, k in enumerate(pairs)) / n
    var = sum(k * (i / 4 - mean) ** 2 for i, k in enumerate(pairs)) / n
    margin = 1.96 * math.sqrt(var / n)

    def elo(p):
        return -400 * math.log10(1 / p - 1) if 0 < p < 1 else float("nan")

    print(
        f"new vs old: +{wins} ={draws} -{losses}, score {100 * mean:.1f}%, Elo {elo(mean):+.0f} "
        f"(95%: {elo(mean - margin):+.0f} to {elo(mean + margin):+.0f}), pentanomial pairs {pairs}"
    )


if __name__ == "__main__":
    main()
