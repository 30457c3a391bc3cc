#!/usr/bin/env bash
# `make fuzz` (tests/fuzz/README.md): builds the libFuzzer targets of every parser of user input
# with clang, AddressSanitizer and UBSan (build-fuzz/), seeds a corpus per target from the
# project's own files, writes dictionaries of each language's keywords, and runs each target for
# FUZZ_SECONDS (default 30). A crash, a sanitizer finding, a time-out (30 s per input), a single
# allocation above 1 GB or more than 2 GB resident fails it and leaves the reproducer in
# build-fuzz/findings/TARGET/.
# Usage: FUZZ_SECONDS=600 scripts/fuzz.sh [TARGET...]   (default: all; one run at a time: the
# seeds and dictionaries are rewritten at the start)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FUZZ_BUILD:-build-fuzz}
secs=${FUZZ_SECONDS:-30}
targets=${*:-asm object layout image npy testfloat csl}
CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_FUZZ=ON >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null

seeds=$build/seeds
dict=$build/dict
rm -rf "$seeds" "$dict"
mkdir -p "$seeds" "$dict"
for t in asm object layout image npy testfloat csl; do
  mkdir -p "$seeds/$t" "$build/corpus/$t" "$build/findings/$t"
done
copy() {  # target, files...
  local t=$1; shift
  local f
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$seeds/$t/$(echo "$f" | tr '/' '_')"; done
  return 0
}
copy asm $(git ls-files '*.s')
copy object $(git ls-files '*.tobj') tests/fuzz/seeds/object/*
copy layout $(git ls-files '*.tlayout')
copy image tests/fuzz/seeds/image/*
copy npy $(git ls-files '*.npy')
copy csl $(git ls-files '*.csl') tests/fuzz/seeds/csl/*
shared=${TESSERA_SHARED_DIR:-../shared}
ops=(f32_add f32_mulAdd f16_sqrt i32_to_f32 f32_to_i32_rminMag f16_mulAdd f32_div f16_to_f32)
for i in "${!ops[@]}"; do
  f=$shared/testfloat/${ops[$i]}.tv.gz
  [ -f "$f" ] || continue
  lines=$(zcat "$f" | head -n 40 || true)  # head closes the pipe early: not an error
  { printf "\\x$(printf %02x "$i")"; echo "$lines"; } > "$seeds/testfloat/${ops[$i]}"
  { printf "\\x$(printf %02x "$i")"; echo "$lines" | gzip -c; } > "$seeds/testfloat/${ops[$i]}.gz"
done

# Dictionaries: the keywords of each language, from the instruction table where there is one.
words() {  # file, words...
  local f=$1; shift
  local w
  for w in "$@"; do printf '"%s"\n' "$w" >> "$f"; done
}
awk '$1 == "insn" || $1 == "pseudo" { print "\"" $2 "\"" } $1 == "alias" { print "\"" $2 "\"" }' \
  model/arch/isa.def | sort -u > "$dict/asm.dict"
words "$dict/asm.dict" .text .data .bss .align .space .word .half .byte .f32 .f16 .equ .param \
  .global .export .task .dsd .macro .endm .if .elif .else .endif .rept .endr .include local data \
  control mem1d mem4d fabin fabout f32 f16 i32 u32 i16 u16 base= len= stride= color= len1= \
  stride1= len2= len3= async activate unblock ut0 ut7 r0 r15 d0 d15 wv sp lr lo\( hi\( f32\( id\( \
  CtrlNone PeCoord FabricDim
words "$dict/object.dict" tessera-object source section symbol param task dsd reloc line local \
  global export align size .text .data .bss U16 S16 PC16 HI16 LO16 U5 TID5 W32 H16 B8 DBASE \
  DLEN DSTRIDE DCOLOR data control f32 u32
words "$dict/layout.dict" fabric include let for in end region route at= size= program= param \
  when= color= rx= tx= pos1= pos2= pos3= ring RAMP N E S W FW FH x y .. a.s b.s
words "$dict/image.dict" tessera-image fabric program sources params end task symbol pe endpe \
  route rx tx switch local data control .text .data .bss export programs pes
words "$dict/csl.dict" const var param fn task export extern inline comptime layout if else \
  for while return break continue switch struct enum true false and or undefined align \
  @get_dsd @range @as @import_module @set_tile_code @set_rectangle mem1d_dsd fabin_dsd \
  fabout_dsd .{ .* '|i|' '->' '=>' i16 u16 i32 u32 f16 f32 bool void
words "$dict/npy.dict" '\x93NUMPY' "'descr'" "'fortran_order'" "'shape'" "'<f4'" "'<i4'" \
  "'<u4'" "'<f2'" "'<i2'" "'<u2'" True False '(' ')' ','

failed=0
printf 'fuzz: %-10s %12s %10s %8s %8s\n' target runs exec/s cov ft
for t in $targets; do
  log=$build/findings/$t.log
  d=""
  [ -f "$dict/$t.dict" ] && d="-dict=$dict/$t.dict"
  if "$build/bin/fuzz_$t" "$build/corpus/$t" "$seeds/$t" $d -max_total_time="$secs" -timeout=30 \
      -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$build/findings/$t/" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    printf 'fuzz: %-10s %12s %10s %8s %8s\n' "$t" "$runs" "$eps" "$cov" "$ft"
  else
    failed=1
    echo "fuzz: FAIL $t: a finding; the reproducer is in $build/findings/$t/ (run" \
      "$build/bin/fuzz_$t FILE to see it); the log is $log"
    grep -m 5 -E 'ERROR|SUMMARY|deadly|Timeout|out-of-memory' "$log" | sed 's/^/      /'
  fi
done
exit $failed
