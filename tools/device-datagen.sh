#!/usr/bin/env bash
# Self-play training data on a device machine's many cores (crates/engine/nets/README.md says what the data is
# for). The device tool runs it there on a copy of the working tree, carrying the release binary built here:
#
#   run(command="tools/device-datagen.sh 8 701", carry=["target/release/homeostat"], timeout_s=590)
#
# plays MINUTES minutes of `homeostat datagen --net builtin` on every core from SEED (a seed no other file uses, so
# that files from several machines hold different games) and writes it with xz as $OUT/sSEED.bin.xz, with its
# `--stats` line in $OUT/sSEED.txt. The raw file stops at 21 MiB (about 5 M positions), so that the packed one
# (about 0.68 of it) stays under the 16 MiB a file may have to come back. Games still running at MINUTES are played
# out, which takes seconds. tools/next-net.sh takes the file as it comes back.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: tools/device-datagen.sh MINUTES SEED (with OUT set)"
MINUTES=${1:?$usage}
SEED=${2:?$usage}
OUT=${OUT:?$usage}
ENGINE=${ENGINE:-target/release/homeostat}
[ -x "$ENGINE" ] || { echo "$ENGINE is missing: build it here (cargo build --release -p homeostat-uci) and carry it" >&2; exit 1; }

file="$(mktemp -d)/s$SEED.bin"
echo "$(nproc) cores; $("$ENGINE" bench 2>&1 | grep -m1 'Nodes searched')"
"$ENGINE" datagen --out "$file" --seed "$SEED" --threads "$(nproc)" --net builtin --games 400000 --max-mb 21 \
  --minutes "$MINUTES" 2>&1 | tail -n 3
"$ENGINE" datagen --stats "$file" | tee "$OUT/s$SEED.txt"
xz -9 -T "$(nproc)" -c "$file" >"$OUT/s$SEED.bin.xz"
ls -l "$OUT/s$SEED.bin.xz"
