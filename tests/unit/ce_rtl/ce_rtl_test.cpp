// Directed tests of the compute engine's RTL (one full PE: a 1x1 fabric of full-PE tiles, run by
// the runtime's RTL machine): results, cycle counts as docs/isa.md 4.4 states them, and faults.
// Programs are encoded from the instruction table.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "fabric/debug_record.h"
#include "isa/decode.h"
#include "machine/machine.h"
#include "machine/pe_load.h"

namespace tessera {
namespace {

using arch::InsnFormat;

// The first table line with this mnemonic and format.
const arch::InsnInfo& Line(const std::string& m, InsnFormat f) {
  for (const auto& n : arch::kInsns)
    if (m == n.mnemonic && n.format == f) return n;
  throw std::invalid_argument("no line " + m);
}

uint32_t R(const std::string& m, int a, int b, int c, int d = 0, bool z = false) {
  return Line(m, InsnFormat::kR).fixed_bits | a << 8 | b << 12 | c << 16 | d << 20 | z << 7;
}
uint32_t I(const std::string& m, int a, int b, int imm, bool z = false) {
  return Line(m, InsnFormat::kI).fixed_bits | a << 8 | b << 12 | (uint32_t(imm) & 0xFFFF) << 16 |
         z << 7;
}

// A task binding as the tests write it.
struct TaskBind {
  int id = 0;
  int kind = 0;  // arch::TaskKind
  uint16_t entry = 0;
};

// One full PE of RTL, loaded through the back door and run to quiescence (or a fault).
class RtlPe {
 public:
  RtlPe() : m_(Make()) {}
  void Load(const std::vector<uint8_t>& image, const std::vector<TaskBind>& tasks) {
    machine::LoadSram(*m_, kPe, image);
    for (const TaskBind& t : tasks)
      machine::BindTask(*m_, kPe, t.id, static_cast<arch::TaskKind>(t.kind), t.entry);
  }
  void Activate(int task) { machine::LaunchTask(*m_, kPe, task); }
  void Write(uint16_t addr, uint32_t value) { m_->Write(kPe, addr, value); }
  uint32_t Read(uint16_t addr) { return m_->Read(kPe, addr); }
  // Steps until the PE is quiescent or faulted, at most `cycles` cycles; keeps the debug records.
  void Run(uint64_t cycles) {
    m_->Run(cycles);
    for (fabric::DebugRecord& d : m_->TakeDebug()) debug_.push_back(std::move(d));
  }
  bool Faulted() { return !m_->Fabric().Faults().empty(); }
  const std::vector<fabric::DebugRecord>& Debug() const { return debug_; }

 private:
  static constexpr fabric::Coord kPe{0, 0};
  static std::unique_ptr<machine::Machine> Make() {
    machine::RtlMachineOptions o;
    o.systemc = false;
    std::unique_ptr<machine::Machine> m = machine::MakeRtlMachine(o);
    m->Fabric().SetStopWhenQuiescent(true);
    return m;
  }
  std::unique_ptr<machine::Machine> m_;
  std::vector<fabric::DebugRecord> debug_;
};

struct Program {
  std::vector<uint32_t> words;
  uint16_t Here() const { return static_cast<uint16_t>(4 * words.size()); }
  Program& operator<<(uint32_t w) {
    EXPECT_NE(isa::Decode(w), nullptr) << "test program encodes an illegal word " << std::hex << w;
    words.push_back(w);
    return *this;
  }
  std::vector<uint8_t> Image() const {
    std::vector<uint8_t> b(words.size() * 4);
    std::memcpy(b.data(), words.data(), b.size());
    return b;
  }
};

constexpr int kU32 = static_cast<int>(arch::DebugFmt::kU32);
uint16_t DebugAddr(int fmt) { return arch::DebugPort::Addr(fmt); }

RtlPe& Start(RtlPe& pe, const Program& p) {
  pe.Load(p.Image(), {{0, static_cast<int>(arch::TaskKind::kLocal), 0}});
  pe.Activate(0);
  return pe;
}

TEST(CeRtl, LoopSumsAndTakesFourCyclesPerIteration) {
  Program p;
  p << I("addi", 1, 0, 0, true) << I("addi", 2, 0, 10, true);
  const uint16_t loop = p.Here();
  p << R("add", 1, 1, 2) << I("addi", 2, 2, -1) << I("bne", 2, 0, (loop - p.Here()) / 4, true)
    << I("sw", 1, 0, DebugAddr(kU32), true) << R("tend", 0, 0, 0);
  RtlPe pe;
  Start(pe, p).Run(200);
  ASSERT_FALSE(pe.Faulted());
  ASSERT_EQ(pe.Debug().size(), 1u);
  EXPECT_EQ(pe.Debug()[0].value, 55u);
  EXPECT_EQ(pe.Debug()[0].fmt, kU32);
  // picker at 0, first issue at 1; the loop body costs 4 cycles (add, addi, taken bne: 2) and
  // the last bne falls through in 1: the store issues at 3 + 4*9 + 3 = 42.
  EXPECT_EQ(pe.Debug()[0].cycle, 42u);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(1)), 55u);
  EXPECT_EQ(pe.Read(arch::CeStatus::kAddr) & 0x1F, arch::kNoTask);
}

