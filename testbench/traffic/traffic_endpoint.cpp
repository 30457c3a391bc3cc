#include "traffic/traffic_endpoint.h"

#include <fmt/format.h>

#include <stdexcept>

#include "traffic/payload.h"

namespace tessera::noc {

using arch::Credit;
using arch::kNumColors;
using arch::Link;

TrafficEndpoint::TrafficEndpoint(int pe, RouteTracer& tracer, Scoreboard& scoreboard, uint64_t seed)
    : pe_(pe),
      tracer_(tracer),
      scoreboard_(scoreboard),
      gap_rng_(StreamSeed(seed, 2 * static_cast<uint64_t>(pe) + 0x100)),
      pick_rng_(StreamSeed(seed, 2 * static_cast<uint64_t>(pe) + 0x101)) {
  if (pe < 0 || pe >= tracer.Width() * tracer.Height()) {
    throw std::out_of_range(fmt::format("traffic endpoint: no PE index {} in a {}x{} fabric", pe,
                                        tracer.Width(), tracer.Height()));
  }
  credits_.fill(arch::kRampInDepth);
}

void TrafficEndpoint::AddFlow(uint32_t color, double ctrl_prob) {
  if (color >= kNumColors) {
    throw std::invalid_argument(
        fmt::format("traffic endpoint {}: flow color {} is not routable", pe_, color));
  }
  if (!(ctrl_prob >= 0 && ctrl_prob <= 1)) {
    throw std::invalid_argument(fmt::format(
        "traffic endpoint {}: control-wavelet probability {} is not in [0, 1]", pe_, ctrl_prob));
  }
  flows_.push_back({color, Chance(ctrl_prob)});
}

void TrafficEndpoint::StartInjection(double rate, uint64_t start, uint64_t stop) {
  if (!(rate >= 0 && rate <= 1)) {
    throw std::invalid_argument(
        fmt::format("injection rate {} is not a probability per cycle in [0, 1]", rate));
  }
  gap_ = GeometricGap(rate);
  stop_ = stop;
  next_create_ = fabric::kNever;
  if (flows_.empty() || rate == 0 || start >= stop) return;
  uint64_t gap = gap_.Draw(gap_rng_);
  if (gap != GeometricGap::kInfinite && gap - 1 < stop - start) next_create_ = start + gap - 1;
}

void TrafficEndpoint::StopInjection(uint64_t stop) {
  stop_ = stop;
  if (next_create_ >= stop) next_create_ = fabric::kNever;
}

void TrafficEndpoint::ScheduleNext(uint64_t after) {
  uint64_t gap = gap_.Draw(gap_rng_);
  next_create_ = fabric::kNever;
  if (gap != GeometricGap::kInfinite && after < stop_ && gap < stop_ - after) {
    next_create_ = after + gap;
  }
}

void TrafficEndpoint::Block(uint32_t color, bool blocked) {
  if (color >= kNumColors) {
    throw std::invalid_argument(fmt::format("traffic endpoint: cannot block color {}", color));
  }
  if (blocked) {
    blocked_ |= 1u << color;
  } else {
    blocked_ &= ~(1u << color);
  }
}

void TrafficEndpoint::SendNow(uint64_t word) {
  word = Link::WithValid(word, 1) & ((uint64_t{1} << Link::kBits) - 1);
  const uint32_t color = static_cast<uint32_t>(Link::Color(word));
  const TraceResult& r = tracer_.Trace(pe_, color, Link::Ctrl(word) != 0);
  for (const TraceFault& f : r.faults) scoreboard_.ExpectFault(f, now_);
  fifo_.push_back(word | kRawBit);
}

void TrafficEndpoint::CreateNow(uint32_t color, bool ctrl) {
  if (color >= kNumColors) {
    throw std::invalid_argument(fmt::format(
        "traffic endpoint: CreateNow on color {}; use SendNow for a reserved color", color));
  }
  requests_.push_back({color, ctrl});
}

void TrafficEndpoint::Create(uint32_t color, bool ctrl, uint64_t cycle) {
  const uint32_t seq = static_cast<uint32_t>(created_);
  const TraceResult& r = tracer_.Trace(pe_, color, ctrl);
  for (const TraceFault& f : r.faults) scoreboard_.ExpectFault(f, cycle);
  scoreboard_.Expect(pe_, color, seq, r.dests, cycle, ctrl);
  fifo_.push_back(fabric::MakeLink(ctrl, color, MakePayload(pe_, seq)));
  ++created_;
}

void TrafficEndpoint::Tick(uint64_t cycle, fabric::RampPort& port) {
  now_ = cycle;
  ticked_ = true;
  port.to_router = 0;
  port.credit_to_router = 0;

  // Credits for the router's RAMP input.
  const uint8_t credit = port.credit_from_router;
  if (Credit::Valid(credit)) {
    const uint32_t c = static_cast<uint32_t>(Credit::Color(credit));
    if (c >= kNumColors || credits_[c] >= arch::kRampInDepth) {
      scoreboard_.ReportError(pe_, cycle,
                              fmt::format("the router returned a credit for color {} beyond the "
                                          "{} the ramp holds",
                                          c, arch::kRampInDepth));
    } else {
      ++credits_[c];
    }
  }

  // Sink.
  const uint64_t in = port.from_router;
  if (Link::Valid(in)) {
    ++received_;
    scoreboard_.Deliver(pe_, in, cycle);
    const uint32_t c = static_cast<uint32_t>(Link::Color(in));
    if (c < kNumColors) {
      if (owed_[c] == UINT16_MAX) {
        scoreboard_.ReportError(pe_, cycle, fmt::format("color {}: too many credits held", c));
      } else if (++owed_[c] > arch::kRampOutCredits) {
        scoreboard_.ReportError(
            pe_, cycle,
            fmt::format("the router delivered color {} with {} credits already held (it has {})", c,
                        owed_[c] - 1, arch::kRampOutCredits));
      }
      owed_mask_ |= 1u << c;
    }
  }
  if (const uint32_t ready = owed_mask_ & ~blocked_) {
    const uint32_t later = ready & (~0u << rr_);
    const uint32_t c = static_cast<uint32_t>(__builtin_ctz(later ? later : ready));
    port.credit_to_router = fabric::MakeCredit(c);
    if (--owed_[c] == 0) owed_mask_ &= ~(1u << c);
    rr_ = c + 1 == kNumColors ? 0 : c + 1;
  }

  // Source.
  while (next_create_ <= cycle) {
    const uint64_t at = next_create_;
    const Flow& f = flows_.size() == 1
                        ? flows_[0]
                        : flows_[pick_rng_.Below(static_cast<uint32_t>(flows_.size()))];
    const bool ctrl = !f.ctrl.Never() && f.ctrl.Draw(pick_rng_);
    Create(f.color, ctrl, at);
    ScheduleNext(at);
  }
  if (!requests_.empty()) {
    for (const Request& r : requests_) Create(r.color, r.ctrl, cycle);
    requests_.clear();
  }
  if (!fifo_.empty()) {
    const uint64_t w = fifo_.front();
    const uint32_t c = static_cast<uint32_t>(Link::Color(w));
    if (c >= kNumColors || credits_[c] > 0) {
      if (c < kNumColors) --credits_[c];
      port.to_router = w & ~kRawBit;
      fifo_.pop_front();
      ++sent_;
      if (!(w & kRawBit)) scoreboard_.Injected(pe_, cycle);
    }
  }
}

uint64_t TrafficEndpoint::NextWake() const {
  if (!fifo_.empty() || !requests_.empty() || (owed_mask_ & ~blocked_)) {
    return ticked_ ? now_ + 1 : 0;
  }
  return next_create_;
}

}  // namespace tessera::noc
