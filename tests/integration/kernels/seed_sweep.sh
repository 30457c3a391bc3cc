#!/usr/bin/env bash
# A kernel over many seeds and shapes (property test): every run must pass its own check against
# the host's double-precision reference. Prints the first failing command and its output.
# Usage: seed_sweep.sh TESSERA SEEDS KERNEL "OPTIONS" ["OPTIONS" ...]
set -uo pipefail
tessera=$1 seeds=$2 kernel=$3
shift 3
runs=0
for opts in "$@"; do
  for seed in $(seq 1 "$seeds"); do
    runs=$((runs + 1))
    # shellcheck disable=SC2086  # the options are words
    if ! out=$("$tessera" kernel "$kernel" $opts --seed "$seed" 2>&1); then
      echo "seed sweep: FAIL: tessera kernel $kernel $opts --seed $seed"
      echo "$out" | tail -n 3
      exit 1
    fi
  done
done
echo "seed sweep: $runs runs, all pass"
