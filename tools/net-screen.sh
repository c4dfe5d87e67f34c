#!/usr/bin/env bash
# Screens trained nets before an SPRT: each net file named plays the built-in net at a fixed number of
# nodes a move, in the same binary (the development option EvalFile loads the candidate), so the
# match measures the evaluation alone, whatever the machine's speed. A net that does not clearly
# beat the built-in one here is not worth the hours of an SPRT at a clock.
#
#   tools/net-screen.sh NET.nnue [MORE.nnue ...]     (after `make build`, or with ENGINE=...)
#
# PAIRS game pairs (default 100) at NODES a move (default 20000) from ../shared/tools/openings-wide.epd,
# shuffled by SEED (default 100; the same openings for every net, so their rows compare),
# CONCURRENCY games at once (default 2). Needs python3 with python-chess and MATCH (default
# ../shared/tools/match.py). Each net's summary and games go to OUT/NAME.json and OUT/NAME.pgn
# (default OUT: target/net-screen/); one line a net is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

MATCH=${MATCH:-../shared/tools/match.py}
OPENINGS=${OPENINGS:-$(dirname "$MATCH")/openings-wide.epd}
PAIRS=${PAIRS:-100}
NODES=${NODES:-20000}
SEED=${SEED:-100}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-target/net-screen}
ENGINE=${ENGINE:-target/release/homeostat}

[ $# -gt 0 ] || { echo "usage: tools/net-screen.sh NET.nnue [MORE.nnue ...]" >&2; exit 2; }
[ -x "$ENGINE" ] || { echo "$ENGINE is missing: run make build first" >&2; exit 1; }
for net in "$@"; do
  # A net the engine cannot load would leave the built-in one playing itself: refuse it first.
  loaded=$(printf 'setoption name EvalFile value %s\nquit\n' "$(realpath "$net")" | "$ENGINE" | head -n 1)
  case "$loaded" in
    "info string EvalFile: loaded"*) ;;
    *) echo "$net: $ENGINE does not load it: $loaded" >&2; exit 1 ;;
  esac
done
mkdir -p "$OUT"
summary=()
for net in "$@"; do
  name=$(basename "$net" .nnue)
  path=$(realpath "$net")
  python3 "$MATCH" --engine1 "$ENGINE" --option1 UseNNUE=true --option1 "EvalFile=$path" --name1 "$name" \
    --engine2 "$ENGINE" --option2 UseNNUE=true --name2 "built-in net" --nodes "$NODES" --pairs "$PAIRS" \
    --openings "$OPENINGS" --shuffle --seed "$SEED" --concurrency "$CONCURRENCY" \
    --json "$OUT/$name.json" --pgn "$OUT/$name.pgn" >"$OUT/$name.log" 2>&1 \
    || { echo "$name: match.py failed, see $OUT/$name.log" >&2; exit 1; }
  summary+=("$(python3 - "$OUT/$name.json" "$name" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["stats"]
fails = sum(d["failures"].values()) if isinstance(d["failures"], dict) else len(d["failures"])
num = lambda x, sign="": format(x, sign + ".1f") if isinstance(x, (int, float)) else str(x)
print(f"{sys.argv[2]}: {s['games']} games, +{s['wins']} ={s['draws']} -{s['losses']}, "
      f"Elo {num(s['elo'], '+')} ± {num(s['elo_err'])}, pentanomial {s['ptnml']}, failures {fails}")
EOF
)")
done
printf '%s\n' "${summary[@]}"
