// One router input port's queues: an independent FIFO of Depth wavelets per color (colors are
// virtual channels), with fall-through so that an arriving wavelet can leave in the cycle it
// arrives (a hop costs one cycle). At most one push and one pop per cycle. The upstream sender
// holds one credit per free slot, so a push into a full queue is a protocol error (asserted).
module tessera_router_inq #(
  parameter int unsigned Depth = 3
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                en_i,  // 0: hold all state (frozen fabric)
  // an accepted (routable-color) wavelet arrives
  input  logic                                push_i,
  input  logic [tessera_pkg::ColorBits-1:0]   push_color_i,
  input  logic [tessera_pkg::DataBits:0]      push_payload_i,  // {ctrl, data}
  // per color: a head wavelet exists (stored, or arriving this cycle)
  output logic [tessera_pkg::NumColors-1:0]   avail_o,
  // remove the head of one color (it leaves or faults this cycle)
  input  logic                                pop_i,
  input  logic [tessera_pkg::ColorBits-1:0]   pop_color_i,
  output logic [tessera_pkg::DataBits:0]      pop_payload_o,
  // some color holds a stored wavelet (after the last clock edge)
  output logic                                stored_o,
  // RouterInCount word count_word_i (the counts of its colors, a nibble each) while count_rd_i,
  // else zero: computed only for a read
  input  logic                                count_rd_i,
  input  logic [1:0]                          count_word_i,
  output logic [31:0]                         count_o
);
  `include "tessera_pkg_use.svh"
  `include "tessera_assert.svh"

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned CntW = $clog2(Depth + 1);
  localparam int unsigned PayW = DataBits + 1;

  // Storage and per-color state. Indexed updates keep the model cheap: per cycle at most one
  // color is pushed and one popped, so only those entries are written.
  logic [PayW-1:0]      mem_q [NumColors*Depth];
  logic [PtrW-1:0]      rptr_q [NumColors];
  logic [PtrW-1:0]      wptr_q [NumColors];
  logic [CntW-1:0]      cnt_q [NumColors];
  logic [NumColors-1:0] nonempty_q, nonempty_d;

  logic                 pop_mem, write;
  logic [CntW-1:0]      cnt_push_d, cnt_pop_d;
  logic [PtrW-1:0]      wptr_next, rptr_next;
  logic [NumColors-1:0] push_onehot, pop_onehot;

  assign push_onehot = push_i ? (NumColors'(1) << push_color_i) : '0;
  assign avail_o     = nonempty_q | push_onehot;
  assign stored_o    = |nonempty_q;
  localparam int unsigned InCountW = RouterInCountCount0Width;
  localparam int unsigned PerWord  = 32 / InCountW;  // colors per RouterInCount word
  always_comb begin
    count_o = '0;
    if (count_rd_i) begin
      for (int k = 0; k < PerWord; k++) begin
        if (PerWord * 32'(count_word_i) + k < NumColors)
          count_o[k*InCountW +: InCountW] = InCountW'(cnt_q[PerWord * 32'(count_word_i) + k]);
      end
    end
  end

  // (only in a cycle that pushes or pops: otherwise nothing changes and no head is read)
  always_comb begin
    pop_onehot    = '0;
    pop_mem       = 1'b0;
    write         = 1'b0;
    pop_payload_o = '0;
    wptr_next     = '0;
    rptr_next     = '0;
    cnt_push_d    = '0;
    cnt_pop_d     = '0;
    nonempty_d    = nonempty_q;
    if (push_i || pop_i) begin
      pop_onehot  = NumColors'(1) << pop_color_i;
      // A pop of a color with nothing stored takes the arriving wavelet (fall-through).
      pop_mem     = pop_i && nonempty_q[pop_color_i];
      write       = push_i && !(pop_i && !nonempty_q[pop_color_i] && pop_color_i == push_color_i);
      pop_payload_o = nonempty_q[pop_color_i] ?
                      mem_q[32'(pop_color_i) * Depth + 32'(rptr_q[pop_color_i])] : push_payload_i;

      wptr_next  = (32'(wptr_q[push_color_i]) == Depth - 1) ? '0 : wptr_q[push_color_i] + 1'b1;
      rptr_next  = (32'(rptr_q[pop_color_i]) == Depth - 1) ? '0 : rptr_q[pop_color_i] + 1'b1;
      cnt_push_d = cnt_q[push_color_i] + 1'b1
                 - CntW'(pop_mem && pop_color_i == push_color_i);
      cnt_pop_d  = cnt_q[pop_color_i] - 1'b1 + CntW'(write && pop_color_i == push_color_i);

      if (pop_mem && cnt_pop_d == '0) nonempty_d = nonempty_d & ~pop_onehot;
      if (write)                      nonempty_d = nonempty_d | push_onehot;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nonempty_q <= '0;
      for (int c = 0; c < NumColors; c++) begin
        rptr_q[c] <= '0;
        wptr_q[c] <= '0;
        cnt_q[c]  <= '0;
      end
    end else if (en_i) begin
      nonempty_q <= nonempty_d;
      if (write) begin
        mem_q[32'(push_color_i) * Depth + 32'(wptr_q[push_color_i])] <= push_payload_i;
        wptr_q[push_color_i] <= wptr_next;
        cnt_q[push_color_i]  <= cnt_push_d;
      end
      if (pop_mem) begin
        rptr_q[pop_color_i] <= rptr_next;
        cnt_q[pop_color_i]  <= cnt_pop_d;
      end
    end
  end

  `ASSERT_IF(PushFitsQueue, en_i && write,
             32'(cnt_q[push_color_i]) < Depth || (pop_mem && pop_color_i == push_color_i))
  `ASSERT_IF(PushRoutableColor, push_i, 32'(push_color_i) < NumColors)
  `ASSERT_IF(PopHasHead, pop_i, avail_o[pop_color_i])
endmodule