TEST(CeRtl, AluLoadsStoresAndImmediates) {
  Program p;
  p << I("lui", 1, 0, 0x1234) << I("ori", 1, 1, 0x5678)  // r1 = 0x12345678
    << I("sw", 1, 0, 0x400, true)                        // M32[0x400] = r1
    << I("lbu", 2, 0, 0x401, true)                       // 0x56
    << I("lh", 3, 0, 0x402, true)                        // 0x1234
    << I("addi", 4, 0, -3, true) << I("sh", 4, 0, 0x404, true) << I("lh", 5, 0, 0x404, true)
    << I("lhu", 6, 0, 0x404, true) << I("srai", 7, 4, 1) << I("shri", 8, 4, 28)
    << I("muli", 9, 4, 7)  // -21
    << R("sltu", 10, 4, 1) << R("slt", 11, 4, 1) << R("tend", 0, 0, 0);
  RtlPe pe;
  Start(pe, p).Run(100);
  ASSERT_FALSE(pe.Faulted());
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(1)), 0x12345678u);
  EXPECT_EQ(pe.Read(0x400), 0x12345678u);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(2)), 0x56u);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(3)), 0x1234u);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(5)), 0xFFFFFFFDu);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(6)), 0xFFFDu);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(7)), 0xFFFFFFFEu);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(8)), 0xFu);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(9)), static_cast<uint32_t>(-21));
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(10)), 0u);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(11)), 1u);
}

TEST(CeRtl, ScalarFpTakesSixCyclesAndRaisesFlags) {
  Program p;
  p << I("lui", 1, 0, 0x3FC0)                // 1.5f
    << I("lui", 2, 0, 0x4010)                // 2.25f
    << R("fadd.s", 3, 1, 2)                  // issues at 3; the next at 9
    << I("sw", 3, 0, DebugAddr(kU32), true)  // 3.75f = 0x40700000
    << I("lui", 4, 0, 0x3F80) << I("addi", 5, 0, 3, true) << R("fcvt.s.w", 6, 5, 0)
    << R("fmul.s", 7, 4, 6)                              // 3.0f exact
    << I("lui", 8, 0, 0x3DCC) << I("ori", 8, 8, 0xCCCD)  // 0.1f
    << R("fmul.s", 9, 8, 6)                              // 0.3f rounded: inexact
    << R("tend", 0, 0, 0);
  RtlPe pe;
  Start(pe, p).Run(200);
  ASSERT_FALSE(pe.Faulted());
  ASSERT_EQ(pe.Debug().size(), 1u);
  EXPECT_EQ(pe.Debug()[0].value, 0x40700000u);
  EXPECT_EQ(pe.Debug()[0].cycle, 9u);
  EXPECT_EQ(pe.Read(arch::Gpr::Addr(7)), 0x40400000u);
  EXPECT_EQ(pe.Read(arch::FpFlags::kAddr), static_cast<uint32_t>(arch::FpFlag::kInexact));
}

TEST(CeRtl, TasksRunLowestIdFirstAndActivationWhileRunningRunsAgain) {
  // task 2 (local) activates task 1 and itself once; the debug port shows the order
  Program p;
  const uint16_t t1 = 0x40, t2 = 0x80;
  std::vector<uint32_t> w(0x100 / 4, 0);
  auto at = [&](uint16_t a, std::vector<uint32_t> ins) {
    for (size_t i = 0; i < ins.size(); ++i) w[a / 4 + i] = ins[i];
  };
  at(t1, {I("addi", 1, 0, 1, true), I("sw", 1, 0, DebugAddr(kU32), true), R("tend", 0, 0, 0)});
  at(t2, {I("addi", 1, 0, 2, true), I("sw", 1, 0, DebugAddr(kU32), true),
          I("activate", 0, 0, 1, true), I("addi", 3, 3, 1), I("addi", 4, 0, 2, true),
          I("beq", 3, 4, 2), I("activate", 0, 0, 2, true), R("tend", 0, 0, 0)});
  std::vector<uint8_t> img(w.size() * 4);
  std::memcpy(img.data(), w.data(), img.size());
  RtlPe pe;
  const int local = static_cast<int>(arch::TaskKind::kLocal);
  pe.Load(img, {{1, local, t1}, {2, local, t2}});
  pe.Activate(2);
  pe.Run(300);
  ASSERT_FALSE(pe.Faulted());
  std::vector<uint32_t> order;
  for (const auto& r : pe.Debug()) order.push_back(r.value);
  EXPECT_EQ(order, (std::vector<uint32_t>{2, 1, 2, 1}));
}

