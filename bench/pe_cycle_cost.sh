#!/bin/sh
# Host instructions per simulated PE-cycle (docs/performance.md): valgrind --tool=callgrind counts
# the host instructions of `tessera run` on an 8x8 fabric with every PE running a benchmark loop
# (bench/programs/scalar_loop.s, dsd_loop.s), for two run lengths; the difference over the extra
# PE-cycles cancels start-up, loading and the end. Exact, whatever the machine's load.
#
# "func-step" is the functional model with --no-run-ahead: every compute engine stepped once per
# cycle it acts (docs/performance.md, "Running ahead").
#
#   bench/pe_cycle_cost.sh [BUILD_DIR] [BACKENDS]   (default: build, "func func-step rtl";
#                                                    needs valgrind)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
backends=${2:-func func-step rtl}
n=8
count() {  # image backend cycles: host instructions
  if [ "$2" = func-step ]; then
    callgrind_count run "$1" --backend func --no-run-ahead --quiet --no-progress --max-cycles "$3"
  else
    callgrind_count run "$1" --backend "$2" --quiet --no-progress --max-cycles "$3"
  fi
}
echo "host instructions per PE-cycle, ${n}x${n} PEs, every PE busy (callgrind):"
for prog in scalar_loop dsd_loop; do
  link_image "$prog" "fabric ${n}x${n}
region at=0,0 size=${n}x${n} program=$root/bench/programs/$prog.s"
  for backend in $backends; do
    case $backend in func*) c1=2000; c2=6000 ;; *) c1=200; c2=600 ;; esac
    i1=$(count "$tmp/$prog.timg" "$backend" $c1)
    i2=$(count "$tmp/$prog.timg" "$backend" $c2)
    awk -v p="$prog" -v b="$backend" -v i1="$i1" -v i2="$i2" -v c1="$c1" -v c2="$c2" -v n="$n" \
      'BEGIN { printf "  %-12s %-5s %10.0f\n", p, b, (i2 - i1) / ((c2 - c1) * n * n) }'
  done
done
