#include "trace/running_tasks.h"

#include "arch/arch.h"
#include "trace/issued.h"

namespace tessera::trace {

void RunningTasks::Start(uint64_t cycle, machine::Machine& m, const Scope& scope) {
  started_ = true;
  fabric::Fabric& f = m.Fabric();
  running_.assign(f.NumPes(), -1);
  since_.assign(f.NumPes(), cycle);
  during_.assign(f.NumPes(), -1);
  for (int i = 0; i < f.NumPes(); ++i) {
    if (!scope.Has(f.At(i))) continue;
    const uint32_t status = m.Read(f.At(i), arch::CeStatus::kAddr);
    if (arch::CeStatus::Running(status)) running_[i] = int(arch::CeStatus::Task(status));
  }
}

void RunningTasks::After(uint64_t cycle, machine::Machine& m,
                         const std::vector<fabric::PeEvents>& events,
                         const std::function<void(int, int, uint64_t)>& ended) {
  for (size_t i = 0; i < events.size(); ++i) {
    const fabric::PeEvents& e = events[i];
    during_[i] = running_[i];
    if (e.retire && running_[i] >= 0 &&
        EndsTask(IssuedWord(m, m.Fabric().At(int(i)), e.retire_pc))) {
      if (ended) ended(int(i), running_[i], cycle + 1 - since_[i]);
      running_[i] = -1;
    }
    if (e.task_start) {
      running_[i] = e.task;
      since_[i] = cycle + 1;
    }
  }
}

void RunningTasks::ForOpen(uint64_t end,
                           const std::function<void(int, int, uint64_t)>& open) const {
  for (size_t i = 0; i < running_.size(); ++i)
    if (running_[i] >= 0 && end > since_[i]) open(int(i), running_[i], end - since_[i]);
}

}  // namespace tessera::trace
