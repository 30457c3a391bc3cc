// The program generator: deterministic per seed; its programs assemble, link and end as intended
// on the functional model (quiet, or at their deliberate fault); the mixes keep to their
// categories; and over many seeds the programs cover the instruction table, every task kind,
// completions and fabric streams.
#include "fuzz/generator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "asm/assembler.h"
#include "asm/link.h"
#include "fuzz/campaign.h"
#include "isa/decode.h"
#include "machine/func_machine.h"
#include "machine/pe_load.h"

namespace tessera::fuzz {
namespace {

MachineFactory Func() {
  return [] { return machine::MakeFuncMachine(1, 1, {1, 1}); };
}

assembler::PeProgram Link(const Program& p) {
  return assembler::LinkSingle({assembler::AssembleText("g.s", p.source).object}, {});
}

// Instruction words of the program's code: from 0 to the first data label.
std::vector<uint32_t> CodeWords(const assembler::PeProgram& img) {
  std::vector<uint32_t> out;
  for (uint16_t a = 0; a < img.symbols.at("buf").address; a += 4) out.push_back(img.Word(a));
  return out;
}

TEST(Generator, SameSeedSameProgramOtherSeedOtherProgram) {
  GenOptions o;
  for (uint64_t seed : {1u, 2u, 99u, 123456789u}) {
    const Program a = Generate(seed, o), b = Generate(seed, o);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.expect_fault, b.expect_fault);
    EXPECT_NE(a.source, Generate(seed + 1, o).source);
  }
  o.mix = Mix::Scalar();
  EXPECT_EQ(Generate(5, o).source, Generate(5, o).source);
  EXPECT_NE(Generate(5, o).source, Generate(5, GenOptions{}).source);
}

TEST(Generator, TwoHundredProgramsAssembleAndEndAsIntendedOnTheFunctionalModel) {
  for (const Mix& mix : {Mix::All(), Mix::Scalar()}) {
    GenOptions o;
    o.mix = mix;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      const ProgramRun r = RunProgram(Generate(seed, o), Func(), nullptr, RunOptions{});
      ASSERT_FALSE(r.failure) << "seed " << seed << " mix " << mix.ToString() << ": "
                              << r.failure->message;
      EXPECT_NE(r.end, RunEnd::kTimeout);
    }
  }
}

// A fifth of the programs with fabric streams end settled (docs/isa.md 3.2): a microthread waits
// for data on a color nobody sends on, and the run stops at the first cycle nothing can move.
TEST(Generator, SomeProgramsEndSettledWithAMicrothreadWaitingForData) {
  int settled = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const Program p = Generate(seed, GenOptions{});
    EXPECT_EQ(ParseSettled(p.source), p.expect_settled);
    if (!p.expect_settled) continue;
    ++settled;
    const ProgramRun r = RunProgram(p, Func(), nullptr, RunOptions{});
    ASSERT_FALSE(r.failure) << "seed " << seed << ": " << r.failure->message;
    EXPECT_EQ(r.end, RunEnd::kSettled) << "seed " << seed;
  }
  EXPECT_GE(settled, 8);
  EXPECT_LE(settled, 35);
}

// A quarter of the programs start with main active at load, and a quarter have a local task
// blocked at load that main unblocks first (.task ..., active / blocked: the image's initial
// task state); they run to their expected end like the others.
TEST(Generator, SomeProgramsStartWithTasksActiveOrBlockedAtLoad) {
  int active = 0, blocked = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    const Program p = Generate(seed, GenOptions{});
    const bool a = p.source.find(", active\n") != std::string::npos;
    const bool b = p.source.find(", blocked\n") != std::string::npos;
    active += a;
    blocked += b;
    if (!a && !b) continue;
    const ProgramRun r = RunProgram(p, Func(), nullptr, RunOptions{});
    ASSERT_FALSE(r.failure) << "seed " << seed << ": " << r.failure->message;
    EXPECT_NE(r.end, RunEnd::kTimeout) << "seed " << seed;
  }
  EXPECT_GE(active, 15);
  EXPECT_GE(blocked, 10);
}

TEST(Generator, DeliberateFaultsEndAtFaultSiteWithTheirCause) {
  GenOptions o;
  o.fault_rate = 1.0;
  std::set<arch::CeFault> seen;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    const Program p = Generate(seed, o);
    ASSERT_NE(p.expect_fault, arch::CeFault::kNone);
    EXPECT_EQ(ParseExpectation(p.source), p.expect_fault);
    const ProgramRun r = RunProgram(p, Func(), nullptr, RunOptions{});
    ASSERT_FALSE(r.failure) << "seed " << seed << ": " << r.failure->message;
    EXPECT_EQ(r.end, RunEnd::kFault);
    seen.insert(p.expect_fault);
  }
  for (arch::CeFault f :
       {arch::CeFault::kIllegal, arch::CeFault::kMisaligned, arch::CeFault::kOutOfRange,
        arch::CeFault::kMmioAccess, arch::CeFault::kReadOnly, arch::CeFault::kPcRange,
        arch::CeFault::kTaskId, arch::CeFault::kTaskKind, arch::CeFault::kDsdInvalid,
        arch::CeFault::kDsdType, arch::CeFault::kDsdRange, arch::CeFault::kDsdMisaligned,
        arch::CeFault::kBadColor, arch::CeFault::kTrap})
    EXPECT_TRUE(seen.count(f)) << FaultName(f);
}

