// The wavelet router of one PE: five ports (W, E, S, N, RAMP), 24 colors as independent virtual
// channels with credit-based lossless flow control, per-color multicast routes and switches.
//
// Per cycle: each input port offers the heads of its per-color queues; a color is ready when
// its route is valid and every target output holds a credit for it. A greedy allocator visits
// the inputs in round-robin order (the first visited moves to one past the last cycle's first
// winner), and each input takes, round-robin over its ready colors, one whose targets are all
// still free this cycle. A winner
// is copied to all its targets at once (multicast leaves whole or not at all) into the output
// registers, so an uncontended hop takes one cycle. Wavelets that cannot be routed are consumed
// and reported as faults (RouterFault register, fault_o), never dropped in silence.
// See docs/router.md for the timing and the credit loop.
module tessera_router #(
  parameter int unsigned LinkQueueDepth = tessera_pkg::LinkDepth,
  parameter int unsigned RampQueueDepth = tessera_pkg::RampInDepth,
  parameter int unsigned RampCredits    = tessera_pkg::RampOutCredits
) (
  input  logic                                                 clk_i,
  input  logic                                                 rst_ni,
  // 0 freezes the router: nothing moves, only register-bus writes take effect (the host's
  // zero-time back door)
  input  logic                                                 en_i,
  // per direction d: link_t at [d*LinkBits +: LinkBits], credit_t at [d*CreditBits +: ...]
  input  logic [tessera_pkg::NumDirs*tessera_pkg::LinkBits-1:0]   in_link_i,
  output logic [tessera_pkg::NumDirs*tessera_pkg::LinkBits-1:0]   out_link_o,
  input  logic [tessera_pkg::NumDirs*tessera_pkg::CreditBits-1:0] credit_i,  // for our outputs
  output logic [tessera_pkg::NumDirs*tessera_pkg::CreditBits-1:0] credit_o,  // for our inputs
  input  logic [tessera_pkg::NumEdgeDirs-1:0]                     tied_i,    // edge tied off
  // register bus (the PE's memory-mapped window)
  input  logic                                                 cfg_we_i,
  input  logic [15:0]                                          cfg_addr_i,
  input  logic [31:0]                                          cfg_wdata_i,
  output logic [31:0]                                          cfg_rdata_o,
  output logic [tessera_pkg::NumColors-1:0]                    ramp_rx_any_o,  // CE may send
  output logic [tessera_pkg::NumColors-1:0]                    ramp_tx_any_o,  // CE may receive
  output logic                                                 fault_o,
  // a wavelet is stored in an input queue or held in an output register (for quiescence)
  output logic                                                 busy_o,
  // back pressure, an observer: bit o*NumColors+c, a wavelet of color c waits at an input, its
  // route targets output o, and o holds no credit for c (docs/profiling.md, "Back pressure")
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0] blocked_o
);
  `include "tessera_pkg_use.svh"
  `include "tessera_assert.svh"
  localparam int unsigned PickWidth = NumColors;  // pickers over colors
  `include "tessera_pick.svh"

  localparam int unsigned CW   = ColorBits;
  localparam int unsigned PayW = DataBits + 1;

  // ---- Unpacked view of the ports ----
  // Arrays of plain vectors rather than of structs: Yosys 0.23 cannot index struct arrays.
  logic [LinkBits-1:0]   in_link [NumDirs];
  logic [CreditBits-1:0] cred_in [NumDirs];
  logic                  in_valid [NumDirs];
  logic                  in_ctrl  [NumDirs];
  logic [CW-1:0]         in_color [NumDirs];
  logic [DataBits-1:0]   in_data  [NumDirs];
  for (genvar d = 0; d < NumDirs; d++) begin : g_port
    assign in_link[d] = in_link_i[d*LinkBits +: LinkBits];
    assign cred_in[d] = credit_i[d*CreditBits +: CreditBits];
    assign in_valid[d] = in_link[d][LinkValidLsb];
    assign in_ctrl[d]  = in_link[d][LinkCtrlLsb];
    assign in_color[d] = in_link[d][LinkColorLsb +: CW];
    assign in_data[d]  = in_link[d][LinkDataLsb +: DataBits];
  end

  // ---- Configuration and switches ----
  logic [NumColors*NumDirs-1:0] tx_of_flat;
  logic [NumDirs*NumColors-1:0] tx_has_flat, rx_has_flat, rx_any_flat;
  logic [NumColors-1:0]         adv;
  logic [NumColors-1:0]         filter_en;
  logic [NumColors-1:0]         cnt;  // a counter filter counts the RAMP winner's color
  logic [NumColors-1:0]         cnt_mode, cnt_data, cnt_ctrl, cnt_pass;
  logic [NumColors-1:0]         swap_x;  // ColorCfg.SwapX per color
  localparam logic [NumColors-1:0] PairEven = {(NumColors / 2){2'b01}};  // the even colors
  logic [NumColors*32-1:0]      filter_range;
  logic [31:0]                  route_rdata;
  logic                         route_hit;

  tessera_router_cfg u_cfg (
    .clk_i, .rst_ni, .cfg_we_i, .cfg_addr_i, .cfg_wdata_i,
    .cfg_rdata_o(route_rdata),
    .cfg_hit_o  (route_hit),
    .adv_i      (adv & {NumColors{en_i}}),
    .cnt_i      (cnt & {NumColors{en_i}}),
    .tx_of_o    (tx_of_flat),
    .tx_has_o   (tx_has_flat),
    .rx_has_o   (rx_has_flat),
    .rx_any_o   (rx_any_flat),
    .ramp_rx_any_o,
    .ramp_tx_any_o,
    .filter_en_o   (filter_en),
    .swap_x_o      (swap_x),
    .cnt_mode_o    (cnt_mode),
    .cnt_data_o    (cnt_data),
    .cnt_ctrl_o    (cnt_ctrl),
    .cnt_pass_o    (cnt_pass),
    .filter_range_o(filter_range)
  );

  logic [NumDirs-1:0]   tx_of  [NumColors];
  logic [NumColors-1:0] tx_has [NumDirs];
  logic [NumColors-1:0] rx_has [NumDirs];
  logic [NumColors-1:0] rx_any [NumDirs];  // some switch position accepts the color from d
  for (genvar c = 0; c < NumColors; c++) begin : g_tx_of
    assign tx_of[c] = tx_of_flat[c*NumDirs +: NumDirs];
  end
  for (genvar d = 0; d < NumDirs; d++) begin : g_has
    assign tx_has[d] = tx_has_flat[d*NumColors +: NumColors];
    assign rx_has[d] = rx_has_flat[d*NumColors +: NumColors];
    assign rx_any[d] = rx_any_flat[d*NumColors +: NumColors];
  end

  // ---- Input queues ----
  logic                 arr_fault [NumDirs];  // a reserved color arrived
  logic                 push      [NumDirs];
  logic [NumColors-1:0] avail     [NumDirs];
  logic                 pop       [NumDirs];
  logic [CW-1:0]        pop_color [NumDirs];
  logic [PayW-1:0]      head      [NumDirs];
  logic [NumDirs-1:0]   stored;
  localparam int unsigned InCountWords = NumColors * RouterInCountCount0Width / 32;
  logic [31:0]          in_count [NumDirs];  // the RouterInCount word read, or zero
  logic                 count_hit;
  logic [2:0]           count_dir;
  logic [1:0]           count_word;

  for (genvar d = 0; d < NumDirs; d++) begin : g_inq
    localparam int unsigned Depth = (d == 32'(DirRamp)) ? RampQueueDepth : LinkQueueDepth;
    assign arr_fault[d] = in_valid[d] && 32'(in_color[d]) >= NumColors;
    assign push[d]      = in_valid[d] && !arr_fault[d];
    tessera_router_inq #(.Depth(Depth)) u_inq (
      .clk_i, .rst_ni, .en_i,
      .push_i        (push[d]),
      .push_color_i  (in_color[d]),
      .push_payload_i({in_ctrl[d], in_data[d]}),
      .avail_o       (avail[d]),
      .pop_i         (pop[d]),
      .pop_color_i   (pop_color[d]),
      .pop_payload_o (head[d]),
      .stored_o      (stored[d]),
      .count_rd_i    (count_hit && count_dir == 3'(d)),
      .count_word_i  (count_word),
      .count_o       (in_count[d])
    );
  end

  // ---- Per-color readiness ----
  logic [NumColors-1:0] has_route, no_credit, tied_hit, ready;
  logic [NumColors-1:0] credit_ok [NumDirs];
  // With color swap (ColorCfg.SwapX), a color leaves W and E as its pair (color ^ 1) and needs
  // that output's credit for the pair: per output, the credit each routed color needs.
  logic [NumColors-1:0] credit_view [NumDirs];
  always_comb begin
    for (int o = 0; o < NumDirs; o++) begin
      credit_view[o] = credit_ok[o];
      if ((o == 32'(DirW) || o == 32'(DirE)) && swap_x != '0) begin
        credit_view[o] = (credit_ok[o] & ~swap_x)
                       | ((((credit_ok[o] & PairEven) << 1) | ((credit_ok[o] >> 1) & PairEven))
                          & swap_x);
      end
    end
  end
  logic [NumDirs-1:0]   tied_any;  // the RAMP is never tied off
  assign tied_any = {1'b0, tied_i};

  always_comb begin
    has_route = '0;
    no_credit = '0;
    tied_hit  = '0;
    for (int o = 0; o < NumDirs; o++) begin
      has_route = has_route | tx_has[o];
      no_credit = no_credit | (tx_has[o] & ~credit_view[o]);
      if (tied_any[o]) tied_hit = tied_hit | tx_has[o];
    end
    ready = has_route & ~tied_hit & ~no_credit;
  end

  // ---- Faulty heads: a head its route cannot take is consumed and reported, ahead of traffic ----
  logic               head_bad    [NumDirs];  // this input consumes a faulty head this cycle
  logic [CW-1:0]      fault_color [NumDirs];
  logic [2:0]         fault_cause [NumDirs];

  // Heads and allocation are looked at only in a cycle with a wavelet stored or arriving.
  logic any_avail;
  always_comb begin
    any_avail = 1'b0;
    for (int d = 0; d < NumDirs; d++) any_avail = any_avail || avail[d] != '0;
  end

  always_comb begin : faulty_heads
    logic [NumColors-1:0] bad_rx, bad_any;
    logic [CW:0]          bad;
    bad_rx  = '0;
    bad_any = '0;
    bad     = '0;
    for (int d = 0; d < NumDirs; d++) begin
      head_bad[d]    = 1'b0;
      fault_color[d] = '0;
      fault_cause[d] = '0;
    end
    if (any_avail) begin
      for (int d = 0; d < NumDirs; d++) begin
        // A head that only another switch position accepts waits; one that no position
        // accepts is a routing fault.
        bad_rx  = avail[d] & ~rx_any[d];
        bad_any = bad_rx | (avail[d] & rx_has[d] & (~has_route | tied_hit));
        bad     = pick_lowest(bad_any);
        // An input reports at most one fault per cycle: a reserved color arriving goes first.
        head_bad[d]    = bad[CW] && !arr_fault[d];
        fault_color[d] = bad[CW-1:0];
        if (bad_rx[bad[CW-1:0]])          fault_cause[d] = 3'(FaultCauseRxMismatch);
        else if (!has_route[bad[CW-1:0]]) fault_cause[d] = 3'(FaultCauseNoRoute);
        else                              fault_cause[d] = 3'(FaultCauseTiedOffEdge);
      end
    end
  end

  // ---- Allocation: inputs in round-robin order, round-robin over colors within an input ----
  // The input visited first this cycle; next cycle the one after this cycle's first winner.
  logic [2:0]         prio_q, prio_d;
  logic [CW-1:0]      rr_ptr_q [NumDirs];      // per input: one past its last winner
  logic [CW-1:0]      rr_ptr_d [NumDirs];
  logic               fire       [NumDirs];
  logic [CW-1:0]      fire_color [NumDirs];

  always_comb begin : alloc
    logic [NumDirs-1:0]   taken;
    logic [NumColors-1:0] blocked, cand;
    logic [CW:0]          pick;
    logic [3:0]           sum;
    logic [2:0]           d;
    logic                 won;
    taken  = '0;
    won    = 1'b0;
    prio_d = prio_q;
    for (int i = 0; i < NumDirs; i++) begin
      fire[i]       = 1'b0;
      fire_color[i] = '0;
    end
    sum     = '0;
    d       = '0;
    blocked = '0;
    cand    = '0;
    pick    = '0;
    if (any_avail) begin
      for (int k = 0; k < NumDirs; k++) begin
        sum     = 4'(prio_q) + 4'(k);
        d       = (32'(sum) >= NumDirs) ? 3'(32'(sum) - NumDirs) : sum[2:0];
        blocked = '0;  // colors with a target another input took already
        for (int o = 0; o < NumDirs; o++) if (taken[o]) blocked = blocked | tx_has[o];
        // An input consuming a faulty head moves nothing else this cycle.
        cand = avail[d] & rx_has[d] & ready & ~blocked & {NumColors{!head_bad[d]}};
        pick = pick_round_robin(cand, rr_ptr_q[d]);
        if (pick[CW]) begin
          fire[d]       = 1'b1;
          fire_color[d] = pick[CW-1:0];
          taken         = taken | tx_of[pick[CW-1:0]];
          if (!won) prio_d = (32'(d) == NumDirs - 1) ? '0 : d + 3'd1;
          won = 1'b1;
        end
      end
    end
  end

  // ---- Pops: winners leave, faulty heads are consumed ----
  logic                  head_fault [NumDirs];
  logic [CreditBits-1:0] cred_d [NumDirs];
  logic [CreditBits-1:0] cred_q [NumDirs];

  always_comb begin : pops
    for (int d = 0; d < NumDirs; d++) begin
      head_fault[d] = head_bad[d];
      pop[d]        = fire[d] || head_fault[d];
      pop_color[d]  = fire[d] ? fire_color[d] : fault_color[d];
      cred_d[d]     = {pop[d], pop_color[d]};
      rr_ptr_d[d]   = rr_ptr_q[d];
      if (fire[d]) rr_ptr_d[d] = (32'(fire_color[d]) == NumColors - 1) ? '0 : fire_color[d] + 1'b1;
    end
  end

  // ---- Outputs: a winner is copied to all its targets; control wavelets advance switches ----
  // A color's filter drops the RAMP copy of a data wavelet whose index (bits 31:16; a counter
  // filter's Count) lies outside FilterRange; that copy takes no credit, and the other targets
  // are served. A counter filter counts the wavelets of its kinds offered to the RAMP.
  logic [LinkBits-1:0] out_d [NumDirs];
  logic [LinkBits-1:0] out_q [NumDirs];

  always_comb begin : outputs
    logic [CW-1:0] c;
    logic [31:0]   range;
    logic [15:0]   index;
    logic          drop;  // the RAMP copy this cycle is filtered out
    for (int o = 0; o < NumDirs; o++) out_d[o] = '0;
    adv   = '0;
    cnt   = '0;
    c     = '0;
    range = '0;
    index = '0;
    drop  = 1'b0;
    for (int d = 0; d < NumDirs; d++) begin
      if (fire[d]) begin
        c = fire_color[d];
        if (head[d][DataBits]) adv[c] = 1'b1;
        // At most one winner targets the RAMP in a cycle: the filter looks at that one only.
        drop = 1'b0;
        if (tx_of[c][DirRamp] && filter_en[c] && cnt_mode[c]) begin
          drop   = !head[d][DataBits] && !cnt_pass[c];
          cnt[c] = head[d][DataBits] ? cnt_ctrl[c] : cnt_data[c];
        end else if (tx_of[c][DirRamp] && filter_en[c] && !head[d][DataBits]) begin
          range = filter_range[32'(c)*32 +: 32];
          index = head[d][31:16];
          drop  = index < range[FilterRangeMinLsb +: 16] || index > range[FilterRangeMaxLsb +: 16];
        end
        for (int o = 0; o < NumDirs; o++) begin
          if (tx_of[c][o] && !(o == 32'(DirRamp) && drop)) begin
            // Leaving W or E with color swap, the wavelet becomes its color's pair.
            out_d[o] = {1'b1, head[d][DataBits],
                        c ^ CW'((o == 32'(DirW) || o == 32'(DirE)) && swap_x[c]),
                        head[d][DataBits-1:0]};
          end
        end
      end
    end
  end

  // ---- Output credits ----
  for (genvar o = 0; o < NumDirs; o++) begin : g_credit
    localparam int unsigned Init = (o == 32'(DirRamp)) ? RampCredits : LinkQueueDepth;
    tessera_router_credits #(.Init(Init)) u_credits (
      .clk_i, .rst_ni, .en_i,
      .take_i      (out_d[o][LinkValidLsb]),
      .take_color_i(out_d[o][LinkColorLsb +: CW]),
      .credit_i    (cred_in[o]),
      .ok_o        (credit_ok[o])
    );
  end

  // ---- Fault status: the first fault since reset, and a saturating count ----
  logic [31:0] fault_q, fault_d;
  logic [15:0] fault_count;
  logic [2:0]  nfaults;
  logic        fault_seen;
  always_comb begin
    fault_d     = fault_q;
    fault_count = fault_q[RouterFaultCountLsb +: 16];
    nfaults     = '0;
    fault_seen  = 1'b0;
    for (int d = NumDirs - 1; d >= 0; d--) begin  // the lowest port wins the first record
      if (en_i && (arr_fault[d] || head_fault[d])) begin
        nfaults    = nfaults + 3'd1;
        fault_seen = 1'b1;
        if (fault_count == '0) begin
          fault_d[RouterFaultCauseLsb +: 3] = arr_fault[d] ? 3'(FaultCauseReservedColor)
                                                           : fault_cause[d];
          fault_d[RouterFaultDirLsb +: 3]   = 3'(d);
          fault_d[RouterFaultColorLsb +: 5] = arr_fault[d] ? in_color[d] : fault_color[d];
        end
      end
    end
    if (fault_seen) begin
      fault_d[RouterFaultCountLsb +: 16] =
          (17'(fault_count) + 17'(nfaults) > 17'hFFFF) ? 16'hFFFF : fault_count + 16'(nfaults);
    end
    // Writing the register clears it (the host acknowledges the fault).
    if (cfg_we_i && cfg_addr_i == RouterFaultAddr) fault_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q  <= '0;
      fault_q <= '0;
      for (int d = 0; d < NumDirs; d++) begin
        out_q[d]    <= '0;
        cred_q[d]   <= '0;
        rr_ptr_q[d] <= '0;
      end
    end else begin
      fault_q <= fault_d;
      if (en_i) begin
        prio_q <= prio_d;
        for (int d = 0; d < NumDirs; d++) begin
          out_q[d]    <= out_d[d];
          cred_q[d]   <= cred_d[d];
          rr_ptr_q[d] <= rr_ptr_d[d];
        end
      end
    end
  end

  logic [NumDirs-1:0] out_valid;
  for (genvar d = 0; d < NumDirs; d++) begin : g_out
    assign out_link_o[d*LinkBits +: LinkBits]   = out_q[d];
    assign credit_o[d*CreditBits +: CreditBits] = cred_q[d];
    assign out_valid[d]                         = out_q[d][LinkValidLsb];
  end
  assign busy_o = |stored || |out_valid;

  // RouterInCount (host only): element InCountWords * d + w holds input d's counts of colors
  // 8w..8w+7.
  // (decoded only for an address in its range; the queue computes the word)
  logic [31:0] count_rdata;
  always_comb begin
    count_hit  = 1'b0;
    count_dir  = '0;
    count_word = '0;
    if (cfg_addr_i >= RouterInCountAddr &&
        cfg_addr_i < RouterInCountAddr + 16'(RouterInCountStride * RouterInCountCount)) begin
      for (int i = 0; i < RouterInCountCount; i++) begin
        if (cfg_addr_i == RouterInCountAddr + 16'(RouterInCountStride * i)) begin
          count_hit  = 1'b1;
          count_dir  = 3'(i / InCountWords);
          count_word = 2'(i % InCountWords);
        end
      end
    end
  end
  assign count_rdata = in_count[count_dir];

  assign fault_o     = fault_q[RouterFaultCountLsb +: 16] != '0;
  assign cfg_rdata_o = route_hit ? route_rdata :
                       (cfg_addr_i == RouterFaultAddr) ? fault_q :
                       count_hit ? count_rdata : '0;

  // Back pressure: the colors waiting at some input that an output's missing credit holds up.
  always_comb begin : back_pressure
    logic [NumColors-1:0] waiting;
    waiting = '0;
    for (int d = 0; d < NumDirs; d++) waiting = waiting | (avail[d] & rx_has[d]);
    for (int o = 0; o < NumDirs; o++) begin
      blocked_o[o*NumColors +: NumColors] =
          {NumColors{en_i}} & waiting & tx_has[o] & ~credit_view[o] & ~tied_hit;
    end
  end

  // A winner's targets hold credit and are not tied off.
  logic [NumDirs-1:0] winner_ready;
  always_comb begin
    for (int d = 0; d < NumDirs; d++) winner_ready[d] = !fire[d] || ready[fire_color[d]];
  end
  `ASSERT(WinnerIsReady, !en_i || &winner_ready)
endmodule
