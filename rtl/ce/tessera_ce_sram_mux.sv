// Who uses the SRAM's ports in a cycle (docs/isa.md 3.1, 6.8). While the PE is frozen, the host's
// back door: it reads through port 0 and writes through the write port. Otherwise the fetch port
// is the fetch's; the read ports are the scalar stage's (port 0 its word, port 1 the next, for an
// ldd) except those the DSD engine takes; the write port is a DSD result due, else the scalar
// stage's (a store, or the second word of an std), which waits for it.
module tessera_ce_sram_mux (
  input  logic                      clk_i,        // for the assertions
  input  logic                      rst_ni,
  input  logic                      en_i,
  input  logic                      host_we_i,
  input  logic [15:0]               host_addr_i,
  input  logic [31:0]               host_wdata_i,
  input  logic [13:0]               fetch_addr_i,
  input  logic [13:0]               sc_addr_i,    // the scalar stage's word
  input  tessera_pkg::sram_wr_t  sc_wr_i,
  input  tessera_pkg::sram_rd_t  dsd_rd_i,
  input  tessera_pkg::sram_wr_t  dsd_wr_i,
  output tessera_pkg::sram_req_t sram_o
);
  `include "tessera_pkg_use.svh"

  logic host_wr;
  always_comb begin
    host_wr           = !en_i && host_we_i && host_addr_i < SramBytes[15:0];
    sram_o            = '0;
    sram_o.fetch_addr = fetch_addr_i;
    sram_o.rd0_addr   = dsd_rd_i.rd0_en ? dsd_rd_i.rd0_addr : sc_addr_i;
    sram_o.rd1_addr   = dsd_rd_i.rd1_en ? dsd_rd_i.rd1_addr : sc_addr_i | 14'd1;
    sram_o.wr         = dsd_wr_i.we ? dsd_wr_i : sc_wr_i;
    if (!en_i) begin
      sram_o.rd0_addr = host_addr_i[15:2];
      sram_o.wr.we    = host_wr;
      sram_o.wr.addr  = host_addr_i[15:2];
      sram_o.wr.be    = 4'b1111;
      sram_o.wr.data  = host_wdata_i;
    end
  end

  `include "tessera_assert.svh"
  // the scalar stage waits for a write port a result due takes; the CE writes nothing frozen
  `ASSERT(OneSramWriter, $onehot0({dsd_wr_i.we, sc_wr_i.we, host_wr}))
endmodule
