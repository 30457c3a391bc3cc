// Credits a router output holds toward the queues downstream: one counter per color, starting
// at the downstream queue depth (Init). Taking a slot and a returning credit may coincide.
module tessera_router_credits #(
  parameter int unsigned Init = 3
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              en_i,          // 0: hold (frozen fabric)
  input  logic                              take_i,        // a wavelet of take_color_i leaves
  input  logic [tessera_pkg::ColorBits-1:0] take_color_i,
  input  tessera_pkg::credit_t              credit_i,      // a slot downstream was freed
  output logic [tessera_pkg::NumColors-1:0] ok_o           // per color: at least one credit
);
  `include "tessera_pkg_use.svh"
  `include "tessera_assert.svh"

  localparam int unsigned CntW = $clog2(Init + 1);

  logic [CntW-1:0]      cnt_q [NumColors];
  logic [NumColors-1:0] ok_q, ok_d;
  logic                 ret;
  logic [CntW-1:0]      cnt_take_d, cnt_ret_d;

  // (computed only in a cycle that takes or returns a credit; the others change nothing)
  logic upd;
  always_comb begin
    ret        = credit_i.valid;
    upd        = en_i && (take_i || ret);
    cnt_take_d = '0;
    cnt_ret_d  = '0;
    ok_d       = ok_q;
    if (take_i) begin
      cnt_take_d = cnt_q[take_color_i] - 1'b1 + CntW'(ret && credit_i.color == take_color_i);
      ok_d[take_color_i] = cnt_take_d != '0;
    end
    if (ret) begin
      cnt_ret_d = cnt_q[credit_i.color] + 1'b1 - CntW'(take_i && credit_i.color == take_color_i);
      ok_d[credit_i.color] = cnt_ret_d != '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ok_q <= '1;
      for (int c = 0; c < NumColors; c++) cnt_q[c] <= CntW'(Init);
    end else if (upd) begin
      ok_q <= ok_d;
      if (take_i) cnt_q[take_color_i]   <= cnt_take_d;
      if (ret)    cnt_q[credit_i.color] <= cnt_ret_d;
    end
  end

  assign ok_o = ok_q;

  `ASSERT_IF(TakeNeedsCredit, en_i && take_i, ok_q[take_color_i])
  `ASSERT_IF(CreditNotAboveInit, en_i && ret,
             32'(cnt_q[credit_i.color]) < Init || (take_i && credit_i.color == take_color_i))
  `ASSERT_IF(CreditRoutableColor, ret, 32'(credit_i.color) < NumColors)
endmodule
