// Waves of the RTL fabric limited to a window of cycles and a region of PEs, and the GTKWave
// save file written for them. Dumps are read back with fst2vcd: the scopes they hold, the times
// they dump, and every signal a save file names. LoopRtlFabric everywhere, as a process may build
// one SystemC fabric only; one test builds that one and compares its dump with the loop glue's.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "asm/link.h"
#include "rtl/rtl_fabric.h"
#include "waves/save_file.h"
#include "waves/wavelet_words.h"

namespace tessera::waves {
namespace {

namespace fs = std::filesystem;
using rtl::LoopRtlFabric;
using rtl::RtlFabricOptions;

const std::string kFst2Vcd = TESSERA_FST2VCD;

bool HaveFst2Vcd() {
  return kFst2Vcd.find("NOTFOUND") == std::string::npos && fs::exists(kFst2Vcd);
}

std::string OutPath(const std::string& name) {
  fs::create_directories(TESSERA_TEST_OUT);
  return (fs::path(TESSERA_TEST_OUT) / name).string();
}

// What fst2vcd shows of a dump.
struct Vcd {
  std::set<std::string> names;              // every variable: scope.path.name[range]
  std::set<std::string> top_scopes;         // the scopes at the top of the hierarchy
  std::vector<uint64_t> times;              // every #time, in order
  std::set<std::string> ids;                // every identifier code declared
  std::set<std::string> ids_at_first_time;  // those given a value at the first time
  std::string body;                         // everything after $enddefinitions
};

Vcd ReadVcd(const std::string& fst) {
  FILE* p = popen(fmt::format("'{}' '{}' 2>/dev/null", kFst2Vcd, fst).c_str(), "r");
  if (!p) throw std::runtime_error("cannot run fst2vcd");
  std::string text;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  if (pclose(p) != 0) throw std::runtime_error("fst2vcd failed on " + fst);
  Vcd v;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> scopes;
  bool defs = true;
  while (std::getline(in, line)) {
    if (defs) {
      std::istringstream ls(line);
      std::string kw, kind, width, id, name, range;
      ls >> kw;
      if (kw == "$scope") {
        ls >> kind >> name;
        if (scopes.empty()) v.top_scopes.insert(name);
        scopes.push_back(name);
      } else if (kw == "$upscope") {
        scopes.pop_back();
      } else if (kw == "$var") {
        ls >> kind >> width >> id >> name >> range;
        std::string full;
        for (const auto& s : scopes) full += s + ".";
        full += name;
        // GTKWave names a one-bit vector [0:0] by its bit, as save files must.
        if (range == "[0:0]") {
          full += "[0]";
        } else if (range != "$end") {
          full += range;
        }
        v.names.insert(full);
        v.ids.insert(id);
      } else if (kw == "$enddefinitions") {
        defs = false;
      }
      continue;
    }
    v.body += line + "\n";
    if (line.empty() || line[0] == '$') continue;
    if (line[0] == '#') {
      v.times.push_back(std::stoull(line.substr(1)));
      continue;
    }
    if (v.times.size() != 1) continue;
    // A value at the first time: "0!", "b0101 !", "r1.5 !".
    const size_t sp = line.find(' ');
    v.ids_at_first_time.insert(sp == std::string::npos ? line.substr(1) : line.substr(sp + 1));
  }
  return v;
}

// What a save file names: its signals, its groups and its settings ([key] value).
struct Save {
  std::vector<std::string> signals;
  std::vector<std::string> groups;  // in order of their beginnings
  std::map<std::string, std::string> settings;
  std::string filter;  // ^>1 PATH: the translate filter process
};

constexpr unsigned long kGroupBeginFlag = 0x800000;  // gtkwave's TR_GRP_BEGIN

Save ReadSave(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("no save file " + path);
  Save s;
  std::string line, flags;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '@') {
      flags = line;
    } else if (line[0] == '[') {
      const size_t close = line.find(']');
      s.settings[line.substr(1, close - 1)] = line.substr(close + 2);
    } else if (line[0] == '-') {
      if (std::stoul(flags.substr(1), nullptr, 16) & kGroupBeginFlag)
        s.groups.push_back(line.substr(1));
    } else if (line.rfind("^>1 ", 0) == 0) {
      s.filter = line.substr(4);
    } else if (line[0] == '+') {  // an alias: +{shown name} signal
      s.signals.push_back(line.substr(line.find('}') + 2));
    } else if (line[0] != '*') {
      s.signals.push_back(line);
    }
  }
  return s;
}

