// One backend under the host runtime (docs/runtime.md): a fabric of full PEs, each with its
// compute engine, reached through the host's back door and stepped in runs. FuncMachine holds the
// functional model (compute engines on a FuncFabric); RtlMachine holds verilated tiles of full PEs
// joined by SystemC (or by the plain loop), and reaches them through the fabric's TLM-2.0 target
// socket; co-simulation (cosim/cosim_machine.h) is a machine made of two that must agree. The
// Device (runtime/device.h) holds one machine; the machines only adapt, every host rule (memcpy,
// launch, run, diagnosis) lives in the Device.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arch/arch.h"
#include "ce/trace.h"
#include "fabric/fabric.h"
#include "fabric/pe_events.h"
#include "fabric/task_start.h"

namespace tessera::machine {

using fabric::TaskStart;  // a PE's compute engine started a task (model/fabric/task_start.h)

// A PE's register files, as co-simulation compares them between cycles.
struct CoreRegs {
  std::array<uint32_t, arch::kNumGprs> gpr{};
  std::array<uint64_t, arch::kNumDsrs> dsr{};
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

  // Lockstep: steps exactly one cycle (SetStopWhenQuiescent does not apply) and fills events[i]
  // (resized to the PE count, index y * Width() + x) with what PE i did in it and its flags after
  // it. The cycle's debug records and task starts are taken: TakeDebug and TakeTaskLog do not
  // return them again. Wavelets stay in the link log (Fabric().TakeLinkLog()). Returns the cycle
  // stepped (Cycle() - 1 afterwards).
  virtual uint64_t Step(std::vector<fabric::PeEvents>& events) = 0;

  // State between cycles, for comparators. The defaults go through Read (the back door);
  // backends override them with faster paths that read the same values. Without `dsrs`, only
  // the GPRs are read (out.dsr is left as it is).
  virtual void ReadCore(fabric::Coord pe, CoreRegs& out, bool dsrs = true);
  // n bytes of SRAM from addr (addr + n <= arch::kSramBytes).
  virtual void ReadSram(fabric::Coord pe, uint16_t addr, uint8_t* out, size_t n);

  // Debug-port records since the last call, Char stores joined into lines, in (cycle, y, x)
  // order.
  virtual std::vector<ce::DebugRecord> TakeDebug() = 0;
  // Task starts since the last call (kept only while the log is on), in (cycle, y, x) order.
  virtual void SetTaskLog(bool on) = 0;
  virtual std::vector<TaskStart> TakeTaskLog() = 0;
  // Instructions the PE's compute engine issued since the machine was made.
  virtual uint64_t Retired(fabric::Coord pe) = 0;

  // Ends the machine's run: closes its waves and writes their GTKWave save file (RTL with
  // waves); returns the files written. The machine takes no further calls.
  virtual std::vector<std::string> Close() { return {}; }

  // ---- Machines made of others (co-simulation): the defaults are a single machine's ----
  // Applies fn to every fabric the machine runs (co-simulation: each part's), to configure them
  // alike: stopping when quiescent, back-pressure counting, the host's edge endpoints.
  virtual void ForEachFabric(const std::function<void(fabric::Fabric&)>& fn) { fn(Fabric()); }
  // The machines it is made of (a single machine: itself), for tools that address one backend.
  virtual std::vector<Machine*> Parts() { return {this}; }
  // Whether every fabric it runs is quiescent (fabric::Fabric::Quiescent).
  virtual bool Quiescent() { return Fabric().Quiescent(); }
  // Whether every fabric it runs is settled (fabric::Fabric::Settled).
  virtual bool Settled() { return Fabric().Settled(); }
  // The link log (fabric::Fabric::SetLinkLog, TakeLinkLog): the wavelets that crossed links since
  // the last call, in the order the fabric logs them.
  virtual void SetLinkLog(bool on) { Fabric().SetLinkLog(on); }
  virtual std::vector<fabric::LinkEvent> TakeLinkLog() { return Fabric().TakeLinkLog(); }
  // What a machine made of others found since the last call: the first difference between its
  // parts in words (empty: they agree so far), and the link crossings it compared. `at_end`: the
  // run is over, so their end states are compared too.
  struct Agreement {
    std::string difference;
    uint64_t link_wavelets = 0;
  };
  virtual Agreement TakeAgreement(bool at_end) { return {}; }
};

struct RtlMachineOptions {
  int width = 1, height = 1;
  std::pair<int, int> tile{1, 1};  // PEs per tile
  bool systemc = true;             // the SystemC glue and its TLM socket; false: the plain loop
  bool clock_idle_tiles = false;   // evaluate idle tiles too (rtl::RtlFabricOptions)
  bool eval_input_region = false;  // every region of every evaluation (rtl::RtlFabricOptions)
  int threads = 1;                 // > 1: the plain loop, stepping tiles on that many threads
  std::string wave_path;           // FST; empty: no waves
  uint64_t wave_from = 0, wave_to = UINT64_MAX;
  int wave_x0 = 0, wave_y0 = 0, wave_x1 = -1, wave_y1 = -1;
  // The PeCoord of PE(0,0) (rtl::RtlFabricOptions::pe_x0, pe_y0): the CE tests' twin is PE(3,2).
  fabric::Coord pe_origin{0, 0};
};

// `threads`: host threads stepping the compute engines (FuncFabric::SetThreads); `run_ahead`:
// compute engines may run ahead of the fabric (FuncFabric::SetRunAhead).
std::unique_ptr<Machine> MakeFuncMachine(int width, int height, std::pair<int, int> port_tile,
                                         int threads = 1, bool run_ahead = true);
// Throws std::invalid_argument naming the option if the tile shape was not built or does not
// divide the fabric, or (systemc) if this process already elaborated a SystemC fabric.
std::unique_ptr<Machine> MakeRtlMachine(const RtlMachineOptions& opt);

// Sorts debug records and task starts into the order the machines promise.
void SortByCyclePe(std::vector<ce::DebugRecord>& v);
void SortByCyclePe(std::vector<TaskStart>& v);

}  // namespace tessera::machine
