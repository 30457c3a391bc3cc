#!/bin/sh
# What idle tiles cost the RTL (docs/performance.md, "Idle tiles"): host instructions per
# simulated cycle (valgrind --tool=callgrind, the difference of a 300- and a 900-cycle run, so
# start-up cancels) of
#   alone    a 1x1 fabric whose one PE runs bench/programs/scalar_loop.s,
#   sparse   an 8x8 fabric where PE(0,0) runs it and the 63 other PEs are idle,
#   clocked  the same 8x8 fabric with --clock-idle-tiles (every tile evaluated every cycle).
# sparse/alone is what 63 idle PEs cost with idle tiles skipped; clocked/alone without.
#
#   bench/idle_tiles.sh [BUILD_DIR]   (default: build; needs valgrind)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
per_cycle() {  # image [flags...]: host instructions per simulated cycle
  i1=$(callgrind_count run "$@" --backend rtl --quiet --no-progress --max-cycles 300)
  i2=$(callgrind_count run "$@" --backend rtl --quiet --no-progress --max-cycles 900)
  awk -v a="$i1" -v b="$i2" 'BEGIN { printf "%.0f", (b - a) / 600 }'
}
for n in 1 8; do
  link_image "f$n" "fabric ${n}x${n}
region at=0,0 program=$root/bench/programs/scalar_loop.s"
done
alone=$(per_cycle "$tmp/f1.timg")
sparse=$(per_cycle "$tmp/f8.timg")
clocked=$(per_cycle "$tmp/f8.timg" --clock-idle-tiles)
echo "host instructions per cycle, one PE running the scalar loop (callgrind):"
awk -v a="$alone" -v s="$sparse" -v c="$clocked" 'BEGIN {
  printf "  alone (1x1 fabric)                     %8d   1.00x\n", a
  printf "  among 63 idle PEs (8x8, idle skipped)  %8d   %.2fx\n", s, s / a
  printf "  among 63 idle PEs (8x8, all clocked)   %8d   %.2fx\n", c, c / a
}'
