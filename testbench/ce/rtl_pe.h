// One verilated PE with its compute engine (Vpe_ce: tessera_pe with HasCe = 1), edges tied off:
// the RTL side of the CE's directed tests and single-PE co-simulation. Loading and register
// access use the PE's register bus while the PE is frozen (zero simulated time).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::tb {

struct DebugRecord {
  uint64_t cycle = 0;
  int x = 0, y = 0;
  uint32_t value = 0;
  int fmt = 0;  // arch::DebugFmt
  bool operator==(const DebugRecord& o) const {
    return cycle == o.cycle && x == o.x && y == o.y && value == o.value && fmt == o.fmt;
  }
};

// What the CE did in one cycle, sampled before the clock edge (lockstep co-simulation).
struct CycleEvents {
  bool retire = false;  // an instruction issued
  uint16_t retire_pc = 0;
  bool task_start = false;  // the picker started a task
  int task = 0;
  bool debug = false;  // a debug-port store issued (also appended to Debug())
  int debug_fmt = 0;
  uint32_t debug_value = 0;
};

struct TaskBind {
  int id = 0;
  int kind = 0;  // arch::TaskKind
  uint16_t entry = 0;
};

class RtlPe {
 public:
  explicit RtlPe(int x = 0, int y = 0);
  ~RtlPe();
  RtlPe(const RtlPe&) = delete;
  RtlPe& operator=(const RtlPe&) = delete;

  // Back door: SRAM (addresses below 0xC000, word aligned) and registers; zero simulated time.
  void Write(uint16_t addr, uint32_t value);
  uint32_t Read(uint16_t addr);
  // Writes the image's nonzero words and binds the tasks.
  void Load(const std::vector<uint8_t>& sram, const std::vector<TaskBind>& tasks);
  void Activate(int task);  // TaskActiveSet, as the host's launch does
  // Writes SRAM straight into the model's array (verilator public), word by word: as Load's
  // back-door writes but without stepping the register bus, for loading many programs fast.
  void WriteSram(uint16_t addr, const uint8_t* bytes, size_t n);  // addr, n multiples of 4

  // Steps up to `cycles` cycles; stops early once the CE is quiet and the ramp has drained for
  // `quiet_cycles` consecutive cycles (0: never), or after a cycle with a fault. Returns the
  // number of cycles stepped.
  uint64_t Run(uint64_t cycles, int quiet_cycles = 0);
  // Steps exactly one cycle (the PE runs, en_i = 1, during it) and reports what the CE did.
  CycleEvents Step();
  uint64_t Cycle() const { return cycle_; }
  bool Faulted();
  bool Quiet();  // quiet_o: the CE is idle with nothing runnable, queued or owed

  // Architectural state read straight from the model (verilator public signals), at any time
  // between cycles: the register files and the SRAM array.
  uint32_t Gpr(int i) const;
  uint64_t Dsr(int i) const;
  void ReadSram(uint16_t addr, uint8_t* out, size_t n) const;  // addr + n <= kSramBytes
  const std::vector<DebugRecord>& Debug() const { return debug_; }

 private:
  void Edge();
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int x_, y_;
  uint64_t cycle_ = 0;
  std::vector<DebugRecord> debug_;
};

}  // namespace tessera::tb
