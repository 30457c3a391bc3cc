#!/bin/sh
# Weak and strong scaling of GEMM, weak scaling of CG, on the functional model (docs/kernels.md, "Scaling"):
# simulated cycles and FMAC utilization at 2x2, 4x4, 8x8 and 16x16, from `tessera kernel --json`.
# Cycles are simulated, so they do not depend on the machine's load; the functional model and the
# RTL give the same cycles (the kernel tests check it at small sizes).
#
#   bench/kernel_scaling.sh [BUILD_DIR]   (default build)
set -eu
build=${1:-build}
tessera=$(cd "$build" && pwd)/bin/tessera
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
row() {  # label, kernel args...
  label=$1
  shift
  json=$("$tessera" kernel "$@" --json | tail -n 1)
  printf '  %-28s %12s %8.1f%%\n' "$label" "$(echo "$json" | field cycles)" \
    "$(echo "$json" | field fmac_utilization | awk '{ print 100 * $1 }')"
}
echo "GEMM, weak scaling (32x32x32 per PE):"
printf '  %-28s %12s %9s\n' fabric cycles FMAC
for p in 2 4 8 16; do
  n=$((32 * p))
  row "${p}x${p}, m=n=k=$n" gemm --m $n --n $n --k $n --fabric ${p}x${p}
done
echo "GEMM, strong scaling (m=n=k=128; 2x2 would need 64x64 blocks, more than a PE holds):"
for p in 4 8 16; do
  row "${p}x${p}" gemm --m 128 --n 128 --k 128 --fabric ${p}x${p}
done
echo "CG, weak scaling (64 points in z per PE, tol 1e-4):"
for p in 2 4 8 16; do
  row "${p}x${p}x64" cg --nx $p --ny $p --nz 64
done
# CG has no strong-scaling table: its mapping puts one (x, y) column of the grid on each PE,
# so the fabric fixes nx and ny and a larger fabric is a larger problem.
