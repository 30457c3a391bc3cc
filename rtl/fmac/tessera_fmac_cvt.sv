// Conversions, combinational, bit-exact with SoftFloat 3e (RISC-V specialisation):
//   CvtF2F  fmt = source: f32 -> f16 (RNE; result in bits 15:0, 31:16 zero) or f16 -> f32 (exact)
//   CvtF2I  fmt = source: f32 or f16 -> i32, rounding toward zero (SoftFloat *_to_i32_r_minMag with
//           exact = false, as the shared vectors: no inexact flag). NaN and out of range raise
//           invalid and saturate: NaN and positive overflow 0x7FFFFFFF, negative 0x80000000.
//   CvtI2F  fmt = destination: i32 -> f32 or f16 (RNE; f16 in bits 15:0, 31:16 zero).
// f16 sources are read from bits 15:0 (lane 0). Other operations give 0 and no flags.
module tessera_fmac_cvt (
  input  logic                 active_i,  // 0: classification and rounding skipped (tessera_fmac)
  input  tessera_pkg::fp_op_e  op_i,
  input  tessera_pkg::fp_fmt_e fmt_i,
  input  logic [31:0]          a_i,
  output logic [31:0]          result_o,
  output logic [4:0]           flags_o    // tessera_pkg::fp_flag_e bits
);
  localparam logic [15:0] CanonicalNan16 = 16'h7E00;

  // ---- f32 source ----
  logic s_sign, s_zero, s_sub, s_inf, s_nan, s_snan;

  tessera_fmac_classify #(.ExpBits(8), .ManBits(23)) u_class_f32 (
    .active_i, .x_i(a_i), .sign_o(s_sign), .zero_o(s_zero), .subnormal_o(s_sub), .inf_o(s_inf),
    .nan_o(s_nan), .snan_o(s_snan)
  );

  // ---- f16 source (lane 0) -> f32, exact ----
  logic [31:0] h2s;
  logic [4:0]  h2s_flags;

  tessera_f16_to_f32 u_f16_to_f32 (.h_i(a_i[15:0]), .s_o(h2s), .flags_o(h2s_flags));

  // ---- float -> i32, toward zero, on an f32 view of the source ----
  logic [31:0] fi_x, fi_sig, fi_abs, fi_res;
  logic [7:0]  fi_exp, fi_sh;
  logic        fi_invalid;

  always_comb begin
    fi_x       = (fmt_i == tessera_pkg::FpFmtF16) ? h2s : a_i;
    fi_exp     = fi_x[30:23];
    fi_sig     = {1'b1, fi_x[22:0], 8'd0};
    fi_sh      = 8'h9E - fi_exp;
    fi_abs     = fi_sig >> fi_sh[4:0];
    fi_invalid = 1'b0;
    if (fi_exp < 8'h7F) begin
      fi_res = '0;  // |x| < 1
    end else if (fi_exp >= 8'h9E) begin
      if (fi_x == 32'hCF00_0000) begin
        fi_res = 32'h8000_0000;  // exactly -2^31
      end else begin
        fi_invalid = 1'b1;
        if ((fi_exp == 8'hFF) && (fi_x[22:0] != '0)) fi_res = 32'h7FFF_FFFF;
        else if (fi_x[31])                            fi_res = 32'h8000_0000;
        else                                          fi_res = 32'h7FFF_FFFF;
      end
    end else begin
      fi_res = fi_x[31] ? -fi_abs : fi_abs;
    end
  end

  // ---- i32 -> float ----
  logic        i_sign;
  logic [31:0] i_abs, i_norm;
  logic [4:0]  i_lz;
  logic        i_zero;

  always_comb begin
    i_sign = a_i[31];
    i_abs  = i_sign ? -a_i : a_i;
  end

  tessera_fmac_lzc #(.Width(32)) u_lzc_int (
    .active_i(active_i),
    .x_i(i_abs), .cnt_o(i_lz), .norm_o(i_norm), .zero_o(i_zero)
  );

  // ---- rounding to f32 (i32 -> f32) ----
  logic [31:0] r32_res;
  logic [4:0]  r32_flags;
  logic [11:0] r32_exp;

  assign r32_exp = 12'd157 - {7'd0, i_lz};  // 127 + 30 - lz

  tessera_fmac_round #(.ExpBits(8), .ManBits(23), .ExpW(12), .SigW(31)) u_round_f32 (
    .active_i(active_i),
    .sign_i  (i_sign),
    .exp_i   (r32_exp),
    .sig_i   ({i_norm[31:2], i_norm[1] | i_norm[0]}),
    .result_o(r32_res),
    .flags_o (r32_flags)
  );

  // ---- rounding to f16 (f32 -> f16, i32 -> f16) ----
  logic        r16_sign;
  logic [8:0]  r16_exp;
  logic [14:0] r16_sig;
  logic [15:0] r16_res;
  logic [4:0]  r16_flags;

  always_comb begin
    if (op_i == tessera_pkg::FpOpCvtI2F) begin
      r16_sign = i_sign;
      r16_exp  = 9'd45 - {4'd0, i_lz};  // 15 + 30 - lz
      r16_sig  = {i_norm[31:18], i_norm[17:0] != '0};
    end else begin
      r16_sign = a_i[31];
      r16_exp  = {1'b0, a_i[30:23]} - 9'd113;  // rebias 127 -> 15, less one for the hidden bit
      r16_sig  = {1'b1, a_i[22:10], a_i[9:0] != '0};
    end
  end

  tessera_fmac_round #(.ExpBits(5), .ManBits(10), .ExpW(9), .SigW(15)) u_round_f16 (
    .active_i(active_i),
    .sign_i  (r16_sign),
    .exp_i   (r16_exp),
    .sig_i   (r16_sig),
    .result_o(r16_res),
    .flags_o (r16_flags)
  );

  // ---- select ----
  always_comb begin
    result_o = '0;
    flags_o  = '0;
    unique case (op_i)
      tessera_pkg::FpOpCvtF2F: begin
        if (fmt_i == tessera_pkg::FpFmtF16) begin
          result_o = h2s;
          flags_o  = h2s_flags;
        end else if (s_nan) begin
          result_o = {16'd0, CanonicalNan16};
          flags_o  = {s_snan, 4'b0000};
        end else if (s_inf) begin
          result_o = {16'd0, s_sign, 5'h1F, 10'd0};
        end else if (s_zero) begin
          result_o = {16'd0, s_sign, 15'd0};
        end else begin
          result_o = {16'd0, r16_res};
          flags_o  = r16_flags;
        end
      end
      tessera_pkg::FpOpCvtF2I: begin
        result_o = fi_res;
        flags_o  = {fi_invalid, 4'b0000};
      end
      tessera_pkg::FpOpCvtI2F: begin
        if (i_zero) begin
          result_o = '0;
        end else if (fmt_i == tessera_pkg::FpFmtF16) begin
          result_o = {16'd0, r16_res};
          flags_o  = r16_flags;
        end else begin
          result_o = r32_res;
          flags_o  = r32_flags;
        end
      end
      default: ;
    endcase
  end

  logic unused_bits;
  assign unused_bits = ^{s_sub, fi_sh[7:5]};
endmodule
