#!/usr/bin/env bash
# Runs a checkout of the SDK's public examples unchanged on Tessera and reports each program:
# every tutorial whose commands_wse2.sh calls cslc, and every benchmark that has one. Each runs
# in a copy of its folder (a benchmark with the repository's benchmark-libs beside it), as its
# README says (`bash commands_wse2.sh`), on each backend asked for.
#
#   scripts/sdk_examples.sh SDK_EXAMPLES [WORK_DIR]      (make sim-csl SDK_EXAMPLES=...)
#
# Environment: BACKENDS (default "func"), TIMEOUT seconds per run (default 900), ONLY (a
# grep pattern on "tutorials/NAME" or "benchmarks/NAME").
# A line per program and backend: PASS (its commands exit 0) with the cycles of the session, REFUSED when cslc stops at
# a feature Tessera does not have yet (its message), FAIL otherwise (the last lines of output).
# Exit status 1 if anything failed; a refusal is not a failure.
set -uo pipefail
sdk=${1:?usage: scripts/sdk_examples.sh SDK_EXAMPLES [WORK_DIR]}
work=${2:-build/sdk_examples}
root=$(cd "$(dirname "$0")/.." && pwd)
backends=${BACKENDS:-func}
timeout_s=${TIMEOUT:-900}
if [ ! -d "$sdk/tutorials" ] && [ ! -d "$sdk/benchmarks" ]; then
  echo "sdk_examples: $sdk has neither tutorials/ nor benchmarks/ (is it a checkout of the SDK's examples?)" >&2
  exit 2
fi
for tool in cslc cs_python; do
  if [ ! -x "$root/build/bin/$tool" ]; then
    echo "sdk_examples: $root/build/bin/$tool is missing: build first (make build)" >&2
    exit 2
  fi
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
export PATH=$root/build/bin:$PATH

programs=()
for d in "$sdk"/tutorials/*/ "$sdk"/benchmarks/*/; do
  [ -f "$d/commands_wse2.sh" ] || continue
  grep -q cslc "$d/commands_wse2.sh" || continue
  name=$(basename "$(dirname "$d")")/$(basename "$d")
  if [ -n "${ONLY:-}" ] && ! echo "$name" | grep -q -- "$ONLY"; then continue; fi
  programs+=("$name")
done

pass=0 refused=0 failed=0
for name in "${programs[@]}"; do
  for b in $backends; do
    dir=$work/$b/$name
    rm -rf "$dir"
    mkdir -p "$(dirname "$dir")"
    cp -r "$sdk/$name" "$dir"
    # Benchmarks import ../../benchmark-libs relative to their sources.
    if [ -d "$sdk/benchmarks/benchmark-libs" ] && [ ! -e "$work/$b/benchmarks/benchmark-libs" ]; then
      cp -r "$sdk/benchmarks/benchmark-libs" "$work/$b/benchmarks/"
    fi
    out=$(cd "$dir" && TESSERA_BACKEND=$b TESSERA_PROFILE=1 timeout "$timeout_s" bash commands_wse2.sh 2>&1)
    rc=$?
    printf '%s\n' "$out" > "$dir.log"
    # A program passes when its commands exit 0: run.py checks by assert (some print SUCCESS,
    # some a bandwidth) and exits non-zero when a check fails.
    if [ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -q -E "^FAIL|AssertionError"; then
      cycles=$(printf '%s\n' "$out" | sed -n 's/^profile (counters[^)]*): \([0-9]*\) cycles.*/\1/p' | tail -1)
      printf 'PASS     %-48s %-5s %s cycles\n' "$name" "$b" "${cycles:-?}"
      pass=$((pass + 1))
    elif printf '%s\n' "$out" | grep -q -E "error: .*(not supported|unknown library|unknown builtin|does not implement|comes later|not modelled)"; then
      why=$(printf '%s\n' "$out" | grep -m1 -E "error: " | sed 's/: error: /: /' | cut -c1-120)
      printf 'REFUSED  %-48s %-5s %s\n' "$name" "$b" "$why"
      refused=$((refused + 1))
    else
      [ $rc -eq 124 ] && why="timed out after ${timeout_s} s" || why="exit status $rc"
      printf 'FAIL     %-48s %-5s %s (log: %s.log)\n' "$name" "$b" "$why" "$dir"
      printf '%s\n' "$out" | tail -n 4 | sed 's/^/           /'
      failed=$((failed + 1))
    fi
  done
done
echo "sdk_examples: $pass passed, $refused refused (features Tessera does not have yet), $failed failed"
[ $failed -eq 0 ]
