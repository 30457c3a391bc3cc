// The DSD engine of the compute engine (docs/isa.md 2.4, 4.11, 5.3, 6): eight microthreads, each
// running one DSD operation over mem1d and fabric operands, and at most one element step per
// cycle through the PE's SRAM read ports and FMAC. The cycle follows docs/isa.md 6.8:
//   item 1  the result due (res_due, the last stage of u_results, a tessera_pipe of DsdLatency
//           stages): its SRAM write, wavelet, GPR write (fdot) and flags, its fdot word, one
//           fewer in flight
//   item 3  the checks of the scalar stage's DSD instruction (u_check) and, when it issues, the
//           operation it starts on its microthread
//   item 4  each microthread's next step (g_ut[u].u_ut), the engine's choice of step, faults and
//           reads (u_plan), the step's datapath (u_step): the FMAC slot of the next cycle
//           (slot_q, u_slot: a one-stage tessera_pipe) and a result into flight.
// A step taken in cycle c presents its FMAC operands in c+1 (the FMAC slot) and its result is due
// in c+DsdLatency, when the FMAC output appears. fdot partial sums live in the microthreads,
// updated when their results are due; a step that needs a partial in the very cycle it is due
// takes it from the FMAC output (forwarding), which is what "ready = taken + FmacLatency" of 6.5
// means in hardware. The functional model's twin is model/ce/dsd.cpp.
//
//   u_check ---------------------------------------------> iss_fault_o (the scalar stage's)
//   g_ut[u].u_ut -- ready, comp, faults --> u_plan -- stepper --> view mux --> u_step
//        ^  ^--- run, turn, may_end/complete, step ---'                         |     |
//        '------------- result due <-- u_results <---- result ------------------'     |
//                                       u_slot <------ slot --------------------------'
module tessera_ce_dsd (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic                                  live_i,   // enabled, no fault recorded
  input  logic                                  go_i,     // live, and the scalar stage did not fault
  // the DSD instruction at issue (docs/isa.md 4.11): checks, and its effects when it issues
  input  logic [31:0]                           iss_insn_i,
  input  tessera_pkg::isa_dec_t                 iss_dec_i,
  input  logic                                  iss_go_i,
  input  logic [15:0]                           iss_pc_i,
  input  logic [63:0]                           iss_dsr_dst_i,
  input  logic [63:0]                           iss_dsr_src0_i,
  input  logic [63:0]                           iss_dsr_src1_i,
  input  logic [63:0]                           iss_ext_dst_i,   // the odd DSR of each role's
  input  logic [63:0]                           iss_ext_src0_i,  // pair (a mem4d operand's
  input  logic [63:0]                           iss_ext_src1_i,  // extension)
  input  logic [31:0]                           iss_scalar_i,
  input  logic [tessera_pkg::NumColors-1:0]     can_send_i,
  input  logic [tessera_pkg::NumColors-1:0]     can_recv_i,
  output logic                                  iss_busy_o,   // its microthread is busy
  output logic                                  iss_fault_o,
  output tessera_pkg::ce_fault_t             iss_fault_rec_o,
  // what the scalar stage took in this cycle
  input  logic [1:0]                            sc_ports_i,
  input  logic [7:0]                            sc_banks_i,
  input  logic [11:0]                           sc_row_i,
  input  logic                                  sc_fmac_i,
  input  logic [tessera_pkg::NumColors-1:0]     cred_i,       // an output credit per color, after
                                                                // the scalar stage's send
  // CE input queue heads (start of cycle)
  input  logic [tessera_pkg::NumColors-1:0]     in_valid_i,
  input  logic [tessera_pkg::NumColors-1:0]     in_ctrl_i,
  input  logic [tessera_pkg::NumColors*32-1:0]  in_data_i,
  output logic [tessera_pkg::NumColors-1:0]     pop_o,
  output logic                                  cred_take_o,  // a fabout step takes a credit
  output logic [4:0]                            cred_color_o,
  // SRAM: reads (port 0 only when the scalar stage reads nothing), the write of a result due
  output tessera_pkg::sram_rd_t              rd_o,
  input  tessera_pkg::sram_rsp_t             sram_i,
  output tessera_pkg::sram_wr_t              wr_o,
  // the rest of the result due (item 1)
  output tessera_pkg::link_t                    wave_o,
  output tessera_pkg::gpr_wr_t               gpr_o,
  output logic [4:0]                            flags_o,
  // the second cycle of a split step: read ports and the next FMAC slot are the engine's
  output logic                                  split_o,
  // the FMAC slot of this cycle, and the FMAC output
  output tessera_pkg::fmac_req_t             fmac_o,
  // for the performance counters: the step of this cycle takes the next cycle's FMAC slot, and
  // the elements it finishes
  output logic                                  step_fmac_o,
  output logic [1:0]                            step_elems_o,
  input  tessera_pkg::fmac_rsp_t             fmac_i,
  // completions (docs/isa.md 5.3)
  input  logic [tessera_pkg::NumTasks*2-1:0]    tkind_i,
  output logic [31:0]                           activate_o,
  output logic [31:0]                           unblock_o,
  // a fault of a microthread's step or completion (ranked after the scalar stage)
  output logic                                  fault_o,
  output tessera_pkg::ce_fault_t             fault_rec_o,
  // state for CeStatus, CeColor, UtStatus and UtInfo
  output logic [tessera_pkg::NumMicrothreads-1:0]      busy_o,
  output logic [tessera_pkg::NumMicrothreads-1:0]      starved_o,  // waits for fabin data or a FIFO, only
  output logic [tessera_pkg::NumColors-1:0]            reads_o,
  output logic [tessera_pkg::NumMicrothreads*32-1:0]   status_o,
  output logic [tessera_pkg::NumMicrothreads*32-1:0]   info_o,
  // the FIFOs, for FifoState: FIFO k at [15*k +: 15]
  output logic [tessera_pkg::NumFifos*15-1:0]          fifo_head_o,
  output logic [tessera_pkg::NumFifos*15-1:0]          fifo_tail_o,
  output logic [tessera_pkg::NumFifos*15-1:0]          fifo_count_o,
  output logic [tessera_pkg::NumFifos*15-1:0]          fifo_used_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned NumUts = NumMicrothreads;
  localparam int unsigned Lat    = DsdLatency;
  localparam int unsigned NumDw  = 7;  // fdot words per microthread

  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] nv,
                                        input logic [1:0] m);
    merge = {m[1] ? nv[31:16] : old[31:16], m[0] ? nv[15:0] : old[15:0]};
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Item 3: the DSD instruction at issue
  tessera_pkg::insn_d_t iss_d;  // format D (model/arch/isa.def)
  dsd_form_e            iss_form;
  logic [2:0]           iss_has;
  logic [14:0]          iss_len;  // N, from the checks (a mem4d lead's four lengths multiplied)
  always_comb begin
    iss_d    = iss_insn_i;
    iss_form = iss_dec_i.dsd_form;
    iss_has  = {DsdFormHasSrc1[iss_form], DsdFormHasSrc0[iss_form], DsdFormHasDst[iss_form]};
  end

  tessera_ce_dsd_check u_check (
    .active_i   (iss_dec_i.cls == InsnClassDsd),
    .insn_i     (iss_insn_i),
    .dec_i      (iss_dec_i),
    .pc_i       (iss_pc_i),
    .dsr_dst_i  (iss_dsr_dst_i),
    .dsr_src0_i (iss_dsr_src0_i),
    .dsr_src1_i (iss_dsr_src1_i),
    .ext_dst_i  (iss_ext_dst_i),
    .ext_src0_i (iss_ext_src0_i),
    .ext_src1_i (iss_ext_src1_i),
    .can_send_i,
    .can_recv_i,
    .len_o      (iss_len),
    .fault_o    (iss_fault_o),
    .fault_rec_o(iss_fault_rec_o)
  );

  // What the instruction loads into its microthread when it issues (decoded once, only then)
  tessera_pkg::dsd_issue_t iss_op;

  tessera_ce_dsd_issue u_issue (
    .active_i  (iss_go_i),
    .insn_i    (iss_insn_i),
    .op_i      (iss_dec_i.dsd_op),
    .fmt_i     (iss_dec_i.dsd_fmt),
    .form_i    (iss_form),
    .has_i     (iss_has),
    .len_i     (iss_len),
    .dsr_dst_i (iss_dsr_dst_i),
    .dsr_src0_i(iss_dsr_src0_i),
    .dsr_src1_i(iss_dsr_src1_i),
    .ext_dst_i (iss_ext_dst_i),
    .ext_src0_i(iss_ext_src0_i),
    .ext_src1_i(iss_ext_src1_i),
    .scalar_i  (iss_scalar_i),
    .pc_i      (iss_pc_i),
    .iss_o     (iss_op)
  );

  // ---------------------------------------------------------------------------------------------
  // Item 1: the result due, the last stage of the results in flight
  tessera_pkg::dsd_result_t res_new, res_due;
  logic                        due;
  logic [31:0]                 due_val;

  tessera_pipe #(.Width($bits(res_new)), .Stages(Lat), .ValidBit($bits(res_new) - 1)) u_results (
    .clk_i, .rst_ni,
    .en_i(live_i),   // a fault or the host's freeze holds every result in flight
    .d_i (res_new),
    .q_o (res_due)
  );

  always_comb begin
    due     = res_due.valid && live_i;
    due_val = res_due.fmac ? fmac_i.result : res_due.value;
    if (res_due.fmac && res_due.cmp)  // a compare: all ones or zeros (docs/isa.md 4.11)
      due_val = {{16{!res_due.half}} & {16{fmac_i.result[0] ^ res_due.cmp_inv}},
                 {16{fmac_i.result[0] ^ res_due.cmp_inv}}};
    wr_o         = '0;
    wr_o.we      = due && res_due.kind == tessera_pkg::DsdResSram;
    wr_o.addr    = res_due.addr;
    wr_o.be      = res_due.be;
    wr_o.data    = res_due.half ? {2{due_val[15:0]}} : due_val;
    wave_o       = '0;
    wave_o.valid = due && res_due.kind == tessera_pkg::DsdResWave;
    wave_o.ctrl  = res_due.ctrl;
    wave_o.color = res_due.color;
    wave_o.data  = res_due.half ? {res_due.hi, due_val[15:0]} : due_val;
    gpr_o        = '0;
    gpr_o.we     = due && res_due.kind == tessera_pkg::DsdResGpr;
    gpr_o.addr   = res_due.gpr;
    gpr_o.data   = res_due.half ? {16'h0, due_val[15:0]} : due_val;
    flags_o      = '0;
    if (due) begin
      flags_o = res_due.flags;
      if (res_due.fmac && res_due.lanes[0]) flags_o = flags_o | fmac_i.flags[4:0];
      if (res_due.fmac && res_due.lanes[1]) flags_o = flags_o | fmac_i.flags[9:5];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Item 4: the microthreads, the engine's choices, the step
  logic [NumColors-1:0] head_data, head_ctrl;
  assign head_data = in_valid_i & ~in_ctrl_i;
  assign head_ctrl = in_valid_i & in_ctrl_i;

  logic                   run, step, fault, split, spair;
  logic [2:0]             stepper, fault_ut, split_ut;
  logic [NumUts-1:0]      ready, comp, cfault, range, turn, may_end, may_complete, ut_due;
  logic [NumUts-1:0]      comp_unbl;
  logic [4:0]             comp_tid [NumUts];
  logic [15:0]            comp_pc [NumUts];
  logic [15:0]            ut_pc [NumUts];
  logic [1:0]             range_role [NumUts];
  logic [3:0]             range_dsr [NumUts];
  logic [31:0]            range_addr [NumUts];
  logic [2:0]             in_flight [NumUts];
  logic [NumColors-1:0]   ut_reads [NumUts];
  logic [31:0]            dw [NumUts*NumDw];  // fdot word w of microthread u at [NumDw*u + w]
  tessera_pkg::dsd_ut_view_t view_step;  // the stepper's
  tessera_pkg::dsd_ut_view_t view_fault; // the faulting microthread's
  logic [$bits(view_step)-1:0]  views [NumUts];


  // The fdot word the result due updates (an fdot partial or combine result), merged once here
  // for the microthread's update and for the FMAC slot that reads it in this cycle.
  logic        due_dw_we;
  logic [31:0] due_dw_data;
  always_comb begin
    due_dw_we   = due && res_due.dot && res_due.fmac;
    due_dw_data = '0;
    if (due_dw_we)
      due_dw_data = merge(dw[NumDw*32'(res_due.ut) + 32'(res_due.dw)], fmac_i.result, res_due.dm);
  end

  // The FIFOs: moved by the steps of operations with FIFO operands and by their results due.
  logic fifo_step;
  assign fifo_step = step && view_step.fifos;

  tessera_ce_fifo u_fifo (
    .clk_i, .rst_ni,
    .step_i     (fifo_step),
    .split_i    (split),
    .view_i     (view_step),
    .done_i     (due && res_due.fifo),
    .done_k_i   (res_due.color[2:0]),
    .head_o     (fifo_head_o),
    .tail_o     (fifo_tail_o),
    .count_o    (fifo_count_o),
    .used_o     (fifo_used_o)
  );

  for (genvar u = 0; u < NumUts; u++) begin : g_ut
    assign ut_due[u] = due && res_due.ut == 3'(u);

    logic [NumDw*32-1:0] ut_dw;
    for (genvar w = 0; w < NumDw; w++) begin : g_dw
      assign dw[NumDw*u + w] = ut_dw[32*w +: 32];
    end

    tessera_ce_dsd_ut u_ut (
      .clk_i, .rst_ni,
      .live_i,
      .issue_i       (iss_go_i && iss_d.ut == 3'(u)),
      .iss_i         (iss_op),
      .head_data_i   (head_data),
      .head_ctrl_i   (head_ctrl),
      .cred_i,
      .sc_ports_i,
      .sc_banks_i,
      .sc_row_i,
      .sc_fmac_i,
      .split_i       (split),
      .split_me_i    (split && split_ut == 3'(u)),
      .spair_i       (spair),
      .due_i         (ut_due[u]),
      .due_dw_we_i   (ut_due[u] && due_dw_we),
      .due_dw_i      (res_due.dw),
      .due_dw_data_i (due_dw_data),
      .tkind_i,
      .fifo_head_i   (fifo_head_o),
      .fifo_tail_i   (fifo_tail_o),
      .fifo_count_i  (fifo_count_o),
      .fifo_used_i   (fifo_used_o),
      .ready_o       (ready[u]),
      .comp_o        (comp[u]),
      .cfault_o      (cfault[u]),
      .range_o       (range[u]),
      .comp_tid_o    (comp_tid[u]),
      .comp_unbl_o   (comp_unbl[u]),
      .comp_pc_o     (comp_pc[u]),
      .range_role_o  (range_role[u]),
      .range_dsr_o   (range_dsr[u]),
      .range_addr_o  (range_addr[u]),
      .pc_o          (ut_pc[u]),
      .view_o        (views[u]),
      .run_i         (run),
      .may_end_i     (may_end[u]),
      .may_complete_i(may_complete[u]),
      .turn_i        (turn[u]),
      .step_i        (step && stepper == 3'(u)),
      .busy_o        (busy_o[u]),
      .in_flight_o   (in_flight[u]),
      .starved_o     (starved_o[u]),
      .reads_o       (ut_reads[u]),
      .status_o      (status_o[u*32 +: 32]),
      .info_o        (info_o[u*32 +: 32]),
      .dw_o          (ut_dw)
    );
  end

  assign view_step = views[stepper];

  tessera_ce_dsd_plan u_plan (
    .clk_i, .rst_ni,
    .go_i,
    .busy_i        (busy_o),
    .ready_i       (ready),
    .comp_i        (comp),
    .cfault_i      (cfault),
    .range_i       (range),
    .split_i       (split),
    .split_ut_i    (split_ut),
    .sc_ports_i,
    .view_i        (view_step),
    .run_o         (run),
    .step_o        (step),
    .stepper_o     (stepper),
    .fault_o       (fault),
    .fault_ut_o    (fault_ut),
    .may_end_o     (may_end),
    .may_complete_o(may_complete),
    .turn_o        (turn),
    .rd_o
  );

  tessera_pkg::dsd_slot_t slot_new, slot_q;

  tessera_ce_dsd_step u_step (
    .clk_i, .rst_ni,
    .live_i,
    .step_i      (step),
    .stepper_i   (stepper),
    .view_i      (view_step),
    .sc_ports_i,
    .sram_i,
    .in_data_i,
    .pop_o,
    .cred_take_o,
    .cred_color_o,
    .split_o     (split),
    .split_ut_o  (split_ut),
    .spair_o     (spair),
    .slot_o      (slot_new),
    .result_o    (res_new),
    .elems_o     (step_elems_o)
  );
  assign step_fmac_o = slot_new.valid;

  // The microthreads' completions (docs/isa.md 5.3), and the fault: a completion's task kind
  // (TaskKind), else the step's element outside SRAM (DsdRange)
  assign iss_busy_o = busy_o[iss_d.ut];
  assign split_o    = split && live_i;
  assign fault_o    = fault;
  assign view_fault = views[fault_ut];
  always_comb begin
    activate_o = '0;
    unblock_o  = '0;
    reads_o    = '0;
    for (int u = 0; u < NumUts; u++) reads_o = reads_o | ut_reads[u];
    if ((may_complete & comp) != '0) begin
      for (int u = 0; u < NumUts; u++) begin
        if (may_complete[u] && comp[u] && comp_tid[u] != 5'(NoTask)) begin
          if (comp_unbl[u]) unblock_o[comp_tid[u]]  = 1'b1;
          else              activate_o[comp_tid[u]] = 1'b1;
        end
      end
    end
    // the fault record, only for a fault
    fault_rec_o = '0;
    if (fault) begin
      fault_rec_o.info[FaultInfoUtLsb +: 4] = 4'(fault_ut);
      if (cfault[fault_ut]) begin
        fault_rec_o.cause = CeFaultTaskKind;
        fault_rec_o.pc    = comp_pc[fault_ut];
        fault_rec_o.addr  = 32'(comp_tid[fault_ut]);
      end else begin
        fault_rec_o.cause = CeFaultDsdRange;
        fault_rec_o.pc    = ut_pc[fault_ut];
        fault_rec_o.addr  = range_addr[fault_ut];
        fault_rec_o.info[FaultInfoRoleLsb +: 3]   = 3'(range_role[fault_ut]) + 3'd1;
        fault_rec_o.info[FaultInfoDsrLsb +: 4]    = range_dsr[fault_ut];
        fault_rec_o.info[FaultInfoIndexLsb +: 15] = view_fault.i[14:0];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The FMAC slot: the step of the previous cycle, with fdot words forwarded from the FMAC output
  // due in this cycle.
  tessera_pipe #(.Width($bits(slot_new)), .Stages(1), .ValidBit($bits(slot_new) - 1)) u_slot (
    .clk_i, .rst_ni,
    .en_i(live_i),
    .d_i (slot_new),
    .q_o (slot_q)
  );

  logic [31:0] fwd [NumDw];  // its microthread's fdot words, the one due merged in
  always_comb begin
    logic [31:0] b;
    // (an fdot word is read only by a slot that refers to one)
    for (int w = 0; w < NumDw; w++) fwd[w] = '0;
    if (slot_q.a_ref || slot_q.b_ref || slot_q.c_ref) begin
      for (int w = 0; w < NumDw; w++) begin
        fwd[w] = dw[NumDw*32'(slot_q.ut) + w];
        if (due_dw_we && res_due.ut == slot_q.ut && 32'(res_due.dw) == w) fwd[w] = due_dw_data;
      end
    end
    b            = slot_q.b_ref ? fwd[slot_q.b_w] : slot_q.b;
    fmac_o       = '0;
    fmac_o.valid = slot_q.valid && live_i;
    fmac_o.op    = slot_q.op;
    fmac_o.fmt   = slot_q.fmt;
    fmac_o.a     = slot_q.a_ref ? fwd[slot_q.a_w] : slot_q.a;
    fmac_o.b     = slot_q.b_hi ? {16'h0, b[31:16]} : b;
    fmac_o.c     = slot_q.c_ref ? fwd[slot_q.c_w] : slot_q.c;
  end

  // ---------------------------------------------------------------------------------------------
  // Assertions
  `include "tessera_assert.svh"
`ifndef SYNTHESIS
  logic [5:0]        in_flight_total;
  logic [NumUts-1:0] in_flight_idle;  // an idle microthread with results in flight
  always_comb begin
    in_flight_total = '0;
    for (int u = 0; u < NumUts; u++) begin
      in_flight_total   = in_flight_total + 6'(in_flight[u]);
      in_flight_idle[u] = !busy_o[u] && in_flight[u] != '0;
    end
  end
  `ASSERT(DsdLatencyIsFmacPlusOne, Lat == FmacLatency + 1)
  // one step per cycle, each result due Lat cycles later: at most Lat results in flight
  `ASSERT(InFlightWithinLatency, 32'(in_flight_total) <= Lat)
  `ASSERT(IdleUtsHaveNothingInFlight, in_flight_idle == '0)
  `ASSERT_IF(ResultDueIsForABusyUt, due, busy_o[res_due.ut])
  `ASSERT_IF(SplitUtIsBusy, split, busy_o[split_ut])
  `ASSERT(OneWriteKindDue, $onehot0({wr_o.we, wave_o.valid, gpr_o.we}))
  `ASSERT_IF(IssueOnIdleUt, iss_go_i, !busy_o[iss_d.ut])
`endif

  // The decoder's other fields (scalar classes) are not the engine's.
  logic unused;
  assign unused = ^{iss_dec_i, iss_d, fmac_i.valid, sram_i.fetch_data, view_fault};
endmodule
