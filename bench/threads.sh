#!/bin/sh
# Both backends on host threads (docs/performance.md, "Threads"): wall time of `tessera run` on a
# 64x64 fabric with every PE running bench/programs/scalar_loop.s (the functional model for
# 20,000 cycles, the RTL for 200), with --threads 1 and then 2, five pairs of runs. Each pair's
# ratio compares two runs made seconds apart, so a machine whose speed drifts (shared cores)
# moves both; prints the median pair's times and the median, lowest and highest ratios. The
# runs' results are identical. Start-up (building and loading the fabric) is in the times.
# Then the same pairs beside a competing load (a busy loop on one of the two cores): two
# threads must not cost more than one on a busy machine (util::WorkerPool runs on the caller
# alone while waits for descheduled workers are long).
#
#   bench/threads.sh [BUILD_DIR] [BACKENDS] [PAIRS]   (default: build, "func rtl", 5)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
backends=${2:-func rtl}
pairs=${3:-5}
link_image s "fabric 64x64
region at=0,0 size=64x64 program=$root/bench/programs/scalar_loop.s"
measure() {  # backend cycles label
  backend=$1 cycles=$2 label=$3
  : > "$tmp/pairs"
  rep=0
  while [ "$rep" -lt "$pairs" ]; do
    rep=$((rep + 1))
    for t in 1 2; do
      /usr/bin/time -f '%e' -o "$tmp/t$t" "$tessera" run "$tmp/s.timg" --backend "$backend" \
        --quiet --no-progress --max-cycles $cycles --threads $t > /dev/null 2>&1 || true
    done
    echo "$(tail -n 1 "$tmp/t1") $(tail -n 1 "$tmp/t2")" >> "$tmp/pairs"
  done
  awk '{ printf "%.4f %s %s\n", $1 / $2, $1, $2 }' "$tmp/pairs" | sort -n > "$tmp/ratios"
  awk -v be="$backend" -v c="$cycles" -v n="$pairs" -v lb="$label" '
    { r[NR] = $1; a[NR] = $2; b[NR] = $3 }
    END {
      m = int((n + 1) / 2)
      printf "64x64 PEs, scalar loop, %d cycles (%s), %d pairs of runs%s:\n", c, be, n, lb
      printf "  --threads 1  %6.2f s  (%.2fM PE-cycles/s)   (the median pair)\n", a[m], 64 * 64 * c / a[m] / 1e6
      printf "  --threads 2  %6.2f s\n", b[m]
      printf "  --threads 2 is %.2fx faster (median pair; lowest %.2fx, highest %.2fx)\n", r[m], r[1], r[n]
    }' "$tmp/ratios"
}
for backend in $backends; do
  if [ "$backend" = func ]; then cycles=20000; else cycles=200; fi
  measure "$backend" "$cycles" ""
  sh -c 'while :; do :; done' &
  load=$!
  measure "$backend" "$cycles" " beside a competing load (a busy loop)"
  kill "$load"
done
