// Fused multiply-add for one IEEE 754 binary format (binary32: ExpBits 8, ManBits 23; binary16:
// ExpBits 5, ManBits 10): result = a * b + c rounded once to nearest even, bit-exact with
// SoftFloat 3e's softfloat_mulAddF32/F16 (RISC-V specialisation: canonical NaN, invalid on any
// sNaN and on inf * 0 even when c is a quiet NaN). The top routes add, subtract and multiply here
// too (a * 1.0 + b, a * 1.0 - b, a * b + -0).
//
// Four combinational stages, with a register after stage k+1 when Regs[k] is set:
//   S1 unpack and classify the operands, special results (NaN, inf, zero product), product exponent
//   S2 significand product, one-bit product normalisation, align the smaller addend (with jam)
//   S3 add or subtract, absolute value, leading-zero count and normalisation
//   S4 round and pack: result_o and flags_o are combinational, the caller registers them.
// The datapath is SoftFloat's: both addends are SumW-1 bits with the leading one at bit SumW-3,
// the smaller one shifted right with jam; this stays within 64 bits for binary32.
module tessera_fmac_fma #(
  parameter int unsigned ExpBits = 8,
  parameter int unsigned ManBits = 23,
  parameter logic [2:0]  Regs    = 3'b111
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     en_i,
  // an operation for this core: each stage computes only for one (a verilated model skips the
  // logic of idle stages); an idle stage gives zeros
  input  logic                     valid_i,
  input  logic [ExpBits+ManBits:0] a_i,
  input  logic [ExpBits+ManBits:0] b_i,
  input  logic [ExpBits+ManBits:0] c_i,
  output logic [ExpBits+ManBits:0] result_o,
  output logic [4:0]               flags_o    // tessera_pkg::fp_flag_e bits
);
  localparam int unsigned Width = ExpBits + ManBits + 1;
  localparam int unsigned Prec  = ManBits + 1;              // 24 / 11
  localparam int unsigned HalfW = 2 ** $clog2(Prec + 3);    // 32 / 16: SoftFloat's sig word
  localparam int unsigned SigW  = HalfW - 1;                // significand into rounding: 31 / 15
  localparam int unsigned SumW  = 2 * HalfW;                // adder: 64 / 32
  localparam int unsigned AlnW  = SumW - 1;                 // aligned addends: 63 / 31
  localparam int unsigned ExpW  = ExpBits + 4;              // two's complement exponents
  localparam int unsigned ShW   = $clog2(AlnW + 1);         // alignment shift, saturated at AlnW
  localparam int unsigned CntW  = $clog2(AlnW);
  localparam int unsigned Bias  = 2 ** (ExpBits - 1) - 1;
  localparam logic [Width-1:0] CanonicalNan = {1'b0, {(ExpBits + 1){1'b1}}, {(ManBits - 1){1'b0}}};

  // ---------------------------------------------------------------------------------------------
  // S1: unpack, special cases
  // ---------------------------------------------------------------------------------------------
  logic            a_sign, a_zero, a_inf, a_nan, a_snan;
  logic            b_sign, b_zero, b_inf, b_nan, b_snan;
  logic            c_sign, c_zero, c_inf, c_nan, c_snan;
  logic [ExpW-1:0] a_exp, b_exp, c_exp;
  logic [Prec-1:0] a_sig, b_sig, c_sig;

  tessera_fmac_unpack #(.ExpBits(ExpBits), .ManBits(ManBits), .ExpW(ExpW)) u_unpack_a (
    .active_i(valid_i), .x_i(a_i), .sign_o(a_sign), .zero_o(a_zero), .inf_o(a_inf), .nan_o(a_nan), .snan_o(a_snan),
    .exp_o(a_exp), .sig_o(a_sig)
  );
  tessera_fmac_unpack #(.ExpBits(ExpBits), .ManBits(ManBits), .ExpW(ExpW)) u_unpack_b (
    .active_i(valid_i), .x_i(b_i), .sign_o(b_sign), .zero_o(b_zero), .inf_o(b_inf), .nan_o(b_nan), .snan_o(b_snan),
    .exp_o(b_exp), .sig_o(b_sig)
  );
  tessera_fmac_unpack #(.ExpBits(ExpBits), .ManBits(ManBits), .ExpW(ExpW)) u_unpack_c (
    .active_i(valid_i), .x_i(c_i), .sign_o(c_sign), .zero_o(c_zero), .inf_o(c_inf), .nan_o(c_nan), .snan_o(c_snan),
    .exp_o(c_exp), .sig_o(c_sig)
  );

  logic             s1_sign_prod, s1_nan_ab, s1_prod_inf, s1_nan_res, s1_special, s1_invalid;
  logic [Width-1:0] s1_special_res;
  logic [ExpW-1:0]  s1_exp_prod;

  always_comb begin
    s1_sign_prod   = 1'b0;
    s1_nan_ab      = 1'b0;
    s1_prod_inf    = 1'b0;
    s1_invalid     = 1'b0;
    s1_nan_res     = 1'b0;
    s1_special     = 1'b0;
    s1_special_res = '0;
    s1_exp_prod    = '0;
    if (valid_i) begin
      s1_sign_prod = a_sign ^ b_sign;
      s1_nan_ab    = a_nan | b_nan;
      s1_prod_inf  = (a_inf | b_inf) & ~a_zero & ~b_zero;
      s1_invalid   = a_snan | b_snan | c_snan
                   | (~s1_nan_ab & ((a_inf & b_zero) | (a_zero & b_inf)))
                   | (~s1_nan_ab & ~c_nan & s1_prod_inf & c_inf & (s1_sign_prod ^ c_sign));
      s1_nan_res   = s1_nan_ab | c_nan | s1_invalid;
      s1_special   = s1_nan_res | s1_prod_inf | c_inf | a_zero | b_zero;
      if (s1_nan_res) begin
        s1_special_res = CanonicalNan;
      end else if (s1_prod_inf) begin
        s1_special_res = {s1_sign_prod, {ExpBits{1'b1}}, {ManBits{1'b0}}};
      end else if (c_zero & (s1_sign_prod ^ c_sign)) begin
        s1_special_res = '0;  // zero product plus zero of the other sign: +0 (RNE)
      end else begin
        s1_special_res = c_i;  // inf addend, or zero product: c exactly
      end
      s1_exp_prod = a_exp + b_exp - ExpW'(Bias - 1);
    end
  end

  // S1 -> S2 register
  localparam int unsigned R1W = 1 + 2 + Width + 1 + ExpW + Prec + Prec + 1 + ExpW + Prec + 1;

  logic             r1_valid, r1_special, r1_invalid, r1_sign_prod, r1_c_sign, r1_c_zero;
  logic [Width-1:0] r1_special_res;
  logic [ExpW-1:0]  r1_exp_prod, r1_c_exp;
  logic [Prec-1:0]  r1_a_sig, r1_b_sig, r1_c_sig;

  tessera_pipe #(.Width(R1W), .Stages(Regs[0] ? 1 : 0), .ValidBit(R1W - 1)) u_reg1 (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (en_i),
    .d_i   ({valid_i, s1_special, s1_invalid, s1_special_res, s1_sign_prod, s1_exp_prod, a_sig,
             b_sig, c_sign, c_exp, c_sig, c_zero}),
    .q_o   ({r1_valid, r1_special, r1_invalid, r1_special_res, r1_sign_prod, r1_exp_prod, r1_a_sig, r1_b_sig,
             r1_c_sign, r1_c_exp, r1_c_sig, r1_c_zero})
  );

  // ---------------------------------------------------------------------------------------------
  // S2: multiply, align
  // ---------------------------------------------------------------------------------------------
  logic [2*Prec-1:0] s2_prod, s2_prod_n;
  logic              s2_prod_top, s2_c_big, s2_eff_sub, s2_sign;
  logic [ExpW-1:0]   s2_exp_p, s2_exp_diff, s2_diff_abs, s2_exp;
  logic [ShW-1:0]    s2_sh;
  logic [AlnW-1:0]   s2_prod_al, s2_c_al, s2_big, s2_small_pre, s2_small;

  always_comb begin
    s2_prod      = '0;
    s2_prod_top  = 1'b0;
    s2_prod_n    = '0;
    s2_exp_p     = '0;
    s2_prod_al   = '0;
    s2_c_al      = '0;
    s2_exp_diff  = '0;
    s2_c_big     = 1'b0;
    s2_diff_abs  = '0;
    s2_sh        = '0;
    s2_big       = '0;
    s2_small_pre = '0;
    s2_eff_sub   = 1'b0;
    s2_sign      = 1'b0;
    s2_exp       = '0;
    if (r1_valid) begin
      s2_prod     = {{Prec{1'b0}}, r1_a_sig} * {{Prec{1'b0}}, r1_b_sig};
      s2_prod_top = s2_prod[2*Prec-1];
      s2_prod_n   = s2_prod_top ? s2_prod : {s2_prod[2*Prec-2:0], 1'b0};
      s2_exp_p    = r1_exp_prod - {{(ExpW - 1){1'b0}}, ~s2_prod_top};
      // both addends with their leading one at bit AlnW-2 when the exponents are equal
      s2_prod_al  = {1'b0, s2_prod_n, {(AlnW - 1 - 2 * Prec){1'b0}}};
      s2_c_al     = r1_c_zero ? '0 : {1'b0, r1_c_sig, {(AlnW - 1 - Prec){1'b0}}};
      s2_exp_diff = s2_exp_p - r1_c_exp;
      s2_c_big    = ~r1_c_zero & s2_exp_diff[ExpW-1];
      s2_diff_abs = s2_c_big ? -s2_exp_diff : s2_exp_diff;
      s2_sh       = (s2_diff_abs > ExpW'(AlnW)) ? ShW'(AlnW) : s2_diff_abs[ShW-1:0];
      s2_big       = s2_c_big ? s2_c_al : s2_prod_al;
      s2_small_pre = s2_c_big ? s2_prod_al : s2_c_al;
      s2_eff_sub  = r1_sign_prod ^ r1_c_sign;
      s2_sign     = s2_c_big ? r1_c_sign : r1_sign_prod;
      s2_exp      = s2_c_big ? r1_c_exp : s2_exp_p;
    end
  end

  tessera_fmac_shr_jam #(.Width(AlnW), .ShW(ShW)) u_align (
    .active_i(r1_valid),
    .x_i (s2_small_pre),
    .sh_i(s2_sh),
    .y_o (s2_small)
  );

  // S2 -> S3 register
  localparam int unsigned R2W = 1 + 2 + Width + 2 + ExpW + 2 * AlnW;

  logic             r2_valid, r2_special, r2_invalid, r2_eff_sub, r2_sign;
  logic [Width-1:0] r2_special_res;
  logic [ExpW-1:0]  r2_exp;
  logic [AlnW-1:0]  r2_big, r2_small;

  tessera_pipe #(.Width(R2W), .Stages(Regs[1] ? 1 : 0), .ValidBit(R2W - 1)) u_reg2 (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (en_i),
    .d_i   ({r1_valid, r1_special, r1_invalid, r1_special_res, s2_eff_sub, s2_sign, s2_exp, s2_big,
             s2_small}),
    .q_o   ({r2_valid, r2_special, r2_invalid, r2_special_res, r2_eff_sub, r2_sign, r2_exp, r2_big,
             r2_small})
  );

  // ---------------------------------------------------------------------------------------------
  // S3: add, normalise
  // ---------------------------------------------------------------------------------------------
  logic [SumW-1:0] s3_sum, s3_mag;
  logic            s3_neg, s3_sign;
  logic [CntW-1:0] s3_lz;
  logic [AlnW-1:0] s3_norm;
  logic            s3_zero;
  logic [ExpW-1:0] s3_exp;
  logic [SigW-1:0] s3_sig;

  always_comb begin
    s3_sum  = '0;
    s3_neg  = 1'b0;
    s3_mag  = '0;
    s3_sign = 1'b0;
    if (r2_valid) begin
      if (r2_eff_sub) s3_sum = {1'b0, r2_big} - {1'b0, r2_small};
      else            s3_sum = {1'b0, r2_big} + {1'b0, r2_small};
      s3_neg  = s3_sum[SumW-1];  // only when the exponents are equal and c is the larger
      s3_mag  = s3_neg ? -s3_sum : s3_sum;
      s3_sign = r2_sign ^ s3_neg;
    end
  end

  tessera_fmac_lzc #(.Width(AlnW)) u_lzc (
    .active_i(r2_valid),
    .x_i   (s3_mag[AlnW-1:0]),
    .cnt_o (s3_lz),
    .norm_o(s3_norm),
    .zero_o(s3_zero)
  );

  always_comb begin
    // leading one to bit AlnW-1, keep SigW bits, jam the rest
    s3_exp = '0;
    s3_sig = '0;
    if (r2_valid) begin
      s3_exp = r2_exp - ExpW'(s3_lz);
      s3_sig = {s3_norm[AlnW-1 -: SigW-1], s3_norm[AlnW-SigW] | (s3_norm[AlnW-SigW-1:0] != '0)};
    end
  end

  logic unused_mag_top;
  assign unused_mag_top = s3_mag[SumW-1];  // zero after the absolute value

  // S3 -> S4 register
  localparam int unsigned R3W = 1 + 2 + Width + 1 + ExpW + SigW + 1;

  logic             r3_valid, r3_special, r3_invalid, r3_sign, r3_zero;
  logic [Width-1:0] r3_special_res;
  logic [ExpW-1:0]  r3_exp;
  logic [SigW-1:0]  r3_sig;

  tessera_pipe #(.Width(R3W), .Stages(Regs[2] ? 1 : 0), .ValidBit(R3W - 1)) u_reg3 (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (en_i),
    .d_i   ({r2_valid, r2_special, r2_invalid, r2_special_res, s3_sign, s3_exp, s3_sig, s3_zero}),
    .q_o   ({r3_valid, r3_special, r3_invalid, r3_special_res, r3_sign, r3_exp, r3_sig, r3_zero})
  );

  // ---------------------------------------------------------------------------------------------
  // S4: round and pack
  // ---------------------------------------------------------------------------------------------
  logic [Width-1:0] s4_rounded;
  logic [4:0]       s4_flags;

  tessera_fmac_round #(.ExpBits(ExpBits), .ManBits(ManBits), .ExpW(ExpW), .SigW(SigW)) u_round (
    .active_i(r3_valid),
    .sign_i  (r3_sign),
    .exp_i   (r3_exp),
    .sig_i   (r3_sig),
    .result_o(s4_rounded),
    .flags_o (s4_flags)
  );

  always_comb begin
    if (!r3_valid) begin
      result_o = '0;
      flags_o  = '0;
    end else if (r3_special) begin
      result_o = r3_special_res;
      flags_o  = {r3_invalid, 4'b0000};
    end else if (r3_zero) begin
      result_o = '0;  // exact cancellation: +0 when rounding to nearest
      flags_o  = '0;
    end else begin
      result_o = s4_rounded;
      flags_o  = s4_flags;
    end
  end
endmodule
