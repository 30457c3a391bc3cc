// The layout file form and Link: an 8x8 checkerboard of two programs with per-PE params and
// looped routes, the program cache, and every error a layout can make, each with its
// file:line:column.
#include "layout/layout.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <tuple>

#include "asm/assembler.h"
#include "asm/disasm.h"
#include "asm/object.h"
#include "layout/image.h"
#include "layout/route_check.h"

namespace tessera::layout {
namespace {

const std::string kData = TESSERA_LAYOUT_DATA;

uint32_t Word(const assembler::PeProgram& p, uint16_t a) { return p.Word(a); }

uint32_t Cfg(std::initializer_list<arch::Dir> rx, std::initializer_list<arch::Dir> tx) {
  uint32_t r = 0, t = 0;
  for (arch::Dir d : rx) r |= 1u << static_cast<unsigned>(d);
  for (arch::Dir d : tx) t |= 1u << static_cast<unsigned>(d);
  return ColorCfgValue(r, t);
}

const RouteCfg* FindRoute(const Image& img, int x, int y, int color) {
  const ImagePe* pe = img.Pe(x, y);
  if (!pe) return nullptr;
  for (const RouteCfg& r : pe->routes) {
    if (r.color == color) return &r;
  }
  return nullptr;
}

// The error text of parsing and linking `text` as t.tlayout (programs from the data folder).
std::string Error(const std::string& text) {
  try {
    Link(ParseLayoutText("t.tlayout", text, kData));
  } catch (const assembler::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Layout, CheckerboardParsesAndLinks) {
  const Layout layout = ParseLayoutFile(kData + "/checkerboard.tlayout");
  EXPECT_EQ(layout.fabric_w(), 8);
  EXPECT_EQ(layout.fabric_h(), 8);
  EXPECT_EQ(layout.regions().size(), 64u);
  EXPECT_EQ(layout.routes().size(), 16u + 2u);

  const Image img = Link(layout);
  EXPECT_EQ(img.fabric_w, 8);
  ASSERT_EQ(img.pes.size(), 64u);
  EXPECT_EQ(img.programs.size(), 64u);  // every PE has its own ID, so its own link
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      SCOPED_TRACE(testing::Message() << "PE(" << x << "," << y << ")");
      const assembler::PeProgram* p = img.ProgramAt(x, y);
      ASSERT_NE(p, nullptr);
      const bool black = (x + y) % 2 == 0;
      const int c = y % 2 == 0 ? 3 : 5;
      const assembler::SymbolInfo* id = img.Symbol(x, y, "id");
      ASSERT_NE(id, nullptr);
      EXPECT_EQ(Word(*p, id->address), uint32_t(x + y * 8));  // param ID=x+y*FW
      EXPECT_EQ(img.Symbol(x, y, "role") != nullptr, black);
      EXPECT_EQ(img.Symbol(x, y, "sum") != nullptr, !black);
      if (black) {
        EXPECT_EQ(Word(*p, img.Symbol(x, y, "role")->address), 1u);
        ASSERT_EQ(p->tasks.size(), 2u);
        EXPECT_EQ(p->tasks[1].id, c + 1);  // param RX=c+1, a data task's ID is its color
        EXPECT_EQ(p->tasks[1].kind, arch::TaskKind::kData);
      } else {
        ASSERT_EQ(p->tasks.size(), 1u);
        EXPECT_EQ(p->tasks[0].id, c);
      }
      const RouteCfg* r = FindRoute(img, x, y, c);
      if (black && x < 7) {
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->color_cfg, Cfg({arch::Dir::kRamp}, {arch::Dir::kE}));
        EXPECT_EQ(r->switch_cfg, 0u);
      } else if (!black && x > 0) {
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->color_cfg, Cfg({arch::Dir::kW}, {arch::Dir::kRamp}));
      } else {
        EXPECT_EQ(r, nullptr);  // black on the east edge, white on the west edge: no route
      }
    }
  }
  // The column bus on color 7 and the switch at its bottom (docs/router.md's 0x1ADA).
  for (int y = 0; y < 7; ++y) {
    ASSERT_NE(FindRoute(img, 0, y, 7), nullptr);
    EXPECT_EQ(FindRoute(img, 0, y, 7)->color_cfg,
              Cfg({arch::Dir::kN, arch::Dir::kRamp}, {arch::Dir::kS}));
  }
  ASSERT_NE(FindRoute(img, 0, 7, 7), nullptr);
  EXPECT_EQ(FindRoute(img, 0, 7, 7)->switch_cfg, 0x1ADAu);
  EXPECT_EQ(FindRoute(img, 1, 7, 7), nullptr);
}

