#include "scoreboards/route_tracer.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace tessera::noc {

using arch::ColorCfg;
using arch::Dir;
using arch::FaultCause;
using arch::kNumColors;
using arch::SwitchCfg;

namespace {

// Whether some position of the switch has a non-zero direction code, i.e. can change the route.
bool HasDirectionCode(uint32_t sw) {
  return (SwitchCfg::Pos1Dir(sw) | SwitchCfg::Pos2Dir(sw) | SwitchCfg::Pos3Dir(sw)) != 0;
}

}  // namespace

RouteTracer::RouteTracer(const RouteTable& routes)
    : width_(routes.Width()), height_(routes.Height()) {
  initial_.resize(static_cast<size_t>(routes.NumPes()) * kNumColors);
  for (int pe = 0; pe < routes.NumPes(); ++pe) {
    for (uint32_t c = 0; c < kNumColors; ++c) {
      initial_[static_cast<size_t>(pe) * kNumColors + c] = {routes.Base(pe, c),
                                                            routes.Switch(pe, c)};
    }
  }
  slots_ = initial_;
  seen_.assign(static_cast<size_t>(routes.NumPes()), 0);
  cache_.assign(initial_.size(), kUnknown);
  work_.reserve(64);
}

void RouteTracer::Reset() { slots_ = initial_; }

uint32_t RouteTracer::Position(int pe, uint32_t color) const {
  if (pe < 0 || pe >= width_ * height_ || color >= kNumColors) {
    throw std::out_of_range(fmt::format("route tracer: no PE index {} color {}", pe, color));
  }
  return SwitchCfg::Pos(slots_[static_cast<size_t>(pe) * kNumColors + color].sw);
}

const TraceResult& RouteTracer::Trace(int src, uint32_t color, bool ctrl) {
  if (src < 0 || src >= width_ * height_ || color >= kNumColors) {
    return TraceFrom(src, Dir::kRamp, color, ctrl);
  }
  int32_t& entry = cache_[static_cast<size_t>(src) * kNumColors + color];
  // A control wavelet walks even a cached route: it advances the position of every router that
  // forwards it (which cannot change that route, but is visible in the SwitchCfg registers).
  if (entry >= 0 && !ctrl) return cached_[static_cast<size_t>(entry)];
  const TraceResult& r = TraceFrom(src, Dir::kRamp, color, ctrl);
  if (entry == kUnknown) {
    if (met_code_) {
      entry = kUncacheable;
    } else {
      entry = static_cast<int32_t>(cached_.size());
      cached_.push_back(r);
    }
  }
  return r;
}

const TraceResult& RouteTracer::TraceFrom(int pe, Dir from, uint32_t color, bool ctrl) {
  const int num_pes = width_ * height_;
  if (pe < 0 || pe >= num_pes) {
    throw std::out_of_range(
        fmt::format("route tracer: no PE index {} in a {}x{} fabric", pe, width_, height_));
  }
  result_.dests.clear();
  result_.faults.clear();
  met_code_ = false;
  if (color >= kNumColors) {
    result_.faults.push_back({pe, FaultCause::kReservedColor, color, from});
    return result_;
  }
  if (++stamp_ == 0) {  // wrapped: forget every old stamp
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  work_.clear();
  work_.push_back({pe, static_cast<uint8_t>(from)});
  while (!work_.empty()) {
    Visit v = work_.back();
    work_.pop_back();
    if (seen_[v.pe] == stamp_) {
      fabric::Coord s{pe % width_, pe / width_}, at{v.pe % width_, v.pe / width_};
      throw std::runtime_error(fmt::format(
          "route tracer: color {} from PE({},{}) reaches PE({},{}) twice (a loop, or multicast "
          "branches that merge again); only trees can be traced",
          color, s.x, s.y, at.x, at.y));
    }
    seen_[v.pe] = stamp_;
    Slot& slot = slots_[static_cast<size_t>(v.pe) * kNumColors + color];
    if (HasDirectionCode(slot.sw)) met_code_ = true;
    uint32_t rx = ColorCfg::Rx(slot.base);
    uint32_t tx = ColorCfg::Tx(slot.base);
    uint32_t pos = SwitchCfg::Pos(slot.sw);
    if (pos != 0) {
      uint32_t code = 0, out = 0;
      switch (pos) {
        case 1:
          code = SwitchCfg::Pos1Dir(slot.sw), out = SwitchCfg::Pos1Out(slot.sw);
          break;
        case 2:
          code = SwitchCfg::Pos2Dir(slot.sw), out = SwitchCfg::Pos2Out(slot.sw);
          break;
        default:
          code = SwitchCfg::Pos3Dir(slot.sw), out = SwitchCfg::Pos3Out(slot.sw);
          break;
      }
      // Code 0 keeps the base route; 1..5 name arch::Dir(code - 1); 6 and 7 name no port.
      if (code != 0) {
        const uint32_t mask = code <= arch::kNumDirs ? 1u << (code - 1) : 0u;
        (out ? tx : rx) = mask;
      }
    }
    Dir in = static_cast<Dir>(v.from);
    if (!(rx & (1u << v.from))) {
      result_.faults.push_back({v.pe, FaultCause::kRxMismatch, color, in});
      continue;
    }
    if (tx == 0) {
      result_.faults.push_back({v.pe, FaultCause::kNoRoute, color, in});
      continue;
    }
    const int x = v.pe % width_, y = v.pe / width_;
    if (((tx & kMaskW) && x == 0) || ((tx & kMaskE) && x == width_ - 1) ||
        ((tx & kMaskN) && y == 0) || ((tx & kMaskS) && y == height_ - 1)) {
      result_.faults.push_back({v.pe, FaultCause::kTiedOffEdge, color, in});
      continue;
    }
    if (tx & kMaskRamp) result_.dests.push_back(v.pe);
    // Pushed in reverse direction order so that the walk visits W, E, S, N in order.
    if (tx & kMaskN) work_.push_back({v.pe - width_, static_cast<uint8_t>(Dir::kS)});
    if (tx & kMaskS) work_.push_back({v.pe + width_, static_cast<uint8_t>(Dir::kN)});
    if (tx & kMaskE) work_.push_back({v.pe + 1, static_cast<uint8_t>(Dir::kW)});
    if (tx & kMaskW) work_.push_back({v.pe - 1, static_cast<uint8_t>(Dir::kE)});
    if (ctrl) {  // every forwarded control wavelet advances the position, whatever the codes
      if (pos != 3) {
        slot.sw = SwitchCfg::WithPos(slot.sw, pos + 1);
      } else if (SwitchCfg::Ring(slot.sw)) {
        slot.sw = SwitchCfg::WithPos(slot.sw, 0);
      }
    }
  }
  if (result_.dests.size() > 1) std::sort(result_.dests.begin(), result_.dests.end());
  return result_;
}

std::string RouteTracer::Describe(const TraceFault& f) const {
  return fmt::format("PE({},{}): {}, color {} from {}", f.pe % width_, f.pe / width_,
                     arch::ToString(f.cause), f.color, arch::ToString(f.dir));
}

}  // namespace tessera::noc
