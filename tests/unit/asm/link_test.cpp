// The single-PE linker: placement, relocations, params, tasks, symbols and line records, and the
// errors that name the object, section and source line.
#include "asm/link.h"

#include <gtest/gtest.h>

#include "asm_test_util.h"

namespace tessera::assembler::test {
namespace {

std::string Example(const std::string& name) {
  return std::string(TESSERA_SOURCE_DIR) + "/firmware/examples/" + name;
}

Object Named(const std::string& name, const std::string& text) {
  return AssembleText(name, text).object;
}

std::string LinkError(const std::vector<Object>& objs, const std::map<std::string, int64_t>& p) {
  try {
    LinkSingle(objs, p);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Link, SumExample) {
  const PeProgram p = AssembleAndLink(Example("sum.s"), {}, {});
  ASSERT_EQ(p.sram.size(), arch::kSramBytes);
  ASSERT_EQ(p.tasks.size(), 1u);
  EXPECT_EQ(p.tasks[0].id, 0);
  EXPECT_EQ(p.tasks[0].kind, arch::TaskKind::kLocal);
  EXPECT_EQ(p.tasks[0].entry, 0);
  const SymbolInfo& x = p.symbols.at("x");
  const SymbolInfo& sum = p.symbols.at("sum");
  EXPECT_EQ(x.address, 0x2c);  // .data right after the 11 instructions
  EXPECT_EQ(x.section, ".data");
  EXPECT_TRUE(x.exported);
  EXPECT_EQ(*x.type, arch::ElemType::kF32);
  EXPECT_EQ(x.count, 8u);
  EXPECT_EQ(sum.address, 0x4c);
  EXPECT_EQ(p.Word(0x00), OneWord("la r1, 0x2c"));
  EXPECT_EQ(p.Word(0x20), OneWord("sw r3, 0x4c"));
  EXPECT_EQ(p.Word(0x2c), 0x3F800000u);
  EXPECT_EQ(p.end, 0x50);
  EXPECT_EQ(p.symbols.at("__end").address, 0x50);
  EXPECT_EQ(p.symbols.at("__sram_end").address, 0xC000);
  ASSERT_NE(p.LineAt(0x1c), nullptr);
  EXPECT_EQ(p.LineAt(0x1c)->line, 22);  // bnez r2, loop
  EXPECT_NE(p.LineAt(0x1c)->file.find("sum.s"), std::string::npos);
}

TEST(Link, AxpyExample) {
  const PeProgram p = AssembleAndLink(Example("axpy.s"), {}, {});
  ASSERT_EQ(p.tasks.size(), 2u);
  const uint16_t y = p.symbols.at("y").address, x = p.symbols.at("x").address;
  EXPECT_EQ(y % 16, 0);
  EXPECT_EQ(x, y + 4 * 32 + 4);
  const uint16_t yd = p.symbols.at("yd").address;
  EXPECT_EQ(p.Word(yd), 0x00200000u | y);  // base = y, len = 32
  EXPECT_EQ(p.Word(yd + 4), 0x01000001u);
  EXPECT_EQ(p.Word(0x0c), 0x21510076u);  // fmacs ..., ut1 activate done (task 1)
}

TEST(Link, AccumulateExampleWithParams) {
  const PeProgram p = AssembleAndLink(Example("accumulate.s"), {}, {{"RX", 3}, {"TX", 5}});
  ASSERT_EQ(p.tasks.size(), 2u);
  EXPECT_EQ(p.tasks[0].id, 3);
  EXPECT_EQ(p.tasks[0].kind, arch::TaskKind::kData);
  EXPECT_EQ(p.tasks[0].entry, p.symbols.at("rx").address);
  EXPECT_EQ(p.tasks[1].id, 24);
  const uint16_t dout = p.symbols.at("dout").address;
  EXPECT_EQ(arch::Dsd::Color(uint64_t(p.Word(dout + 4)) << 32), 5u);
  // `block rx` names the task by its entry: ID RX = 3; the fmovs unblocks it at completion.
  const uint16_t rx = p.symbols.at("rx").address;
  EXPECT_EQ(p.Word(rx + 0x28), OneWord("block 3"));
  EXPECT_EQ(p.Word(rx + 0x2c), OneWord("mov32 d3, d2, ut1 unblock 3"));
  // The same program with the params given at assembly time links to the same image.
  AssembleOptions opt;
  opt.defines = {{"RX", 3}, {"TX", 5}};
  const PeProgram q = LinkSingle({Assemble(Example("accumulate.s"), opt).object}, {});
  EXPECT_EQ(q.sram, p.sram);
}

TEST(Link, ParamsNeedValues) {
  EXPECT_NE(LinkError({Assemble(Example("accumulate.s")).object}, {{"TX", 5}})
                .find("accumulate.s: error: param 'RX' has no value: give one (tessera asm -D "
                      "RX=N, or the layout) or a default (.param RX = N)"),
            std::string::npos);
  const Object o = Named("p.s", "        .param N = 4\n        .data\n        .word N\n");
  EXPECT_EQ(LinkSingle({o}, {}).Word(0), 4u);
  EXPECT_EQ(LinkSingle({o}, {{"N", 9}}).Word(0), 9u);
  EXPECT_EQ(LinkError({o}, {{"M", 1}}),
            "error: a value is given for param 'M', but no object declares '.param M'");
}

TEST(Link, DataTaskIdsAreColors) {
  const Object o = Named("d.s",
                         "        .param RX\n"
                         "        .task rx, data, RX\n"
                         "rx:     tend\n");
  EXPECT_EQ(LinkSingle({o}, {{"RX", 23}}).tasks[0].id, 23);
  EXPECT_EQ(LinkError({o}, {{"RX", 24}}),
            "d.s: error: task 'rx' (data, ID RX+0): a data task's ID is its color, and 24 is not "
            "a color a PE can receive (0..23)");
  EXPECT_EQ(LinkError({o}, {{"RX", 31}}),
            "d.s: error: task 'rx' (data, ID RX+0): ID 31 is out of range (0..30; 31 means no "
            "task)");
}

TEST(Link, SeveralObjects) {
  const Object a = Named("a.s",
                         "        .global worker, table\n"
                         "        .task main, local, 0\n"
                         "main:   call worker\n"
                         "        activate worker\n"
                         "        la r1, table\n"
                         "loop:   tend\n"
                         "        .data\n"
                         "        .word 1\n");
  const Object b = Named("b.s",
                         "        .global worker, table\n"
                         "        .task worker, local, 7\n"
                         "worker: nop\n"
                         "loop:   ret\n"
                         "        .data\n"
                         "        .align 16\n"
                         "table:  .word worker, __end\n"
                         "        .bss\n"
                         "        .space 8\n");
  const PeProgram p = LinkSingle({a, b}, {});
  // .text of a, .text of b, then .data of a, .data of b (aligned to 16), then .bss.
  EXPECT_EQ(p.symbols.at("worker").address, 0x10);
  EXPECT_EQ(p.symbols.at("table").address, 0x20);
  EXPECT_EQ(p.end, 0x30);
  EXPECT_EQ(p.Word(0x00), OneWord("call .+16"));
  EXPECT_EQ(p.Word(0x04), OneWord("activate 7"));
  EXPECT_EQ(p.Word(0x08), OneWord("la r1, 0x20"));
  EXPECT_EQ(p.Word(0x18), 1u);
  EXPECT_EQ(p.Word(0x20), 0x10u);
  EXPECT_EQ(p.Word(0x24), 0x30u);
  // Local symbols of the same name are told apart by their source.
  EXPECT_EQ(p.symbols.at("a.s:loop").address, 0x0c);
  EXPECT_EQ(p.symbols.at("b.s:loop").address, 0x14);
  EXPECT_EQ(p.symbols.count("loop"), 0u);
}

TEST(Link, ErrorsNameObjectSectionAndLine) {
  const Object o = Named("r.s",
                         "        .param P\n"
                         "        nop\n"
                         "        send r1, P\n"
                         "        .data\n"
                         "        .byte P\n");
  EXPECT_EQ(LinkError({o}, {{"P", 300}}),
            "r.s:3: error: task ID or color 300 is out of range (0..31) (U5 relocation to P+0) "
            "(object r.s, .text+0x0004)\n"
            "r.s:5: error: value 300 is out of range (-128..255) (B8 relocation to P+0) (object "
            "r.s, .data+0x0000)");
  const Object u = Named("u.s", "        .global missing\n        j missing\n");
  EXPECT_EQ(LinkError({u}, {}),
            "u.s:2: error: undefined symbol 'missing' (PC16 relocation to missing+0) (object u.s, "
            ".text+0x0000)");
  const Object t1 = Named("t1.s", "        .task a, local, 4\na:      tend\n");
  const Object t2 = Named("t2.s", "        .task b, control, 4\nb:      tend\n");
  EXPECT_EQ(LinkError({t1, t2}, {}),
            "t2.s: error: task 'b' (control, ID 4): task ID 4 is already bound to 'a' in t1.s");
  const Object g1 = Named("g1.s", "        .global f\nf:      tend\n");
  EXPECT_EQ(LinkError({g1, g1}, {}), "g1.s: error: global symbol 'f' is also defined in g1.s");
  const Object big = Named("big.s", "        tend\n        .bss\n        .space 0xC000\n");
  EXPECT_EQ(LinkError({big}, {}),
            "error: the program does not fit in SRAM: it needs 0xc004 bytes, the SRAM holds "
            "0xc000 below the registers (.text 0x4, .data 0x0, .bss 0xc000)");
}

TEST(Link, ReadObjectsFromText) {
  const Object o =
      Asm("        .task main, local, 1\nmain:   la sp, __sram_end - 4\n        tend\n");
  const Object back = ReadObject(WriteObject(o), "main.tobj");
  const PeProgram p = LinkSingle({back}, {});
  EXPECT_EQ(p.Word(0), OneWord("la sp, 0xBFFC"));
  EXPECT_EQ(p.tasks[0].id, 1);
}

}  // namespace
}  // namespace tessera::assembler::test
