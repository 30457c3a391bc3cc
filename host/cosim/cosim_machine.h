// Co-simulation as a machine (docs/runtime.md, "Co-simulation"): two machines that run the same
// program on the same inputs and must agree, behind the one Machine interface the runtime uses.
// Every host write goes to both; every host read comes from both and must agree (else
// CosimMismatch). Each run or step runs both, then compares what they produced: the wavelets on
// every link both observe, the debug records, the task starts and the faults (the earliest
// difference of these), and where each stopped; with `lockstep`, every retired instruction of one
// PE as it happens; at the end of a run (TakeAgreement(true)), the end state of every PE and, if
// counted, the back pressure. The first machine is the reference: its fabric, its records, its
// events are the co-simulation's.
//
// The runtime (runtime/device.h) makes one for --backend cosim; it never looks inside.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "machine/machine.h"

namespace tessera::cosim {

// The two machines disagree outside a run: a host read (memcpy_d2h, a back-door word) whose
// words differ. The message names the PE, the address and both values.
class CosimMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CosimMachine final : public machine::Machine {
 public:
  // `a` is the reference, `b` the machine compared with it; both of the same shape.
  CosimMachine(std::unique_ptr<Machine> a, std::unique_ptr<Machine> b,
               std::optional<fabric::Coord> lockstep = std::nullopt);

  std::string Name() const override { return "cosim"; }
  fabric::Fabric& Fabric() override { return a_->Fabric(); }

  void Write(fabric::Coord pe, uint16_t addr, uint32_t value) override;
  uint32_t Read(fabric::Coord pe, uint16_t addr) override;
  void PortWrite(fabric::Coord pe, uint16_t addr, uint32_t value) override;
  uint32_t PortRead(fabric::Coord pe, uint16_t addr) override;
  int PortOf(fabric::Coord pe) override { return a_->PortOf(pe); }

  uint64_t Run(uint64_t cycles) override;
  uint64_t Step(std::vector<fabric::PeEvents>& events) override;

  void ReadCore(fabric::Coord pe, machine::CoreRegs& out, bool dsrs = true) override {
    a_->ReadCore(pe, out, dsrs);
  }
  void ReadSram(fabric::Coord pe, uint16_t addr, uint8_t* out, size_t n) override {
    a_->ReadSram(pe, addr, out, n);
  }
  std::vector<ce::DebugRecord> TakeDebug() override;
  void SetTaskLog(bool on) override;
  std::vector<machine::TaskStart> TakeTaskLog() override;
  uint64_t Retired(fabric::Coord pe) override { return a_->Retired(pe); }
  std::vector<std::string> Close() override;

  void ForEachFabric(const std::function<void(fabric::Fabric&)>& fn) override;
  std::vector<Machine*> Parts() override { return {a_.get(), b_.get()}; }
  bool Quiescent() override { return a_->Quiescent() && b_->Quiescent(); }
  bool Settled() override { return a_->Settled() && b_->Settled(); }
  void SetLinkLog(bool on) override { hand_out_links_ = on; }
  std::vector<fabric::LinkEvent> TakeLinkLog() override;
  Agreement TakeAgreement(bool at_end) override;

 private:
  // After a run or step: takes what both produced (debug and tasks from the step's events if
  // given), compares it, keeps the reference's for the host, and checks where both stopped.
  void Compare(uint64_t stepped_a, uint64_t stepped_b,
               const std::vector<fabric::PeEvents>* events_a,
               const std::vector<fabric::PeEvents>* events_b);
  void Found(const std::string& difference) {
    if (difference_.empty()) difference_ = difference;
  }

  std::unique_ptr<Machine> a_, b_;
  std::optional<fabric::Coord> lockstep_;
  std::vector<fabric::PeEvents> events_b_;  // b's events of a Step
  // The reference's records of the runs since the host last took them.
  std::vector<ce::DebugRecord> debug_;
  std::vector<machine::TaskStart> tasks_;
  std::vector<fabric::LinkEvent> links_;
  bool hand_out_links_ = false;
  std::string difference_;  // the first, until TakeAgreement
  uint64_t compared_ = 0;   // link crossings compared, until TakeAgreement
};

// A co-simulation of a and b (a the reference), as a machine.
std::unique_ptr<machine::Machine> MakeCosimMachine(
    std::unique_ptr<machine::Machine> a, std::unique_ptr<machine::Machine> b,
    std::optional<fabric::Coord> lockstep = std::nullopt);

}  // namespace tessera::cosim