TEST(Layout, ForEachWriteGivesEverythingABackendLoads) {
  const Image img = Link(ParseLayoutFile(kData + "/checkerboard.tlayout"));
  std::map<std::tuple<int, int, uint16_t>, uint32_t> w;
  size_t dims = 0;
  img.ForEachWrite([&](int x, int y, uint16_t a, uint32_t v) {
    EXPECT_TRUE(w.emplace(std::make_tuple(x, y, a), v).second) << "written twice";
    if (a == arch::FabricDim::kAddr) ++dims;
  });
  EXPECT_EQ(dims, 64u);
  EXPECT_EQ(w.at({5, 6, arch::FabricDim::kAddr}), 0x00080008u);
  const assembler::PeProgram& p = *img.ProgramAt(2, 3);  // white, ID 26, RX 5
  for (uint16_t a = 0; a < p.end; a += 4) EXPECT_EQ(w.at({2, 3, a}), p.Word(a));
  EXPECT_EQ(w.count({2, 3, static_cast<uint16_t>((p.end + 3) & ~3)}), 0u);
  EXPECT_EQ(w.at({2, 3, img.Symbol(2, 3, "id")->address}), 26u);
  EXPECT_EQ(w.at({2, 3, arch::TaskCfg::Addr(5)}),
            arch::TaskCfg::WithKind(arch::TaskCfg::WithEntry(0, p.tasks[0].entry),
                                    static_cast<uint32_t>(arch::TaskKind::kData)));
  EXPECT_EQ(w.at({2, 3, arch::ColorCfg::Addr(5)}), Cfg({arch::Dir::kW}, {arch::Dir::kRamp}));
  EXPECT_EQ(w.at({2, 3, arch::SwitchCfg::Addr(5)}), 0u);
  EXPECT_EQ(w.at({0, 7, arch::SwitchCfg::Addr(7)}), 0x1ADAu);
  EXPECT_EQ(w.count({2, 3, arch::ColorCfg::Addr(3)}), 0u);
}

TEST(Layout, SwitchStartRangeFilterAndColorSwap) {
  // start= sets the switch's position at load; filter=MIN..MAX sets SwitchCfg.Filter and
  // FilterRange, which the image carries and a backend is written.
  const Image img = Link(ParseLayoutText("t.tlayout", R"(fabric 2x1
route color=3 at=0,0 rx=RAMP tx=E pos1=tx:RAMP ring start=1
route color=3 at=1,0 rx=W tx=RAMP filter=4..9 swap_x
)"));
  using SC = arch::SwitchCfg;
  ASSERT_NE(FindRoute(img, 0, 0, 3), nullptr);
  EXPECT_EQ(SC::Pos(FindRoute(img, 0, 0, 3)->switch_cfg), 1u);
  EXPECT_EQ(SC::Filter(FindRoute(img, 0, 0, 3)->switch_cfg), 0u);
  const RouteCfg* f = FindRoute(img, 1, 0, 3);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->switch_cfg, 1u << SC::kFilterLsb);
  EXPECT_EQ(f->filter_range, 9u << 16 | 4u);
  std::map<std::tuple<int, int, uint16_t>, uint32_t> w;
  img.ForEachWrite([&](int x, int y, uint16_t a, uint32_t v) { w[{x, y, a}] = v; });
  EXPECT_EQ(w.at({1, 0, arch::FilterRange::Addr(3)}), 9u << 16 | 4u);
  EXPECT_EQ(w.count({0, 0, arch::FilterRange::Addr(3)}), 0u);
  // The image's text keeps both, and reads back the same.
  const std::string text = WriteImage(img);
  EXPECT_NE(text.find("route 3 rx W tx RAMP switch 0x8000 filter 4 9 swap_x"), std::string::npos)
      << text;
  EXPECT_EQ(arch::ColorCfg::SwapX(f->color_cfg), 1u);
  EXPECT_EQ(arch::ColorCfg::SwapX(FindRoute(img, 0, 0, 3)->color_cfg), 0u);
  EXPECT_EQ(WriteImage(ReadImage(text, "t.timg")), text);
}

