// Assertion macros that stay on under Verilator (--assert) and vanish for synthesis
// (Yosys reads the RTL with -DSYNTHESIS). Use inside a module that has clk_i and rst_ni.
// The check is an immediate assertion at the rising edge: it reads the values the cycle ends
// with, inputs included. (A concurrent assertion reads values sampled before the time step; the
// fabric applies a tile's inputs and its clock edge in one evaluation, so those would be the
// previous cycle's inputs: docs/performance.md.)
`ifndef TESSERA_ASSERT_SVH
`define TESSERA_ASSERT_SVH

`ifndef SYNTHESIS
`define ASSERT(name, prop) \
  always_ff @(posedge clk_i) begin \
    if (rst_ni) begin \
      name: assert (prop) else $error("assertion %s failed", `"name`"); \
    end \
  end
// ASSERT_IF(name, cond, prop): prop holds in every cycle where cond does. The same check as
// ASSERT(name, !(cond) || (prop)), but a simulator evaluates prop only where cond holds (a
// verilated model computes every operand of `||`), so cond should be cheap and seldom true.
`define ASSERT_IF(name, cond, prop) \
  always_ff @(posedge clk_i) begin \
    if (rst_ni && (cond)) begin \
      name: assert (prop) else $error("assertion %s failed", `"name`"); \
    end \
  end
`else
`define ASSERT(name, prop)
`define ASSERT_IF(name, cond, prop)
`endif

`endif
