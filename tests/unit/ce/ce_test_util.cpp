#include "ce_test_util.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "arch/isa_table.h"
#include "ce/mmio.h"
#include "isa/decode.h"
#ifdef TESSERA_BENCH_RTL
#include "cosim/debug.h"
#include "cosim/end_state.h"
#include "machine/pe_load.h"
#endif

namespace tessera::ce::test {
namespace {

using arch::OperandKind;
using K = Opnd::K;

bool Fits(OperandKind kind, const Opnd& o) {
  switch (o.k) {
    case K::kR:
      return kind == OperandKind::kRd || kind == OperandKind::kRa || kind == OperandKind::kRb ||
             kind == OperandKind::kRc || kind == OperandKind::kRe || kind == OperandKind::kS ||
             kind == OperandKind::kAcc || kind == OperandKind::kTid || kind == OperandKind::kCol ||
             kind == OperandKind::kBval;
    case K::kD:
      return kind == OperandKind::kDa || kind == OperandKind::kDb || kind == OperandKind::kDst ||
             kind == OperandKind::kSrc0 || kind == OperandKind::kSrc1;
    case K::kImm:
      return kind == OperandKind::kSimm || kind == OperandKind::kUimm || kind == OperandKind::kSh ||
             kind == OperandKind::kOff || kind == OperandKind::kMsk || kind == OperandKind::kW ||
             kind == OperandKind::kTid || kind == OperandKind::kCol || kind == OperandKind::kBval;
    case K::kZero:
      return kind == OperandKind::kRb;
    case K::kMem:
      return kind == OperandKind::kMem || kind == OperandKind::kTgt || kind == OperandKind::kBval;
    case K::kAbs:
      return kind == OperandKind::kMem || kind == OperandKind::kTgt;
    case K::kDone:
      return kind == OperandKind::kDone;
    case K::kLabel:
      return kind == OperandKind::kOff;
  }
  return false;
}

uint32_t Field(uint32_t w, int lsb, int width, int64_t v) {
  const uint32_t mask = ((1u << width) - 1) << lsb;
  return (w & ~mask) | ((static_cast<uint32_t>(v) << lsb) & mask);
}

}  // namespace

uint32_t Asm(const std::string& mn, const std::vector<Opnd>& ops, uint16_t pc,
             const std::map<std::string, uint16_t>* labels) {
  for (const arch::InsnInfo& n : arch::kInsns) {
    if (mn != n.mnemonic || n.num_operands != ops.size()) continue;
    bool ok = true;
    for (size_t k = 0; k < ops.size() && ok; ++k) ok = Fits(n.operands[k], ops[k]);
    if (!ok) continue;
    uint32_t w = n.fixed_bits;
    for (size_t k = 0; k < ops.size(); ++k) {
      const Opnd& o = ops[k];
      switch (n.operands[k]) {
        case OperandKind::kRd:
        case OperandKind::kRa:
        case OperandKind::kDa:
        case OperandKind::kDst:
          w = Field(w, 8, 4, o.reg);
          break;
        case OperandKind::kRb:
        case OperandKind::kDb:
        case OperandKind::kSrc0:
          if (o.k == K::kZero) {
            w = Field(w, 7, 1, 1);
          } else {
            w = Field(w, 12, 4, o.reg);
          }
          break;
        case OperandKind::kRc:
        case OperandKind::kSrc1:
          w = Field(w, 16, 4, o.reg);
          break;
        case OperandKind::kRe:
        case OperandKind::kS:
        case OperandKind::kAcc:
          w = Field(w, 20, 4, o.reg);
          break;
        case OperandKind::kSimm:
        case OperandKind::kUimm:
        case OperandKind::kSh:
        case OperandKind::kMsk:
        case OperandKind::kW:
          w = Field(w, 16, 16, o.v);
          break;
        case OperandKind::kOff: {
          int64_t target = o.v;
          if (o.k == K::kLabel) {
            if (!labels || !labels->count(o.label))
              throw std::invalid_argument("unknown label " + o.label);
            target = labels->at(o.label);
            w = Field(w, 16, 16, (target - pc) / 4);
          } else {
            w = Field(w, 16, 16, o.v);  // a word offset
          }
          break;
        }
        case OperandKind::kMem:
        case OperandKind::kTgt:
        case OperandKind::kBval:
        case OperandKind::kTid:
        case OperandKind::kCol:
          if (o.k == K::kAbs || o.k == K::kImm) {
            w = Field(w, 7, 1, 1);
            w = Field(w, 16, 16, o.v);
          } else {
            w = Field(w, 12, 4, o.reg);
            w = Field(w, 16, 16, o.k == K::kMem ? o.v : 0);
          }
          break;
        case OperandKind::kDone:
          w = Field(w, 29, 3, o.ut);
          w = Field(w, 7, 1, o.u);
          w = Field(w, 24, 5, o.tid);
          break;
      }
    }
    if (isa::Decode(w) != &n)
      throw std::invalid_argument(fmt::format("{}: 0x{:08x} does not decode back", mn, w));
    return w;
  }
  throw std::invalid_argument("no line of " + mn + " fits these operands");
}

Prog& Prog::operator()(const std::string& mnemonic, std::vector<Opnd> ops) {
  insns_.push_back({pc_, mnemonic, std::move(ops)});
  pc_ = static_cast<uint16_t>(pc_ + 4);
  return *this;
}

Prog& Prog::Label(const std::string& name) {
  labels_[name] = pc_;
  return *this;
}

void Prog::Word(uint16_t addr, uint32_t w) {
  for (int k = 0; k < 4; ++k) bytes_[addr + k] = static_cast<uint8_t>(w >> (8 * k));
}

void Prog::Half(uint16_t addr, uint16_t h) {
  bytes_[addr] = static_cast<uint8_t>(h);
  bytes_[addr + 1] = static_cast<uint8_t>(h >> 8);
}

std::vector<uint8_t> Prog::Image() const {
  std::map<uint16_t, uint8_t> all = bytes_;
  for (const Insn& in : insns_) {
    const uint32_t w = Asm(in.mnemonic, in.ops, in.pc, &labels_);
    for (int k = 0; k < 4; ++k) all[in.pc + k] = static_cast<uint8_t>(w >> (8 * k));
  }
  std::vector<uint8_t> img;
  if (all.empty()) return img;
  img.assign(all.rbegin()->first + 1, 0);
  for (auto [a, b] : all) img[a] = b;
  return img;
}

uint64_t Mem1d(arch::ElemType t, uint16_t base, uint32_t len, int stride) {
  using Dd = arch::Dsd;
  uint64_t d = Dd::WithKind(0, static_cast<uint64_t>(arch::DsdKind::kMem1d));
  d = Dd::WithElem(d, static_cast<uint64_t>(t));
  d = Dd::WithBase(d, base);
  d = Dd::WithLength(d, len);
  return Dd::WithStride(d, static_cast<uint16_t>(stride));
}

uint64_t Fifo(arch::ElemType t, uint16_t base, uint32_t cap, uint32_t k) {
  using Dd = arch::Dsd;  // a mem1d's fields, of another kind, with no stride and a number
  return Dd::WithColor(Dd::WithKind(Mem1d(t, base, cap, 0), uint64_t(arch::DsdKind::kFifo)), k);
}

std::pair<uint64_t, uint64_t> Mem4d(arch::ElemType t, uint16_t base, std::array<uint32_t, 4> len,
                                    std::array<int, 4> stride) {
  using X = arch::Dsd4x;
  uint64_t d = arch::Dsd::WithKind(Mem1d(t, base, len[0], stride[0]),
                                   static_cast<uint64_t>(arch::DsdKind::kMem4d));
  d = arch::Dsd::WithColor(d, len[3]);
  uint64_t x = X::WithLen1(0, len[1]);
  x = X::WithLen2(x, len[2]);
  x = X::WithStride1(x, static_cast<uint16_t>(stride[1]));
  x = X::WithStride2(x, static_cast<uint16_t>(stride[2]));
  x = X::WithStride3(x, static_cast<uint16_t>(stride[3]));
  return {d, x};
}

uint64_t FabIn(arch::ElemType t, uint32_t color, uint32_t len) {
  using Dd = arch::Dsd;
  uint64_t d = Dd::WithKind(0, static_cast<uint64_t>(arch::DsdKind::kFabIn));
  d = Dd::WithElem(d, static_cast<uint64_t>(t));
  d = Dd::WithColor(d, color);
  return Dd::WithLength(d, len);
}

uint64_t FabOut(arch::ElemType t, uint32_t color, uint32_t len, bool ctrl, bool idx,
                uint16_t base) {
  using Dd = arch::Dsd;
  uint64_t d = Dd::WithKind(0, static_cast<uint64_t>(arch::DsdKind::kFabOut));
  d = Dd::WithElem(d, static_cast<uint64_t>(t));
  d = Dd::WithColor(d, color);
  d = Dd::WithLength(d, len);
  d = Dd::WithCtrl(d, ctrl);
  d = Dd::WithIdx(d, idx);
  return Dd::WithBase(d, base);
}

void FakeRouter::OpenAll() {
  const uint32_t ramp = 1u << static_cast<int>(arch::Dir::kRamp);
  for (uint32_t c = 0; c < arch::kNumColors; ++c) {
    uint32_t v = arch::ColorCfg::WithTx(0, ramp);
    regs[arch::ColorCfg::Addr(c)] = arch::ColorCfg::WithRx(v, ramp);
  }
}

Bench::Bench() : ce(3, 2, &router) { ce.SetTraceSink(&sink); }

namespace {
// Benches compared with their RTL twin, and those that said why they cannot be (with the test's
// name), printed when the tests end.
[[maybe_unused]] int compared = 0;
std::vector<std::string> not_mirrored;
struct Tally : ::testing::Environment {
  void TearDown() override {
#ifdef TESSERA_BENCH_RTL
    fmt::print("RTL twin compared at the end of {} of {} benches; not mirrored:\n", compared,
               compared + not_mirrored.size());
    for (const std::string& n : not_mirrored) fmt::print("  {}\n", n);
#endif
  }
};
const auto* const kTally = ::testing::AddGlobalTestEnvironment(new Tally);

std::string TestName() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  return t ? fmt::format("{}.{}", t->test_suite_name(), t->name()) : "?";
}
}  // namespace

