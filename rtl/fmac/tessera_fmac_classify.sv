// Classifies an IEEE 754 binary value (ExpBits exponent bits, ManBits fraction bits, sign on top).
// Use it where only the class matters (compare, min/max); tessera_fmac_unpack adds the
// normalised exponent and significand the arithmetic needs.
module tessera_fmac_classify #(
  parameter int unsigned ExpBits = 8,
  parameter int unsigned ManBits = 23
) (
  input  logic                     active_i,  // 0: all outputs zero (see tessera_fmac)
  input  logic [ExpBits+ManBits:0] x_i,
  output logic                     sign_o,
  output logic                     zero_o,
  output logic                     subnormal_o,
  output logic                     inf_o,
  output logic                     nan_o,
  output logic                     snan_o
);
  logic exp_zero, exp_ones, frac_zero;

  always_comb begin
    exp_zero    = 1'b0;
    exp_ones    = 1'b0;
    frac_zero   = 1'b0;
    sign_o      = 1'b0;
    zero_o      = 1'b0;
    subnormal_o = 1'b0;
    inf_o       = 1'b0;
    nan_o       = 1'b0;
    snan_o      = 1'b0;
    if (active_i) begin
      exp_zero    = (x_i[ExpBits+ManBits-1:ManBits] == '0);
      exp_ones    = (x_i[ExpBits+ManBits-1:ManBits] == '1);
      frac_zero   = (x_i[ManBits-1:0] == '0);
      sign_o      = x_i[ExpBits+ManBits];
      zero_o      = exp_zero & frac_zero;
      subnormal_o = exp_zero & ~frac_zero;
      inf_o       = exp_ones & frac_zero;
      nan_o       = exp_ones & ~frac_zero;
      snan_o      = nan_o & ~x_i[ManBits-1];
    end
  end
endmodule