TEST(Layout, CounterFilters) {
  // counter=COUNT..LIMIT with filter=: SwitchCfg.Counter and the counted kinds, FilterCount;
  // the image carries them and reads back the same.
  const Image img = Link(ParseLayoutText("t.tlayout", R"(fabric 2x1
route color=4 at=0,0 rx=W tx=RAMP filter=0..1 counter=3..14 count=data,ctrl
route color=4 at=1,0 rx=W tx=RAMP filter=2..2 counter=0..5 count=none
)"));
  using SC = arch::SwitchCfg;
  const RouteCfg* a = FindRoute(img, 0, 0, 4);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(SC::Filter(a->switch_cfg) + SC::Counter(a->switch_cfg) + SC::CountData(a->switch_cfg) +
                SC::CountCtrl(a->switch_cfg),
            4u);
  EXPECT_EQ(a->filter_count, 14u << 16 | 3u);
  const RouteCfg* b = FindRoute(img, 1, 0, 4);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(SC::CountData(b->switch_cfg) + SC::CountCtrl(b->switch_cfg), 0u);
  std::map<std::tuple<int, int, uint16_t>, uint32_t> w;
  img.ForEachWrite([&](int x, int y, uint16_t ad, uint32_t v) { w[{x, y, ad}] = v; });
  EXPECT_EQ(w.at({1, 0, arch::FilterCount::Addr(4)}), 5u << 16);
  const std::string text = WriteImage(img);
  EXPECT_NE(text.find("filter 0 1 count 3 14"), std::string::npos) << text;
  EXPECT_EQ(WriteImage(ReadImage(text, "t.timg")), text);
  try {
    ParseLayoutText("t.tlayout", "fabric 1x1\nroute color=2 at=0,0 rx=W tx=RAMP counter=0..3\n");
    FAIL() << "a counter without filter= was accepted";
  } catch (const assembler::Error& e) {
    EXPECT_NE(std::string(e.what()).find("counter= needs filter=MIN..MAX"), std::string::npos)
        << e.what();
  }
}

TEST(Layout, EmptySidesWithSwitchPositions) {
  // rx=none tx=none: no base route; the positions accept W and E, so early wavelets wait for a
  // route the program writes (<collectives_2d>). `none` stands alone.
  const Image img = Link(ParseLayoutText("t.tlayout", R"(fabric 1x1
route color=2 at=0,0 rx=none tx=none pos1=rx:none pos2=rx:W pos3=rx:E
)"));
  const RouteCfg* r = FindRoute(img, 0, 0, 2);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->color_cfg, 0u);
  EXPECT_EQ(r->switch_cfg, 6u | 1u << 4 | 2u << 8);
  const std::string text = WriteImage(img);
  EXPECT_NE(text.find("route 2 rx none tx none switch 0x0216"), std::string::npos) << text;
  try {
    ParseLayoutText("t.tlayout", "fabric 1x1\nroute color=2 at=0,0 rx=none,W tx=E\n");
    FAIL() << "none with a direction was accepted";
  } catch (const assembler::Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.tlayout:2"), std::string::npos) << e.what();
  }
}

TEST(Layout, EqualParamsShareOneLink) {
  const Image img = Link(ParseLayoutText("t.tlayout", R"(
fabric 4x2
region at=0,0 size=4x2 program=white.s param ID=x/2 param RX=1
)",
                                         kData));
  EXPECT_EQ(img.pes.size(), 8u);
  EXPECT_EQ(img.programs.size(), 2u);  // ID 0 and ID 1
  EXPECT_EQ(img.Pe(0, 1)->program, img.Pe(1, 0)->program);
  EXPECT_NE(img.Pe(1, 0)->program, img.Pe(2, 0)->program);
  EXPECT_EQ(img.programs[img.Pe(3, 1)->program].params.at("ID"), 1);
}

