#!/usr/bin/env bash
# The browser build against the native build at the same clock: www/pkg's wasm engine under Node
# (tools/wasm-uci.mjs) plays target/release/homeostat, both at full strength without book and with
# the same evaluation (the net, as both play level 8; NNUE=false: the hand-crafted one on both
# sides), and the match's Elo difference says whether the browser build plays as strongly as the
# native binary.
#
#   tools/wasm-vs-native.sh                      (after `make build`)
#   BROWSER=chromium tools/wasm-vs-native.sh     (the module in headless Chromium, where the page runs it,
#                                                 rather than under Node, whose wasm is slower; or firefox)
#
# PAIRS game pairs (default 50) at TC (default 10+0.1) from ../shared/tools/openings-wide.epd, shuffled
# by SEED (default 1), CONCURRENCY games at once (default 1; more only on a machine with the cores
# to spare, as each game wants two). Needs python3 with python-chess and the measuring tools (MATCH,
# default ../shared/tools/match.py). The summary and games go to OUT (default target/wasm-vs-native/).
set -euo pipefail
cd "$(dirname "$0")/.."

MATCH=${MATCH:-../shared/tools/match.py}
OPENINGS=${OPENINGS:-$(dirname "$MATCH")/openings-wide.epd}
PAIRS=${PAIRS:-50}
TC=${TC:-10+0.1}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-target/wasm-vs-native}
NATIVE=${NATIVE:-target/release/homeostat}
BROWSER=${BROWSER:-}
NNUE=${NNUE:-true}

[ -f www/pkg/homeostat_web_bg.wasm ] || { echo "www/pkg is missing: run make build first" >&2; exit 1; }
[ -x "$NATIVE" ] || { echo "$NATIVE is missing: run make build first" >&2; exit 1; }
mkdir -p "$OUT"
if [ -n "$BROWSER" ]; then wasm=(--engine1 "node tools/wasm-uci.mjs --browser $BROWSER" --name1 "Homeostat wasm ($BROWSER)")
else wasm=(--engine1 "node tools/wasm-uci.mjs" --name1 "Homeostat wasm (Node)"); fi
python3 "$MATCH" "${wasm[@]}" \
  --option1 UseNNUE="$NNUE" --engine2 "$NATIVE" --option2 UseNNUE="$NNUE" --name2 "Homeostat native" --tc "$TC" --pairs "$PAIRS" \
  --openings "$OPENINGS" --shuffle --seed "$SEED" --concurrency "$CONCURRENCY" \
  --json "$OUT/match.json" --pgn "$OUT/match.pgn" | tail -n 8
