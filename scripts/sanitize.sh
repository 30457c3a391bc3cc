#!/usr/bin/env bash
# `make sanitize` (docs/testing.md, "Sanitizers"): builds Tessera with AddressSanitizer and
# UndefinedBehaviorSanitizer in its own folder (the verilated models stay uninstrumented, see
# CMakeLists.txt), then runs, with every finding fatal: the quick tests (the tutorials on cosim
# among them), short random-program campaigns on one PE and on 2x2, and a short noc cosim.
# Usage: scripts/sanitize.sh [BUILD_DIR]   (default build-sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-sanitize}
jobs=$(nproc)
# Paths relative to the project, so that ccache serves the verilated models compiled for build/.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_SANITIZE=ON -DTESSERA_PYTHON=OFF >/dev/null
cmake --build "$build" -j "$jobs"
# halt_on_error: the first finding stops the process with a non-zero status. SystemC keeps its
# kernel alive until exit; scripts/lsan.supp lists what LeakSanitizer may ignore and why.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=0
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
t0=$SECONDS
(cd "$build" && ctest --output-on-failure -j "$jobs" -L quick)
tessera=$build/bin/tessera
"$tessera" fuzz --seed 7 --programs 300 --backend cosim
"$tessera" fuzz --fabric 2x2 --seed 8 --programs 60 --backend cosim
"$tessera" noc --fabric 4x4 --pattern uniform --rate 0.2 --cycles 500 --backend cosim
echo "sanitize: clean (tests, fuzz campaigns and noc cosim in $((SECONDS - t0)) s)"
