#!/usr/bin/env bash
# Self-play training data on a device machine's many cores (crates/engine/nets/README.md says what the data is
# for). The device tool runs it there on a copy of the working tree, carrying the release binary built here:
#
#   run(command="tools/device-datagen.sh 8 701", carry=["target/release/homeostat"], timeout_s=590)
#
# plays MINUTES minutes of `homeostat datagen --net builtin` on every core from SEED (a seed no other file uses, so
# that files from several machines hold different games) into $OUT/datagen-sSEED.bin, and writes its `--stats`
# line to $OUT/datagen-sSEED.txt. The file stops at 15 MB (about 3.4 M positions), under the 16 MiB a file may have
# to come back. Games still running at MINUTES are played out, which takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: tools/device-datagen.sh MINUTES SEED (with OUT set)"
MINUTES=${1:?$usage}
SEED=${2:?$usage}
OUT=${OUT:?$usage}
ENGINE=${ENGINE:-target/release/homeostat}
[ -x "$ENGINE" ] || { echo "$ENGINE is missing: build it here (cargo build --release -p homeostat-uci) and carry it" >&2; exit 1; }

file="$OUT/datagen-s$SEED.bin"
echo "$(nproc) cores; $("$ENGINE" bench 2>&1 | grep -m1 'Nodes searched')"
"$ENGINE" datagen --out "$file" --seed "$SEED" --threads "$(nproc)" --net builtin --games 400000 --max-mb 15 \
  --minutes "$MINUTES" 2>&1 | tail -n 3
"$ENGINE" datagen --stats "$file" | tee "$OUT/datagen-s$SEED.txt"
