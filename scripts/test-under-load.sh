#!/usr/bin/env bash
# Runs the test command several times in a row while CPU-bound processes keep every core busy,
# and prints each run's wall time and outcome: the suite has to pass on a loaded machine, not
# only on an idle one.
#
#   bash scripts/test-under-load.sh                      # npm test, three times
#   RUNS=1 bash scripts/test-under-load.sh npm run test:unit
#
# Exits non-zero when any run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
command=("$@")
[ ${#command[@]} -gt 0 ] || command=(npm test)
cores=$(nproc)

burners=()
stop_burners() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done
  wait "${burners[@]}" 2>/dev/null
}
trap stop_burners EXIT
# One busy loop per core, at normal priority: the tests compete for every cycle.
for _ in $(seq "$cores"); do
  node -e 'for (;;) {}' &
  burners+=($!)
done
echo "test-under-load: ${cores} busy loop(s) running (pids ${burners[*]}); ${runs} run(s) of: ${command[*]}"

failed=0
summary=()
for run in $(seq "$runs"); do
  started=$SECONDS
  "${command[@]}"
  status=$?
  took=$((SECONDS - started))
  outcome=$([ "$status" -eq 0 ] && echo passed || echo "FAILED (exit $status)")
  [ "$status" -eq 0 ] || failed=1
  summary+=("run ${run}: ${outcome} in $((took / 60)) min $((took % 60)) s")
  echo "test-under-load: ${summary[-1]}"
done

echo
echo "test-under-load: ${cores} core(s) kept busy; ${command[*]}"
printf '  %s\n' "${summary[@]}"
exit "$failed"
