// The compute engine's architectural registers (docs/isa.md 2, 3.2): GPRs, DSRs, the task table
// (kind, entry, argument), TaskActive and TaskBlocked, FpFlags, CycleHi (the cycle counter is the
// fabric's, cycle_i, so that an idle tile need not be clocked: docs/performance.md),
// the DebugPort values, FabricDim; the register read mux (a CE load and the host's back door
// read through the same function) and the one register write port (a CE store while running,
// the host's back door while frozen: the two never overlap), which also drives the router's
// register bus. Registers held elsewhere (pc, fault registers, CeStatus fields, CeColor, UtStatus,
// UtInfo, PerfCount, the router's) come in for the read mux. Each cycle's writes land in the
// order of the cycle (docs/isa.md 6.8); where two write the same register, the later one wins.
module tessera_ce_regs (
  input  logic                                        clk_i,
  input  logic                                        rst_ni,
  input  logic                                        en_i,          // 0: frozen, host writes
  input  logic [15:0]                                 x_i,
  input  logic [15:0]                                 y_i,
  input  logic [47:0]                                 cycle_i,       // enabled cycles so far
  // the register write port: a CE store (tessera_ce_scalar) ...
  input  tessera_pkg::reg_wr_t                     ce_wr_i,
  input  logic [15:0]                                 ce_addr_i,     // its address (the router's)
  // ... or the host's back door, decoded (tessera_ce_mmio)
  input  logic                                        host_we_i,
  input  logic [15:0]                                 host_addr_i,
  input  logic [31:0]                                 host_wdata_i,
  input  logic                                        host_valid_i,  // a listed register
  input  logic [5:0]                                  host_reg_i,    // mmio_reg_e
  input  logic [4:0]                                  host_idx_i,
  input  logic                                        host_router_i,
  output logic [31:0]                                 host_rdata_o,
  input  logic [31:0]                                 sram_rdata_i,  // a host read of SRAM
  // the router's registers
  output logic                                        rt_we_o,
  output logic [15:0]                                 rt_addr_o,
  output logic [31:0]                                 rt_wdata_o,
  input  logic [31:0]                                 rt_rdata_i,
  // a CE load of a register
  input  logic [5:0]                                  ce_reg_i,      // mmio_reg_e
  input  logic [4:0]                                  ce_idx_i,
  input  logic                                        ce_router_i,   // the router holds it
  output logic [31:0]                                 ce_rdata_o,
  // GPR and DSR writes, in the order they land: the scalar stage, a scalar FP result, the
  // picker's r0, an fdot result (docs/isa.md 6.5), the host
  input  tessera_pkg::gpr_wr_t                     sc_gpr_i,
  input  tessera_pkg::dsr_wr_t                     sc_dsr_i,
  input  tessera_pkg::gpr_wr_t                     fp_gpr_i,
  input  tessera_pkg::gpr_wr_t                     dsd_gpr_i,
  // task state changes, in the order they land (docs/isa.md 3.2)
  input  tessera_pkg::task_fx_t                    sc_task_i,     // a task instruction
  input  logic                                        pick_i,        // the picker starts ...
  input  logic [4:0]                                  pick_task_i,   // ... this task, r0 = its
  input  logic [31:0]                                 pick_data_i,   // wavelet (data tasks)
  input  logic                                        disp_i,        // the dispatcher sets ...
  input  logic [4:0]                                  disp_task_i,   // ... this task active
  input  logic [15:0]                                 disp_arg_i,    // with this argument
  input  logic [31:0]                                 dsd_activate_i,// completions (5.3)
  input  logic [31:0]                                 dsd_unblock_i,
  input  logic [4:0]                                  fp_flags_i,    // flags raised this cycle
  input  logic                                        cyc_latch_i,   // a CE load of CycleLo
  // the registers held elsewhere, for the read mux
  input  logic [15:0]                                 pc_i,
  input  logic [31:0]                                 ce_status_i,
  input  tessera_pkg::ce_fault_e                      fault_cause_i,
  input  logic [15:0]                                 fault_pc_i,
  input  logic [31:0]                                 fault_addr_i,
  input  logic [31:0]                                 fault_info_i,
  input  logic [tessera_pkg::NumColors*4-1:0]         ocred_i,       // CeColor
  input  logic [tessera_pkg::NumColors-1:0]           ut_reads_i,
  input  logic [tessera_pkg::NumColors-1:0]           in_valid_i,
  input  logic [tessera_pkg::NumColors-1:0]           in_ctrl_i,
  input  logic [tessera_pkg::NumColors*5-1:0]         in_count_i,
  input  logic [tessera_pkg::NumMicrothreads*32-1:0]  ut_status_i,
  input  logic [tessera_pkg::NumMicrothreads*32-1:0]  ut_info_i,
  input  logic [tessera_pkg::NumFifos*15-1:0]         fifo_head_i,   // FifoState: FIFO k at
  input  logic [tessera_pkg::NumFifos*15-1:0]         fifo_tail_i,   // [15*k +: 15]
  input  logic [tessera_pkg::NumFifos*15-1:0]         fifo_count_i,
  input  logic [tessera_pkg::NumFifos*15-1:0]         fifo_used_i,
  input  logic [tessera_pkg::PerfCountCount*32-1:0]   perf_i,        // PerfCount
  // the registers, for the rest of the CE
  output logic [tessera_pkg::NumGprs*32-1:0]          gpr_o,         // r at [32*r +: 32]
  output logic [tessera_pkg::NumDsrs*64-1:0]          dsr_o,         // d at [64*d +: 64]
  output logic [tessera_pkg::NumTasks*2-1:0]          tkind_o,       // TaskKind of task t
  output logic [tessera_pkg::NumTasks*16-1:0]         tentry_o,      // entry pc of task t
  output logic [31:0]                                 active_o,
  output logic [31:0]                                 blocked_o
);
  `include "tessera_pkg_use.svh"

  // Register files as flat vectors (entry k at [W*k +: W]; Yosys 0.23 reads no multi-dimensional
  // packed arrays), each loading only in a cycle that writes it (its _we): a simulator then
  // copies nothing for a register file that no one writes, and the outputs are the registers.
  logic [NumGprs*32-1:0]       gpr_q, gpr_d;
  logic [NumDsrs*64-1:0]       dsr_q, dsr_d;
  logic [NumTasks*2-1:0]       tkind_q, tkind_d;
  logic [NumTasks*16-1:0]      tentry_q, tentry_d;
  logic [NumTasks*16-1:0]      targ_q, targ_d;
  logic [NumDebugFmts*32-1:0]  dbg_q, dbg_d;
  logic                        gpr_we, dsr_we, tcfg_we, targ_we, dbg_we;
  logic [31:0] active_q, active_d, blocked_q, blocked_d;
  logic [4:0]  fpflags_q, fpflags_d;
  logic [15:0] cyc_hi_q, cyc_hi_d;
  logic [31:0] fabric_dim_q, fabric_dim_d;

  // ---------------------------------------------------------------------------------------------
  // The register write port: a CE store while running, the host while frozen
  tessera_pkg::reg_wr_t rw;
  logic [5:0]              rw_reg;  // mmio_reg_e, as a plain signal for the case below
  logic                    host_wr; // the host writes a register (not SRAM)
  always_comb begin
    host_wr   = !en_i && host_we_i && host_valid_i;
    rw        = ce_wr_i;
    if (!en_i) begin
      rw.we     = host_we_i && host_valid_i;
      rw.id     = host_reg_i;
      rw.idx    = host_idx_i;
      rw.router = host_router_i;
      rw.data   = host_wdata_i;
    end
    rw_reg = rw.id;
  end
  assign rt_we_o    = (en_i && ce_wr_i.we && ce_wr_i.router) || (!en_i && host_we_i && host_router_i);
  assign rt_addr_o  = en_i ? ce_addr_i : host_addr_i;
  assign rt_wdata_o = en_i ? ce_wr_i.data : host_wdata_i;

  // ---------------------------------------------------------------------------------------------
  // Next state
  always_comb begin
    gpr_we  = sc_gpr_i.we || fp_gpr_i.we || pick_i || dsd_gpr_i.we ||
              (host_wr && host_reg_i == MmioGpr);
    dsr_we  = sc_dsr_i.we || (host_wr && host_reg_i == MmioDsr);
    tcfg_we = rw.we && rw_reg == MmioTaskCfg && rw.idx != 5'(NoTask);
    targ_we = (rw.we && rw_reg == MmioTaskArg && rw.idx != 5'(NoTask)) || sc_task_i.arg_we ||
              disp_i;
    dbg_we  = rw.we && rw_reg == MmioDebugPort && rw.idx < 5'(NumDebugFmts);
    // the next values of a file matter only where it loads
    gpr_d    = gpr_we ? gpr_q : '0;
    dsr_d    = dsr_we ? dsr_q : '0;
    tkind_d  = tcfg_we ? tkind_q : '0;
    tentry_d = tcfg_we ? tentry_q : '0;
    targ_d   = targ_we ? targ_q : '0;
    dbg_d    = dbg_we ? dbg_q : '0;
    active_d     = active_q;
    blocked_d    = blocked_q;
    fpflags_d    = fpflags_q;
    cyc_hi_d     = cyc_hi_q;
    fabric_dim_d = fabric_dim_q;

    // GPRs and DSRs, entry by entry (a write port per writer, in the order they land), only in a
    // cycle that writes the file
    if (gpr_we) begin
      for (int r = 0; r < NumGprs; r++) begin
        if (sc_gpr_i.we && sc_gpr_i.addr == 4'(r)) gpr_d[32*r +: 32] = sc_gpr_i.data;
        if (fp_gpr_i.we && fp_gpr_i.addr == 4'(r)) gpr_d[32*r +: 32] = fp_gpr_i.data;
        if (pick_i && r == 0)
          gpr_d[0 +: 32] = tkind_q[2*pick_task_i +: 2] == TaskKindData ?
                           pick_data_i : {16'h0, targ_q[16*pick_task_i +: 16]};
        if (dsd_gpr_i.we && dsd_gpr_i.addr == 4'(r))  // an fdot result wins
          gpr_d[32*r +: 32] = dsd_gpr_i.data;
        if (host_wr && host_reg_i == MmioGpr && host_idx_i[3:0] == 4'(r))
          gpr_d[32*r +: 32] = host_wdata_i;
      end
    end
    if (dsr_we) begin
      for (int r = 0; r < NumDsrs; r++) begin
        if (sc_dsr_i.we && sc_dsr_i.addr == 4'(r)) dsr_d[64*r +: 64] = sc_dsr_i.data;
        if (host_wr && host_reg_i == MmioDsr && host_idx_i[4:1] == 4'(r)) begin
          if (host_idx_i[0]) dsr_d[64*r + 32 +: 32] = host_wdata_i;
          else               dsr_d[64*r +: 32]      = host_wdata_i;
        end
      end
    end
    if (host_wr && host_reg_i == MmioFabricDim) fabric_dim_d = host_wdata_i;

    // TaskArg: the register write, then activate with an argument, then the dispatcher; TaskCfg
    // (entry 31 of the task table is read-only zero: a CE store to it faults ReadOnly)
    if (targ_we) begin
      for (int t = 0; t < NumTasks; t++) begin
        if (rw.we && rw_reg == MmioTaskArg && rw.idx == 5'(t) && t != NoTask)
          targ_d[16*t +: 16] = rw.data[15:0];
        if (sc_task_i.arg_we && sc_task_i.arg_task == 5'(t)) targ_d[16*t +: 16] = sc_task_i.arg;
        if (disp_i && disp_task_i == 5'(t))                  targ_d[16*t +: 16] = disp_arg_i;
      end
    end
    if (tcfg_we) begin
      for (int t = 0; t < NumTasks; t++) begin
        if (rw.idx == 5'(t)) begin
          tentry_d[16*t +: 16] = rw.data[15:0];
          tkind_d[2*t +: 2]    = rw.data[TaskCfgKindLsb +: 2];
        end
      end
    end
    if (dbg_we) begin
      for (int k = 0; k < NumDebugFmts; k++)
        if (rw.idx[2:0] == 3'(k)) dbg_d[32*k +: 32] = rw.data;
    end

    // Masks and flags: the register write first, then the instruction's block/unblock, the
    // picker's clear, the activations (instruction, dispatcher, completions)
    if (rw.we) begin
      unique case (rw_reg)
        MmioTaskActive:    active_d  = rw.data;
        MmioTaskActiveSet: active_d  = active_q | rw.data;
        MmioTaskActiveClr: active_d  = active_q & ~rw.data;
        MmioTaskBlocked:   blocked_d = rw.data;
        MmioTaskBlockSet:  blocked_d = blocked_q | rw.data;
        MmioTaskBlockClr:  blocked_d = blocked_q & ~rw.data;
        MmioFpFlags:       fpflags_d = rw.data[4:0];
        default: ;
      endcase
    end
    blocked_d = (blocked_d | sc_task_i.block) & ~sc_task_i.unblock;
    if (pick_i && tkind_q[2*pick_task_i +: 2] != TaskKindData) active_d[pick_task_i] = 1'b0;
    active_d = active_d | sc_task_i.activate;
    if (disp_i) active_d[disp_task_i] = 1'b1;
    active_d  = active_d | dsd_activate_i;
    blocked_d = blocked_d & ~dsd_unblock_i;
    active_d[NoTask] = 1'b0;
    fpflags_d = fpflags_d | fp_flags_i;
    if (cyc_latch_i) cyc_hi_d = cycle_i[47:32];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q     <= '0;
      blocked_q    <= '0;
      fpflags_q    <= '0;
      cyc_hi_q     <= '0;
      fabric_dim_q <= '0;
    end else begin
      active_q     <= active_d;
      blocked_q    <= blocked_d;
      fpflags_q    <= fpflags_d;
      cyc_hi_q     <= cyc_hi_d;
      fabric_dim_q <= fabric_dim_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     gpr_q <= '0;
    else if (gpr_we) gpr_q <= gpr_d;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     dsr_q <= '0;
    else if (dsr_we) dsr_q <= dsr_d;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tkind_q  <= '0;
      tentry_q <= '0;
    end else if (tcfg_we) begin
      tkind_q  <= tkind_d;
      tentry_q <= tentry_d;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      targ_q <= '0;
    else if (targ_we) targ_q <= targ_d;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     dbg_q <= '0;
    else if (dbg_we) dbg_q <= dbg_d;
  end

  // ---------------------------------------------------------------------------------------------
  // The read mux: the value of register r, element i (r as tessera_ce_mmio decodes it, valid)
  function automatic logic [31:0] reg_read(input logic [5:0] r, input logic [4:0] i);
    logic [31:0] v;
    v = '0;
    unique case (r)
      MmioPeCoord:     v = {y_i, x_i};
      MmioFabricDim:   v = fabric_dim_q;
      MmioCeStatus:    v = ce_status_i;
      MmioCycleLo:     v = cycle_i[31:0];
      MmioCycleHi:     v = {16'h0, cyc_hi_q};
      MmioFpFlags:     v = {27'h0, fpflags_q};
      MmioFaultStatus: v = {27'h0, fault_cause_i};
      MmioFaultPc:     v = {16'h0, fault_pc_i};
      MmioFaultAddr:   v = fault_addr_i;
      MmioFaultInfo:   v = fault_info_i;
      MmioDebugPort:   v = dbg_q[32*i[2:0] +: 32];
      MmioCeColor:     v = {20'h0, ocred_i[i*4 +: 4], 1'b0, ut_reads_i[i],
                            in_ctrl_i[i] & in_valid_i[i], in_count_i[i*5 +: 5]};
      MmioUtStatus:    v = ut_status_i[32*i[2:0] +: 32];
      MmioUtInfo:      v = ut_info_i[32*i[2:0] +: 32];
      MmioFifoState:   v = i[0] ? {1'b0, fifo_used_i[15*i[3:1] +: 15],  // 2k+1: Used, Count
                                   1'b0, fifo_count_i[15*i[3:1] +: 15]}
                            : {1'b0, fifo_tail_i[15*i[3:1] +: 15],  // 2k: Tail, Head
                               1'b0, fifo_head_i[15*i[3:1] +: 15]};
      MmioPerfCount:   v = perf_i[32*i +: 32];
      MmioTaskCfg:     v = {14'h0, tkind_q[2*i +: 2], tentry_q[16*i +: 16]};
      MmioTaskArg:     v = {16'h0, targ_q[16*i +: 16]};
      MmioTaskActive, MmioTaskActiveSet, MmioTaskActiveClr: v = active_q & 32'h7FFF_FFFF;
      MmioTaskBlocked, MmioTaskBlockSet, MmioTaskBlockClr:  v = blocked_q;
      MmioGpr:         v = gpr_q[32*i[3:0] +: 32];
      MmioCePc:        v = {16'h0, pc_i};
      MmioDsr:         v = i[0] ? dsr_q[64*i[4:1] + 32 +: 32] : dsr_q[64*i[4:1] +: 32];
      default: ;
    endcase
    reg_read = v;
  endfunction

  // The router's registers (tessera.def marks them; the decoder says so) come from the router.
  assign ce_rdata_o   = ce_router_i ? rt_rdata_i : reg_read(ce_reg_i, ce_idx_i);
  assign host_rdata_o = host_addr_i < SramBytes[15:0] ? sram_rdata_i
                      : host_valid_i && host_router_i ? rt_rdata_i
                      : host_valid_i ? reg_read(host_reg_i, host_idx_i) : 32'h0;

  // ---------------------------------------------------------------------------------------------
  // Outputs
  assign gpr_o    = gpr_q;
  assign dsr_o    = dsr_q;
  assign tkind_o  = tkind_q;
  assign tentry_o = tentry_q;
  assign active_o  = active_q;
  assign blocked_o = blocked_q;

  `include "tessera_assert.svh"
  `ASSERT(NoTaskIsNeverActive, !active_q[NoTask])
  `ASSERT_IF(CeStoresOnlyWhileRunning, ce_wr_i.we, en_i)

  logic unused;
  assign unused = rw.router;  // the router's registers are written through rt_we_o
endmodule
