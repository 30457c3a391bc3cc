#include "fuzz/func_backend.h"

namespace tessera::fuzz {

// Turns one CE's trace records into the events of the cycle being stepped.
class FuncBackend::Sink final : public ce::TraceSink {
 public:
  PeEvents* target = nullptr;
  void Record(const ce::TraceRecord& r) override {
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

FuncBackend::FuncBackend(int width, int height) : fab_(width, height) {
  for (int pe = 0; pe < NumPes(); ++pe) {
    const fabric::Coord c = Coord(pe);
    ces_.push_back(std::make_unique<ce::Ce>(static_cast<uint16_t>(c.x), static_cast<uint16_t>(c.y),
                                            &fab_.RouterRegsOf(c)));
    endpoints_.push_back(std::make_unique<ce::CeEndpoint>(*ces_.back()));
    sinks_.push_back(std::make_unique<Sink>());
    ces_.back()->SetTraceSink(sinks_.back().get());
    fab_.SetEndpoint(c, endpoints_.back().get());
  }
}

FuncBackend::~FuncBackend() = default;

void FuncBackend::Load(int pe, const assembler::PeProgram& program) {
  std::vector<ce::TaskBinding> tasks;
  for (const assembler::TaskBinding& t : program.tasks)
    tasks.push_back({static_cast<uint8_t>(t.id), t.kind, t.entry});
  ces_[pe]->Load(program.sram, tasks);
}

void FuncBackend::Launch(int pe, int task) { ces_[pe]->Activate(task); }

void FuncBackend::Step(std::vector<PeEvents>& events) {
  events.resize(NumPes());
  for (int pe = 0; pe < NumPes(); ++pe) {
    events[pe].Clear();
    sinks_[pe]->target = &events[pe];
  }
  fab_.Run(1);
  for (int pe = 0; pe < NumPes(); ++pe) {
    sinks_[pe]->target = nullptr;
    if (!ces_[pe]->DebugRecords().empty()) events[pe].debug = ces_[pe]->TakeDebugRecords();
  }
}

bool FuncBackend::Faulted(int pe) {
  if (ces_[pe]->Faulted()) return true;
  for (const fabric::FaultRecord& f : fab_.Faults())
    if (fab_.Index(f.pe) == pe) return true;
  return false;
}

void FuncBackend::ReadCore(int pe, CoreRegs& out) {
  const ce::CeState& s = ces_[pe]->State();
  out.gpr = s.gpr;
  out.dsr = s.dsr;
}

}  // namespace tessera::fuzz
