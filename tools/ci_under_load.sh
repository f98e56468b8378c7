#!/usr/bin/env bash
# Run the whole test suite, as CI runs it, while busy loops keep every core saturated; repeat.
#
#   bash tools/ci_under_load.sh [RUNS]      (default 3; stops at the first failing run)
#
# A test whose verdict depends on how fast the machine is fails here. Each run prints its time;
# the last line says how many runs passed. Needs the test venv (`bash install.sh --test`).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cores=$(nproc)

burners=()
stop_burners() { [ "${#burners[@]}" -gt 0 ] && kill "${burners[@]}" 2>/dev/null; wait 2>/dev/null; }
trap stop_burners EXIT
for _ in $(seq "$cores"); do
  ( while :; do :; done ) &
  burners+=($!)
done
echo "== $cores busy loops running (one per core)"

passed=0
for run in $(seq "$runs"); do
  started=$SECONDS
  .venv/bin/python -m pytest -n auto -q -p no:cacheprovider
  status=$?
  echo "== run $run of $runs: exit $status after $((SECONDS - started)) s (1-minute load $(cut -d' ' -f1 /proc/loadavg))"
  [ "$status" -eq 0 ] || break
  passed=$((passed + 1))
done
echo "== $passed of $runs runs passed under load"
[ "$passed" -eq "$runs" ]
