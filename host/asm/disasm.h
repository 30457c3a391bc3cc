// The disassembler (docs/isa.md 8.4): canonical assembly text, one instruction a line, driven by
// the generated instruction table through isa::Decode. Labels come from the object's symbols;
// a word that does not decode prints as `.word 0x........ ; illegal`. Pseudo-instruction names
// (li, mov, beqz, ret, ...) are used only where assembling the text gives the same word back, and
// only for pseudos that hide a fixed operand (so `bge` stays `bge`, never `ble` reversed).
// Assembling the output of DisassembleObject gives the same sections, symbols, relocations,
// tasks, params and descriptors again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asm/object.h"

namespace tessera::assembler {

// One word as an instruction, without labels: "add r1, r2, r3", "bnez r2, .-16",
// ".word 0x00000000 ; illegal".
std::string DisassembleWord(uint32_t word);

std::string DisassembleObject(const Object& obj);

// Raw little-endian words (a trailing partial word prints as .byte) loaded at `base`; branch
// targets inside the range get labels L_ and their hex address (L_0104).
std::string DisassembleRaw(const std::vector<uint8_t>& bytes, uint32_t base);

}  // namespace tessera::assembler
