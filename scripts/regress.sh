#!/usr/bin/env bash
# The regression behind `make sim` (MODE=sim) and `make sim-long` (MODE=long): random-traffic
# co-simulation of the RTL against the cycle-exact functional model over patterns, rates, seeds,
# fabric and tile shapes, random compute-engine programs in lockstep (tessera fuzz), the kernel
# library (tessera kernel, with a table of cycles, FMAC utilization and speed), ML layers (tessera
# ml: MLP steps checked against the host reference on every backend, the digits trained to 95%),
# CSL programs through cslc and cs_python (with the SDK's tutorials when TESSERA_SDK_EXAMPLES
# names a copy of them; long mode runs all of its tutorials and benchmarks), and every shared
# TestFloat vector file on the RTL FMAC.
# Usage: scripts/regress.sh TESSERA_BINARY sim|long. Logs: build/regress/<mode>/.
set -uo pipefail
cd "$(dirname "$0")/.."
tessera=${1:?usage: regress.sh TESSERA_BINARY sim|long}
mode=${2:?usage: regress.sh TESSERA_BINARY sim|long}
logs=build/regress/$mode
rm -rf "$logs"; mkdir -p "$logs"
passed=0; failed=0; t_start=$SECONDS

run() {  # name, command...
  local name=$1; shift
  local t0=$SECONDS
  if "$@" >"$logs/$name.log" 2>&1; then
    passed=$((passed + 1))
    printf "  pass  %-48s %4ss\n" "$name" $((SECONDS - t0))
  else
    failed=$((failed + 1))
    printf "  FAIL  %-48s %4ss  (%s)\n" "$name" $((SECONDS - t0)) "$logs/$name.log"
    tail -n 12 "$logs/$name.log" | sed 's/^/        /'
  fi
}

patterns="uniform transpose hotspot neighbour broadcast switch"

