// Objects (docs/isa.md 8.4): relocations where a value needs the linker, the text format written
// and read back, clear errors for malformed files, and the disassembler's round trip.
#include <gtest/gtest.h>

#include "asm/disasm.h"
#include "asm_test_util.h"

namespace tessera::assembler::test {
namespace {

std::string R(const Object& o, SectionId s, uint32_t off) {
  const ObjReloc* r = FindReloc(o, s, off);
  return r ? std::string(RelocKindName(r->kind)) + " " + r->target.ToString() : "none";
}

const char* kRelocSource =
    "        .param P\n"
    "        .global ext, worker\n"
    "        .text\n"
    "        .task here, local, 2\n"
    "here:   la r1, x\n"                             // 0x00 U16 x
    "        sw r1, x+4\n"                           // 0x04 U16 x+4
    "        lw r2, x(r3)\n"                         // 0x08 S16 x
    "        li r4, x-8\n"                           // 0x0c HI16, 0x10 LO16
    "        bnez r1, later\n"                       // 0x14 PC16 (another section)
    "        call ext\n"                             // 0x18 PC16 ext
    "        activate worker\n"                      // 0x1c U5 id(worker)
    "        send r1, P\n"                           // 0x20 U5 P
    "        fadds d0, d1, d2, ut1 unblock P + 1\n"  // 0x24 TID5 P+1
    "        block here\n"                           // 0x28 constant: the task's own ID
    "        j here\n"                               // 0x2c same section: no relocation
    "        dincb d1, P\n"                          // 0x30 S16 P
    "        lui r5, hi(__end)\n"                    // 0x34 HI16 __end
    "        .data\n"
    "x:      .word x, ext + 4\n"                             // 0x00 W32 x, 0x04 W32 ext+4
    "        .half P\n"                                      // 0x08 H16 P
    "        .byte P\n"                                      // 0x0a B8 P
    "        .dsd d, mem1d, f32, base=x, len=P, stride=P\n"  // 0x10
    "        .dsd o, fabout, f32, color=P, len=2\n"          // 0x18
    "        .text\n"
    "later:  tend\n";

TEST(Object, RelocationsOnlyWhereNeeded) {
  std::string src = kRelocSource;
  const Object o = Asm(src);
  const SectionId T = SectionId::kText, D = SectionId::kData;
  EXPECT_EQ(R(o, T, 0x00), "U16 x+0");
  EXPECT_EQ(R(o, T, 0x04), "U16 x+4");
  EXPECT_EQ(R(o, T, 0x08), "S16 x+0");
  EXPECT_EQ(R(o, T, 0x0c), "HI16 x-8");
  EXPECT_EQ(R(o, T, 0x10), "LO16 x-8");
  EXPECT_EQ(R(o, T, 0x14), "none");  // `later` is in .text too: resolved here
  EXPECT_EQ(R(o, T, 0x18), "PC16 ext+0");
  EXPECT_EQ(R(o, T, 0x1c), "U5 id(worker)+0");
  EXPECT_EQ(R(o, T, 0x20), "U5 P+0");
  EXPECT_EQ(R(o, T, 0x24), "TID5 P+1");
  EXPECT_EQ(R(o, T, 0x28), "none");
  EXPECT_EQ(WordAt(o, T, 0x28), OneWord("block 2"));
  EXPECT_EQ(R(o, T, 0x2c), "none");
  EXPECT_EQ(R(o, T, 0x30), "S16 P+0");
  EXPECT_EQ(R(o, T, 0x34), "HI16 __end+0");
  EXPECT_EQ(R(o, D, 0x00), "W32 x+0");
  EXPECT_EQ(R(o, D, 0x04), "W32 ext+4");
  EXPECT_EQ(R(o, D, 0x08), "H16 P+0");
  EXPECT_EQ(R(o, D, 0x0a), "B8 P+0");
  int dsd_relocs = 0;
  for (const ObjReloc& r : o.relocs) dsd_relocs += r.section == D && r.offset >= 0x10;
  EXPECT_EQ(dsd_relocs, 4);  // DBASE, DLEN, DSTRIDE of d; DCOLOR of o
  // A relocated field holds zero; the rest of the word is encoded.
  EXPECT_EQ(WordAt(o, T, 0x00), OneWord("ori r1, 0, 0"));
  EXPECT_EQ(WordAt(o, T, 0x08), OneWord("lw r2, 0(r3)"));
  EXPECT_EQ(WordAt(o, T, 0x1c), OneWord("activate 0"));
}

TEST(Object, WriteReadRoundTrip) {
  std::string src = kRelocSource;
  const Object o = Asm(src + "        .data\n        .byte 1, 2, 3\n        .bss\nz: .space 12\n");
  const std::string text = WriteObject(o);
  const Object back = ReadObject(text, "t.tobj");
  EXPECT_EQ(WriteObject(back), text);
  EXPECT_EQ(back.name, "t.tobj");
  EXPECT_EQ(back.section(SectionId::kData).bytes, o.section(SectionId::kData).bytes);
  EXPECT_EQ(back.section(SectionId::kBss).size, 12u);
  EXPECT_EQ(back.relocs.size(), o.relocs.size());
  EXPECT_EQ(back.tasks.size(), 1u);
  EXPECT_EQ(text.substr(0, text.find('\n')), "tessera-object 1");
}

TEST(Object, ReaderNamesFileAndLine) {
  auto error_of = [](const std::string& text) {
    try {
      ReadObject(text, "bad.tobj");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of("hello\n"),
            "bad.tobj:1: error: malformed object: not a Tessera object: the first line must be "
            "'tessera-object 1'");
  EXPECT_EQ(error_of("tessera-object 2\n"),
            "bad.tobj:1: error: malformed object: object format version 2 is not supported (this "
            "tool reads 1)");
  const std::string head = "tessera-object 1\nsection .text align 4 size 0x0008\n";
  EXPECT_EQ(error_of(head + "  0000: 00000003 zz\n"),
            "bad.tobj:3: error: malformed object: bad data 'zz' (hexadecimal expected)");
  EXPECT_EQ(error_of(head + "  0004: 00000003\n"),
            "bad.tobj:3: error: malformed object: data at offset 0x0004, expected 0x0000 (lines "
            "must be in order without gaps)");
  EXPECT_EQ(error_of(head + "  0000: 00000003 01000003\nreloc .text 0x0008 U16 x+0\n"),
            "bad.tobj:4: error: malformed object: offset 0x0008 is outside section .text (size "
            "0x0008)");
  EXPECT_EQ(error_of(head + "  0000: 00000003 01000003\nreloc .text 0x0000 X99 x+0\n"),
            "bad.tobj:4: error: malformed object: unknown relocation kind 'X99'");
  EXPECT_EQ(error_of(head + "  0000: 00000003 01000003\nfrobnicate\n"),
            "bad.tobj:4: error: malformed object: unknown record 'frobnicate' (expected source, "
            "section, symbol, param, task, dsd, reloc, line or offset: data)");
  EXPECT_EQ(error_of(head + "  0000: 00000003\n"),
            "bad.tobj:2: error: malformed object: section .text declares size 0x0008 but has "
            "0x0004 bytes of data");
  EXPECT_EQ(error_of(head + "  0000: 00000003 01000003\ntask t sometimes 3\n"),
            "bad.tobj:4: error: malformed object: task kind 'sometimes' is not data, local or "
            "control");
}

// Everything but the source name and line records, which name the file assembled.
std::string Canonical(const Object& o) {
  std::string out;
  const std::string text = WriteObject(o);
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const std::string line = text.substr(start, nl - start);
    if (line.rfind("source ", 0) != 0 && line.rfind("line ", 0) != 0) out += line + "\n";
    start = nl + 1;
  }
  return out;
}

TEST(Object, DisassemblyAssemblesToTheSameObject) {
  std::string src = kRelocSource;
  src +=
      "        .data\n"
      "        .byte 9, 8\n"
      "odd:    .half 0x1234\n"
      "        .align 8\n"
      "        .dsd in, fabin, i16, color=7, len=inf\n"
      "        .dsd ix, fabout, u16, color=2, len=5, idx=1, base=40, ctrl=1\n"
      "        .dsd q, fifo, f32, base=odd+2, len=12, fifo=5\n"
      "        .space 20\n"
      "        .bss\n"
      "b1:     .space 6\n"
      "b2:     .space 2\n"
      "        .text\n"
      "        .word 0\n"
      "        .byte 1, 2\n"
      "        .half 3\n"
      "        li r1, 0x12345678\n"
      "        li r2, 0x10000\n"
      "        fmacs d0, d0, d1, r5, ut1 activate here\n"
      "        utwait 3\n"
      "        .f32 1.5\n";
  const Object o = Asm(src);
  const std::string text = DisassembleObject(o);
  Object back;
  try {
    back = AssembleText("re.s", text).object;
  } catch (const Error& e) {
    FAIL() << e.what() << "\n" << text;
  }
  EXPECT_EQ(Canonical(back), Canonical(o)) << text;
  EXPECT_NE(text.find("li      r1, 0x12345678"), std::string::npos) << text;
  EXPECT_NE(text.find("li      r4, x-8"), std::string::npos) << text;
  EXPECT_NE(text.find(".dsd    d, mem1d, f32, base=x, len=P, stride=P"), std::string::npos);
  EXPECT_NE(text.find(", fifo, f32, base=odd+2, len=12, fifo=5"), std::string::npos) << text;
  EXPECT_NE(text.find("activate here"), std::string::npos) << text;
  EXPECT_NE(text.find(".word   0x00000000 ; illegal"), std::string::npos) << text;
}

TEST(Object, PseudoNamesNeverHideARelocation) {
  const Object o =
      Asm("        .global ext\n"
          "        addi r1, r2, ext\n"  // not `mov r1, r2`
          "        addi r1, 0, ext\n"   // not `li r1, ext` (that is two words)
          "        ori r1, 0, ext\n"    // `la r1, ext` keeps the symbol
          "        sw r3, ext\n");
  const std::string text = DisassembleObject(o);
  EXPECT_NE(text.find("addi    r1, r2, ext\n"), std::string::npos) << text;
  EXPECT_NE(text.find("addi    r1, 0, ext\n"), std::string::npos) << text;
  EXPECT_NE(text.find("la      r1, ext\n"), std::string::npos) << text;
  EXPECT_NE(text.find("sw      r3, ext\n"), std::string::npos) << text;
  EXPECT_EQ(Canonical(AssembleText("re.s", text).object), Canonical(o));
}

TEST(Object, RawDisassemblyWithLabels) {
  const std::vector<uint32_t> words = Words(
      "        li r1, 3\n"
      "1:      addi r1, r1, -1\n"
      "        bnez r1, 1b\n"
      "        j .+0x100\n"
      "        tend\n");
  std::vector<uint8_t> bytes;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(w >> (8 * b)));
  }
  bytes.push_back(0x7F);  // a trailing byte
  const std::string text = DisassembleRaw(bytes, 0x400);
  EXPECT_NE(text.find("L_0404:\n        addi    r1, r1, -1\n        bnez    r1, L_0404\n"
                      "        j       .+256\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(".byte   0x7f"), std::string::npos) << text;
  const Object back = Asm(text);
  EXPECT_EQ(TextWords(back), words);
}

}  // namespace
}  // namespace tessera::assembler::test
