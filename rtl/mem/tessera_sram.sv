// The PE's 48 KiB SRAM (0x0000..0xBFFF), as 32-bit words: an instruction-fetch port, two data
// read ports and one write port with byte enables. Reads see the memory as it was at the start
// of the cycle; a write takes effect at the end of it. Banking (8 banks, 16-bit interleave) is an
// access rule the compute engine enforces when it grants ports (docs/isa.md 3.1); the storage
// itself serves every port each cycle. The host back door writes through the write port while
// the PE is frozen.
module tessera_sram #(
  parameter int unsigned Words = tessera_pkg::SramBytes / 4
) (
  input  logic                     clk_i,
  input  logic [$clog2(Words)-1:0] fetch_addr_i,
  output logic [31:0]              fetch_data_o,
  input  logic [$clog2(Words)-1:0] rd0_addr_i,
  output logic [31:0]              rd0_data_o,
  input  logic [$clog2(Words)-1:0] rd1_addr_i,
  output logic [31:0]              rd1_data_o,
  input  logic                     we_i,
  input  logic [$clog2(Words)-1:0] wr_addr_i,
  input  logic [3:0]               wr_be_i,
  input  logic [31:0]              wr_data_i
);
  logic [31:0] mem_q [Words] /* verilator public_flat_rw */;

  assign fetch_data_o = mem_q[fetch_addr_i];
  assign rd0_data_o   = mem_q[rd0_addr_i];
  assign rd1_data_o   = mem_q[rd1_addr_i];

  logic [31:0] merged;
  always_comb begin
    merged = mem_q[wr_addr_i];
    for (int b = 0; b < 4; b++)
      if (wr_be_i[b]) merged[8*b +: 8] = wr_data_i[8*b +: 8];
  end

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[wr_addr_i] <= merged;
  end
endmodule
