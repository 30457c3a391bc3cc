// Routing semantics of the functional model: the effective route of a color at its current switch
// position, and the switch advance of a control wavelet. The RTL implements the same in
// rtl/router/tessera_router_cfg.sv; the traffic testbench's route tracer has its own, independent
// copy so that it checks both.
#pragma once

#include <cstdint>

#include "arch/arch.h"

namespace tessera::func {

struct Route {
  uint8_t tx = 0, rx = 0;  // direction masks (arch::Dir bit order)
};

// The route a color takes at the position its SwitchCfg holds: position 0 is the base route;
// positions 1..3 replace the output side (PosOut = 1) or the input side by one direction. The
// direction code is 0 for "keep the base route", Dir + 1 for a port, 6 or 7 for no port (an
// empty mask).
inline Route EffectiveRoute(uint32_t color_cfg, uint32_t switch_cfg) {
  using C = arch::ColorCfg;
  using S = arch::SwitchCfg;
  Route r{static_cast<uint8_t>(C::Tx(color_cfg)), static_cast<uint8_t>(C::Rx(color_cfg))};
  uint32_t pos = S::Pos(switch_cfg);
  if (pos == 0) return r;
  uint32_t dir = pos == 1   ? S::Pos1Dir(switch_cfg)
                 : pos == 2 ? S::Pos2Dir(switch_cfg)
                            : S::Pos3Dir(switch_cfg);
  uint32_t out = pos == 1   ? S::Pos1Out(switch_cfg)
                 : pos == 2 ? S::Pos2Out(switch_cfg)
                            : S::Pos3Out(switch_cfg);
  if (dir == 0) return r;
  uint8_t mask = dir <= arch::kNumDirs ? static_cast<uint8_t>(1u << (dir - 1)) : 0;
  if (out) {
    r.tx = mask;
  } else {
    r.rx = mask;
  }
  return r;
}

// The directions some position of the color (its base route or a position 1..3) accepts from
// (rx) and sends to (tx). A wavelet from an input in rx that the current position does not
// accept waits in its queue for a position that does; from any other input it is a
// routing fault (RxMismatch). The layout linker checks with both that routes connect.
inline Route AnyPosition(uint32_t color_cfg, uint32_t switch_cfg) {
  using S = arch::SwitchCfg;
  Route any;
  for (uint32_t pos = 0; pos < 4; ++pos) {
    const Route r = EffectiveRoute(color_cfg, S::WithPos(switch_cfg, pos));
    any.rx |= r.rx;
    any.tx |= r.tx;
  }
  return any;
}

// SwitchCfg after a control wavelet of its color has been forwarded: the position advances; from
// 3 it wraps to 0 in ring mode and stays at 3 otherwise.
// The filter (docs/router.md, "Filters"): whether the RAMP copy of a wavelet is delivered.
// Control wavelets pass; a data wavelet passes when the color has no filter or its index lies in
// FilterRange's Min..Max. The index is the wavelet's bits 31:16 (range filter) or the color's
// FilterCount.Count (counter filter, SwitchCfg.Counter).
inline bool FilterPasses(uint32_t switch_cfg, uint32_t filter_range, uint32_t filter_count,
                         bool ctrl, uint32_t data) {
  using S = arch::SwitchCfg;
  using F = arch::FilterRange;
  if (ctrl || !S::Filter(switch_cfg)) return true;
  const uint32_t index =
      S::Counter(switch_cfg) ? arch::FilterCount::Count(filter_count) : data >> 16;
  return index >= F::Min(filter_range) && index <= F::Max(filter_range);
}

// A counter filter's FilterCount after a wavelet of its color was offered to the RAMP: a wavelet
// of a counted kind (SwitchCfg.CountData, CountCtrl) moves Count on, from Limit back to 0.
inline uint32_t FilterCountAfter(uint32_t switch_cfg, uint32_t filter_count, bool ctrl) {
  using S = arch::SwitchCfg;
  using FC = arch::FilterCount;
  if (!S::Filter(switch_cfg) || !S::Counter(switch_cfg)) return filter_count;
  if (!(ctrl ? S::CountCtrl(switch_cfg) : S::CountData(switch_cfg))) return filter_count;
  const uint32_t n = FC::Count(filter_count);
  return FC::WithCount(filter_count, n >= FC::Limit(filter_count) ? 0 : n + 1);
}

// Color swap (docs/router.md, "Color swap"): a color with ColorCfg.SwapX leaves toward W or E as
// its pair, color ^ 1, and so takes that output's credit for the pair. PairSwap exchanges each
// even color's bit with the next odd one's; SwapView is what output o's credit mask means for
// the colors routed there: the credit of the color each one leaves as.
inline uint32_t PairSwap(uint32_t m) { return ((m & 0x555555u) << 1) | ((m >> 1) & 0x555555u); }
inline bool SwapsAt(int out_dir) {
  return out_dir == static_cast<int>(arch::Dir::kW) || out_dir == static_cast<int>(arch::Dir::kE);
}
inline uint32_t SwapView(uint32_t credit_ok, uint32_t swap_x, int out_dir) {
  if (!swap_x || !SwapsAt(out_dir)) return credit_ok;
  return (credit_ok & ~swap_x) | (PairSwap(credit_ok) & swap_x);
}

inline uint32_t AdvanceSwitch(uint32_t switch_cfg) {
  using S = arch::SwitchCfg;
  uint32_t pos = S::Pos(switch_cfg);
  if (pos != 3) return S::WithPos(switch_cfg, pos + 1);
  return S::Ring(switch_cfg) ? S::WithPos(switch_cfg, 0) : switch_cfg;
}

}  // namespace tessera::func