// Every PE of the fabric runs bench/programs/scalar_loop.s (its cycle counter and registers
// change every cycle).
void LoadScalarLoop(rtl::RtlFabric& fab) {
  static const assembler::PeProgram prog =
      assembler::AssembleAndLink(std::string(TESSERA_BENCH_PROGRAMS) + "/scalar_loop.s", {}, {});
  for (int y = 0; y < fab.Height(); ++y) {
    for (int x = 0; x < fab.Width(); ++x) {
      for (size_t a = 0; a < prog.sram.size(); a += 4) {
        const uint32_t w = prog.Word(static_cast<uint16_t>(a));
        if (w) fab.WriteReg({x, y}, static_cast<uint16_t>(a), w);
      }
      for (const auto& t : prog.tasks) {
        const uint32_t v = arch::TaskCfg::WithEntry(0, t.entry);
        fab.WriteReg({x, y}, arch::TaskCfg::Addr(t.id),
                     arch::TaskCfg::WithKind(v, static_cast<uint32_t>(t.kind)));
      }
      fab.WriteReg({x, y}, arch::TaskActiveSet::kAddr, 1);
    }
  }
}

RtlFabricOptions CeFabric(int w, int h, const std::string& fst) {
  RtlFabricOptions o;
  o.width = w;
  o.height = h;
  o.ce = true;
  o.wave_path = fst;
  return o;
}

// A 3x2 fabric of full PEs with waves for PEs (1,0)..(2,0) and cycles [20, 50), run in two
// parts that straddle the window's start.
struct WindowedRun {
  std::string fst = OutPath("windowed.fst");
  RtlFabricOptions opt;
  std::unique_ptr<LoopRtlFabric> fab;
  WindowedRun() {
    fs::remove(fst);
    opt = CeFabric(3, 2, fst);
    opt.wave_from = 20;
    opt.wave_to = 50;
    opt.wave_x0 = 1;
    opt.wave_y0 = 0;
    opt.wave_x1 = -1;  // the last column
    opt.wave_y1 = 0;
    fab = std::make_unique<LoopRtlFabric>(opt);
    LoadScalarLoop(*fab);
    EXPECT_EQ(fab->Run(30), 30u);
    EXPECT_EQ(fab->Run(40), 40u);
    EXPECT_TRUE(fab->Faults().empty());
  }
};

TEST(RtlWaves, WindowAndRegionLimitTheDump) {
  if (!HaveFst2Vcd()) GTEST_SKIP() << "fst2vcd not found";
  WindowedRun run;
  // The file is complete once the window has passed, while the fabric still runs.
  const Vcd v = ReadVcd(run.fst);
  EXPECT_EQ(v.top_scopes, (std::set<std::string>{"tile_x1_y0", "tile_x2_y0"}));
  // Every cycle of the window, and no other: the CEs' cycle counters change every cycle.
  std::vector<uint64_t> want;
  for (uint64_t t = 20; t < 50; ++t) want.push_back(t);
  EXPECT_EQ(v.times, want);
  // The first dumped cycle holds every signal's value.
  EXPECT_EQ(v.ids_at_first_time, v.ids);
  EXPECT_GT(v.ids.size(), 1000u);
}

