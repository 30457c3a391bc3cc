#!/bin/sh
# What co-simulation costs over the RTL alone (docs/performance.md): host instructions
# (valgrind --tool=callgrind) of the whole `tessera run`, loading and the end-state comparison
# included, of an 8x8 fabric with every PE running bench/programs/scalar_loop.s for 400 cycles,
# on --backend rtl and on --backend cosim (the functional model beside it, every link, task
# start, debug record and the final state of every PE compared).
#
#   bench/cosim_overhead.sh [BUILD_DIR]   (default: build; needs valgrind)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
link_image loop "fabric 8x8
region at=0,0 size=8x8 program=$root/bench/programs/scalar_loop.s"
count() {  # backend: host instructions of the run
  callgrind_count run "$tmp/loop.timg" --backend "$1" --quiet --no-progress --max-cycles 400
}
rtl=$(count rtl)
cosim=$(count cosim)
awk -v r="$rtl" -v c="$cosim" 'BEGIN {
  printf "host instructions, 8x8 PEs of the scalar loop, 400 cycles (callgrind):\n"
  printf "  rtl    %14.0f   1.00x\n", r
  printf "  cosim  %14.0f   %.2fx\n", c, c / r
}'
