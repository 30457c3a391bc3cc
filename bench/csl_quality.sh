#!/usr/bin/env bash
# The quality of cslc's code and its speed (docs/csl.md, "Generated code"):
#  1. the cycles of a GEMV written in CSL (bench/csl_gemv: the dataflow of the library's
#     hand-written kernel, firmware/kernels/gemv/gemv.s) against `tessera kernel gemv` on the
#     same sizes and fabric, as a ratio (aim: within 1.25x); cycles do not depend on the machine;
#  2. the compile time of cslc per program (tests/csl, and the SDK's tutorials when
#     TESSERA_SDK_EXAMPLES names a copy of sdk-examples): the median of 3 runs, in milliseconds
#     of wall time (these swing with the machine's load; compare within one run). A tutorial
#     that uses what part 2 brings (switches, FIFOs, filters, ...) prints "refused".
# Usage: bench/csl_quality.sh [BUILD_DIR]   (default build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH=$build/bin:$PATH

echo "GEMV cycles, CSL (bench/csl_gemv) against the hand-written kernel (tessera kernel gemv):"
printf '  %-22s %10s %10s %7s\n' "size on fabric" CSL kernel ratio
for cfg in "256 256 4 4" "512 256 4 4" "128 128 2 2"; do
  set -- $cfg
  m=$1 n=$2 q=$3 p=$4
  mb=$(( (m + p - 1) / p )); mb=$(( (mb + 3) / 4 * 4 ))
  nb=$(( (n + q - 1) / q )); nb=$(( (nb + 1) / 2 * 2 ))
  (cd "$tmp" && rm -rf out &&
    cslc "$root/bench/csl_gemv/layout.csl" --memcpy --fabric-offsets=4,1 \
      --params=Q:$q,P:$p,MB:$mb,NB:$nb -o out > /dev/null)
  csl=$(cd "$tmp" && cs_python "$root/bench/csl_gemv/run.py" --name out --m "$m" --n "$n" |
        sed -n 's/.*"cycles": \([0-9]*\).*/\1/p')
  ker=$(tessera kernel gemv --m "$m" --n "$n" --fabric "${q}x${p}" --json | tail -n 1 |
        sed -n 's/.*"cycles":\([0-9]*\).*/\1/p')
  awk -v s="${m}x${n} on ${q}x${p}" -v a="$csl" -v b="$ker" \
    'BEGIN { printf "  %-22s %10d %10d %6.2fx\n", s, a, b, a / b }'
done

# compile_ms DIR ARGS...: the median wall time of 3 compiles, in ms.
compile_ms() {
  local dir=$1; shift
  local t=()
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s%N)
    (cd "$tmp" && rm -rf out && cslc "$dir/layout.csl" -o out "$@" > /dev/null)
    t1=$(date +%s%N)
    t+=($(( (t1 - t0) / 1000000 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}
echo "cslc compile time (median of 3, ms of wall time):"
s="--params=MEMCPYH2D_DATA_1_ID:0,MEMCPYD2H_DATA_1_ID:1"
for t in scalar dsd tasks memcpy; do
  args="--memcpy --fabric-offsets=4,1"
  case $t in tasks|memcpy) args="$args $s" ;; esac
  # shellcheck disable=SC2086
  printf '  %-34s %6s\n' "tests/csl/$t" "$(compile_ms "$root/tests/csl/$t" $args)"
done
if [ -n "${TESSERA_SDK_EXAMPLES:-}" ]; then
  for d in "$TESSERA_SDK_EXAMPLES"/tutorials/*/; do
    cmd="$d/commands_wse2.sh"
    [ -f "$cmd" ] || continue
    # The tutorial's own cslc line, run in a copy of its folder.
    rm -rf "$tmp/tut" && cp -r "$d" "$tmp/tut"
    line=$(sed -n '/^cslc/,/[^\\]$/p' "$cmd" | tr -d '\\\n')
    [ -n "$line" ] || continue  # not a cslc program (the sdklayout tutorials use Python)
    t=()
    for _ in 1 2 3; do
      t0=$(date +%s%N)
      (cd "$tmp/tut" && eval "$line" > /dev/null 2>&1) || { t=(refused refused refused); break; }
      t1=$(date +%s%N)
      t+=($(( (t1 - t0) / 1000000 )))
    done
    printf '  %-34s %6s\n' "$(basename "$d")" "$(printf '%s\n' "${t[@]}" | sort -n | sed -n 2p)"
  done
fi
