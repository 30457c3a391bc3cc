// The non-computational operations of one IEEE 754 binary format, combinational:
//   Min, Max  RISC-V fmin/fmax (IEEE 754-2019 minimumNumber/maximumNumber): -0 < +0, one NaN
//             gives the other operand, two NaNs the canonical NaN; invalid on any sNaN.
//   Lt, Le    signalling compares (invalid on any NaN), result 0 or 1 in bit 0.
//   Eq        quiet compare (invalid on an sNaN only), result 0 or 1 in bit 0.
//   Neg, Abs  sign-bit operations on a_i: no flags, NaN payload kept.
// Other operations give 0 and no flags.
module tessera_fmac_noncomp #(
  parameter int unsigned ExpBits = 8,
  parameter int unsigned ManBits = 23
) (
  input  logic                     active_i,  // 0: nothing is computed, outputs are zero (tessera_fmac)
  input  tessera_pkg::fp_op_e      op_i,
  input  logic [ExpBits+ManBits:0] a_i,
  input  logic [ExpBits+ManBits:0] b_i,
  output logic [ExpBits+ManBits:0] result_o,
  output logic [4:0]               flags_o    // tessera_pkg::fp_flag_e bits
);
  localparam int unsigned Width = ExpBits + ManBits + 1;
  localparam logic [Width-1:0] CanonicalNan = {1'b0, {(ExpBits + 1){1'b1}}, {(ManBits - 1){1'b0}}};

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

  logic both_zero, same_bits, ult, ugt, lt, le, eq, gt, less, greater;
  logic [Width-1:0] min_res, max_res;

  always_comb begin
    both_zero = 1'b0;
    same_bits = 1'b0;
    ult       = 1'b0;
    ugt       = 1'b0;
    lt        = 1'b0;
    le        = 1'b0;
    gt        = 1'b0;
    eq        = 1'b0;
    less      = 1'b0;
    greater   = 1'b0;
    min_res   = '0;
    max_res   = '0;
    if (active_i) begin
      // ordered relations of two non-NaN values, as SoftFloat's f*_lt/le/eq
      both_zero = a_zero & b_zero;
      same_bits = (a_i == b_i);
      ult       = (a_i < b_i);   // magnitude order when the signs agree
      ugt       = ~ult & ~same_bits;
      if (a_sign != b_sign) begin
        lt = a_sign & ~both_zero;
        le = a_sign | both_zero;
        gt = b_sign & ~both_zero;
      end else begin
        lt = ~same_bits & (a_sign ^ ult);
        le = same_bits | (a_sign ^ ult);
        gt = ~same_bits & (a_sign ^ ugt);
      end
      eq = same_bits | both_zero;
      // fmin picks a when a < b, or a == b and a is -0; fmax mirrors it
      less    = lt | (eq & a_sign);
      greater = gt | (eq & b_sign);
      if (a_nan & b_nan)    min_res = CanonicalNan;
      else if (b_nan)       min_res = a_i;
      else if (a_nan)       min_res = b_i;
      else                  min_res = less ? a_i : b_i;
      if (a_nan & b_nan)    max_res = CanonicalNan;
      else if (b_nan)       max_res = a_i;
      else if (a_nan)       max_res = b_i;
      else                  max_res = greater ? a_i : b_i;
    end
  end

  always_comb begin
    result_o = '0;
    flags_o  = '0;
    if (active_i) begin
      unique case (op_i)
        tessera_pkg::FpOpMin: begin
          result_o = min_res;
          flags_o  = {a_snan | b_snan, 4'b0000};
        end
        tessera_pkg::FpOpMax: begin
          result_o = max_res;
          flags_o  = {a_snan | b_snan, 4'b0000};
        end
        tessera_pkg::FpOpLt: begin
          result_o = {{(Width - 1){1'b0}}, lt & ~a_nan & ~b_nan};
          flags_o  = {a_nan | b_nan, 4'b0000};
        end
        tessera_pkg::FpOpLe: begin
          result_o = {{(Width - 1){1'b0}}, le & ~a_nan & ~b_nan};
          flags_o  = {a_nan | b_nan, 4'b0000};
        end
        tessera_pkg::FpOpEq: begin
          result_o = {{(Width - 1){1'b0}}, eq & ~a_nan & ~b_nan};
          flags_o  = {a_snan | b_snan, 4'b0000};
        end
        tessera_pkg::FpOpNeg: result_o = {~a_i[Width-1], a_i[Width-2:0]};
        tessera_pkg::FpOpAbs: result_o = {1'b0, a_i[Width-2:0]};
        default: ;
      endcase
    end
  end

  logic unused_class;
  assign unused_class = ^{a_sub, a_inf, b_sub, b_inf};
endmodule
