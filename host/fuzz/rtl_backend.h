// The RTL as a lockstep backend: one verilated PE with its compute engine (tb::RtlPe, Vpe_ce),
// stepped one cycle at a time; events from its retire, task-start and debug ports, the register
// files and SRAM read from the model. Fabrics of full PEs: rtl_fabric_backend.h.
#pragma once

#include <string>

#include "ce/rtl_pe.h"
#include "fuzz/backend.h"

namespace tessera::fuzz {

class RtlBackend final : public Backend {
 public:
  RtlBackend() = default;

  std::string Name() const override { return "rtl"; }
  int Width() const override { return 1; }
  int Height() const override { return 1; }
  void Load(int pe, const assembler::PeProgram& program) override;
  void Launch(int pe, int task) override { pe_.Activate(task); }
  void Step(std::vector<PeEvents>& events) override;
  uint64_t Cycle() const override { return pe_.Cycle(); }
  bool Faulted(int pe) override { return pe_.Faulted(); }
  bool Quiet(int pe) override { return pe_.Quiet(); }
  void ReadCore(int pe, CoreRegs& out) override;
  uint32_t ReadReg(int pe, uint16_t addr) override { return pe_.Read(addr); }
  void ReadSram(int pe, uint16_t addr, uint8_t* out, size_t n) override {
    pe_.ReadSram(addr, out, n);
  }
  void WriteReg(int pe, uint16_t addr, uint32_t value) override { pe_.Write(addr, value); }

 private:
  tb::RtlPe pe_;
  std::string char_line_;  // DebugFmt Char: bytes up to the next '\n', as the host keeps them
};

}  // namespace tessera::fuzz
