// Instruction decoder of the compute engine: a word in, its class, sub-operation, operand usage
// and legality out. The logic is generated from model/arch/isa.def (rtl/pkg/tessera_isa.svh), the
// same table the functional model, the assembler and the disassembler use.
module tessera_ce_decode (
  input  logic [31:0]           insn_i,
  output tessera_pkg::isa_dec_t dec_o
);
  `include "tessera_pkg_use.svh"

  always_comb begin
    `include "tessera_isa.svh"
  end
endmodule
