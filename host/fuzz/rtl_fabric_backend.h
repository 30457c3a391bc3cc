// An RTL fabric of full PEs as a lockstep backend: verilated tiles of PEs with their compute
// engines (Vtile_ce_*), joined by the plain loop (rtl::LoopRtlFabric), stepped one cycle at a
// time. Events come from the tiles' retire, task-start and debug ports; every register, the
// register files (the Gpr and Dsr windows) and SRAM are read through the host back door, which
// costs two evaluations of the tile per word, a fifth of a cycle: the comparator reads the GPRs
// only after a retire, the DSRs only after a DSR write (RunOptions::regs_on_retire).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/backend.h"
#include "rtl/rtl_fabric.h"

namespace tessera::fuzz {

class RtlFabricBackend final : public Backend {
 public:
  // Tiles of TW x TH full PEs; throws std::invalid_argument (naming the built shapes) if that
  // shape was not verilated or does not divide the fabric.
  RtlFabricBackend(int width, int height, std::pair<int, int> tile);

  // The options of such a fabric, checked as the constructor checks them (throws the same).
  static rtl::RtlFabricOptions Options(int width, int height, std::pair<int, int> tile);
  // The largest verilated full-PE tile shape that divides a W x H fabric; throws
  // std::invalid_argument naming the built shapes if none does.
  static std::pair<int, int> TileFor(int width, int height);

  std::string Name() const override { return "rtl"; }
  int Width() const override { return fab_.Width(); }
  int Height() const override { return fab_.Height(); }
  void Load(int pe, const assembler::PeProgram& program) override;
  void Launch(int pe, int task) override;
  void Step(std::vector<PeEvents>& events) override;
  uint64_t Cycle() const override { return fab_.Cycle(); }
  fabric::Fabric* LinkFabric() override { return &fab_; }
  bool Faulted(int pe) override { return faulted_[pe]; }
  bool Quiet(int pe) override;
  void ReadCore(int pe, CoreRegs& out) override;
  void ReadGprs(int pe, CoreRegs& out) override;
  uint32_t ReadReg(int pe, uint16_t addr) override { return fab_.ReadReg(Coord(pe), addr); }
  void ReadSram(int pe, uint16_t addr, uint8_t* out, size_t n) override;
  void WriteReg(int pe, uint16_t addr, uint32_t value) override {
    fab_.WriteReg(Coord(pe), addr, value);
  }

 private:
  rtl::LoopRtlFabric fab_;
  std::vector<std::string> char_lines_;  // per PE: DebugFmt Char bytes up to the next '\n'
  std::vector<bool> faulted_;            // per PE, after the last cycle stepped
  std::vector<int> quiet_;               // per PE: CeStatus.Quiet after the last cycle, -1 unread
};

}  // namespace tessera::fuzz