std::string Bench::Unmirrorable() const {
  std::vector<std::string> uses;
  if (scripted_) uses.push_back("scripted wavelets");
  if (!sent.empty()) uses.push_back("sends (the bench returns their credits)");
  if (!router.regs.empty()) uses.push_back("the fake router's registers");
  std::string out;
  for (size_t i = 0; i < uses.size(); ++i)
    out += (i == 0 ? "" : i + 1 == uses.size() ? " and " : ", ") + uses[i];
  return out;
}

Bench::~Bench() {
  const std::string uses = Unmirrorable();
  if (!uses.empty() && not_mirrored_.empty()) {
    ADD_FAILURE() << "this bench uses " << uses
                  << ", which its RTL twin cannot mirror: say why with Bench::NotMirrored";
    return;
  }
  if (uses.empty() && !not_mirrored_.empty()) {
    ADD_FAILURE() << "this bench says it cannot be mirrored (\"" << not_mirrored_
                  << "\") but uses nothing its RTL twin cannot mirror: remove NotMirrored so "
                     "the RTL is compared";
    return;
  }
  if (!uses.empty()) {
    not_mirrored.push_back(fmt::format("{}: {}", TestName(), not_mirrored_));
    return;
  }
#ifdef TESSERA_BENCH_RTL
  ++compared;
  const std::string diff = ce.Compare();
  if (!diff.empty())
    ADD_FAILURE() << "functional model and RTL differ after " << cycle << " cycles:\n" << diff;
#endif
}

