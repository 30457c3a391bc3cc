#include "fuzz/end_state.h"

#include <fmt/format.h>

#include <cstring>

namespace tessera::fuzz {

uint32_t ComparedCeStatusMask() {
  using S = arch::CeStatus;
  return ~(S::WithStall(0, ~0u) | S::WithStallColor(0, ~0u));
}

EndState CaptureEndState(Backend& b, int pe) {
  EndState s;
  auto reg = [&](const std::string& name, uint16_t addr, uint32_t mask = ~0u) {
    s.regs.emplace_back(name, b.ReadReg(pe, addr) & mask);
  };
  reg("FaultStatus", arch::FaultStatus::kAddr);
  reg("FaultPc", arch::FaultPc::kAddr);
  reg("FaultAddr", arch::FaultAddr::kAddr);
  reg("FaultInfo", arch::FaultInfo::kAddr);
  reg("CeStatus", arch::CeStatus::kAddr, ComparedCeStatusMask());
  reg("CePc", arch::CePc::kAddr);
  reg("FpFlags", arch::FpFlags::kAddr);
  reg("CycleHi", arch::CycleHi::kAddr);
  reg("TaskActive", arch::TaskActive::kAddr);
  reg("TaskBlocked", arch::TaskBlocked::kAddr);
  reg("RouterFault", arch::RouterFault::kAddr);
  for (uint32_t k = 0; k < arch::DebugPort::kCount; ++k)
    reg(fmt::format("DebugPort[{}]", k), arch::DebugPort::Addr(k));
  for (uint32_t t = 0; t < arch::kNumTasks; ++t) {
    reg(fmt::format("TaskCfg[{}]", t), arch::TaskCfg::Addr(t));
    reg(fmt::format("TaskArg[{}]", t), arch::TaskArg::Addr(t));
  }
  for (uint32_t c = 0; c < arch::kNumColors; ++c) {
    reg(fmt::format("ColorCfg[{}]", c), arch::ColorCfg::Addr(c));
    reg(fmt::format("SwitchCfg[{}]", c), arch::SwitchCfg::Addr(c));
    reg(fmt::format("CeColor[{}]", c), arch::CeColor::Addr(c));
  }
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
