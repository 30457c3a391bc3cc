// Leading-zero count and normalising left shift of a Width-bit vector, as a log2(Width)-step
// priority structure (each step: if the top 2^k bits are zero, shift them out and set count bit
// k). Use it wherever the datapath normalises a significand; the shifted vector comes for free.
// For an all-zero input zero_o is set and cnt_o/norm_o are not meaningful.
module tessera_fmac_lzc #(
  parameter int unsigned Width = 32
) (
  input  logic                     active_i,  // 0: all outputs zero (see tessera_fmac)
  input  logic [Width-1:0]         x_i,
  output logic [$clog2(Width)-1:0] cnt_o,   // leading zeros of x_i (when x_i != 0)
  output logic [Width-1:0]         norm_o,  // x_i << cnt_o: leading one at the top
  output logic                     zero_o
);
  localparam int unsigned CntW = $clog2(Width);
  localparam int unsigned PadW = 2 ** CntW;  // power of two >= Width, padded with zeros below

  logic [PadW-1:0] v;

  always_comb begin
    v      = '0;
    cnt_o  = '0;
    norm_o = '0;
    zero_o = 1'b0;
    if (active_i) begin
      v[PadW-1 -: Width] = x_i;
      for (int k = CntW - 1; k >= 0; k--) begin
        if ((v >> (PadW - (1 << k))) == '0) begin
          v = v << (1 << k);
          cnt_o[k] = 1'b1;
        end
      end
      norm_o = v[PadW-1 -: Width];
      zero_o = (x_i == '0);
    end
  end
endmodule