#ifdef TESSERA_BENCH_RTL
namespace {
std::unique_ptr<machine::Machine> RtlTwin(uint16_t x, uint16_t y) {
  machine::RtlMachineOptions o;
  o.systemc = false;  // a twin per bench: the plain loop
  o.pe_origin = {x, y};
  return machine::MakeRtlMachine(o);
}
constexpr fabric::Coord kTwin{0, 0};  // the twin's PE in its own 1x1 fabric
}  // namespace

MirroredCe::MirroredCe(uint16_t x, uint16_t y, fabric::RouterRegs* router)
    : Ce(x, y, router), rtl(RtlTwin(x, y)) {}
MirroredCe::~MirroredCe() = default;

void MirroredCe::Load(const std::vector<uint8_t>& image, const std::vector<TaskBinding>& tasks) {
  Ce::Load(image, tasks);
  machine::LoadSram(*rtl, kTwin, image);
  for (const TaskBinding& b : tasks) machine::BindTask(*rtl, kTwin, b.id, b.kind, b.entry);
}
void MirroredCe::Activate(int task) {
  Ce::Activate(task);
  machine::LaunchTask(*rtl, kTwin, task);
}
void MirroredCe::HostWrite(uint16_t addr, uint32_t value) {
  Ce::HostWrite(addr, value);
  rtl->Write(kTwin, addr, value);
}
void MirroredCe::StepRtl() {
  rtl->Step(rtl_events);
  for (fabric::DebugRecord& d : rtl_events[0].debug) {
    d.x = State().x;  // the twin's fabric calls its PE (0,0)
    d.y = State().y;
    rtl_debug.push_back(std::move(d));
  }
}

