// The debug-port records of two machines over the same stretch of cycles.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cosim/difference.h"
#include "fabric/debug_record.h"

namespace tessera::cosim {

// One PE's records of one cycle: if they differ, every record of either side ("debug record i":
// "@c PE(x,y): v (fmt F, value 0x%08x)" or "none").
std::vector<Difference> CompareCycleDebug(const std::vector<fabric::DebugRecord>& a,
                                          const std::vector<fabric::DebugRecord>& b);

// Both in (cycle, y, x) order; a record in words is "@180 PE(0,0): 16" in quotes.
std::optional<Mismatch> CompareDebug(const std::vector<fabric::DebugRecord>& a,
                                     const std::vector<fabric::DebugRecord>& b,
                                     const std::string& na, const std::string& nb);

}  // namespace tessera::cosim
