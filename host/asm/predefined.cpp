#include "asm/predefined.h"

#include <fmt/core.h>

#include <vector>

#include "arch/arch.h"

namespace tessera::assembler {
namespace {

struct RegInfo {
  const char* name;
  uint32_t addr, count, stride;
};

// Every `reg`, `const` and `enum` of tessera.def. A unit test reads tessera.def and checks that
// this list names all of them with the values of arch.h.
#define TESSERA_REG(N) \
  RegInfo { #N, arch::N::kAddr, arch::N::kCount, arch::N::kStride }
const std::vector<RegInfo>& Registers() {
  static const std::vector<RegInfo> regs = {
      TESSERA_REG(PeCoord),       TESSERA_REG(ColorCfg),      TESSERA_REG(SwitchCfg),
      TESSERA_REG(RouterFault),   TESSERA_REG(RouterInCount), TESSERA_REG(FabricDim),
      TESSERA_REG(CeStatus),      TESSERA_REG(CycleLo),       TESSERA_REG(CycleHi),
      TESSERA_REG(FpFlags),       TESSERA_REG(FaultStatus),   TESSERA_REG(FaultPc),
      TESSERA_REG(FaultAddr),     TESSERA_REG(FaultInfo),     TESSERA_REG(DebugPort),
      TESSERA_REG(CeColor),       TESSERA_REG(UtStatus),      TESSERA_REG(UtInfo),
      TESSERA_REG(TaskCfg),       TESSERA_REG(TaskArg),       TESSERA_REG(TaskActive),
      TESSERA_REG(TaskActiveSet), TESSERA_REG(TaskActiveClr), TESSERA_REG(TaskBlocked),
      TESSERA_REG(TaskBlockSet),  TESSERA_REG(TaskBlockClr),  TESSERA_REG(Gpr),
      TESSERA_REG(CePc),          TESSERA_REG(Dsr),           TESSERA_REG(PerfCount),
  };
  return regs;
}
#undef TESSERA_REG

template <typename E>
void AddEnum(std::map<std::string, Predefined>& m, const char* name, unsigned width) {
  for (uint32_t v = 0; v < (1u << width); ++v) {
    const std::string item = arch::ToString(static_cast<E>(v));
    if (item != "?") m[fmt::format("{}.{}", name, item)] = Predefined{v, "enum item"};
  }
}

std::map<std::string, Predefined> Build() {
  std::map<std::string, Predefined> m;
  for (const RegInfo& r : Registers()) m[r.name] = Predefined{r.addr, "register"};
#define TESSERA_CONST(N) m[#N] = Predefined{arch::k##N, "constant"};
  TESSERA_CONST(NumColors)
  TESSERA_CONST(ColorBits)
  TESSERA_CONST(NoColor)
  TESSERA_CONST(NumDirs)
  TESSERA_CONST(NumEdgeDirs)
  TESSERA_CONST(DataBits)
  TESSERA_CONST(WaveletBits)
  TESSERA_CONST(CtrlTaskLsb)
  TESSERA_CONST(CtrlTaskBits)
  TESSERA_CONST(NumTasks)
  TESSERA_CONST(RampLatency)
  TESSERA_CONST(LinkDepth)
  TESSERA_CONST(RampInDepth)
  TESSERA_CONST(RampOutCredits)
  TESSERA_CONST(NumSwitchPos)
  TESSERA_CONST(FmacLatency)
  TESSERA_CONST(F16Lanes)
  TESSERA_CONST(CanonicalNan32)
  TESSERA_CONST(CanonicalNan16)
  TESSERA_CONST(SramBytes)
  TESSERA_CONST(MmioBase)
  TESSERA_CONST(NumGprs)
  TESSERA_CONST(NumDsrs)
  TESSERA_CONST(NumMicrothreads)
  TESSERA_CONST(InsnBytes)
  TESSERA_CONST(DsdBytes)
  TESSERA_CONST(DsdLatency)
  TESSERA_CONST(DotPartials)
  TESSERA_CONST(UnboundedLength)
  TESSERA_CONST(NoTask)
  TESSERA_CONST(CeInDepth)
  TESSERA_CONST(SramBanks)
  TESSERA_CONST(NumDebugFmts)
#undef TESSERA_CONST
#define TESSERA_ENUM(N) AddEnum<arch::N>(m, #N, arch::k##N##Width);
  TESSERA_ENUM(Dir)
  TESSERA_ENUM(FaultCause)
  TESSERA_ENUM(FpOp)
  TESSERA_ENUM(FpFmt)
  TESSERA_ENUM(FpFlag)
  TESSERA_ENUM(TaskKind)
  TESSERA_ENUM(DsdKind)
  TESSERA_ENUM(DsdWhy)
  TESSERA_ENUM(ElemType)
  TESSERA_ENUM(DsdRole)
  TESSERA_ENUM(AccSize)
  TESSERA_ENUM(DebugFmt)
  TESSERA_ENUM(CeStall)
  TESSERA_ENUM(UtWait)
  TESSERA_ENUM(PerfEvent)
  TESSERA_ENUM(CeFault)
#undef TESSERA_ENUM
  // A control wavelet's payload that names no task (docs/isa.md 4.10).
  m["CtrlNone"] = Predefined{int64_t(arch::kNoTask) << arch::kCtrlTaskLsb, "constant"};
  return m;
}

}  // namespace

const std::map<std::string, Predefined>& PredefinedSymbols() {
  static const std::map<std::string, Predefined> symbols = Build();
  return symbols;
}

std::string RegisterName(uint32_t address) {
  for (const RegInfo& r : Registers()) {
    if (address < r.addr || address >= r.addr + r.count * r.stride) continue;
    const uint32_t delta = address - r.addr;
    if (delta % 4 != 0) return "";
    return delta == 0 ? r.name : fmt::format("{}+{}", r.name, delta);
  }
  return "";
}

}  // namespace tessera::assembler
