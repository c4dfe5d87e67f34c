#!/usr/bin/env bash
# Runs the browser tests for groups of engines side by side, each group's test files one at a time, every line of
# a group's report marked with the group, and fails when any group fails.
#
#   tests/browser/run.sh firefox chromium,webkit     (each argument is a BROWSERS list; `make browser-test` runs this)
#
# Why groups rather than Node's files at once: two WebKit windows on the one virtual X display starve each other's
# rendering (a ResizeObserver that did not fire in 5 s), while different engines side by side do not, and most of a
# test file's time is spent waiting (pages loading, a slow file served slowly, a clock running down).
set -uo pipefail
cd "$(dirname "$0")/../.."
# No group would run no test and pass.
[ "$#" -gt 0 ] || { echo "usage: tests/browser/run.sh GROUP... (each a BROWSERS list, e.g. firefox chromium,webkit)" >&2; exit 2; }

pids=()
for group in "$@"; do
  BROWSERS="$group" node --test --test-force-exit --test-concurrency=1 tests/browser/*.test.js 2>&1 |
    sed -u "s/^/[$group] /" &
  pids+=("$!")
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
exit "$status"
