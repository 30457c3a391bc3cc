// Logical right shift that ORs every bit shifted out into bit 0 (the "jam" or sticky bit), so a
// later rounding still sees that the value was inexact. A shift by Width or more leaves only the
// sticky bit. Use it to align the smaller addend and to denormalise before rounding.
module tessera_fmac_shr_jam #(
  parameter int unsigned Width = 32,
  parameter int unsigned ShW   = 5
) (
  input  logic             active_i,  // 0: y_o zero (see tessera_fmac)
  input  logic [Width-1:0] x_i,
  input  logic [ShW-1:0]   sh_i,
  output logic [Width-1:0] y_o
);
  logic [Width-1:0] lost;

  always_comb begin
    lost = '0;
    y_o  = '0;
    if (active_i) begin
      lost = x_i & ~({Width{1'b1}} << sh_i);
      y_o  = (x_i >> sh_i) | {{(Width - 1){1'b0}}, (lost != '0)};
    end
  end
endmodule
