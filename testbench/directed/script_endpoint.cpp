#include "testbench/directed/script_endpoint.h"

namespace tessera::tb {

namespace {
constexpr uint32_t kAllColors = 32;
}

ScriptEndpoint::ScriptEndpoint()
    : out_(kAllColors),
      credits_(kAllColors, static_cast<int>(arch::kRampInDepth)),
      blocked_(kAllColors, false),
      held_(kAllColors, 0) {}

void ScriptEndpoint::Send(uint64_t cycle, bool ctrl, uint32_t color, uint32_t data) {
  out_[color & 31].push_back({cycle, fabric::MakeLink(ctrl, color & 31, data)});
  ++pending_;
}

void ScriptEndpoint::Block(uint32_t color, bool blocked) { blocked_[color] = blocked; }

void ScriptEndpoint::Tick(uint64_t cycle, fabric::RampPort& port) {
  using L = arch::Link;
  using C = arch::Credit;
  now_ = cycle;
  port.to_router = 0;
  port.credit_to_router = 0;
  if (C::Valid(port.credit_from_router)) ++credits_[C::Color(port.credit_from_router)];

  // Receive: consume and return the credit, unless the color is blocked.
  if (L::Valid(port.from_router)) {
    uint32_t c = static_cast<uint32_t>(L::Color(port.from_router));
    received_.push_back({cycle, port.from_router});
    if (blocked_[c]) {
      ++held_[c];
    } else {
      port.credit_to_router = fabric::MakeCredit(c);
    }
  }
  // Release one held credit per cycle once its color is unblocked.
  if (!C::Valid(port.credit_to_router)) {
    for (uint32_t c = 0; c < arch::kNumColors; ++c) {
      if (held_[c] && !blocked_[c]) {
        --held_[c];
        port.credit_to_router = fabric::MakeCredit(c);
        break;
      }
    }
  }
  // Send: one wavelet per cycle, round robin among colors whose head is due and has credit.
  for (uint32_t k = 0; k < kAllColors; ++k) {
    uint32_t c = (next_color_ + k) % kAllColors;
    if (out_[c].empty() || out_[c].front().cycle > cycle) continue;
    bool routable = c < arch::kNumColors;
    if (routable && credits_[c] == 0) continue;
    if (routable) --credits_[c];
    port.to_router = out_[c].front().link;
    out_[c].pop_front();
    --pending_;
    sent_cycles_.push_back(cycle);
    next_color_ = (c + 1) % kAllColors;
    break;
  }
}

uint64_t ScriptEndpoint::NextWake() const {
  uint64_t wake = fabric::kNever;
  for (uint32_t c = 0; c < kAllColors; ++c) {
    if (!out_[c].empty()) wake = std::min(wake, std::max(out_[c].front().cycle, now_ + 1));
    if (c < arch::kNumColors && held_[c] && !blocked_[c]) wake = std::min(wake, now_ + 1);
  }
  return wake;
}

}  // namespace tessera::tb
