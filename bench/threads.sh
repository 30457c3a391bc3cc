#!/bin/sh
# Both backends on host threads (docs/performance.md, "Threads"): wall time of `tessera run` on a
# 64x64 fabric with every PE running bench/programs/scalar_loop.s (the functional model for
# 20,000 cycles, the RTL for 200), with --threads 1 and 2, alternating, three times each; prints
# the medians and their ratio (machines are noisy: compare the ratio, not the seconds). The runs'
# results are identical. Start-up (building and loading the fabric) is in the times.
#
#   bench/threads.sh [BUILD_DIR] [BACKENDS]   (default: build, "func rtl")
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
backends=${2:-func rtl}
link_image s "fabric 64x64
region at=0,0 size=64x64 program=$root/bench/programs/scalar_loop.s"
for backend in $backends; do
  if [ "$backend" = func ]; then cycles=20000; else cycles=200; fi
  rm -f "$tmp/t1" "$tmp/t2"
  for rep in 1 2 3; do
    for t in 1 2; do
      /usr/bin/time -f 'T %e' -a -o "$tmp/t$t" "$tessera" run "$tmp/s.timg" --backend "$backend" \
        --quiet --no-progress --max-cycles $cycles --threads $t > /dev/null 2>&1 || true
    done
  done
  m1=$(sed -n 's/^T //p' "$tmp/t1" | sort -n | sed -n 2p)
  m2=$(sed -n 's/^T //p' "$tmp/t2" | sort -n | sed -n 2p)
  awk -v a="$m1" -v b="$m2" -v be="$backend" -v c="$cycles" 'BEGIN {
    printf "64x64 PEs, scalar loop, %d cycles (%s), median of 3:\n", c, be
    printf "  --threads 1  %6.2f s  (%.2fM PE-cycles/s)\n", a, 64 * 64 * c / a / 1e6
    printf "  --threads 2  %6.2f s  %.2fx faster\n", b, a / b
  }'
done
