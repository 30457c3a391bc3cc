#include "fuzz/rtl_fabric_backend.h"

#include <fmt/format.h>

#include <stdexcept>
#include <tuple>

namespace tessera::fuzz {

rtl::RtlFabricOptions RtlFabricBackend::Options(int width, int height, std::pair<int, int> tile) {
  rtl::RtlFabricOptions o;
  o.width = width;
  o.height = height;
  std::tie(o.tile_w, o.tile_h) = tile;
  o.ce = true;
  rtl::ValidateRtlOptions(o);
  return o;
}

std::pair<int, int> RtlFabricBackend::TileFor(int width, int height) {
  return rtl::LargestTileFor(width, height, true);
}

RtlFabricBackend::RtlFabricBackend(int width, int height, std::pair<int, int> tile)
    : fab_(Options(width, height, tile)),
      char_lines_(NumPes()),
      faulted_(NumPes(), false),
      quiet_(NumPes(), -1) {}

void RtlFabricBackend::Load(int pe, const assembler::PeProgram& program) {
  const fabric::Coord c = Coord(pe);
  for (size_t a = 0; a + 4 <= program.sram.size(); a += 4) {
    const uint32_t w = program.Word(static_cast<uint16_t>(a));
    if (w) fab_.WriteReg(c, static_cast<uint16_t>(a), w);
  }
  for (const assembler::TaskBinding& t : program.tasks) {
    const uint32_t cfg = arch::TaskCfg::WithEntry(0, t.entry);
    fab_.WriteReg(c, arch::TaskCfg::Addr(t.id),
                  arch::TaskCfg::WithKind(cfg, static_cast<uint32_t>(t.kind)));
  }
  quiet_[pe] = -1;
}

void RtlFabricBackend::Launch(int pe, int task) {
  fab_.WriteReg(Coord(pe), arch::TaskActiveSet::kAddr, 1u << task);
  quiet_[pe] = -1;
}

void RtlFabricBackend::Step(std::vector<PeEvents>& events) {
  events.resize(NumPes());
  for (PeEvents& e : events) e.Clear();
  fab_.Run(1);
  for (int pe = 0; pe < NumPes(); ++pe) {
    const rtl::CeEvents c = fab_.LastEvents(Coord(pe));
    PeEvents& e = events[pe];
    e.retire = c.retire;
    e.retire_pc = c.pc;
    e.task_start = c.task_start;
    e.task = c.task;
    quiet_[pe] = -1;
  }
  for (const rtl::CeDebugRecord& d : fab_.TakeDebugRecords()) {
    ce::DebugRecord r;
    r.cycle = d.cycle;
    r.x = static_cast<uint16_t>(d.pe.x);
    r.y = static_cast<uint16_t>(d.pe.y);
    r.fmt = d.fmt;
    r.value = d.value;
    const int pe = fab_.Index(d.pe);
    ce::AddDebugStore(char_lines_[pe], r, events[pe].debug);
  }
  for (const fabric::FaultRecord& f : fab_.Faults()) faulted_[fab_.Index(f.pe)] = true;
}

bool RtlFabricBackend::Quiet(int pe) {
  if (quiet_[pe] < 0)
    quiet_[pe] = arch::CeStatus::Quiet(fab_.ReadReg(Coord(pe), arch::CeStatus::kAddr)) ? 1 : 0;
  return quiet_[pe] == 1;
}

void RtlFabricBackend::ReadGprs(int pe, CoreRegs& out) {
  const fabric::Coord c = Coord(pe);
  for (uint32_t i = 0; i < arch::kNumGprs; ++i) out.gpr[i] = fab_.ReadReg(c, arch::Gpr::Addr(i));
}

void RtlFabricBackend::ReadCore(int pe, CoreRegs& out) {
  const fabric::Coord c = Coord(pe);
  ReadGprs(pe, out);
  for (uint32_t i = 0; i < arch::kNumDsrs; ++i) {
    const uint64_t lo = fab_.ReadReg(c, arch::Dsr::Addr(2 * i));
    const uint64_t hi = fab_.ReadReg(c, arch::Dsr::Addr(2 * i + 1));
    out.dsr[i] = hi << 32 | lo;
  }
}

void RtlFabricBackend::ReadSram(int pe, uint16_t addr, uint8_t* out, size_t n) {
  const fabric::Coord c = Coord(pe);
  for (size_t i = 0; i < n;) {
    const uint32_t a = addr + static_cast<uint32_t>(i);
    const uint32_t w = fab_.ReadReg(c, static_cast<uint16_t>(a & ~3u));
    for (uint32_t b = a & 3u; b < 4 && i < n; ++b, ++i) out[i] = static_cast<uint8_t>(w >> (8 * b));
  }
}

}  // namespace tessera::fuzz