TEST(Layout, ParamsAreAssemblyTimeConstantsInEachRegion) {
  const Image img = Link(ParseLayoutText("t.tlayout", R"(
fabric 3x1
region at=0,0 program=role.s param ROLE=0 param N=2
region at=1,0 size=2x1 program=role.s param ROLE=1 param N=x+1
)",
                                         kData));
  ASSERT_EQ(img.programs.size(), 3u);  // (0, 2), (1, 2), (1, 3)
  auto text_words = [&](int x) {
    const assembler::PeProgram& p = img.programs[img.Pe(x, 0)->program].program;
    const uint16_t main = p.symbols.at("main").address;
    std::vector<std::string> words;
    for (uint16_t a = main; a < main + 16; a += 4)
      words.push_back(assembler::DisassembleWord(p.Word(a)));
    return words;
  };
  EXPECT_EQ(text_words(0)[0], "li      r1, 90");
  EXPECT_EQ(text_words(0)[1], "tend");
  EXPECT_EQ(text_words(1),
            (std::vector<std::string>{"nop", "nop", "tend", ".word   0x00000000 ; illegal"}));
  EXPECT_EQ(text_words(2), (std::vector<std::string>{"nop", "nop", "nop", "tend"}));
  // .space 4*N: the exported buffer has N words on each PE.
  EXPECT_EQ(img.programs[img.Pe(2, 0)->program].program.symbols.at("buf").count, 3u);
  EXPECT_EQ(img.programs[img.Pe(0, 0)->program].program.symbols.at("buf").count, 2u);
}

// A param with a number for its default is an assembly-time constant too when the region does
// not give it (`.if` works on it); a region that gives it overrides the default.
TEST(Layout, ParamDefaultsAreAssemblyTimeConstants) {
  const Image img = Link(ParseLayoutText("t.tlayout", R"(
fabric 2x1
region at=0,0 program=role_default.s
region at=1,0 program=role_default.s param ROLE=1
)",
                                         kData));
  ASSERT_EQ(img.programs.size(), 2u);
  auto first = [&](int x) {
    const assembler::PeProgram& p = img.programs[img.Pe(x, 0)->program].program;
    return assembler::DisassembleWord(p.Word(p.symbols.at("main").address));
  };
  EXPECT_EQ(first(0), "li      r1, 7");  // ROLE = 0, the default
  EXPECT_EQ(first(1), "nop");
}

TEST(Layout, IncludedLayoutFilesAndContinuedLines) {
  const Image img = Link(ParseLayoutText("t.tlayout", R"(
fabric 2x1
let C = \
    5                          # a continued line
include parts/leaf.tlayout
route color=C at=0,0 \
      rx=RAMP tx=E
)",
                                         kData));
  ASSERT_EQ(img.pes.size(), 2u);  // PE(0,0) has a route only
  EXPECT_EQ(img.programs[img.Pe(1, 0)->program].params.at("RX"), 5);
  EXPECT_EQ(img.programs[img.Pe(1, 0)->program].params.at("ID"), 7);
  std::map<std::tuple<int, int, uint16_t>, uint32_t> w;
  img.ForEachWrite([&](int x, int y, uint16_t a, uint32_t v) { w[{x, y, a}] = v; });
  EXPECT_EQ(w.at({0, 0, arch::ColorCfg::Addr(5)}), Cfg({arch::Dir::kRamp}, {arch::Dir::kE}));
  EXPECT_EQ(w.at({1, 0, arch::ColorCfg::Addr(5)}), Cfg({arch::Dir::kW}, {arch::Dir::kRamp}));
}

TEST(LayoutErrors, AnIncludedFileThatCannotBeOpenedIsNamed) {
  try {
    ParseLayoutText("t.tlayout", "fabric 1x1\ninclude parts/none.tlayout\n", kData);
    FAIL() << "no error";
  } catch (const assembler::Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.tlayout:2:1: error: include parts/none.tlayout: "
                                         "cannot open"),
              std::string::npos)
        << e.what();
  }
}

TEST(Layout, RoutesThatDoNotConnectAreNamed) {
  const Image img = Link(ParseLayoutText("t.tlayout", R"(
fabric 3x2
route color=4 at=0,0 rx=RAMP tx=E,S       # PE(1,0) takes it; PE(0,1) has no route of 4
route color=4 at=1,0 rx=N tx=RAMP pos2=rx:W
route color=6 at=2,1 rx=RAMP tx=N,E       # N: PE(2,0) accepts only from S; E is the edge
route color=6 at=2,0 rx=S tx=RAMP pos1=rx:W
)",
                                         kData));
  EXPECT_EQ(UnconnectedRoutes(img),
            (std::vector<std::string>{
                "PE(0,0) sends color 4 south (S), but PE(0,1) has no route of color 4"}));
  const Image bad = Link(ParseLayoutText("t.tlayout", R"(
fabric 2x1
route color=3 at=0,0 rx=RAMP tx=E
route color=3 at=1,0 rx=N tx=RAMP pos1=rx:S
)",
                                         kData));
  EXPECT_EQ(UnconnectedRoutes(bad),
            (std::vector<std::string>{"PE(0,0) sends color 3 east (E), but PE(1,0) accepts "
                                      "color 3 only from S,N at any switch position"}));
}

