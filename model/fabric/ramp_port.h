// The CE side of one PE's ramp, as a traffic endpoint (later the compute engine) sees it.
//
// Every backend calls each PE's endpoint once per cycle, at the start of the cycle: the endpoint
// reads what the router delivered (from_router, credit_from_router: values after the last clock
// edge) and sets what enters the ramp at the next edge (to_router, credit_to_router). Words use
// the arch::Link and arch::Credit layouts; a word whose Valid bit is 0 carries nothing.
#pragma once

#include <cstdint>
#include <limits>

#include "arch/arch.h"

namespace tessera::fabric {

struct RampPort {
  uint64_t from_router = 0;        // arch::Link: a wavelet reaching the CE side this cycle
  uint8_t credit_from_router = 0;  // arch::Credit: the router freed a slot of its RAMP input
  uint64_t to_router = 0;          // arch::Link: a wavelet the CE side sends this cycle
  uint8_t credit_to_router = 0;    // arch::Credit: the CE side freed a slot (consumed a wavelet)
  // Set by the backend before Tick: nothing reaches this endpoint (no wavelet, no credit) before
  // this cycle, and the run does not end before it. The endpoint may then also run the cycles
  // after `cycle` up to horizon - 1 in this one call, if it sends and consumes nothing in them;
  // NextWake says where it stopped. 0: this cycle only.
  uint64_t horizon = 0;
};

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

class RampEndpoint {
 public:
  virtual ~RampEndpoint() = default;
  // Called at the start of every cycle in which the backend steps this PE. The endpoint must
  // overwrite port.to_router and port.credit_to_router (zero when it sends nothing).
  virtual void Tick(uint64_t cycle, RampPort& port) = 0;
  // The next cycle at which the endpoint acts on its own (not in reaction to something arriving):
  // event-driven backends may skip Tick calls before it while nothing reaches this PE and the
  // previous Tick sent nothing. kNever when it only reacts.
  virtual uint64_t NextWake() const = 0;
  // Called before Tick(cycle): the first cycle, from `cycle` on, at which the endpoint could put
  // a wavelet or a credit on its ramp, whatever reaches it; `cycle` when it cannot tell. A
  // backend may give other endpoints a later horizon on that promise.
  virtual uint64_t QuietUntil(uint64_t cycle) const { return cycle; }
  // A hint: the backend ticks this endpoint soon (after the one it ticks now). An endpoint may
  // start bringing its state into the host's caches; it must change nothing.
  virtual void Prefetch() const {}
  // Nothing left to do unless something arrives (a compute engine's CeStatus.Quiet; a host
  // stream with nothing to send or consume): part of the fabric's quiescence (Fabric::Quiescent).
  virtual bool Quiet() const { return true; }
  // Nothing can happen unless something arrives, though work may wait for it (a compute engine's
  // CeStatus.Settled; a host stream with nothing to send): part of Fabric::Settled. Quiet
  // implies it.
  virtual bool Settled() const { return Quiet(); }
  // A fault the endpoint recorded (a compute engine's FaultStatus, FaultPc, FaultAddr, FaultInfo
  // in regs): the backend stops the run after that cycle and lists it in Faults(). false: none.
  virtual bool Fault(uint32_t regs[4]) const {
    (void)regs;
    return false;
  }
  // The run stopped after `cycle` (a fault elsewhere), before the horizon an earlier Tick gave:
  // an endpoint that ran ahead of `cycle` returns to its state at the end of `cycle`.
  virtual void Rewind(uint64_t cycle) { (void)cycle; }
};

inline uint64_t MakeLink(bool ctrl, uint32_t color, uint32_t data) {
  using L = arch::Link;
  uint64_t w = L::WithValid(0, 1);
  w = L::WithCtrl(w, ctrl);
  w = L::WithColor(w, color);
  return L::WithData(w, data);
}

inline uint8_t MakeCredit(uint32_t color) {
  using C = arch::Credit;
  return static_cast<uint8_t>(C::WithColor(C::WithValid(0, 1), color));
}

}  // namespace tessera::fabric
