# The FMAC datapath (rtl/fmac, docs/fmac.md): verilated as Vtessera_fmac into the shared model
# library ${TESSERA_VMODELS}. Included from rtl/CMakeLists.txt; the FpBackend that drives it is
# testbench/fmac (tessera_tb_fmac).
#
# -I rtl/fmac lets `include "../prim/tessera_assert.svh"` resolve the same way for Verilator as
# for Yosys (which looks beside the including file). fmac.vlt holds the lint waivers.
set(TESSERA_FMAC_RTL
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_lzc.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_shr_jam.sv
  ${CMAKE_SOURCE_DIR}/rtl/prim/tessera_pipe.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_classify.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_unpack.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_round.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_fma.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_noncomp.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac_cvt.sv
  ${CMAKE_SOURCE_DIR}/rtl/fmac/tessera_fmac.sv
)

verilate(${TESSERA_VMODELS}
  SOURCES
    ${CMAKE_SOURCE_DIR}/rtl/fmac/fmac.vlt
    ${CMAKE_SOURCE_DIR}/rtl/pkg/tessera_pkg.sv
    ${TESSERA_FMAC_RTL}
  TOP_MODULE tessera_fmac
  PREFIX Vtessera_fmac
  VERILATOR_ARGS --no-timing --assert -Wall -Wno-fatal -I${CMAKE_SOURCE_DIR}/rtl/fmac
)
