// Directives (docs/isa.md 8.3): sections, data, alignment, constants, params, tasks, descriptors,
// symbols, register aliases; macros with \@, .rept, .if, .include; the listing.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "arch/arch.h"
#include "asm/listing.h"
#include "asm_test_util.h"

namespace tessera::assembler::test {
namespace {

const ObjSymbol* Sym(const Object& o, const std::string& name) { return o.FindSymbol(name); }

TEST(Directives, SectionsAndData) {
  const Object o =
      Asm("        .text\n"
          "        nop\n"
          "        .data\n"
          "a:      .byte 1, 0xFF, -1\n"
          "        .byte 2\n"
          "b:      .half 0x1234, -2\n"
          "c:      .word 0xDEADBEEF, -1\n"
          "        .ascii \"hi\\n\", \"\\x41\"\n"
          "        .bss\n"
          "buf:    .space 64\n"
          "        .text\n"
          "        tend\n");
  EXPECT_EQ(o.section(SectionId::kText).size, 8u);
  const std::vector<uint8_t> expect = {1,    0xFF, 0xFF, 2,    0x34, 0x12, 0xFE, 0xFF, 0xEF, 0xBE,
                                       0xAD, 0xDE, 0xFF, 0xFF, 0xFF, 0xFF, 'h',  'i',  '\n', 'A'};
  EXPECT_EQ(o.section(SectionId::kData).bytes, expect);
  EXPECT_EQ(o.section(SectionId::kBss).size, 64u);
  EXPECT_TRUE(o.section(SectionId::kBss).bytes.empty());
  EXPECT_EQ(Sym(o, "b")->offset, 4u);
  EXPECT_EQ(Sym(o, "c")->offset, 8u);
  EXPECT_EQ(Sym(o, "buf")->section, SectionId::kBss);
}

TEST(Directives, IdentifiersAndComments) {
  const Object o =
      Asm(".L1:    nop             ; a comment\n"
          "a$b_2:  nop             // another\n"
          "        .data\n"
          "        .ascii \"x;y//z\"  ; comment markers inside a string are text\n"
          "        .align 4\n"
          "        .word .L1, a$b_2\n");
  EXPECT_EQ(Sym(o, "a$b_2")->offset, 4u);
  const std::vector<uint8_t> text = {'x', ';', 'y', '/', '/', 'z'};
  const auto& d = o.section(SectionId::kData).bytes;
  EXPECT_EQ(std::vector<uint8_t>(d.begin(), d.begin() + 6), text);
  EXPECT_EQ(o.relocs.size(), 2u);
}

TEST(Directives, SpaceAndAlign) {
  const Object o =
      Asm("        .data\n"
          "        .byte 1\n"
          "        .align 8\n"
          "x:      .space 3, 0xAA\n"
          "        .align 16\n"
          "y:      .word 7\n");
  const auto& d = o.section(SectionId::kData);
  EXPECT_EQ(Sym(o, "x")->offset, 8u);
  EXPECT_EQ(d.bytes[8], 0xAA);
  EXPECT_EQ(d.bytes[10], 0xAA);
  EXPECT_EQ(Sym(o, "y")->offset, 16u);
  EXPECT_EQ(d.align, 16u);  // .align raises the section's alignment
  EXPECT_EQ(o.section(SectionId::kText).align, 4u);
}

TEST(Directives, EquAndAssignment) {
  const Object o =
      Asm("        .equ N, 4\n"
          "M = N * 2 + 1\n"
          "        .data\n"
          "        .word N, M\n"
          "i = 0\n"
          "        .rept 3\n"
          "        .byte i\n"
          "i = i + 1\n"
          "        .endr\n");
  EXPECT_EQ(WordAt(o, SectionId::kData, 0), 4u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 4), 9u);
  const auto& d = o.section(SectionId::kData).bytes;
  EXPECT_EQ(d[8], 0);  // a redefined constant: each use sees the value at its place
  EXPECT_EQ(d[9], 1);
  EXPECT_EQ(d[10], 2);
}

TEST(Directives, ParamsTasksGlobalsExports) {
  const Object o =
      Asm("        .param RX\n"
          "        .param N = 16\n"
          "        .task main, local, 0\n"
          "        .task rx, data, RX\n"
          "        .task ctl, control, RX + 5\n"
          "        .export main\n"
          "        .global helper\n"
          "main:   tend\n"
          "rx:     tend\n"
          "ctl:    tend\n"
          "helper: ret\n"
          "        .data\n"
          "v:      .space 4 * 8\n"
          "        .export v, f32, 8\n");
  ASSERT_EQ(o.params.size(), 2u);
  EXPECT_EQ(o.params[0].name, "RX");
  EXPECT_FALSE(o.params[0].default_value);
  EXPECT_EQ(*o.params[1].default_value, 16);
  ASSERT_EQ(o.tasks.size(), 3u);
  EXPECT_EQ(o.tasks[0].id.ToString(), "0");
  EXPECT_EQ(o.tasks[1].kind, arch::TaskKind::kData);
  EXPECT_EQ(o.tasks[1].id.ToString(), "RX+0");
  EXPECT_EQ(o.tasks[2].id.ToString(), "RX+5");
  EXPECT_TRUE(Sym(o, "main")->exported && Sym(o, "main")->global);
  EXPECT_TRUE(Sym(o, "helper")->global && !Sym(o, "helper")->exported);
  EXPECT_FALSE(Sym(o, "rx")->global);
  EXPECT_EQ(*Sym(o, "v")->type, arch::ElemType::kF32);
  EXPECT_EQ(Sym(o, "v")->count, 8u);
}

TEST(Directives, DefinesGiveParamsTheirValue) {
  AssembleOptions opt;
  opt.defines["RX"] = 3;
  const Object o =
      Asm("        .param RX\n"
          "        .task rx, data, RX\n"
          "rx:     send r1, RX\n",
          opt);
  EXPECT_TRUE(o.params.empty());
  EXPECT_EQ(o.tasks[0].id.ToString(), "3");
  EXPECT_TRUE(o.relocs.empty());
  EXPECT_EQ(WordAt(o, SectionId::kText, 0), OneWord("send r1, 3"));
}

TEST(Directives, Descriptors) {
  // docs/isa.md 2.3: `.dsd yd, mem1d, f32, base=0x0100, len=32, stride=1` is 0x00200100,
  // 0x01000001; a fabin f32 descriptor on color 3, unbounded, is 0x7FFF0000, 0x02030000.
  const Object o =
      Asm("        .data\n"
          "        .byte 1\n"
          "        .dsd yd, mem1d, f32, base=0x0100, len=32, stride=1\n"
          "        .dsd in, fabin, f32, color=3, len=inf\n"
          "        .dsd out, fabout, u16, color=5, len=4, ctrl=1, idx=1, base=9\n"
          "        .dsd back, mem1d, f16, base=0x200, len=10, stride=-2\n");
  EXPECT_EQ(Sym(o, "yd")->offset, 8u);  // aligned to 8
  EXPECT_EQ(WordAt(o, SectionId::kData, 8), 0x00200100u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 12), 0x01000001u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 16), 0x7FFF0000u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 20), 0x02030000u);
  using D = arch::Dsd;
  const uint64_t out = WordAt(o, SectionId::kData, 24) | uint64_t(WordAt(o, SectionId::kData, 28))
                                                             << 32;
  EXPECT_EQ(D::Kind(out), uint64_t(arch::DsdKind::kFabOut));
  EXPECT_EQ(D::Elem(out), uint64_t(arch::ElemType::kU16));
  EXPECT_EQ(D::Color(out), 5u);
  EXPECT_EQ(D::Ctrl(out), 1u);
  EXPECT_EQ(D::Idx(out), 1u);
  EXPECT_EQ(D::Base(out), 9u);
  EXPECT_EQ(D::Length(out), 4u);
  const uint64_t back = WordAt(o, SectionId::kData, 32) | uint64_t(WordAt(o, SectionId::kData, 36))
                                                              << 32;
  EXPECT_EQ(static_cast<int16_t>(D::Stride(back)), -2);
  ASSERT_EQ(o.dsds.size(), 4u);
  EXPECT_EQ(o.dsds[0].name, "yd");
  EXPECT_EQ(o.dsds[3].offset, 32u);
  EXPECT_EQ(o.section(SectionId::kData).align, 8u);
}

