#include "func/router_state.h"

namespace tessera::func {

namespace {

// A router's state after reset, computed once: every router of a fabric starts from it.
RouterState ResetState() {
  RouterState s;
  for (int d = 0; d < kDirs; ++d) {
    for (int c = 0; c < kColors; ++c) s.credit[d][c] = static_cast<uint8_t>(CreditInit(d));
    s.credit_ok[d] = (1u << kColors) - 1;
  }
  for (int c = 0; c < kColors; ++c) s.UpdateRoute(c);
  return s;
}

}  // namespace

void RouterState::Reset() {
  static const RouterState kReset = ResetState();
  Payload* storage = buf;
  *this = kReset;
  buf = storage;
}

void RouterState::UpdateRoute(int color) {
  route[color] = EffectiveRoute(color_cfg[color], switch_cfg[color]);
  const uint8_t any = AnyPosition(color_cfg[color], switch_cfg[color]).rx;
  const uint32_t bit = 1u << color;
  for (int d = 0; d < kDirs; ++d) {
    rx_any[d] = (any >> d & 1) ? (rx_any[d] | bit) : (rx_any[d] & ~bit);
    tx_has[d] = (route[color].tx >> d & 1) ? (tx_has[d] | bit) : (tx_has[d] & ~bit);
    rx_has[d] = (route[color].rx >> d & 1) ? (rx_has[d] | bit) : (rx_has[d] & ~bit);
  }
  swap_x = arch::ColorCfg::SwapX(color_cfg[color]) ? (swap_x | bit) : (swap_x & ~bit);
  has_route = route[color].tx ? (has_route | bit) : (has_route & ~bit);
  tied_hit = (route[color].tx & tied) ? (tied_hit | bit) : (tied_hit & ~bit);
}

}  // namespace tessera::func
