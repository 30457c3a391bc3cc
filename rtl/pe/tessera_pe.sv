// A processing element: the router, the ramp that joins it to the CE side, and with HasCe the
// compute engine with its SRAM and FMAC. Without the CE (HasCe = 0: the router-only tiles of the
// traffic regression) the ramp's CE-side port leaves the PE so that a testbench endpoint can
// drive it. The ramp delays wavelets by RampLatency cycles in each direction (router output
// register plus RampLatency-1 stages toward the CE; RampLatency stages from the CE).
// The register bus is the host's back door: with the CE it reaches SRAM and every register.
module tessera_pe #(
  parameter int unsigned HasCe = 0
) (
  input  logic                                                    clk_i,
  input  logic                                                    rst_ni,
  input  logic                                                    en_i,  // 0: frozen
  input  logic [15:0]                                             x_i,  // constant per instance
  input  logic [15:0]                                             y_i,
  // enabled cycles since reset, from the fabric (the CE's CycleLo; unused without the CE)
  input  logic [47:0]                                             cycle_i,
  // edge links in direction order W, E, S, N
  input  logic [tessera_pkg::NumEdgeDirs*tessera_pkg::LinkBits-1:0]   edge_in_i,
  output logic [tessera_pkg::NumEdgeDirs*tessera_pkg::LinkBits-1:0]   edge_out_o,
  input  logic [tessera_pkg::NumEdgeDirs*tessera_pkg::CreditBits-1:0] edge_credit_i,
  output logic [tessera_pkg::NumEdgeDirs*tessera_pkg::CreditBits-1:0] edge_credit_o,
  input  logic [tessera_pkg::NumEdgeDirs-1:0]                         tied_i,
  // the CE side of the ramp (with HasCe the CE drives it: the inputs are unused and the outputs
  // observe it; ramp_sent_o is what the CE side sends in this cycle, before the clock edge)
  input  tessera_pkg::link_t                                      ramp_in_i,      // CE -> router
  output tessera_pkg::link_t                                      ramp_out_o,     // router -> CE
  input  tessera_pkg::credit_t                                    ramp_credit_i,  // CE freed
  output tessera_pkg::credit_t                                    ramp_credit_o,  // router freed
  output tessera_pkg::link_t                                      ramp_sent_o,    // CE -> router
  // register bus
  input  logic                                                    cfg_we_i,
  input  logic [15:0]                                             cfg_addr_i,
  input  logic [31:0]                                             cfg_wdata_i,
  output logic [31:0]                                             cfg_rdata_o,
  output logic                                                    fault_o,
  // a wavelet is in the router's queues or output registers, or in the ramp either way
  output logic                                                    busy_o,
  // the CE's debug-port records and status (zero without a CE)
  output logic                                                    dbg_valid_o,
  output logic [2:0]                                              dbg_fmt_o,
  output logic [31:0]                                             dbg_value_o,
  output logic                                                    quiet_o,
  output logic                                                    settled_o,
  // the CE's retire and task-start events, for lockstep co-simulation (zero without a CE)
  output logic                                                    retire_o,
  output logic [15:0]                                             retire_pc_o,
  output logic                                                    task_start_o,
  output logic [4:0]                                              task_id_o,
  // the router's back pressure (tessera_router blocked_o), an observer
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0]      blocked_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned EdgeLinkW   = NumEdgeDirs * LinkBits;
  localparam int unsigned EdgeCreditW = NumEdgeDirs * CreditBits;

  logic [NumDirs*LinkBits-1:0]   rt_in, rt_out;
  logic [NumDirs*CreditBits-1:0] rt_cin, rt_cout;
  link_t                         ramp_in_late, ramp_out_early, ce_link_in, ce_link_out;
  credit_t                       ce_credit_in, ce_credit_out;
  logic [31:0]                   router_rdata;
  logic                          router_fault, ce_fault;
  logic                          rt_we;
  logic [15:0]                   rt_addr;
  logic [31:0]                   rt_wdata;
  logic [NumColors-1:0]          ramp_rx_any, ramp_tx_any;
  logic                          router_busy, to_router_busy, to_ce_busy;

  tessera_link_pipe #(.Stages(RampLatency)) u_ramp_to_router (
    .clk_i, .rst_ni, .en_i,
    .d_i   (ce_link_out),
    .q_o   (ramp_in_late),
    .busy_o(to_router_busy)
  );

  assign rt_in  = {ramp_in_late, edge_in_i};
  assign rt_cin = {ce_credit_out, edge_credit_i};

  tessera_router u_router (
    .clk_i, .rst_ni, .en_i,
    .in_link_i  (rt_in),
    .out_link_o (rt_out),
    .credit_i   (rt_cin),
    .credit_o   (rt_cout),
    .tied_i,
    .cfg_we_i   (rt_we),
    .cfg_addr_i (rt_addr),
    .cfg_wdata_i(rt_wdata),
    .cfg_rdata_o(router_rdata),
    .ramp_rx_any_o(ramp_rx_any),
    .ramp_tx_any_o(ramp_tx_any),
    .fault_o    (router_fault),
    .busy_o     (router_busy),
    .blocked_o
  );

  assign edge_out_o     = rt_out[EdgeLinkW-1:0];
  assign ramp_out_early = rt_out[EdgeLinkW +: LinkBits];
  assign edge_credit_o  = rt_cout[EdgeCreditW-1:0];
  assign ce_credit_in   = rt_cout[EdgeCreditW +: CreditBits];

  tessera_link_pipe #(.Stages(RampLatency - 1)) u_ramp_to_ce (
    .clk_i, .rst_ni, .en_i,
    .d_i   (ramp_out_early),
    .q_o   (ce_link_in),
    .busy_o(to_ce_busy)
  );

  assign ramp_out_o    = ce_link_in;
  assign ramp_credit_o = ce_credit_in;
  assign ramp_sent_o   = ce_link_out;

  assign fault_o = router_fault || ce_fault;
  assign busy_o  = router_busy || to_router_busy || to_ce_busy;

  if (HasCe != 0) begin : g_ce
    tessera_pkg::sram_req_t sram_req;
    tessera_pkg::sram_rsp_t sram_rsp;
    tessera_pkg::fmac_req_t fmac_req;
    tessera_pkg::fmac_rsp_t fmac_rsp;

    tessera_ce u_ce (
      .clk_i, .rst_ni, .en_i, .x_i, .y_i, .cycle_i,
      .ramp_i      (ce_link_in),
      .ramp_o      (ce_link_out),
      .credit_i    (ce_credit_in),
      .credit_o    (ce_credit_out),
      .can_send_i  (ramp_rx_any),
      .can_recv_i  (ramp_tx_any),
      .rt_we_o     (rt_we),
      .rt_addr_o   (rt_addr),
      .rt_wdata_o  (rt_wdata),
      .rt_rdata_i  (router_rdata),
      .host_we_i   (cfg_we_i),
      .host_addr_i (cfg_addr_i),
      .host_wdata_i(cfg_wdata_i),
      .host_rdata_o(cfg_rdata_o),
      .sram_o      (sram_req),
      .sram_i      (sram_rsp),
      .fmac_o      (fmac_req),
      .fmac_i      (fmac_rsp),
      .dbg_valid_o,
      .dbg_fmt_o,
      .dbg_value_o,
      .fault_o     (ce_fault),
      .quiet_o,
      .settled_o,
      .retire_o,
      .retire_pc_o,
      .task_start_o,
      .task_id_o
    );

    tessera_sram u_sram (
      .clk_i,
      .fetch_addr_i(sram_req.fetch_addr),
      .fetch_data_o(sram_rsp.fetch_data),
      .rd0_addr_i  (sram_req.rd0_addr),
      .rd0_data_o  (sram_rsp.rd0_data),
      .rd1_addr_i  (sram_req.rd1_addr),
      .rd1_data_o  (sram_rsp.rd1_data),
      .we_i        (sram_req.wr.we),
      .wr_addr_i   (sram_req.wr.addr),
      .wr_be_i     (sram_req.wr.be),
      .wr_data_i   (sram_req.wr.data)
    );

    tessera_fmac u_fmac (
      .clk_i, .rst_ni, .en_i,
      .valid_i (fmac_req.valid),
      .op_i    (fmac_req.op),   // fp_op_e and fp_fmt_e values (tessera_pkg)
      .fmt_i   (fmac_req.fmt),
      .a_i     (fmac_req.a),
      .b_i     (fmac_req.b),
      .c_i     (fmac_req.c),
      .valid_o (fmac_rsp.valid),
      .result_o(fmac_rsp.result),
      .flags_o (fmac_rsp.flags)
    );

    logic unused_ce;
    assign unused_ce = ^{ramp_in_i, ramp_credit_i};
  end else begin : g_port
    assign ce_link_out   = ramp_in_i;
    assign ce_credit_out = ramp_credit_i;
    assign rt_we         = cfg_we_i;
    assign rt_addr       = cfg_addr_i;
    assign rt_wdata      = cfg_wdata_i;
    assign cfg_rdata_o   = (cfg_addr_i == PeCoordAddr) ? {y_i, x_i} : router_rdata;
    assign ce_fault      = 1'b0;
    assign dbg_valid_o   = 1'b0;
    assign dbg_fmt_o     = '0;
    assign dbg_value_o   = '0;
    assign quiet_o       = 1'b1;
    assign settled_o     = 1'b1;
    assign retire_o      = 1'b0;
    assign retire_pc_o   = '0;
    assign task_start_o  = 1'b0;
    assign task_id_o     = '0;

    logic unused_port;
    assign unused_port = ^{ramp_rx_any, ramp_tx_any, cycle_i};
  end
endmodule