TEST(RtlWaves, SaveFileNamesOnlySignalsOfTheDump) {
  if (!HaveFst2Vcd()) GTEST_SKIP() << "fst2vcd not found";
  WindowedRun run;
  const std::string save = WriteGtkwSave(run.fst, run.opt, run.fab->Cycle());
  EXPECT_EQ(save, OutPath("windowed.gtkw"));
  const Vcd v = ReadVcd(run.fst);
  const Save s = ReadSave(save);
  for (const std::string& name : s.signals)
    EXPECT_TRUE(v.names.count(name)) << name << " is not in the dump";
  EXPECT_GT(s.signals.size(), 100u);
  EXPECT_EQ(s.groups, (std::vector<std::string>{"PE(1,0) router", "PE(1,0) CE", "PE(1,0) FMAC",
                                                "PE(2,0) router", "PE(2,0) CE", "PE(2,0) FMAC"}));
  EXPECT_EQ(s.settings.at("dumpfile"), "\"" + run.fst + "\"");
  EXPECT_EQ(s.settings.at("timestart"), "20");
}

bool OnPath(const char* tool) {
  return std::system(fmt::format("command -v {} >/dev/null 2>&1", tool).c_str()) == 0;
}

// GTKWave itself, headless: it shows every signal the save file names (it drops a missing one
// silently), under the names the save file gives, and the view opens on the window.
TEST(RtlWaves, GtkwaveShowsEverySignalOfTheSaveFile) {
  if (!OnPath("gtkwave") || !OnPath("xvfb-run")) GTEST_SKIP() << "gtkwave or xvfb-run not found";
  WindowedRun run;
  const std::string save = WriteGtkwSave(run.fst, run.opt, run.fab->Cycle());
  run.fab.reset();
  const std::string tcl = OutPath("list_traces.tcl");
  std::ofstream(tcl) << "puts \"VIEW [gtkwave::getWindowStartTime] "
                        "[gtkwave::getWindowEndTime]\"\n"
                        "set n [gtkwave::getTotalNumTraces]\n"
                        "for {set i 0} {$i < $n} {incr i} "
                        "{ puts \"TRACE [gtkwave::getTraceNameFromIndex $i]\" }\n"
                        "gtkwave::/File/Quit\n";
  const std::string out = OutPath("gtkwave.out");
  const int rc = std::system(fmt::format("timeout 120 xvfb-run -a -s '-screen 0 1920x1200x24' "
                                         "gtkwave -S '{}' '{}' >'{}' 2>&1",
                                         tcl, save, out)
                                 .c_str());
  ASSERT_EQ(rc, 0) << "gtkwave failed; see " << out;
  // What GTKWave should list: every row of the save file, by its shown name.
  std::vector<std::string> want;
  {
    std::ifstream in(save);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("+{", 0) == 0) {
        want.push_back(line.substr(2, line.find('}') - 2));
      } else if (line.rfind("-", 0) == 0) {
        want.push_back(line.substr(1));
      }
    }
  }
  std::vector<std::string> got;
  uint64_t start = 0, end = 0;
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("TRACE ", 0) == 0) got.push_back(line.substr(6));
    if (line.rfind("VIEW ", 0) == 0) std::istringstream(line.substr(5)) >> start >> end;
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(start, 20u);
  EXPECT_GE(end, 49u);
  EXPECT_LE(end, 70u);
}

// The translate filter's words: what GTKWave sends (hex digits, as wide as the signal) and shows.
TEST(WaveletWords, LinksAndCreditsReadAsColorControlAndData) {
  const uint64_t f =
      arch::Link::WithData(arch::Link::WithColor(arch::Link::WithValid(0, 1), 5), 0x3f800000);
  EXPECT_EQ(DescribeWaveWord(fmt::format("{:010X}", f)), "c5 d 0x3f800000");
  EXPECT_EQ(DescribeWaveWord(fmt::format("{:010x}", arch::Link::WithCtrl(f, 1))),
            "c5 ctl 0x3f800000");
  EXPECT_EQ(DescribeWaveWord("0000000000"), "-");
  EXPECT_EQ(DescribeWaveWord(
                fmt::format("{:02X}", arch::Credit::WithColor(arch::Credit::WithValid(0, 1), 23))),
            "c23");
  EXPECT_EQ(DescribeWaveWord("17"), "-");  // no valid bit: no credit
  // Unknown values and other widths come back as they are.
  EXPECT_EQ(DescribeWaveWord("xxxxxxxxxx"), "xxxxxxxxxx");
  EXPECT_EQ(DescribeWaveWord("4z00000000"), "4z00000000");
  EXPECT_EQ(DescribeWaveWord("3F80"), "3F80");
  EXPECT_EQ(DescribeWaveWord(""), "");
}

