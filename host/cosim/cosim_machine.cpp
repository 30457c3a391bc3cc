#include "cosim/cosim_machine.h"

#include <fmt/format.h>

#include <utility>

#include "cosim/back_pressure.h"
#include "cosim/debug.h"
#include "cosim/end_state.h"
#include "cosim/faults.h"
#include "cosim/links.h"
#include "cosim/quiescence.h"
#include "cosim/retires.h"
#include "cosim/tasks.h"

namespace tessera::cosim {

CosimMachine::CosimMachine(std::unique_ptr<Machine> a, std::unique_ptr<Machine> b,
                           std::optional<fabric::Coord> lockstep)
    : a_(std::move(a)), b_(std::move(b)), lockstep_(lockstep) {
  if (a_->Width() != b_->Width() || a_->Height() != b_->Height())
    throw std::invalid_argument(fmt::format("cosim: {} is {}x{} but {} is {}x{}", a_->Name(),
                                            a_->Width(), a_->Height(), b_->Name(), b_->Width(),
                                            b_->Height()));
  // Every link both observe is compared after each run.
  a_->SetLinkLog(true);
  b_->SetLinkLog(true);
}

void CosimMachine::Write(fabric::Coord pe, uint16_t addr, uint32_t value) {
  a_->Write(pe, addr, value);
  b_->Write(pe, addr, value);
}

void CosimMachine::PortWrite(fabric::Coord pe, uint16_t addr, uint32_t value) {
  a_->PortWrite(pe, addr, value);
  b_->PortWrite(pe, addr, value);
}

namespace {
uint32_t Agree(machine::Machine& a, uint32_t va, machine::Machine& b, uint32_t vb, fabric::Coord pe,
               uint16_t addr) {
  if (va != vb)
    throw CosimMismatch(
        fmt::format("cosim: PE({},{}) address 0x{:04x} reads 0x{:08x} on {} but 0x{:08x} on {}",
                    pe.x, pe.y, addr, va, a.Name(), vb, b.Name()));
  return va;
}
}  // namespace

uint32_t CosimMachine::Read(fabric::Coord pe, uint16_t addr) {
  const uint32_t va = a_->Read(pe, addr);
  return Agree(*a_, va, *b_, b_->Read(pe, addr), pe, addr);
}

uint32_t CosimMachine::PortRead(fabric::Coord pe, uint16_t addr) {
  const uint32_t va = a_->PortRead(pe, addr);
  return Agree(*a_, va, *b_, b_->PortRead(pe, addr), pe, addr);
}

uint64_t CosimMachine::Run(uint64_t cycles) {
  const uint64_t sa = a_->Run(cycles);
  const uint64_t sb = b_->Run(cycles);
  Compare(sa, sb, nullptr, nullptr);
  return sa;
}

uint64_t CosimMachine::Step(std::vector<fabric::PeEvents>& events) {
  const uint64_t cycle = a_->Step(events);
  b_->Step(events_b_);
  if (lockstep_) {
    const int pe = a_->Fabric().Index(*lockstep_);
    Found(CompareLockstep(*a_, *b_, *lockstep_, cycle, events[pe], events_b_[pe]));
  }
  Compare(1, 1, &events, &events_b_);
  return cycle;
}

void CosimMachine::Compare(uint64_t stepped_a, uint64_t stepped_b,
                           const std::vector<fabric::PeEvents>* events_a,
                           const std::vector<fabric::PeEvents>* events_b) {
  machine::Machine* m[2] = {a_.get(), b_.get()};
  const std::vector<fabric::PeEvents>* events[2] = {events_a, events_b};
  std::vector<ce::DebugRecord> debug[2];
  std::vector<machine::TaskStart> tasks[2];
  std::vector<fabric::LinkEvent> links[2];
  for (int i = 0; i < 2; ++i) {
    if (events[i]) {  // one cycle, PEs in index order: already in (cycle, y, x) order
      const fabric::Fabric& f = m[i]->Fabric();
      const uint64_t cycle = m[i]->Cycle() - 1;
      for (size_t pe = 0; pe < events[i]->size(); ++pe) {
        const fabric::PeEvents& e = (*events[i])[pe];
        debug[i].insert(debug[i].end(), e.debug.begin(), e.debug.end());
        if (e.task_start) tasks[i].push_back({cycle, f.At(static_cast<int>(pe)), e.task});
      }
    } else {
      debug[i] = m[i]->TakeDebug();
      tasks[i] = m[i]->TakeTaskLog();
    }
    links[i] = m[i]->TakeLinkLog();
  }
  if (hand_out_links_) links_.insert(links_.end(), links[0].begin(), links[0].end());
  if (difference_.empty()) {
    // Of every kind of difference, the one with the earliest cycle: the likeliest cause.
    const std::string na = a_->Name(), nb = b_->Name();
    uint64_t compared = 0;
    const std::optional<Mismatch> first = Earliest({
        CompareLinks(std::move(links[0]), std::move(links[1]), a_->Fabric(), b_->Fabric(), na, nb,
                     &compared),
        CompareDebug(debug[0], debug[1], na, nb),
        CompareTasks(tasks[0], tasks[1], na, nb),
        CompareFaults(a_->Fabric().Faults(), b_->Fabric().Faults(), na, nb),
    });
    compared_ += compared;
    if (first) Found(first->message);
  }
  if (difference_.empty())
    if (auto stop = CompareStops(*a_, stepped_a, *b_, stepped_b)) Found(stop->message);
  if (!events_a) {  // a step's records are in its events, not taken again
    debug_.insert(debug_.end(), debug[0].begin(), debug[0].end());
    tasks_.insert(tasks_.end(), tasks[0].begin(), tasks[0].end());
  }
}

std::vector<ce::DebugRecord> CosimMachine::TakeDebug() {
  std::vector<ce::DebugRecord> out;
  out.swap(debug_);
  return out;
}

void CosimMachine::SetTaskLog(bool on) {
  a_->SetTaskLog(on);
  b_->SetTaskLog(on);
}

std::vector<machine::TaskStart> CosimMachine::TakeTaskLog() {
  std::vector<machine::TaskStart> out;
  out.swap(tasks_);
  return out;
}

std::vector<fabric::LinkEvent> CosimMachine::TakeLinkLog() {
  std::vector<fabric::LinkEvent> out;
  out.swap(links_);
  return out;
}

void CosimMachine::ForEachFabric(const std::function<void(fabric::Fabric&)>& fn) {
  a_->ForEachFabric(fn);
  b_->ForEachFabric(fn);
}

machine::Machine::Agreement CosimMachine::TakeAgreement(bool at_end) {
  if (at_end && difference_.empty()) {
    Found(CompareState(*a_, *b_));
    if (auto diff = BackPressureMismatch(a_->Fabric(), b_->Fabric())) Found(*diff);
  }
  Agreement out{std::move(difference_), compared_};
  difference_.clear();
  compared_ = 0;
  return out;
}

std::vector<std::string> CosimMachine::Close() {
  std::vector<std::string> files = a_->Close();
  for (std::string& f : b_->Close()) files.push_back(std::move(f));
  return files;
}

std::unique_ptr<machine::Machine> MakeCosimMachine(std::unique_ptr<machine::Machine> a,
                                                   std::unique_ptr<machine::Machine> b,
                                                   std::optional<fabric::Coord> lockstep) {
  return std::make_unique<CosimMachine>(std::move(a), std::move(b), lockstep);
}

}  // namespace tessera::cosim
