#!/bin/sh
# What watching a run costs (docs/profiling.md): host instructions (valgrind --tool=callgrind,
# exact and independent of machine load) of one functional-model run of the heat2d kernel, with
# nothing on, with --profile (the link log on for the whole run, counters), and with an
# instruction trace of a 200-cycle window of one PE (the rest of the run in big steps). Printed
# as ratios to the run with nothing on.
#
#   bench/profile_overhead.sh [BUILD_DIR]   (default build; needs valgrind)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
args="kernel heat2d --iters 50"
base=$(callgrind_count $args)
prof=$(callgrind_count $args --profile)
trace=$(callgrind_count $args --trace-insn "$tmp/t.csv" --trace-region 0,0:0,0 \
  --trace-window 1000:1200)
echo "heat2d 64x64 on 4x4 PEs, 50 steps (func), host instructions:"
awk -v b="$base" -v p="$prof" -v t="$trace" 'BEGIN {
  printf "  nothing on          %14d  1.000\n", b
  printf "  --profile           %14d  %.3f\n", p, p / b
  printf "  --trace-insn window %14d  %.3f\n", t, t / b
}'
