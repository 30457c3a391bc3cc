#include "cosim/registers.h"

#include <fmt/format.h>

#include <algorithm>

#include "arch/arch.h"

namespace tessera::cosim {

std::vector<Difference> CompareCore(machine::Machine& a, machine::Machine& b, fabric::Coord pe,
                                    bool dsrs) {
  std::vector<Difference> d;
  machine::CoreRegs ca, cb;
  a.ReadCore(pe, ca, dsrs);
  b.ReadCore(pe, cb, dsrs);
  for (int i = 0; i < static_cast<int>(arch::kNumGprs); ++i)
    if (ca.gpr[i] != cb.gpr[i])
      d.push_back({fmt::format("r{}", i), Hex32(ca.gpr[i]), Hex32(cb.gpr[i])});
  for (int i = 0; i < static_cast<int>(arch::kNumDsrs) && dsrs; ++i) {
    if (ca.dsr[i] != cb.dsr[i]) {
      d.push_back({fmt::format("d{}", i), fmt::format("0x{:016x}", ca.dsr[i]),
                   fmt::format("0x{:016x}", cb.dsr[i])});
    }
  }
  return d;
}

std::vector<Difference> CompareWrittenSram(machine::Machine& a, machine::Machine& b,
                                           fabric::Coord pe, std::vector<uint16_t> words) {
  std::vector<Difference> d;
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  for (uint16_t w : words) {
    uint8_t ba[4], bb[4];
    a.ReadSram(pe, w, ba, 4);
    b.ReadSram(pe, w, bb, 4);
    const uint32_t va = ba[0] | ba[1] << 8 | ba[2] << 16 | static_cast<uint32_t>(ba[3]) << 24;
    const uint32_t vb = bb[0] | bb[1] << 8 | bb[2] << 16 | static_cast<uint32_t>(bb[3]) << 24;
    if (va != vb) d.push_back({fmt::format("M[0x{:04x}]", w), Hex32(va), Hex32(vb)});
  }
  return d;
}

}  // namespace tessera::cosim
