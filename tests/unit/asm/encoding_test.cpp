// Encodings: the golden words of docs/isa.md 4.13; every line of the instruction table through
// disassembly and back; illegal words; pseudo-instructions and the choices of `li`.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "arch/isa_table.h"
#include "asm/disasm.h"
#include "asm_test_util.h"
#include "isa/decode.h"

namespace tessera::assembler::test {
namespace {

TEST(Encoding, GoldenWordsOfTheSpec) {
  // docs/isa.md 4.13, with the pseudo-instruction and the real form where the table gives both.
  struct Golden {
    const char* text;
    uint32_t word;
  };
  const Golden golden[] = {
      {"add r1, r2, r3", 0x00032101},
      {"li r1, -1", 0xFFFF0190},
      {"addi r1, 0, -1", 0xFFFF0190},
      {"lw r4, 0(r1)", 0x00001424},
      {"sw r3, 0xC040", 0xC04003A7},
      {"bnez r2, .-16", 0xFFFC02A9},
      {"bne r2, 0, .-16", 0xFFFC02A9},
      {"fadd.s r3, r3, r4", 0x00043302},
      {"tend", 0x01000003},
      {"fadds d2, d0, d1", 0x1F0102C0},
      {"fadds d2, d0, d1, ut0", 0x1F0102C0},
  };
  for (const Golden& g : golden) EXPECT_EQ(OneWord(g.text), g.word) << g.text;
  // v0.2 sub-operations in a field the form leaves unused: S (V3, V2) or Src1 (VS).
  EXPECT_EQ(OneWord("fclts d1, d2, d3"), 0x1F2321FFu);  // 0x7F, S = 2 (lt, f32)
  EXPECT_EQ(OneWord("fcgeh d1, d2, r4"), 0x1F4D21BFu);  // 0x3F, Src1 = 0xD (ge, f16), S = r4
  EXPECT_EQ(OneWord("fi2s d1, d2"), 0x1F10219Fu);       // 0x1F, S = 1
  // The completion task of the last golden word is a task ID (here a bound task's name too).
  EXPECT_EQ(OneWord("fmacs d0, d0, d1, r5, ut1 activate 1"), 0x21510076u);
  const Object o =
      Asm("        .text\n"
          "        .task t1, local, 1\n"
          "t1:     fmacs d0, d0, d1, r5, ut1 activate t1\n");
  EXPECT_EQ(WordAt(o, SectionId::kText, 0), 0x21510076u);
}

TEST(Encoding, GoldenWordsDisassemble) {
  EXPECT_EQ(DisassembleWord(0x00032101), "add     r1, r2, r3");
  EXPECT_EQ(DisassembleWord(0xFFFF0190), "li      r1, -1");
  EXPECT_EQ(DisassembleWord(0x00001424), "lw      r4, 0(r1)");
  EXPECT_EQ(DisassembleWord(0xC04003A7), "dbg     r3");
  EXPECT_EQ(DisassembleWord(0xFFFC02A9), "bnez    r2, .-16");
  EXPECT_EQ(DisassembleWord(0x00043302), "fadd.s  r3, r3, r4");
  EXPECT_EQ(DisassembleWord(0x01000003), "tend");
  EXPECT_EQ(DisassembleWord(0x1F0102C0), "fadds   d2, d0, d1");
  EXPECT_EQ(DisassembleWord(0x21510076), "fmacs   d0, d0, d1, r5, ut1 activate 1");
}

// A word of this table line with random legal operands, from the line's masks alone (not from
// the assembler): fields outside field_mask are zero, Z = 1 clears B, immediates within limits.
uint32_t RandomWord(const arch::InsnInfo& n, std::mt19937& rng) {
  uint32_t w = n.fixed_bits | (static_cast<uint32_t>(rng()) & n.field_mask);
  const bool z = (w >> 7) & 1;
  if (n.zeroable && z) w &= ~0xF000u;
  uint32_t imm = w >> 16;
  if (n.imm_limit) imm %= n.imm_limit;
  if (n.tid_like) imm = z ? imm % 32 : 0;
  if (n.format != arch::InsnFormat::kR && n.format != arch::InsnFormat::kD &&
      (n.field_mask >> 16)) {
    w = (w & 0xFFFF) | (imm << 16);
  }
  return w;
}

TEST(Encoding, EveryTableLineRoundTripsThroughText) {
  std::mt19937 rng(20240611);
  int checked = 0;
  for (const arch::InsnInfo& n : arch::kInsns) {
    std::set<uint32_t> seen;
    for (int iter = 0; iter < 64; ++iter) {
      const uint32_t w = iter == 0 ? n.fixed_bits | (n.zeroable ? 0x80u : 0u) : RandomWord(n, rng);
      if (!seen.insert(w).second) continue;
      ASSERT_EQ(isa::Decode(w), &n) << n.mnemonic << " " << std::hex << w;
      const std::string text = DisassembleWord(w);
      EXPECT_EQ(OneWord(text), w) << n.mnemonic << ": '" << text << "'";
      ++checked;
    }
  }
  EXPECT_GT(checked, arch::kNumInsns * 10);
}

TEST(Encoding, IllegalWordsRoundTripAsWordDirectives) {
  std::mt19937 rng(7);
  int illegal = 0;
  for (int iter = 0; iter < 4000 && illegal < 300; ++iter) {
    const uint32_t w = iter == 0 ? 0u : static_cast<uint32_t>(rng());
    if (isa::Decode(w)) continue;
    const std::string text = DisassembleWord(w);
    EXPECT_EQ(text, fmt::format(".word   0x{:08x} ; illegal", w));
    EXPECT_EQ(OneWord(text), w);
    ++illegal;
  }
  EXPECT_GE(illegal, 300);
  // Legal opcode, nonzero unused field: illegal too (docs/isa.md 4.1).
  EXPECT_EQ(DisassembleWord(0x01000003 | (1u << 8)), ".word   0x01000103 ; illegal");
}

TEST(Encoding, OperandForms) {
  EXPECT_EQ(OneWord("add r1, 0, r3"), 0x00030181u);  // rb = 0: Z
  EXPECT_EQ(OneWord("lw r1, (r2)"), OneWord("lw r1, 0(r2)"));
  EXPECT_EQ(OneWord("lw r1, -4(sp)"), 0xFFFCE124u);  // sp = r14
  EXPECT_EQ(OneWord("jr (lr)"), 0x0000F032u);
  EXPECT_EQ(OneWord("activate r3"), 0x00003006u);
  EXPECT_EQ(OneWord("activate 5"), 0x00050086u);
  EXPECT_EQ(OneWord("activate 5, r2"), 0x00050287u);  // tid 5 (Z), ra = r2
  EXPECT_EQ(OneWord("send r1, 3"), 0x0003018Au);
  EXPECT_EQ(OneWord("send r1, r2"), 0x0000210Au);
  EXPECT_EQ(OneWord("dincb d1, r2"), 0x0000213Au);
  EXPECT_EQ(OneWord("dincb d1, r2, -8"), 0xFFF8213Au);
  EXPECT_EQ(OneWord("dincb d1, 32"), 0x002001BAu);
  EXPECT_EQ(OneWord("drd r1, d2, 1"), 0x00012137u);
  EXPECT_EQ(OneWord("utwait"), 0x00FF0005u);  // alone: every microthread
  EXPECT_EQ(OneWord("utwait 0x3"), 0x00030005u);
  EXPECT_EQ(OneWord("mov32 d1, d2"), 0x1F00216Cu | 0x80u);  // V2
  EXPECT_EQ(OneWord("mov32 d1, r2"), 0x1F20016Eu | 0x80u);  // Fill
  EXPECT_EQ(OneWord("fmovs d1, d2"), OneWord("mov32 d1, d2"));
  EXPECT_EQ(OneWord("fadds d1, d2, r3"), 0x1F302158u | 0x80u);  // VS: a GPR third operand
  EXPECT_EQ(OneWord("fdots r2, d0, d1"), 0x1F210079u | 0x80u);
  EXPECT_EQ(OneWord("fadds d1, d2, d3, ut7 async"), 0xFF032140u);
  EXPECT_EQ(OneWord("fadds d1, d2, d3, ut2 unblock 4"), 0x44032140u | 0x80u);
  EXPECT_EQ(OneWord("fadds d1, d2, d3, ut3 activate 30"), 0x7E032140u);
  EXPECT_EQ(OneWord("ADD R1, R2, R3"), 0x00032101u);  // mnemonics and registers in any case
  EXPECT_EQ(OneWord("add wv, r2, r3"), 0x00032001u);
}

TEST(Encoding, RegisterAliases) {
  const Object o =
      Asm("        .reg count, r8\n"
          "        .reg vec, d3\n"
          "        addi count, count, 1\n"
          "        dmov vec, d1\n");
  EXPECT_EQ(WordAt(o, SectionId::kText, 0), OneWord("addi r8, r8, 1"));
  EXPECT_EQ(WordAt(o, SectionId::kText, 4), OneWord("dmov d3, d1"));
}

TEST(Encoding, PseudoInstructions) {
  struct Case {
    const char* pseudo;
    const char* real;
  };
  const Case cases[] = {
      {"la r1, 0x1234", "ori r1, 0, 0x1234"},
      {"mov r1, r2", "addi r1, r2, 0"},
      {"not r1, r2", "xori r1, r2, -1"},
      {"neg r1, r3", "sub r1, 0, r3"},
      {"beqz r1, .+8", "beq r1, 0, .+8"},
      {"bnez r1, .-8", "bne r1, 0, .-8"},
      {"bltz r1, .+8", "blt r1, 0, .+8"},
      {"bgez r1, .+8", "bge r1, 0, .+8"},
      {"bgt r1, r2, .+8", "blt r2, r1, .+8"},
      {"ble r1, r2, .+8", "bge r2, r1, .+8"},
      {"bgtu r1, r2, .+8", "bltu r2, r1, .+8"},
      {"bleu r1, r2, .+8", "bgeu r2, r1, .+8"},
      {"call .+12", "jal lr, .+12"},
      {"ret", "jr (lr)"},
      {"rdcyc r4", "lw r4, CycleLo"},
      {"rdcych r4", "lw r4, CycleHi"},
      {"dbg r2", "sw r2, DebugPort"},
      {"dbg.u32 r2", "sw r2, DebugPort+4"},
      {"dbg.i32 r2", "sw r2, DebugPort+8"},
      {"dbg.f32 r2", "sw r2, DebugPort+12"},
      {"dbg.f16 r2", "sw r2, DebugPort+16"},
      {"dbg.char r2", "sw r2, DebugPort+20"},
      {"fmovh d1, d2", "mov16 d1, d2"},
  };
  for (const Case& c : cases) EXPECT_EQ(OneWord(c.pseudo), OneWord(c.real)) << c.pseudo;
  EXPECT_EQ(OneWord("rdcyc r4"), 0xC01004A4u);
}

TEST(Encoding, LiChoosesByValue) {
  // docs/isa.md 4.12: addi if simm fits; lui alone if the low half is 0; else lui + ori.
  EXPECT_EQ(Words("li r1, 5"), (std::vector<uint32_t>{OneWord("addi r1, 0, 5")}));
  EXPECT_EQ(Words("li r1, -32768"), (std::vector<uint32_t>{OneWord("addi r1, 0, -32768")}));
  EXPECT_EQ(Words("li r1, 32767"), (std::vector<uint32_t>{OneWord("addi r1, 0, 32767")}));
  EXPECT_EQ(Words("li r1, 0x10000"), (std::vector<uint32_t>{OneWord("lui r1, 1")}));
  EXPECT_EQ(Words("li r5, f32(2.5)"), (std::vector<uint32_t>{OneWord("lui r5, 0x4020")}));
  EXPECT_EQ(Words("li r1, 32768"),
            (std::vector<uint32_t>{OneWord("lui r1, 0"), OneWord("ori r1, r1, 0x8000")}));
  EXPECT_EQ(Words("li r1, 0x12345678"),
            (std::vector<uint32_t>{OneWord("lui r1, 0x1234"), OneWord("ori r1, r1, 0x5678")}));
  EXPECT_EQ(Words("li r1, 0xFFFFFFFF"),
            (std::vector<uint32_t>{OneWord("lui r1, 0xFFFF"), OneWord("ori r1, r1, 0xFFFF")}));
  EXPECT_EQ(Words("li r1, -40000"),
            (std::vector<uint32_t>{OneWord("lui r1, 0xFFFF"), OneWord("ori r1, r1, 0x63C0")}));
  // A value defined later is not known when li is sized: two words, still exact.
  EXPECT_EQ(Words("li r1, LATER\nLATER = 3"),
            (std::vector<uint32_t>{OneWord("lui r1, 0"), OneWord("ori r1, r1, 3")}));
  // A link-time value: always two words, with HI16 and LO16 relocations.
  const Object o = Asm("        li r1, x\n        .data\nx:      .word 0\n");
  ASSERT_EQ(TextWords(o), (std::vector<uint32_t>{OneWord("lui r1, 0"), OneWord("ori r1, r1, 0")}));
  ASSERT_NE(FindReloc(o, SectionId::kText, 0), nullptr);
  EXPECT_EQ(FindReloc(o, SectionId::kText, 0)->kind, RelocKind::kHI16);
  EXPECT_EQ(FindReloc(o, SectionId::kText, 4)->kind, RelocKind::kLO16);
  EXPECT_EQ(FindReloc(o, SectionId::kText, 4)->target.sym, "x");
}

TEST(Encoding, DisassemblerPrefersPseudosOnlyWhenExact) {
  EXPECT_EQ(DisassembleWord(OneWord("addi r1, r2, 0")), "mov     r1, r2");
  EXPECT_EQ(DisassembleWord(OneWord("addi r1, 0, 0")), "li      r1, 0");
  EXPECT_EQ(DisassembleWord(OneWord("ori r1, 0, 0x100")), "la      r1, 0x100");
  EXPECT_EQ(DisassembleWord(OneWord("ori r1, r2, 0x100")), "ori     r1, r2, 0x100");
  EXPECT_EQ(DisassembleWord(OneWord("xori r1, r2, -1")), "not     r1, r2");
  EXPECT_EQ(DisassembleWord(OneWord("sub r1, 0, r3")), "neg     r1, r3");
  EXPECT_EQ(DisassembleWord(OneWord("jr (lr)")), "ret");
  EXPECT_EQ(DisassembleWord(OneWord("jr (r3)")), "jr      0(r3)");
  EXPECT_EQ(DisassembleWord(OneWord("jal lr, .+8")), "call    .+8");
  EXPECT_EQ(DisassembleWord(OneWord("jal r3, .+8")), "jal     r3, .+8");
  EXPECT_EQ(DisassembleWord(OneWord("lw r1, 0xC010")), "rdcyc   r1");
  EXPECT_EQ(DisassembleWord(OneWord("lw r1, 0xC400")), "lw      r1, TaskActive");
  EXPECT_EQ(DisassembleWord(OneWord("sw r1, 0xC04C")), "dbg.f32 r1");
  EXPECT_EQ(DisassembleWord(OneWord("beq r1, 0, .+8")), "beqz    r1, .+8");
  // A pure reordering of operands is not worth a pseudo name: bge stays bge.
  EXPECT_EQ(DisassembleWord(OneWord("bge r1, r2, .+8")), "bge     r1, r2, .+8");
  EXPECT_EQ(DisassembleWord(OneWord("lui r1, 0x4020")), "li      r1, 0x40200000");
  EXPECT_EQ(DisassembleWord(OneWord("lui r1, 0")), "lui     r1, 0");
  EXPECT_EQ(DisassembleWord(OneWord("utwait")), "utwait  0xff");
  EXPECT_EQ(DisassembleWord(OneWord("mov32 d1, d2, ut3 unblock 7")),
            "mov32   d1, d2, ut3 unblock 7");
}

}  // namespace
}  // namespace tessera::assembler::test