TEST(Layout, RegionNamesAndRelativeCoordinates) {
  const Image img = Link(ParseLayoutText("t.tlayout", R"(
fabric 6x4
let BASE = 100   # a constant for later lines
region at=2,1 size=3,2 program=white.s param ID=BASE+(x-X0)+(y-Y0)*W+W*H*1000 param RX=FH
)",
                                         kData));
  EXPECT_EQ(img.pes.size(), 6u);
  EXPECT_EQ(img.ProgramAt(1, 1), nullptr);
  const assembler::PeProgram* p = img.ProgramAt(4, 2);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Word(img.Symbol(4, 2, "id")->address), uint32_t(100 + 2 + 3 + 6000));
  EXPECT_EQ(p->tasks[0].id, 4);
}

TEST(Layout, CApiMirrorsTheFileForm) {
  Layout l(2, 1);
  Region r;
  r.x0 = 0;
  r.y0 = 0;
  r.w = 2;
  r.h = 1;
  r.program = {kData + "/white.s"};
  r.params = {{"ID", Expr::Parse("x*10")}, {"RX", 2}};
  l.AddRegion(r);
  Route rt;
  rt.color = 2;
  rt.x0 = 0;
  rt.x1 = 1;
  rt.rx = 1u << static_cast<unsigned>(arch::Dir::kW);
  rt.tx = 1u << static_cast<unsigned>(arch::Dir::kRamp);
  rt.when = Expr::Parse("x == 1");
  l.AddRoute(rt);
  const Image img = Link(l);
  EXPECT_EQ(img.ProgramAt(1, 0)->Word(img.Symbol(1, 0, "id")->address), 10u);
  EXPECT_EQ(FindRoute(img, 0, 0, 2), nullptr);
  ASSERT_NE(FindRoute(img, 1, 0, 2), nullptr);
  EXPECT_EQ(FindRoute(img, 1, 0, 2)->color_cfg, Cfg({arch::Dir::kW}, {arch::Dir::kRamp}));
}

TEST(Layout, SeveralFilesAndObjects) {
  // An object file (as `tessera asm -o` writes it) linked after a source, with its own param.
  const std::string obj = testing::TempDir() + "/extra.tobj";
  assembler::WriteObjectFile(obj,
                             assembler::AssembleText("extra.s",
                                                     "        .param K\n        .data\n"
                                                     "k:      .word K\n        .export k, u32, 1\n")
                                 .object);
  const Image img = Link(ParseLayoutText("t.tlayout",
                                         "fabric 3x1\nregion at=0,0 size=3x1 program=white.s,\"" +
                                             obj + "\" param ID=x param RX=1 param K=100+x\n",
                                         kData));
  ASSERT_EQ(img.programs.size(), 3u);
  const assembler::PeProgram& p = *img.ProgramAt(2, 0);
  EXPECT_EQ(p.Word(img.Symbol(2, 0, "k")->address), 102u);
  EXPECT_EQ(p.Word(img.Symbol(2, 0, "id")->address), 2u);
  EXPECT_GT(img.Symbol(2, 0, "k")->address, img.Symbol(2, 0, "sum")->address);  // .data order
  EXPECT_EQ(img.programs[0].sources.size(), 2u);
}

TEST(Layout, IncludeDirectories) {
  const std::string text = "fabric 2x1\nregion at=0,0 size=2x1 program=uses_include.s param ID=x\n";
  const Image img = Link(ParseLayoutText("t.tlayout", "include inc\n" + text, kData));
  EXPECT_EQ(img.ProgramAt(1, 0)->Word(img.Symbol(1, 0, "v")->address), 7001u);
  EXPECT_NE(Error(text).find("consts.inc"), std::string::npos);  // not found without it
}

TEST(Layout, EmptyLoopsAndSteps) {
  const Layout l = ParseLayoutText("t.tlayout", R"(
fabric 8x1
for i in 5..4      # no iterations
  route color=1 at=i,0 rx=W tx=E
end
for i in 0..7 step 3
  route color=2 at=i,0 rx=W tx=E
end
)");
  ASSERT_EQ(l.routes().size(), 3u);
  EXPECT_EQ(l.routes()[2].x0, 6);
}

