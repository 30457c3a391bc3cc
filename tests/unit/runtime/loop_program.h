// The small program the machine-stepping and lockstep tests run on one PE, and how they link it.
#pragma once

#include <string>

#include "asm/assembler.h"
#include "asm/link.h"

namespace tessera::runtime::test {

inline assembler::PeProgram Link(const std::string& text) {
  return assembler::LinkSingle({assembler::AssembleText("t.s", text).object}, {});
}

// A loop that sums 1..10 into r1, stores it, prints it and ends.
inline constexpr const char* kLoop = R"(
        .text
        .task   main, local, 0
main:   li      r1, 0
        li      r2, 10
loop:   add     r1, r1, r2
        addi    r2, r2, -1
        nop
        bnez    r2, loop
        sw      r1, data
        dbg.u32 r1
        tend
        .data
data:   .word   0
)";

}  // namespace tessera::runtime::test
