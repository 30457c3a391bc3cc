#!/bin/sh
# What the library's kernels cost the functional model (docs/performance.md, "DSD steps in
# bulk"): host instructions (valgrind --tool=callgrind, the whole run of `tessera kernel`,
# start-up included) of gemm, gemv, mandelbrot and heat2d, with the defaults (running ahead, DSD
# steps in bulk) and with --no-run-ahead (every engine through its whole cycle model, every
# cycle) in the same script; the ratio is what running ahead and bulk steps save. The results
# and cycles are the same both ways (the kernel checks its result either way).
#
#   bench/kernel_cost.sh [BUILD_DIR]   (default: build; needs valgrind)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup "${1:-build}"
echo "host instructions of tessera kernel ... --backend func (callgrind):"
printf '  %-28s %14s %14s %8s\n' kernel default --no-run-ahead ratio
for k in "gemm --m 64 --n 64 --k 64" "gemv --m 512 --n 512" "mandelbrot" "heat2d"; do
  # shellcheck disable=SC2086  # the kernel's name and options are words
  fast=$(callgrind_count kernel $k --backend func)
  # shellcheck disable=SC2086
  step=$(callgrind_count kernel $k --backend func --no-run-ahead)
  awk -v k="$k" -v a="$fast" -v b="$step" \
    'BEGIN { printf "  %-28s %14.0f %14.0f %7.2fx\n", k, a, b, b / a }'
done
