#!/usr/bin/env bash
# Runs the browser tests for groups of engines side by side, each group's test files one at a time, every line of
# a group's report marked with the group, and fails when any group fails. The failures are printed again at the
# end, since a log's tail (what CI keeps) would otherwise show only the group that finished last.
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

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
for group in "$@"; do
  BROWSERS="$group" node --test --test-force-exit --test-concurrency=1 tests/browser/*.test.js 2>&1 |
    sed -u "s/^/[$group] /" | tee "$logs/${#pids[@]}.log" &
  pids+=("$!")
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
if [ "$status" -ne 0 ]; then
  # Each failed test with its report, short of the stack (the location names the line); a suite that failed only
  # through its tests is left out, as they are listed.
  echo "==> browser test failures"
  for log in "$logs"/*.log; do
    awk '/^\[[^]]*\] +not ok / { block = $0; on = 1; suite = 0; next }
         !on { next }
         /failureType: .subtestsFailed./ { suite = 1 }
         /^\[[^]]*\] +(stack:|\.\.\.$)/ { if (!suite) print block; on = 0; next }
         !/^\[[^]]*\] +((duration_ms|failureType|code|name|type):|---$)/ { block = block "\n" $0 }' "$log"
  done
fi
exit "$status"
