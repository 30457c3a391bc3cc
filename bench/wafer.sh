#!/bin/sh
# The whole wafer in one machine's memory (docs/performance.md, "Memory"): 750x994 = 745,500 PEs,
# every PE running bench/programs/wafer.s (it sums 16..1 into `out`), on the functional model;
# `out` is read back from every PE and checked. Prints the wall time (start-up, run and read-back),
# the user and system seconds, the page faults per PE and the peak resident size (GNU time). The
# user time and the faults grow with the PE count; the system time per fault grows with the
# memory the process holds in a virtual machine (docs/performance.md, "Memory"). Needs about 8 GB.
#
#   bench/wafer.sh [BUILD_DIR] [WxH]   (default build, 750x994)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
size=${2:-750x994}
link_image w "fabric $size
region at=0,0 size=$size program=$root/bench/programs/wafer.s"
/usr/bin/time -f '%e %M %U %S %R' -o "$tmp/time" "$tessera" run "$tmp/w.timg" --quiet \
  --no-progress --out "out=$tmp/out.raw" > "$tmp/run.txt"
read -r secs kb user sys faults < "$tmp/time"
# every PE's out must be 136: the raw file holds one little-endian i32 per PE
bad=$(od -An -v -t d4 -w4 "$tmp/out.raw" | awk '$1 != 136 { n++ } END { print n + 0 }')
pes=$(od -An -v -t d4 -w4 "$tmp/out.raw" | wc -l)
echo "wafer $size: $pes PEs read back ($bad wrong), $(cat "$tmp/run.txt")"
awk -v s="$secs" -v kb="$kb" -v n="$pes" -v u="$user" -v sy="$sys" -v f="$faults" 'BEGIN {
  printf "  %.1f s (%.1f s user, %.1f s system), peak %.2f GiB resident (%.1f KB per PE)\n", \
    s, u, sy, kb / 1048576, kb / n
  printf "  %.2f page faults per PE, %.1f us of user time per PE\n", f / n, u * 1e6 / n
}'
