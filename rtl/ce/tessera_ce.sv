// The compute engine (docs/isa.md): an in-order, single-issue core running tasks from the PE's
// SRAM, with a DSD engine of eight microthreads beside it. Each cycle follows the grant order of
// docs/isa.md 6.8; this module wires its parts:
//   u_fetch     pc, the instruction register, the running task
//   u_scalar    the scalar stage (item 3): issue, stall or fault of the instruction at pc
//   u_dsd       the DSD engine: its results due (item 1) and its step (item 4)
//   u_tasks     the control dispatcher and the picker (items 5, 6)
//   u_fault     fault recording, and which actors act in the cycle
//   u_inq       the CE input queues and the credits owed back to the router (items 7, 8)
//   u_ocred     the output credits toward the router
//   u_fp        the scalar stage's FMAC slot and result; the FMAC slot of the cycle
//   u_regs      the architectural registers, the register read mux and write port
//   u_sram_mux  who uses the SRAM's ports
// The SRAM and the FMAC are the PE's, reached through sram_o/sram_i and fmac_o/fmac_i.
module tessera_ce (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic                                  en_i,       // 0: frozen (host back door)
  input  logic [15:0]                           x_i,
  input  logic [15:0]                           y_i,
  input  logic [47:0]                           cycle_i,    // enabled cycles so far (CycleLo)
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
  // the PE's SRAM (tessera_sram) and FMAC (tessera_fmac)
  output tessera_pkg::sram_req_t             sram_o,
  input  tessera_pkg::sram_rsp_t             sram_i,
  output tessera_pkg::fmac_req_t             fmac_o,
  input  tessera_pkg::fmac_rsp_t             fmac_i,
  // debug port records and status
  output logic                                  dbg_valid_o,
  output logic [2:0]                            dbg_fmt_o,
  output logic [31:0]                           dbg_value_o,
  output logic                                  fault_o,    // FaultStatus.Cause != None
  output logic                                  quiet_o,    // CeStatus.Quiet
  output logic                                  settled_o,  // CeStatus.Settled
  output logic                                  retire_o,   // an instruction issued this cycle
  output logic [15:0]                           retire_pc_o,
  output logic                                  task_start_o,
  output logic [4:0]                            task_id_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned NumUts = NumMicrothreads;

  // State under the names the wave save files give (waves/save_file.cpp); gpr_q and dsr_q are
  // also read straight from the model by the RTL fabric (rtl::RtlFabric::Core, the accessors
  // model/rtl/CMakeLists.txt generates).
  logic [15:0]             pc_q;
  logic [31:0]             ir_q;
  logic                    ir_valid_q, running_q;
  logic [4:0]              task_q;
  logic [31:0]             active_q, blocked_q;
  logic [31:0]             ce_status;
  ce_stall_e               stall_q;
  logic                    stall_now;  // the scalar stage stalls in this cycle, for stall_why
  ce_stall_e               stall_why;
  logic [4:0]              stall_col_q;
  ce_fault_e               fcause_q;
  logic [NumUts-1:0]       ut_busy;
  logic [NumUts-1:0]       ut_starved;  // busy and waiting for fabin data only (CeStatus.Settled)
  logic [NumUts*32-1:0]    ut_status, ut_info;
  logic [NumFifos*15-1:0]  fifo_head, fifo_tail, fifo_count, fifo_used;
  logic [NumColors-1:0]    in_valid;
  logic                    owed;
  logic [31:0]             gpr_q [NumGprs] /* verilator public_flat_rd */;
  logic [63:0]             dsr_q [NumDsrs] /* verilator public_flat_rd */;

  // ---------------------------------------------------------------------------------------------
  // Who acts in this cycle (u_fault)
  logic                      live;      // enabled, no fault recorded
  logic                      dsd_go;    // the DSD engine acts (the scalar stage did not fault)
  logic                      disp_go, pick_go, ret_go;
  tessera_pkg::ce_fault_t fault_rec;

  // ---------------------------------------------------------------------------------------------
  // CE input queues and owed credits
  logic [NumColors-1:0]    in_ctrl, dsd_pop, task_pop;
  logic [NumColors*32-1:0] in_data;
  logic [NumColors*5-1:0]  in_count;

  tessera_ce_inq u_inq (
    .clk_i, .rst_ni, .en_i,
    .ramp_i,
    .pop_i       (dsd_pop | task_pop),
    .head_valid_o(in_valid),
    .head_ctrl_o (in_ctrl),
    .head_data_o (in_data),
    .count_o     (in_count),
    .owed_o      (owed),
    .ret_en_i    (ret_go),
    .credit_o
  );

  // ---------------------------------------------------------------------------------------------
  // Fetch, decode, operands
  logic [13:0]           fetch_addr;
  logic                  ir_past, issue;
  tessera_pkg::flow_t flow;
  logic                  pick, pick_fault;
  logic [4:0]            pick_task;
  logic [15:0]           pick_entry;
  logic                  host_wr;  // the host writes a listed register (frozen)
  logic                  hm_valid, hm_router;
  mmio_reg_e             hm_reg;
  logic [4:0]            hm_idx;

  tessera_ce_fetch u_fetch (
    .clk_i, .rst_ni,
    .live_i      (live),
    .issue_i     (issue),
    .flow_i      (flow),
    .pick_i      (pick_go),
    .pick_task_i (pick_task),
    .pick_entry_i(pick_entry),
    .host_we_i   (host_wr && hm_reg == MmioCePc),
    .host_pc_i   (host_wdata_i[15:0]),
    .fetch_addr_o(fetch_addr),
    .fetch_data_i(sram_i.fetch_data),
    .pc_o        (pc_q),
    .ir_o        (ir_q),
    .ir_valid_o  (ir_valid_q),
    .ir_past_o   (ir_past),
    .running_o   (running_q),
    .task_o      (task_q)
  );

  tessera_pkg::isa_dec_t dec;
  tessera_ce_decode u_decode (.insn_i(ir_q), .dec_o(dec));

  logic [NumGprs*32-1:0] gpr_flat;
  logic [NumDsrs*64-1:0] dsr_flat;
  for (genvar r = 0; r < NumGprs; r++) begin : g_gpr
    assign gpr_q[r] = gpr_flat[32*r +: 32];
  end
  for (genvar r = 0; r < NumDsrs; r++) begin : g_dsr
    assign dsr_q[r] = dsr_flat[64*r +: 64];
  end
  tessera_pkg::insn_r_t ir_r;  // the register fields of the instruction at pc (isa.def)
  tessera_pkg::insn_d_t ir_d;
  assign ir_r = ir_q;
  assign ir_d = ir_q;

  // ---------------------------------------------------------------------------------------------
  // The scalar stage (item 3)
  logic [31:0]                ea, mm_rdata;
  logic [5:0]                 mm_reg;
  logic [4:0]                 mm_idx;
  logic                       mm_router;
  logic                       fp_pend, sc_fault, sc_fmac, dsd_issue, dbg, cyc_latch;
  tessera_pkg::ce_fault_t  sc_fault_rec;
  logic [1:0]                 sc_ports;
  logic [7:0]                 sc_banks;
  logic [11:0]                sc_row;
  tessera_pkg::gpr_wr_t    sc_gpr;
  tessera_pkg::dsr_wr_t    sc_dsr;
  tessera_pkg::sram_wr_t   sc_wr;
  tessera_pkg::reg_wr_t    sc_reg;
  tessera_pkg::link_t         sc_send;
  tessera_pkg::task_fx_t   sc_task;
  tessera_pkg::fp_issue_t  sc_fp;
  logic [NumTasks*2-1:0]      tkind;
  logic [NumTasks*16-1:0]     tentry;
  logic [NumColors*4-1:0]     ocred;
  logic [NumColors-1:0]       ocred_has, ocred_has_after;  // a credit left (after the send)
  // the DSD engine's hold on this cycle's resources, and its checks
  tessera_pkg::link_t         dsd_wave;
  tessera_pkg::sram_wr_t   dsd_wr;
  logic                       dsd_split, iss_busy, iss_fault;
  tessera_pkg::ce_fault_t  iss_fault_rec;

  tessera_ce_scalar u_scalar (
    .clk_i, .rst_ni,
    .live_i         (live),
    .running_i      (running_q),
    .pc_i           (pc_q),
    .ir_i           (ir_q),
    .ir_valid_i     (ir_valid_q),
    .ir_past_i      (ir_past),
    .dec_i          (dec),
    .ra_i           (gpr_q[ir_r.a]),
    .rb_i           (gpr_q[ir_r.b]),
    .rc_i           (gpr_q[ir_r.c]),
    .rd_i           (gpr_q[ir_r.d]),
    .da_i           (dsr_q[ir_r.a]),
    .db_i           (dsr_q[ir_r.b]),
    .ea_o           (ea),
    .mm_reg_o       (mm_reg),
    .mm_idx_o       (mm_idx),
    .mm_router_o    (mm_router),
    .mm_rdata_i     (mm_rdata),
    .fp_pend_i      (fp_pend),
    .ut_busy_i      (ut_busy),
    .tkind_i        (tkind),
    .cred_i         (ocred_has),
    .can_send_i,
    .eng_write_i    (dsd_wr.we),
    .eng_send_i     (dsd_wave.valid),
    .eng_split_i    (dsd_split),
    .iss_busy_i     (iss_busy),
    .iss_fault_i    (iss_fault),
    .iss_fault_rec_i(iss_fault_rec),
    .pick_i         (pick_go),
    .sram_i,
    .issue_o        (issue),
    .fault_o        (sc_fault),
    .fault_rec_o    (sc_fault_rec),
    .stall_o        (stall_q),
    .stall_now_o    (stall_now),
    .stall_why_o    (stall_why),
    .stall_color_o  (stall_col_q),
    .ports_o        (sc_ports),
    .banks_o        (sc_banks),
    .row_o          (sc_row),
    .fmac_o         (sc_fmac),
    .gpr_o          (sc_gpr),
    .dsr_o          (sc_dsr),
    .wr_o           (sc_wr),
    .reg_o          (sc_reg),
    .dbg_o          (dbg),
    .cyc_latch_o    (cyc_latch),
    .send_o         (sc_send),
    .task_o         (sc_task),
    .flow_o         (flow),
    .fp_o           (sc_fp),
    .dsd_o          (dsd_issue)
  );

  // ---------------------------------------------------------------------------------------------
  // The DSD engine (items 1 and 4)
  tessera_pkg::sram_rd_t  dsd_rd;
  tessera_pkg::gpr_wr_t   dsd_gpr;
  tessera_pkg::fmac_req_t dsd_fmac;
  logic                      dsd_step_fmac;
  logic [1:0]                dsd_step_elems;
  tessera_pkg::ce_fault_t dsd_fault_rec;
  logic                      dsd_fault, dsd_cred_take;
  logic [4:0]                dsd_cred_color, dsd_flags;
  logic [31:0]               dsd_activate, dsd_unblock;
  logic [NumColors-1:0]      ut_reads;

  tessera_ce_dsd u_dsd (
    .clk_i, .rst_ni,
    .live_i         (live),
    .go_i           (dsd_go),
    .iss_insn_i     (ir_q),
    .iss_dec_i      (dec),
    .iss_go_i       (dsd_issue),
    .iss_pc_i       (pc_q),
    .iss_dsr_dst_i  (dsr_q[ir_d.dst]),
    .iss_dsr_src0_i (dsr_q[ir_d.src0]),
    .iss_dsr_src1_i (dsr_q[ir_d.src1]),
    .iss_ext_dst_i  (dsr_q[{ir_d.dst[3:1], 1'b1}]),
    .iss_ext_src0_i (dsr_q[{ir_d.src0[3:1], 1'b1}]),
    .iss_ext_src1_i (dsr_q[{ir_d.src1[3:1], 1'b1}]),
    .iss_scalar_i   (gpr_q[ir_d.s]),
    .can_send_i,
    .can_recv_i,
    .iss_busy_o     (iss_busy),
    .iss_fault_o    (iss_fault),
    .iss_fault_rec_o(iss_fault_rec),
    .sc_ports_i     (sc_ports),
    .sc_banks_i     (sc_banks),
    .sc_row_i       (sc_row),
    .sc_fmac_i      (sc_fmac),
    .cred_i         (ocred_has_after),
    .in_valid_i     (in_valid),
    .in_ctrl_i      (in_ctrl),
    .in_data_i      (in_data),
    .pop_o          (dsd_pop),
    .cred_take_o    (dsd_cred_take),
    .cred_color_o   (dsd_cred_color),
    .rd_o           (dsd_rd),
    .sram_i,
    .wr_o           (dsd_wr),
    .wave_o         (dsd_wave),
    .gpr_o          (dsd_gpr),
    .flags_o        (dsd_flags),
    .split_o        (dsd_split),
    .fmac_o         (dsd_fmac),
    .fmac_i,
    .step_fmac_o    (dsd_step_fmac),
    .step_elems_o   (dsd_step_elems),
    .tkind_i        (tkind),
    .activate_o     (dsd_activate),
    .unblock_o      (dsd_unblock),
    .fault_o        (dsd_fault),
    .fault_rec_o    (dsd_fault_rec),
    .busy_o         (ut_busy),
    .starved_o      (ut_starved),
    .reads_o        (ut_reads),
    .status_o       (ut_status),
    .info_o         (ut_info),
    .fifo_head_o    (fifo_head),
    .fifo_tail_o    (fifo_tail),
    .fifo_count_o   (fifo_count),
    .fifo_used_o    (fifo_used)
  );

  // ---------------------------------------------------------------------------------------------
  // The control dispatcher and the picker (items 5, 6), faults and who acts
  logic                      disp, disp_set, disp_fault;
  logic [4:0]                disp_task;
  logic [15:0]               disp_arg;
  tessera_pkg::ce_fault_t disp_fault_rec, pick_fault_rec;
  logic [31:0]               runnable, pick_data;

  tessera_ce_tasks u_tasks (
    .clk_i, .rst_ni,
    .pc_i            (pc_q),
    .running_i       (running_q),
    .faulted_i       (fcause_q != CeFaultNone),
    .in_valid_i      (in_valid),
    .in_ctrl_i       (in_ctrl),
    .in_data_i       (in_data),
    .ut_reads_i      (ut_reads),
    .tkind_i         (tkind),
    .tentry_i        (tentry),
    .active_i        (active_q),
    .blocked_i       (blocked_q),
    .disp_o          (disp),
    .disp_set_o      (disp_set),
    .disp_task_o     (disp_task),
    .disp_arg_o      (disp_arg),
    .disp_fault_o    (disp_fault),
    .disp_fault_rec_o(disp_fault_rec),
    .runnable_o      (runnable),
    .pick_o          (pick),
    .pick_task_o     (pick_task),
    .pick_entry_o    (pick_entry),
    .pick_data_o     (pick_data),
    .pick_fault_o    (pick_fault),
    .pick_fault_rec_o(pick_fault_rec),
    .disp_i          (disp_go),
    .pick_i          (pick_go),
    .pop_o           (task_pop)
  );

  tessera_ce_fault u_fault (
    .clk_i, .rst_ni, .en_i,
    .clear_i         (host_wr && hm_reg == MmioFaultStatus),
    .sc_fault_i      (sc_fault),
    .sc_fault_rec_i  (sc_fault_rec),
    .dsd_fault_i     (dsd_fault),
    .dsd_fault_rec_i (dsd_fault_rec),
    .disp_fault_i    (disp_fault),
    .disp_fault_rec_i(disp_fault_rec),
    .pick_fault_i    (pick_fault),
    .pick_fault_rec_i(pick_fault_rec),
    .disp_want_i     (disp),
    .pick_want_i     (pick),
    .live_o          (live),
    .dsd_go_o        (dsd_go),
    .disp_go_o       (disp_go),
    .pick_go_o       (pick_go),
    .ret_go_o        (ret_go),
    .fault_o         (fault_rec)
  );
  assign fcause_q = fault_rec.cause;

  // ---------------------------------------------------------------------------------------------
  // Credits, the FMAC, registers, SRAM
  tessera_ce_ocred u_ocred (
    .clk_i, .rst_ni, .en_i,
    .credit_i,
    .send_i       (sc_send),
    .dsd_take_i   (dsd_cred_take),
    .dsd_color_i  (dsd_cred_color),
    .ocred_o      (ocred),
    .has_o        (ocred_has),
    .has_after_o  (ocred_has_after)
  );

  tessera_pkg::gpr_wr_t fp_gpr;
  logic [4:0]              fp_flags;

  tessera_ce_fp u_fp (
    .clk_i, .rst_ni, .en_i,
    .live_i   (live),
    .issue_i  (sc_fp),
    .dsd_i    (dsd_fmac),
    .fmac_o,
    .fmac_i,
    .fp_pend_o(fp_pend),
    .gpr_o    (fp_gpr),
    .flags_o  (fp_flags)
  );

  logic hm_ro, hm_host;  // the host may write read-only and host-only registers
  tessera_ce_mmio u_host_mmio (
    .addr_i(host_addr_i), .valid_o(hm_valid), .reg_o(hm_reg), .index_o(hm_idx), .ro_o(hm_ro),
    .host_only_o(hm_host), .router_o(hm_router)
  );
  assign host_wr = !en_i && host_we_i && hm_valid;

  // ---------------------------------------------------------------------------------------------
  // Performance counters (PerfCount)
  logic [PerfCountCount*32-1:0] perf;

  tessera_ce_perf u_perf (
    .clk_i, .rst_ni,
    .live_i      (live),
    .running_i   (running_q),
    .ut_busy_i   (ut_busy),
    .ut_status_i (ut_status),
    .issue_i     (issue),
    .stall_i     (stall_now),
    .stall_why_i (stall_why),
    .split_i     (dsd_split),
    .fmac_i      (sc_fp.valid || dsd_step_fmac),
    .elems_i     (dsd_step_elems),
    .host_we_i   (host_wr && hm_reg == MmioPerfCount),
    .host_idx_i  (hm_idx),
    .host_wdata_i,
    .count_o     (perf)
  );

  tessera_ce_regs u_regs (
    .clk_i, .rst_ni, .en_i, .x_i, .y_i, .cycle_i,
    .ce_wr_i       (sc_reg),
    .ce_addr_i     (ea[15:0]),
    .host_we_i,
    .host_addr_i,
    .host_wdata_i,
    .host_valid_i  (hm_valid),
    .host_reg_i    (hm_reg),
    .host_idx_i    (hm_idx),
    .host_router_i (hm_router),
    .host_rdata_o,
    .sram_rdata_i  (sram_i.rd0_data),
    .rt_we_o,
    .rt_addr_o,
    .rt_wdata_o,
    .rt_rdata_i,
    .ce_reg_i      (mm_reg),
    .ce_idx_i      (mm_idx),
    .ce_router_i   (mm_router),
    .ce_rdata_o    (mm_rdata),
    .sc_gpr_i      (sc_gpr),
    .sc_dsr_i      (sc_dsr),
    .fp_gpr_i      (fp_gpr),
    .dsd_gpr_i     (dsd_gpr),
    .sc_task_i     (sc_task),
    .pick_i        (pick_go),
    .pick_task_i   (pick_task),
    .pick_data_i   (pick_data),
    .disp_i        (disp_go && disp_set),
    .disp_task_i   (disp_task),
    .disp_arg_i    (disp_arg),
    .dsd_activate_i(dsd_activate),
    .dsd_unblock_i (dsd_unblock),
    .fp_flags_i    (fp_flags | dsd_flags),
    .cyc_latch_i   (cyc_latch),
    .pc_i          (pc_q),
    .ce_status_i   (ce_status),
    .fault_cause_i (fault_rec.cause),
    .fault_pc_i    (fault_rec.pc),
    .fault_addr_i  (fault_rec.addr),
    .fault_info_i  (fault_rec.info),
    .ocred_i       (ocred),
    .ut_reads_i    (ut_reads),
    .in_valid_i    (in_valid),
    .in_ctrl_i     (in_ctrl),
    .in_count_i    (in_count),
    .ut_status_i   (ut_status),
    .ut_info_i     (ut_info),
    .fifo_head_i   (fifo_head),
    .fifo_tail_i   (fifo_tail),
    .fifo_count_i  (fifo_count),
    .fifo_used_i   (fifo_used),
    .perf_i        (perf),
    .gpr_o         (gpr_flat),
    .dsr_o         (dsr_flat),
    .tkind_o       (tkind),
    .tentry_o      (tentry),
    .active_o      (active_q),
    .blocked_o     (blocked_q)
  );

  tessera_ce_sram_mux u_sram_mux (
    .clk_i, .rst_ni, .en_i,
    .host_we_i,
    .host_addr_i,
    .host_wdata_i,
    .fetch_addr_i(fetch_addr),
    .sc_addr_i   (ea[15:2]),
    .sc_wr_i     (sc_wr),
    .dsd_rd_i    (dsd_rd),
    .dsd_wr_i    (dsd_wr),
    .sram_o
  );

  // ---------------------------------------------------------------------------------------------
  // Status and outputs
  always_comb begin
    ce_status = '0;
    ce_status[CeStatusTaskLsb +: 5]       = running_q ? task_q : 5'(NoTask);
    ce_status[CeStatusRunningLsb]         = running_q;
    ce_status[CeStatusFaultedLsb]         = fcause_q != CeFaultNone;
    ce_status[CeStatusQuietLsb]           = quiet_o;
    ce_status[CeStatusSettledLsb]         = settled_o;
    ce_status[CeStatusStallLsb +: 3]      = stall_q;
    ce_status[CeStatusStallColorLsb +: 5] = stall_col_q;
    ce_status[CeStatusUtBusyLsb +: 8]     = 8'(ut_busy);
  end

  assign ramp_o       = dsd_wave.valid ? dsd_wave : sc_send.valid ? sc_send : '0;
  assign dbg_valid_o  = dbg;
  assign dbg_fmt_o    = sc_reg.idx[2:0];
  assign dbg_value_o  = sc_reg.data;
  assign fault_o      = fcause_q != CeFaultNone;
  assign quiet_o      = !running_q && runnable == '0 && ut_busy == '0 && in_valid == '0 && !owed;
  // Nothing moves until a wavelet comes: quiet, or no task runs or can start, the dispatcher has
  // nothing to take, no credit is owed and every busy microthread waits for fabin data.
  always_comb begin
    settled_o = quiet_o;
    if (!quiet_o && !running_q && runnable == '0 && !disp && !owed)
      settled_o = (ut_busy & ~ut_starved) == '0;
  end
  assign retire_o     = issue;
  assign retire_pc_o  = pc_q;
  assign task_start_o = pick_go;
  assign task_id_o    = pick_task;

  // ---------------------------------------------------------------------------------------------
  // Assertions: the engine's invariants across its parts
  `include "tessera_assert.svh"
  // a recorded fault freezes the engine: nothing issues, starts, sends, writes or returns credits
  `ASSERT_IF(FaultFreezesEngine, fault_o, !(issue || pick_go || ramp_o.valid || fmac_o.valid ||
                                               credit_o.valid || (en_i && sram_o.wr.we)))
  // one sender on the ramp per cycle: the scalar stage waits for a result due to go
  `ASSERT(OneRampSender, !(dsd_wave.valid && sc_send.valid))
  // the queue readers never pop the same color, and only a wavelet that is there
  `ASSERT(PopsDisjoint, (dsd_pop & task_pop) == '0)
  `ASSERT(PopsHeldWavelets, ((dsd_pop | task_pop) & ~in_valid) == '0)
  // the scalar stage and the engine never share the read ports beyond the two there are
  `ASSERT(ReadPortsShared, !(sc_ports == 2'd2 && (dsd_rd.rd0_en || dsd_rd.rd1_en)) &&
                           !(sc_ports == 2'd1 && dsd_rd.rd0_en))

  logic unused;
  assign unused = ^{ir_r.funct, ir_r.z, ir_r.op, ir_d.ut, ir_d.tid, ir_d.u, ir_d.op, ea[31:16],
                    hm_ro, hm_host};
endmodule
