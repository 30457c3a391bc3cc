// The functional model as a runtime machine: a compute engine per PE on a FuncFabric. Public so
// that tests can reach a CE to change its state on purpose.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ce/ce.h"
#include "ce/ce_endpoint.h"
#include "func/func_fabric.h"
#include "machine/machine.h"
#include "util/lazy_arena.h"

namespace tessera::machine {

class FuncMachine final : public Machine {
 public:
  FuncMachine(int width, int height, std::pair<int, int> port_tile);
  ~FuncMachine() override;

  // "func" (every path), "func-step" (none: SetRunAhead(false)), else what differs, such as
  // "func (no bulk, traced)".
  std::string Name() const override;
  fabric::Fabric& Fabric() override { return fab_; }
  void SetThreads(int threads) {
    threads_ = threads;
    fab_.SetThreads(threads);
  }
  // Off: every compute engine through its whole cycle model, every cycle it acts, and the fabric
  // stepping every cycle.
  void SetRunAhead(bool on);
  // The compute engines' drivers (ce::Ce::FastPaths); the fabric skips idle cycles and gives
  // horizons while `ahead` is on.
  void SetFastPaths(ce::Ce::FastPaths paths);
  // Every compute engine through its traced cycle model, every cycle (trace records to no one
  // unless SetTraceSink or Step listens).
  void SetTraced();
  void Write(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    CeOf(pe).HostWrite(addr, value);
  }
  uint32_t Read(fabric::Coord pe, uint16_t addr) override {
    // CycleLo: the fabric's cycle, as on the RTL. An engine the fabric did not need to step
    // since its last tick (idle, waiting) is at that cycle too, though it last stepped earlier.
    if (addr == arch::CycleLo::kAddr) {
      CeOf(pe);  // checks the coordinates
      return static_cast<uint32_t>(fab_.Cycle());
    }
    return CeOf(pe).HostRead(addr);
  }
  int PortOf(fabric::Coord pe) override;
  uint64_t Run(uint64_t cycles) override { return fab_.Run(cycles); }
  std::vector<ce::DebugRecord> TakeDebug() override;
  void SetTaskLog(bool on) override;
  std::vector<TaskStart> TakeTaskLog() override;
  uint64_t Retired(fabric::Coord pe) override { return CeOf(pe).Retired(); }
  uint64_t Step(std::vector<fabric::PeEvents>& events) override;
  void ReadCore(fabric::Coord pe, CoreRegs& out, bool dsrs = true) override;
  void ReadSram(fabric::Coord pe, uint16_t addr, uint8_t* out, size_t n) override;

  // The model of one PE, for tests that change its state on purpose.
  ce::Ce& CeOf(fabric::Coord pe) {
    fab_.CheckContains(pe);
    return *ces_[fab_.Index(pe)];
  }
  // `sink` also receives PE pe's trace records (nullptr: no longer). The machine owns the CEs'
  // trace sinks once Step was called: set a sink here, not on the CE.
  void SetTraceSink(fabric::Coord pe, ce::TraceSink* sink);

 private:
  class Sink;
  // Attaches PE i's sink to its CE (each CE traces only once something listens).
  void Attach(int i);
  func::FuncFabric fab_;
  std::unique_ptr<util::LazyArena> sram_;  // every CE's SRAM: only touched pages cost memory
  std::pair<int, int> port_tile_;
  std::vector<std::unique_ptr<ce::Ce>> ces_;
  ce::Ce::FastPaths paths_;
  bool fabric_ahead_ = true;
  bool traced_ = false;
  int threads_ = 1;
  std::vector<std::unique_ptr<ce::CeEndpoint>> endpoints_;
  std::vector<std::vector<ce::Ce::TaskStart>> task_logs_;
  std::vector<std::unique_ptr<Sink>> sinks_;  // per PE
};

}  // namespace tessera::machine
