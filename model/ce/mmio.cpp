#include "ce/mmio.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <stdexcept>

#include "arch/arch.h"
#include "ce/ce.h"

namespace tessera::ce {
namespace {

// One entry per word of 0xC000..0xFFFF.
struct Map {
  std::array<RegRef, 0x4000 / 4> at{};
  Map() {
    for (const arch::RegInfo& d : arch::kRegisters) {
      for (uint32_t i = 0; i < d.count; ++i) {
        RegRef& r = at[(d.addr + i * d.stride - arch::kMmioBase) / 4];
        r.id = d.id;
        r.index = static_cast<uint8_t>(i);
        r.access = d.last_ro && i + 1 == d.count ? RegAccess::kRO : d.access;
        r.name = d.name;
      }
    }
  }
};

const Map& TheMap() {
  static const Map m;
  return m;
}

}  // namespace

RegRef FindReg(uint16_t addr) {
  if (addr < arch::kMmioBase || addr % 4 != 0) return {};
  return TheMap().at[(addr - arch::kMmioBase) / 4];
}

std::string RegName(const RegRef& r) {
  if (!r.valid()) return "?";
  return arch::Info(r.id).count > 1 ? fmt::format("{}[{}]", r.name, r.index) : std::string(r.name);
}

const std::vector<ComparedReg>& ComparedRegs() {
  static const std::vector<ComparedReg> regs = [] {
    std::vector<ComparedReg> v;
    for (const arch::RegInfo& d : arch::kRegisters) {
      if (!d.compared) continue;
      for (uint32_t i = 0; i < d.count; ++i) {
        const auto addr = static_cast<uint16_t>(d.addr + i * d.stride);
        v.push_back({addr, RegName(FindReg(addr))});
      }
    }
    return v;
  }();
  return regs;
}

// ---------------------------------------------------------------------------------------------
// Register access by the CE and the host (docs/isa.md 3.2)

uint32_t Ce::UtStatusWord(int u) const {
  using U = arch::UtStatus;
  const Microthread& m = st_.ut[u];
  if (!m.busy) return 0;
  uint32_t v = U::WithBusy(0, 1);
  v = U::WithSync(v, m.sync);
  v = U::WithWait(v, m.wait);
  v = U::WithOpcode(v, m.word & 0x7F);
  return U::WithDone(v, static_cast<uint32_t>(m.i & 0x7FFF));
}

uint32_t Ce::UtInfoWord(int u) const {
  using U = arch::UtInfo;
  const Microthread& m = st_.ut[u];
  if (!m.busy) return 0;
  uint32_t v = U::WithPc(0, m.pc);
  v = U::WithColor(v, m.wait_color);
  v = U::WithTid(v, m.tid);
  return U::WithUnblock(v, m.unblock);
}

uint32_t Ce::CeColorWord(int c) const {
  using C = arch::CeColor;
  const InQueue& q = st_.inq[c];
  uint32_t v = C::WithInCount(0, q.count);
  v = C::WithHeadCtrl(v, st_.head_ctrl >> c & 1);
  v = C::WithReader(v, Readers() >> c & 1);
  return C::WithOutCredits(v, st_.out_credits[c]);
}

void Ce::SetTaskCfg(int t, uint32_t value) {
  st_.task_entry[t] = static_cast<uint16_t>(arch::TaskCfg::Entry(value));
  st_.task_kind[t] = static_cast<uint8_t>(arch::TaskCfg::Kind(value));
  data_tasks_ = lc_tasks_ = 0;
  for (int k = 0; k < kNoTask; ++k) {
    const auto kind = static_cast<arch::TaskKind>(st_.task_kind[k]);
    if (kind == arch::TaskKind::kData && k < kColors) data_tasks_ |= 1u << k;
    if (kind == arch::TaskKind::kLocal || kind == arch::TaskKind::kControl) lc_tasks_ |= 1u << k;
  }
}

uint32_t Ce::ReadReg(uint16_t addr) {
  const RegRef r = FindReg(addr);
  if (!r.valid()) return 0;
  // The router's registers (tessera.def marks them) live in the router.
  if (arch::Info(r.id).router) return router_ ? router_->Read(addr) : 0;
  const int i = r.index;
  switch (r.id) {
    case RegId::kPeCoord:
      return static_cast<uint32_t>(st_.y) << 16 | st_.x;
    case RegId::kFabricDim:
      return st_.fabric_dim;
    case RegId::kCeStatus:
      return StatusWord();
    case RegId::kCycleLo:
      return static_cast<uint32_t>(cyc_.c);
    case RegId::kCycleHi:
      return st_.cycle_hi;
    case RegId::kFpFlags:
      return st_.fp_flags;
    case RegId::kFaultStatus:
      return st_.fault_status;
    case RegId::kFaultPc:
      return st_.fault_pc;
    case RegId::kFaultAddr:
      return st_.fault_addr;
    case RegId::kFaultInfo:
      return st_.fault_info;
    case RegId::kDebugPort:
      return st_.debug[i];
    case RegId::kCeColor:
      return CeColorWord(i);
    case RegId::kUtStatus:
      return UtStatusWord(i);
    case RegId::kUtInfo:
      return UtInfoWord(i);
    case RegId::kFifoState: {
      const FifoState& f = st_.fifo[i / 2];
      return i % 2 ? arch::FifoState::WithHi(f.count, f.used)
                   : arch::FifoState::WithHi(f.head, f.tail);
    }
    case RegId::kPerfCount:
      return st_.perf[i];
    case RegId::kTaskCfg:
      return i == kNoTask ? 0
                          : st_.task_entry[i] | static_cast<uint32_t>(st_.task_kind[i])
                                                    << arch::TaskCfg::kKindLsb;
    case RegId::kTaskArg:
      return i == kNoTask ? 0 : st_.task_arg[i];
    case RegId::kTaskActive:
    case RegId::kTaskActiveSet:
    case RegId::kTaskActiveClr:
      return st_.active;
    case RegId::kTaskBlocked:
    case RegId::kTaskBlockSet:
    case RegId::kTaskBlockClr:
      return st_.blocked;
    case RegId::kGpr:
      return st_.gpr[i];
    case RegId::kCePc:
      return st_.pc;
    case RegId::kDsr:
      return static_cast<uint32_t>(st_.dsr[i / 2] >> (32 * (i % 2)));
    case RegId::kColorCfg:  // the router's registers: read above
    case RegId::kSwitchCfg:
    case RegId::kFilterRange:
    case RegId::kFilterCount:
    case RegId::kRouterFault:
    case RegId::kRouterInCount:
      break;
  }
  return 0;
}

void Ce::WriteReg(uint16_t addr, uint32_t value, bool host) {
  const RegRef r = FindReg(addr);
  if (!r.valid()) return;
  if (arch::Info(r.id).router) {
    if (router_ && r.access != RegAccess::kHost) router_->Write(addr, value);
    return;
  }
  const int i = r.index;
  constexpr uint32_t kTasks31 = 0x7FFFFFFFu;
  switch (r.id) {
    case RegId::kPeCoord:
    case RegId::kCeStatus:
    case RegId::kCycleLo:
    case RegId::kCycleHi:
    case RegId::kCeColor:
    case RegId::kUtStatus:
    case RegId::kUtInfo:
    case RegId::kFifoState:  // the FIFOs move only by DSD steps
      return;                // fixed, or derived from other state
    case RegId::kColorCfg:   // the router's registers: written above
    case RegId::kSwitchCfg:
    case RegId::kFilterRange:
    case RegId::kFilterCount:
    case RegId::kRouterFault:
    case RegId::kRouterInCount:
      return;
    case RegId::kFabricDim:
      st_.fabric_dim = value;
      return;
    case RegId::kFpFlags:
      st_.fp_flags = static_cast<uint8_t>(value & 0x1F);
      return;
    case RegId::kPerfCount:  // read only for the CE (a store faults): the host sets a counter
      st_.perf[i] = value;
      return;
    case RegId::kFaultStatus:  // the host clears the fault record
      st_.fault_status = st_.fault_pc = st_.fault_addr = st_.fault_info = 0;
      return;
    case RegId::kFaultPc:
      st_.fault_pc = value & 0xFFFF;
      return;
    case RegId::kFaultAddr:
      st_.fault_addr = value;
      return;
    case RegId::kFaultInfo:
      st_.fault_info = value & 0x7FFFFF77u;  // the fields of FaultInfo
      return;
    case RegId::kDebugPort:
      st_.debug[i] = value;
      if (!host) {
        if (i == static_cast<int>(arch::DebugFmt::kChar)) {
          const char ch = static_cast<char>(value & 0xFF);
          if (ch == '\n') {
            debug_.push_back({cyc_.c, st_.x, st_.y, static_cast<uint8_t>(i), value, char_line_});
            char_line_.clear();
          } else {
            char_line_.push_back(ch);
          }
        } else {
          debug_.push_back({cyc_.c, st_.x, st_.y, static_cast<uint8_t>(i), value, {}});
        }
      }
      return;
    case RegId::kTaskCfg:
      if (i != kNoTask) SetTaskCfg(i, value);
      return;
    case RegId::kTaskArg:
      if (i != kNoTask) st_.task_arg[i] = static_cast<uint16_t>(value);
      return;
    case RegId::kTaskActive:
      st_.active = value & kTasks31;
      return;
    case RegId::kTaskActiveSet:
      st_.active |= value & kTasks31;
      return;
    case RegId::kTaskActiveClr:
      st_.active &= ~value;
      return;
    case RegId::kTaskBlocked:
      st_.blocked = value & kTasks31;
      return;
    case RegId::kTaskBlockSet:
      st_.blocked |= value & kTasks31;
      return;
    case RegId::kTaskBlockClr:
      st_.blocked &= ~value;
      return;
    case RegId::kGpr:
      st_.gpr[i] = value;
      return;
    case RegId::kCePc:
      st_.pc = static_cast<uint16_t>(value);
      Fetch();
      return;
    case RegId::kDsr: {
      uint64_t& d = st_.dsr[i / 2];
      const int sh = 32 * (i % 2);
      d = (d & ~(0xFFFFFFFFull << sh)) | static_cast<uint64_t>(value) << sh;
      return;
    }
  }
}

uint32_t Ce::HostRead(uint16_t addr) {
  if (addr < kSram) {
    uint32_t v = 0;
    HostReadSram(addr & ~3u, reinterpret_cast<uint8_t*>(&v), 4);
    return v;
  }
  // A host read of CycleLo gives the cycle after the last one this CE stepped.
  if (addr == arch::CycleLo::kAddr) return static_cast<uint32_t>(ticked_ ? last_cycle_ + 1 : 0);
  return ReadReg(addr);
}

void Ce::HostWrite(uint16_t addr, uint32_t value) {
  if (addr < kSram) {
    const uint8_t b[4] = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                          static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
    HostWriteSram(addr & ~3u, b, 4);
    return;
  }
  WriteReg(addr, value, true);
}

void Ce::HostWriteSram(uint16_t addr, const uint8_t* bytes, size_t n) {
  if (addr + n > kSram) throw std::out_of_range("Ce::HostWriteSram: outside SRAM");
  if (n) std::memcpy(st_.sram + addr, bytes, n);  // an empty image may have no bytes
}

void Ce::HostReadSram(uint16_t addr, uint8_t* bytes, size_t n) const {
  if (addr + n > kSram) throw std::out_of_range("Ce::HostReadSram: outside SRAM");
  if (n) std::memcpy(bytes, st_.sram + addr, n);
}

}  // namespace tessera::ce
