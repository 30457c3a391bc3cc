#include "trace/link_trace.h"

#include <fmt/format.h>

#include <stdexcept>

#include "arch/arch.h"

namespace tessera::trace {

LinkTrace::LinkTrace(const std::string& path, const std::string& option, const Scope& scope)
    : path_(path), option_(option), scope_(scope), out_(path) {
  if (!out_) throw std::invalid_argument(fmt::format("{} {}: cannot write the file", option, path));
  out_ << "cycle,x,y,port,direction,color,control,data,task\n";
}

void LinkTrace::Before(uint64_t cycle, machine::Machine& m) {
  if (tasks_.started()) return;
  width_ = m.Fabric().Width();
  tasks_.Start(cycle, m, scope_);
}

void LinkTrace::After(uint64_t cycle, machine::Machine& m,
                      const std::vector<fabric::PeEvents>& events) {
  tasks_.After(cycle, m, events);
}

void LinkTrace::Add(const std::vector<fabric::LinkEvent>& v) {
  using L = arch::Link;
  for (const fabric::LinkEvent& e : v) {
    if (!scope_.During(e.cycle) || !scope_.Has(e.pe)) continue;
    std::string task;
    const int running = tasks_.During(e.pe.y * width_ + e.pe.x);
    if (e.port == static_cast<int>(arch::Dir::kRamp) && running >= 0)
      task = std::to_string(running);
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
