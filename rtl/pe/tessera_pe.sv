// A processing element. Today: the router and the ramp that joins it to the CE side, whose
// port leaves the PE so that a testbench endpoint (later the compute engine) can drive it.
// The ramp delays wavelets by RampLatency cycles in each direction (router output register plus
// RampLatency-1 stages toward the CE; RampLatency stages from the CE).
module tessera_pe (
  input  logic                                                    clk_i,
  input  logic                                                    rst_ni,
  input  logic                                                    en_i,  // 0: frozen
  input  logic [15:0]                                             x_i,  // constant per instance
  input  logic [15:0]                                             y_i,
  // edge links in direction order W, E, S, N
  input  logic [tessera_pkg::NumEdgeDirs*tessera_pkg::LinkBits-1:0]   edge_in_i,
  output logic [tessera_pkg::NumEdgeDirs*tessera_pkg::LinkBits-1:0]   edge_out_o,
  input  logic [tessera_pkg::NumEdgeDirs*tessera_pkg::CreditBits-1:0] edge_credit_i,
  output logic [tessera_pkg::NumEdgeDirs*tessera_pkg::CreditBits-1:0] edge_credit_o,
  input  logic [tessera_pkg::NumEdgeDirs-1:0]                         tied_i,
  // the CE side of the ramp
  input  tessera_pkg::link_t                                      ramp_in_i,      // CE -> router
  output tessera_pkg::link_t                                      ramp_out_o,     // router -> CE
  input  tessera_pkg::credit_t                                    ramp_credit_i,  // CE freed
  output tessera_pkg::credit_t                                    ramp_credit_o,  // router freed
  // register bus
  input  logic                                                    cfg_we_i,
  input  logic [15:0]                                             cfg_addr_i,
  input  logic [31:0]                                             cfg_wdata_i,
  output logic [31:0]                                             cfg_rdata_o,
  output logic                                                    fault_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned EdgeLinkW   = NumEdgeDirs * LinkBits;
  localparam int unsigned EdgeCreditW = NumEdgeDirs * CreditBits;

  logic [NumDirs*LinkBits-1:0]   rt_in, rt_out;
  logic [NumDirs*CreditBits-1:0] rt_cin, rt_cout;
  link_t                         ramp_in_late, ramp_out_early;
  logic [31:0]                   router_rdata;

  tessera_pipe #(.Width(LinkBits), .Stages(RampLatency)) u_ramp_to_router (
    .clk_i, .rst_ni, .en_i,
    .d_i(ramp_in_i),
    .q_o(ramp_in_late)
  );

  assign rt_in  = {ramp_in_late, edge_in_i};
  assign rt_cin = {ramp_credit_i, edge_credit_i};

  tessera_router u_router (
    .clk_i, .rst_ni, .en_i,
    .in_link_i  (rt_in),
    .out_link_o (rt_out),
    .credit_i   (rt_cin),
    .credit_o   (rt_cout),
    .tied_i,
    .cfg_we_i, .cfg_addr_i, .cfg_wdata_i,
    .cfg_rdata_o(router_rdata),
    .fault_o
  );

  assign edge_out_o     = rt_out[EdgeLinkW-1:0];
  assign ramp_out_early = rt_out[EdgeLinkW +: LinkBits];
  assign edge_credit_o  = rt_cout[EdgeCreditW-1:0];
  assign ramp_credit_o  = rt_cout[EdgeCreditW +: CreditBits];

  tessera_pipe #(.Width(LinkBits), .Stages(RampLatency - 1)) u_ramp_to_ce (
    .clk_i, .rst_ni, .en_i,
    .d_i(ramp_out_early),
    .q_o(ramp_out_o)
  );

  assign cfg_rdata_o = (cfg_addr_i == PeCoordAddr) ? {y_i, x_i} : router_rdata;
endmodule
