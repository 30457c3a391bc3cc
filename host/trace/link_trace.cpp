#include "trace/link_trace.h"

#include <fmt/format.h>

#include <stdexcept>

#include "arch/arch.h"
#include "trace/issued.h"

namespace tessera::trace {

LinkTrace::LinkTrace(const std::string& path, const std::string& option, const Scope& scope)
    : path_(path), option_(option), scope_(scope), out_(path) {
  if (!out_) throw std::invalid_argument(fmt::format("{} {}: cannot write the file", option, path));
  out_ << "cycle,x,y,port,direction,color,control,data,task\n";
}

void LinkTrace::Before(uint64_t cycle, runtime::Machine& m) {
  if (started_) return;
  started_ = true;
  fabric::Fabric& f = m.Fabric();
  width_ = f.Width();
  running_.assign(f.NumPes(), -1);
  during_.assign(f.NumPes(), -1);
  for (int i = 0; i < f.NumPes(); ++i) {  // a task already running when the window opens
    if (!scope_.Has(f.At(i))) continue;
    const uint32_t status = m.Read(f.At(i), arch::CeStatus::kAddr);
    if (arch::CeStatus::Running(status)) running_[i] = int(arch::CeStatus::Task(status));
  }
}

void LinkTrace::After(uint64_t cycle, runtime::Machine& m,
                      const std::vector<fabric::PeEvents>& events) {
  for (size_t i = 0; i < events.size(); ++i) {
    const fabric::PeEvents& e = events[i];
    during_[i] = running_[i];
    // A tend ends its task after this cycle; a task started in it runs from the next.
    if (e.retire && running_[i] >= 0 && EndsTask(IssuedWord(m, m.Fabric().At(int(i)), e.retire_pc)))
      running_[i] = -1;
    if (e.task_start) running_[i] = e.task;
  }
}

void LinkTrace::Add(const std::vector<fabric::LinkEvent>& v) {
  using L = arch::Link;
  for (const fabric::LinkEvent& e : v) {
    if (!scope_.During(e.cycle) || !scope_.Has(e.pe)) continue;
    std::string task;
    const int i = e.pe.y * width_ + e.pe.x;
    if (e.port == static_cast<int>(arch::Dir::kRamp) && i < int(during_.size()) && during_[i] >= 0)
      task = std::to_string(during_[i]);
    out_ << fmt::format("{},{},{},{},{},{},{},0x{:08x},{}\n", e.cycle, e.pe.x, e.pe.y,
                        arch::ToString(static_cast<arch::Dir>(e.port)), e.into ? "in" : "out",
                        L::Color(e.word), L::Ctrl(e.word), L::Data(e.word), task);
    ++rows_;
  }
}

void LinkTrace::Close() {
  if (!out_.is_open()) return;
  out_.close();
  if (!out_) throw std::runtime_error(fmt::format("{} {}: write failed", option_, path_));
}

}  // namespace tessera::trace
