// The CE side of the ramp: one FIFO per color for the wavelets the router delivers to the CE
// (depth CeInDepth = RampOutCredits, so the router's credits never overrun it), and the credits
// owed back to the router for consumed wavelets. A wavelet delivered in cycle c is visible from
// c+1. Each color may be popped once per cycle (by the picker, the control dispatcher or the DSD
// engine; they never pop the same color in one cycle). One owed credit returns per cycle, round
// robin over the colors starting at the return pointer (docs/isa.md 6.8, item 7).
module tessera_ce_inq (
  input  logic                                        clk_i,
  input  logic                                        rst_ni,
  input  logic                                        en_i,
  input  tessera_pkg::link_t                          ramp_i,    // router -> CE, this cycle
  input  logic [tessera_pkg::NumColors-1:0]           pop_i,     // consume the head of color c
  output logic [tessera_pkg::NumColors-1:0]           head_valid_o,
  output logic [tessera_pkg::NumColors-1:0]           head_ctrl_o,
  output logic [tessera_pkg::NumColors*32-1:0]        head_data_o,
  output logic [tessera_pkg::NumColors*5-1:0]         count_o,   // wavelets queued per color
  output logic                                        owed_o,    // some credit is owed
  input  logic                                        ret_en_i,  // a credit may return now
  output tessera_pkg::credit_t                        credit_o   // CE -> router, this cycle
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned Depth = CeInDepth;
  localparam int unsigned PtrW  = $clog2(Depth);

  logic [32:0] mem_q [NumColors*Depth];
  // Per color c, in flat vectors (at [W*c +: W]), loading only in a cycle with a push, a pop or a
  // returned credit: the head pointer, the count (5 bits, as count_o has them) and the credits
  // owed.
  localparam int unsigned OwW = PtrW + 1;
  logic [NumColors*PtrW-1:0] head_q, head_d;
  logic [NumColors*5-1:0]    cnt_q, cnt_d;
  logic [NumColors*OwW-1:0]  owed_q, owed_d;
  logic [4:0]      rptr_q, rptr_d;
  // per color, kept beside the counts: a wavelet is queued, a credit is owed
  logic [NumColors-1:0] valid_q, valid_d, owed_mask_q, owed_mask_d;

  logic [NumColors-1:0] push, pop;
  logic                 ret_valid, ret;
  logic [4:0]           ret_color;

  always_comb begin
    push = '0;
    if (ramp_i.valid && 32'(ramp_i.color) < NumColors) push[ramp_i.color] = en_i;
    pop = pop_i & valid_q & {NumColors{en_i}};
  end

  // The heads of the colors with a wavelet queued (zeros for the others).
  always_comb begin
    logic [32:0] w;
    w           = '0;
    head_ctrl_o = '0;
    head_data_o = '0;
    if (valid_q != '0) begin
      for (int c = 0; c < NumColors; c++) begin
        if (valid_q[c]) begin
          w                       = mem_q[c*Depth + 32'(head_q[PtrW*c +: PtrW])];
          head_ctrl_o[c]          = w[32];
          head_data_o[c*32 +: 32] = w[31:0];
        end
      end
    end
  end
  assign head_valid_o = valid_q;
  assign count_o      = cnt_q;

  // A push, a pop and a returned credit change only their colors; a cycle without them changes
  // nothing (the registers load only when one happens, and their next values are zeros then).
  logic upd;
  always_comb begin
    logic rc;
    upd         = push != '0 || pop != '0 || ret;
    valid_d     = valid_q;
    owed_mask_d = owed_mask_q;
    rc          = 1'b0;
    head_d      = '0;
    cnt_d       = '0;
    owed_d      = '0;
    if (upd) begin
      head_d = head_q;
      cnt_d  = cnt_q;
      owed_d = owed_q;
      for (int c = 0; c < NumColors; c++) begin
        rc = ret && ret_color == 5'(c);
        if (push[c] || pop[c] || rc) begin
          head_d[PtrW*c +: PtrW] = head_q[PtrW*c +: PtrW] + PtrW'(pop[c]);
          cnt_d[5*c +: 5]        = cnt_q[5*c +: 5] + 5'(push[c]) - 5'(pop[c]);
          owed_d[OwW*c +: OwW]   = owed_q[OwW*c +: OwW] + OwW'(pop[c]) - OwW'(rc);
          valid_d[c]             = cnt_d[5*c +: 5] != '0;
          owed_mask_d[c]         = owed_d[OwW*c +: OwW] != '0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q      <= '0;
      cnt_q       <= '0;
      owed_q      <= '0;
      valid_q     <= '0;
      owed_mask_q <= '0;
    end else if (upd) begin
      head_q      <= head_d;
      cnt_q       <= cnt_d;
      owed_q      <= owed_d;
      valid_q     <= valid_d;
      owed_mask_q <= owed_mask_d;
    end
  end

  // The slot a push writes: behind the current tail of its color. Storage needs no reset.
  logic [PtrW-1:0] tail;
  always_comb begin
    tail = '0;
    if (push != '0)
      tail = head_q[PtrW*ramp_i.color +: PtrW] + PtrW'(cnt_q[5*ramp_i.color +: 5]);
  end
  always_ff @(posedge clk_i) begin
    if (|push) mem_q[32'(ramp_i.color)*Depth + 32'(tail)] <= {ramp_i.ctrl, ramp_i.data};
  end

  // Credit return: the first owed color at or after the pointer.
  always_comb begin
    logic [5:0] c;
    ret_valid = 1'b0;
    ret_color = '0;
    c         = '0;
    if (owed_mask_q != '0) begin
      for (int k = NumColors - 1; k >= 0; k--) begin
        c = 6'(rptr_q) + 6'(k);
        if (c >= 6'(NumColors)) c = c - 6'(NumColors);
        if (owed_mask_q[c[4:0]]) begin
          ret_valid = 1'b1;
          ret_color = c[4:0];
        end
      end
    end
    ret    = ret_valid && ret_en_i;
    rptr_d = rptr_q;
    if (ret) rptr_d = (ret_color == 5'(NumColors - 1)) ? 5'd0 : ret_color + 5'd1;
    credit_o       = '0;
    credit_o.valid = ret;
    credit_o.color = ret_color;
  end
  assign owed_o = owed_mask_q != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rptr_q <= '0;
    else         rptr_q <= rptr_d;
  end

  `include "tessera_assert.svh"
  `ASSERT_IF(InqNoOverflow, push != '0, 32'(cnt_q[5*ramp_i.color +: 5]) < Depth)
endmodule
