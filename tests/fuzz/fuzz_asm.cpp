// libFuzzer target: the assembler (tests/fuzz/README.md). Any source text either assembles or is
// refused with assembler::Error; what assembles must write, read back and disassemble.
#include <cstddef>
#include <cstdint>
#include <string>

#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/disasm.h"
#include "asm/object.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera::assembler;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const AssembleResult r = AssembleText("fuzz.s", text);
    const Object back = ReadObject(WriteObject(r.object), "fuzz.tobj");
    (void)DisassembleObject(back);
  } catch (const Error&) {
  }
  return 0;
}
