// One backend under the host runtime (docs/runtime.md): a fabric of full PEs, each with its
// compute engine, reached through the host's back door and stepped in runs. FuncMachine holds the
// functional model (compute engines on a FuncFabric); RtlMachine holds verilated tiles of full PEs
// joined by SystemC (or by the plain loop), and reaches them through the fabric's TLM-2.0 target
// socket. The Device (device.h) holds one machine, or two for co-simulation; the machines only
// adapt, every host rule (memcpy, launch, run, diagnosis) lives in the Device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ce/trace.h"
#include "fabric/fabric.h"

namespace tessera::runtime {

struct TaskStart {  // a PE's compute engine started a task
  uint64_t cycle = 0;
  fabric::Coord pe;
  int task = 0;
  bool operator==(const TaskStart& o) const {
    return cycle == o.cycle && pe == o.pe && task == o.task;
  }
};

struct Retire {  // the watched PE issued the instruction at pc (lockstep)
  uint64_t cycle = 0;
  uint16_t pc = 0;
};

class Machine {
 public:
  virtual ~Machine() = default;
  virtual std::string Name() const = 0;  // "func" or "rtl", as reports name the backend
  virtual fabric::Fabric& Fabric() = 0;
  int Width() { return Fabric().Width(); }
  int Height() { return Fabric().Height(); }
  uint64_t Cycle() { return Fabric().Cycle(); }

  // The host's back door, zero simulated time: a 32-bit word of SRAM (aligned, below 0xC000) or
  // a memory-mapped register (docs/isa.md 3.2).
  virtual void Write(fabric::Coord pe, uint16_t addr, uint32_t value) = 0;
  virtual uint32_t Read(fabric::Coord pe, uint16_t addr) = 0;
  // The host port (docs/runtime.md "Host port"): the same access made while the fabric runs,
  // between two cycles. The RTL machine goes through its TLM socket's b_transport.
  virtual void PortWrite(fabric::Coord pe, uint16_t addr, uint32_t value) {
    Write(pe, addr, value);
  }
  virtual uint32_t PortRead(fabric::Coord pe, uint16_t addr) { return Read(pe, addr); }
  // The host port that serves a PE: one per tile (the functional model counts in the RTL's tiles
  // so that both backends account the same cycles).
  virtual int PortOf(fabric::Coord pe) = 0;

  // Steps up to `cycles` cycles; stops early after a cycle in which a PE faulted, or after
  // which the fabric is quiescent if its SetStopWhenQuiescent is on. Returns the cycles stepped.
  virtual uint64_t Run(uint64_t cycles) = 0;

  // Debug-port records since the last call, Char stores joined into lines, in (cycle, y, x)
  // order.
  virtual std::vector<ce::DebugRecord> TakeDebug() = 0;
  // Task starts since the last call (kept only while the log is on), in (cycle, y, x) order.
  virtual void SetTaskLog(bool on) = 0;
  virtual std::vector<TaskStart> TakeTaskLog() = 0;
  // Instructions the PE's compute engine issued since the machine was made.
  virtual uint64_t Retired(fabric::Coord pe) = 0;
  // Lockstep: the retired instructions of one PE since the last call (watch one PE at a time;
  // the functional model traces that PE only).
  virtual void Watch(fabric::Coord pe) = 0;
  virtual std::vector<Retire> TakeRetires() = 0;

  // Ends the machine's run: closes its waves and writes their GTKWave save file (RTL with
  // waves); returns the files written. The machine takes no further calls.
  virtual std::vector<std::string> Close() { return {}; }
};

struct RtlMachineOptions {
  int width = 1, height = 1;
  std::pair<int, int> tile{1, 1};  // PEs per tile
  bool systemc = true;             // the SystemC glue and its TLM socket; false: the plain loop
  std::string wave_path;           // FST; empty: no waves
  uint64_t wave_from = 0, wave_to = UINT64_MAX;
  int wave_x0 = 0, wave_y0 = 0, wave_x1 = -1, wave_y1 = -1;
};

std::unique_ptr<Machine> MakeFuncMachine(int width, int height, std::pair<int, int> port_tile);
// Throws std::invalid_argument naming the option if the tile shape was not built or does not
// divide the fabric, or (systemc) if this process already elaborated a SystemC fabric.
std::unique_ptr<Machine> MakeRtlMachine(const RtlMachineOptions& opt);

// Sorts debug records and task starts into the order the machines promise.
void SortByCyclePe(std::vector<ce::DebugRecord>& v);
void SortByCyclePe(std::vector<TaskStart>& v);

}  // namespace tessera::runtime
