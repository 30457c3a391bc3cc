// Address decode of the CE's memory-mapped registers (docs/isa.md 3.2): which register an
// address names, and whether the CE may load or store it. Purely combinational; the engine
// (tessera_ce) owns the registers themselves.
module tessera_ce_mmio (
  input  logic [15:0] addr_i,
  output logic        valid_o,      // a listed register (word aligned)
  output logic        ro_o,         // a CE store faults (ReadOnly)
  output logic        host_only_o,  // a CE access faults (MmioAccess)
  output logic        router_o,     // the router's: ColorCfg, SwitchCfg, RouterFault, RouterInCount
  output logic [4:0]  index_o       // element of a register array
);
  `include "tessera_pkg_use.svh"

  // True when addr_i is element 0..Count-1 of an array at Base with a 4-byte stride.
  function automatic logic in_array(input logic [15:0] a, input logic [15:0] base,
                                    input int unsigned count);
    in_array = a >= base && 32'(a) < 32'(base) + 4 * count && a[1:0] == 2'b00;
  endfunction

  logic [15:0] off;
  always_comb begin
    valid_o     = 1'b0;
    ro_o        = 1'b0;
    host_only_o = 1'b0;
    router_o    = 1'b0;
    index_o     = '0;
    off         = '0;
    unique case (addr_i)
      PeCoordAddr, FabricDimAddr, CeStatusAddr, CycleLoAddr, CycleHiAddr: begin
        valid_o = 1'b1;
        ro_o    = 1'b1;
      end
      FaultStatusAddr, FaultPcAddr, FaultAddrAddr, FaultInfoAddr: begin
        valid_o = 1'b1;
        ro_o    = 1'b1;
      end
      FpFlagsAddr, TaskActiveAddr, TaskActiveSetAddr, TaskActiveClrAddr, TaskBlockedAddr,
      TaskBlockSetAddr, TaskBlockClrAddr: valid_o = 1'b1;
      RouterFaultAddr: begin
        valid_o  = 1'b1;
        router_o = 1'b1;
      end
      CePcAddr: begin
        valid_o     = 1'b1;
        host_only_o = 1'b1;
      end
      default: begin
        if (in_array(addr_i, DebugPortAddr, DebugPortCount)) begin
          valid_o = 1'b1;
          off     = addr_i - DebugPortAddr;
        end else if (in_array(addr_i, CeColorAddr, CeColorCount)) begin
          valid_o = 1'b1;
          ro_o    = 1'b1;
          off     = addr_i - CeColorAddr;
        end else if (in_array(addr_i, ColorCfgAddr, ColorCfgCount)
                     || in_array(addr_i, SwitchCfgAddr, SwitchCfgCount)) begin
          valid_o  = 1'b1;
          router_o = 1'b1;
        end else if (in_array(addr_i, RouterInCountAddr, RouterInCountCount)) begin
          valid_o     = 1'b1;
          host_only_o = 1'b1;
          router_o    = 1'b1;
        end else if (in_array(addr_i, UtStatusAddr, UtStatusCount)) begin
          valid_o = 1'b1;
          ro_o    = 1'b1;
          off     = addr_i - UtStatusAddr;
        end else if (in_array(addr_i, UtInfoAddr, UtInfoCount)) begin
          valid_o = 1'b1;
          ro_o    = 1'b1;
          off     = addr_i - UtInfoAddr;
        end else if (in_array(addr_i, TaskCfgAddr, TaskCfgCount)) begin
          valid_o = 1'b1;
          off     = addr_i - TaskCfgAddr;
          ro_o    = off[6:2] == 5'(NoTask);
        end else if (in_array(addr_i, TaskArgAddr, TaskArgCount)) begin
          valid_o = 1'b1;
          off     = addr_i - TaskArgAddr;
          ro_o    = off[6:2] == 5'(NoTask);
        end else if (in_array(addr_i, GprAddr, GprCount)) begin
          valid_o     = 1'b1;
          host_only_o = 1'b1;
          off         = addr_i - GprAddr;
        end else if (in_array(addr_i, DsrAddr, DsrCount)) begin
          valid_o     = 1'b1;
          host_only_o = 1'b1;
          off         = addr_i - DsrAddr;
        end
      end
    endcase
    index_o = off[6:2];
  end

  logic unused_off;
  assign unused_off = ^{off[15:7], off[1:0]};
endmodule
