#!/usr/bin/env bash
# Repeat some tests under pytest-xdist while busy loops keep every core saturated, to catch a rare
# worker crash (segfault); each crashing run's output (with faulthandler's trace) is kept.
#
#   bash tools/stress_gui.sh RUNS LOGDIR [pytest arguments...]    (default: tests/gui)
#   BURNERS=0 bash tools/stress_gui.sh ...                         (no busy loops)
#   bash tools/stress_gui.sh 5 /tmp/gc -p tools.gc_in_paint tests/gui  (collect in every chart paint)
#
# Runs every run to the end; the last line counts runs, failures and crashed workers.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=$1 logs=$2
shift 2
[ "$#" -gt 0 ] || set -- tests/gui
mkdir -p "$logs"

burners=()
stop_burners() { [ "${#burners[@]}" -gt 0 ] && kill "${burners[@]}" 2>/dev/null; wait 2>/dev/null; }
trap stop_burners EXIT
for _ in $(seq "${BURNERS:-$(nproc)}"); do
  ( while :; do :; done ) &
  burners+=($!)
done

failed=0 crashed=0
for run in $(seq "$runs"); do
  started=$SECONDS
  out="$logs/run$run.log"
  QT_QPA_PLATFORM=offscreen PYTHONFAULTHANDLER=1 .venv/bin/python -m pytest -n 2 -q -p no:cacheprovider "$@" >"$out" 2>&1
  status=$?
  if grep -qE "Fatal Python error|Segmentation fault|node down|crashed" "$out"; then
    crashed=$((crashed + 1)); echo "== run $run: CRASH (exit $status) after $((SECONDS - started)) s, $out"
  elif [ "$status" -ne 0 ]; then
    failed=$((failed + 1)); echo "== run $run: exit $status after $((SECONDS - started)) s, $out"
  else
    rm -f "$out"; echo "== run $run: passed after $((SECONDS - started)) s"
  fi
done
echo "== $runs runs: $crashed with a crashed worker, $failed failed otherwise"
[ "$crashed" -eq 0 ] && [ "$failed" -eq 0 ]
