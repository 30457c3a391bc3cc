// Division and square root of one IEEE 754 binary format, combinational, correctly rounded and
// bit-exact with Berkeley SoftFloat 3e (RISC-V specialisation): canonical NaN, x / 0 raises the
// infinite flag, 0 / 0, inf / inf and the root of a negative non-zero number are invalid,
// sqrt(-0) = -0. The FMAC computes it after its input register and delays the result alongside
// its other operations, so both have the FMAC's latency and issue rate (docs/fmac.md, "Division
// and square root").
//
// Both are digit recurrences on the normalised significands (P = ManBits + 1 bits):
//   division     restoring, P + 3 quotient bits (the kept bits, a round bit and one more), the
//                remainder as the sticky bit;
//   square root  restoring, one root bit per pair of radicand bits, on the significand scaled by
//                4^S (S = P/2 + 2) so that the root has at least P + 2 bits; the remainder as the
//                sticky bit.
// Then tessera_fmac_round rounds and packs. active_i = 0 skips the recurrences (a verilated model
// then spends nothing on them); the outputs are don't-care.
module tessera_fmac_divsqrt #(
  parameter int unsigned ExpBits = 8,
  parameter int unsigned ManBits = 23
) (
  input  logic                     active_i,  // the operation is a division or a square root
  input  logic                     sqrt_i,    // 1: sqrt(a_i); 0: a_i / b_i
  input  logic [ExpBits+ManBits:0] a_i,
  input  logic [ExpBits+ManBits:0] b_i,
  output logic [ExpBits+ManBits:0] result_o,
  output logic [4:0]               flags_o    // tessera_pkg::fp_flag_e bits
);
  localparam int unsigned Width = ExpBits + ManBits + 1;
  localparam int unsigned P     = ManBits + 1;                     // significand bits
  localparam int unsigned ExpW  = ExpBits + 4;                     // tessera_fmac_round's
  localparam int unsigned SigW  = (2 ** $clog2(ManBits + 4)) - 1;  // tessera_fmac_round's
  localparam int unsigned CntW  = $clog2(P);
  localparam int unsigned QW    = P + 3;                           // quotient bits
  localparam int unsigned S     = P / 2 + 2;                       // radicand scale 4^S
  localparam int unsigned NW    = 2 * ((P + 1 + 2 * S + 1) / 2);   // radicand bits, even
  localparam int unsigned RW    = NW / 2;                          // root bits
  localparam int signed   Bias  = (2 ** (ExpBits - 1)) - 1;
  localparam logic [Width-1:0] CanonicalNan = {1'b0, {(ExpBits + 1){1'b1}}, {(ManBits - 1){1'b0}}};
  localparam logic [Width-1:0] Inf          = {1'b0, {ExpBits{1'b1}}, {ManBits{1'b0}}};

  logic a_sign, a_zero, a_sub, a_inf, a_nan, a_snan;
  logic b_sign, b_zero, b_sub, b_inf, b_nan, b_snan;

  tessera_fmac_classify #(.ExpBits(ExpBits), .ManBits(ManBits)) u_class_a (
    .active_i, .x_i(a_i), .sign_o(a_sign), .zero_o(a_zero), .subnormal_o(a_sub), .inf_o(a_inf),
    .nan_o(a_nan), .snan_o(a_snan)
  );
  tessera_fmac_classify #(.ExpBits(ExpBits), .ManBits(ManBits)) u_class_b (
    .active_i, .x_i(b_i), .sign_o(b_sign), .zero_o(b_zero), .subnormal_o(b_sub), .inf_o(b_inf),
    .nan_o(b_nan), .snan_o(b_snan)
  );

  // Normalised significands (leading one at bit P-1) and the biased exponents of that one.
  logic [CntW-1:0] a_lz, b_lz;
  logic [P-1:0]    a_norm, b_norm;
  logic            a_lzc_zero, b_lzc_zero;

  tessera_fmac_lzc #(.Width(P)) u_lzc_a (
    .active_i, .x_i({~a_sub & ~a_zero, a_i[ManBits-1:0]}), .cnt_o(a_lz), .norm_o(a_norm), .zero_o(a_lzc_zero)
  );
  tessera_fmac_lzc #(.Width(P)) u_lzc_b (
    .active_i, .x_i({~b_sub & ~b_zero, b_i[ManBits-1:0]}), .cnt_o(b_lz), .norm_o(b_norm), .zero_o(b_lzc_zero)
  );

  logic signed [ExpW-1:0] a_exp, b_exp, k, half_k, exp_q;
  logic        [QW-1:0]   quo;
  logic        [P:0]      rem_d;
  logic        [NW-1:0]   rad;
  logic        [RW+1:0]   rem_s, trial;
  logic        [RW-1:0]   root;
  logic                   sticky, q_top, r_top, sign;
  logic        [SigW-1:0] sig;
  logic        [Width-1:0] rounded;
  logic        [4:0]       round_flags;

  always_comb begin
    a_exp  = (a_sub ? ExpW'(1) : ExpW'(a_i[Width-2:ManBits])) - ExpW'(a_lz);
    b_exp  = (b_sub ? ExpW'(1) : ExpW'(b_i[Width-2:ManBits])) - ExpW'(b_lz);
    quo    = '0;
    rem_d  = '0;
    rad    = '0;
    rem_s  = '0;
    trial  = '0;
    root   = '0;
    k      = '0;
    half_k = '0;
    sticky = 1'b0;
    q_top  = 1'b0;
    r_top  = 1'b0;
    sig    = '0;
    exp_q  = '0;
    sign   = sqrt_i ? 1'b0 : a_sign ^ b_sign;
    if (active_i && !sqrt_i) begin
      // One quotient bit per step: compare, subtract, shift.
      rem_d = {1'b0, a_norm};
      for (int i = 0; i < QW; i++) begin
        quo = quo << 1;
        if (rem_d >= {1'b0, b_norm}) begin
          rem_d  = rem_d - {1'b0, b_norm};
          quo[0] = 1'b1;
        end
        rem_d = rem_d << 1;
      end
      sticky = rem_d != '0;
      q_top  = quo[QW-1];  // a's significand >= b's
      sig    = q_top ? SigW'(quo) << (SigW - QW) : SigW'(quo) << (SigW - QW + 1);
      sig[0] = sig[0] | sticky;
      exp_q  = ExpW'(Bias) + a_exp - b_exp - (q_top ? ExpW'(1) : ExpW'(2));
    end else if (active_i) begin
      // a = a_norm * 2^k with k even (the significand doubled if needed).
      k   = a_exp - ExpW'(Bias) - ExpW'(P - 1);
      rad = k[0] ? NW'({a_norm, 1'b0}) << (2 * S) : NW'(a_norm) << (2 * S);
      if (k[0]) k = k - ExpW'(1);
      half_k = k >>> 1;  // alone: in a wider expression with unsigned operands >>> is logical
      for (int i = RW - 1; i >= 0; i--) begin
        rem_s = {rem_s[RW-1:0], rad[2*i+1], rad[2*i]};
        trial = {root, 2'b01};
        if (rem_s >= trial) begin
          rem_s = rem_s - trial;
          root  = {root[RW-2:0], 1'b1};
        end else begin
          root  = {root[RW-2:0], 1'b0};
        end
      end
      sticky = rem_s != '0;
      r_top  = root[RW-1];
      sig    = r_top ? SigW'(root) << (SigW - RW) : SigW'(root) << (SigW - RW + 1);
      sig[0] = sig[0] | sticky;
      // The leading one of the root at bit RW-1 (or RW-2) weighs 2^(k/2 - S + RW-1 (or RW-2)).
      exp_q  = ExpW'(Bias) + half_k - ExpW'(S) + ExpW'(RW) - (r_top ? ExpW'(2) : ExpW'(3));
    end
  end

  tessera_fmac_round #(.ExpBits(ExpBits), .ManBits(ManBits), .ExpW(ExpW), .SigW(SigW)) u_round (
    .active_i(active_i),
    .sign_i  (sign),
    .exp_i   (exp_q),
    .sig_i   (sig),
    .result_o(rounded),
    .flags_o (round_flags)
  );

  always_comb begin
    result_o = rounded;
    flags_o  = round_flags;
    if (sqrt_i) begin
      if (a_nan) begin
        result_o = CanonicalNan;
        flags_o  = {a_snan, 4'b0000};
      end else if (a_zero || (a_inf && !a_sign)) begin
        result_o = a_i;
        flags_o  = '0;
      end else if (a_sign) begin
        result_o = CanonicalNan;
        flags_o  = 5'b10000;
      end
    end else begin
      if (a_nan || b_nan) begin
        result_o = CanonicalNan;
        flags_o  = {a_snan | b_snan, 4'b0000};
      end else if ((a_inf && b_inf) || (a_zero && b_zero)) begin
        result_o = CanonicalNan;
        flags_o  = 5'b10000;
      end else if (a_inf) begin
        result_o = Inf | {sign, {(Width - 1){1'b0}}};
        flags_o  = '0;
      end else if (b_zero) begin
        result_o = Inf | {sign, {(Width - 1){1'b0}}};
        flags_o  = 5'b01000;  // infinite: division by zero
      end else if (b_inf || a_zero) begin
        result_o = {sign, {(Width - 1){1'b0}}};
        flags_o  = '0;
      end
    end
  end

  logic unused;
  assign unused = ^{a_lzc_zero, b_lzc_zero, b_sign & sqrt_i};
endmodule
