#!/usr/bin/env bash
# `make bench`: every benchmark, printed as ratios against baselines measured in the same run.
# Usage: bench/run.sh BUILD_DIR [--quick]
set -euo pipefail
build=${1:-build}
shift || true
echo "== router fabric (bench/noc_bench.cpp) =="
"$build/bin/tessera_bench_noc" "$build/bin/tessera" "$@"
echo
echo "== FMAC (bench/fmac_bench.cpp) =="
"$build/bin/tessera_bench_fmac"
echo
echo "== compute engine (bench/ce_bench.cpp) =="
"$build/bin/tessera_bench_ce" "$@"
echo
echo "== waves (bench/wave_bench.cpp) =="
"$build/bin/tessera_bench_waves" "$@"
echo
echo "== watching a run: --profile and an instruction-trace window (bench/profile_overhead.sh) =="
if command -v valgrind > /dev/null; then
  sh bench/profile_overhead.sh "$build"
else
  echo "(skipped: valgrind is not installed)"
fi
