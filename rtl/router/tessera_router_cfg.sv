// The router's routing configuration: per color the base route (ColorCfg: rx and tx masks) and
// the switch (SwitchCfg: positions 1..3, ring mode, current position). Exposes, per
// color, the effective route of the current switch position, also transposed into per-direction
// color masks for the allocator. Written through the PE's register bus; a control wavelet that
// leaves (adv_i) advances its color's position. A register write wins over an advance.
module tessera_router_cfg (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,
  input  logic                                          cfg_we_i,
  input  logic [15:0]                                   cfg_addr_i,
  input  logic [31:0]                                   cfg_wdata_i,
  output logic [31:0]                                   cfg_rdata_o,
  output logic                                          cfg_hit_o,   // address is ours
  input  logic [tessera_pkg::NumColors-1:0]             adv_i,
  // effective route per color: tx_of_o[c*NumDirs +: NumDirs]
  output logic [tessera_pkg::NumColors*tessera_pkg::NumDirs-1:0] tx_of_o,
  // per direction d, the colors whose effective tx (rx) has d: [d*NumColors +: NumColors]
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0] tx_has_o,
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0] rx_has_o,
  // per direction d, the colors some position (base or switch) accepts from d: a wavelet from d
  // that the current position does not accept waits for one that does (v0.2); from any other
  // direction it is a routing fault
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0] rx_any_o,
  // per color: some position (base or switch) accepts from RAMP (the CE may send on it) /
  // delivers to RAMP (the CE may receive it); docs/isa.md 4.10 and 4.11 (BadColor)
  output logic [tessera_pkg::NumColors-1:0]             ramp_rx_any_o,
  output logic [tessera_pkg::NumColors-1:0]             ramp_tx_any_o
);
  `include "tessera_pkg_use.svh"
  // Only the low bits of a written word are state; the rest read back as zero.

  localparam int unsigned BaseW = ColorCfgRxLsb + ColorCfgRxWidth;
  localparam int unsigned SwW   = SwitchCfgPosLsb + SwitchCfgPosWidth;
  localparam logic [15:0] BaseEnd = ColorCfgAddr + 16'(ColorCfgCount * ColorCfgStride);
  localparam logic [15:0] SwEnd   = SwitchCfgAddr + 16'(SwitchCfgCount * SwitchCfgStride);

  logic [BaseW-1:0]   base_q [NumColors];
  logic [SwW-1:0]     sw_q [NumColors];
  logic [NumDirs-1:0] eff_tx [NumColors];
  logic [NumDirs-1:0] eff_rx [NumColors];

  logic       is_base, is_sw;
  logic [4:0] idx;

  logic [15:0] base_off, sw_off;
  always_comb begin
    base_off = cfg_addr_i - ColorCfgAddr;
    sw_off   = cfg_addr_i - SwitchCfgAddr;
    is_base  = cfg_addr_i >= ColorCfgAddr && cfg_addr_i < BaseEnd
               && 32'(base_off) % ColorCfgStride == 0;
    is_sw    = cfg_addr_i >= SwitchCfgAddr && cfg_addr_i < SwEnd
               && 32'(sw_off) % SwitchCfgStride == 0;
    idx      = is_sw ? 5'(32'(sw_off) / SwitchCfgStride) : 5'(32'(base_off) / ColorCfgStride);
    cfg_hit_o   = is_base || is_sw;
    cfg_rdata_o = '0;
    if (is_base) cfg_rdata_o = 32'(base_q[idx]);
    if (is_sw)   cfg_rdata_o = 32'(sw_q[idx]);
  end

  for (genvar c = 0; c < NumColors; c++) begin : g_color
    logic [BaseW-1:0]   base_d;
    logic [SwW-1:0]     sw_d;
    logic [1:0]         pos;
    logic [2:0]         dir;
    logic               out_side;
    logic [NumDirs-1:0] dir_mask, tx, rx;

    always_comb begin
      pos      = sw_q[c][SwitchCfgPosLsb +: 2];
      dir      = '0;
      out_side = 1'b0;
      unique case (pos)
        2'd1: begin
          dir      = sw_q[c][SwitchCfgPos1DirLsb +: 3];
          out_side = sw_q[c][SwitchCfgPos1OutLsb];
        end
        2'd2: begin
          dir      = sw_q[c][SwitchCfgPos2DirLsb +: 3];
          out_side = sw_q[c][SwitchCfgPos2OutLsb];
        end
        2'd3: begin
          dir      = sw_q[c][SwitchCfgPos3DirLsb +: 3];
          out_side = sw_q[c][SwitchCfgPos3OutLsb];
        end
        default: ;
      endcase
      // Direction code: 0 keeps the base route, 1..5 name W..RAMP, 6 and 7 name no port.
      dir_mask  = (dir != 3'd0 && 32'(dir) <= NumDirs) ? (NumDirs'(1) << (dir - 3'd1)) : '0;
      tx = base_q[c][ColorCfgTxLsb +: NumDirs];
      rx = base_q[c][ColorCfgRxLsb +: NumDirs];
      if (pos != 2'd0 && dir != 3'd0 && out_side)  tx = dir_mask;
      if (pos != 2'd0 && dir != 3'd0 && !out_side) rx = dir_mask;
    end

    always_comb begin
      base_d = base_q[c];
      sw_d   = sw_q[c];
      if (adv_i[c]) begin
        // Advance after forwarding: 3 wraps to 0 in ring mode, else stays at 3.
        if (pos != 2'd3)                    sw_d[SwitchCfgPosLsb +: 2] = pos + 2'd1;
        else if (sw_q[c][SwitchCfgRingLsb]) sw_d[SwitchCfgPosLsb +: 2] = 2'd0;
      end
      if (cfg_we_i && is_base && 32'(idx) == c) base_d = cfg_wdata_i[BaseW-1:0];
      if (cfg_we_i && is_sw && 32'(idx) == c)   sw_d   = cfg_wdata_i[SwW-1:0];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        base_q[c] <= '0;
        sw_q[c]   <= '0;
      end else begin
        base_q[c] <= base_d;
        sw_q[c]   <= sw_d;
      end
    end

    // Directions some position accepts from (rx_any) or sends to (tx_any): the base masks, and
    // each position that replaces that side by a port (codes 1..NumDirs). The RAMP bits say
    // whether the CE may receive or send the color at all (BadColor).
    logic [NumDirs-1:0] rx_any, tx_any;
    logic [8:0]         codes;  // position p's direction code at [3*p +: 3]
    logic [2:0]         outs;   // position p replaces the output side
    always_comb begin
      logic [2:0] code;
      codes  = {sw_q[c][SwitchCfgPos3DirLsb +: 3], sw_q[c][SwitchCfgPos2DirLsb +: 3],
                sw_q[c][SwitchCfgPos1DirLsb +: 3]};
      outs   = {sw_q[c][SwitchCfgPos3OutLsb], sw_q[c][SwitchCfgPos2OutLsb],
                sw_q[c][SwitchCfgPos1OutLsb]};
      rx_any = base_q[c][ColorCfgRxLsb +: NumDirs];
      tx_any = base_q[c][ColorCfgTxLsb +: NumDirs];
      for (int p = 0; p < 3; p++) begin
        code = codes[3*p +: 3];
        if (code != 3'd0 && 32'(code) <= NumDirs) begin
          if (outs[p]) tx_any = tx_any | (NumDirs'(1) << (code - 3'd1));
          else         rx_any = rx_any | (NumDirs'(1) << (code - 3'd1));
        end
      end
    end
    assign ramp_rx_any_o[c] = rx_any[DirRamp];
    assign ramp_tx_any_o[c] = tx_any[DirRamp];

    assign eff_tx[c] = tx;
    assign eff_rx[c] = rx;
    assign tx_of_o[c*NumDirs +: NumDirs] = eff_tx[c];
    for (genvar d = 0; d < NumDirs; d++) begin : g_dir
      assign tx_has_o[d*NumColors + c] = eff_tx[c][d];
      assign rx_has_o[d*NumColors + c] = eff_rx[c][d];
      assign rx_any_o[d*NumColors + c] = rx_any[d];
    end
  end
endmodule
