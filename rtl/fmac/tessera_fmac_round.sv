// Round to nearest even and pack, as SoftFloat's roundPackToF32/F16 with tininess detected after
// rounding. The value is sig_i * 2^(exp_i - Bias - SigW + 2): sig_i has its leading one at bit
// SigW-1 (SigW = 31 for binary32, 15 for binary16) and RndW = SigW - ManBits - 1 bits below the
// result's LSB. exp_i is two's complement; below zero the significand is denormalised first.
// Raises overflow (result +-inf), underflow (tiny and inexact) and inexact.
module tessera_fmac_round #(
  parameter int unsigned ExpBits = 8,
  parameter int unsigned ManBits = 23,
  parameter int unsigned ExpW    = ExpBits + 4,
  parameter int unsigned SigW    = (2 ** $clog2(ManBits + 4)) - 1
) (
  input  logic                     active_i,  // 0: all outputs zero (see tessera_fmac)
  input  logic                     sign_i,
  input  logic [ExpW-1:0]          exp_i,
  input  logic [SigW-1:0]          sig_i,
  output logic [ExpBits+ManBits:0] result_o,
  output logic [4:0]               flags_o   // tessera_pkg::fp_flag_e bits
);
  localparam int unsigned RndW  = SigW - ManBits - 1;      // round bits below the result LSB
  localparam int unsigned ShW   = $clog2(SigW + 1);        // denormalising shift, saturated at SigW
  localparam int unsigned MaxEx = (2 ** ExpBits) - 3;      // largest exp_i that cannot overflow
  localparam logic [SigW:0] Half = {{SigW{1'b0}}, 1'b1} << (RndW - 1);  // round increment

  logic            exp_neg, tiny, overflow, carry, tie;
  logic [ExpW-1:0] exp_abs;
  logic [ShW-1:0]  den_sh;
  logic [SigW-1:0] sig_den, sig_s;
  logic [SigW:0]   sig_inc;
  logic [RndW-1:0] rnd_bits;
  logic [SigW:0]   sig_sum;
  logic [ManBits+1:0] sig_r;
  logic [ExpBits-1:0] exp_s;
  logic [ExpBits+ManBits-1:0] mag;

  tessera_fmac_shr_jam #(
    .Width(SigW),
    .ShW  (ShW)
  ) u_denorm (
    .active_i(active_i),
    .x_i (sig_i),
    .sh_i(den_sh),
    .y_o (sig_den)
  );

  always_comb begin
    exp_neg  = 1'b0;
    exp_abs  = '0;
    den_sh   = '0;
    sig_inc  = '0;
    carry    = 1'b0;
    tiny     = 1'b0;
    overflow = 1'b0;
    sig_s    = '0;
    exp_s    = '0;
    rnd_bits = '0;
    tie      = 1'b0;
    sig_sum  = '0;
    sig_r    = '0;
    mag      = '0;
    result_o = '0;
    flags_o  = '0;
    if (active_i) begin
      exp_neg = exp_i[ExpW-1];
      exp_abs = -exp_i;
      den_sh  = (exp_abs > ExpW'(SigW)) ? ShW'(SigW) : exp_abs[ShW-1:0];
      sig_inc = {1'b0, sig_i} + Half;
      carry   = sig_inc[SigW];
      // tiny: below the normal range even after rounding with unbounded exponent
      tiny     = exp_neg & ((exp_i != '1) | ~carry);
      overflow = ~exp_neg & ((exp_i > ExpW'(MaxEx)) | ((exp_i == ExpW'(MaxEx)) & carry));
      sig_s    = exp_neg ? sig_den : sig_i;
      exp_s    = exp_neg ? '0 : exp_i[ExpBits-1:0];
      rnd_bits = sig_s[RndW-1:0];
      tie      = (rnd_bits == Half[RndW-1:0]);
      sig_sum  = {1'b0, sig_s} + Half;
      sig_r    = sig_sum[SigW:RndW];
      sig_r[0] = sig_r[0] & ~tie;                       // ties to even
      if (sig_r == '0) exp_s = '0;
      // the hidden one of sig_r adds into the exponent field (SoftFloat's packToF32UI)
      mag = {exp_s, {ManBits{1'b0}}} + (ExpBits + ManBits)'(sig_r);
      if (overflow) begin
        result_o = {sign_i, {ExpBits{1'b1}}, {ManBits{1'b0}}};
      end else begin
        result_o = {sign_i, mag};
      end
      flags_o = {2'b00, overflow, tiny & (rnd_bits != '0), overflow | (rnd_bits != '0)};
    end
  end

  logic unused_sum_low;
  assign unused_sum_low = ^sig_sum[RndW-1:0];  // rounded away
endmodule
