// Predicts where a wavelet goes: follows it through a configured fabric exactly as the routing
// rules (docs/router.md, "Switches" and "Faults") say, from a RouteTable, with no timing. The
// traffic endpoints trace every wavelet they create to tell the scoreboard where it must arrive.
//
// Per router, for a wavelet of color c arriving from direction d: a color >= kNumColors is a
// ReservedColor fault; the effective route is the base route with the current switch position
// applied: position p in 1..3 with direction code PosPDir = 0 keeps the base route; a code 1..5
// names the port arch::Dir(code - 1) and 6 or 7 names none (an empty mask), and that mask
// replaces tx when PosPOut=1, else rx. d not in rx is an RxMismatch fault; an empty tx is a
// NoRoute fault; a tx direction off the fabric (all edges tied off) is a TiedOffEdge fault. A
// faulting wavelet is consumed there. Otherwise it goes to every direction of tx (RAMP: delivered
// to that PE's CE side), and a control wavelet then always advances the position of its color at
// that router, 0 -> 1 -> 2 -> 3, then 3 wraps to 0 with Ring=1 and stays at 3 otherwise. (A color
// whose SwitchCfg is 0 thus keeps its base route while its position counts control wavelets.)
//
// The tracer keeps its own copy of the switch positions, which control wavelets advance. Wavelets
// of a color that has switches must be traced in the order their (single) source injects them:
// that is the order the network routes them in. Limit: since v0.2 a wavelet whose direction the
// current position does not accept but another position does waits in the router for a control
// wavelet from another source; the single-source traffic traced here never configures such
// input-side switches, and the tracer still reports that case as RxMismatch (the gather tests of
// tests/integration/runtime cover waiting).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "traffic/routes.h"

namespace tessera::noc {

struct TraceFault {
  int pe = 0;  // the router that faults
  arch::FaultCause cause = arch::FaultCause::kNone;
  uint32_t color = 0;
  arch::Dir dir = arch::Dir::kRamp;  // the side the wavelet arrived on
  bool operator==(const TraceFault& o) const {
    return pe == o.pe && cause == o.cause && color == o.color && dir == o.dir;
  }
};

struct TraceResult {
  std::vector<int> dests;          // PEs whose CE side receives the wavelet, ascending
  std::vector<TraceFault> faults;  // at most one per router reached
};

class RouteTracer {
 public:
  explicit RouteTracer(const RouteTable& routes);

  int Width() const { return width_; }
  int Height() const { return height_; }

  // A wavelet injected by the CE side of PE `src` (it arrives at its router from RAMP). The
  // result lives in the tracer and is valid until the next call. The route of a (src, color) pair
  // can only change if some router on it has a non-zero direction code at some position; the
  // results of the other pairs never change, and data wavelets of them are traced once (control
  // wavelets always walk the route, to advance every position on it). Throws
  // std::runtime_error if the route reaches a router twice (a loop, or a multicast whose branches
  // merge again): the tracer predicts trees only.
  const TraceResult& Trace(int src, uint32_t color, bool ctrl);
  // The same for a wavelet arriving at PE `pe` from direction `from`.
  const TraceResult& TraceFrom(int pe, arch::Dir from, uint32_t color, bool ctrl);

  // The current switch position of a color at a router.
  uint32_t Position(int pe, uint32_t color) const;
  // Puts every switch back to the position the route table holds.
  void Reset();

  // "PE(3,2): RxMismatch, color 5 from E".
  std::string Describe(const TraceFault& f) const;

 private:
  struct Slot {
    uint32_t base = 0;  // arch::ColorCfg
    uint32_t sw = 0;    // arch::SwitchCfg (its Pos field is the live position)
  };
  struct Visit {
    int pe;
    uint8_t from;
  };

  int width_;
  int height_;
  std::vector<Slot> initial_;  // [pe * kNumColors + color]
  std::vector<Slot> slots_;
  std::vector<uint32_t> seen_;  // [pe]: trace stamp of the last visit
  uint32_t stamp_ = 0;
  std::vector<Visit> work_;
  TraceResult result_;
  bool met_code_ = false;       // the last walk passed a router with a non-zero direction code
  std::vector<int32_t> cache_;  // [pe * kNumColors + color]: index into cached_, or below
  std::vector<TraceResult> cached_;
  static constexpr int32_t kUnknown = -1, kUncacheable = -2;
};

}  // namespace tessera::noc
