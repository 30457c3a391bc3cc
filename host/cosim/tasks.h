// The task starts of two machines over the same stretch of cycles.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cosim/difference.h"
#include "fabric/pe_events.h"
#include "fabric/task_start.h"

namespace tessera::cosim {

// One PE in one cycle: whether and which task its picker started ("task start": "task N" or
// "none").
std::optional<Difference> CompareCycleTask(const fabric::PeEvents& a, const fabric::PeEvents& b);

// Both in (cycle, y, x) order; a start in words is "PE(x,y) starts task N at cycle C".
std::optional<Mismatch> CompareTasks(const std::vector<fabric::TaskStart>& a,
                                     const std::vector<fabric::TaskStart>& b, const std::string& na,
                                     const std::string& nb);

}  // namespace tessera::cosim
