#!/bin/sh
# The functional model on host threads (docs/performance.md, "Threads"): wall time of `tessera run`
# on a 64x64 fabric with every PE running bench/programs/scalar_loop.s for 20,000 cycles, with
# --threads 1 and 2, alternating, three times each; prints the medians and their ratio (machines
# are noisy: compare the ratio, not the seconds). The runs' results are identical.
#
#   bench/threads.sh [BUILD_DIR]
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
tessera=$(cd "$build" && pwd)/bin/tessera
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'fabric 64x64\nregion at=0,0 size=64x64 program=%s/bench/programs/scalar_loop.s\n' \
  "$root" > "$tmp/s.tlayout"
"$tessera" link -o "$tmp/s.timg" "$tmp/s.tlayout" > /dev/null
for rep in 1 2 3; do
  for t in 1 2; do
    /usr/bin/time -f 'T %e' -a -o "$tmp/t$t" "$tessera" run "$tmp/s.timg" --quiet --no-progress \
      --max-cycles 20000 --threads $t > /dev/null 2>&1 || true
  done
done
m1=$(sed -n 's/^T //p' "$tmp/t1" | sort -n | sed -n 2p)
m2=$(sed -n 's/^T //p' "$tmp/t2" | sort -n | sed -n 2p)
awk -v a="$m1" -v b="$m2" 'BEGIN {
  printf "64x64 PEs, scalar loop, 20,000 cycles (func), median of 3:\n"
  printf "  --threads 1  %6.2f s  (%.1fM PE-cycles/s)\n", a, 64 * 64 * 20000 / a / 1e6
  printf "  --threads 2  %6.2f s  %.2fx faster\n", b, a / b
}'
