#!/usr/bin/env bash
# Yosys (the synthesis front end of `make synth`) reads and elaborates the blocks `make synth`
# synthesizes. Seconds, against minutes for `make synth`: the quick tests run it (rtl_yosys_read),
# and so does `make lint`, so that RTL that Yosys 0.23 cannot read (multi-dimensional packed
# arrays, for one) is found at once.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/rtl_sources.sh
rtl_sources_check
# The blocks `make synth` synthesizes, each as it does: the router tile, the FMAC, the CE.
check() {  # name top "sources" [chparam arguments]
  local name=$1 top=$2 srcs=$3 params=${4:-} chparam="" out
  [ -n "$params" ] && chparam="chparam $params $top;"
  out=$(yosys -q -p "read_verilog -sv -DSYNTHESIS -Irtl/pkg -Irtl/prim -Irtl/fmac $srcs;
    $chparam hierarchy -top $top" 2>&1) || {
    echo "yosys: cannot read $name:"; echo "$out" | grep -v '^Warning' | head -20; return 1
  }
  echo "yosys: reads $name"
}
fail=0
check "a 2x2 tile" tessera_tile "$(echo $(rtl_sources pkg pipe link router pe tile))" \
  "-set TileW 2 -set TileH 2" || fail=1
check "the FMAC" tessera_fmac "$(echo $(rtl_sources pkg pipe fmac))" || fail=1
check "the compute engine" tessera_ce "$(echo $(rtl_sources pkg pipe ce))" || fail=1
exit $fail
