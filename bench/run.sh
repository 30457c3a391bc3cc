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
# The callgrind-based scripts need valgrind.
with_valgrind() {
  if command -v valgrind > /dev/null; then
    sh "$@"
  else
    echo "(skipped: valgrind is not installed)"
  fi
}
echo "== watching a run: --profile and an instruction-trace window (bench/profile_overhead.sh) =="
with_valgrind bench/profile_overhead.sh "$build"
echo
echo "== speed per PE-cycle: host instructions (bench/pe_cycle_cost.sh) =="
with_valgrind bench/pe_cycle_cost.sh "$build"
echo
echo "== CSL: cslc's GEMV against the hand-written kernel, and compile times (bench/csl_quality.sh) =="
bash bench/csl_quality.sh "$build"
echo
echo "== the library's kernels on the functional model (bench/kernel_cost.sh) =="
with_valgrind bench/kernel_cost.sh "$build"
echo
echo "== idle tiles on the RTL, idle PEs on the functional model (bench/idle_tiles.sh) =="
with_valgrind bench/idle_tiles.sh "$build"
echo
echo "== co-simulation over the RTL alone (bench/cosim_overhead.sh) =="
with_valgrind bench/cosim_overhead.sh "$build"
echo
echo "== the functional model on two host threads (bench/threads.sh) =="
sh bench/threads.sh "$build"
echo
echo "== host memory per PE (bench/fabric_memory.sh) =="
sh bench/fabric_memory.sh "$build"
echo
echo "== the whole wafer on the functional model (bench/wafer.sh) =="
if [ "$(awk '/MemTotal/ { print int($2 / 1048576) }' /proc/meminfo)" -ge 12 ]; then
  sh bench/wafer.sh "$build"
else
  echo "(skipped: needs 12 GB of memory)"
fi
