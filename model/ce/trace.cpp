#include "ce/trace.h"

#include <fmt/format.h>

#include "arch/arch.h"

namespace tessera::ce {
namespace {

std::string WriteText(const TraceWrite& w) {
  switch (w.kind) {
    case TraceWrite::Kind::kGpr:
      return fmt::format("r{}=0x{:08x}", w.index, w.value);
    case TraceWrite::Kind::kDsr:
      return fmt::format("d{}=0x{:016x}", w.index, w.value);
    case TraceWrite::Kind::kMem:
      return fmt::format("M{}[0x{:04x}]=0x{:0{}x}", 8 * w.size, w.index, w.value, 2 * w.size);
  }
  return "?";
}

}  // namespace

bool TraceRecord::operator==(const TraceRecord& o) const {
  if (kind != o.kind || cycle != o.cycle || num_writes != o.num_writes) return false;
  for (int i = 0; i < num_writes; ++i)
    if (writes[i] != o.writes[i]) return false;
  switch (kind) {
    case Kind::kRetire:
      return pc == o.pc && word == o.word;
    case Kind::kTaskStart:
      return task == o.task;
    case Kind::kUtDone:
      return ut == o.ut && pc == o.pc;
    case Kind::kFault:
      return fault == o.fault;
  }
  return false;
}

std::string TraceRecord::ToString() const {
  std::string s;
  switch (kind) {
    case Kind::kRetire:
      s = fmt::format("@{} retire pc 0x{:04x} 0x{:08x}", cycle, pc, word);
      break;
    case Kind::kTaskStart:
      s = fmt::format("@{} task {} start", cycle, task);
      break;
    case Kind::kUtDone:
      s = fmt::format("@{} ut{} done pc 0x{:04x}", cycle, ut, pc);
      break;
    case Kind::kFault:
      s = fmt::format("@{} fault cause {} pc 0x{:04x} addr 0x{:08x} info 0x{:08x}", cycle, fault[0],
                      fault[1], fault[2], fault[3]);
      break;
  }
  for (int i = 0; i < num_writes; ++i) s += " " + WriteText(writes[i]);
  return s;
}

}  // namespace tessera::ce
