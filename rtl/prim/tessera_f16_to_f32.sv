// binary16 -> binary32, exact (SoftFloat 3e, RISC-V specialisation): every f16 value has an f32
// image, subnormals become normal numbers; a NaN becomes the canonical NaN and a signaling NaN
// raises invalid. Combinational. The design's one f16 widening: the FMAC's conversions
// (tessera_fmac_cvt: CvtF2F from f16, CvtF2I from f16) and the DSD engine's fmachs operands
// (tessera_ce_dsd_step) both use it.
module tessera_f16_to_f32 (
  input  logic [15:0] h_i,
  output logic [31:0] s_o,
  output logic [4:0]  flags_o   // tessera_pkg::fp_flag_e bits (invalid only)
);
  logic        sign;
  logic [4:0]  exp;
  logic [9:0]  man;
  logic [4:0]  top;   // a subnormal's leading one, bit index in man
  logic [22:0] frac;  // a subnormal's fraction below that one, normalised

  always_comb begin
    sign = h_i[15];
    exp  = h_i[14:10];
    man  = h_i[9:0];
    top  = '0;
    for (int k = 0; k < 10; k++) if (man[k]) top = 5'(k);
    frac    = 23'({man, 13'h0} << (5'd10 - top));
    flags_o = '0;
    if (exp == 5'h1F) begin
      if (man == '0) begin
        s_o = {sign, 8'hFF, 23'h0};
      end else begin
        s_o = tessera_pkg::CanonicalNan32;
        if (!man[9]) flags_o = 5'(tessera_pkg::FpFlagInvalid);
      end
    end else if (exp == 5'h00) begin
      if (man == '0) s_o = {sign, 31'h0};
      else           s_o = {sign, 8'(top) + 8'd103, frac};  // 2^(top-24): bias 127 - 24
    end else begin
      s_o = {sign, 8'(exp) + 8'd112, man, 13'h0};              // rebias 15 -> 127
    end
  end
endmodule
