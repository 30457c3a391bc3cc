// Assertion macros that stay on under Verilator (--assert) and vanish for synthesis
// (Yosys reads the RTL with -DSYNTHESIS). Use inside a module that has clk_i and rst_ni.
`ifndef TESSERA_ASSERT_SVH
`define TESSERA_ASSERT_SVH

`ifndef SYNTHESIS
`define ASSERT(name, prop) \
  name: assert property (@(posedge clk_i) disable iff (!rst_ni) (prop)) \
    else $error("assertion %s failed", `"name`");
`else
`define ASSERT(name, prop)
`endif

`endif
