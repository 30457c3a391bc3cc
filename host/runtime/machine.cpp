#include "runtime/machine.h"

#include <algorithm>

namespace tessera::runtime {

void SortByCyclePe(std::vector<ce::DebugRecord>& v) {
  std::stable_sort(v.begin(), v.end(), [](const ce::DebugRecord& a, const ce::DebugRecord& b) {
    if (a.cycle != b.cycle) return a.cycle < b.cycle;
    if (a.y != b.y) return a.y < b.y;
    return a.x < b.x;
  });
}

void SortByCyclePe(std::vector<TaskStart>& v) {
  std::stable_sort(v.begin(), v.end(), [](const TaskStart& a, const TaskStart& b) {
    if (a.cycle != b.cycle) return a.cycle < b.cycle;
    if (a.pe.y != b.pe.y) return a.pe.y < b.pe.y;
    return a.pe.x < b.pe.x;
  });
}

}  // namespace tessera::runtime
