// Address decode of the CE's memory-mapped registers (docs/isa.md 3.2): which register an
// address names, which element of an array, and whether the CE may load or store it. Purely
// combinational; the engine (tessera_ce) owns the registers themselves. The decode is generated
// from the `reg` lines of model/arch/tessera.def (rtl/pkg/tessera_mmio.svh), as is the C++
// register table, so the two cannot drift.
module tessera_ce_mmio (
  input  logic [15:0]               addr_i,
  output logic                      valid_o,      // a listed register (word aligned)
  output tessera_pkg::mmio_reg_e    reg_o,        // which one (valid_o)
  output logic [4:0]                index_o,      // element of a register array
  output logic                      ro_o,         // a CE store faults (ReadOnly)
  output logic                      host_only_o,  // a CE access faults (MmioAccess)
  output logic                      router_o      // the router holds it
);
  `include "tessera_pkg_use.svh"

  logic [15:0] off;  // byte offset within an array
  always_comb begin
    `include "tessera_mmio.svh"
    index_o = off[6:2];
  end

  logic unused_off;
  assign unused_off = ^{off[15:7], off[1:0]};
endmodule
