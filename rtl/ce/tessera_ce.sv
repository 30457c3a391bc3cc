// The compute engine (docs/isa.md): an in-order, single-issue core running tasks from the PE's
// SRAM. Each cycle follows the grant order of docs/isa.md 6.8: results due from the DSD engine,
// then the scalar pipeline (one instruction issues if its resources are free), the DSD engine,
// the control dispatcher, the picker, the credit return and the arrivals. This module holds the
// scalar state (registers, pc, task table, flags, fault registers, output credits) and the
// scalar pipeline; tessera_ce_inq holds the CE input queues and owed credits; tessera_ce_dsd the
// microthreads. The SRAM and the FMAC are the PE's, reached through ports.
module tessera_ce (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic                                  en_i,       // 0: frozen (host back door)
  input  logic [15:0]                           x_i,
  input  logic [15:0]                           y_i,
  // the ramp, CE side
  input  tessera_pkg::link_t                    ramp_i,     // router -> CE
  output tessera_pkg::link_t                    ramp_o,     // CE -> router
  input  tessera_pkg::credit_t                  credit_i,   // router freed a RAMP-input slot
  output tessera_pkg::credit_t                  credit_o,   // CE consumed a wavelet
  // colors this PE can send on (some route position accepts RAMP) and receive (delivers to RAMP)
  input  logic [tessera_pkg::NumColors-1:0]     can_send_i,
  input  logic [tessera_pkg::NumColors-1:0]     can_recv_i,
  // the router's registers (ColorCfg, SwitchCfg, RouterFault)
  output logic                                  rt_we_o,
  output logic [15:0]                           rt_addr_o,
  output logic [31:0]                           rt_wdata_o,
  input  logic [31:0]                           rt_rdata_i,
  // host back door while frozen: SRAM and CE registers (Gpr, CePc, Dsr windows included)
  input  logic                                  host_we_i,
  input  logic [15:0]                           host_addr_i,
  input  logic [31:0]                           host_wdata_i,
  output logic [31:0]                           host_rdata_o,
  // SRAM ports (tessera_sram)
  output logic [13:0]                           fetch_addr_o,
  input  logic [31:0]                           fetch_data_i,
  output logic [13:0]                           rd0_addr_o,
  input  logic [31:0]                           rd0_data_i,
  output logic [13:0]                           rd1_addr_o,
  input  logic [31:0]                           rd1_data_i,
  output logic                                  we_o,
  output logic [13:0]                           wr_addr_o,
  output logic [3:0]                            wr_be_o,
  output logic [31:0]                           wr_data_o,
  // FMAC (tessera_fmac)
  output logic                                  fp_valid_o,
  output tessera_pkg::fp_op_e                   fp_op_o,
  output tessera_pkg::fp_fmt_e                  fp_fmt_o,
  output logic [31:0]                           fp_a_o,
  output logic [31:0]                           fp_b_o,
  output logic [31:0]                           fp_c_o,
  input  logic                                  fp_valid_i,
  input  logic [31:0]                           fp_result_i,
  input  logic [9:0]                            fp_flags_i,
  // debug port records and status
  output logic                                  dbg_valid_o,
  output logic [2:0]                            dbg_fmt_o,
  output logic [31:0]                           dbg_value_o,
  output logic                                  fault_o,    // FaultStatus.Cause != None
  output logic                                  quiet_o,    // CeStatus.Quiet
  output logic                                  retire_o,   // an instruction issued this cycle
  output logic [15:0]                           retire_pc_o,
  output logic                                  task_start_o,
  output logic [4:0]                            task_id_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned NumUts = NumMicrothreads;

  // ---------------------------------------------------------------------------------------------
  // State
  logic [31:0] gpr_q [NumGprs] /* verilator public_flat_rd */;
  logic [63:0] dsr_q [NumDsrs] /* verilator public_flat_rd */;
  logic [15:0] pc_q, pc_d;
  logic [31:0] ir_q, ir_d;
  logic        ir_valid_q, ir_valid_d;
  logic        ir_past_q, ir_past_d;     // the fetch ran past the end of SRAM (pc 0xC000)
  logic        running_q, running_d;
  logic [4:0]  task_q, task_d;
  logic [1:0]  tkind_q [NumTasks];
  logic [15:0] tentry_q [NumTasks];
  logic [15:0] targ_q [NumTasks];
  logic [31:0] active_q, active_d, blocked_q, blocked_d;
  logic [47:0] cycle_q;
  logic [15:0] cyc_hi_q, cyc_hi_d;
  logic [4:0]  fpflags_q, fpflags_d;
  logic [31:0] fabric_dim_q;
  logic [4:0]  fcause_q, fcause_d;
  logic [15:0] fpc_q, fpc_d;
  logic [31:0] faddr_q, faddr_d, finfo_q, finfo_d;
  logic [31:0] dbg_q [NumDebugFmts];
  logic [3:0]  ocred_q [NumColors];
  // a scalar FP instruction in flight: its FMAC slot is the next cycle, its result FmacLatency later
  logic        fp_slot_q, fp_slot_d;       // the FMAC slot of this cycle is the scalar pipeline's
  logic        fp_pend_q, fp_pend_d;       // the CE waits for a scalar FP result
  logic [3:0]  fp_rd_q, fp_rd_d;
  logic        fp_half_q, fp_half_d;       // f16 two-lane op: keep lane 0, zero-extend
  logic [31:0] fpa_q, fpa_d, fpb_q, fpb_d, fpc_in_q, fpc_in_d;
  fp_op_e      fpop_q, fpop_d;
  fp_fmt_e     fpfmt_q, fpfmt_d;
  // a synchronous DSD operation the CE waits for (docs/isa.md 4.11)
  logic        sync_q, sync_d;
  logic [2:0]  sync_ut_q, sync_ut_d;
  // CeStatus.Stall and StallColor: why the last instruction that tried to issue could not
  logic [2:0]  stall_q, stall_d;
  logic [4:0]  stall_col_q, stall_col_d;
  // the second word of a std
  logic        std_pend_q, std_pend_d;
  logic [13:0] std_addr_q, std_addr_d;
  logic [31:0] std_data_q, std_data_d;

  // ---------------------------------------------------------------------------------------------
  // CE input queues and owed credits
  logic [NumColors-1:0]    in_valid, in_ctrl, pop;
  logic [NumColors*32-1:0] in_data_flat;
  logic [NumColors*5-1:0]  in_count_flat;
  logic                    owed;
  logic [31:0]             in_data [NumColors];
  for (genvar c = 0; c < NumColors; c++) begin : g_in
    assign in_data[c] = in_data_flat[c*32 +: 32];
  end

  tessera_ce_inq u_inq (
    .clk_i, .rst_ni, .en_i,
    .ramp_i,
    .pop_i       (pop),
    .head_valid_o(in_valid),
    .head_ctrl_o (in_ctrl),
    .head_data_o (in_data_flat),
    .count_o     (in_count_flat),
    .owed_o      (owed),
    .ret_en_i    (ret_en),
    .credit_o
  );

  // ---------------------------------------------------------------------------------------------
  // The DSD engine (tessera_ce_dsd): busy microthreads and the colors they read.
  logic [NumUts-1:0]    ut_busy;
  logic [NumColors-1:0] ut_reads;
  logic [NumUts*32-1:0] ut_status, ut_info;
  // The CE acts in this cycle: enabled, and no fault recorded (a fault freezes it).
  logic live, ret_en;
  assign live = en_i && fcause_q == 5'd0;
  // what the engine reports and takes in this cycle
  logic [NumColors*4-1:0] ocred_after;
  logic [NumTasks*2-1:0]  tkind_flat;
  logic                   e_cred_take;
  logic [4:0]             e_cred_color, e_flags;
  logic [3:0]             e_gpr_waddr;
  logic [31:0]            e_gpr_wdata, e_activate, e_unblock;

  // ---------------------------------------------------------------------------------------------
  // Decode and operands
  tessera_pkg::isa_dec_t dec;
  tessera_ce_decode u_decode (.insn_i(ir_q), .dec_o(dec));
  // The decoded fields as plain signals (Yosys 0.23 cannot size a struct member in a case).
  alu_op_e     dec_alu_op;
  br_op_e      dec_br_op;
  insn_class_e dec_cls;
  dsr_op_e     dec_dsr_op;
  fp_fmt_e     dec_fp_fmt;
  fp_op_e      dec_fp_op;
  logic        dec_imm_sx;
  jump_op_e    dec_jump_op;
  logic        dec_legal;
  mem_op_e     dec_mem_op;
  logic        dec_rd_c;
  send_op_e    dec_send_op;
  sys_op_e     dec_sys_op;
  task_op_e    dec_task_op;
  logic        dec_z_abs;
  always_comb begin
    dec_alu_op = dec.alu_op;
    dec_br_op = dec.br_op;
    dec_cls = dec.cls;
    dec_dsr_op = dec.dsr_op;
    dec_fp_fmt = dec.fp_fmt;
    dec_fp_op = dec.fp_op;
    dec_imm_sx = dec.imm_sx;
    dec_jump_op = dec.jump_op;
    dec_legal = dec.legal;
    dec_mem_op = dec.mem_op;
    dec_rd_c = dec.rd_c;
    dec_send_op = dec.send_op;
    dec_sys_op = dec.sys_op;
    dec_task_op = dec.task_op;
    dec_z_abs = dec.z_abs;
  end

  // The instruction register in the views of its formats (model/arch/isa.def).
  insn_r_t     ir_r;
  insn_i_t     ir_i;
  insn_d_t     ir_dsd;
  assign ir_r   = ir_q;
  assign ir_i   = ir_q;
  assign ir_dsd = ir_q;
  logic unused_views;  // the opcode and the fields the decoder reads from ir_q itself
  assign unused_views = ^{ir_r.funct, ir_r.op, ir_i.b, ir_i.a, ir_i.z, ir_i.op, ir_dsd.op};

  logic [3:0]  fa, fb, fc, fd;
  logic        fz;
  logic [15:0] imm;
  logic [31:0] ra_v, rb_v, rc_v, rd_v, imm32, ea;
  always_comb begin
    fa    = ir_r.a;
    fb    = ir_r.b;
    fc    = ir_r.c;
    fd    = ir_r.d;
    fz    = ir_r.z;
    imm   = ir_i.imm;
    ra_v  = gpr_q[fa];
    rb_v  = fz ? 32'h0 : gpr_q[fb];
    rc_v  = gpr_q[fc];
    rd_v  = gpr_q[fd];
    imm32 = dec_imm_sx ? {{16{imm[15]}}, imm} : {16'h0, imm};
    // effective address of mem/tgt operands; also `Bv + sx(imm)` of bval
    ea    = (dec_z_abs && fz) ? {16'h0, imm} : rb_v + imm32;
  end

  // MMIO decode of the scalar access
  logic       mm_valid, mm_ro, mm_host, mm_router;
  mmio_reg_e  mm_reg;
  logic [4:0] mm_idx;
  tessera_ce_mmio u_mmio (
    .addr_i(ea[15:0]), .valid_o(mm_valid), .reg_o(mm_reg), .index_o(mm_idx), .ro_o(mm_ro),
    .host_only_o(mm_host), .router_o(mm_router)
  );

  // Host back door decode
  logic       hm_valid, hm_ro, hm_host, hm_router;
  mmio_reg_e  hm_reg;
  logic [4:0] hm_idx;
  tessera_ce_mmio u_host_mmio (
    .addr_i(host_addr_i), .valid_o(hm_valid), .reg_o(hm_reg), .index_o(hm_idx), .ro_o(hm_ro),
    .host_only_o(hm_host), .router_o(hm_router)
  );

  // ---------------------------------------------------------------------------------------------
  // Register reads (CE loads and host reads share one mux)
  logic [31:0] ce_status, task_cfg_word [NumTasks];
  always_comb begin
    ce_status = '0;
    ce_status[CeStatusTaskLsb +: 5]    = running_q ? task_q : 5'(NoTask);
    ce_status[CeStatusRunningLsb]      = running_q;
    ce_status[CeStatusFaultedLsb]      = fcause_q != 5'd0;
    ce_status[CeStatusQuietLsb]        = quiet_o;
    ce_status[CeStatusStallLsb +: 3]   = stall_q;
    ce_status[CeStatusStallColorLsb +: 5] = stall_col_q;
    ce_status[CeStatusUtBusyLsb +: 8]  = 8'(ut_busy);
  end
  for (genvar t = 0; t < NumTasks; t++) begin : g_tcfg
    assign task_cfg_word[t] = {14'h0, tkind_q[t], tentry_q[t]};
  end

  // The value of register r, element i (r as tessera_ce_mmio decodes it, valid).
  function automatic logic [31:0] reg_read(input mmio_reg_e r, input logic [4:0] i,
                                           input logic [31:0] router_data);
    logic [31:0] v;
    v = '0;
    unique case (r)
      MmioPeCoord:     v = {y_i, x_i};
      MmioFabricDim:   v = fabric_dim_q;
      MmioCeStatus:    v = ce_status;
      MmioCycleLo:     v = cycle_q[31:0];
      MmioCycleHi:     v = {16'h0, cyc_hi_q};
      MmioFpFlags:     v = {27'h0, fpflags_q};
      MmioFaultStatus: v = {27'h0, fcause_q};
      MmioFaultPc:     v = {16'h0, fpc_q};
      MmioFaultAddr:   v = faddr_q;
      MmioFaultInfo:   v = finfo_q;
      MmioDebugPort:   v = dbg_q[i[2:0]];
      MmioCeColor:     v = {20'h0, ocred_q[i], 1'b0, ut_reads[i], in_ctrl[i] & in_valid[i],
                            in_count_flat[i*5 +: 5]};
      MmioColorCfg, MmioSwitchCfg, MmioRouterFault, MmioRouterInCount: v = router_data;
      MmioUtStatus:    v = ut_status[32*i[2:0] +: 32];
      MmioUtInfo:      v = ut_info[32*i[2:0] +: 32];
      MmioTaskCfg:     v = task_cfg_word[i];
      MmioTaskArg:     v = {16'h0, targ_q[i]};
      MmioTaskActive, MmioTaskActiveSet, MmioTaskActiveClr: v = active_q & 32'h7FFF_FFFF;
      MmioTaskBlocked, MmioTaskBlockSet, MmioTaskBlockClr:  v = blocked_q;
      MmioGpr:         v = gpr_q[i[3:0]];
      MmioCePc:        v = {16'h0, pc_q};
      MmioDsr:         v = i[0] ? dsr_q[i[4:1]][63:32] : dsr_q[i[4:1]][31:0];
      default: ;
    endcase
    reg_read = v;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // The scalar pipeline (6.8 item 3)
  logic        issue, stall;
  logic        gpr_we;
  logic [3:0]  gpr_waddr;
  logic [31:0] gpr_wdata;
  logic        dsr_we;
  logic [3:0]  dsr_waddr;
  logic [63:0] dsr_wdata;
  logic        s_fault;
  logic [4:0]  s_cause;
  logic [31:0] s_addr, s_info;
  logic        s_mem_we;
  logic [13:0] s_mem_waddr;
  logic [3:0]  s_mem_be;
  logic [31:0] s_mem_wdata;
  logic        s_reg_we;            // CE store to a register (end of cycle)
  mmio_reg_e   s_reg;
  logic [4:0]  s_reg_idx;
  logic [31:0] s_reg_wdata;
  logic        s_send;
  tessera_pkg::link_t s_link;
  logic [31:0] s_activate, s_block, s_unblock;
  logic        s_arg_we;
  logic [4:0]  s_arg_task;
  logic [15:0] s_arg;
  logic        s_tend, s_taken;
  logic [15:0] s_target;
  logic        s_fp_issue;
  logic        s_cyc_latch;
  logic        s_dbg;
  logic [2:0]  s_dbg_fmt;
  logic        ld_sram;               // a load or ldd: the value is read from SRAM
  logic [31:0] load_val, gpr_wval;
  logic [63:0] dsr_wval;
  logic [1:0]  acc_size;               // AccSize: Byte, Half, Word, Dsd
  logic        acc_write;

  // Write port, read ports and ramp slot as left by item 1 (DSD results due) and the engine.
  logic        eng_write_due, eng_send_due, eng_ports_held, eng_fmac_held;
  logic        e_we, e_gpr_we, e_split;
  logic [13:0] e_wr_addr;
  logic [3:0]  e_wr_be;
  logic [31:0] e_wr_data;
  tessera_pkg::link_t e_wave;
  assign eng_write_due  = e_we;
  assign eng_send_due   = e_wave.valid;
  assign eng_ports_held = e_split;
  assign eng_fmac_held  = e_split;
  // what the issuing instruction takes, for the engine (6.8 item 3)
  logic [1:0]  sc_ports;
  logic [2:0]  s_stall_why;
  logic [4:0]  s_stall_col;
  // the DSD instruction at issue: the engine's checks
  logic        iss_busy, iss_fault;
  logic [4:0]  iss_cause;
  logic [31:0] iss_addr, iss_info;
  logic [7:0]  sc_banks;
  logic [11:0] sc_row;

  function automatic logic [31:0] fault_info(input logic [1:0] size, input logic write);
    logic [31:0] v;
    v = '0;
    v[FaultInfoSizeLsb +: 2] = size;
    v[FaultInfoWriteLsb]     = write;
    v[FaultInfoUtLsb +: 4]   = 4'hF;
    fault_info = v;
  endfunction

  always_comb begin
    issue       = 1'b0;
    stall       = 1'b0;
    gpr_we      = 1'b0;
    gpr_waddr   = fa;
    gpr_wdata   = '0;
    dsr_we      = 1'b0;
    dsr_waddr   = fa;
    dsr_wdata   = dsr_q[fa];
    s_fault     = 1'b0;
    s_cause     = 5'd0;
    s_addr      = '0;
    s_info      = fault_info(2'd0, 1'b0);
    s_mem_we    = 1'b0;
    s_mem_waddr = ea[15:2];
    s_mem_be    = 4'h0;
    s_mem_wdata = '0;
    s_reg_we    = 1'b0;
    s_reg       = mm_reg;
    s_reg_idx   = mm_idx;
    s_reg_wdata = ra_v;
    s_send      = 1'b0;
    s_link      = '0;
    s_activate  = '0;
    s_block     = '0;
    s_unblock   = '0;
    s_arg_we    = 1'b0;
    s_arg_task  = '0;
    s_arg       = ra_v[15:0];
    s_tend      = 1'b0;
    s_taken     = 1'b0;
    s_target    = pc_q + 16'd4;
    s_fp_issue  = 1'b0;
    s_cyc_latch = 1'b0;
    s_dbg       = 1'b0;
    s_dbg_fmt   = mm_idx[2:0];
    ld_sram     = 1'b0;
    acc_size    = 2'd2;
    acc_write   = 1'b0;
    sc_ports    = 2'd0;
    sc_banks    = '0;
    sc_row      = ea[15:4];
    s_stall_why = 3'(CeStallNone);
    s_stall_col = '0;
    fpa_d       = fpa_q;
    fpb_d       = fpb_q;
    fpc_in_d    = fpc_in_q;
    fpop_d      = fpop_q;
    fpfmt_d     = fpfmt_q;
    fp_half_d   = fp_half_q;
    fp_rd_d     = fp_rd_q;

    if (running_q && ir_valid_q && !fp_pend_q && !std_pend_q && live) begin
      issue = 1'b1;
      if (sync_q && ut_busy[sync_ut_q]) begin
        // a synchronous DSD operation is still running
        issue       = 1'b0;
        stall       = 1'b1;
        s_stall_why = 3'(CeStallSync);
      end else if (ir_past_q) begin
        s_fault = 1'b1;
        s_cause = 5'(CeFaultPcRange);
        s_addr  = {16'h0, pc_q};
      end else if (!dec_legal) begin
        s_fault = 1'b1;
        s_cause = 5'(CeFaultIllegal);
        s_addr  = ir_q;
      end else begin
        unique case (dec_cls)
          InsnClassAlu: begin
            logic [31:0] x, y;
            x = rb_v;
            y = dec_rd_c ? rc_v : imm32;
            gpr_we = 1'b1;
            unique case (dec_alu_op)
              AluOpAdd:  gpr_wdata = x + y;
              AluOpSub:  gpr_wdata = x - y;
              AluOpAnd:  gpr_wdata = x & y;
              AluOpOr:   gpr_wdata = x | y;
              AluOpXor:  gpr_wdata = x ^ y;
              AluOpShl:  gpr_wdata = x << y[4:0];
              AluOpShr:  gpr_wdata = x >> y[4:0];
              AluOpSra:  gpr_wdata = $signed(x) >>> y[4:0];
              AluOpSlt:  gpr_wdata = {31'h0, $signed(x) < $signed(y)};
              AluOpSltu: gpr_wdata = {31'h0, x < y};
              AluOpMul:  gpr_wdata = $signed({{16{x[15]}}, x[15:0]}) * $signed({{16{y[15]}}, y[15:0]});
              AluOpMulu: gpr_wdata = {16'h0, x[15:0]} * {16'h0, y[15:0]};
              AluOpLui:  gpr_wdata = {imm, 16'h0};
              default:   gpr_wdata = '0;
            endcase
          end

          InsnClassFp: begin
            // needs the FMAC slot of the next cycle; the engine yields it (6.8 item 4)
            if (eng_fmac_held) begin
              issue       = 1'b0;
              stall       = 1'b1;
              s_stall_why = 3'(CeStallFmac);
            end else begin
              s_fp_issue = 1'b1;
              fpop_d     = dec_fp_op;
              fpfmt_d    = dec_fp_fmt;
              fp_rd_d    = fa;
              // Sub is the FMAC's own operation; a and b as written, c for fma
              fpa_d      = rb_v;
              fpb_d      = rc_v;
              fpc_in_d   = rd_v;
              fp_half_d  = dec_fp_fmt == FpFmtF16 && FpOpIsTwoLaneF16[dec_fp_op];
            end
          end

          InsnClassLoad, InsnClassStore: begin
            logic [2:0] sz;  // bytes
            acc_write = dec_cls == InsnClassStore;
            unique case (dec_mem_op)
              MemOpB, MemOpBu: begin sz = 3'd1; acc_size = 2'd0; end
              MemOpH, MemOpHu: begin sz = 3'd2; acc_size = 2'd1; end
              default:         begin sz = 3'd4; acc_size = 2'd2; end
            endcase
            s_info = fault_info(acc_size, acc_write);
            if (ea[31:16] != 16'h0) begin
              s_fault = 1'b1;
              s_cause = 5'(CeFaultOutOfRange);
              s_addr  = ea;
            end else if ((sz == 3'd2 && ea[0]) || (sz == 3'd4 && ea[1:0] != 2'b00)) begin
              s_fault = 1'b1;
              s_cause = 5'(CeFaultMisaligned);
              s_addr  = ea;
            end else if (ea[15:0] >= MmioBase[15:0]) begin
              if (sz != 3'd4 || !mm_valid || mm_host) begin
                s_fault = 1'b1;
                s_cause = 5'(CeFaultMmioAccess);
                s_addr  = ea;
              end else if (acc_write && mm_ro) begin
                s_fault = 1'b1;
                s_cause = 5'(CeFaultReadOnly);
                s_addr  = ea;
              end else if (acc_write) begin
                s_reg_we = 1'b1;
                s_dbg    = mm_reg == MmioDebugPort;
              end else begin
                gpr_we      = 1'b1;
                gpr_wdata   = reg_read(mm_reg, mm_idx, rt_rdata_i);
                s_cyc_latch = mm_reg == MmioCycleLo;
              end
            end else if (acc_write) begin
              // SRAM store: the write port of this cycle (a DSD result due takes it first)
              if (eng_write_due) begin
                issue       = 1'b0;
                stall       = 1'b1;
                s_stall_why = 3'(CeStallPort);
              end else begin
                s_mem_we = 1'b1;
                unique case (sz)
                  3'd1: begin
                    s_mem_be    = 4'b0001 << ea[1:0];
                    s_mem_wdata = {4{ra_v[7:0]}};
                  end
                  3'd2: begin
                    s_mem_be    = ea[1] ? 4'b1100 : 4'b0011;
                    s_mem_wdata = {2{ra_v[15:0]}};
                  end
                  default: begin
                    s_mem_be    = 4'b1111;
                    s_mem_wdata = ra_v;
                  end
                endcase
              end
            end else if (eng_ports_held) begin
              issue       = 1'b0;
              stall       = 1'b1;
              s_stall_why = 3'(CeStallPort);
            end else begin
              gpr_we   = 1'b1;
              ld_sram  = 1'b1;  // the value comes from the read port (below)
              sc_ports = 2'd1;
              sc_banks = sz == 3'd4 ? 8'(2'b11) << ea[3:1] : 8'(1) << ea[3:1];
            end
          end

          InsnClassBr: begin
            logic take;
            unique case (dec_br_op)
              BrOpEq:  take = ra_v == rb_v;
              BrOpNe:  take = ra_v != rb_v;
              BrOpLt:  take = $signed(ra_v) < $signed(rb_v);
              BrOpGe:  take = $signed(ra_v) >= $signed(rb_v);
              BrOpLtu: take = ra_v < rb_v;
              BrOpGeu: take = ra_v >= rb_v;
              default: take = 1'b0;
            endcase
            if (take) begin
              logic [31:0] t;
              t = {16'h0, pc_q} + {{14{imm[15]}}, imm, 2'b00};
              if (t >= {16'h0, SramBytes[15:0]}) begin
                s_fault = 1'b1;
                s_cause = 5'(CeFaultPcRange);
                s_addr  = t;
              end else begin
                s_taken  = 1'b1;
                s_target = t[15:0];
              end
            end
          end

          InsnClassJump: begin
            logic [31:0] t;
            if (dec_jump_op == JumpOpJ || dec_jump_op == JumpOpJal)
              t = {16'h0, pc_q} + {{14{imm[15]}}, imm, 2'b00};
            else
              t = ea;
            if (t >= {16'h0, SramBytes[15:0]} || t[1:0] != 2'b00) begin
              s_fault = 1'b1;
              s_cause = 5'(CeFaultPcRange);
              s_addr  = t;
            end else begin
              s_taken  = 1'b1;
              s_target = t[15:0];
              if (dec_jump_op == JumpOpJal || dec_jump_op == JumpOpJalr) begin
                gpr_we    = 1'b1;
                gpr_wdata = {16'h0, pc_q + 16'd4};
              end
            end
          end

          InsnClassSys: begin
            unique case (dec_sys_op)
              SysOpTend: s_tend = 1'b1;
              SysOpTrap: begin
                s_fault = 1'b1;
                s_cause = 5'(CeFaultTrap);
                s_addr  = {16'h0, imm};
              end
              SysOpUtWait: begin
                if ((8'(ut_busy) & imm[7:0]) != 8'h0) begin
                  issue       = 1'b0;
                  stall       = 1'b1;
                  s_stall_why = 3'(CeStallUtWait);
                end
              end
              default: ;
            endcase
          end

          InsnClassTask: begin
            logic [31:0] t;
            t = fz ? {16'h0, imm} : gpr_q[fb];
            if (t == 32'(NoTask)) begin
              // "no task": nothing happens
            end else if (t > 32'(NoTask)) begin
              s_fault = 1'b1;
              s_cause = 5'(CeFaultTaskId);
              s_addr  = t;
            end else if ((dec_task_op == TaskOpActivate || dec_task_op == TaskOpActivateArg)
                         && tkind_q[t[4:0]] != TaskKindLocal
                         && tkind_q[t[4:0]] != TaskKindControl) begin
              s_fault = 1'b1;
              s_cause = 5'(CeFaultTaskKind);
              s_addr  = t;
            end else begin
              unique case (dec_task_op)
                TaskOpActivate:    s_activate[t[4:0]] = 1'b1;
                TaskOpActivateArg: begin
                  s_activate[t[4:0]] = 1'b1;
                  s_arg_we   = 1'b1;
                  s_arg_task = t[4:0];
                end
                TaskOpBlock:       s_block[t[4:0]] = 1'b1;
                default:           s_unblock[t[4:0]] = 1'b1;
              endcase
            end
          end

          InsnClassSend: begin
            logic [31:0] col;
            col = fz ? {16'h0, imm} : gpr_q[fb];
            if (col >= 32'(NumColors) || !can_send_i[col[4:0]]) begin
              s_fault = 1'b1;
              s_cause = 5'(CeFaultBadColor);
              s_addr  = col;
            end else if (ocred_q[col[4:0]] == 4'd0 || eng_send_due) begin
              issue       = 1'b0;
              stall       = 1'b1;
              s_stall_why = 3'(CeStallSend);
              s_stall_col = col[4:0];
            end else begin
              s_send       = 1'b1;
              s_link.valid = 1'b1;
              s_link.ctrl  = dec_send_op == SendOpCtrl;
              s_link.color = col[4:0];
              s_link.data  = ra_v;
            end
          end

          InsnClassDsr: begin
            unique case (dec_dsr_op)
              DsrOpLdd, DsrOpStd: begin
                acc_size  = 2'd3;
                acc_write = dec_dsr_op == DsrOpStd;
                s_info    = fault_info(acc_size, acc_write);
                if (ea[31:16] != 16'h0) begin
                  s_fault = 1'b1;
                  s_cause = 5'(CeFaultOutOfRange);
                  s_addr  = ea;
                end else if (ea[2:0] != 3'b000) begin
                  s_fault = 1'b1;
                  s_cause = 5'(CeFaultMisaligned);
                  s_addr  = ea;
                end else if (ea[15:0] >= MmioBase[15:0]) begin
                  s_fault = 1'b1;
                  s_cause = 5'(CeFaultMmioAccess);
                  s_addr  = ea;
                end else if (dec_dsr_op == DsrOpLdd) begin
                  if (eng_ports_held) begin
                    issue       = 1'b0;
                    stall       = 1'b1;
                    s_stall_why = 3'(CeStallPort);
                  end else begin
                    dsr_we    = 1'b1;
                    ld_sram   = 1'b1;
                    sc_ports  = 2'd2;
                    sc_banks  = 8'(4'b1111) << ea[3:1];
                  end
                end else if (eng_write_due) begin
                  issue       = 1'b0;
                  stall       = 1'b1;
                  s_stall_why = 3'(CeStallPort);
                end else begin
                  s_mem_we    = 1'b1;
                  s_mem_be    = 4'b1111;
                  s_mem_wdata = dsr_q[fa][31:0];
                end
              end
              DsrOpDmov: begin
                dsr_we    = 1'b1;
                dsr_wdata = dsr_q[fb];
              end
              DsrOpDrd: begin
                gpr_we    = 1'b1;
                gpr_wdata = imm[0] ? dsr_q[fb][63:32] : dsr_q[fb][31:0];
              end
              DsrOpDwr: begin
                dsr_we = 1'b1;
                if (imm[0]) dsr_wdata[63:32] = rb_v;
                else        dsr_wdata[31:0]  = rb_v;
              end
              DsrOpSetBase: begin
                if (ea[31:16] != 16'h0) begin
                  s_fault = 1'b1;
                  s_cause = 5'(CeFaultOutOfRange);
                  s_addr  = ea;
                end else begin
                  dsr_we = 1'b1;
                  dsr_wdata[DsdBaseLsb +: 16] = ea[15:0];
                end
              end
              DsrOpIncBase: begin
                logic [15:0] scale_v;
                logic [2:0]  el;
                el = dsr_q[fa][DsdElemLsb +: 3];
                scale_v = ea[15:0];  // bval = Bv + sx(imm)
                // mem1d: Base moves by whole elements (a reserved type counts as 1 byte)
                if (dsr_q[fa][DsdKindLsb +: 3] == 3'(DsdKindMem1d) && el <= 3'(ElemTypeU16))
                  scale_v = el[0] ? {ea[14:0], 1'b0} : {ea[13:0], 2'b00};
                dsr_we = 1'b1;
                dsr_wdata[DsdBaseLsb +: 16] = dsr_q[fa][DsdBaseLsb +: 16] + scale_v;
              end
              DsrOpSetLen: begin
                if (ea > 32'(UnboundedLength)) begin
                  s_fault = 1'b1;
                  s_cause = 5'(CeFaultDsdInvalid);
                  s_addr  = ea;
                end else begin
                  dsr_we = 1'b1;
                  dsr_wdata[DsdLengthLsb +: 15] = ea[14:0];
                end
              end
              default: ;
            endcase
          end

          InsnClassDsd: begin
            // its microthread must be idle; then the descriptor checks (tessera_ce_dsd)
            if (iss_busy) begin
              issue       = 1'b0;
              stall       = 1'b1;
              s_stall_why = 3'(CeStallUt);
            end else if (iss_fault) begin
              s_fault = 1'b1;
              s_cause = iss_cause;
              s_addr  = iss_addr;
              s_info  = iss_info;
            end
          end

          default: ;
        endcase
      end
      if (s_fault) issue = 1'b0;
      if (!issue) sc_ports = 2'd0;
    end
  end

  // Load data, apart from the issue decision above: the engine's read addresses depend on that
  // decision, and the SRAM read ports are combinational.
  always_comb begin
    gpr_wval = gpr_wdata;
    dsr_wval = dsr_wdata;
    load_val = '0;
    if (ld_sram) begin
      dsr_wval = {rd1_data_i, rd0_data_i};
      unique case (dec_mem_op)
        MemOpB: begin
          load_val = 32'(rd0_data_i[8*ea[1:0] +: 8]);
          gpr_wval = {{24{load_val[7]}}, load_val[7:0]};
        end
        MemOpBu: gpr_wval = {24'h0, rd0_data_i[8*ea[1:0] +: 8]};
        MemOpH: begin
          load_val = 32'(rd0_data_i[16*ea[1] +: 16]);
          gpr_wval = {{16{load_val[15]}}, load_val[15:0]};
        end
        MemOpHu: gpr_wval = {16'h0, rd0_data_i[16*ea[1] +: 16]};
        default: gpr_wval = rd0_data_i;
      endcase
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Control dispatcher (item 5) and picker (item 6)
  logic                 d_pop, d_fault, d_set;
  logic [4:0]           d_color, d_task;
  logic [NumTasks-1:0]  runnable;
  logic                 p_start, p_fault;
  logic [4:0]           p_task;
  logic [15:0]          p_entry;

  always_comb begin
    d_pop   = 1'b0;
    d_fault = 1'b0;
    d_set   = 1'b0;
    d_color = '0;
    d_task  = '0;
    for (int c = NumColors - 1; c >= 0; c--) begin
      logic [4:0] t;
      t = in_data[c][CtrlTaskLsb +: 5];
      if (in_valid[c] && in_ctrl[c] && !ut_reads[c] && (t == 5'(NoTask) || !active_q[t])) begin
        d_pop   = 1'b1;
        d_color = 5'(c);
        d_task  = t;
      end
    end
    if (d_pop && d_task != 5'(NoTask)) begin
      if (tkind_q[d_task] != TaskKindControl) d_fault = 1'b1;
      else                                    d_set   = 1'b1;
    end
  end

  always_comb begin
    for (int t = 0; t < NumTasks; t++) begin
      runnable[t] = 1'b0;
      if (!blocked_q[t]) begin
        if (tkind_q[t] == TaskKindData && t < NumColors)
          runnable[t] = in_valid[t] && !in_ctrl[t] && !ut_reads[t];
        else if (tkind_q[t] == TaskKindLocal || tkind_q[t] == TaskKindControl)
          runnable[t] = active_q[t];
      end
    end
    runnable[NoTask] = 1'b0;
    p_start = 1'b0;
    p_task  = '0;
    for (int t = NumTasks - 1; t >= 0; t--) begin
      if (runnable[t]) begin
        p_start = 1'b1;
        p_task  = 5'(t);
      end
    end
    if (running_q || fcause_q != 5'd0) p_start = 1'b0;
    p_entry = tentry_q[p_task];
    p_fault = p_start && (p_entry[1:0] != 2'b00 || p_entry >= SramBytes[15:0]);
  end

  // ---------------------------------------------------------------------------------------------
  // Fault recording: the first fault wins; same-cycle faults rank scalar, microthreads,
  // dispatcher, picker (docs/isa.md 7).
  logic        any_fault;
  logic        e_fault;
  logic [4:0]  e_cause;
  logic [15:0] e_pc;
  logic [31:0] e_addr, e_info;
  always_comb begin
    fcause_d  = fcause_q;
    fpc_d     = fpc_q;
    faddr_d   = faddr_q;
    finfo_d   = finfo_q;
    any_fault = 1'b0;
    if (live) begin
      if (s_fault) begin
        any_fault = 1'b1;
        fcause_d  = s_cause;
        fpc_d     = pc_q;
        faddr_d   = s_addr;
        finfo_d   = s_info;
      end else if (e_fault) begin
        any_fault = 1'b1;
        fcause_d  = e_cause;
        fpc_d     = e_pc;
        faddr_d   = e_addr;
        finfo_d   = e_info;
      end else if (d_fault) begin
        any_fault = 1'b1;
        fcause_d  = 5'(CeFaultTaskKind);
        fpc_d     = pc_q;
        faddr_d   = 32'(d_task);
        finfo_d   = fault_info(2'd0, 1'b1);  // Write marks the dispatcher's fault
        finfo_d[FaultInfoIndexLsb +: 15] = 15'(d_color);
      end else if (p_fault) begin
        any_fault = 1'b1;
        fcause_d  = 5'(CeFaultTaskEntry);
        fpc_d     = pc_q;
        faddr_d   = 32'(p_entry);
        finfo_d   = fault_info(2'd0, 1'b0);
        finfo_d[FaultInfoIndexLsb +: 15] = 15'(p_task);
      end
    end
    if (!en_i && host_we_i && hm_valid && hm_reg == MmioFaultStatus) begin
      fcause_d = '0;
      fpc_d    = '0;
      faddr_d  = '0;
      finfo_d  = '0;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Next state. A fault freezes everything after the faulting instruction or step, in the order
  // scalar stage, microthreads, dispatcher, picker; the router keeps running.
  logic do_issue;   // the scalar instruction takes effect
  logic e_go;       // the DSD engine acts
  logic do_disp, do_pick;
  logic [NumColors-1:0] e_pop;
  assign do_issue = live && issue;
  assign e_go     = live && !s_fault;
  assign do_disp  = e_go && !e_fault && d_pop && !d_fault;
  assign do_pick  = e_go && !e_fault && !d_fault && p_start && !p_fault;
  assign ret_en   = live && !any_fault;

  always_comb begin
    pop = e_pop;
    if (do_disp) pop[d_color] = 1'b1;
    if (do_pick && tkind_q[p_task] == TaskKindData) pop[p_task] = 1'b1;
  end

  // pc, fetch and the running task. The fetch address is computed apart from the instruction
  // register it loads (the SRAM read sits between them).
  logic [15:0] fetch_pc;
  logic        fetch;
  always_comb begin
    fetch    = 1'b0;
    fetch_pc = pc_q;
    if (do_issue && !s_tend && !s_taken) begin
      fetch    = 1'b1;  // the next instruction is fetched in the cycle its predecessor issues
      fetch_pc = pc_q + 16'd4;
    end else if (!do_issue && live && running_q && !ir_valid_q) begin
      fetch = 1'b1;     // after a taken branch or jump
    end
    if (do_pick) begin
      fetch    = 1'b1;
      fetch_pc = p_entry;
    end
  end

  always_comb begin
    pc_d       = pc_q;
    ir_d       = ir_q;
    ir_valid_d = ir_valid_q;
    ir_past_d  = ir_past_q;
    running_d  = running_q;
    task_d     = task_q;
    if (do_issue) begin
      if (s_tend) begin
        running_d  = 1'b0;
        ir_valid_d = 1'b0;
        pc_d       = pc_q + 16'd4;
      end else if (s_taken) begin
        pc_d       = s_target;
        ir_valid_d = 1'b0;
      end else begin
        pc_d = pc_q + 16'd4;
      end
    end
    if (do_pick) begin
      running_d = 1'b1;
      task_d    = p_task;
      pc_d      = p_entry;
    end
    if (fetch) begin
      // running past the end of SRAM faults (PcRange at pc 0xC000) when that word would issue
      ir_past_d  = fetch_pc >= SramBytes[15:0];
      ir_d       = ir_past_d ? 32'h0 : fetch_data_i;
      ir_valid_d = 1'b1;
    end
  end
  assign fetch_addr_o = fetch_pc[15:2];

  // SRAM ports: host back door while frozen; else the scalar stage, the engine's reads on the
  // ports it leaves, and one write: a DSD result due, the second word of a std, or a store.
  logic        e_rd0_en, e_rd1_en;
  logic [13:0] e_rd0_addr, e_rd1_addr;
  logic        std_write;
  assign std_write = std_pend_q && live && !eng_write_due;
  always_comb begin
    rd0_addr_o = e_rd0_en ? e_rd0_addr : ea[15:2];
    rd1_addr_o = e_rd1_en ? e_rd1_addr : ea[15:2] | 14'd1;
    we_o       = do_issue && s_mem_we;
    wr_addr_o  = s_mem_waddr;
    wr_be_o    = s_mem_be;
    wr_data_o  = s_mem_wdata;
    if (std_write) begin
      we_o      = 1'b1;
      wr_addr_o = std_addr_q;
      wr_be_o   = 4'b1111;
      wr_data_o = std_data_q;
    end
    if (e_we) begin
      we_o      = 1'b1;
      wr_addr_o = e_wr_addr;
      wr_be_o   = e_wr_be;
      wr_data_o = e_wr_data;
    end
    if (!en_i) begin
      rd0_addr_o = host_addr_i[15:2];
      we_o       = host_we_i && host_addr_i < SramBytes[15:0];
      wr_addr_o  = host_addr_i[15:2];
      wr_be_o    = 4'b1111;
      wr_data_o  = host_wdata_i;
    end
  end
  assign host_rdata_o = host_addr_i < SramBytes[15:0] ? rd0_data_i
                      : hm_valid ? reg_read(hm_reg, hm_idx, rt_rdata_i) : 32'h0;

  // std: the second word is written in the next cycle with a free write port; the CE waits for it
  always_comb begin
    std_pend_d = std_pend_q && !std_write;
    std_addr_d = std_addr_q;
    std_data_d = std_data_q;
    if (do_issue && dec_cls == InsnClassDsr && dec_dsr_op == DsrOpStd) begin
      std_pend_d = 1'b1;
      std_addr_d = ea[15:2] | 14'd1;
      std_data_d = dsr_q[fa][63:32];
    end
  end

  // scalar FP: operands registered for the FMAC slot of the next cycle
  always_comb begin
    fp_slot_d = do_issue && s_fp_issue;
    fp_pend_d = fp_pend_q;
    if (do_issue && s_fp_issue) fp_pend_d = 1'b1;
    if (fp_pend_q && fp_res_scalar && live) fp_pend_d = 1'b0;
  end
  // the FMAC slot: the scalar stage's or the engine's, never both (6.8 items 3, 4)
  logic        e_fp_valid;
  fp_op_e      e_fp_op;
  fp_fmt_e     e_fp_fmt;
  logic [31:0] e_fp_a, e_fp_b, e_fp_c;
  assign fp_valid_o = (fp_slot_q && live) || e_fp_valid;
  assign fp_op_o    = fp_slot_q ? fpop_q : e_fp_op;
  assign fp_fmt_o   = fp_slot_q ? fpfmt_q : e_fp_fmt;
  assign fp_a_o     = fp_slot_q ? fpa_q : e_fp_a;
  assign fp_b_o     = fp_slot_q ? fpb_q : e_fp_b;
  assign fp_c_o     = fp_slot_q ? fpc_in_q : e_fp_c;

  // which FMAC results are the scalar pipeline's: a tag travels beside the FMAC pipeline
  logic fp_res_scalar, fp_tag;
  tessera_pipe #(.Width(1), .Stages(FmacLatency)) u_fp_tag (
    .clk_i, .rst_ni, .en_i,
    .d_i(fp_slot_q),
    .q_o(fp_tag)
  );
  assign fp_res_scalar = fp_valid_i && fp_tag;

  logic [31:0] fp_scalar_result;
  assign fp_scalar_result = fp_half_q ? {16'h0, fp_result_i[15:0]} : fp_result_i;

  // One register write per cycle: a CE store while running, the host's back door while frozen
  // (the two never overlap). Host-only windows (Gpr, Dsr, CePc, FabricDim) are written below.
  logic        rw_we;    // a write to a register (not SRAM)
  mmio_reg_e   rw_reg;
  logic [4:0]  rw_idx;
  logic [31:0] rw_data;
  always_comb begin
    rw_we   = en_i ? do_issue && s_reg_we : host_we_i && hm_valid;
    rw_reg  = en_i ? s_reg : hm_reg;
    rw_idx  = en_i ? s_reg_idx : hm_idx;
    rw_data = en_i ? s_reg_wdata : host_wdata_i;
  end

  // task table, masks, flags and the other registers
  always_comb begin
    active_d  = active_q;
    blocked_d = blocked_q;
    fpflags_d = fpflags_q;
    cyc_hi_d  = cyc_hi_q;
    // register writes first (CE store or host back door) ...
    if (rw_we) begin
      unique case (rw_reg)
        MmioTaskActive:    active_d  = rw_data;
        MmioTaskActiveSet: active_d  = active_q | rw_data;
        MmioTaskActiveClr: active_d  = active_q & ~rw_data;
        MmioTaskBlocked:   blocked_d = rw_data;
        MmioTaskBlockSet:  blocked_d = blocked_q | rw_data;
        MmioTaskBlockClr:  blocked_d = blocked_q & ~rw_data;
        MmioFpFlags:       fpflags_d = rw_data[4:0];
        default: ;
      endcase
    end
    // ... then the instruction's block/unblock, the picker's clear, then activations
    if (do_issue) blocked_d = (blocked_d | s_block) & ~s_unblock;
    if (do_pick && tkind_q[p_task] != TaskKindData) active_d[p_task] = 1'b0;
    if (do_issue) active_d = active_d | s_activate;
    if (do_disp && d_set) active_d[d_task] = 1'b1;
    active_d  = active_d | e_activate;   // completions (docs/isa.md 5.3)
    blocked_d = blocked_d & ~e_unblock;
    active_d[NoTask] = 1'b0;
    if (fp_res_scalar && live) fpflags_d = fpflags_d | fp_flags_i[4:0];
    fpflags_d = fpflags_d | e_flags;
    if (do_issue && s_cyc_latch) cyc_hi_d = cycle_q[47:32];
  end

  // GPR, DSR and task-table writes
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NumGprs; i++) gpr_q[i] <= '0;
      for (int i = 0; i < NumDsrs; i++) dsr_q[i] <= '0;
      for (int t = 0; t < NumTasks; t++) begin
        tkind_q[t]  <= '0;
        tentry_q[t] <= '0;
        targ_q[t]   <= '0;
      end
      for (int k = 0; k < NumDebugFmts; k++) dbg_q[k] <= '0;
      fabric_dim_q <= '0;
    end else begin
      if (do_issue && gpr_we) gpr_q[gpr_waddr] <= gpr_wval;
      if (fp_res_scalar && live) gpr_q[fp_rd_q] <= fp_scalar_result;
      if (do_pick) gpr_q[0] <= tkind_q[p_task] == TaskKindData ? in_data[p_task]
                                                                : {16'h0, targ_q[p_task]};
      if (e_gpr_we) gpr_q[e_gpr_waddr] <= e_gpr_wdata;  // an fdot result wins (docs/isa.md 6.5)
      if (do_issue && dsr_we) dsr_q[dsr_waddr] <= dsr_wval;
      // TaskArg: the register write, then activate with an argument, then the dispatcher
      // (docs/isa.md 3.2; the last write below wins)
      if (rw_we && rw_reg == MmioTaskArg && rw_idx != 5'(NoTask))
        targ_q[rw_idx] <= rw_data[15:0];
      if (do_issue && s_arg_we) targ_q[s_arg_task] <= s_arg;
      if (do_disp && d_set) targ_q[d_task] <= in_data[d_color][15:0];
      // entry 31 of the task table is read-only zero (a CE store to it faults ReadOnly)
      if (rw_we && rw_reg == MmioTaskCfg && rw_idx != 5'(NoTask)) begin
        tentry_q[rw_idx] <= rw_data[15:0];
        tkind_q[rw_idx]  <= rw_data[TaskCfgKindLsb +: 2];
      end
      if (rw_we && rw_reg == MmioDebugPort && rw_idx < 5'(NumDebugFmts))
        dbg_q[rw_idx[2:0]] <= rw_data;
      if (!en_i && host_we_i && hm_valid) begin
        if (hm_reg == MmioGpr) gpr_q[hm_idx[3:0]] <= host_wdata_i;
        if (hm_reg == MmioDsr) begin
          if (hm_idx[0]) dsr_q[hm_idx[4:1]][63:32] <= host_wdata_i;
          else           dsr_q[hm_idx[4:1]][31:0]  <= host_wdata_i;
        end
        if (hm_reg == MmioFabricDim) fabric_dim_q <= host_wdata_i;
      end
    end
  end

  // output credits toward the router's RAMP input
  for (genvar c = 0; c < NumColors; c++) begin : g_ocred
    logic [3:0] ocred_d;
    always_comb begin
      ocred_d = ocred_q[c];
      if (en_i && credit_i.valid && credit_i.color == 5'(c)) ocred_d = ocred_d + 4'd1;
      if (do_issue && s_send && s_link.color == 5'(c))      ocred_d = ocred_d - 4'd1;
      if (e_cred_take && e_cred_color == 5'(c))             ocred_d = ocred_d - 4'd1;
    end
    // what the engine sees: the credits left after the scalar stage's send
    assign ocred_after[c*4 +: 4] = ocred_q[c] - 4'(do_issue && s_send && s_link.color == 5'(c));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ocred_q[c] <= 4'(RampInDepth);
      else         ocred_q[c] <= ocred_d;
    end
  end

  // synchronous DSD operations and CeStatus.Stall
  always_comb begin
    sync_d      = sync_q;
    sync_ut_d   = sync_ut_q;
    stall_d     = stall_q;
    stall_col_d = stall_col_q;
    if (do_issue) begin
      sync_d      = dec_cls == InsnClassDsd && ir_dsd.u && ir_dsd.tid == 5'(NoTask);
      sync_ut_d   = ir_dsd.ut;
      stall_d     = 3'(CeStallNone);
      stall_col_d = '0;
    end
    if (live && stall) begin
      stall_d = s_stall_why;
      if (s_stall_why == 3'(CeStallSend)) stall_col_d = s_stall_col;
    end
    if (std_pend_q && live) stall_d = std_write ? 3'(CeStallNone) : 3'(CeStallPort);
    if (do_pick) begin
      stall_d     = 3'(CeStallNone);
      stall_col_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q      <= 1'b0;
      sync_ut_q   <= '0;
      stall_q     <= '0;
      stall_col_q <= '0;
    end else begin
      sync_q      <= sync_d;
      sync_ut_q   <= sync_ut_d;
      stall_q     <= stall_d;
      stall_col_q <= stall_col_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q       <= '0;
      ir_q       <= '0;
      ir_valid_q <= 1'b0;
      ir_past_q  <= 1'b0;
      running_q  <= 1'b0;
      task_q     <= 5'(NoTask);
      active_q   <= '0;
      blocked_q  <= '0;
      cycle_q    <= '0;
      cyc_hi_q   <= '0;
      fpflags_q  <= '0;
      fcause_q   <= '0;
      fpc_q      <= '0;
      faddr_q    <= '0;
      finfo_q    <= '0;
      fp_slot_q  <= 1'b0;
      fp_pend_q  <= 1'b0;
      fp_rd_q    <= '0;
      fp_half_q  <= 1'b0;
      fpa_q      <= '0;
      fpb_q      <= '0;
      fpc_in_q   <= '0;
      fpop_q     <= FpOpAdd;
      fpfmt_q    <= FpFmtF32;
      std_pend_q <= 1'b0;
      std_addr_q <= '0;
      std_data_q <= '0;
    end else begin
      pc_q       <= !en_i && host_we_i && hm_valid && hm_reg == MmioCePc ? host_wdata_i[15:0] : pc_d;
      ir_q       <= ir_d;
      ir_valid_q <= ir_valid_d;
      ir_past_q  <= ir_past_d;
      running_q  <= running_d;
      task_q     <= task_d;
      active_q   <= active_d;
      blocked_q  <= blocked_d;
      cycle_q    <= en_i ? cycle_q + 48'd1 : cycle_q;  // counts on after a fault
      cyc_hi_q   <= cyc_hi_d;
      fpflags_q  <= fpflags_d;
      fcause_q   <= fcause_d;
      fpc_q      <= fpc_d;
      faddr_q    <= faddr_d;
      finfo_q    <= finfo_d;
      fp_slot_q  <= fp_slot_d;
      fp_pend_q  <= fp_pend_d;
      fp_rd_q    <= fp_rd_d;
      fp_half_q  <= fp_half_d;
      fpa_q      <= fpa_d;
      fpb_q      <= fpb_d;
      fpc_in_q   <= fpc_in_d;
      fpop_q     <= fpop_d;
      fpfmt_q    <= fpfmt_d;
      std_pend_q <= std_pend_d;
      std_addr_q <= std_addr_d;
      std_data_q <= std_data_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The DSD engine (docs/isa.md 6.8 items 1 and 4)
  for (genvar t = 0; t < NumTasks; t++) begin : g_tkind
    assign tkind_flat[t*2 +: 2] = tkind_q[t];
  end

  tessera_ce_dsd u_dsd (
    .clk_i, .rst_ni,
    .live_i        (live),
    .go_i          (e_go),
    .iss_insn_i    (ir_q),
    .iss_dec_i     (dec),
    .iss_go_i      (do_issue && dec_cls == InsnClassDsd),
    .iss_pc_i      (pc_q),
    .iss_dsr_dst_i (dsr_q[ir_dsd.dst]),
    .iss_dsr_src0_i(dsr_q[ir_dsd.src0]),
    .iss_dsr_src1_i(dsr_q[ir_dsd.src1]),
    .iss_scalar_i  (gpr_q[ir_dsd.s]),
    .can_send_i,
    .can_recv_i,
    .iss_busy_o    (iss_busy),
    .iss_fault_o   (iss_fault),
    .iss_cause_o   (iss_cause),
    .iss_addr_o    (iss_addr),
    .iss_info_o    (iss_info),
    .sc_ports_i    (sc_ports),
    .sc_banks_i    (sc_banks),
    .sc_row_i      (sc_row),
    .sc_fmac_i     (issue && s_fp_issue),
    .ocred_i       (ocred_after),
    .in_valid_i    (in_valid),
    .in_ctrl_i     (in_ctrl),
    .in_data_i     (in_data_flat),
    .pop_o         (e_pop),
    .cred_take_o   (e_cred_take),
    .cred_color_o  (e_cred_color),
    .rd0_en_o      (e_rd0_en),
    .rd0_addr_o    (e_rd0_addr),
    .rd0_data_i,
    .rd1_en_o      (e_rd1_en),
    .rd1_addr_o    (e_rd1_addr),
    .rd1_data_i,
    .wr_en_o       (e_we),
    .wr_addr_o     (e_wr_addr),
    .wr_be_o       (e_wr_be),
    .wr_data_o     (e_wr_data),
    .wave_o        (e_wave),
    .gpr_we_o      (e_gpr_we),
    .gpr_waddr_o   (e_gpr_waddr),
    .gpr_wdata_o   (e_gpr_wdata),
    .flags_o       (e_flags),
    .split_o       (e_split),
    .fp_valid_o    (e_fp_valid),
    .fp_op_o       (e_fp_op),
    .fp_fmt_o      (e_fp_fmt),
    .fp_a_o        (e_fp_a),
    .fp_b_o        (e_fp_b),
    .fp_c_o        (e_fp_c),
    .fp_result_i,
    .fp_flags_i,
    .tkind_i       (tkind_flat),
    .activate_o    (e_activate),
    .unblock_o     (e_unblock),
    .fault_o       (e_fault),
    .fault_cause_o (e_cause),
    .fault_pc_o    (e_pc),
    .fault_addr_o  (e_addr),
    .fault_info_o  (e_info),
    .busy_o        (ut_busy),
    .reads_o       (ut_reads),
    .status_o      (ut_status),
    .info_o        (ut_info)
  );

  // ---------------------------------------------------------------------------------------------
  // Outputs
  assign ramp_o      = e_wave.valid ? e_wave : (do_issue && s_send) ? s_link : '0;
  assign rt_we_o     = (do_issue && s_reg_we && mm_router) || (!en_i && host_we_i && hm_router);
  assign rt_addr_o   = en_i ? ea[15:0] : host_addr_i;
  assign rt_wdata_o  = en_i ? ra_v : host_wdata_i;
  assign dbg_valid_o = do_issue && s_dbg;
  assign dbg_fmt_o   = s_dbg_fmt;
  assign dbg_value_o = s_reg_wdata;
  assign fault_o     = fcause_q != 5'd0;
  assign quiet_o     = !running_q && runnable == '0 && ut_busy == '0 && in_valid == '0 && !owed;
  assign retire_o    = do_issue;
  assign retire_pc_o = pc_q;
  assign task_start_o = do_pick;
  assign task_id_o   = p_task;

  logic unused;
  assign unused = ^{hm_ro, hm_host, load_val[31:16], dec};
endmodule