std::string MirroredCe::Compare() {
  std::string out;
  const std::vector<cosim::Difference> d =
      cosim::CompareEndStates(cosim::CaptureEndState([this](uint16_t a) { return HostRead(a); }),
                              cosim::CaptureEndState(*rtl, kTwin), 20);
  for (const cosim::Difference& x : d) {
    if (x.a.empty() && x.b.empty()) {
      out += fmt::format("  {}\n", x.what);
    } else {
      out += fmt::format("  {}: func {}, rtl {}\n", x.what, x.a, x.b);
    }
  }
  if (auto m = cosim::CompareDebug(DebugRecords(), rtl_debug, "func", "rtl"))
    out += "  " + m->message + "\n";
  return out;
}
#endif

void Bench::Load(const Prog& p, const std::vector<TaskBinding>& tasks, int launch) {
  ce.Load(p.Image(), tasks);
  if (launch >= 0) ce.Activate(launch);
}

void Bench::Deliver(uint64_t at, bool ctrl, int color, uint32_t data) {
  scripted_ = true;
  deliveries_.insert({at, fabric::MakeLink(ctrl, static_cast<uint32_t>(color), data)});
}

void Bench::Step() {
  fabric::RampPort port;
  auto d = deliveries_.find(cycle);
  if (d != deliveries_.end()) {
    port.from_router = d->second;
    deliveries_.erase(d);
  }
  auto c = credits_.find(cycle);
  if (c != credits_.end()) {
    port.credit_from_router = fabric::MakeCredit(static_cast<uint32_t>(c->second));
    credits_.erase(c);
  }
  ce.Tick(cycle, port);
#ifdef TESSERA_BENCH_RTL
  ce.StepRtl();
#endif
  if (arch::Link::Valid(port.to_router)) {
    sent.push_back({cycle, port.to_router});
    credits_.insert({cycle + credit_delay, static_cast<int>(arch::Link::Color(port.to_router))});
  }
  if (arch::Credit::Valid(port.credit_to_router))
    credits_returned.push_back(
        {cycle, static_cast<int>(arch::Credit::Color(port.credit_to_router))});
  ++cycle;
}

uint64_t Bench::RunToQuiet(uint64_t max) {
  const uint64_t start = cycle;
  while (cycle - start < max) {
    if (ce.Faulted()) break;
    if (ce.NextWake() == fabric::kNever && deliveries_.empty() && credits_.empty()) break;
    Step();
  }
  return cycle - start;
}

std::vector<TraceRecord> Bench::Records(TraceRecord::Kind k) const {
  std::vector<TraceRecord> out;
  for (const TraceRecord& r : sink.records)
    if (r.kind == k) out.push_back(r);
  return out;
}

uint64_t Bench::RetireCycle(uint16_t pc, int nth) const {
  for (const TraceRecord& r : sink.records) {
    if (r.kind == TraceRecord::Kind::kRetire && r.pc == pc && nth-- == 0) return r.cycle;
  }
  throw std::out_of_range(fmt::format("no retire #{} at pc 0x{:04x}", nth, pc));
}

}  // namespace tessera::ce::test
