#include "trace/insn_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "arch/arch.h"
#include "asm/disasm.h"
#include "trace/issued.h"
#include "util/json.h"
#include "util/strings.h"

namespace tessera::trace {
namespace {

// "a, b" -> "\"a, b\"" for CSV.
std::string Csv(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

InsnTrace::InsnTrace(const std::string& path, const std::string& option, const Scope& scope,
                     const layout::Image& image)
    : path_(path), option_(option), scope_(scope), image_(image), out_(path) {
  if (!out_) throw std::invalid_argument(fmt::format("{} {}: cannot write the file", option, path));
  json_ = util::EndsWith(path, ".jsonl") || util::EndsWith(path, ".json");
  if (!json_) out_ << "cycle,x,y,task,pc,line,event,insn,writes\n";
}

void InsnTrace::Before(uint64_t cycle, machine::Machine& m) {
  if (started_) return;
  started_ = true;  // the state before the window's first cycle
  fabric::Fabric& f = m.Fabric();
  for (int i = 0; i < f.NumPes(); ++i) {
    const fabric::Coord pe = f.At(i);
    if (!scope_.Has(pe)) continue;
    PeState p;
    p.pe = pe;
    p.index = i;
    const uint32_t status = m.Read(pe, arch::CeStatus::kAddr);
    if (arch::CeStatus::Running(status)) p.task = static_cast<int>(arch::CeStatus::Task(status));
    machine::CoreRegs regs;
    m.ReadCore(pe, regs, false);
    p.gpr.assign(regs.gpr.begin(), regs.gpr.end());
    pes_.push_back(std::move(p));
  }
}

void InsnTrace::After(uint64_t cycle, machine::Machine& m,
                      const std::vector<fabric::PeEvents>& events) {
  machine::CoreRegs regs;
  std::vector<std::pair<int, uint32_t>> writes;
  for (PeState& p : pes_) {
    const fabric::PeEvents& e = events[p.index];
    m.ReadCore(p.pe, regs, false);
    writes.clear();
    for (int r = 0; r < static_cast<int>(arch::kNumGprs); ++r)
      if (regs.gpr[r] != p.gpr[r]) {
        writes.emplace_back(r, regs.gpr[r]);
        p.gpr[r] = regs.gpr[r];
      }
    if (e.task_start) {  // r0 is the task's argument, changed or not
      p.task = e.task;
      Row(cycle, p, "task", -1, fmt::format("task {} start", e.task), {{0, regs.gpr[0]}});
      writes.erase(
          std::remove_if(writes.begin(), writes.end(), [](const auto& w) { return w.first == 0; }),
          writes.end());
    }
    if (e.retire) {
      const uint32_t word = IssuedWord(m, p.pe, e.retire_pc);
      std::string insn;  // the disassembly, single-spaced
      for (char c : assembler::DisassembleWord(word))
        if (c != ' ' || (!insn.empty() && insn.back() != ' ')) insn += c;
      Row(cycle, p, "retire", e.retire_pc, insn, writes);
      if (EndsTask(word)) p.task = -1;
    } else if (!writes.empty()) {
      Row(cycle, p, "write", -1, "", writes);
    }
  }
}

void InsnTrace::Row(uint64_t cycle, const PeState& p, const char* event, int pc,
                    const std::string& insn, const std::vector<std::pair<int, uint32_t>>& writes) {
  std::string line;
  if (pc >= 0) {
    if (const assembler::PeProgram* prog = image_.ProgramAt(p.pe.x, p.pe.y))
      if (const assembler::LineInfo* l = prog->LineAt(static_cast<uint16_t>(pc)))
        line = fmt::format("{}:{}", std::filesystem::path(l->file).filename().string(), l->line);
  }
  const std::string task = p.task >= 0 ? std::to_string(p.task) : "";
  const std::string pcs = pc >= 0 ? fmt::format("0x{:04x}", pc) : "";
  if (json_) {
    std::string w;
    for (const auto& [r, v] : writes)
      w += fmt::format("{}\"r{}\":\"0x{:08x}\"", w.empty() ? "" : ",", r, v);
    out_ << fmt::format(
        "{{\"cycle\":{},\"x\":{},\"y\":{},\"task\":{},\"pc\":{},\"line\":{},\"event\":\"{}\","
        "\"insn\":{},\"writes\":{{{}}}}}\n",
        cycle, p.pe.x, p.pe.y, p.task >= 0 ? task : "null",
        pc >= 0 ? util::JsonObject::Quote(pcs) : "null",
        line.empty() ? "null" : util::JsonObject::Quote(line), event, util::JsonObject::Quote(insn),
        w);
  } else {
    std::string w;
    for (const auto& [r, v] : writes)
      w += fmt::format("{}r{}=0x{:08x}", w.empty() ? "" : " ", r, v);
    out_ << fmt::format("{},{},{},{},{},{},{},{},{}\n", cycle, p.pe.x, p.pe.y, task, pcs, Csv(line),
                        event, Csv(insn), w);
  }
  ++rows_;
}

void InsnTrace::Close() {
  if (!out_.is_open()) return;
  out_.close();
  if (!out_) throw std::runtime_error(fmt::format("{} {}: write failed", option_, path_));
}

}  // namespace tessera::trace
