#include "trace/issued.h"

#include <fmt/format.h>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "isa/decode.h"

namespace tessera::trace {

uint32_t IssuedWord(machine::Machine& m, fabric::Coord pe, uint16_t pc) {
  uint8_t b[4] = {0, 0, 0, 0};
  m.ReadSram(pe, pc, b, 4);
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

std::string TaskName(machine::Machine& m, const layout::Image& image, fabric::Coord pe, int task) {
  std::string name = fmt::format("task {}", task);
  const uint32_t entry = arch::TaskCfg::Entry(m.Read(pe, arch::TaskCfg::Addr(task)));
  if (const assembler::PeProgram* p = image.ProgramAt(pe.x, pe.y)) {
    for (const auto& [label, s] : p->symbols)
      if (s.address == entry && s.section == ".text" && label.find(':') == std::string::npos) {
        name += fmt::format(" ({})", label);
        break;
      }
  }
  return name;
}

bool EndsTask(uint32_t word) {
  const arch::InsnInfo* n = isa::Decode(word);
  return n && n->cls == arch::InsnClass::kSys &&
         static_cast<arch::SysOp>(n->subop) == arch::SysOp::kTend;
}

}  // namespace tessera::trace