TEST(CeRtl, MisalignedLoadFaultsWithPcAndAddress) {
  Program p;
  p << R("nop", 0, 0, 0) << I("addi", 1, 0, 0x103, true) << I("lw", 2, 1, 0) << R("tend", 0, 0, 0);
  RtlPe pe;
  Start(pe, p).Run(100);
  ASSERT_TRUE(pe.Faulted());
  EXPECT_EQ(pe.Read(arch::FaultStatus::kAddr), static_cast<uint32_t>(arch::CeFault::kMisaligned));
  EXPECT_EQ(pe.Read(arch::FaultPc::kAddr), 8u);
  EXPECT_EQ(pe.Read(arch::FaultAddr::kAddr), 0x103u);
  EXPECT_EQ(arch::FaultInfo::Size(pe.Read(arch::FaultInfo::kAddr)),
            static_cast<uint32_t>(arch::AccSize::kWord));
}

TEST(CeRtl, IllegalWordAndTrapFault) {
  {
    Program p;
    p.words = {0x0000F001u};  // add with a nonzero unused D field... encoded below
    p.words[0] = R("add", 1, 2, 3) | 0x00100000u;
    RtlPe pe;
    Start(pe, p).Run(50);
    ASSERT_TRUE(pe.Faulted());
    EXPECT_EQ(pe.Read(arch::FaultStatus::kAddr), static_cast<uint32_t>(arch::CeFault::kIllegal));
    EXPECT_EQ(pe.Read(arch::FaultAddr::kAddr), p.words[0]);
  }
  {
    Program p;
    p << I("trap", 0, 0, 7);
    RtlPe pe;
    Start(pe, p).Run(50);
    ASSERT_TRUE(pe.Faulted());
    EXPECT_EQ(pe.Read(arch::FaultStatus::kAddr), static_cast<uint32_t>(arch::CeFault::kTrap));
    EXPECT_EQ(pe.Read(arch::FaultAddr::kAddr), 7u);
  }
}

TEST(CeRtl, RunningPastTheEndOfSramFaultsPcRange) {
  std::vector<uint8_t> img(arch::kSramBytes, 0);
  const uint32_t nop = R("nop", 0, 0, 0);
  std::memcpy(&img[0xBFF8], &nop, 4);
  std::memcpy(&img[0xBFFC], &nop, 4);
  RtlPe pe;
  pe.Load(img, {{0, static_cast<int>(arch::TaskKind::kLocal), 0xBFF8}});
  pe.Activate(0);
  pe.Run(50);
  ASSERT_TRUE(pe.Faulted());
  EXPECT_EQ(pe.Read(arch::FaultStatus::kAddr), static_cast<uint32_t>(arch::CeFault::kPcRange));
  EXPECT_EQ(pe.Read(arch::FaultPc::kAddr), 0xC000u);
}

// A wavelet sent on a color whose route turns RAMP back into RAMP reaches this PE's own CE and
// runs the color's data task with the payload in r0.
TEST(CeRtl, SendLoopsBackThroughTheRouterAndRunsTheDataTask) {
  constexpr int kColor = 5;
  const uint32_t ramp = 1u << static_cast<int>(arch::Dir::kRamp);
  Program p;
  p << I("lui", 1, 0, 0xCAFE) << I("send", 1, 0, kColor, true) << R("tend", 0, 0, 0);
  while (p.Here() < 0x40) p << R("nop", 0, 0, 0);
  p << I("sw", 0, 0, DebugAddr(kU32), true) << R("tend", 0, 0, 0);  // data task: r0 = wavelet
  RtlPe pe;
  pe.Load(p.Image(), {{0, static_cast<int>(arch::TaskKind::kLocal), 0},
                      {kColor, static_cast<int>(arch::TaskKind::kData), 0x40}});
  pe.Write(arch::ColorCfg::Addr(kColor),
           arch::ColorCfg::WithRx(arch::ColorCfg::WithTx(0, ramp), ramp));
  pe.Activate(0);
  pe.Run(200);
  ASSERT_FALSE(pe.Faulted());
  ASSERT_EQ(pe.Debug().size(), 1u);
  EXPECT_EQ(pe.Debug()[0].value, 0xCAFE0000u);
  // send issues at 2; CE to CE takes 2 x RampLatency plus the hops (none here), so the wavelet
  // is delivered at 16; the picker starts the data task at 17 and the store issues at 18.
  EXPECT_EQ(pe.Debug()[0].cycle, 2u + 2 * arch::kRampLatency + 2);
}

TEST(CeRtl, SendOnAColorWithoutARouteFaultsBadColor) {
  Program p;
  p << I("send", 1, 0, 6, true) << R("tend", 0, 0, 0);
  RtlPe pe;
  Start(pe, p).Run(50);
  ASSERT_TRUE(pe.Faulted());
  EXPECT_EQ(pe.Read(arch::FaultStatus::kAddr), static_cast<uint32_t>(arch::CeFault::kBadColor));
  EXPECT_EQ(pe.Read(arch::FaultAddr::kAddr), 6u);
}

}  // namespace
}  // namespace tessera
