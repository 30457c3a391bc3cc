#include "cosim/retires.h"

#include <fmt/format.h>

#include <vector>

#include "arch/arch.h"
#include "cosim/sequence.h"

namespace tessera::cosim {
namespace {

std::string RetireText(const fabric::PeEvents& e) {
  return e.retire ? fmt::format("pc 0x{:04x}", e.retire_pc) : "none";
}

}  // namespace

std::optional<Difference> CompareRetire(const fabric::PeEvents& a, const fabric::PeEvents& b) {
  if (a.retire == b.retire && (!a.retire || a.retire_pc == b.retire_pc)) return std::nullopt;
  return Difference{"retire", RetireText(a), RetireText(b)};
}

std::string CompareLockstep(machine::Machine& a, machine::Machine& b, fabric::Coord pe,
                            uint64_t cycle, const fabric::PeEvents& ea,
                            const fabric::PeEvents& eb) {
  struct Retire {  // the PE issued the instruction at pc
    uint64_t cycle = 0;
    uint16_t pc = 0;
  };
  auto retires = [cycle](const fabric::PeEvents& e) {
    return e.retire ? std::vector<Retire>{{cycle, e.retire_pc}} : std::vector<Retire>{};
  };
  const std::vector<Retire> ra = retires(ea), rb = retires(eb);
  const std::optional<Mismatch> diff = FirstDifference(
      ra, rb, a.Name(), b.Name(), fmt::format("retired instructions of {}", PeText(pe)).c_str(),
      [](const Retire& x, const Retire& y) { return x.cycle == y.cycle && x.pc == y.pc; },
      [](const Retire& r) { return fmt::format("pc 0x{:04x} at cycle {}", r.pc, r.cycle); });
  if (diff) return diff->message;
  if (ra.empty()) return "";
  for (uint32_t i = 0; i < arch::kNumGprs; ++i) {
    const uint32_t va = a.Read(pe, arch::Gpr::Addr(i)), vb = b.Read(pe, arch::Gpr::Addr(i));
    if (va != vb)
      return fmt::format(
          "cosim lockstep: {} after the instruction at pc 0x{:04x} (cycle {}): r{} is 0x{:08x} "
          "on {} but 0x{:08x} on {}",
          PeText(pe), ra.back().pc, ra.back().cycle, i, va, a.Name(), vb, b.Name());
  }
  return "";
}

}  // namespace tessera::cosim
