// Expressions (docs/isa.md 8.1): C operators and precedence in 64 bits under the one rule of
// host/expr (overflow, division by zero and bad shift counts are errors at their column), the
// functions, link-time values, real literals rounded once to nearest even, and the predefined
// symbols (checked against model/arch/tessera.def so that the list cannot drift from the
// architecture).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "asm/predefined.h"
#include "asm/real.h"
#include "asm_test_util.h"

namespace tessera::assembler::test {
namespace {

// The 64-bit value of an expression, through `.word lo32` and `.word hi32` of it.
int64_t Eval(const std::string& e) {
  const Object o = Asm("        .data\n        .word lo((" + e + ")) | hi((" + e +
                       ")) << 16, lo((" + e + ") >> 32) | hi((" + e + ") >> 32) << 16\n");
  const uint64_t lo = WordAt(o, SectionId::kData, 0), hi = WordAt(o, SectionId::kData, 4);
  return static_cast<int64_t>(lo | hi << 32);
}

TEST(Expr, Literals) {
  EXPECT_EQ(Eval("42"), 42);
  EXPECT_EQ(Eval("0x2A"), 42);
  EXPECT_EQ(Eval("0b101010"), 42);
  EXPECT_EQ(Eval("'*'"), 42);
  EXPECT_EQ(Eval("'\\n'"), 10);
  EXPECT_EQ(Eval("0xFFFFFFFFFFFFFFFF"), -1);
}

TEST(Expr, PrecedenceIsC) {
  EXPECT_EQ(Eval("1 + 2 * 3"), 7);
  EXPECT_EQ(Eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(Eval("1 << 2 + 1"), 8);    // + binds tighter than <<
  EXPECT_EQ(Eval("6 & 3 | 8"), 10);    // & before |
  EXPECT_EQ(Eval("1 | 2 ^ 3"), 1);     // ^ before |
  EXPECT_EQ(Eval("12 & 10 ^ 6"), 14);  // & before ^
  EXPECT_EQ(Eval("3 < 4 == 1"), 1);    // relational before equality
  EXPECT_EQ(Eval("1 + 2 == 3 && 4"), 1);
  EXPECT_EQ(Eval("0 || 0 && 1"), 0);
  EXPECT_EQ(Eval("2 * 3 % 4"), 2);  // left to right
  EXPECT_EQ(Eval("100 / 10 / 5"), 2);
  EXPECT_EQ(Eval("10 - 4 - 3"), 3);
  EXPECT_EQ(Eval("-2 * -3"), 6);
  EXPECT_EQ(Eval("~0 & 0xFF"), 255);
  EXPECT_EQ(Eval("!5 + !0"), 1);
  EXPECT_EQ(Eval("1 ? 2 : 3"), 2);
  EXPECT_EQ(Eval("0 ? 2 : 1 + 2"), 3);
}

// The same rule as layouts (docs/layout.md): `/` and `%` round toward minus infinity.
TEST(Expr, DivisionRoundsTowardMinusInfinity) {
  EXPECT_EQ(Eval("-7 / 2"), -4);
  EXPECT_EQ(Eval("-7 % 2"), 1);
  EXPECT_EQ(Eval("-1 % 8"), 7);
  EXPECT_EQ(Eval("7 / -2"), -4);
  EXPECT_EQ(Eval("7 % -2"), -1);
  EXPECT_EQ(Eval("-7 / -2"), 3);
  EXPECT_EQ(Eval("7 / 2"), 3);
  EXPECT_EQ(Eval("(-0x7FFFFFFFFFFFFFFF - 1) % -1"), 0);
}

TEST(Expr, SixtyFourBitArithmetic) {
  EXPECT_EQ(Eval("-16 >> 2"), -4);  // arithmetic shift
  EXPECT_EQ(Eval("1 << 40"), int64_t(1) << 40);
  EXPECT_EQ(Eval("(1 << 40) >> 36"), 16);
  EXPECT_EQ(Eval("-1 << 63"), INT64_MIN);
  EXPECT_EQ(Eval("0x7FFFFFFFFFFFFFFF"), INT64_MAX);
  EXPECT_EQ(Eval("0xFFFFFFFFFFFFFFFF"), -1) << "a literal is a 64-bit pattern";
  EXPECT_EQ(Eval("5 >= 5") + Eval("5 > 5") + Eval("4 <= 5") + Eval("4 != 4"), 2);
}

// "file:line:column: error: message" of `.word` of the expression, which starts at column 15.
std::string WordError(const std::string& e) {
  return ErrorOf("        .data\n        .word " + e + "\n");
}

// The one rule of host/expr (as in layouts, docs/layout.md): never a silent wrap.
TEST(Expr, OverflowDivisionByZeroAndShiftCountsAreErrors) {
  EXPECT_EQ(WordError("0x7FFFFFFFFFFFFFFF + 1"),
            "t.s:2:34: error: overflow in 9223372036854775807 + 1");
  EXPECT_EQ(WordError("-0x7FFFFFFFFFFFFFFF - 2"),
            "t.s:2:35: error: overflow in -9223372036854775807 - 2");
  EXPECT_EQ(WordError("0x100000000 * 0x100000000"),
            "t.s:2:27: error: overflow in 4294967296 * 4294967296");
  EXPECT_EQ(WordError("(-0x7FFFFFFFFFFFFFFF - 1) / -1"),
            "t.s:2:41: error: overflow in -9223372036854775808 / -1");
  EXPECT_EQ(WordError("1 + -(-0x7FFFFFFFFFFFFFFF - 1)"),
            "t.s:2:19: error: overflow in -(-9223372036854775808)");
  EXPECT_EQ(WordError("3 << 62"), "t.s:2:17: error: overflow in 3 << 62");
  EXPECT_EQ(WordError("1 << 63"), "t.s:2:17: error: overflow in 1 << 63");
  EXPECT_EQ(WordError("7 / (2 - 2)"), "t.s:2:17: error: division by zero in 7 / 0");
  EXPECT_EQ(WordError("1 + 7 % 0"), "t.s:2:21: error: division by zero in 7 % 0");
  EXPECT_EQ(WordError("1 << 64"),
            "t.s:2:17: error: shift count 64 is out of range (0..63) in 1 << 64");
  EXPECT_EQ(WordError("1 >> -1"),
            "t.s:2:17: error: shift count -1 is out of range (0..63) in 1 >> -1");
  // As in C, the side of && || ?: not taken is not evaluated.
  EXPECT_EQ(Eval("0 && 1 / 0"), 0);
  EXPECT_EQ(Eval("1 || 1 / 0"), 1);
  EXPECT_EQ(Eval("1 ? 2 : 1 / 0"), 2);
  // ... but every name must mean something, as in C.
  EXPECT_EQ(WordError("0 && nothing"),
            "t.s:2:20: error: undefined symbol 'nothing' (declare it with .global if another "
            "object defines it)");
  EXPECT_EQ(WordError("1 || r3"),
            "t.s:2:20: error: 'r3' is a register; an expression cannot use it");
}

TEST(Expr, SyntaxErrorsNameTheColumn) {
  EXPECT_EQ(WordError("(1 + 2"), "t.s:2:21: error: expected ')' to close the '(' at column 15");
  EXPECT_EQ(WordError("1 +, 2"), "t.s:2:18: error: expected an expression, found ','");
  EXPECT_EQ(WordError("1 2"), "t.s:2:17: error: unexpected '2' after the expression");
  EXPECT_EQ(WordError("1 ? 2"), "t.s:2:20: error: expected ':' of the conditional 'c ? a : b'");
  EXPECT_EQ(WordError("lo(1 2)"),
            "t.s:2:20: error: expected ',' or ')' in the arguments of lo, found '2'");
  EXPECT_EQ(WordError("lo()"), "t.s:2:15: error: lo() needs an argument");
  EXPECT_EQ(WordError("hi(1, 2)"), "t.s:2:15: error: hi() takes one argument");
  EXPECT_EQ(WordError("id(1 + 2)"), "t.s:2:18: error: id() takes the name of a task's entry label");
  EXPECT_EQ(WordError("\"s\""),
            "t.s:2:15: error: a string is not a value (write one character as 'c')");
}

// A link-time value (docs/isa.md 8.3) is `sym + c` or `sym - c`, optionally inside lo() or hi();
// its constant follows the same rule as any other.
TEST(Expr, LinkTimeValues) {
  const Object o =
      Asm("        .global x\n"
          "        lui r1, hi(x + 8)\n"
          "        ori r1, r1, lo(x + 8)\n"
          "        .data\n"
          "        .word x + 4, 4 + x, x - 4, x + 2 * 3 - 1, (x), 1 || x\n");
  const auto target = [&](SectionId s, uint32_t off) {
    const ObjReloc* r = FindReloc(o, s, off);
    return r ? r->target : SymRef{"(none)", 0};
  };
  EXPECT_EQ(FindReloc(o, SectionId::kText, 0)->kind, RelocKind::kHI16);
  EXPECT_EQ(target(SectionId::kText, 0), (SymRef{"x", 8}));
  EXPECT_EQ(FindReloc(o, SectionId::kText, 4)->kind, RelocKind::kLO16);
  EXPECT_EQ(target(SectionId::kText, 4), (SymRef{"x", 8}));
  EXPECT_EQ(target(SectionId::kData, 0), (SymRef{"x", 4}));
  EXPECT_EQ(target(SectionId::kData, 4), (SymRef{"x", 4}));
  EXPECT_EQ(target(SectionId::kData, 8), (SymRef{"x", -4}));
  EXPECT_EQ(target(SectionId::kData, 12), (SymRef{"x", 5}));
  EXPECT_EQ(target(SectionId::kData, 16), (SymRef{"x", 0}));
  EXPECT_EQ(FindReloc(o, SectionId::kData, 20), nullptr) << "1 || x is 1: x is not evaluated";
  EXPECT_EQ(WordAt(o, SectionId::kData, 20), 1u);

  const std::string decl = "        .global x\n        .data\n        .word ";
  EXPECT_EQ(ErrorOf(decl + "x + 0x7FFFFFFFFFFFFFFF + 1\n"),
            "t.s:3:38: error: overflow in 9223372036854775807 + 1");
  EXPECT_EQ(ErrorOf(decl + "-x\n"),
            "t.s:3:15: error: 'x' is a link-time value (a label, a param or a symbol of another "
            "object): an expression may only add a constant to it or subtract one from it, "
            "optionally inside lo() or hi()");
  EXPECT_EQ(ErrorOf(decl + "x && 1\n"),
            "t.s:3:15: error: 'x' is a link-time value (a label, a param or a symbol of another "
            "object): an expression may only add a constant to it or subtract one from it, "
            "optionally inside lo() or hi()");
  EXPECT_EQ(ErrorOf(decl + "lo(x) + 1\n"),
            "t.s:3:21: error: lo() or hi() of a link-time value must be the whole operand");
  EXPECT_EQ(ErrorOf(decl + "lo(hi(x))\n"), "t.s:3:15: error: lo() and hi() cannot be nested");
  EXPECT_EQ(ErrorOf("        .global x\ny:      .word x - y\n"),
            "t.s:2:17: error: 'x' - 'y': only two labels of the same section of this file can be "
            "subtracted");
}

TEST(Expr, Functions) {
  EXPECT_EQ(Eval("lo(0x12345678)"), 0x5678);
  EXPECT_EQ(Eval("hi(0x12345678)"), 0x1234);
  EXPECT_EQ(Eval("hi(-1)"), 0xFFFF);
  EXPECT_EQ(Eval("f32(1.5)"), 0x3FC00000);
  EXPECT_EQ(Eval("f32(-2.5)"), 0xC0200000);
  EXPECT_EQ(Eval("f32(1)"), 0x3F800000);
  EXPECT_EQ(Eval("f32(0.1)"), 0x3DCCCCCD);
  EXPECT_EQ(Eval("f16(1.5)"), 0x3E00);
  EXPECT_EQ(Eval("f16(-0.0)"), 0x8000);
  EXPECT_EQ(Eval("f32(inf)"), 0x7F800000);
  EXPECT_EQ(Eval("f16(-inf)"), 0xFC00);
  EXPECT_EQ(Eval("f32(nan)"), 0x7FC00000);
  EXPECT_EQ(Eval("f32(2 + 3)"), 0x40A00000);  // an integer expression converts exactly
  const Object o =
      Asm("        .task a, local, 3\n"
          "a:      tend\n"
          "        .data\n"
          "        .word id(a), id(a) + 1\n");
  EXPECT_EQ(WordAt(o, SectionId::kData, 0), 3u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 4), 4u);
}

TEST(Expr, LabelDifferencesAreConstants) {
  const Object o =
      Asm("start:  nop\n"
          "        nop\n"
          "end:    tend\n"
          "        .data\n"
          "        .word end - start, . - 0 * 1 - .data, LEN\n"
          "LEN = end - start + 4\n");
  EXPECT_EQ(WordAt(o, SectionId::kData, 0), 8u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 4), 4u);  // '.' is the item's own location
  EXPECT_EQ(WordAt(o, SectionId::kData, 8), 12u);
  EXPECT_TRUE(o.relocs.empty());
}

TEST(Expr, PredefinedSymbols) {
  EXPECT_EQ(Eval("DebugPort"), 0xC040);
  EXPECT_EQ(Eval("CycleLo"), 0xC010);
  EXPECT_EQ(Eval("ColorCfg + 4 * 3"), 0xC10C);
  EXPECT_EQ(Eval("TaskActiveSet"), 0xC404);
  EXPECT_EQ(Eval("NumColors"), 24);
  EXPECT_EQ(Eval("DebugFmt.F32"), 3);
  EXPECT_EQ(Eval("Dir.RAMP"), 4);
  EXPECT_EQ(Eval("TaskKind.control"), 3);
  EXPECT_EQ(Eval("FpFlag.Invalid"), 16);
  EXPECT_EQ(Eval("CtrlNone"), 0x001F0000);
  EXPECT_EQ(RegisterName(0xC04C), "DebugPort+12");
  EXPECT_EQ(RegisterName(0xC010), "CycleLo");
  EXPECT_EQ(RegisterName(0xBFFC), "");
}

// Every const, enum item and reg of tessera.def is predefined with its value, and nothing else is
// (but CtrlNone): read from tessera.def here, independently of the generated tables the
// assembler takes them from. An enum item is spelled as its `names` line says, else by its name.
TEST(Expr, PredefinedSymbolsAreTesseraDef) {
  const std::string path = std::string(TESSERA_SOURCE_DIR) + "/model/arch/tessera.def";
  std::map<std::string, std::vector<std::string>> spellings;  // enum -> its `names` words
  {
    std::ifstream names(path);
    std::string line, kind, name, word;
    while (std::getline(names, line)) {
      std::istringstream ss(line.substr(0, line.find("--")));
      if (!(ss >> kind >> name) || kind != "names") continue;
      while (ss >> word) spellings[name].push_back(word);
    }
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read tessera.def";
  const auto& pre = PredefinedSymbols();
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find("--"));
    std::istringstream ss(line);
    std::string kind, name, value;
    ss >> kind >> name;
    if (kind == "const" || kind == "reg") {
      ss >> value;
      ASSERT_TRUE(pre.count(name)) << kind << " " << name << " is not predefined";
      EXPECT_EQ(pre.at(name).value, std::stoll(value, nullptr, 0)) << name;
      ++checked;
    } else if (kind == "enum") {
      std::string width, item;
      ss >> width;
      for (size_t i = 0; ss >> item; ++i) {
        const size_t eq = item.find('=');
        const auto spelled = spellings.find(name);
        const std::string full =
            name + "." + (spelled == spellings.end() ? item.substr(0, eq) : spelled->second.at(i));
        ASSERT_TRUE(pre.count(full)) << full << " is not predefined";
        EXPECT_EQ(pre.at(full).value, std::stoll(item.substr(eq + 1), nullptr, 0)) << full;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_EQ(pre.size(), static_cast<size_t>(checked) + 1) << "a predefined symbol is in no line "
                                                             "of tessera.def";
  EXPECT_TRUE(pre.count("CtrlNone"));
}

uint32_t F16(const std::string& literal) {
  Decimal d = *ParseDecimal(literal[0] == '-' ? literal.substr(1) : literal);
  d.negative = literal[0] == '-';
  return RoundDecimal(d, RealFormat::kF16).bits;
}
uint32_t F32(const std::string& literal) {
  Decimal d = *ParseDecimal(literal[0] == '-' ? literal.substr(1) : literal);
  d.negative = literal[0] == '-';
  return RoundDecimal(d, RealFormat::kF32).bits;
}

TEST(Real, F16RoundsExactlyToNearestEven) {
  EXPECT_EQ(F16("1.0"), 0x3C00u);
  EXPECT_EQ(F16("65504"), 0x7BFFu);
  EXPECT_EQ(F16("65519.99"), 0x7BFFu);  // just below the rounding boundary to infinity
  EXPECT_TRUE(RoundDecimal(*ParseDecimal("65520"), RealFormat::kF16).overflow);
  // 1 + 2^-11 is halfway between 1.0 and the next f16: ties to even gives 1.0 ...
  EXPECT_EQ(F16("1.00048828125"), 0x3C00u);
  // ... and anything above the tie rounds up, however little (double rounding would miss this).
  EXPECT_EQ(F16("1.000488281250000000000000001"), 0x3C01u);
  EXPECT_EQ(F16("1.00146484375"), 0x3C02u);  // 1 + 3*2^-11: tie, to even (up)
  EXPECT_EQ(F16("0.1"), 0x2E66u);
  EXPECT_EQ(F16("-2.5"), 0xC100u);
  EXPECT_EQ(F16("5.9604644775390625e-8"), 0x0001u);   // the smallest subnormal
  EXPECT_EQ(F16("2.98023223876953125e-8"), 0x0000u);  // half of it: tie to even (zero)
  EXPECT_EQ(F16("2.98023223876953126e-8"), 0x0001u);
  EXPECT_EQ(F16("6.103515625e-5"), 0x0400u);  // the smallest normal
  EXPECT_EQ(F16("1e-30"), 0x0000u);
}

TEST(Real, F32RoundsExactlyToNearestEven) {
  EXPECT_EQ(F32("16777217"), 0x4B800000u);  // 2^24 + 1: tie, to even
  EXPECT_EQ(F32("16777219"), 0x4B800002u);  // 2^24 + 3: tie, to even (up)
  EXPECT_EQ(F32("3.4028234663852886e38"), 0x7F7FFFFFu);
  EXPECT_TRUE(RoundDecimal(*ParseDecimal("3.5e38"), RealFormat::kF32).overflow);
  EXPECT_EQ(F32("1.401298464324817e-45"), 0x00000001u);
  EXPECT_EQ(F32("0.333333333333333333333333333333"), 0x3EAAAAABu);
  EXPECT_EQ(F32("1e10"), 0x501502F9u);
  EXPECT_EQ(F32("123456789e-3"), 0x47F12065u);
}

TEST(Real, DataDirectives) {
  const Object o =
      Asm("        .data\n"
          "        .f32 1.0, -2.5, 1e10, inf\n"
          "        .float 0.5\n"
          "        .f16 1.5, -0.0, 65504\n");
  EXPECT_EQ(WordAt(o, SectionId::kData, 0), 0x3F800000u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 4), 0xC0200000u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 8), 0x501502F9u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 12), 0x7F800000u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 16), 0x3F000000u);
  EXPECT_EQ(WordAt(o, SectionId::kData, 20), 0x80003E00u);
  EXPECT_EQ(o.section(SectionId::kData).bytes.at(24), 0xFF);
  EXPECT_EQ(o.section(SectionId::kData).bytes.at(25), 0x7B);
}

}  // namespace
}  // namespace tessera::assembler::test
