#include "machine/machine.h"

#include <algorithm>

namespace tessera::machine {

void Machine::ReadCore(fabric::Coord pe, CoreRegs& out, bool dsrs) {
  for (uint32_t i = 0; i < arch::kNumGprs; ++i) out.gpr[i] = Read(pe, arch::Gpr::Addr(i));
  if (!dsrs) return;
  for (uint32_t i = 0; i < arch::kNumDsrs; ++i) {
    const uint64_t lo = Read(pe, arch::Dsr::Addr(2 * i));
    const uint64_t hi = Read(pe, arch::Dsr::Addr(2 * i + 1));
    out.dsr[i] = hi << 32 | lo;
  }
}

void Machine::ReadSram(fabric::Coord pe, uint16_t addr, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n;) {
    const uint32_t a = addr + static_cast<uint32_t>(i);
    const uint32_t w = Read(pe, static_cast<uint16_t>(a & ~3u));
    for (uint32_t b = a & 3u; b < 4 && i < n; ++b, ++i) out[i] = static_cast<uint8_t>(w >> (8 * b));
  }
}

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

}  // namespace tessera::machine
