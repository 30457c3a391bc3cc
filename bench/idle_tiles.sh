#!/bin/sh
# What idle tiles cost the RTL and idle PEs the functional model (docs/performance.md, "Idle
# tiles"): host instructions per simulated cycle (valgrind --tool=callgrind, the difference of a
# 300- and a 900-cycle run, so start-up cancels) of
#   alone    a 1x1 fabric whose one PE runs bench/programs/scalar_loop.s,
#   sparse   an 8x8 fabric where PE(0,0) runs it and the 63 other PEs are idle,
#   clocked  the same 8x8 fabric with --clock-idle-tiles (every tile evaluated every cycle).
# sparse/alone is what 63 idle PEs cost with idle tiles skipped; clocked/alone without.
# Then the functional model (2,000- and 6,000-cycle runs): the PE alone, and PE(0,0) of a 128x128
# fabric whose 16,383 other PEs are idle.
#
#   bench/idle_tiles.sh [BUILD_DIR]   (default: build; needs valgrind)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
per_cycle() {  # backend c1 c2 image [flags...]: host instructions per simulated cycle
  be=$1 c1=$2 c2=$3
  shift 3
  i1=$(callgrind_count run "$@" --backend "$be" --quiet --no-progress --max-cycles "$c1")
  i2=$(callgrind_count run "$@" --backend "$be" --quiet --no-progress --max-cycles "$c2")
  awk -v a="$i1" -v b="$i2" -v n="$((c2 - c1))" 'BEGIN { printf "%.0f", (b - a) / n }'
}
for n in 1 8 128; do
  link_image "f$n" "fabric ${n}x${n}
region at=0,0 program=$root/bench/programs/scalar_loop.s"
done
alone=$(per_cycle rtl 300 900 "$tmp/f1.timg")
sparse=$(per_cycle rtl 300 900 "$tmp/f8.timg")
clocked=$(per_cycle rtl 300 900 "$tmp/f8.timg" --clock-idle-tiles)
func_alone=$(per_cycle func 2000 6000 "$tmp/f1.timg")
func_sparse=$(per_cycle func 2000 6000 "$tmp/f128.timg")
echo "host instructions per cycle, one PE running the scalar loop (callgrind); RTL:"
awk -v a="$alone" -v s="$sparse" -v c="$clocked" 'BEGIN {
  printf "  alone (1x1 fabric)                     %8d   1.00x\n", a
  printf "  among 63 idle PEs (8x8, idle skipped)  %8d   %.2fx\n", s, s / a
  printf "  among 63 idle PEs (8x8, all clocked)   %8d   %.2fx\n", c, c / a
}'
awk -v a="$func_alone" -v s="$func_sparse" 'BEGIN {
  printf "functional model:\n"
  printf "  alone (1x1 fabric)                     %8d   1.00x\n", a
  printf "  among 16,383 idle PEs (128x128)        %8d   %.2fx\n", s, s / a
}'
