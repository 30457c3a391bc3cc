#!/bin/sh
# ML layers on the functional model (docs/ml.md, "Performance"): the cycles of the same dense
# layer resident and streamed, dense and at 50%, 75% and 90% sparsity, in f32 and f16; the FMAC
# utilization of the dense forward; and where the cycles of a training step go (forward compute,
# allreduces, loss, backward, update). Every figure is a simulated count from
# `tessera ml mlp --json`, so it does not depend on the machine's load; the RTL gives the same
# cycles (the ml tests co-simulate). Ratios are against the first row of each table.
#
#   bench/ml_layers.sh [BUILD_DIR]   (default build)
set -eu
build=${1:-build}
tessera=$(cd "$build" && pwd)/bin/tessera
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
layer="128,128"; batch=16; pes=4
echo "One dense layer $layer (batch $batch, $pes PEs, forward): cycles against sparsity"
printf '  %-10s %-5s %-9s %9s %10s %7s %9s %13s\n' mode dtype sparsity cycles nonzeros ratio "FMAC (dense-equivalent)" samples/Mcyc
for dtype in f32 f16; do
  for mode in resident streaming; do
    base=""
    for sp in 0 0.5 0.75 0.9; do
      json=$("$tessera" ml mlp --layers $layer --batch $batch --pes $pes --dtype $dtype \
        --mode $mode --sparsity $sp --json | tail -n 1)
      c=$(echo "$json" | field cycles)
      [ -z "$base" ] && base=$c
      printf '  %-10s %-5s %-9s %9s %10s %7.2f %8.1f%% %13.0f\n' $mode $dtype $sp "$c" \
        "$(echo "$json" | field nonzeros)" "$(awk -v a="$c" -v b="$base" 'BEGIN { print a / b }')" \
        "$(echo "$json" | field fmac_utilization | awk '{ print 100 * $1 }')" \
        "$(awk -v c="$c" -v b=$batch 'BEGIN { print b * 1e6 / c }')"
    done
  done
done
echo
model="64,64,32,10"; tpes=8
echo "Where the cycles of a training step go: MLP $model, batch $batch, $tpes PEs (cycles on PE 0)"
printf '  %-10s %-5s %9s %9s %11s %7s %9s %7s %6s\n' mode dtype step forward allreduces loss backward update ratio
base=""
for dtype in f32 f16; do
  for mode in resident streaming; do
    json=$("$tessera" ml mlp --layers $model --batch $batch --pes $tpes --dtype $dtype --mode $mode \
      --train 1 --json | tail -n 1)
    c=$(echo "$json" | field cycles)
    ph=$(echo "$json" | sed 's/.*"phases":{\([^}]*\)}.*/{\1}/')
    [ -z "$base" ] && base=$c
    printf '  %-10s %-5s %9s %9s %11s %7s %9s %7s %6.2f\n' $mode $dtype "$c" \
      "$(echo "$ph" | field forward)" "$(echo "$ph" | field collectives)" \
      "$(echo "$ph" | field loss)" "$(echo "$ph" | field backward)" \
      "$(echo "$ph" | field update)" "$(awk -v a="$c" -v b="$base" 'BEGIN { print a / b }')"
  done
done
echo "  (forward and backward include their allreduces; update is inside backward)"
