#include "fuzz/rtl_backend.h"

namespace tessera::fuzz {

void RtlBackend::Load(int pe, const assembler::PeProgram& program) {
  std::vector<tb::TaskBind> tasks;
  for (const assembler::TaskBinding& t : program.tasks)
    tasks.push_back({t.id, static_cast<int>(t.kind), t.entry});
  pe_.WriteSram(0, program.sram.data(), program.sram.size());
  pe_.Load({}, tasks);  // the task bindings, through the register bus
}

void RtlBackend::Step(std::vector<PeEvents>& events) {
  events.resize(1);
  PeEvents& e = events[0];
  e.Clear();
  const uint64_t cycle = pe_.Cycle();
  const tb::CycleEvents c = pe_.Step();
  e.retire = c.retire;
  e.retire_pc = c.retire_pc;
  e.task_start = c.task_start;
  e.task = static_cast<uint8_t>(c.task);
  if (!c.debug) return;
  ce::DebugRecord r;
  r.cycle = cycle;
  r.fmt = static_cast<uint8_t>(c.debug_fmt);
  r.value = c.debug_value;
  ce::AddDebugStore(char_line_, r, e.debug);
}

void RtlBackend::ReadCore(int pe, CoreRegs& out) {
  for (int i = 0; i < static_cast<int>(arch::kNumGprs); ++i) out.gpr[i] = pe_.Gpr(i);
  for (int i = 0; i < static_cast<int>(arch::kNumDsrs); ++i) out.dsr[i] = pe_.Dsr(i);
}

}  // namespace tessera::fuzz
