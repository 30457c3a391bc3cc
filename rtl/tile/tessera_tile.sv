// A TileW x TileH block of PEs, verilated once per shape; fabrics of any size are built at run
// time from tiles joined at their edge links (model/rtl). Every signal that leaves the tile is a
// register output, so tiles can be stepped independently and joined through plain copies; the
// exceptions (register read data, the observers) feed no other tile. The observers of what
// happens within a cycle (ramp_sent_o, dbg_o, event_o, blocked_o) are registered too, so the
// fabric reads everything after the clock edge and evaluates a tile once per cycle
// (docs/performance.md). The cycle count comes in (cycle_i) so that an idle tile (quiet CEs, no
// wavelet inside or arriving) can be left unclocked: its state is the state clocking would give.
// The tile also counts its enabled edges from the last cycle_i it was given, so the fabric
// changes cycle_i only where that count is wrong (after cycles it did not clock the tile): a
// tile whose inputs stay the same from one cycle to the next can then be evaluated without the
// input-combinational region of its verilated model (model/rtl/vtile.h).
//
// Port words are padded for cheap access from C++: one link per 64 bits (link_t
// in bits 38:0), one credit per 8 bits (credit_t in bits 5:0). Side ports are indexed along the
// side: west/east by row, north/south by column. Per-PE ports are indexed y * TileW + x.
module tessera_tile #(
  parameter int unsigned TileW = 1,
  parameter int unsigned TileH = 1,
  parameter int unsigned HasCe = 0,  // 1: full PEs (router, CE, SRAM, FMAC); ramp ports unused
  localparam int unsigned NumPe = TileW * TileH
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // 0 freezes the tile: nothing moves and only register-bus writes take effect, so the host
  // can load routes through the bus in zero simulated time
  input  logic                  en_i,
  input  logic [15:0]           x0_i,  // fabric coordinates of the tile's north-west PE
  input  logic [15:0]           y0_i,
  // enabled cycles so far: the cycle about to be clocked, or the same value as at the last edge
  // (the tile then counts on from there; the fabric's cycles only grow)
  input  logic [47:0]           cycle_i,
  input  logic [TileH*64-1:0]   w_in_i,
  output logic [TileH*64-1:0]   w_out_o,
  input  logic [TileH*8-1:0]    w_cin_i,
  output logic [TileH*8-1:0]    w_cout_o,
  input  logic [TileH-1:0]      w_tied_i,
  input  logic [TileH*64-1:0]   e_in_i,
  output logic [TileH*64-1:0]   e_out_o,
  input  logic [TileH*8-1:0]    e_cin_i,
  output logic [TileH*8-1:0]    e_cout_o,
  input  logic [TileH-1:0]      e_tied_i,
  input  logic [TileW*64-1:0]   n_in_i,
  output logic [TileW*64-1:0]   n_out_o,
  input  logic [TileW*8-1:0]    n_cin_i,
  output logic [TileW*8-1:0]    n_cout_o,
  input  logic [TileW-1:0]      n_tied_i,
  input  logic [TileW*64-1:0]   s_in_i,
  output logic [TileW*64-1:0]   s_out_o,
  input  logic [TileW*8-1:0]    s_cin_i,
  output logic [TileW*8-1:0]    s_cout_o,
  input  logic [TileW-1:0]      s_tied_i,
  // the CE side of every PE's ramp
  input  logic [NumPe*64-1:0]   ramp_in_i,
  output logic [NumPe*64-1:0]   ramp_out_o,
  input  logic [NumPe*8-1:0]    ramp_cin_i,
  output logic [NumPe*8-1:0]    ramp_cout_o,
  // per PE, registered at the clock edge: the word the CE side sent into the ramp in the cycle
  // (with HasCe the CE's, which drives the ramp inside the PE; else ramp_in_i)
  output logic [NumPe*64-1:0]   ramp_sent_o,
  // register bus: one PE at a time
  input  logic                  cfg_we_i,
  input  logic [15:0]           cfg_pe_i,
  input  logic [15:0]           cfg_addr_i,
  input  logic [31:0]           cfg_wdata_i,
  output logic [31:0]           cfg_rdata_o,
  output logic [NumPe-1:0]      fault_o,
  // per PE, after the clock edge: a wavelet is in its router's queues or output registers
  // (links included) or in its ramp either way (Fabric::WaveletsInFlight)
  output logic [NumPe-1:0]      busy_o,
  // per PE, registered at the clock edge from the cycle it ends (HasCe only): a debug-port
  // record {valid at 63, DebugFmt at 34:32, value at 31:0}; CE events {retire at 31, task start
  // at 30, task at 28:24, retire pc at 15:0}; and after the edge, CeStatus.Quiet and Settled
  output logic [NumPe*64-1:0]   dbg_o,
  output logic [NumPe*32-1:0]   event_o,
  output logic [NumPe-1:0]      quiet_o,
  output logic [NumPe-1:0]      settled_o,
  // per PE, registered at the clock edge from the cycle it ends: its router's back pressure, one
  // 32-bit word per output direction W, E, S, N, RAMP holding a mask of colors
  // (tessera_router blocked_o)
  output logic [NumPe*tessera_pkg::NumDirs*32-1:0] blocked_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned LW = LinkBits;
  localparam int unsigned CB = CreditBits;
  localparam int unsigned EW = NumEdgeDirs;
  localparam int unsigned PeIdxW = (NumPe > 1) ? $clog2(NumPe) : 1;

  // The cycle about to be clocked: cycle_i where it changed since the last edge, else the count.
  logic [47:0] cycle, cyc_d, cyc_q, cyc_in_q;
  assign cycle = (cycle_i != cyc_in_q) ? cycle_i : cyc_q;
  assign cyc_d = cycle + 48'(en_i);

  // Every PE's edge ports, in direction order W, E, S, N.
  logic [EW*LW-1:0] pe_in   [NumPe];
  logic [EW*LW-1:0] pe_out  [NumPe];
  logic [EW*CB-1:0] pe_cin  [NumPe];
  logic [EW*CB-1:0] pe_cout [NumPe];
  logic [EW-1:0]    pe_tied [NumPe];
  logic [31:0]      pe_rdata[NumPe];

  // The observers of the cycle, before the edge; registered below (zero in a frozen cycle).
  logic [NumPe*64-1:0]          sent_d, sent_q, dbg_d, dbg_q;
  logic [NumPe*32-1:0]          event_d, event_q;
  logic [NumPe*NumDirs*32-1:0]  blocked_d, blocked_q;

  for (genvar y = 0; y < TileH; y++) begin : g_row
    for (genvar x = 0; x < TileW; x++) begin : g_col
      localparam int unsigned I = y * TileW + x;

      // West port: the tile edge or the east port of the PE to the west; and so on.
      if (x == 0) begin : g_w_edge
        assign pe_in[I][0*LW +: LW]  = w_in_i[y*64 +: LW];
        assign pe_cin[I][0*CB +: CB] = w_cin_i[y*8 +: CB];
        assign pe_tied[I][0]         = w_tied_i[y];
      end else begin : g_w_link
        assign pe_in[I][0*LW +: LW]  = pe_out[I-1][1*LW +: LW];
        assign pe_cin[I][0*CB +: CB] = pe_cout[I-1][1*CB +: CB];
        assign pe_tied[I][0]         = 1'b0;
      end
      if (x == TileW - 1) begin : g_e_edge
        assign pe_in[I][1*LW +: LW]  = e_in_i[y*64 +: LW];
        assign pe_cin[I][1*CB +: CB] = e_cin_i[y*8 +: CB];
        assign pe_tied[I][1]         = e_tied_i[y];
      end else begin : g_e_link
        assign pe_in[I][1*LW +: LW]  = pe_out[I+1][0*LW +: LW];
        assign pe_cin[I][1*CB +: CB] = pe_cout[I+1][0*CB +: CB];
        assign pe_tied[I][1]         = 1'b0;
      end
      if (y == TileH - 1) begin : g_s_edge
        assign pe_in[I][2*LW +: LW]  = s_in_i[x*64 +: LW];
        assign pe_cin[I][2*CB +: CB] = s_cin_i[x*8 +: CB];
        assign pe_tied[I][2]         = s_tied_i[x];
      end else begin : g_s_link
        assign pe_in[I][2*LW +: LW]  = pe_out[I+TileW][3*LW +: LW];
        assign pe_cin[I][2*CB +: CB] = pe_cout[I+TileW][3*CB +: CB];
        assign pe_tied[I][2]         = 1'b0;
      end
      if (y == 0) begin : g_n_edge
        assign pe_in[I][3*LW +: LW]  = n_in_i[x*64 +: LW];
        assign pe_cin[I][3*CB +: CB] = n_cin_i[x*8 +: CB];
        assign pe_tied[I][3]         = n_tied_i[x];
      end else begin : g_n_link
        assign pe_in[I][3*LW +: LW]  = pe_out[I-TileW][2*LW +: LW];
        assign pe_cin[I][3*CB +: CB] = pe_cout[I-TileW][2*CB +: CB];
        assign pe_tied[I][3]         = 1'b0;
      end

      link_t   ramp_out, ramp_sent;
      credit_t ramp_cout;

      // Router-only PEs (HasCe = 0) have no debug port; these outputs are constant.
      logic        pe_dbg_valid, pe_quiet, pe_settled;
      logic [2:0]  pe_dbg_fmt;
      logic [31:0] pe_dbg_value;
      logic        pe_retire, pe_task_start;
      logic [15:0] pe_retire_pc;
      logic [4:0]  pe_task_id;
      logic [NumDirs*NumColors-1:0] pe_blocked;

      tessera_pe #(.HasCe(HasCe)) u_pe (
        .clk_i, .rst_ni, .en_i,
        .x_i          (x0_i + 16'(x)),
        .y_i          (y0_i + 16'(y)),
        .cycle_i      (cycle),
        .edge_in_i    (pe_in[I]),
        .edge_out_o   (pe_out[I]),
        .edge_credit_i(pe_cin[I]),
        .edge_credit_o(pe_cout[I]),
        .tied_i       (pe_tied[I]),
        .ramp_in_i    (ramp_in_i[I*64 +: LW]),
        .ramp_out_o   (ramp_out),
        .ramp_credit_i(ramp_cin_i[I*8 +: CB]),
        .ramp_credit_o(ramp_cout),
        .ramp_sent_o  (ramp_sent),
        .cfg_we_i     (cfg_we_i && 32'(cfg_pe_i) == I),
        .cfg_addr_i,
        .cfg_wdata_i,
        .cfg_rdata_o  (pe_rdata[I]),
        .fault_o      (fault_o[I]),
        .busy_o       (busy_o[I]),
        .dbg_valid_o  (pe_dbg_valid),
        .dbg_fmt_o    (pe_dbg_fmt),
        .dbg_value_o  (pe_dbg_value),
        .quiet_o      (pe_quiet),
        .settled_o    (pe_settled),
        .retire_o     (pe_retire),
        .retire_pc_o  (pe_retire_pc),
        .task_start_o (pe_task_start),
        .task_id_o    (pe_task_id),
        .blocked_o    (pe_blocked)
      );
      for (genvar o = 0; o < NumDirs; o++) begin : g_blocked
        assign blocked_d[(I*NumDirs + o)*32 +: 32] =
            en_i ? 32'(pe_blocked[o*NumColors +: NumColors]) : '0;
      end

      assign dbg_d[I*64 +: 64]   = en_i ? {pe_dbg_valid, 28'h0, pe_dbg_fmt, pe_dbg_value} : '0;
      assign event_d[I*32 +: 32] =
          en_i ? {pe_retire, pe_task_start, 1'b0, pe_task_id, 8'h0, pe_retire_pc} : '0;
      assign quiet_o[I]          = pe_quiet;
      assign settled_o[I]        = pe_settled;

      assign ramp_out_o[I*64 +: 64] = 64'(ramp_out);
      assign ramp_cout_o[I*8 +: 8]  = 8'(ramp_cout);
      assign sent_d[I*64 +: 64]     = en_i ? 64'(ramp_sent) : '0;
    end
  end

  // Tile edge outputs.
  for (genvar y = 0; y < TileH; y++) begin : g_we
    assign w_out_o[y*64 +: 64] = 64'(pe_out[y*TileW][0*LW +: LW]);
    assign w_cout_o[y*8 +: 8]  = 8'(pe_cout[y*TileW][0*CB +: CB]);
    assign e_out_o[y*64 +: 64] = 64'(pe_out[y*TileW + TileW - 1][1*LW +: LW]);
    assign e_cout_o[y*8 +: 8]  = 8'(pe_cout[y*TileW + TileW - 1][1*CB +: CB]);
  end
  for (genvar x = 0; x < TileW; x++) begin : g_ns
    assign s_out_o[x*64 +: 64] = 64'(pe_out[(TileH - 1) * TileW + x][2*LW +: LW]);
    assign s_cout_o[x*8 +: 8]  = 8'(pe_cout[(TileH - 1) * TileW + x][2*CB +: CB]);
    assign n_out_o[x*64 +: 64] = 64'(pe_out[x][3*LW +: LW]);
    assign n_cout_o[x*8 +: 8]  = 8'(pe_cout[x][3*CB +: CB]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sent_q    <= '0;
      dbg_q     <= '0;
      event_q   <= '0;
      blocked_q <= '0;
      cyc_q     <= '0;
      cyc_in_q  <= '0;
    end else begin
      sent_q    <= sent_d;
      dbg_q     <= dbg_d;
      event_q   <= event_d;
      blocked_q <= blocked_d;
      cyc_q     <= cyc_d;
      cyc_in_q  <= cycle_i;
    end
  end
  assign ramp_sent_o = sent_q;
  assign dbg_o       = dbg_q;
  assign event_o     = event_q;
  assign blocked_o   = blocked_q;

  assign cfg_rdata_o = (32'(cfg_pe_i) < NumPe) ? pe_rdata[PeIdxW'(cfg_pe_i)] : '0;
endmodule