TEST(Directives, MacrosWithUniqueLabels) {
  const Object o =
      Asm("        .macro countdown reg, from=3\n"
          "        li \\reg, \\from\n"
          "loop\\@: addi \\reg, \\reg, -1\n"
          "        bnez \\reg, loop\\@\n"
          "        .endm\n"
          "        countdown r1\n"
          "        countdown r2, 5\n"
          "        countdown from=7, reg=r3\n");
  EXPECT_EQ(TextWords(o),
            (std::vector<uint32_t>{
                OneWord("li r1, 3"), OneWord("addi r1, r1, -1"), OneWord("bnez r1, .-4"),
                OneWord("li r2, 5"), OneWord("addi r2, r2, -1"), OneWord("bnez r2, .-4"),
                OneWord("li r3, 7"), OneWord("addi r3, r3, -1"), OneWord("bnez r3, .-4")}));
  EXPECT_NE(Sym(o, "loop0"), nullptr);
  EXPECT_NE(Sym(o, "loop1"), nullptr);
  EXPECT_NE(Sym(o, "loop2"), nullptr);
}

TEST(Directives, MacroDetails) {
  const Object o =
      Asm("        .macro pair name, v\n"
          "\\name\\()_lo: .half lo(\\v)\n"
          "\\name\\()_hi: .half hi(\\v)\n"
          "        .endm\n"
          "        .macro nested\n"
          "        pair inner, 0x00050006\n"
          "        .endm\n"
          "        .data\n"
          "start:  pair a, 0x00010002\n"  // a label before an invocation labels its first byte
          "        nested\n");
  EXPECT_EQ(Sym(o, "start")->offset, 0u);
  EXPECT_EQ(Sym(o, "a_lo")->offset, 0u);
  EXPECT_EQ(Sym(o, "a_hi")->offset, 2u);
  EXPECT_EQ(Sym(o, "inner_hi")->offset, 6u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 0), 0x00010002u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 4), 0x00050006u);
}