// Found by make fuzz (fuzz_layout): an `include` without a file name, or with an unterminated
// quote, threw out of the reader (std::terminate). Now they are errors at the name's place.
TEST(LayoutErrors, AnIncludeWithoutAFileName) {
  EXPECT_EQ(Error("fabric 2x2\ninclude\n"),
            "t.tlayout:2:8: error: expected a file name, found the end of the line");
  EXPECT_EQ(Error("fabric 2x2\ninclude \"parts/a.tlayout\n"),
            "t.tlayout:2:9: error: unterminated '\"'");
}

// Found by make fuzz (fuzz_layout): each loop is bounded, but loops inside loops multiplied, and
// a layout ran for seconds (minutes with more nesting). Executed statements are bounded as a
// whole, and a statement failing on every iteration stops the layout after 10,000 failures.
TEST(LayoutErrors, NestedLoopsAreBoundedAsAWhole) {
  EXPECT_EQ(Error("fabric 8x8\nfor a in 0..1023\nfor b in 0..1023\nlet q = a + b\nend\nend\n"),
            "t.tlayout:4:1: error: the layout executes more than 1048576 statements (loops "
            "inside loops?); that is the limit");
  const std::string e = Error(
      "fabric 8x8\nfor a in 0..99\nfor b in 0..99\nfor c in 0..99\nlet q = nope\nend\nend\nend\n");
  EXPECT_NE(e.find("t.tlayout:5:9: error: unknown name 'nope'"), std::string::npos) << e;
  EXPECT_NE(e.find("t.tlayout:5:1: error: more than 10000 failed statements (in loops?); stopping "
                   "here"),
            std::string::npos)
      << e;
}

// Found by make fuzz (fuzz_layout): a fabric size of many digits overflowed std::stoll and threw
// std::out_of_range out of the parser.
TEST(LayoutErrors, AFabricSizeOfManyDigitsIsOutOfRange) {
  EXPECT_EQ(Error("fabric 2x26666666666666666666666666\n"),
            "t.tlayout:1:8: error: fabric 2x26666666666666666666666666 is out of range (1..65535 "
            "each way)\n"
            "t.tlayout: error: the layout has no 'fabric WxH' statement giving the fabric's size");
}

