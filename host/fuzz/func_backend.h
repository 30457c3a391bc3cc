// The functional model as a lockstep backend: compute engines (model/ce) on a FuncFabric of
// W x H PEs, stepped one cycle at a time; events come from each CE's trace records.
#pragma once

#include <memory>
#include <vector>

#include "ce/ce.h"
#include "ce/ce_endpoint.h"
#include "func/func_fabric.h"
#include "fuzz/backend.h"

namespace tessera::fuzz {

class FuncBackend final : public Backend {
 public:
  explicit FuncBackend(int width = 1, int height = 1);
  ~FuncBackend() override;

  std::string Name() const override { return "func"; }
  int Width() const override { return fab_.Width(); }
  int Height() const override { return fab_.Height(); }
  void Load(int pe, const assembler::PeProgram& program) override;
  void Launch(int pe, int task) override;
  void Step(std::vector<PeEvents>& events) override;
  uint64_t Cycle() const override { return fab_.Cycle(); }
  fabric::Fabric* LinkFabric() override { return &fab_; }
  bool Faulted(int pe) override;
  bool Quiet(int pe) override { return ces_[pe]->Quiet(); }
  void ReadCore(int pe, CoreRegs& out) override;
  uint32_t ReadReg(int pe, uint16_t addr) override { return ces_[pe]->HostRead(addr); }
  void ReadSram(int pe, uint16_t addr, uint8_t* out, size_t n) override {
    ces_[pe]->HostReadSram(addr, out, n);
  }
  void WriteReg(int pe, uint16_t addr, uint32_t value) override {
    ces_[pe]->HostWrite(addr, value);
  }

  // The model itself, for tests that change its state on purpose.
  ce::Ce& CeOf(int pe) { return *ces_[pe]; }

 private:
  class Sink;
  func::FuncFabric fab_;
  std::vector<std::unique_ptr<ce::Ce>> ces_;
  std::vector<std::unique_ptr<ce::CeEndpoint>> endpoints_;
  std::vector<std::unique_ptr<Sink>> sinks_;
};

}  // namespace tessera::fuzz
