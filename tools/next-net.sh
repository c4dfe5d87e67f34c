#!/usr/bin/env bash
# The next net from the built-in one and `datagen` files of its own games, the recipe of net As
# (crates/engine/nets/README.md): train, bring the result back to the built-in net's scale, screen it.
#
#   tools/next-net.sh DATA.bin [MORE.bin ...]        (or DATA.bin.xz, as tools/device-datagen.sh brings back)
#
# Files ending .xz are unpacked into OUT/data/ first (once).
# 1. nnue_train --init crates/engine/nets/default.nnue --hidden HIDDEN (128; wider starts its new units at an output
#    weight of zero, so it first evaluates as the built-in net) --epochs EPOCHS (12) --lr LR (0.0005) --wdl WDL (0)
#    --td TD (0) --buckets BUCKETS (8, the built-in net's: --init takes a parent of that count or of one output layer)
#    --threads THREADS (all cores) --seed 1 --king-mirror KING_MIRROR (false) --mirror MIRROR (true) --keep KEEP (best)
#    → OUT/A.nnue (and its recipe line, OUT/A.nnue.txt);
# 2. nnue_scale OUT/A.nnue OUT/As.nnue 1 --relative-to default.nnue DATA.bin: a net trained on its own search's
#    scores comes out some 16 % larger than its parent, which alone costs tens of Elo in this search, and the
#    built-in net screened best at its own scale (session 41);
# 3. tools/net-screen.sh OUT/As.nnue (PAIRS, NODES, SEED, CONCURRENCY as there; SEED="200 300" screens it on two
#    sets of openings, as a net wants before an SPRT), unless SCREEN=0.
# A candidate that clearly wins the screen then goes to an SPRT at a clock (tools/sprt-chunks.py, EvalFile
# in main's binary) before it replaces default.nnue. OUT defaults to target/next-net/.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -gt 0 ] || { echo "usage: tools/next-net.sh DATA.bin [MORE.bin ...]" >&2; exit 2; }
for data in "$@"; do [ -s "$data" ] || { echo "$data: no such data file" >&2; exit 1; }; done
OUT=${OUT:-target/next-net}
EPOCHS=${EPOCHS:-12}
LR=${LR:-0.0005}
HIDDEN=${HIDDEN:-128}
WDL=${WDL:-0}
TD=${TD:-0}
BUCKETS=${BUCKETS:-8}
THREADS=${THREADS:-$(nproc)}
# A net mirrored by the king sees each position's a↔h reflection as the position itself: MIRROR=false spares the
# duplicate steps (session 55 screened it so against D).
KING_MIRROR=${KING_MIRROR:-false}
MIRROR=${MIRROR:-true}
KEEP=${KEEP:-best}
PARENT=crates/engine/nets/default.nnue
mkdir -p "$OUT/data"

files=()
for data in "$@"; do
  if [[ $data == *.xz ]]; then
    # Named by its folder too, as two folders may hold files of one name.
    raw="$OUT/data/$(basename "$(dirname "$data")")-$(basename "$data" .xz)"
    [ -s "$raw" ] || { xz -dc "$data" >"$raw.part" && mv "$raw.part" "$raw"; }
    files+=("$raw")
  else
    files+=("$data")
  fi
done

cargo build --release -q -p homeostat-uci -p homeostat-engine --examples --bin homeostat
examples=target/release/examples
"$examples/nnue_train" --init "$PARENT" --hidden "$HIDDEN" --epochs "$EPOCHS" --lr "$LR" --wdl "$WDL" --td "$TD" --buckets "$BUCKETS" --threads "$THREADS" \
  --king-mirror "$KING_MIRROR" --mirror "$MIRROR" --keep "$KEEP" --seed 1 --out "$OUT/A.nnue" "${files[@]}"
"$examples/nnue_scale" "$OUT/A.nnue" "$OUT/As.nnue" 1 --relative-to "$PARENT" "${files[0]}"
[ "${SCREEN:-1}" = 0 ] || OUT="$OUT/screen" tools/net-screen.sh "$OUT/As.nnue"