# The kernel library (docs/kernels.md): each kernel on func and rtl alone (for their speed) and in
# co-simulation (for agreement); a table row per run: kernel, fabric, dtype, size, cycles, FMAC
# utilization, simulated PE-cycles per second of wall time, pass or fail.
table=$logs/kernels.tsv
kernel() {  # name kernel backend args...
  local name=$1 k=$2 backend=$3; shift 3
  local t0 t1 json
  t0=$(date +%s.%N)
  run "$name" "$tessera" kernel "$k" --backend "$backend" --json "$@"
  t1=$(date +%s.%N)
  json=$(tail -n 1 "$logs/$name.log")
  awk -v j="$json" -v b="$backend" -v t="$(awk -v a="$t0" -v c="$t1" 'BEGIN { print c - a }')" '
    function v(key,   m) {
      if (match(j, "\"" key "\":\"[^\"]*\"")) { m = substr(j, RSTART, RLENGTH); sub(/^[^:]*:"/, "", m); sub(/"$/, "", m); return m }
      if (match(j, "\"" key "\":[^,}]*")) { m = substr(j, RSTART, RLENGTH); sub(/^[^:]*:/, "", m); return m }
      return "?"
    }
    BEGIN {
      pes = v("fabric_w") * v("fabric_h")
      printf "%-16s %-6s %6s %-4s %9s %6.1f%% %10.3g  %-4s  %s\n", v("kernel"), b, v("fabric_w") "x" v("fabric_h"), v("dtype"), v("cycles"), 100 * v("fmac_utilization"), (t > 0 ? v("cycles") * pes / t : 0), (v("pass") == "true" ? "pass" : "FAIL"), v("size")
    }' >> "$table"
}
kernel_table() {
  echo "regress: kernel table (PE-cycles/s: simulated PE-cycles per second of wall time, start-up included)"
  printf "  %-16s %-6s %6s %-4s %9s %7s %10s  %-4s  %s\n" kernel backend fabric type cycles FMAC PE-cyc/s pass size
  sed 's/^/  /' "$table"
}
case $mode in
  sim)
    echo "regress: noc co-simulation, 8x8 fabric (2x2 tiles, SystemC glue)"
    for p in $patterns; do
      for rate in 0.05 0.2 0.6; do
        for seed in 1 2; do
          run "noc_8x8_${p}_r${rate}_s${seed}" "$tessera" noc --fabric 8x8 --pattern "$p" \
            --rate "$rate" --cycles 2000 --seed "$seed" --backend cosim
        done
      done
    done
    echo "regress: noc co-simulation, other shapes"
    for p in $patterns; do
      run "noc_6x4_${p}" "$tessera" noc --fabric 6x4 --pattern "$p" --rate 0.3 --cycles 1500 \
        --seed 5 --backend cosim
      run "noc_8x8_tile1x1_${p}" "$tessera" noc --fabric 8x8 --tile 1x1 --pattern "$p" \
        --rate 0.2 --cycles 1000 --seed 6 --backend cosim
      run "noc_8x8_tile4x4_loop_${p}" "$tessera" noc --fabric 8x8 --tile 4x4 --glue loop \
        --pattern "$p" --rate 0.2 --cycles 1000 --seed 7 --backend cosim
    done
    for p in uniform transpose; do
      run "noc_16x16_${p}" "$tessera" noc --fabric 16x16 --pattern "$p" --rate 0.1 \
        --cycles 1000 --seed 8 --backend cosim
    done
    echo "regress: compute engine, random programs in lockstep (func against RTL)"
    run "fuzz_all_s1_2000" "$tessera" fuzz --seed 1 --programs 2000 --backend cosim
    run "fuzz_scalar_s50000_2000" "$tessera" fuzz --seed 50000 --programs 2000 --mix scalar \
      --backend cosim
    run "fuzz_faults_s90000_500" "$tessera" fuzz --seed 90000 --programs 500 --fault-rate 0.6 \
      --backend cosim
    run "fuzz_2x2_s1_300" "$tessera" fuzz --fabric 2x2 --seed 1 --programs 300 --backend cosim
    echo "regress: the kernel library on func, rtl and in co-simulation"
    for b in func rtl cosim; do
      kernel "gemv_f32_4x4_$b" gemv "$b" --m 256 --n 256 --fabric 4x4
      kernel "gemv_f16_4x4_$b" gemv "$b" --m 256 --n 256 --fabric 4x4 --dtype f16
      kernel "gemv_f32_8x8_uneven_$b" gemv "$b" --m 500 --n 333 --fabric 8x8 --seed 3
      kernel "gemm_f32_4x4_$b" gemm "$b" --m 64 --n 64 --k 64 --fabric 4x4
      kernel "gemm_f16_3x3_uneven_$b" gemm "$b" --m 50 --n 41 --k 37 --fabric 3x3 --dtype f16
      kernel "allreduce_grid_4x4_$b" allreduce "$b" --along grid --fabric 4x4 --n 256
      kernel "reduce_row_max_8x8_$b" reduce "$b" --along row --op max --fabric 8x8 --n 128
      kernel "broadcast_col_4x4_$b" broadcast "$b" --along col --fabric 4x4 --n 512
      kernel "stencil_spmv_8x8x64_$b" stencil-spmv "$b" --nx 8 --ny 8 --nz 64
      kernel "cg_4x4x32_$b" cg "$b" --nx 4 --ny 4 --nz 32
      kernel "power_4x4x16_$b" power "$b" --nx 4 --ny 4 --nz 16 --iters 20
      kernel "histogram_4x4_$b" histogram "$b" --n 256 --bins 64 --fabric 4x4
      kernel "histogram_3x5_uneven_$b" histogram "$b" --n 200 --bins 37 --fabric 3x5 --seed 2
      kernel "mandelbrot_4x4_$b" mandelbrot "$b" --m 32 --n 32 --iters 32 --fabric 4x4
      kernel "mandelbrot_4x4_uneven_$b" mandelbrot "$b" --m 30 --n 21 --iters 48 --fabric 4x4 --seed 3
      kernel "life_4x4_$b" life "$b" --m 32 --n 32 --iters 8 --fabric 4x4
      kernel "life_4x3_uneven_$b" life "$b" --m 45 --n 38 --iters 6 --fabric 4x3 --seed 2
      kernel "heat2d_4x4_$b" heat2d "$b" --nx 64 --ny 48 --fabric 4x4 --iters 20
      kernel "spmv_hypersparse_4x4_$b" spmv-hypersparse "$b" --n 2000 --nnz 400 --fabric 4x4
      kernel "fft_8x2_$b" fft "$b" --n 512 --fabric 8x2
    done
    kernel_table
    echo "regress: the kernel library over many seeds and shapes (property tests, func)"
    sweep() { run "seeds_$1" bash tests/integration/kernels/seed_sweep.sh "$tessera" 40 "$@"; }
    sweep gemv "--m 33 --n 65 --fabric 3x2" "--m 100 --n 37 --fabric 4x3 --dtype f16"
    sweep gemm "--m 17 --n 9 --k 13 --fabric 2x2" "--m 30 --n 31 --k 29 --fabric 3x3 --dtype f16"
    sweep allreduce "--n 17 --fabric 5x3 --along grid" "--n 9 --fabric 3x4 --along col --op max"
    sweep reduce "--n 17 --fabric 5x3 --along row --op max"
    sweep broadcast "--n 17 --fabric 5x3 --along grid"
    sweep cg "--nx 3 --ny 3 --nz 12" "--nx 4 --ny 2 --nz 9"
    sweep stencil-spmv "--nx 5 --ny 3 --nz 11"
    sweep power "--nx 3 --ny 3 --nz 10 --iters 12"
    sweep histogram "--n 60 --bins 37 --fabric 3x5" "--n 33 --bins 100 --fabric 4x4"
    sweep mandelbrot "--m 21 --n 19 --iters 30 --fabric 3x3"
    sweep life "--m 23 --n 17 --iters 6 --fabric 4x3"
    sweep heat2d "--nx 21 --ny 13 --iters 10 --fabric 4x3"
    sweep fft "--n 128 --fabric 8x2" "--n 64 --fabric 2x3"
    sweep spmv-hypersparse "--n 4000 --nnz 8000 --fabric 8x8" "--n 777 --nnz 3000 --fabric 3x5"
    echo "regress: ML layers (tessera ml): forward and training steps on func, rtl and cosim"
    for b in func rtl cosim; do
      run "ml_mlp_fwd_f32_resident_$b" "$tessera" ml mlp --layers 64,32,10 --backend "$b"
      run "ml_mlp_fwd_f16_streaming_sparse_$b" "$tessera" ml mlp --layers 64,32,10 --dtype f16 \
        --mode streaming --sparsity 0.75 --backend "$b"
      run "ml_mlp_train_f32_gelu_$b" "$tessera" ml mlp --layers 32,24,16,10 --batch 8 --act gelu \
        --train 2 --backend "$b"
      run "ml_mlp_train_f16_streaming_$b" "$tessera" ml mlp --layers 32,24,10 --batch 8 --dtype f16 \
        --mode streaming --train 2 --backend "$b"
    done
    echo "regress: CSL programs (tests/csl) through cslc and cs_python on func, rtl and cosim"
    for dir in tests/csl/*/; do
      [ -f "$dir/cslc.args" ] || continue
      t=$(basename "$dir")
      for b in func rtl cosim; do
        # shellcheck disable=SC2046
        run "csl_${t}_$b" bash tests/csl/run_csl.sh "$PWD/build/bin" "$PWD/tests/csl/$t" \
          "$PWD/$logs/csl_${t}_$b" "$b" $(cat "$dir/cslc.args")
      done
    done
    # The SDK's tutorials, unchanged, when a copy of the public sdk-examples is at hand
    # (TESSERA_SDK_EXAMPLES=/path/to/sdk-examples; docs/csl.md lists which pass).
    if [ -n "${TESSERA_SDK_EXAMPLES:-}" ]; then
      echo "regress: SDK tutorials from $TESSERA_SDK_EXAMPLES (cslc, cs_python) on func, rtl, cosim"
      for t in gemv-01-complete-program gemv-02-memory-dsds gemv-03-memcpy gemv-04-params \
               gemv-05-multiple-pes gemv-06-routes-1 gemv-07-routes-2 gemv-08-routes-3 \
               gemv-09-streaming pipeline-01-basic topic-01-arrays-and-pointers \
               topic-02-libraries topic-03-streaming-wavelet-data topic-04-sparse-tensors \
               topic-05-sentinels topic-06-switches topic-07-switches-entrypt topic-08-filters \
               topic-10-map-builtin topic-11-collectives topic-12-debug-library \
               topic-13-simprint topic-14-color-swap topic-16-queue-flush; do
        for b in func rtl cosim; do
          run "sdk_${t}_$b" bash scripts/sdk_tutorial.sh "$TESSERA_SDK_EXAMPLES/tutorials/$t" \
            "$PWD/$logs/sdk_${t}_$b" "$b"
        done
      done
    fi
    echo "regress: ML layers, the digits trained on the functional model (target 95%)"
    run "ml_train_digits_func" "$tessera" ml train-digits --epochs 10 --target 0.95 \
      --plot "$logs/digits_loss.svg"
    grep -h "test accuracy" "$logs/ml_train_digits_func.log" | sed 's/^/  /'
    ;;
  long)
    if [ -n "${TESSERA_SDK_EXAMPLES:-}" ]; then
      echo "regress: the SDK's tutorials and benchmarks from $TESSERA_SDK_EXAMPLES on func and cosim"
      run "sdk_examples" env BACKENDS="func cosim" bash scripts/sdk_examples.sh \
        "$TESSERA_SDK_EXAMPLES" "$PWD/$logs/sdk_examples"
      grep -h "^PASS\|^REFUSED\|^FAIL\|^sdk_examples" "$logs/sdk_examples.log" | sed 's/^/  /'
    fi
    echo "regress: random <collectives_2d> programs (tests/csl/collectives_random.py)"
    for seed in $(seq 100 299); do
      run "csl_collectives_random_func_s$seed" python3 tests/csl/collectives_random.py \
        --seed "$seed" --bin "$PWD/build/bin" --work "$PWD/$logs/collectives_random/f$seed"
    done
    for seed in $(seq 300 319); do
      run "csl_collectives_random_cosim_s$seed" python3 tests/csl/collectives_random.py \
        --seed "$seed" --bin "$PWD/build/bin" --work "$PWD/$logs/collectives_random/c$seed" \
        --backend cosim
    done
    echo "regress: compute engine, long random-program campaign"
    run "fuzz_all_s1000000_20000" "$tessera" fuzz --seed 1000000 --programs 20000 --backend cosim
    run "fuzz_2x2_s3000000_2000" "$tessera" fuzz --fabric 2x2 --seed 3000000 --programs 2000 \
      --backend cosim
    echo "regress: the kernel library at larger sizes"
    for b in func cosim; do
      kernel "gemv_f32_16x16_$b" gemv "$b" --m 1600 --n 1600 --fabric 16x16
      kernel "gemv_f16_8x8_$b" gemv "$b" --m 1000 --n 1000 --fabric 8x8 --dtype f16
      kernel "allreduce_grid_16x16_$b" allreduce "$b" --along grid --fabric 16x16 --n 1024
      kernel "cg_8x8x64_$b" cg "$b" --nx 8 --ny 8 --nz 64 --tol 1e-6
      kernel "gemm_f32_4x4_128_$b" gemm "$b" --m 128 --n 128 --k 128 --fabric 4x4
      kernel "power_8x8x32_$b" power "$b" --nx 8 --ny 8 --nz 32 --iters 30
      kernel "histogram_8x8_$b" histogram "$b" --n 1024 --bins 1000 --fabric 8x8
      kernel "mandelbrot_8x8_$b" mandelbrot "$b" --m 96 --n 96 --iters 64 --fabric 8x8
      kernel "life_8x8_$b" life "$b" --m 128 --n 128 --iters 16 --fabric 8x8
      kernel "heat2d_8x8_$b" heat2d "$b" --nx 256 --ny 256 --fabric 8x8 --iters 10
      kernel "fft_8x4_$b" fft "$b" --n 4096 --fabric 8x4
    done
    # GEMM at the size of its utilization target on the functional model (cosim of it takes
    # about 15 minutes; the RTL's cycles equal the model's, as the smaller cosim runs check)
    kernel "gemm_f32_8x8_func" gemm func --m 256 --n 256 --k 256 --fabric 8x8
    kernel_table
    echo "regress: ML layers, larger models, every mode in co-simulation, the digits in f16"
    for mode in resident streaming; do
      for dtype in f32 f16; do
        run "ml_mlp_train_${mode}_${dtype}_cosim" "$tessera" ml mlp --layers 64,48,32,10 \
          --batch 16 --pes 8 --mode $mode --dtype $dtype --act gelu --train 2 --backend cosim
      done
    done
    run "ml_mlp_fwd_sparse_cosim" "$tessera" ml mlp --layers 128,128 --pes 4 --sparsity 0.9 \
      --mode streaming --backend cosim
    run "ml_train_digits_f16_streaming" "$tessera" ml train-digits --epochs 10 --dtype f16 \
      --mode streaming --target 0.95
    run "ml_train_digits_gelu_8pes" "$tessera" ml train-digits --epochs 10 --act gelu --pes 8 \
      --layers 64,64,10 --target 0.95
    # Saturating patterns deliver at most one wavelet per cycle at a hotspot, so their rates are
    # kept where the drain stays bounded (hotspot: about 20k wavelets per run).
    echo "regress: long noc co-simulation"
    for p in $patterns; do
      for seed in 11 12 13; do
        rate=0.1; [ "$p" = hotspot ] && rate=0.006
        run "noc_32x32_${p}_s${seed}" "$tessera" noc --fabric 32x32 --pattern "$p" \
          --rate "$rate" --cycles 3000 --seed "$seed" --backend cosim
      done
      for rate in 0.01 0.1 0.3 0.6 1.0; do
        cycles=3000; [ "$p" = hotspot ] && cycles=$(awk -v r="$rate" 'BEGIN { c = 80 / r; print (c > 3000) ? 3000 : int(c) }')
        run "noc_16x16_${p}_r${rate}" "$tessera" noc --fabric 16x16 --pattern "$p" \
          --rate "$rate" --cycles "$cycles" --seed 21 --backend cosim
      done
      run "noc_12x20_tile1x1_${p}" "$tessera" noc --fabric 12x20 --tile 1x1 --pattern "$p" \
        --rate 0.25 --cycles 3000 --seed 22 --backend cosim
    done
    ;;
  *) echo "regress: unknown mode '$mode' (sim or long)" >&2; exit 2 ;;
esac

echo "regress: every shared TestFloat vector file on the RTL FMAC"
shared=${TESSERA_SHARED_DIR:-../shared}
ops=$("$tessera" fpcheck --list-ops)
for f in "$shared"/testfloat/*.tv.gz; do
  stem=$(basename "$f" .tv.gz)
  if grep -qx "$stem" <<< "$ops"; then
    run "fpcheck_rtl_$stem" "$tessera" fpcheck --backend rtl "$f"
  else
    # A file of an operation the FMAC does not implement: listed, not run.
    echo "regress: PENDING fpcheck_rtl_$stem: the FMAC has no $stem yet"
  fi
done

echo "regress ($mode, $((SECONDS - t_start)) s): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