TEST(Generator, TheScalarMixHasNoDsdOperationAndTheDefaultFaultRateIsSmall) {
  GenOptions o;
  o.mix = Mix::Scalar();
  int faults = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Program p = Generate(seed, o);
    faults += p.expect_fault != arch::CeFault::kNone;
    for (uint32_t w : CodeWords(Link(p))) {
      const arch::InsnInfo* n = isa::Decode(w);
      if (n) {
        ASSERT_NE(n->cls, arch::InsnClass::kDsd) << "seed " << seed << ": " << n->mnemonic;
      }
    }
  }
  EXPECT_GT(faults, 2);
  EXPECT_LT(faults, 30);
}

// Counts what programs did on the functional model: task starts by kind, microthread
// completions, retired DSD instructions per table line.
struct Coverage final : ce::TraceSink {
  std::map<arch::TaskKind, int> starts;
  int ut_done = 0;
  std::set<int> lines;  // table lines retired
  const ce::Ce* ce = nullptr;
  void Record(const ce::TraceRecord& r) override {
    if (r.kind == ce::TraceRecord::Kind::kTaskStart) {
      ++starts[static_cast<arch::TaskKind>(ce->State().task_kind[r.task])];
    } else if (r.kind == ce::TraceRecord::Kind::kUtDone) {
      ++ut_done;
    } else if (r.kind == ce::TraceRecord::Kind::kRetire) {
      if (const arch::InsnInfo* n = isa::Decode(r.word)) lines.insert(isa::Index(n));
    }
  }
};

TEST(Generator, ProgramsCoverTheTableTasksCompletionsAndFabricStreams) {
  Coverage cov;
  int wavelets = 0, fabric_reads = 0, fifo_waits = 0, fifo_popped = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Program p = Generate(seed, GenOptions{});
    const assembler::PeProgram img = Link(p);
    machine::FuncMachine b(1, 1, {1, 1});
    cov.ce = &b.CeOf({0, 0});
    b.SetTraceSink({0, 0}, &cov);
    machine::LoadPeProgram(b, {0, 0}, img);
    int main_id = -1;
    for (const auto& t : img.tasks)
      if (t.entry == img.symbols.at("main").address) main_id = t.id;
    machine::LaunchTask(b, {0, 0}, main_id);
    std::vector<fabric::PeEvents> e;
    bool faulted = false;
    for (int c = 0; c < 100000 && !faulted && !b.Fabric().Quiescent(); ++c) {
      b.Step(e);
      for (int col = 0; col < static_cast<int>(arch::kNumColors); ++col) {
        wavelets += b.CeOf({0, 0}).QueueCount(col) > 0;
        fabric_reads += arch::CeColor::Reader(b.Read({0, 0}, arch::CeColor::Addr(col)));
      }
      for (int u = 0; u < arch::kNumMicrothreads; ++u)
        fifo_waits += arch::UtStatus::Wait(b.Read({0, 0}, arch::UtStatus::Addr(u))) ==
                      static_cast<uint32_t>(arch::UtWait::kFifo);
      faulted = e[0].faulted;
    }
    for (int k = 0; k < arch::kNumFifos; ++k)
      fifo_popped += b.CeOf({0, 0}).State().fifo[k].head != 0;
  }
  // 200 programs: about 3 local, 3 data and 2 control task runs each, 25 completions.
  EXPECT_GT(cov.starts[arch::TaskKind::kLocal], 400);
  EXPECT_GT(cov.starts[arch::TaskKind::kData], 300);
  EXPECT_GT(cov.starts[arch::TaskKind::kControl], 200);
  EXPECT_GT(cov.ut_done, 2000);
  EXPECT_GT(wavelets, 20000);      // color-cycles with wavelets waiting at the CE
  EXPECT_GT(fabric_reads, 10000);  // color-cycles with a DSD operation reading the color
  EXPECT_GT(fifo_waits, 10000);    // microthread-cycles stopped by a FIFO (empty or full)
  EXPECT_GT(fifo_popped, 100);     // FIFOs that popped: their head off slot 0 at the end
  for (const arch::InsnInfo& n : arch::kInsns) {
    if (n.cls == arch::InsnClass::kSys && std::string(n.mnemonic) == "trap") continue;  // faults
    EXPECT_TRUE(cov.lines.count(isa::Index(&n))) << n.mnemonic << " never retired";
  }
}

TEST(Mix, NamesParseAndBadNamesSayWhatIsAllowed) {
  EXPECT_EQ(Mix::Parse("all"), Mix::All());
  EXPECT_EQ(Mix::Parse("scalar"), Mix::Scalar());
  EXPECT_FALSE(Mix::Scalar().HasDsd());
  EXPECT_TRUE(Mix::All().HasDsd());
  const Mix m = Mix::Parse("alu,fp,fabric");
  EXPECT_TRUE(m.Has(Category::kAlu));
  EXPECT_TRUE(m.Has(Category::kDsdFabric));
  EXPECT_FALSE(m.Has(Category::kMem));
  EXPECT_EQ(m.ToString(), "alu,fp,fabric");
  EXPECT_EQ(Mix::Parse(m.ToString()), m);
  try {
    Mix::Parse("alu,bogus");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown mix 'bogus'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("scalar"), std::string::npos) << e.what();
  }
}

TEST(Mix, EveryCategoryAloneMakesProgramsThatEndAsIntended) {
  for (int c = 0; c < kNumCategories; ++c) {
    GenOptions o;
    o.mix = Mix().Add(static_cast<Category>(c));
    o.fault_rate = 0.5;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const ProgramRun r = RunProgram(Generate(seed, o), Func(), nullptr, RunOptions{});
      ASSERT_FALSE(r.failure) << o.mix.ToString() << " seed " << seed << ": " << r.failure->message;
    }
  }
}

}  // namespace
}  // namespace tessera::fuzz
