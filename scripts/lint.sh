#!/usr/bin/env bash
# `make lint`: Verilator -Wall on all RTL (every top, tiles in several shapes) and clang-format on
# the C++ sources. Prints what is wrong and exits non-zero if anything is.
set -uo pipefail
cd "$(dirname "$0")/.."
fail=0

. scripts/rtl_sources.sh
rtl_sources_check || fail=1
tile_srcs=$(rtl_sources pkg pipe link router pe tile)
fmac_srcs=$(rtl_sources pkg pipe fmac)
pe_srcs=$(rtl_sources pkg pipe link router pe fmac ce mem)

lint() {  # name, args...
  local name=$1; shift
  local out
  out=$(verilator --lint-only -Wall --no-timing -Irtl/pkg -Irtl/prim "$@" 2>&1)
  if [ -n "$out" ]; then
    echo "lint: $name: verilator warnings"; echo "$out" | head -40; fail=1
  else
    echo "lint: $name: clean"
  fi
}
for shape in "1 1" "2 2" "4 4" "3 2"; do
  set -- $shape
  lint "tessera_tile ${1}x${2}" rtl/tessera.vlt $tile_srcs --top-module tessera_tile \
    -GTileW=$1 -GTileH=$2
done
lint "tessera_fmac" rtl/fmac/fmac.vlt -Irtl/fmac $fmac_srcs --top-module tessera_fmac
lint "tessera_pe with CE" rtl/tessera.vlt rtl/fmac/fmac.vlt -Irtl/fmac $pe_srcs \
  --top-module tessera_pe -GHasCe=1
lint "tessera_tile 2x2 with CEs" rtl/tessera.vlt rtl/fmac/fmac.vlt -Irtl/fmac \
  $pe_srcs rtl/tile/tessera_tile.sv --top-module tessera_tile -GTileW=2 -GTileH=2 -GHasCe=1

bash scripts/yosys_read.sh || fail=1

cxx=$(git ls-files '*.cpp' '*.h' | grep -v -e '^model/arch/arch.h$' -e '^model/arch/isa_table.h$')
bad=$(clang-format --dry-run --Werror $cxx 2>&1 | grep -o '^[^:]*:[0-9]*:[0-9]*: error' | cut -d: -f1 | sort -u)
if [ -n "$bad" ]; then
  echo "lint: clang-format: these files need 'make format':"; echo "$bad" | sed 's/^/  /'; fail=1
else
  echo "lint: clang-format: clean ($(echo "$cxx" | wc -w) files)"
fi
exit $fail
