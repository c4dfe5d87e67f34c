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
# SEED may name several seeds ("200 300"): each net then plays PAIRS pairs on each seed's openings
# (OUT/NAME-sSEED.json), one line a seed, and a last line adds their pairs together. One screen of a few
# hundred pairs is ±18 Elo or more, and the best of several nets screened once has drawn its luck
# (session 58: +17 on one seed, −10 on the next), so a net is screened on two seeds before an SPRT.
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
read -ra seeds <<<"$SEED"
[ ${#seeds[@]} -gt 0 ] || { echo "SEED names no seed" >&2; exit 2; }
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
  results=()
  for seed in "${seeds[@]}"; do
    # One seed keeps the files' old names, so earlier screens' files still line up.
    file=$name
    [ ${#seeds[@]} -eq 1 ] || file=$name-s$seed
    python3 "$MATCH" --engine1 "$ENGINE" --option1 UseNNUE=true --option1 "EvalFile=$path" --name1 "$name" \
      --engine2 "$ENGINE" --option2 UseNNUE=true --name2 "built-in net" --nodes "$NODES" --pairs "$PAIRS" \
      --openings "$OPENINGS" --shuffle --seed "$seed" --concurrency "$CONCURRENCY" \
      --json "$OUT/$file.json" --pgn "$OUT/$file.pgn" >"$OUT/$file.log" 2>&1 \
      || { echo "$name: match.py failed, see $OUT/$file.log" >&2; exit 1; }
    results+=("$OUT/$file.json")
  done
  summary+=("$(python3 - "$name" "${seeds[*]}" "${results[@]}" <<'PY'
import importlib.util, json, sys

name, seeds, files = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
# The sum's pentanomial Elo as an SPRT's chunks add theirs.
spec = importlib.util.spec_from_file_location("sprt_chunks", "tools/sprt-chunks.py")
sprt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sprt)
num = lambda x, sign="": format(x, sign + ".1f") if isinstance(x, (int, float)) else str(x)
w = d = l = fails = 0
pairs = []
for seed, path in zip(seeds, files):
    s = json.load(open(path))
    st = s["stats"]
    failed = sum(s["failures"].values()) if isinstance(s["failures"], dict) else len(s["failures"])
    label = name if len(files) == 1 else f"{name}, seed {seed}"
    print(f"{label}: {st['games']} games, +{st['wins']} ={st['draws']} -{st['losses']}, "
          f"Elo {num(st['elo'], '+')} ± {num(st['elo_err'])}, pentanomial {st['ptnml']}, failures {failed}")
    w, d, l, fails = w + st["wins"], d + st["draws"], l + st["losses"], fails + failed
    pairs += sprt.pair_scores(path)
if len(files) > 1 and pairs:
    counts, e, err = sprt.pair_elo(pairs)
    print(f"{name}, seeds {' + '.join(seeds)}: {w + d + l} games, +{w} ={d} -{l}, "
          f"Elo {e:+.1f} ± {err:.1f} by pairs, pentanomial {counts}, failures {fails}")
PY
)")
done
printf '%s\n' "${summary[@]}"
