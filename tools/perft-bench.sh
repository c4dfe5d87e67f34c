#!/usr/bin/env bash
# Perft speed of homeostat-chess against cozy-chess, natively and as WebAssembly
# (wasm32-wasip1 under Node's WASI). Each table compares the two libraries side by side.
# Usage: tools/perft-bench.sh [ROUNDS] [--quick]      (defaults: 5 rounds, full depths)
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"

echo "== native"
cargo build --release --quiet -p homeostat-chess --example perft_bench
"$target_dir/release/examples/perft_bench" "$@"

echo
echo "== wasm32-wasip1 (node $(node --version))"
if ! rustup target list --installed | grep -qx wasm32-wasip1; then
    rustup target add wasm32-wasip1
fi
cargo build --release --quiet -p homeostat-chess --example perft_bench --target wasm32-wasip1
node --no-warnings tools/run-wasi.mjs "$target_dir/wasm32-wasip1/release/examples/perft_bench.wasm" "$@"
