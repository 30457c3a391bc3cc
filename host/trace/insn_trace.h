// The instruction trace (`--trace-insn FILE`, docs/profiling.md "Traces"): one row per event of
// each PE in the scope, streamed to the file as the run goes:
//
//   retire  an instruction issued: its pc, source line, disassembly, and the general registers
//           whose value changed in that cycle (name=value);
//   task    a task started (the picker): its ID, r0 = its argument;
//   write   registers changed in a cycle without an issue (a scalar FP result landing).
//
// Every field is read the same way on every backend (the cycle's events, Machine::Step, and the
// registers through the back door after it), so func and rtl give identical files. A file ending
// in .csv is CSV (cycle,x,y,task,pc,line,event,insn,writes); .jsonl (or .json) one JSON object a
// line. The task column names the task running when the event happened (blank: none).
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "layout/image.h"
#include "runtime/device.h"
#include "trace/scope.h"

namespace tessera::trace {

class InsnTrace final : public runtime::CycleObserver {
 public:
  // Throws std::invalid_argument naming `option` if the file cannot be written.
  InsnTrace(const std::string& path, const std::string& option, const Scope& scope,
            const layout::Image& image);
  InsnTrace(const InsnTrace&) = delete;
  InsnTrace& operator=(const InsnTrace&) = delete;

  uint64_t From() const override { return scope_.from; }
  uint64_t To() const override { return scope_.to; }
  void Before(uint64_t cycle, machine::Machine& m) override;
  void After(uint64_t cycle, machine::Machine& m,
             const std::vector<fabric::PeEvents>& events) override;

  // Flushes and closes; throws std::runtime_error if a write failed.
  void Close();
  uint64_t rows() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  struct PeState {
    fabric::Coord pe;
    int index = 0;
    int task = -1;  // running, -1: none
    std::vector<uint32_t> gpr;
  };
  void Row(uint64_t cycle, const PeState& p, const char* event, int pc, const std::string& insn,
           const std::vector<std::pair<int, uint32_t>>& writes);

  std::string path_, option_;
  Scope scope_;
  const layout::Image& image_;
  bool json_ = false;
  std::ofstream out_;
  std::vector<PeState> pes_;  // the scope's PEs; empty until the first cycle
  bool started_ = false;
  uint64_t rows_ = 0;
};

}  // namespace tessera::trace
