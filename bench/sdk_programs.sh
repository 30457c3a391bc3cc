#!/usr/bin/env bash
# Simulated PE-cycles per second of the SDK's larger programs, unchanged, on func and rtl
# (issue 38). Each program of a user's checkout of the SDK's examples is compiled once by cslc
# and run by cs_python (`commands_wse2.sh`) on each backend, with TESSERA_STATS: the seconds
# from SdkRuntime() to stop(), so the model's construction and every host command count, as a
# user sees them. Wall-clock seconds on a shared machine swing by 20% or more: read the rtl/func
# ratio of one run, not the absolute rates.
#
#   bench/sdk_programs.sh SDK_EXAMPLES [BUILD_DIR]     (default build)
#
# Environment: PROGRAMS (default: the larger passing ones below), BACKENDS (default "func rtl").
set -euo pipefail
sdk=${1:?usage: bench/sdk_programs.sh SDK_EXAMPLES [BUILD_DIR]}
build=$(cd "${2:-build}" && pwd)
programs=${PROGRAMS:-"benchmarks/mandelbrot benchmarks/wide-multiplication benchmarks/residual benchmarks/gemv-checkerboard-pattern benchmarks/fft-1d-2d benchmarks/single-tile-matvec benchmarks/gemm-collectives_2d benchmarks/gemv-collectives_2d tutorials/topic-02-libraries tutorials/topic-09-fifos tutorials/topic-11-collectives tutorials/topic-13-simprint tutorials/topic-16-queue-flush"}
backends=${BACKENDS:-func rtl}
for tool in cslc cs_python; do
  [ -x "$build/bin/$tool" ] || { echo "sdk_programs: $build/bin/$tool is missing (make build)" >&2; exit 2; }
done
export PATH=$build/bin:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -d "$sdk/benchmarks/benchmark-libs" ] && mkdir -p "$tmp/benchmarks" &&
  cp -r "$sdk/benchmarks/benchmark-libs" "$tmp/benchmarks/"

printf '%-36s %-7s %9s %6s %9s %14s %10s\n' program backend cycles PEs seconds "PE-cycles/s" "vs func"
for name in $programs; do
  [ -f "$sdk/$name/commands_wse2.sh" ] || { echo "sdk_programs: $sdk/$name/commands_wse2.sh is missing" >&2; exit 2; }
  dir=$tmp/$name
  mkdir -p "$(dirname "$dir")"
  cp -r "$sdk/$name" "$dir"
  # compile once: the commands up to cs_python
  (cd "$dir" && bash -c "set -e; $(sed '/cs_python/,$d' commands_wse2.sh)") > "$dir.compile.log" 2>&1 ||
    { echo "sdk_programs: $name does not compile (see below)" >&2; tail -n 5 "$dir.compile.log" >&2; exit 1; }
  run=$(grep -m1 'cs_python' "$dir/commands_wse2.sh")
  base=
  for b in $backends; do
    if ! (cd "$dir" && TESSERA_BACKEND=$b TESSERA_STATS="$tmp/stats.json" bash -c "$run") > "$dir.$b.log" 2>&1 ||
       ! grep -q SUCCESS "$dir.$b.log"; then
      echo "sdk_programs: $name on $b did not pass:" >&2
      tail -n 5 "$dir.$b.log" >&2
      exit 1
    fi
    read -r cycles pes seconds rate < <(python3 -c "import json; s = json.load(open('$tmp/stats.json')); print(s['cycles'], s['pes'], s['seconds'], s['pe_cycles_per_second'])")
    [ -z "$base" ] && base=$rate
    printf '%-36s %-7s %9d %6d %9.3f %14d %9.3fx\n' "$name" "$b" "$cycles" "$pes" "$seconds" "$rate" \
      "$(awk -v r="$rate" -v b="$base" 'BEGIN { print r / b }')"
  done
done
