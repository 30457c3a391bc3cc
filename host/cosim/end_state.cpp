#include "cosim/end_state.h"

#include <fmt/format.h>

#include <cstring>

#include "arch/arch.h"
#include "ce/mmio.h"
#include "cosim/difference.h"

namespace tessera::cosim {

EndState CaptureEndState(machine::Machine& m, fabric::Coord pe) {
  EndState s;
  for (const ce::ComparedReg& r : ce::ComparedRegs())
    s.regs.push_back({r.name, r.addr, m.Read(pe, r.addr)});
  s.sram.resize(arch::kSramBytes);
  m.ReadSram(pe, 0, s.sram.data(), s.sram.size());
  return s;
}

EndState CaptureEndState(const std::function<uint32_t(uint16_t)>& read) {
  EndState s;
  for (const ce::ComparedReg& r : ce::ComparedRegs())
    s.regs.push_back({r.name, r.addr, read(r.addr)});
  s.sram.resize(arch::kSramBytes);
  for (uint32_t a = 0; a < arch::kSramBytes; a += 4) {
    const uint32_t w = read(static_cast<uint16_t>(a));
    std::memcpy(&s.sram[a], &w, 4);
  }
  return s;
}

std::vector<Difference> CompareEndStates(const EndState& a, const EndState& b, int max_words) {
  std::vector<Difference> out;
  for (size_t i = 0; i < a.regs.size() && i < b.regs.size(); ++i) {
    if (a.regs[i].value != b.regs[i].value)
      out.push_back({a.regs[i].name, Hex32(a.regs[i].value), Hex32(b.regs[i].value)});
  }
  int words = 0, more = 0;
  for (size_t w = 0; w + 4 <= a.sram.size() && w + 4 <= b.sram.size(); w += 4) {
    uint32_t va, vb;
    std::memcpy(&va, &a.sram[w], 4);
    std::memcpy(&vb, &b.sram[w], 4);
    if (va == vb) continue;
    if (words++ < max_words) {
      out.push_back({fmt::format("M[0x{:04x}]", w), Hex32(va), Hex32(vb)});
    } else {
      ++more;
    }
  }
  if (more) out.push_back({fmt::format("and {} more SRAM words", more), "", ""});
  return out;
}

std::string CompareState(machine::Machine& a, machine::Machine& b) {
  // SRAM in bulk (the RTL reads its arrays directly where it can: a word through the back door
  // costs two evaluations of the tile).
  std::vector<uint8_t> sa(arch::kSramBytes), sb(arch::kSramBytes);
  for (int i = 0; i < a.Width() * a.Height(); ++i) {
    const fabric::Coord pe{i % a.Width(), i / a.Width()};
    if (a.Retired(pe) != b.Retired(pe))
      return fmt::format("cosim: by cycle {} {} issued {} instructions on {} but {} on {}",
                         a.Cycle(), PeText(pe), a.Retired(pe), a.Name(), b.Retired(pe), b.Name());
    for (const ce::ComparedReg& r : ce::ComparedRegs()) {
      const uint32_t va = a.Read(pe, r.addr), vb = b.Read(pe, r.addr);
      if (va != vb)
        return fmt::format(
            "cosim: final state of {} differs at cycle {}: {} (0x{:04x}) is 0x{:08x} on {} but "
            "0x{:08x} on {}",
            PeText(pe), a.Cycle(), r.name, r.addr, va, a.Name(), vb, b.Name());
    }
    a.ReadSram(pe, 0, sa.data(), sa.size());
    b.ReadSram(pe, 0, sb.data(), sb.size());
    if (sa == sb) continue;
    for (uint32_t addr = 0; addr < arch::kSramBytes; addr += 4) {
      const auto ad = static_cast<uint16_t>(addr);
      uint32_t va, vb;
      std::memcpy(&va, &sa[addr], 4);
      std::memcpy(&vb, &sb[addr], 4);
      if (va != vb)
        return fmt::format(
            "cosim: final SRAM of {} differs at cycle {}: word 0x{:04x} is 0x{:08x} on {} but "
            "0x{:08x} on {}",
            PeText(pe), a.Cycle(), ad, va, a.Name(), vb, b.Name());
    }
  }
  return "";
}

}  // namespace tessera::cosim
