// Which path a cycle takes (path.h). Every path runs the same instruction bodies and gives the
// same state and cycles; the drivers only take cycles in which little happens in fewer steps:
//
//   a trace sink is set                     the traced cycle model, every cycle
//   microthreads on the fabric or mem4d     the whole cycle model, and no running ahead
//   PlainState (a task alone in its engine) the plain path, unless its issue leaves the engine
//   the task waits for microthreads on      DSD element steps in bulk (path_bulk.cpp)
//     memory (BulkState)
//   anything else                           the whole cycle model
//
// and then, while the fabric promises nothing reaches the engine before port.horizon, the
// cycles up to it are run ahead (path_ahead.cpp). FastPaths turns each driver off.
#include "ce/ce.h"

namespace tessera::ce {

void Ce::Tick(uint64_t cycle, fabric::RampPort& port) {
  ahead_.open = false;  // the fabric reached this cycle: what ran ahead before stays
  if (sink_) return Cycle<true>(cycle, port);
  if (!any_fast_) return Cycle<false>(cycle, port);
  // Microthreads on the fabric or mem4d: the whole cycle model, and no running ahead in this
  // tick (it would refuse; if they finish in this cycle, the next tick runs ahead).
  if (st_.busy & st_.not_mem1d) return Cycle<false>(cycle, port);
  arch::CeStall stall;
  if (fast_.plain && PlainState() && PlainRun(cycle, cycle + 1) > cycle) {
    port.to_router = 0;
    port.credit_to_router = 0;
    ticked_ = true;
    if (port.from_router | port.credit_from_router) Arrivals(port);
  } else if (fast_.bulk && BulkState(cycle, stall) && BulkSteps(cycle, cycle + 1, stall) > cycle) {
    port.to_router = 0;
    port.credit_to_router = 0;
    if (port.from_router | port.credit_from_router) Arrivals(port);
  } else {
    Cycle<false>(cycle, port);
  }
  if (fast_.ahead && port.horizon > cycle + 1) RunAhead(port.horizon);
}

}  // namespace tessera::ce
