#!/usr/bin/env python3
"""An SPRT that survives interruptions: match.py run in chunks of game pairs on one shuffled opening order.

A [0, 5] SPRT at a short clock can need thousands of games, more than one sitting on a shared two-core machine.
This runs ../shared/tools/match.py a chunk of pairs at a time (`--pairs CHUNK --skip-openings N`, same `--seed`),
so the chunks walk one shuffled order of openings without repeating one, counts every finished pair of every chunk
(and of a first run, if the test began as one match), and stops when the combined log-likelihood ratio leaves
[ln(β/(1−α)), ln((1−β)/α)]. Kill it at any time and run it again: finished chunks are kept; an interrupted chunk
that wrote its results keeps its finished pairs, and the openings it did not reach are skipped (which cannot bias
the test, since skipping does not depend on results); one killed before writing them is played again.

    tools/sprt-chunks.py DIR            # run chunks until the test decides (nice it; log it)
    tools/sprt-chunks.py DIR --status   # the combined figures so far, running nothing

DIR holds `sprt.json`, for example:

    {"engine1": "./hs-new", "name1": "new", "engine2": "./hs-main", "name2": "main",
     "tc": "5+0.05", "seed": 62, "chunk": 25, "elo0": 0, "elo1": 5,
     "first": {"json": "first.json", "pairs": 416}}

`first` (optional) is a match.py `--json` file of the first run and how many openings it used; in place of the
file, `"ptnml": [n0, n1, n2, n3, n4]` carries a run's pentanomial counts as a log recorded them (pair scores 0,
0.5, 1, 1.5 and 2 are sufficient for the LLR), so a test whose files were lost with their machine goes on from
its last logged figures; `openings` (default openings-wide.epd beside match.py), `match` (default
../shared/tools/match.py from the repository) and `options1`, `options2` (lists of UCI options `NAME=VALUE` for each
engine, e.g. `["EvalFile=/abs/path/cand.nnue"]` to test a net file in the same binary) may be given too. Chunks
play one game per CPU at once (each engine thinks on one core; ponder is off); a file DIR/concurrency, if present,
sets the games at once for the next chunk instead, so a test can share the machine with other work. Engine paths are relative to DIR. Chunks are DIR/chunk-NNN.json and .log.

The LLR is the usual normal approximation over game pairs (pentanomial scores): with the mean pair score m, its
variance v per pair, n pairs, and s0, s1 the expected scores at elo0 and elo1,
LLR = n (s1 − s0) (2m − s0 − s1) / (2v).
"""
import glob
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def pair_scores(path):
    """Engine 1's score in each finished pair of a match.py --json file (0, 0.5, ..., 2)."""
    with open(path) as f:
        games = json.load(f)["games"]
    pairs = {}
    for g in games:
        s = RESULT.get(g["result"])
        if s is None:
            continue
        pairs.setdefault(g["round"].split(".")[0], []).append(s if g["engine1_white"] else 1.0 - s)
    return [sum(v) for v in pairs.values() if len(v) == 2]


def first_scores(first):
    """The pair scores of the first run: from its --json file, or from its carried pentanomial counts."""
    if "ptnml" in first:
        return [k / 2 for k, c in enumerate(first["ptnml"]) for _ in range(c)]
    return pair_scores(first["json"])


