// Fabric programs (testbench/fuzz/fabric_gen.h): deterministic per seed, one program per PE, routes
// that join every link's ends, traffic that arrives, at most one deliberate fault, a source text
// that parses back; and on the functional model 2x2 programs end as generated (quiet, or at
// their one deliberate fault) without deadlock.
#include "fuzz/fabric_gen.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "asm/assembler.h"
#include "asm/link.h"
#include "fuzz/campaign.h"
#include "machine/func_machine.h"
#include "machine/pe_load.h"

namespace tessera::fuzz {
namespace {

MachineFactory Func(int w, int h) {
  return [w, h] { return machine::MakeFuncMachine(w, h, {1, 1}); };
}

bool HasColor(const std::vector<int>& v, int color) {
  return std::find(v.begin(), v.end(), color) != v.end();
}

template <class T>
bool HasColor(const std::vector<T>& v, int color) {
  for (const T& item : v)
    if (item.color == color) return true;
  return false;
}

// Loads PE i of `f` into b and launches its main.
void LoadAndLaunch(const FabricProgram& f, machine::Machine& b) {
  for (int pe = 0; pe < b.Fabric().NumPes(); ++pe) {
    const fabric::Coord c = b.Fabric().At(pe);
    const assembler::PeProgram img =
        assembler::LinkSingle({assembler::AssembleText("pe.s", f.pes[pe].source).object}, {});
    machine::LoadPeProgram(b, c, img);
    for (const assembler::TaskBinding& t : img.tasks)
      if (t.entry == img.symbols.at("main").address) machine::LaunchTask(b, c, t.id);
  }
}

TEST(FabricGen, SameSeedSameProgramsOtherSeedOtherPrograms) {
  const GenOptions o;
  for (uint64_t seed : {1u, 2u, 77u}) {
    const FabricProgram a = GenerateFabric(seed, 2, 2, o), b = GenerateFabric(seed, 2, 2, o);
    ASSERT_EQ(a.pes.size(), 4u);
    EXPECT_EQ(a.Source(), b.Source());
    EXPECT_NE(a.Source(), GenerateFabric(seed + 1, 2, 2, o).Source());
    std::set<std::string> distinct;
    for (const Program& p : a.pes) distinct.insert(p.source);
    EXPECT_EQ(distinct.size(), 4u)
        << "seed " << seed << ": the PEs' programs are not all different";
  }
}

TEST(FabricGen, TheSourceParsesBackIntoThePrograms) {
  GenOptions o;
  o.fault_rate = 1.0;
  const FabricProgram f = GenerateFabric(9, 2, 2, o);
  const std::optional<FabricProgram> g = ParseFabricSource(f.Source());
  ASSERT_TRUE(g);
  EXPECT_EQ(g->seed, 9u);
  EXPECT_EQ(g->width, 2);
  EXPECT_EQ(g->height, 2);
  EXPECT_EQ(g->mix, "all");
  ASSERT_EQ(g->pes.size(), 4u);
  for (int pe = 0; pe < 4; ++pe) {
    EXPECT_EQ(g->pes[pe].source, f.pes[pe].source) << pe;
    EXPECT_EQ(g->pes[pe].expect_fault, f.pes[pe].expect_fault) << pe;
  }
  EXPECT_FALSE(ParseFabricSource(Generate(9, o).source));
  std::string cut = f.Source();
  cut.erase(cut.find("; ---- PE(1,1)"));
  EXPECT_THROW(ParseFabricSource(cut), std::invalid_argument);
}

// Every link is a tree from one sender's RAMP: each tx direction leads to a PE on the link whose
// rx is the opposite direction; its ends use it (sender: task colors or a stream; receivers: data
// tasks or readers of the stream's length); no PE uses a routed color as its own.
TEST(FabricGen, RoutesJoinEveryLinksEndsAndTheEndsUseThem) {
  constexpr uint32_t kRamp = 1u << static_cast<int>(arch::Dir::kRamp);
  int links = 0, multicast = 0, through = 0, streams = 0, reads = 0, tasks = 0, filters = 0;
  int swaps = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const FabricProgram f = GenerateFabric(seed, 2, 2, GenOptions{});
    ASSERT_EQ(f.links.size(), 4u);
    // A link with color swap arrives as its color's pair: its receiver is filed under the
    // sender's color, with the color it uses.
    std::set<int> swapped;
    for (int pe = 0; pe < 4; ++pe)
      for (const PeLinks::Route& r : f.links[pe].routes)
        if (arch::ColorCfg::SwapX(r.color_cfg)) swapped.insert(r.color);
    swaps += static_cast<int>(swapped.size());
    std::map<int, std::map<int, uint32_t>> cfg;  // link color -> PE -> ColorCfg
    std::map<int, std::map<int, int>> uses;      // link color -> PE -> the color it uses
    for (int pe = 0; pe < 4; ++pe) {
      for (const PeLinks::Route& r : f.links[pe].routes) {
        const bool arrives_swapped =
            !arch::ColorCfg::SwapX(r.color_cfg) && swapped.count(r.color ^ 1);
        const int key = arrives_swapped ? r.color ^ 1 : r.color;
        cfg[key][pe] = r.color_cfg;
        uses[key][pe] = r.color;
        // A filter only where the CE takes the link into a data task, written after the route.
        if (r.filter) {
          ++filters;
          const std::vector<int>& rx = f.links[pe].rx_tasks;
          EXPECT_NE(std::find(rx.begin(), rx.end(), r.color), rx.end());
          EXPECT_NE(f.pes[pe].source.find(fmt::format("sw      r1, FilterRange+4*{}", r.color)),
                    std::string::npos);
        }
        EXPECT_TRUE(f.links[pe].routed >> r.color & 1);
        EXPECT_NE(f.pes[pe].source.find(fmt::format("sw      r1, ColorCfg+4*{}", r.color)),
                  std::string::npos);
      }
    }
    for (const auto& [color, on] : cfg) {
      ++links;
      int senders = 0, receivers = 0;
      for (const auto& [pe, v] : on) {
        const uint32_t rx = arch::ColorCfg::Rx(v), tx = arch::ColorCfg::Tx(v);
        const PeLinks& l = f.links[pe];
        if (rx == kRamp) {
          ++senders;
          EXPECT_TRUE(HasColor(l.task_colors, color) || HasColor(l.streams, color)) << seed;
          multicast += __builtin_popcount(tx) == 2;
        }
        if (tx & kRamp) {
          ++receivers;
          const int c = uses[color][pe];
          EXPECT_TRUE(HasColor(l.rx_tasks, c) || HasColor(l.reads, c)) << seed;
        }
        if (rx != kRamp && (tx & ~kRamp)) ++through;
        for (int d = 0; d < 4; ++d) {
          if (!(tx >> d & 1)) continue;
          const int x = pe % 2 + (d == 1) - (d == 0), y = pe / 2 + (d == 2) - (d == 3);
          ASSERT_TRUE(x >= 0 && x < 2 && y >= 0 && y < 2) << "seed " << seed << " color " << color;
          ASSERT_TRUE(on.count(y * 2 + x)) << "seed " << seed << " color " << color;
          EXPECT_EQ(arch::ColorCfg::Rx(on.at(y * 2 + x)), 1u << (d ^ 1)) << "seed " << seed;
        }
      }
      EXPECT_EQ(senders, 1) << "seed " << seed << " color " << color;
      EXPECT_GE(receivers, 1) << "seed " << seed << " color " << color;
    }
    std::map<int, int> sent;  // stream color -> count
    for (const PeLinks& l : f.links) {
      for (const PeLinks::Stream& st : l.streams) {
        sent[st.color] = st.count;
        if (swapped.count(st.color)) sent[st.color ^ 1] = st.count;  // read as the pair
      }
      streams += static_cast<int>(l.streams.size());
      tasks += static_cast<int>(l.rx_tasks.size());
    }
    for (const PeLinks& l : f.links) {
      for (const PeLinks::Read& r : l.reads) {
        ++reads;
        ASSERT_TRUE(sent.count(r.color)) << "seed " << seed;
        EXPECT_EQ(r.count, sent[r.color]) << "seed " << seed;
      }
    }
  }
  EXPECT_GT(links, 200);
  EXPECT_GT(multicast, 10);
  EXPECT_GT(through, 10);
  EXPECT_GT(streams, 50);
  EXPECT_GT(reads, 50);
  EXPECT_GT(tasks, 100);
  EXPECT_GT(filters, 20);  // about three in ten receivers with data tasks
  EXPECT_GT(swaps, 20);    // a quarter of the links whose color's pair is free
}

TEST(FabricGen, FiftyProgramsEndAsGeneratedOnTheFunctionalModelAndTheirTrafficArrives) {
  int faults = 0;
  uint64_t cycles = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const FabricProgram f = GenerateFabric(seed, 2, 2, GenOptions{});
    int expected = 0;
    bool settled = false;
    for (const Program& p : f.pes) {
      expected += p.expect_fault != arch::CeFault::kNone;
      settled |= p.expect_settled;
    }
    EXPECT_LE(expected, 1) << "seed " << seed;
    faults += expected;
    const ProgramRun r = RunFabricProgram(f, Func(2, 2), nullptr, RunOptions{});
    ASSERT_FALSE(r.failure) << "seed " << seed << ": " << r.failure->message << "\n" << f.Source();
    EXPECT_EQ(r.end, expected  ? RunEnd::kFault
                     : settled ? RunEnd::kSettled
                               : RunEnd::kQuiet)
        << "seed " << seed;
    cycles += r.cycles;
  }
  EXPECT_GT(cycles, 50u * 500);
}

