#!/usr/bin/env bash
# Measures the playing levels against Stockfish's UCI_Elo ladder and prints a Markdown table.
#
#   tools/level-ladder.sh [LEVEL:ANCHOR ...]      e.g. tools/level-ladder.sh 4:1600 5:1850
#
# Each level plays PAIRS game pairs (default 20) at TC (default 5+0.05), CONCURRENCY games at a
# time (default 1), against Stockfish with UCI_LimitStrength=true and UCI_Elo=ANCHOR; the level's
# Elo is ANCHOR plus the match's Elo difference. A pair written LEVEL:Lk plays level k of Homeostat
# instead (for levels below Stockfish's floor of 1350; the table then chains from level k's measured
# Elo, so run k first).
# Needs: stockfish (Debian, /usr/games), python3 with python-chess, and the measuring tools
# (MATCH, default ../shared/tools/match.py). Results go to OUT (default target/levels/).
# The openings are match.py's own 60 in order, unless OPENINGS names an EPD file; SEED shuffles them
# (e.g. OPENINGS=../shared/tools/openings-wide.epd SEED=712 for a second 100 games on new openings).
set -euo pipefail
cd "$(dirname "$0")/.."

MATCH=${MATCH:-../shared/tools/match.py}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
PAIRS=${PAIRS:-20}
TC=${TC:-5+0.05}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-target/levels}
openings=()
[ -z "${OPENINGS:-}" ] || openings=(--openings "$OPENINGS")
[ -z "${SEED:-}" ] || openings+=(--shuffle --seed "$SEED")
[ $# -gt 0 ] || set -- 8:2600 7:2300 6:2100 5:1850 4:1600 3:1350 2:L3 1:L2

if [ -z "${ENGINE:-}" ]; then  # ENGINE: a homeostat binary to measure instead of building one
  cargo build --release -q -p homeostat-uci
  ENGINE=target/release/homeostat
fi
mkdir -p "$OUT"
for pair in "$@"; do
  level=${pair%%:*} anchor=${pair#*:}
  json="$OUT/level$level-vs-$anchor.json"
  if [[ $anchor == L* ]]; then
    opponent=(--engine2 "$ENGINE" --option2 "Level=${anchor#L}")
  else
    opponent=(--engine2 "$STOCKFISH" --option2 UCI_LimitStrength=true --option2 "UCI_Elo=$anchor")
  fi
  python3 "$MATCH" --engine1 "$ENGINE" --option1 "Level=$level" --name1 "Homeostat level $level" \
    "${opponent[@]}" --tc "$TC" --pairs "$PAIRS" --concurrency "$CONCURRENCY" "${openings[@]}" --json "$json" --pgn "$OUT/level$level-vs-$anchor.pgn" \
    | tail -n 8
done

python3 - "$OUT" "$@" <<'EOF'
import json, sys
out, pairs = sys.argv[1], sys.argv[2:]
elo = {}
print("| Level | Opponent | Games | W/D/L | Score | Elo difference | Level Elo |")
print("|-------|----------|-------|-------|-------|----------------|-----------|")
for pair in pairs:
    level, anchor = pair.split(":")
    st = json.load(open(f"{out}/level{level}-vs-{anchor}.json"))["stats"]
    if anchor.startswith("L"):
        base, who = elo.get(anchor[1:]), f"Homeostat level {anchor[1:]}"
    else:
        base, who = float(anchor), f"Stockfish UCI_Elo {anchor}"
    diff = st.get("elo")
    err = st.get("elo_err")
    fin = lambda x: isinstance(x, (int, float))
    level_elo = base + diff if fin(diff) and fin(base) else None
    if level_elo is not None:
        elo[level] = level_elo
    diff_text = f"{diff:+.0f} ± {err:.0f}" if fin(diff) and fin(err) else str(diff)
    elo_text = f"{level_elo:.0f}" if level_elo is not None else "-"
    print(f"| {level} | {who} | {st['games']} | {st['wins']}/{st['draws']}/{st['losses']} | "
          f"{st['score'] * 100:.1f} % | {diff_text} | {elo_text} |")
EOF
