// The router's routing configuration: per color the base route (ColorCfg: rx and tx masks), the
// switch (SwitchCfg: positions 1..3, ring mode, current position, the filter's enable and kind)
// and the filter's bounds (FilterRange) and counter (FilterCount). Exposes, per
// color, the effective route of the current switch position, also transposed into per-direction
// color masks for the allocator. Written through the PE's register bus; a control wavelet that
// leaves (adv_i) advances its color's position, and a wavelet a counter filter counts (cnt_i) moves
// its color's FilterCount.Count on. A register write wins over an advance or a count.
module tessera_router_cfg (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,
  input  logic                                          cfg_we_i,
  input  logic [15:0]                                   cfg_addr_i,
  input  logic [31:0]                                   cfg_wdata_i,
  output logic [31:0]                                   cfg_rdata_o,
  output logic                                          cfg_hit_o,   // address is ours
  input  logic [tessera_pkg::NumColors-1:0]             adv_i,
  input  logic [tessera_pkg::NumColors-1:0]             cnt_i,
  // effective route per color: tx_of_o[c*NumDirs +: NumDirs]
  output logic [tessera_pkg::NumColors*tessera_pkg::NumDirs-1:0] tx_of_o,
  // per direction d, the colors whose effective tx (rx) has d: [d*NumColors +: NumColors]
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0] tx_has_o,
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0] rx_has_o,
  // per direction d, the colors some position (base or switch) accepts from d: a wavelet from d
  // that the current position does not accept waits for one that does; from any other
  // direction it is a routing fault
  output logic [tessera_pkg::NumDirs*tessera_pkg::NumColors-1:0] rx_any_o,
  // per color: some position (base or switch) accepts from RAMP (the CE may send on it) /
  // delivers to RAMP (the CE may receive it); docs/isa.md 4.10 and 4.11 (BadColor)
  output logic [tessera_pkg::NumColors-1:0]             ramp_rx_any_o,
  output logic [tessera_pkg::NumColors-1:0]             ramp_tx_any_o,
  // per color: the range filter is on (SwitchCfg.Filter), and its bounds (FilterRange) at
  // [c*32 +: 32]
  output logic [tessera_pkg::NumColors-1:0]             filter_en_o,
  // per color: ColorCfg.SwapX (leaving W or E, the color becomes its pair)
  output logic [tessera_pkg::NumColors-1:0]             swap_x_o,
  // per color: a counter filter (SwitchCfg.Counter), the kinds it counts (CountData, CountCtrl),
  // and whether its Count lies in FilterRange's Min..Max now (a data wavelet is delivered)
  output logic [tessera_pkg::NumColors-1:0]             cnt_mode_o,
  output logic [tessera_pkg::NumColors-1:0]             cnt_data_o,
  output logic [tessera_pkg::NumColors-1:0]             cnt_ctrl_o,
  output logic [tessera_pkg::NumColors-1:0]             cnt_pass_o,
  output logic [tessera_pkg::NumColors*32-1:0]          filter_range_o
);
  `include "tessera_pkg_use.svh"
  // Only the low bits of a written word are state; the rest read back as zero.

  localparam int unsigned BaseW = ColorCfgSwapXLsb + ColorCfgSwapXWidth;
  localparam int unsigned SwW   = SwitchCfgCountCtrlLsb + SwitchCfgCountCtrlWidth;
  localparam logic [15:0] BaseEnd = ColorCfgAddr + 16'(ColorCfgCount * ColorCfgStride);
  localparam logic [15:0] SwEnd   = SwitchCfgAddr + 16'(SwitchCfgCount * SwitchCfgStride);
  localparam logic [15:0] RangeEnd = FilterRangeAddr + 16'(FilterRangeCount * FilterRangeStride);
  localparam logic [15:0] CountEnd = FilterCountAddr + 16'(FilterCountCount * FilterCountStride);

  logic [BaseW-1:0] base_q [NumColors];
  logic [BaseW-1:0] base_d [NumColors];
  logic [SwW-1:0]   sw_q [NumColors];
  logic [SwW-1:0]   sw_d [NumColors];
  logic [NumColors*32-1:0] range_q, range_d;  // FilterRange[c] at [c*32 +: 32]
  logic [NumColors*32-1:0] fcnt_q, fcnt_d;    // FilterCount[c] at [c*32 +: 32]

  logic       is_base, is_sw, is_range, is_count;
  logic [4:0] idx;

  logic [15:0] base_off, sw_off, range_off, count_off;
  always_comb begin
    base_off  = cfg_addr_i - ColorCfgAddr;
    sw_off    = cfg_addr_i - SwitchCfgAddr;
    range_off = cfg_addr_i - FilterRangeAddr;
    count_off = cfg_addr_i - FilterCountAddr;
    is_base  = cfg_addr_i >= ColorCfgAddr && cfg_addr_i < BaseEnd
               && 32'(base_off) % ColorCfgStride == 0;
    is_sw    = cfg_addr_i >= SwitchCfgAddr && cfg_addr_i < SwEnd
               && 32'(sw_off) % SwitchCfgStride == 0;
    is_range = cfg_addr_i >= FilterRangeAddr && cfg_addr_i < RangeEnd
               && 32'(range_off) % FilterRangeStride == 0;
    is_count = cfg_addr_i >= FilterCountAddr && cfg_addr_i < CountEnd
               && 32'(count_off) % FilterCountStride == 0;
    idx      = is_sw    ? 5'(32'(sw_off) / SwitchCfgStride)
             : is_range ? 5'(32'(range_off) / FilterRangeStride)
             : is_count ? 5'(32'(count_off) / FilterCountStride)
             : 5'(32'(base_off) / ColorCfgStride);
    cfg_hit_o   = is_base || is_sw || is_range || is_count;
    cfg_rdata_o = '0;
    if (is_base)  cfg_rdata_o = 32'(base_q[idx]);
    if (is_sw)    cfg_rdata_o = 32'(sw_q[idx]);
    if (is_range) cfg_rdata_o = range_q[32'(idx)*32 +: 32];
    if (is_count) cfg_rdata_o = fcnt_q[32'(idx)*32 +: 32];
  end

  // The colors whose registers change in this cycle: an advance, a count, a register write (which
  // wins).
  logic [NumColors-1:0] upd;
  always_comb begin
    upd = adv_i | cnt_i;
    if (cfg_we_i && cfg_hit_o && 32'(idx) < NumColors) upd[idx] = 1'b1;
  end

  // What the configuration implies is kept in registers beside it, updated with it, so that a
  // cycle without a change costs a simulator nothing here. Per color: the effective route of
  // the current switch position (tx, rx), and the directions some position sends to (tx_any) or
  // accepts from (rx_any): the base masks and each position that replaces that side by a port
  // (codes 1..NumDirs; 0 keeps the base route, 6 and 7 name no port). The RAMP bits of the *_any
  // masks say whether the CE may send or receive the color at all (BadColor). The effective
  // transmit masks are kept both per color (tx_of) and per direction (tx_has), the two layouts
  // the router reads, so that neither is a transposition evaluated every cycle; synthesis
  // merges the copies.
  localparam int unsigned MaskW = NumColors * NumDirs;
  logic [MaskW-1:0]     tx_of_q, tx_of_d, tx_has_q, tx_has_d, rx_has_q, rx_has_d;
  logic [MaskW-1:0]     rx_any_q, rx_any_d;
  logic [NumColors-1:0] ramp_tx_q, ramp_tx_d;
  logic [NumColors-1:0] filt_en_q, filt_en_d;  // SwitchCfg.Filter per color, kept beside it
  logic [NumColors-1:0] swap_q, swap_d;        // ColorCfg.SwapX per color, kept beside it
  // The counter filter's SwitchCfg bits per color, and whether its Count now lies in Min..Max
  logic [NumColors-1:0] cmode_q, cmode_d, cdata_q, cdata_d, cctrl_q, cctrl_d, cpass_q, cpass_d;

  always_comb begin
    logic [1:0]         pos;
    logic [2:0]         code, dir;
    logic               out_side;
    logic [8:0]         codes;  // position p's direction code at [3*p +: 3]
    logic [2:0]         outs;   // position p replaces the output side
    logic [NumDirs-1:0] mask, tx, rx, tx_any, rx_any;
    logic [15:0]        count, limit;
    // The flops load only when upd is not 0 (below): only then do the next values start from
    // the current ones. Otherwise they are don't-care, and zeros cost a simulator no loads
    // (Verilator runs this block on every edge).
    if (upd != '0) begin
      for (int c = 0; c < NumColors; c++) begin
        base_d[c] = base_q[c];
        sw_d[c]   = sw_q[c];
      end
      range_d   = range_q;
      fcnt_d    = fcnt_q;
      cmode_d   = cmode_q;
      cdata_d   = cdata_q;
      cctrl_d   = cctrl_q;
      cpass_d   = cpass_q;
      filt_en_d = filt_en_q;
      swap_d    = swap_q;
      tx_of_d   = tx_of_q;
      tx_has_d  = tx_has_q;
      rx_has_d  = rx_has_q;
      rx_any_d  = rx_any_q;
      ramp_tx_d = ramp_tx_q;
    end else begin
      for (int c = 0; c < NumColors; c++) begin
        base_d[c] = '0;
        sw_d[c]   = '0;
      end
      range_d   = '0;
      fcnt_d    = '0;
      cmode_d   = '0;
      cdata_d   = '0;
      cctrl_d   = '0;
      cpass_d   = '0;
      filt_en_d = '0;
      swap_d    = '0;
      tx_of_d   = '0;
      tx_has_d  = '0;
      rx_has_d  = '0;
      rx_any_d  = '0;
      ramp_tx_d = '0;
    end
    count     = '0;
    limit     = '0;
    pos       = '0;
    code      = '0;
    dir       = '0;
    out_side  = 1'b0;
    codes     = '0;
    outs      = '0;
    mask      = '0;
    tx        = '0;
    rx        = '0;
    tx_any    = '0;
    rx_any    = '0;
    if (upd != '0) begin
      for (int c = 0; c < NumColors; c++) begin
        if (upd[c]) begin
          pos = sw_q[c][SwitchCfgPosLsb +: 2];
          if (adv_i[c]) begin
            // Advance after forwarding: 3 wraps to 0 in ring mode, else stays at 3.
            if (pos != 2'd3)                    sw_d[c][SwitchCfgPosLsb +: 2] = pos + 2'd1;
            else if (sw_q[c][SwitchCfgRingLsb]) sw_d[c][SwitchCfgPosLsb +: 2] = 2'd0;
          end
          if (cfg_we_i && is_base && 32'(idx) == c) base_d[c] = cfg_wdata_i[BaseW-1:0];
          if (cfg_we_i && is_sw && 32'(idx) == c)   sw_d[c]   = cfg_wdata_i[SwW-1:0];
          if (cfg_we_i && is_range && 32'(idx) == c) range_d[c*32 +: 32] = cfg_wdata_i;
          if (cnt_i[c]) begin
            // A counted wavelet: Count moves on, from Limit back to 0.
            count = fcnt_q[c*32 + FilterCountCountLsb +: 16];
            limit = fcnt_q[c*32 + FilterCountLimitLsb +: 16];
            fcnt_d[c*32 + FilterCountCountLsb +: 16] = (count >= limit) ? 16'd0 : count + 16'd1;
          end
          if (cfg_we_i && is_count && 32'(idx) == c) fcnt_d[c*32 +: 32] = cfg_wdata_i;
          cmode_d[c] = sw_d[c][SwitchCfgCounterLsb];
          cdata_d[c] = sw_d[c][SwitchCfgCountDataLsb];
          cctrl_d[c] = sw_d[c][SwitchCfgCountCtrlLsb];
          count      = fcnt_d[c*32 + FilterCountCountLsb +: 16];
          cpass_d[c] = count >= range_d[c*32 + FilterRangeMinLsb +: 16]
                       && count <= range_d[c*32 + FilterRangeMaxLsb +: 16];
          filt_en_d[c] = sw_d[c][SwitchCfgFilterLsb];
          swap_d[c]    = base_d[c][ColorCfgSwapXLsb];
          // what the new registers imply
          pos      = sw_d[c][SwitchCfgPosLsb +: 2];
          codes    = {sw_d[c][SwitchCfgPos3DirLsb +: 3], sw_d[c][SwitchCfgPos2DirLsb +: 3],
                      sw_d[c][SwitchCfgPos1DirLsb +: 3]};
          outs     = {sw_d[c][SwitchCfgPos3OutLsb], sw_d[c][SwitchCfgPos2OutLsb],
                      sw_d[c][SwitchCfgPos1OutLsb]};
          tx       = base_d[c][ColorCfgTxLsb +: NumDirs];
          rx       = base_d[c][ColorCfgRxLsb +: NumDirs];
          tx_any   = tx;
          rx_any   = rx;
          dir      = '0;
          out_side = 1'b0;
          for (int p = 0; p < 3; p++) begin
            code = codes[3*p +: 3];
            mask = (code != 3'd0 && 32'(code) <= NumDirs) ? (NumDirs'(1) << (code - 3'd1)) : '0;
            if (outs[p]) tx_any = tx_any | mask;
            else         rx_any = rx_any | mask;
            if (32'(pos) == p + 1) begin
              dir      = code;
              out_side = outs[p];
            end
          end
          mask = (dir != 3'd0 && 32'(dir) <= NumDirs) ? (NumDirs'(1) << (dir - 3'd1)) : '0;
          if (dir != 3'd0 && out_side)  tx = mask;
          if (dir != 3'd0 && !out_side) rx = mask;
          tx_of_d[c*NumDirs +: NumDirs] = tx;
          for (int d = 0; d < NumDirs; d++) begin
            tx_has_d[d*NumColors + c] = tx[d];
            rx_has_d[d*NumColors + c] = rx[d];
            rx_any_d[d*NumColors + c] = rx_any[d];
          end
          ramp_tx_d[c] = tx_any[DirRamp];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < NumColors; c++) begin
        base_q[c] <= '0;
        sw_q[c]   <= '0;
      end
      range_q   <= '0;
      fcnt_q    <= '0;
      cmode_q   <= '0;
      cdata_q   <= '0;
      cctrl_q   <= '0;
      cpass_q   <= {NumColors{1'b1}};  // Count 0 lies in Min..Max 0..0
      filt_en_q <= '0;
      swap_q    <= '0;
      tx_of_q   <= '0;  // what the reset registers imply
      tx_has_q  <= '0;
      rx_has_q  <= '0;
      rx_any_q  <= '0;
      ramp_tx_q <= '0;
    end else if (upd != '0) begin
      for (int c = 0; c < NumColors; c++) begin
        base_q[c] <= base_d[c];
        sw_q[c]   <= sw_d[c];
      end
      range_q   <= range_d;
      fcnt_q    <= fcnt_d;
      cmode_q   <= cmode_d;
      cdata_q   <= cdata_d;
      cctrl_q   <= cctrl_d;
      cpass_q   <= cpass_d;
      filt_en_q <= filt_en_d;
      swap_q    <= swap_d;
      tx_of_q   <= tx_of_d;
      tx_has_q  <= tx_has_d;
      rx_has_q  <= rx_has_d;
      rx_any_q  <= rx_any_d;
      ramp_tx_q <= ramp_tx_d;
    end
  end

  assign tx_of_o       = tx_of_q;
  assign tx_has_o      = tx_has_q;
  assign rx_has_o      = rx_has_q;
  assign rx_any_o      = rx_any_q;
  assign ramp_rx_any_o = rx_any_q[32'(DirRamp)*NumColors +: NumColors];
  assign ramp_tx_any_o = ramp_tx_q;
  assign filter_en_o    = filt_en_q;
  assign filter_range_o = range_q;
  assign swap_x_o       = swap_q;
  assign cnt_mode_o     = cmode_q;
  assign cnt_data_o     = cdata_q;
  assign cnt_ctrl_o     = cctrl_q;
  assign cnt_pass_o     = cpass_q;
endmodule
