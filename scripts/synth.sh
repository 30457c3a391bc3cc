#!/usr/bin/env bash
# `make synth`: synthesizes the router, a 2x2 tile and the FMAC with Yosys (generic gates) and
# prints cells and flip-flops, per router for the tile. Logs go to build/synth/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/synth
mkdir -p "$out"

. scripts/rtl_sources.sh
rtl_sources_check
router_srcs=$(rtl_sources pkg pipe router)
tile_srcs=$(rtl_sources pkg pipe link router pe tile)
fmac_srcs=$(rtl_sources pkg pipe fmac)
ce_srcs=$(rtl_sources pkg pipe ce)

# Blocks are synthesized hierarchically: each module once (the PEs of a tile are identical, their
# coordinates are constant ports), totals counted over the hierarchy. chparam derives a renamed
# top ($paramod...); `rename -top` gives it its name back for `stat -top`.
synth() {  # name top "sources" [chparam...]
  local name=$1 top=$2 srcs; srcs=$(echo $3); shift 3
  local params=""
  for p in "$@"; do params="$params -set ${p%=*} ${p#*=}"; done
  local chparam=""
  [ -n "$params" ] && chparam="chparam $params $top;"
  local t0=$SECONDS
  yosys -q -l "$out/$name.log" -p "read_verilog -sv -DSYNTHESIS -Irtl/pkg -Irtl/prim $srcs;
    $chparam synth -top $top; rename -top $top; tee -o $out/$name.stat stat -top $top" \
    >/dev/null 2>&1 || { echo "synth: $name failed, see $out/$name.log" >&2; return 1; }
  local cells ffs
  # The last block of `stat -top` is the whole design with its hierarchy expanded.
  local total
  total=$(awk '/design hierarchy/ {f=1} f' "$out/$name.stat")
  cells=$(echo "$total" | awk '/Number of cells:/ {n=$4} END {print n}')
  ffs=$(echo "$total" | awk '/\$_(S?DFF|DFFE|SDFFE|SDFFCE|DLATCH)[A-Z0-9_]*_/ {n+=$2} END {print n+0}')
  echo "$name $cells $ffs $((SECONDS - t0))"
}

results="$out/results.txt"
: > "$results"
synth router tessera_router "$router_srcs" >> "$results"
synth tile_2x2 tessera_tile "$tile_srcs" TileW=2 TileH=2 >> "$results"
synth fmac tessera_fmac "$fmac_srcs" >> "$results"
# The CE without its SRAM (a memory macro in silicon; 48 KiB of flip-flops would swamp Yosys).
synth ce tessera_ce "$ce_srcs" >> "$results"

printf "%-22s %10s %12s %12s %8s\n" block cells flip-flops "per router" seconds
while read -r name cells ffs secs; do
  per=""
  case $name in
    router) per="$cells / $ffs" ;;
    tile_2x2) per="$((cells / 4)) / $((ffs / 4))" ;;
  esac
  printf "%-22s %10s %12s %12s %8s\n" "$name" "$cells" "$ffs" "$per" "$secs"
done < "$results"
echo "(per router: cells / flip-flops; logs in $out/)"
