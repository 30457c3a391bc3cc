// What the lockstep comparator (lockstep.h) needs of a backend: PEs that step one cycle at a
// time and report what each compute engine did in that cycle, with architectural state readable
// between cycles. PE index y * Width() + x. FuncBackend: compute engines on a FuncFabric of any
// shape; RtlBackend: one verilated PE; RtlFabricBackend: an RTL fabric of tiles of full PEs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "asm/link.h"
#include "ce/trace.h"
#include "fabric/fabric.h"

namespace tessera::fuzz {

// What one PE's compute engine did in one cycle.
struct PeEvents {
  bool retire = false;  // an instruction issued
  uint16_t retire_pc = 0;
  bool task_start = false;  // the picker started a task
  uint8_t task = 0;
  std::vector<ce::DebugRecord> debug;  // debug records completed in the cycle (Char: whole lines)
  // SRAM words the backend knows were written in the cycle (word addresses): hints that let the
  // comparator check a store's memory at once; a backend may leave it empty.
  std::vector<uint16_t> sram_writes;
  // The retired instruction wrote a descriptor register (a hint, like sram_writes): with
  // RunOptions::regs_on_retire the comparator reads the DSRs only after such a cycle.
  bool dsr_write = false;

  void Clear() {
    retire = task_start = dsr_write = false;
    debug.clear();
    sram_writes.clear();
  }
};

// The register files, compared after every cycle.
struct CoreRegs {
  std::array<uint32_t, arch::kNumGprs> gpr{};
  std::array<uint64_t, arch::kNumDsrs> dsr{};
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string Name() const = 0;  // "func", "rtl": how reports name the backend
  virtual int Width() const = 0;
  virtual int Height() const = 0;
  int NumPes() const { return Width() * Height(); }
  fabric::Coord Coord(int pe) const { return {pe % Width(), pe / Width()}; }

  // Loading, in zero simulated time before the first Step: the SRAM image and task bindings of
  // one PE, then the host's launch of a local task.
  virtual void Load(int pe, const assembler::PeProgram& program) = 0;
  virtual void Launch(int pe, int task) = 0;

  // Steps every PE one cycle; events[pe] (resized to NumPes()) receives what PE pe did.
  virtual void Step(std::vector<PeEvents>& events) = 0;
  virtual uint64_t Cycle() const = 0;  // cycles stepped since reset

  // State between cycles.
  virtual bool Faulted(int pe) = 0;  // the PE's fault flag: a CE fault or a routing fault
  virtual bool Quiet(int pe) = 0;    // CeStatus.Quiet
  virtual void ReadCore(int pe, CoreRegs& out) = 0;
  // The GPRs only (out.dsr left as it is), for backends whose register reads are slow.
  virtual void ReadGprs(int pe, CoreRegs& out) { ReadCore(pe, out); }
  virtual uint32_t ReadReg(int pe, uint16_t addr) = 0;  // the host back door (0xC000 and up)
  virtual void ReadSram(int pe, uint16_t addr, uint8_t* out, size_t n) = 0;
  // The host back door's register writes, before the first Step (FabricDim at load).
  virtual void WriteReg(int pe, uint16_t addr, uint32_t value) = 0;
  // The fabric whose link log (fabric::Fabric::SetLinkLog) the comparator checks after every
  // cycle; nullptr for a backend without one (a single verilated PE).
  virtual fabric::Fabric* LinkFabric() { return nullptr; }
};

}  // namespace tessera::fuzz
