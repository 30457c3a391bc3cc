#include "fuzz/end_state.h"

#include <fmt/format.h>

#include <cstring>

#include "ce/mmio.h"

namespace tessera::fuzz {

EndState CaptureEndState(Backend& b, int pe) {
  EndState s;
  for (const ce::ComparedReg& r : ce::ComparedRegs())
    s.regs.emplace_back(r.name, b.ReadReg(pe, r.addr));
  s.sram.resize(arch::kSramBytes);
  b.ReadSram(pe, 0, s.sram.data(), s.sram.size());
  return s;
}

std::vector<Difference> CompareEndStates(const EndState& a, const EndState& b, int max_words) {
  std::vector<Difference> out;
  for (size_t i = 0; i < a.regs.size() && i < b.regs.size(); ++i) {
    if (a.regs[i].second != b.regs[i].second) {
      out.push_back({a.regs[i].first, fmt::format("0x{:08x}", a.regs[i].second),
                     fmt::format("0x{:08x}", b.regs[i].second)});
    }
  }
  int words = 0, more = 0;
  for (size_t w = 0; w + 4 <= a.sram.size() && w + 4 <= b.sram.size(); w += 4) {
    uint32_t va, vb;
    std::memcpy(&va, &a.sram[w], 4);
    std::memcpy(&vb, &b.sram[w], 4);
    if (va == vb) continue;
    if (words++ < max_words) {
      out.push_back({fmt::format("M[0x{:04x}]", w), fmt::format("0x{:08x}", va),
                     fmt::format("0x{:08x}", vb)});
    } else {
      ++more;
    }
  }
  if (more) out.push_back({fmt::format("and {} more SRAM words", more), "", ""});
  return out;
}

}  // namespace tessera::fuzz
