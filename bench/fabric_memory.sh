#!/bin/sh
# Host memory per PE of each backend: the peak resident size (GNU time, %M) of `tessera run` on a
# small and a large fabric holding one PE's program, the difference over the extra PEs. Start-up
# and the program cancel. The runtime's memory check (host/runtime/device.cpp, kFuncBytesPerPe and
# kRtlBytesPerPe) uses these numbers.
#
#   bench/fabric_memory.sh [BUILD_DIR]   (default build; needs /usr/bin/time)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
small=16
large=64
for n in $small $large; do
  link_image "f$n" "fabric ${n}x${n}
region at=0,0 program=$root/firmware/tutorial/01_loop/loop.s"
done
for backend in ${2:-func rtl}; do
  for n in $small $large; do
    /usr/bin/time -f %M -o "$tmp/$backend$n" \
      "$tessera" run "$tmp/f$n.timg" --backend $backend --quiet --no-progress > /dev/null
  done
  a=$(cat "$tmp/$backend$small")
  b=$(cat "$tmp/$backend$large")
  pes=$((large * large - small * small))
  echo "$backend: ${a} KB at ${small}x${small}, ${b} KB at ${large}x${large}:" \
    "$(((b - a) / pes)) KB per PE"
done