TEST(RtlWaves, SaveFileNamesTheTranslateFilter) {
  const std::string filter = WaveFilterPath();
  ASSERT_FALSE(filter.empty()) << "tessera_wave_filter not found";
  EXPECT_TRUE(fs::path(filter).is_absolute()) << filter;
  const std::string fst = OutPath("filter.fst");
  {
    LoopRtlFabric fab(CeFabric(1, 1, fst));
    fab.Run(2);
    WriteGtkwSave(fst, CeFabric(1, 1, fst), fab.Cycle());
  }
  std::ifstream in(SaveFilePath(fst));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("^>1 " + filter + "\n"), std::string::npos);
  // Link rows go through it (hex plus TR_PTRANSLATED), other rows do not.
  EXPECT_NE(text.find("@4022\n+{W in} "), std::string::npos);
  EXPECT_NE(text.find("@22\n+{pc} "), std::string::npos);
}

TEST(RtlWaves, DefaultWindowDumpsFromCycleZero) {
  if (!HaveFst2Vcd()) GTEST_SKIP() << "fst2vcd not found";
  const std::string fst = OutPath("default.fst");
  {
    LoopRtlFabric fab(CeFabric(1, 1, fst));
    LoadScalarLoop(fab);
    fab.Run(10);
  }
  const Vcd v = ReadVcd(fst);
  EXPECT_EQ(v.top_scopes, std::set<std::string>{"tile_x0_y0"});
  ASSERT_EQ(v.times.size(), 10u);
  EXPECT_EQ(v.times.front(), 0u);
  EXPECT_EQ(v.times.back(), 9u);
}

TEST(RtlWaves, RouterOnlyTilesOverlappingTheRegionAreTraced) {
  if (!HaveFst2Vcd()) GTEST_SKIP() << "fst2vcd not found";
  bool built = false;
  for (auto [w, h] : rtl::BuiltTileShapes(false)) built |= w == 2 && h == 2;
  if (!built) GTEST_SKIP() << "router-only 2x2 tiles not built";
  const std::string fst = OutPath("router_only.fst");
  RtlFabricOptions o;
  o.width = o.height = 4;
  o.tile_w = o.tile_h = 2;
  o.wave_path = fst;
  o.wave_from = 3;
  o.wave_to = 10;
  o.wave_x0 = 1;
  o.wave_y0 = 1;
  o.wave_x1 = 2;
  o.wave_y1 = 1;
  {
    LoopRtlFabric fab(o);
    fab.Run(20);
  }
  WriteGtkwSave(fst, o);
  // PEs (1,1) and (2,1) lie in the tiles of PEs (0,0) and (2,0).
  const Vcd v = ReadVcd(fst);
  EXPECT_EQ(v.top_scopes, (std::set<std::string>{"tile_x0_y0", "tile_x2_y0"}));
  ASSERT_FALSE(v.times.empty());
  EXPECT_EQ(v.times.front(), 3u);
  EXPECT_LE(v.times.back(), 9u);
  const Save s = ReadSave(SaveFilePath(fst));
  EXPECT_EQ(s.groups, (std::vector<std::string>{"PE(1,1) router", "PE(2,1) router"}));
  for (const std::string& name : s.signals)
    EXPECT_TRUE(v.names.count(name)) << name << " is not in the dump";
  EXPECT_NE(s.signals.front().find("tile_x0_y0.tessera_tile.g_row[1].g_col[1].u_pe.u_router"),
            std::string::npos);
}