// Wavelets reach the receivers' CEs on link colors: over 50 programs, many PE-cycles see one
// queued, and the receivers' data tasks start.
TEST(FabricGen, LinkWaveletsReachTheirReceivers) {
  int queued = 0, starts = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const FabricProgram f = GenerateFabric(seed, 2, 2, GenOptions{});
    machine::FuncMachine b(2, 2, {1, 1});
    LoadAndLaunch(f, b);
    std::vector<fabric::PeEvents> e;
    bool fault = false;
    for (int c = 0; c < 100000 && !fault && !b.Fabric().Quiescent(); ++c) {
      b.Step(e);
      for (int pe = 0; pe < 4; ++pe) {
        const PeLinks& l = f.links[pe];
        for (int col : l.rx_tasks) {
          queued += b.CeOf(b.Fabric().At(pe)).QueueCount(col) > 0;
          starts += e[pe].task_start && e[pe].task == col;
        }
        for (const PeLinks::Read& r : l.reads)
          queued += b.CeOf(b.Fabric().At(pe)).QueueCount(r.color) > 0;
        fault |= e[pe].faulted;
      }
    }
  }
  EXPECT_GT(queued, 2000);
  EXPECT_GT(starts, 100);
}

TEST(FabricGen, DeliberateFaultsEndTheRunAtTheirOnePe) {
  GenOptions o;
  o.fault_rate = 1.0;
  std::set<int> where;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const FabricProgram f = GenerateFabric(seed, 2, 2, o);
    int n = 0;
    for (int pe = 0; pe < 4; ++pe) {
      if (f.pes[pe].expect_fault == arch::CeFault::kNone) continue;
      ++n;
      where.insert(pe);
    }
    ASSERT_EQ(n, 1) << "seed " << seed;
    const ProgramRun r = RunFabricProgram(f, Func(2, 2), nullptr, RunOptions{});
    ASSERT_FALSE(r.failure) << "seed " << seed << ": " << r.failure->message;
    EXPECT_EQ(r.end, RunEnd::kFault);
  }
  EXPECT_GE(where.size(), 3u);
}

TEST(FabricGen, WithoutSendOrFabricThePesAreAlone) {
  GenOptions o;
  o.mix = Mix::Parse("alu,mem,branch,task");
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const FabricProgram f = GenerateFabric(seed, 2, 2, o);
    for (const PeLinks& l : f.links) EXPECT_TRUE(l.Empty());
    const ProgramRun r = RunFabricProgram(f, Func(2, 2), nullptr, RunOptions{});
    ASSERT_FALSE(r.failure) << "seed " << seed << ": " << r.failure->message;
  }
}

TEST(FabricGen, OtherShapes) {
  for (auto [w, h] : {std::pair{2, 1}, std::pair{1, 3}, std::pair{3, 3}}) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const FabricProgram f = GenerateFabric(seed, w, h, GenOptions{});
      ASSERT_EQ(f.pes.size(), static_cast<size_t>(w * h));
      const ProgramRun r = RunFabricProgram(f, Func(w, h), nullptr, RunOptions{});
      ASSERT_FALSE(r.failure) << w << "x" << h << " seed " << seed << ": " << r.failure->message;
    }
  }
  EXPECT_THROW(GenerateFabric(1, 0, 2, GenOptions{}), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::fuzz
