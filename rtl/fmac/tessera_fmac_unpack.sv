// Unpacks an IEEE 754 binary value for arithmetic: its class, and for finite nonzero values the
// biased exponent and the significand with the leading one at bit ManBits. Subnormals are
// normalised (exponent 1 - shift, which can go below zero), as SoftFloat's normSubnormal does.
module tessera_fmac_unpack #(
  parameter int unsigned ExpBits = 8,
  parameter int unsigned ManBits = 23,
  parameter int unsigned ExpW    = ExpBits + 4  // two's complement exponent width
) (
  input  logic                     active_i,  // 0: all outputs zero (see tessera_fmac)
  input  logic [ExpBits+ManBits:0] x_i,
  output logic                     sign_o,
  output logic                     zero_o,
  output logic                     inf_o,
  output logic                     nan_o,
  output logic                     snan_o,
  output logic [ExpW-1:0]          exp_o,
  output logic [ManBits:0]         sig_o
);
  localparam int unsigned CntW = $clog2(ManBits);

  logic               subnormal;
  logic [CntW-1:0]    frac_lz;
  logic [ManBits-1:0] frac_norm;
  logic               frac_zero;

  tessera_fmac_classify #(
    .ExpBits(ExpBits),
    .ManBits(ManBits)
  ) u_classify (
    .active_i   (active_i),
    .x_i        (x_i),
    .sign_o     (sign_o),
    .zero_o     (zero_o),
    .subnormal_o(subnormal),
    .inf_o      (inf_o),
    .nan_o      (nan_o),
    .snan_o     (snan_o)
  );

  tessera_fmac_lzc #(
    .Width(ManBits)
  ) u_lzc (
    .active_i(active_i),
    .x_i   (x_i[ManBits-1:0]),
    .cnt_o (frac_lz),
    .norm_o(frac_norm),
    .zero_o(frac_zero)
  );

  always_comb begin
    if (!active_i) begin
      exp_o = '0;
      sig_o = '0;
    end else if (subnormal) begin
      // leading one of the fraction moves to the hidden position: shift by lz + 1
      exp_o = -{{(ExpW - CntW){1'b0}}, frac_lz};
      sig_o = {frac_norm, 1'b0};
    end else begin
      exp_o = ExpW'(x_i[ExpBits+ManBits-1:ManBits]);
      sig_o = {~zero_o, x_i[ManBits-1:0]};
    end
  end

  logic unused_frac_zero;
  assign unused_frac_zero = frac_zero;
endmodule