// A `.param` default is read as the assembler reads numbers: a leading 0 is decimal, not octal,
// and a default beyond 64 bits is left to the assembler to report (it used to throw out of
// std::stoll).
TEST(LayoutParams, NumericDefaultsAreReadAsTheAssemblerReadsThem) {
  const std::string dir = testing::TempDir();
  std::ofstream(dir + "/p_dec.s") << "        .param K = 010\n        .data\nk:      .word K\n"
                                     "        .export k, u32, 1\n";
  const Image img =
      Link(ParseLayoutText("t.tlayout", "fabric 1x1\nregion at=0,0 program=p_dec.s\n", dir));
  const assembler::SymbolInfo* k = img.Symbol(0, 0, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(img.ProgramAt(0, 0)->Word(k->address), 10u);
  std::ofstream(dir + "/p_big.s") << "        .param K = 99999999999999999999999\n        .data\n"
                                     "k:      .word K\n";
  try {
    Link(ParseLayoutText("t.tlayout", "fabric 1x1\nregion at=0,0 program=p_big.s\n", dir));
    ADD_FAILURE() << "a 23-digit default linked";
  } catch (const assembler::Error& e) {
    EXPECT_NE(std::string(e.what()).find("p_big.s:1:"), std::string::npos) << e.what();
  }
}

TEST(LayoutErrors, OverlappingRegions) {
  try {
    Link(ParseLayoutFile(kData + "/overlap.tlayout"));
    FAIL() << "no error";
  } catch (const assembler::Error& e) {
    const std::string f = kData + "/overlap.tlayout";
    EXPECT_EQ(std::string(e.what()),
              f + ":3:1: error: PE(1,1) is in two regions: this one and the one at " + f + ":2:1");
  }
}

TEST(LayoutErrors, OverlapsAndBadExpressionsAreReportedOnce) {
  EXPECT_EQ(Error("fabric 4x4\nregion at=0,0 size=4x4 program=white.s param ID=0 param RX=1\n"
                  "region at=0,0 size=4x4 program=white.s param ID=0 param RX=1\n"),
            "t.tlayout:3:1: error: PE(0,0) is in two regions: this one and the one at "
            "t.tlayout:2:1");
  EXPECT_EQ(Error("fabric 4x4\nregion at=0,0 size=4x4 program=white.s param ID=1/0 param RX=1\n"),
            "t.tlayout:2:50: error: division by zero in 1 / 0 (at PE(0,0))");
}

TEST(LayoutErrors, OutsideTheFabric) {
  EXPECT_EQ(Error("fabric 4x4\nregion at=3,0 size=2x1 program=white.s param ID=0 param RX=1\n"),
            "t.tlayout:2:1: error: the region at 3,0 of size 2x1 does not fit in the 4x4 fabric "
            "(it covers x 3..4, y 0..0; the fabric x 0..3, y 0..3)");
  EXPECT_EQ(Error("fabric 4x4\n  route color=1 at=0..4,0 rx=W tx=E\n"),
            "t.tlayout:2:3: error: the route covers x 0..4, y 0..0, outside the 4x4 fabric "
            "(x 0..3, y 0..3)");
  EXPECT_EQ(Error("fabric 70000x4\n"),
            "t.tlayout:1:8: error: fabric 70000x4 is out of range (1..65535 each way)\n"
            "t.tlayout: error: the layout has no 'fabric WxH' statement giving the fabric's size");
  // The area is bounded too (issue 19: a 65535x65535 fabric made the linker allocate state for
  // 4.3e9 PEs and die of std::bad_alloc).
  EXPECT_EQ(Error("fabric 65535x65535\n"),
            "t.tlayout:1:8: error: fabric 65535x65535 has 4294836225 PEs; a layout may have up to "
            "4194304 (2048x2048; the wafer is 750x994)\n"
            "t.tlayout: error: the layout has no 'fabric WxH' statement giving the fabric's size");
  EXPECT_EQ(Error("fabric 0,4\n"),
            "t.tlayout:1:8: error: fabric width 0 is out of range (1..65535)\n"
            "t.tlayout: error: the layout has no 'fabric WxH' statement giving the fabric's size");
}

TEST(LayoutErrors, ColorsAndDirections) {
  EXPECT_EQ(Error("fabric 4x4\nroute color=24 at=0,0 rx=W tx=E\n"),
            "t.tlayout:2:13: error: color 24 is out of range (0..23)");
  EXPECT_EQ(Error("fabric 4x4\nroute color=1 at=0,0 rx=W,Q tx=E\n"),
            "t.tlayout:2:27: error: unknown direction 'Q' (directions are W, E, S, N, RAMP)");
  EXPECT_EQ(Error("fabric 4x4\nroute color=1 at=0,0 rx=W tx=E,E\n"),
            "t.tlayout:2:32: error: direction E is given twice");
  EXPECT_EQ(Error("fabric 4x4\nroute color=1 at=0,0 rx=W tx=E pos2=tx:up\n"),
            "t.tlayout:2:40: error: unknown direction 'up' (W, E, S, N, RAMP or none)");
  EXPECT_EQ(Error("fabric 4x4\nroute color=1 at=0,0 rx=W\n"),
            "t.tlayout:2:1: error: a route needs tx= (route color=C at=X..X,Y..Y rx=DIRS "
            "tx=DIRS)");
  EXPECT_EQ(Error("fabric 4x4\nroute color=1 at=2..1,0 rx=W tx=E\n"),
            "t.tlayout:2:21: error: empty range 2..1");
}

TEST(LayoutErrors, DuplicateRoute) {
  EXPECT_EQ(Error("fabric 4x4\nroute color=1 at=0..3,0 rx=W tx=E\n"
                  "route color=1 at=2,0..1 rx=N tx=S\n"),
            "t.tlayout:3:1: error: PE(2,0) already has a route for color 1 (from t.tlayout:2:1)");
}

TEST(LayoutErrors, BadExpressions) {
  EXPECT_EQ(Error("fabric 4x4\nregion at=0,0 program=white.s param ID=x+ param RX=1\n"),
            "t.tlayout:2:43: error: expected an expression, found 'param'");
  EXPECT_EQ(Error("fabric 4x4\nregion at=0,0 size=2x1 program=white.s param ID=10/(x-1) "
                  "param RX=1\n"),
            "t.tlayout:2:51: error: division by zero in 10 / 0 (at PE(1,0))");
  EXPECT_EQ(
      Error("fabric 4x4\nroute color=1 at=0,0 rx=W tx=E when=x==X0\n"),
      "t.tlayout:2:40: error: unknown name 'X0' (X0, Y0, W and H are defined only in a region's "
      "param and when expressions) (at PE(0,0))");
  EXPECT_EQ(Error("fabric 4x4\nlet W = 3\n"),
            "t.tlayout:2:5: error: 'W' is a name the layout defines (x, y, X0, Y0, W, H, FW, FH); "
            "choose another");
  EXPECT_EQ(Error("fabric 4x4\nroute color=1 at=x,0 rx=W tx=E\n"),
            "t.tlayout:2:18: error: unknown name 'x' (x and y, the PE's coordinates, are defined "
            "only in param and when expressions)");
  EXPECT_EQ(Error("fabric 4x4\nfor i in 0..2000000\nend\n"),
            "t.tlayout:2:1: error: the loop runs 2000001 times; the limit is 1048576");
  EXPECT_EQ(Error("fabric 4x4\nfor i in 0..3 step 0\nend\n"),
            "t.tlayout:2:20: error: step 0 must be 1 or more");
}

TEST(LayoutErrors, Structure) {
  EXPECT_EQ(Error("fabric 4x4\nfor i in 0..1\n  route color=i at=i,0 rx=W tx=E\n"),
            "t.tlayout:2:1: error: this 'for' has no 'end'");
  EXPECT_EQ(Error("fabric 4x4\nend\n"), "t.tlayout:2:1: error: 'end' without a 'for' to close");
  EXPECT_EQ(Error("fabric 4x4\nregoin at=0,0\n"),
            "t.tlayout:2:1: error: unknown statement 'regoin' (there are fabric, include, let, "
            "for, end, region, route)");
  EXPECT_EQ(Error("route color=1 at=0,0 rx=W tx=E\nfabric 4x4\n"),
            "t.tlayout:1:1: error: 'route' before 'fabric WxH': give the fabric's size first");
  EXPECT_EQ(Error("fabric 4x4\nfabric 4x4\n"),
            "t.tlayout:2:1: error: the fabric's size is given twice (first at line 1)");
  EXPECT_EQ(Error("fabric 4x4\nregion at=0,0 program=white.s param ID=1 param ID=2\n"),
            "t.tlayout:2:48: error: param 'ID' is given twice");
  EXPECT_EQ(Error("fabric 4x4\nregion at=0,0 prog=white.s\n"),
            "t.tlayout:2:15: error: unknown region setting 'prog' (there are at=, size=, "
            "program=, param and when=)");
  EXPECT_EQ(Error("fabric 4x4\nregion size=2x2 program=white.s\n"),
            "t.tlayout:2:1: error: a region needs at= (region at=X0,Y0 size=WxH program=FILE)");
  EXPECT_EQ(Error("fabric 4x4 5\n"),
            "t.tlayout:1:12: error: unexpected text at the end of the statement, found '5'");
  // Several problems are all reported, in line order.
  EXPECT_EQ(Error("fabric 4x4\nroute color=99 at=0,0 rx=W tx=E\nroute color=1 at=0,0 rx=X "
                  "tx=E\n"),
            "t.tlayout:2:13: error: color 99 is out of range (0..23)\n"
            "t.tlayout:3:25: error: unknown direction 'X' (directions are W, E, S, N, RAMP)");
}

TEST(LayoutErrors, ProgramProblemsNameTheRegion) {
  // A param the program does not declare: the linker's message at the region, then for which PE.
  EXPECT_EQ(Error("fabric 2x1\nregion at=1,0 program=white.s param ID=1 param RX=1 param TX=2\n"),
            "t.tlayout:2:1: error: a value is given for param 'TX', but no object declares '.param "
            "TX'\nt.tlayout:2:1: note: linking this region's program for PE(1,0) with ID=1, RX=1, "
            "TX=2");
  // An assembly error: the assembler's file:line:column, then the region.
  const std::string b = Error("fabric 2x1\nregion at=0,0 program=bad.s\n");
  EXPECT_NE(b.find("bad.s:3:9: error: unknown instruction"), std::string::npos) << b;
  EXPECT_NE(b.find("t.tlayout:2:1: note: in the program of this region"), std::string::npos) << b;
  EXPECT_EQ(Error("fabric 2x1\nregion at=0,0 program=white.c\n"),
            "t.tlayout:2:1: error: program file '" + kData +
                "/white.c' is neither assembly (.s) nor an object (.tobj)");
}

}  // namespace
}  // namespace tessera::layout
