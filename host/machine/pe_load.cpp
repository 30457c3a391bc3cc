#include "machine/pe_load.h"

namespace tessera::machine {

void LoadSram(Machine& m, fabric::Coord pe, const std::vector<uint8_t>& image) {
  for (size_t a = 0; a < image.size(); a += 4) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4 && a + b < image.size(); ++b)
      w |= static_cast<uint32_t>(image[a + b]) << (8 * b);
    if (w) m.Write(pe, static_cast<uint16_t>(a), w);
  }
}

void BindTask(Machine& m, fabric::Coord pe, int id, arch::TaskKind kind, uint16_t entry) {
  const uint32_t cfg = arch::TaskCfg::WithEntry(0, entry);
  m.Write(pe, arch::TaskCfg::Addr(static_cast<uint32_t>(id)),
          arch::TaskCfg::WithKind(cfg, static_cast<uint32_t>(kind)));
}

void LoadPeProgram(Machine& m, fabric::Coord pe, const assembler::PeProgram& program) {
  LoadSram(m, pe, program.sram);
  for (const assembler::TaskBinding& t : program.tasks) BindTask(m, pe, t.id, t.kind, t.entry);
  if (const uint32_t b = program.BlockedAtLoad()) m.Write(pe, arch::TaskBlockSet::kAddr, b);
  if (const uint32_t a = program.ActiveAtLoad()) m.Write(pe, arch::TaskActiveSet::kAddr, a);
}

void LaunchTask(Machine& m, fabric::Coord pe, int task) {
  m.Write(pe, arch::TaskActiveSet::kAddr, 1u << task);
}

}  // namespace tessera::machine