TEST(RtlWaves, BadWaveOptionsNameTheOption) {
  struct Case {
    const char* what;
    std::function<void(RtlFabricOptions&)> set;
    const char* option;
  };
  const std::vector<Case> cases = {
      {"from after to", [](RtlFabricOptions& o) { o.wave_from = 10, o.wave_to = 5; },
       "--wave-window 10:5"},
      {"empty window", [](RtlFabricOptions& o) { o.wave_from = o.wave_to = 5; }, "--wave-window"},
      {"x0 past the last column", [](RtlFabricOptions& o) { o.wave_x0 = 4; }, "--wave-region 4,0"},
      {"x1 past the last column", [](RtlFabricOptions& o) { o.wave_x1 = 4; }, "--wave-region"},
      {"y1 past the last row", [](RtlFabricOptions& o) { o.wave_y1 = 2; }, "--wave-region"},
      {"negative y0", [](RtlFabricOptions& o) { o.wave_y0 = -1; }, "--wave-region"},
      {"x1 below -1", [](RtlFabricOptions& o) { o.wave_x1 = -2; }, "--wave-region"},
      {"x1 left of x0", [](RtlFabricOptions& o) { o.wave_x0 = 2, o.wave_x1 = 1; },
       "--wave-region 2,0:1,-1"},
  };
  for (const Case& c : cases) {
    RtlFabricOptions o;
    o.width = 4;
    o.height = 2;
    o.wave_path = OutPath("never_written.fst");
    c.set(o);
    for (int how = 0; how < 3; ++how) {
      try {
        if (how == 0) rtl::ValidateRtlOptions(o);
        if (how == 1) LoopRtlFabric fab(o);
        if (how == 2) WriteGtkwSave(o.wave_path, o);
        ADD_FAILURE() << c.what << ": no exception";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(c.option), std::string::npos)
            << c.what << ": " << e.what();
      }
    }
  }
  EXPECT_FALSE(fs::exists(OutPath("never_written.fst")));
  // The defaults and a one-PE region are fine.
  RtlFabricOptions o;
  o.width = 4;
  o.height = 2;
  EXPECT_NO_THROW(rtl::ValidateRtlOptions(o));
  o.wave_x0 = o.wave_x1 = 3;
  o.wave_y0 = o.wave_y1 = 1;
  EXPECT_NO_THROW(rtl::ValidateRtlOptions(o));
}

// The SystemC glue steps a cycle in two phases only inside the window; its dump is the loop
// glue's, and the run is the same on both sides of the window. (The one SystemC fabric of this
// process.)
TEST(RtlWaves, SystemCGlueDumpsWhatTheLoopGlueDumps) {
  if (!HaveFst2Vcd()) GTEST_SKIP() << "fst2vcd not found";
  RtlFabricOptions o = CeFabric(2, 2, "");
  o.wave_from = 15;
  o.wave_to = 40;
  o.wave_x0 = 1;
  o.wave_x1 = 1;
  std::vector<uint32_t> regs[2];
  std::string fst[2];
  for (int glue = 0; glue < 2; ++glue) {
    fst[glue] = OutPath(glue ? "glue_sc.fst" : "glue_loop.fst");
    o.wave_path = fst[glue];
    std::unique_ptr<rtl::RtlFabric> fab;
    if (glue) {
      fab = rtl::MakeScRtlFabric(o);
    } else {
      fab = std::make_unique<LoopRtlFabric>(o);
    }
    LoadScalarLoop(*fab);
    EXPECT_EQ(fab->Run(25), 25u);
    EXPECT_EQ(fab->Run(35), 35u);
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        for (uint32_t r = 0; r < arch::kNumGprs; ++r)
          regs[glue].push_back(fab->ReadReg({x, y}, arch::Gpr::Addr(r)));
    regs[glue].push_back(static_cast<uint32_t>(fab->Cycle()));
  }
  EXPECT_EQ(regs[0], regs[1]);
  const Vcd loop = ReadVcd(fst[0]), sc = ReadVcd(fst[1]);
  EXPECT_EQ(loop.top_scopes, (std::set<std::string>{"tile_x1_y0", "tile_x1_y1"}));
  EXPECT_EQ(sc.names, loop.names);
  EXPECT_EQ(sc.times, loop.times);
  EXPECT_EQ(sc.times.front(), 15u);
  EXPECT_EQ(sc.times.back(), 39u);
  EXPECT_TRUE(sc.body == loop.body) << "the two glues dumped different values";
}

}  // namespace
}  // namespace tessera::waves
