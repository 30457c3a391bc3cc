#include "machine/func_machine.h"

#include <iterator>

namespace tessera::machine {

// Turns one CE's trace records into the events of the cycle being stepped (Step), and passes
// every record on to a test's sink (SetTraceSink).
class FuncMachine::Sink final : public ce::TraceSink {
 public:
  fabric::PeEvents* target = nullptr;  // during Step
  ce::TraceSink* tee = nullptr;
  bool attached = false;

  void Record(const ce::TraceRecord& r) override {
    if (tee) tee->Record(r);
    if (!target) return;
    switch (r.kind) {
      case ce::TraceRecord::Kind::kRetire:
        target->retire = true;
        target->retire_pc = r.pc;
        for (int k = 0; k < r.num_writes; ++k) {
          const ce::TraceWrite& w = r.writes[k];
          if (w.kind == ce::TraceWrite::Kind::kMem && w.index < arch::kSramBytes)
            target->sram_writes.push_back(static_cast<uint16_t>(w.index & ~3u));
          target->dsr_write |= w.kind == ce::TraceWrite::Kind::kDsr;
        }
        break;
      case ce::TraceRecord::Kind::kTaskStart:
        target->task_start = true;
        target->task = r.task;
        break;
      default:
        break;
    }
  }
};

FuncMachine::FuncMachine(int width, int height, std::pair<int, int> port_tile)
    : fab_(width, height),
      sram_(std::make_unique<util::LazyArena>(static_cast<size_t>(fab_.NumPes()), ce::kSram,
                                              "compute-engine SRAMs")),
      port_tile_(port_tile) {
  for (int i = 0; i < fab_.NumPes(); ++i) {
    const fabric::Coord c = fab_.At(i);
    ces_.push_back(std::make_unique<ce::Ce>(static_cast<uint16_t>(c.x), static_cast<uint16_t>(c.y),
                                            &fab_.RouterRegsOf(c), sram_->At(i)));
    endpoints_.push_back(std::make_unique<ce::CeEndpoint>(*ces_.back()));
    fab_.SetEndpoint(c, endpoints_.back().get());
    sinks_.push_back(std::make_unique<Sink>());
  }
  task_logs_.resize(fab_.NumPes());
}

FuncMachine::~FuncMachine() = default;

int FuncMachine::PortOf(fabric::Coord pe) {
  fab_.CheckContains(pe);
  const int tiles_x = fab_.Width() / port_tile_.first;
  return (pe.y / port_tile_.second) * tiles_x + pe.x / port_tile_.first;
}

std::vector<ce::DebugRecord> FuncMachine::TakeDebug() {
  std::vector<ce::DebugRecord> out;
  for (auto& c : ces_) {
    if (c->DebugRecords().empty()) continue;
    std::vector<ce::DebugRecord> r = c->TakeDebugRecords();
    out.insert(out.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
  }
  SortByCyclePe(out);
  return out;
}

void FuncMachine::SetTaskLog(bool on) {
  for (int i = 0; i < fab_.NumPes(); ++i) ces_[i]->SetTaskLog(on ? &task_logs_[i] : nullptr);
}

std::vector<TaskStart> FuncMachine::TakeTaskLog() {
  std::vector<TaskStart> out;
  for (int i = 0; i < fab_.NumPes(); ++i) {
    for (const ce::Ce::TaskStart& t : task_logs_[i]) out.push_back({t.cycle, fab_.At(i), t.task});
    task_logs_[i].clear();
  }
  SortByCyclePe(out);
  return out;
}

void FuncMachine::Attach(int i) {
  if (sinks_[i]->attached) return;
  ces_[i]->SetTraceSink(sinks_[i].get());
  sinks_[i]->attached = true;
}

void FuncMachine::SetTraceSink(fabric::Coord pe, ce::TraceSink* sink) {
  CeOf(pe);  // checks the range
  const int i = fab_.Index(pe);
  sinks_[i]->tee = sink;
  Attach(i);
}

uint64_t FuncMachine::Step(std::vector<fabric::PeEvents>& events) {
  const int n = fab_.NumPes();
  const uint64_t cycle = fab_.Cycle();
  events.resize(n);
  for (int i = 0; i < n; ++i) {
    Attach(i);
    events[i].Clear();
    sinks_[i]->target = &events[i];
  }
  fab_.Run(1);  // always one cycle: a run stops only after a cycle
  for (int i = 0; i < n; ++i) {
    sinks_[i]->target = nullptr;
    if (!ces_[i]->DebugRecords().empty()) events[i].debug = ces_[i]->TakeDebugRecords();
    task_logs_[i].clear();
  }
  for (const fabric::FaultRecord& f : fab_.Faults()) events[fab_.Index(f.pe)].faulted = true;
  for (int i = 0; i < n; ++i) {
    events[i].faulted |= ces_[i]->Faulted();
    events[i].quiet = ces_[i]->Quiet();
    events[i].settled = ces_[i]->Settled();
  }
  return cycle;
}

void FuncMachine::ReadCore(fabric::Coord pe, CoreRegs& out, bool dsrs) {
  const ce::CeState& s = CeOf(pe).State();
  out.gpr = s.gpr;
  if (dsrs) out.dsr = s.dsr;
}

void FuncMachine::ReadSram(fabric::Coord pe, uint16_t addr, uint8_t* out, size_t n) {
  CeOf(pe).HostReadSram(addr, out, n);
}

void FuncMachine::SetRunAhead(bool on) {
  SetFastPaths(on ? ce::Ce::FastPaths{} : ce::Ce::FastPaths{false, false, false});
}

void FuncMachine::SetFastPaths(ce::Ce::FastPaths paths) {
  paths_ = paths;
  fab_.SetRunAhead(paths.ahead);
  for (auto& ce : ces_) ce->SetFastPaths(paths);
}

void FuncMachine::SetTraced() {
  traced_ = true;
  for (int i = 0; i < fab_.NumPes(); ++i) Attach(i);
}

std::string FuncMachine::Name() const {
  if (!traced_ && threads_ == 1) {
    if (paths_ == ce::Ce::FastPaths{}) return "func";
    if (!paths_.Any()) return "func-step";
  }
  std::string what;
  auto add = [&what](const std::string& w) { what += (what.empty() ? "" : ", ") + w; };
  if (!paths_.plain) add("no plain path");
  if (!paths_.bulk) add("no bulk steps");
  if (!paths_.ahead) add("no running ahead");
  if (traced_) add("traced");
  if (threads_ != 1) add(std::to_string(threads_) + " threads");
  return "func (" + what + ")";
}

std::unique_ptr<Machine> MakeFuncMachine(int width, int height, std::pair<int, int> port_tile,
                                         int threads, bool run_ahead) {
  auto m = std::make_unique<FuncMachine>(width, height, port_tile);
  m->SetThreads(threads);
  m->SetRunAhead(run_ahead);
  return m;
}

}  // namespace tessera::machine
