// The image file: writing and reading back gives the same image (text, writes, symbols, lines),
// and every malformed record is refused with file:line:column.
#include "layout/image.h"

#include <gtest/gtest.h>

#include <tuple>

#include "layout/layout.h"

namespace tessera::layout {
namespace {

const std::string kData = TESSERA_LAYOUT_DATA;

using Writes = std::vector<std::tuple<int, int, uint16_t, uint32_t>>;

Writes AllWrites(const Image& img) {
  Writes w;
  img.ForEachWrite([&](int x, int y, uint16_t a, uint32_t v) { w.emplace_back(x, y, a, v); });
  return w;
}

const Image& Checkerboard() {
  static const Image img = Link(ParseLayoutFile(kData + "/checkerboard.tlayout"));
  return img;
}

std::string ReadError(const std::string& text) {
  try {
    ReadImage(text, "i.timg");
  } catch (const assembler::Error& e) {
    return e.what();
  }
  return "";
}

// A small valid image to damage.
const char kSmall[] =
    "tessera-image 1\n"
    "fabric 2 1\n"
    "program 0 sources \"a.s\" params RX=3\n"
    "  end 0x0008\n"
    "  task 3 data 0x0000\n"
    "  symbol \"rx\" 0x0000 .text global\n"
    "  symbol \"v\" 0x0004 .data local export u32 1\n"
    "  line 0x0000 \"a.s\" 4\n"
    "  data 0x0000: 00000003 0000002a\n"
    "endprogram\n"
    "pe 1 0 program 0\n"
    "  route 3 rx W tx RAMP switch 0x0000\n"
    "endpe\n"
    "end programs 1 pes 1\n";

std::string Damage(const std::string& from, const std::string& to) {
  std::string s = kSmall;
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(Image, RoundTripIsIdentical) {
  const Image& img = Checkerboard();
  const std::string text = WriteImage(img);
  const Image back = ReadImage(text, "c.timg");
  EXPECT_EQ(WriteImage(back), text);
  EXPECT_EQ(AllWrites(back), AllWrites(img));
  ASSERT_EQ(back.programs.size(), img.programs.size());
  for (size_t i = 0; i < img.programs.size(); ++i) {
    const assembler::PeProgram& a = img.programs[i].program;
    const assembler::PeProgram& b = back.programs[i].program;
    EXPECT_EQ(a.sram, b.sram);
    EXPECT_EQ(a.end, b.end);
    EXPECT_EQ(img.programs[i].params, back.programs[i].params);
    EXPECT_EQ(img.programs[i].sources, back.programs[i].sources);
    ASSERT_EQ(a.symbols.size(), b.symbols.size());
    for (const auto& [name, s] : a.symbols) {
      const assembler::SymbolInfo& t = b.symbols.at(name);
      EXPECT_EQ(std::tie(s.address, s.section, s.global, s.exported, s.type, s.count),
                std::tie(t.address, t.section, t.global, t.exported, t.type, t.count))
          << name;
    }
    ASSERT_EQ(a.lines.size(), b.lines.size());
    for (size_t k = 0; k < a.lines.size(); ++k) {
      EXPECT_EQ(std::tie(a.lines[k].address, a.lines[k].file, a.lines[k].line),
                std::tie(b.lines[k].address, b.lines[k].file, b.lines[k].line));
    }
    ASSERT_EQ(a.tasks.size(), b.tasks.size());
    for (size_t k = 0; k < a.tasks.size(); ++k) {
      EXPECT_EQ(std::tie(a.tasks[k].id, a.tasks[k].kind, a.tasks[k].entry),
                std::tie(b.tasks[k].id, b.tasks[k].kind, b.tasks[k].entry));
    }
  }
  for (size_t i = 0; i < img.pes.size(); ++i) {
    EXPECT_EQ(img.pes[i].routes, back.pes[i].routes);
    EXPECT_EQ(img.pes[i].program, back.pes[i].program);
  }
}

TEST(Image, FileRoundTripAndSmallImage) {
  const std::string path = testing::TempDir() + "/checkerboard.timg";
  WriteImageFile(path, Checkerboard());
  EXPECT_EQ(WriteImage(ReadImageFile(path)), WriteImage(Checkerboard()));

  EXPECT_EQ(ReadImage(Damage("fabric 2 1", "fabric 010 1"), "i.timg").fabric_w, 10);  // no octal
  // An image may not claim more PEs than a layout may have (issue 19).
  try {
    ReadImage(Damage("fabric 2 1", "fabric 65535 65535"), "i.timg");
    ADD_FAILURE() << "a 65535x65535 image was read";
  } catch (const assembler::Error& e) {
    EXPECT_NE(std::string(e.what()).find("fabric 65535x65535 has 4294836225 PEs; an image may "
                                         "have up to 4194304"),
              std::string::npos)
        << e.what();
  }
  const Image s = ReadImage(kSmall, "i.timg");
  EXPECT_EQ(WriteImage(s), kSmall);
  EXPECT_EQ(s.ProgramAt(0, 0), nullptr);
  ASSERT_NE(s.Symbol(1, 0, "v"), nullptr);
  EXPECT_EQ(s.ProgramAt(1, 0)->Word(s.Symbol(1, 0, "v")->address), 42u);
  EXPECT_EQ(s.Symbol(1, 0, "nope"), nullptr);
  const Writes w = AllWrites(s);
  const Writes want = {
      {0, 0, arch::FabricDim::kAddr, 0x00010002u},
      {1, 0, arch::FabricDim::kAddr, 0x00010002u},
      {1, 0, 0x0000, 3u},
      {1, 0, 0x0004, 42u},
      {1, 0, arch::TaskCfg::Addr(3), 0x00010000u},  // data task at entry 0
      {1, 0, arch::ColorCfg::Addr(3), ColorCfgValue(1u, 1u << 4)},
      {1, 0, arch::SwitchCfg::Addr(3), 0u},
  };
  EXPECT_EQ(w, want);
}

TEST(Image, ZeroRunsAreLeftOutAndReadAsZero) {
  const std::string text = WriteImage(Checkerboard());
  for (size_t at = text.find("data "); at != std::string::npos; at = text.find("data ", at + 1)) {
    const std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_NE(line.find_first_not_of("0 ", line.find(':') + 1), std::string::npos) << line;
  }
}

TEST(ImageErrors, MalformedRecordsAreNamed) {
  EXPECT_EQ(ReadError(""),
            "i.timg: error: malformed image: the file is empty (expected "
            "'tessera-image 1' on the first line)");
  EXPECT_EQ(ReadError("tessera-object 1\n"),
            "i.timg:1:1: error: malformed image: not a tessera image (expected 'tessera-image 1' "
            "on the first line)");
  EXPECT_EQ(ReadError(Damage("tessera-image 1", "tessera-image 2")),
            "i.timg:1:15: error: malformed image: image version 2 is not supported (this tessera "
            "reads version 1)");
  EXPECT_EQ(ReadError(Damage("end programs 1 pes 1\n", "")),
            "i.timg:13: error: malformed image: the image ends without its 'end' record (is it "
            "truncated?)");
  EXPECT_EQ(ReadError(Damage("end programs 1 pes 1", "end programs 1 pes 2")),
            "i.timg:14:1: error: malformed image: the end record counts 1 programs and 2 PEs, the "
            "file has 1 and 1 (is it damaged?)");
  EXPECT_EQ(ReadError(Damage("0000002a", "2a")),
            "i.timg:9:25: error: malformed image: bad data word '2a' (8 hex digits)");
  EXPECT_EQ(ReadError(Damage("  data 0x0000", "  data 0x0002")),
            "i.timg:9:8: error: malformed image: a data address must be a multiple of 4");
  EXPECT_EQ(ReadError(Damage("end 0x0008", "end 0x0004")),
            "i.timg:9:8: error: malformed image: the data extends past the program's end");
  EXPECT_EQ(ReadError(Damage("pe 1 0", "pe 2 0")),
            "i.timg:11:4: error: malformed image: x 2 is out of range (0..1)");
  EXPECT_EQ(ReadError(Damage("pe 1 0 program 0", "pe 1 0 program 1")),
            "i.timg:11:16: error: malformed image: program number 1 is out of range (0..0)");
  EXPECT_EQ(ReadError(Damage("program 0 sources", "program 1 sources")),
            "i.timg:3:9: error: malformed image: program 1 out of order (expected 0)");
  EXPECT_EQ(ReadError(Damage("route 3", "route 24")),
            "i.timg:12:9: error: malformed image: color 24 is out of range (0..23)");
  EXPECT_EQ(ReadError(Damage("tx RAMP", "tx UP")),
            "i.timg:12:19: error: malformed image: bad direction set 'UP' (W, E, S, N, RAMP)");
  EXPECT_EQ(
      ReadError(Damage("switch 0x0000", "switch 0x80000")),
      "i.timg:12:31: error: malformed image: switch value 0x80000 is out of range (0..524287)");
  EXPECT_EQ(ReadError(Damage("switch 0x0000", "switch 0x10000")),
            "i.timg:12:31: error: malformed image: the switch value's Counter bit (16) needs "
            "'filter MIN MAX count COUNT LIMIT'");
  EXPECT_EQ(ReadError(Damage("switch 0x0000", "switch 0x0000 filter 0 1 count 0 3")),
            "i.timg:12:38: error: malformed image: a filter needs the switch value's Filter bit "
            "(15)");
  EXPECT_EQ(ReadError(Damage("switch 0x0000", "switch 0x8000")),
            "i.timg:12:31: error: malformed image: the switch value's Filter bit (15) needs "
            "'filter MIN MAX' after it");
  EXPECT_EQ(ReadError(Damage("switch 0x0000", "switch 0x0000 filter 1 2")),
            "i.timg:12:38: error: malformed image: a filter needs the switch value's Filter bit "
            "(15)");
  EXPECT_EQ(
      ReadError(Damage("switch 0x0000", "switch 0x8000 filter 1 70000")),
      "i.timg:12:47: error: malformed image: filter maximum 70000 is out of range (0..65535)");
  EXPECT_EQ(ReadError(Damage("task 3 data", "task 25 data")),
            "i.timg:5:8: error: malformed image: data task ID 25 is not a color (0..23)");
  EXPECT_EQ(ReadError(Damage("task 3 data 0x0000", "task 3 data 0x0002")),
            "i.timg:5:15: error: malformed image: a task entry must be a multiple of 4");
  EXPECT_EQ(ReadError(Damage("endpe\n", "")),
            "i.timg:13:1: error: malformed image: unknown pe record 'end' (route, endpe)");
  EXPECT_EQ(ReadError(Damage("symbol \"rx\"", "symbol \"rx")),
            "i.timg:6:10: error: malformed image: unterminated '\"'");
  EXPECT_EQ(ReadError(Damage("  end 0x0008\n", "")),
            "i.timg:9:1: error: malformed image: the program has no 'end' record");
}

}  // namespace
}  // namespace tessera::layout