TEST(Directives, ReptAndNumericLabels) {
  const Object o =
      Asm("        .rept 2\n"
          "1:      nop\n"
          "        j 1b\n"
          "        .endr\n"
          "        j 1f\n"
          "1:      tend\n");
  EXPECT_EQ(TextWords(o),
            (std::vector<uint32_t>{OneWord("nop"), OneWord("j .-4"), OneWord("nop"),
                                   OneWord("j .-4"), OneWord("j .+4"), OneWord("tend")}));
}

TEST(Directives, Conditionals) {
  const Object o =
      Asm("        .equ MODE, 2\n"
          "        .if MODE == 1\n"
          "        .word 1\n"
          "        .elif MODE == 2\n"
          "        .if 0\n"
          "        .word 99\n"
          "        .else\n"
          "        .word 2\n"
          "        .endif\n"
          "        .else\n"
          "        .word 3\n"
          "        .endif\n"
          "        .if 0\n"
          "        this is not even parsed\n"
          "        .endif\n");
  EXPECT_EQ(TextWords(o), (std::vector<uint32_t>{2}));
}

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("tessera_asm_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(path_ / "inc");
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = path_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::string Path(const std::string& name = "") const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
  static inline int counter_ = 0;
};

TEST(Directives, IncludeRelativeThenSearchDirs) {
  TempDir dir;
  dir.Write("local.inc", "LOCAL = 5\n");
  dir.Write("inc/lib.inc", "        .macro twice v\n        .word \\v, \\v\n        .endm\n");
  const std::string main = dir.Write("main.s",
                                     "        .include \"local.inc\"\n"
                                     "        .include \"lib.inc\"\n"
                                     "        twice LOCAL\n");
  AssembleOptions opt;
  opt.include_dirs = {dir.Path("inc")};
  const Object o = Assemble(main, opt).object;
  EXPECT_EQ(TextWords(o), (std::vector<uint32_t>{5, 5}));
  // Without -I the library is not found, and the message says where it looked.
  try {
    Assemble(main);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("main.s:2:18: error: cannot find include file "
                                         "\"lib.inc\" (looked in: "),
              std::string::npos)
        << e.what();
  }
}

TEST(Directives, ErrorDirectiveAndRegAliases) {
  EXPECT_EQ(ErrorOf("        .if 1\n        .error \"unsupported MODE\"\n        .endif\n"),
            "t.s:2:9: error: unsupported MODE");
  EXPECT_EQ(ErrorOf("        .if 0\n        .error \"never\"\n        .endif\n"), "");
}

