// What users see when something is wrong: `file:line:column: error: message`, saying what is
// wrong and what is allowed (docs/isa.md 8.3). One test per kind of mistake.
#include <gtest/gtest.h>

#include "asm_test_util.h"

namespace tessera::assembler::test {
namespace {

TEST(Errors, UnknownMnemonicSuggestsTheClosest) {
  EXPECT_EQ(ErrorOf("        nop\n        fad.s r1, r2, r3\n"),
            "t.s:2:9: error: unknown instruction 'fad.s' (did you mean 'fadd.s'?)");
  EXPECT_EQ(ErrorOf("        frobnicate r1\n"), "t.s:1:9: error: unknown instruction 'frobnicate'");
}

TEST(Errors, WrongOperandKind) {
  EXPECT_EQ(ErrorOf("        add r1, r2, 5\n"),
            "t.s:1:21: error: operand 3 of 'add' (rc) must be a general register r0..r15, not "
            "'5'");
  EXPECT_EQ(ErrorOf("        addi r1, r2, r3\n"),
            "t.s:1:22: error: operand 3 of 'addi' (simm) must be an expression -32768..32767, not "
            "the register 'r3'");
  EXPECT_EQ(ErrorOf("        ldd r1, 0(r2)\n"),
            "t.s:1:13: error: operand 1 of 'ldd' (da) must be a descriptor register d0..d15, not "
            "the register 'r1'");
  EXPECT_EQ(ErrorOf("        mov32 d1, 5\n"),
            "t.s:1:9: error: no form of 'mov32' takes these operands; its forms are 'mov32 dst, "
            "src0[, done]' or 'mov32 dst, s[, done]'");
}

TEST(Errors, Mem4dDescriptorFields) {
  EXPECT_NE(ErrorOf("        .data\nd:      .dsd a, mem4d, f32, base=0, len=4, len2=40\n")
                .find("len2=40 is out of range (0..31)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("        .data\nd:      .dsd a, mem4d, f32, base=0, len=4, len1=x\n"
                    "        .global x\n")
                .find("len1= must be an assembly-time constant"),
            std::string::npos);
  EXPECT_NE(ErrorOf("        .data\n        .dsd a, mem4d, f32, base=0, len=4, color=3\n")
                .find("mem4d descriptors have no 'color'"),
            std::string::npos);
}

TEST(Errors, FifoDescriptorFields) {
  EXPECT_NE(ErrorOf("        .data\n        .dsd a, fifo, f32, base=0, len=4, fifo=8\n")
                .find("fifo=8 is out of range (0..7)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("        .data\n        .dsd a, fifo, f32, base=0, len=4\n")
                .find("fifo descriptors need fifo="),
            std::string::npos);
  EXPECT_NE(ErrorOf("        .data\n        .dsd a, fifo, f32, base=0, len=4, fifo=1, stride=2\n")
                .find("fifo descriptors have no 'stride' (they use: base, len, fifo)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("        .data\n        .dsd a, fifo, f32, base=2, len=4, fifo=1\n")
                .find("base=0x0002 is not aligned to the 4-byte f32 elements"),
            std::string::npos);
}

TEST(Errors, WrongNumberOfOperands) {
  EXPECT_EQ(ErrorOf("        add r1, r2\n"),
            "t.s:1:9: error: wrong number of operands for 'add' (the form is 'add rd, rb, rc')");
  EXPECT_EQ(ErrorOf("        beqz r1\n"),
            "t.s:1:9: error: wrong operands for 'beqz' (the form is 'beqz ra, off')");
  EXPECT_EQ(ErrorOf("        add r1, , r2\n"),
            "t.s:1:17: error: missing operand (two commas in a row, or a comma at the end)");
}

TEST(Errors, ImmediateOutOfRangeSaysTheRange) {
  EXPECT_EQ(ErrorOf("        addi r1, r2, 70000\n"),
            "t.s:1:22: error: immediate 70000 does not fit in 16 bits (addi takes -32768..32767)");
  EXPECT_EQ(ErrorOf("        ori r1, r2, -1\n"),
            "t.s:1:21: error: immediate -1 does not fit in 16 bits (ori takes 0..65535)");
  EXPECT_EQ(ErrorOf("        shli r1, r2, 32\n"),
            "t.s:1:22: error: shift amount 32 is out of range (shli takes 0..31)");
  EXPECT_EQ(ErrorOf("        lw r1, 0x10000\n"),
            "t.s:1:16: error: absolute address 65536 is out of range (lw takes 0..0xFFFF; an "
            "offset from a register is written offset(rN))");
  EXPECT_EQ(ErrorOf("        lw r1, 40000(r2)\n"),
            "t.s:1:16: error: offset 40000 does not fit in 16 bits (lw takes -32768..32767 from a "
            "base register)");
  EXPECT_EQ(ErrorOf("        activate 32\n"),
            "t.s:1:18: error: task ID 32 is out of range (activate takes 0..31; 31 names no "
            "task)");
  EXPECT_EQ(ErrorOf("        utwait 256\n"),
            "t.s:1:16: error: microthread mask 256 is out of range (utwait takes 0..255)");
  EXPECT_EQ(ErrorOf("        drd r1, d2, 2\n"),
            "t.s:1:21: error: descriptor word 2 is out of range (drd takes 0 or 1)");
  EXPECT_EQ(ErrorOf("        li r1, 0x100000000\n"),
            "t.s:1:16: error: li value 4294967296 does not fit in 32 bits "
            "(-2147483648..4294967295)");
  EXPECT_EQ(ErrorOf("        .data\n        .half 70000\n"),
            "t.s:2:15: error: value 70000 does not fit in 16 bits (.half takes -32768..65535)");
  EXPECT_EQ(ErrorOf("        .data\n        .f16 1e5\n"),
            "t.s:2:14: error: 1e5 is beyond the largest finite f16 (65504)");
}

TEST(Errors, UndefinedSymbol) {
  EXPECT_EQ(ErrorOf("loop:   nop\n        bnez r1, lopp\n"),
            "t.s:2:18: error: undefined symbol 'lopp' (did you mean 'loop'?)");
  EXPECT_EQ(ErrorOf("        j nowhere_at_all\n"),
            "t.s:1:11: error: undefined symbol 'nowhere_at_all' (declare it with .global if "
            "another object defines it)");
  EXPECT_EQ(ErrorOf("        .space SIZE\nSIZE = 4\n"),
            "t.s:1:16: error: 'SIZE' is used before its definition (at t.s:2:1); this statement "
            "needs its value here");
}

TEST(Errors, DuplicateLabel) {
  EXPECT_EQ(ErrorOf("a:      nop\na:      tend\n"),
            "t.s:2:1: error: 'a' is already defined as a label at t.s:1:1");
  EXPECT_EQ(ErrorOf("N = 1\nN:      nop\n"),
            "t.s:2:1: error: 'N' is already defined as a constant (.equ) at t.s:1:1");
  EXPECT_EQ(ErrorOf("CycleLo: nop\n"),
            "t.s:1:1: error: 'CycleLo' is predefined (register 0xC010); choose another name");
}

TEST(Errors, Misaligned) {
  EXPECT_EQ(ErrorOf("        .data\n        .byte 1\n        .word 2\n"),
            "t.s:3:9: error: misaligned .word: offset 0x0001 of .data is not a multiple of 4 (add "
            ".align 4 before it)");
  EXPECT_EQ(ErrorOf("        .byte 1\n        nop\n"),
            "t.s:2:9: error: instruction at offset 0x0001 of .text is not 4-byte aligned (add "
            ".align 4 before it)");
  EXPECT_EQ(ErrorOf("        .data\n        .dsd d, mem1d, f32, base=0x102, len=4\n"),
            "t.s:2:34: error: base=0x0102 is not aligned to the 4-byte f32 elements");
}

TEST(Errors, BadRegister) {
  EXPECT_EQ(ErrorOf("        add r1, r2, r16\n"),
            "t.s:1:21: error: operand 3 of 'add' (rc) must be a general register r0..r15, not "
            "'r16'");
  EXPECT_EQ(ErrorOf("        add r1, r16, r2\n"),
            "t.s:1:17: error: 'r16' is not a register: the general registers are r0..r15");
  EXPECT_EQ(ErrorOf("        fadds d1, d2, d3, ut8\n"),
            "t.s:1:27: error: 'ut8' is not a microthread: they are ut0..ut7");
  EXPECT_EQ(ErrorOf("        .reg r3, r4\n"), "t.s:1:14: error: 'r3' is already a register name");
  EXPECT_EQ(ErrorOf("r5:     nop\n"),
            "t.s:1:1: error: 'r5' is a register name; it cannot name a symbol");
}

TEST(Errors, UnknownDirective) {
  EXPECT_EQ(ErrorOf("        .wrod 1\n"),
            "t.s:1:9: error: unknown directive '.wrod' (did you mean '.word'?)");
}

TEST(Errors, UnterminatedMacroReptAndIf) {
  EXPECT_EQ(ErrorOf("        .macro m\n        nop\n"),
            "t.s:1:9: error: unterminated .macro: no .endm before the end of the file");
  EXPECT_EQ(ErrorOf("        .rept 2\n        nop\n"),
            "t.s:1:9: error: unterminated .rept: no .endr before the end of the file");
  EXPECT_EQ(ErrorOf("        .if 1\n        nop\n"),
            "t.s:1:9: error: unterminated .if: no .endif before the end of the file");
  EXPECT_EQ(ErrorOf("        .endif\n"), "t.s:1:9: error: .endif without .if");
  EXPECT_EQ(ErrorOf("        .else\n"), "t.s:1:9: error: .else without .if");
  EXPECT_EQ(ErrorOf("        .endm\n"), "t.s:1:9: error: .endm without .macro");
  EXPECT_EQ(ErrorOf("        .if RX\n        .endif\n        .param RX\n"),
            "t.s:1:13: error: 'RX' is not defined here: .if and .rept need assembly-time "
            "constants defined before them");
  EXPECT_EQ(ErrorOf("        .param RX\n        .if RX\n        .endif\n"),
            "t.s:2:13: error: the condition or count must be an assembly-time constant, but 'RX' "
            "is a link-time value (a label, a param or a symbol of another object)");
}

TEST(Errors, MacroArgumentsAndExpansionNotes) {
  const std::string defs =
      "        .macro load reg, value\n"
      "        addi \\reg, 0, \\value\n"
      "        .endm\n";
  EXPECT_EQ(ErrorOf(defs + "        load r1\n"),
            "t.s:4:9: error: macro 'load' needs a value for parameter 'value' (it has no default)");
  EXPECT_EQ(ErrorOf(defs + "        load r1, 2, 3\n"),
            "t.s:4:21: error: too many arguments for macro 'load' (it takes 2)");
  // An error inside an expansion points into the macro body and notes the invocation.
  EXPECT_EQ(ErrorOf(defs + "        load r1, 99999\n"),
            "t.s:2:23: error: immediate 99999 does not fit in 16 bits (addi takes -32768..32767)\n"
            "t.s:4:9: note: in expansion of macro 'load'");
}

TEST(Errors, MissingInclude) {
  EXPECT_EQ(ErrorOf("        .include \"nothere.inc\"\n"),
            "t.s:1:18: error: cannot find include file \"nothere.inc\" (looked in: .)");
}

TEST(Errors, TaskBindings) {
  EXPECT_EQ(ErrorOf("        .task t, data, 24\nt:      tend\n"),
            "t.s:1:24: error: a data task's ID is its color: 24 is not a color a PE can receive "
            "(0..23)");
  EXPECT_EQ(ErrorOf("        .task t, local, 31\nt:      tend\n"),
            "t.s:1:25: error: task ID 31 means 'no task' and cannot be bound");
  EXPECT_EQ(ErrorOf("        .task a, local, 3\n        .task b, local, 3\na: b: tend\n"),
            "t.s:2:25: error: task ID 3 is already bound to 'a' at t.s:1:1");
  EXPECT_EQ(ErrorOf("        .task t, weekly, 3\nt:      tend\n"),
            "t.s:1:18: error: task kind 'weekly' is not data, local or control");
  EXPECT_EQ(ErrorOf("        .task t, local, 3\n        .data\nt:      .word 0\n"),
            "t.s:1:15: error: task entry 't' is in .data: a task starts at code in .text");
  EXPECT_EQ(ErrorOf("x:      nop\n        activate x\n"),
            "t.s:2:18: error: 'x' is a label, not a task: bind it with '.task x, KIND, ID' or "
            "write the task ID");
}

TEST(Errors, CompletionClause) {
  EXPECT_EQ(ErrorOf("        fadds d1, d2, d3, ut1 unblock 31\n"),
            "t.s:1:39: error: 'unblock 31' would be the synchronous code; name a task 0..30");
  EXPECT_EQ(ErrorOf("        fadds d1, d2, d3, ut1 later\n"),
            "t.s:1:31: error: expected 'async', 'activate T' or 'unblock T' after ut1, got "
            "'later'");
  EXPECT_EQ(ErrorOf("        fadds d1, d2, d3, ut1 activate 31\n"),
            "t.s:1:40: error: task 31 names no task; write 'async' for no completion action");
}

TEST(Errors, BranchTargets) {
  EXPECT_EQ(ErrorOf("        beq r1, r2, .+6\n"),
            "t.s:1:21: error: branch target is 6 bytes away, not a multiple of 4");
  EXPECT_EQ(ErrorOf("        j .+0x40000\n"),
            "t.s:1:11: error: branch target is 262144 bytes away; 'j' reaches -131072..+131068");
  EXPECT_EQ(ErrorOf("        j 0x100\n"),
            "t.s:1:11: error: branch target 256 is a constant: a branch needs a label (or '.' "
            "plus an offset); jr takes an absolute address");
}

TEST(Errors, SectionsAndDirectiveOperands) {
  EXPECT_EQ(ErrorOf("        .bss\n        .word 1\n"),
            "t.s:2:9: error: .word in .bss: .bss holds no data (use .space there, or put "
            "initialized data in .data)");
  EXPECT_EQ(ErrorOf("        .data\n        nop\n"),
            "t.s:2:9: error: instruction 'nop' in .data: code belongs in .text");
  EXPECT_EQ(ErrorOf("        .align 3\n"),
            "t.s:1:16: error: .align 3: the alignment must be a power of two 1..16384");
  EXPECT_EQ(ErrorOf("        .data\n        .dsd d, fabin, f32, len=4, color=3, stride=2\n"),
            "t.s:2:45: error: fabin descriptors have no 'stride' (they use: len, color)");
  EXPECT_EQ(ErrorOf("        .data\n        .dsd d, fabin, f32, len=4, color=24\n"),
            "t.s:2:42: error: color=24 is out of range (0..23)");
  EXPECT_EQ(ErrorOf("        sendc r1, 24\n"),
            "t.s:1:19: error: color 24 is out of range (sendc takes 0..23; colors 24..31 are "
            "reserved and a send on one can only fault)");
  EXPECT_EQ(ErrorOf("        .data\n        .dsd d, mem1d, f32, len=4\n"),
            "t.s:2:9: error: mem1d descriptors need base=");
  EXPECT_EQ(ErrorOf("        .export nothing\n"),
            "t.s:1:17: error: 'nothing' is exported but not a label of this file");
}

TEST(Errors, Expressions) {
  EXPECT_EQ(ErrorOf("        .data\n        .word 1 / 0\n"),
            "t.s:2:17: error: division by zero in 1 / 0");
  EXPECT_EQ(ErrorOf("        .data\n        .word 2.5\n"),
            "t.s:2:15: error: real literal 2.5 is only allowed in .f32, .f16, f32() and f16()");
  EXPECT_EQ(ErrorOf("        .data\nx:      .word x * 2\n"),
            "t.s:2:17: error: 'x' is a link-time value (a label, a param or a symbol of another "
            "object): an expression may only add a constant to it or subtract one from it, "
            "optionally inside lo() or hi()");
  EXPECT_EQ(ErrorOf("A = B\nB = A\n        .word A\n"),
            "t.s:1:5: error: circular definition: 'B' depends on itself");
  EXPECT_EQ(ErrorOf("        .data\n        .word (1 + 2\n"),
            "t.s:2:21: error: expected ')' to close the '(' at column 15");
  // A constant whose definition fails is reported once; its uses go on quietly.
  EXPECT_EQ(ErrorOf("N = N + 1\n        .word N\n        li r1, N\n"),
            "t.s:1:5: error: circular definition: 'N' depends on itself");
}

TEST(Errors, SeveralErrorsAreReportedTogether) {
  const std::string e = ErrorOf(
      "        addi r1, r2, 70000\n"
      "        nop\n"
      "        bogus\n"
      "        .word undefined_one\n");
  EXPECT_EQ(e,
            "t.s:1:22: error: immediate 70000 does not fit in 16 bits (addi takes -32768..32767)\n"
            "t.s:3:9: error: unknown instruction 'bogus'\n"
            "t.s:4:15: error: undefined symbol 'undefined_one' (declare it with .global if "
            "another object defines it)");
}

}  // namespace
}  // namespace tessera::assembler::test
