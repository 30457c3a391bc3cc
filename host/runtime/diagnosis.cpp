#include "runtime/diagnosis.h"

#include <fmt/format.h>

#include <filesystem>
#include <vector>

#include "arch/arch.h"
#include "asm/disasm.h"
#include "ce/fault_text.h"
#include "util/enum_names.h"

namespace tessera::runtime {
namespace {

constexpr util::EnumName<arch::CeStall> kStallTexts[] = {
    {arch::CeStall::kUt, "waits for a busy microthread"},
    {arch::CeStall::kSync, "waits for its synchronous DSD operation"},
    {arch::CeStall::kSend, "send has no credit or ramp slot"},
    {arch::CeStall::kUtWait, "utwait"},
    {arch::CeStall::kPort, "waits for a memory port"},
    {arch::CeStall::kFmac, "waits for the FMAC"},
};

const char* StallText(uint32_t stall) {
  return util::NameOf(kStallTexts, static_cast<arch::CeStall>(stall), "");
}

std::string UtWaitText(uint32_t wait, uint32_t color) {
  switch (static_cast<arch::UtWait>(wait)) {
    case arch::UtWait::kReady:
      return "is stepping";
    case arch::UtWait::kFabIn:
      return fmt::format("waits for data on color {}", color);
    case arch::UtWait::kFabOut:
      return fmt::format("waits for a credit to send on color {}", color);
    case arch::UtWait::kPort:
      return "waits for a memory port";
    case arch::UtWait::kFmac:
      return "waits for the FMAC";
    case arch::UtWait::kTurn:
      return "waits for its turn";
    case arch::UtWait::kDrain:
      return "is draining its last results";
    case arch::UtWait::kFifo:
      return "waits for a FIFO (a source empty or the destination full)";
    default:
      return "is in an unknown state";
  }
}

std::string Basename(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// "from W color 3: 3, from RAMP color 5: 2" (RouterInCount), or "" if every queue is empty.
std::string RouterQueues(machine::Machine& m, fabric::Coord pe) {
  std::string s;
  for (uint32_t i = 0; i < arch::RouterInCount::kCount; ++i) {
    const uint32_t r = m.Read(pe, arch::RouterInCount::Addr(i));
    for (uint32_t k = 0; r && k < 8; ++k) {
      const uint32_t n = (r >> (4 * k)) & 0xF;
      if (n == 0) continue;
      s += fmt::format("{}from {} color {}: {}", s.empty() ? "" : ", ",
                       arch::ToString(static_cast<arch::Dir>(i / 3)), 8 * (i % 3) + k, n);
    }
  }
  return s;
}

}  // namespace

std::string DescribeFault(machine::Machine& m, const layout::Image* image,
                          const fabric::FaultRecord& f) {
  if (f.ce_status == 0) return fabric::DescribeFault(f);
  ce::FaultContext c;
  c.x = static_cast<uint16_t>(f.pe.x);
  c.y = static_cast<uint16_t>(f.pe.y);
  c.status = f.ce_status;
  c.pc = f.ce_pc;
  c.addr = f.ce_addr;
  c.info = f.ce_info;
  if (f.ce_pc < arch::kSramBytes) c.word = m.Read(f.pe, static_cast<uint16_t>(f.ce_pc & ~3u));
  for (uint32_t t = 0; t < 32; ++t)
    c.task_kind[t] =
        static_cast<uint8_t>(arch::TaskCfg::Kind(m.Read(f.pe, arch::TaskCfg::Addr(t))));
  std::string s = ce::DescribeCeFault(c);
  const assembler::PeProgram* p = image ? image->ProgramAt(f.pe.x, f.pe.y) : nullptr;
  const assembler::LineInfo* l = p ? p->LineAt(static_cast<uint16_t>(f.ce_pc)) : nullptr;
  if (l) s += fmt::format(", {}:{}", Basename(l->file), l->line);
  return s + fmt::format(", at cycle {}", f.cycle);
}

std::string DescribePc(const layout::Image* image, fabric::Coord pe, uint16_t pc) {
  const assembler::PeProgram* p = image ? image->ProgramAt(pe.x, pe.y) : nullptr;
  const assembler::LineInfo* l = p ? p->LineAt(pc) : nullptr;
  if (!l) return fmt::format("0x{:04x}", pc);
  return fmt::format("0x{:04x} ({}:{})", pc, Basename(l->file), l->line);
}

std::string TaskText(machine::Machine& m, const layout::Image* image, fabric::Coord pe,
                     uint32_t task) {
  const assembler::PeProgram* p = image ? image->ProgramAt(pe.x, pe.y) : nullptr;
  std::string name;
  if (p && task < 31) {
    const auto entry =
        static_cast<uint16_t>(arch::TaskCfg::Entry(m.Read(pe, arch::TaskCfg::Addr(task))));
    // The label at the entry: an exported or global one first, else any in .text.
    int best = -1;
    for (const auto& [n, sym] : p->symbols) {
      if (sym.section != ".text" || sym.address != entry) continue;
      const int rank = sym.exported ? 2 : sym.global ? 1 : 0;
      if (rank > best) best = rank, name = n;
    }
  }
  return name.empty() ? fmt::format("task {}", task) : fmt::format("task {} ({})", task, name);
}

std::string DiagnoseDeadlock(machine::Machine& m, const layout::Image* image, int max_pes) {
  std::string out;
  int busy = 0;
  const int n = m.Width() * m.Height();
  for (int i = 0; i < n; ++i) {
    const fabric::Coord pe{i % m.Width(), i / m.Width()};
    const uint32_t st = m.Read(pe, arch::CeStatus::kAddr);
    const std::string routers = RouterQueues(m, pe);
    if (arch::CeStatus::Quiet(st) && routers.empty()) continue;
    if (++busy > max_pes) continue;
    std::string line = fmt::format("PE({},{}): ", pe.x, pe.y);
    if (arch::CeStatus::Quiet(st)) {
      line += "compute engine quiet";
    } else if (arch::CeStatus::Running(st)) {
      const uint16_t pc = static_cast<uint16_t>(m.Read(pe, arch::CePc::kAddr));
      line += fmt::format("{} running at pc {}", TaskText(m, image, pe, arch::CeStatus::Task(st)),
                          DescribePc(image, pe, pc));
      const uint32_t stall = arch::CeStatus::Stall(st);
      if (stall != 0) {
        line += fmt::format(", stalled: {}", StallText(stall));
        if (stall == static_cast<uint32_t>(arch::CeStall::kSend))
          line += fmt::format(" (color {})", arch::CeStatus::StallColor(st));
      }
    } else {
      line += "no task running";
    }
    const uint32_t uts = arch::CeStatus::UtBusy(st);
    for (int u = 0; u < 8; ++u) {
      if (!((uts >> u) & 1)) continue;
      const uint32_t us = m.Read(pe, arch::UtStatus::Addr(u));
      const uint32_t ui = m.Read(pe, arch::UtInfo::Addr(u));
      const auto pc = static_cast<uint16_t>(arch::UtInfo::Pc(ui));
      const std::string insn = assembler::DisassembleWord(m.Read(pe, pc & ~3u));
      line += fmt::format(";\n    microthread {} ({}{} at pc {}, element {}) {}", u,
                          insn.substr(0, insn.find(' ')), arch::UtStatus::Sync(us) ? ", sync" : "",
                          DescribePc(image, pe, pc), arch::UtStatus::Done(us),
                          UtWaitText(arch::UtStatus::Wait(us), arch::UtInfo::Color(ui)));
    }
    std::string queues;
    for (uint32_t c = 0; c < arch::kNumColors; ++c) {
      const uint32_t cc = m.Read(pe, arch::CeColor::Addr(c));
      const uint32_t k = arch::CeColor::InCount(cc);
      if (k == 0) continue;
      queues += fmt::format("{}color {}: {} of {}{}", queues.empty() ? "" : ", ", c, k,
                            arch::kCeInDepth, arch::CeColor::HeadCtrl(cc) ? " (head control)" : "");
    }
    if (!queues.empty()) line += ";\n    CE input queues: " + queues;
    if (!routers.empty()) line += ";\n    router input queues: " + routers;
    const uint32_t blocked = m.Read(pe, arch::TaskBlocked::kAddr);
    const uint32_t active = m.Read(pe, arch::TaskActive::kAddr);
    auto tasks = [&](uint32_t mask) {
      std::string t;
      for (uint32_t k = 0; k < 31; ++k)
        if ((mask >> k) & 1) t += (t.empty() ? "" : ", ") + TaskText(m, image, pe, k);
      return t;
    };
    if (active) line += ";\n    activated: " + tasks(active);
    if (blocked) line += ";\n    blocked: " + tasks(blocked);
    out += line + "\n";
  }
  if (busy > max_pes) out += fmt::format("... and {} more busy PEs\n", busy - max_pes);
  if (busy == 0) out += "every compute engine is quiet; wavelets are still moving in the fabric\n";
  return out;
}

}  // namespace tessera::runtime