TEST(Directives, ListingShowsWordsAndExpansions) {
  const AssembleResult r = AssembleText("l.s",
                                        "        .macro two\n"
                                        "        nop\n"
                                        "        tend\n"
                                        "        .endm\n"
                                        "start:  li r1, 0x12345678\n"
                                        "        two\n");
  const std::string text = FormatListing("l.s", r.listing);
  EXPECT_NE(
      text.find("      5  .text  0000  1234011b 56781114           start:  li r1, 0x12345678"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("000c  01000003"), std::string::npos) << text;
  EXPECT_NE(text.find("+         nop"), std::string::npos) << text;
}

// A two-source DSD operation whose sources read one SRAM bank in every step gets a note with the
// fix (docs/isa.md 6.7); other placements, unknown descriptors and code after a label do not.
TEST(Directives, BankNoteForSourcesSixteenBytesApart) {
  auto warnings = [](const std::string& body) {
    const std::string text =
        "        .data\n"
        "        .align 16\n"
        "x:      .space 64\n"
        "y:      .space 64\n"
        "z:      .space 68\n"
        "        .dsd xd, mem1d, f32, base=x, len=16\n"
        "        .dsd yd, mem1d, f32, base=y, len=16\n"
        "        .dsd zd, mem1d, f32, base=z+4, len=16\n"
        "        .text\n" +
        body;
    std::vector<std::string> out;
    for (const Diagnostic& d : AssembleText("t.s", text).warnings) out.push_back(d.Format());
    return out;
  };
  const auto w = warnings("        ldd d0, xd\n        ldd d1, yd\n        fadds d0, d0, d1\n");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("t.s:12:9: warning: fadds: src0 (d0, xd) and src1 (d1, yd) start 64 bytes "
                       "apart, a multiple of 16",
                       0),
            0u)
      << w[0];
  EXPECT_NE(w[0].find("`.space 4`"), std::string::npos);
  EXPECT_TRUE(
      warnings("        ldd d0, xd\n        ldd d1, zd\n        fadds d0, d0, d1\n").empty());
  EXPECT_TRUE(warnings("        ldd d0, xd\n        ldd d1, yd\n        dincb d1, 1\n"
                       "        fadds d0, d0, d1\n")
                  .empty());
  EXPECT_TRUE(
      warnings("        ldd d0, xd\n        ldd d1, yd\nl:      fadds d0, d0, d1\n").empty());
  EXPECT_EQ(warnings("        ldd d0, xd\n        ldd d1, yd\n        fdots r1, d0, d1\n").size(),
            1u);
}

// Found by make fuzz (fuzz_asm): the bank note encoded a statement while the assembler still held
// the previous line, and a bad completion clause then quoted that shorter line at the clause's
// column (std::out_of_range, a crash). Now it is the usual error, at the right place.
TEST(Directives, BankNoteQuotesTheStatementsOwnLine) {
  try {
    AssembleText("t.s",
                 "        .data\n"
                 "a:      .space  16\n"
                 "b:      .space  16\n"
                 "        .dsd    ad, mem1d, f32, base=a, len=4\n"
                 "        .dsd    bd, mem1d, f32, base=b, len=4\n"
                 "        .text\n"
                 "        ldd     d1, ad\n"
                 "        ldd     d2, bd\n"
                 "        fadds   d0, d1, d2, ut1 bogusword\n");
    ADD_FAILURE() << "a bad completion clause assembled";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("t.s:9:", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("got 'bogusword'"), std::string::npos) << e.what();
  }
}

// .loc names the source a compiler generated the statements after it from: line records carry
// that file and line (what traces and fault messages show), until the next .loc.
TEST(Directives, LocNamesTheGeneratingSource) {
  const Object o =
      Asm("        .text\n"
          "        nop\n"
          "        .loc \"prog.csl\", 12\n"
          "        li r1, 5\n"
          "        addi r1, r1, 1\n"
          "        .loc \"prog.csl\", 14\n"
          "        tend\n");
  ASSERT_EQ(o.lines.size(), 3u);
  EXPECT_EQ(o.lines[0].line, 1 + 1) << "the nop is the .s file's own line 2";
  EXPECT_EQ(o.lines[1].file, "prog.csl");
  EXPECT_EQ(o.lines[1].line, 12);
  EXPECT_EQ(o.lines[1].offset, 4u) << "li and addi: one record for CSL line 12";
  EXPECT_EQ(o.lines[2].line, 14);
  EXPECT_EQ(o.lines[2].offset, 12u);
  EXPECT_THROW(Asm("        .loc prog, 3\n"), Error);
  EXPECT_THROW(Asm("        .loc \"p.csl\", 0\n"), Error);
}

}  // namespace
}  // namespace tessera::assembler::test