def expected(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr(ps, elo0, elo1):
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0) from pair scores."""
    xs = [p / 2 for p in ps]
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / n
    if v == 0:
        return 0.0
    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def pair_elo(ps):
    """Pentanomial counts of pair scores, their Elo and half its 95 % interval (tools/net-screen.sh uses it too)."""
    n = len(ps)
    counts = [sum(1 for p in ps if abs(p - k / 2) < 1e-9) for k in range(5)]
    m = sum(ps) / n / 2
    se = math.sqrt(sum((p / 2 - m) ** 2 for p in ps) / n / n)
    return counts, elo(m), (elo(m + 1.96 * se) - elo(m - 1.96 * se)) / 2


def summary(ps, cfg):
    """One line: pairs, pentanomial counts, Elo ± 95 %, LLR."""
    counts, e, err = pair_elo(ps)
    return f"pairs {len(ps)} ptnml {counts} elo {e:+.1f} +/- {err:.1f} LLR {llr(ps, cfg['elo0'], cfg['elo1']):+.2f}"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help") or len(argv) > 3 or (len(argv) == 3 and argv[2] != "--status"):
        parts = __doc__.strip().split("\n\n")
        print(parts[0] + "\n\n" + parts[2], file=sys.stderr)
        return 2
    os.chdir(argv[1])
    with open("sprt.json") as f:
        cfg = {"chunk": 25, "elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05, **json.load(f)}
    missing = [k for k in ("engine1", "name1", "engine2", "name2", "tc", "seed") if k not in cfg]
    if missing:
        print(f"sprt.json lacks {', '.join(missing)}", file=sys.stderr)
        return 2
    match = cfg.get("match", os.path.join(ROOT, "..", "shared", "tools", "match.py"))
    openings = cfg.get("openings", os.path.join(os.path.dirname(match), "openings-wide.epd"))
    first = cfg.get("first")
    if first is not None and ("pairs" not in first or ("json" in first) == ("ptnml" in first)):
        print("sprt.json's first needs pairs (the openings it used) and one of json or ptnml", file=sys.stderr)
        return 2
    counts = first.get("ptnml") if first else None
    if counts is not None and (not isinstance(counts, list) or len(counts) != 5
                               or any(not isinstance(c, int) or c < 0 for c in counts)):
        print(f"sprt.json's first.ptnml must be five counts of pairs, got {counts!r}", file=sys.stderr)
        return 2
    options = []
    for side in ("1", "2"):
        given = cfg.get("options" + side, [])
        if not isinstance(given, list) or any(not isinstance(o, str) or "=" not in o for o in given):
            print(f"sprt.json's options{side} must be a list of NAME=VALUE strings, got {given!r}", file=sys.stderr)
            return 2
        options += [a for o in given for a in ("--option" + side, o)]
    lower = math.log(cfg["beta"] / (1 - cfg["alpha"]))
    upper = math.log((1 - cfg["beta"]) / cfg["alpha"])

    def combined():
        ps = first_scores(first) if first else []
        for path in sorted(glob.glob("chunk-*.json")):
            ps += pair_scores(path)
        return ps

    k = 0
    while True:
        ps = combined()
        if ps:
            print(summary(ps, cfg), flush=True)
            value = llr(ps, cfg["elo0"], cfg["elo1"])
            if value >= upper or value <= lower:
                print("H1 accepted" if value >= upper else "H0 accepted", flush=True)
                return 0
        elif len(argv) == 3:
            print("no finished pair yet")
        if len(argv) == 3:
            return 0
        while os.path.exists(f"chunk-{k:03d}.json"):
            k += 1
        skip = (first["pairs"] if first else 0) + k * cfg["chunk"]
        concurrency = open("concurrency").read().strip() if os.path.exists("concurrency") else str(os.cpu_count() or 1)
        command = ["python3", match, "--engine1", cfg["engine1"], "--name1", cfg["name1"],
                   "--engine2", cfg["engine2"], "--name2", cfg["name2"], "--tc", cfg["tc"],
                   "--pairs", str(cfg["chunk"]), "--openings", openings, "--shuffle", "--seed", str(cfg["seed"]),
                   "--skip-openings", str(skip), "--concurrency", concurrency,
                   "--pgn", "chunks.pgn", "--json", f"chunk-{k:03d}.json", *options]
        with open(f"chunk-{k:03d}.log", "w") as log:
            done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, check=False)
        if not os.path.exists(f"chunk-{k:03d}.json"):
            print(f"chunk {k:03d}: match.py wrote no results (exit {done.returncode}); see chunk-{k:03d}.log",
                  file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
