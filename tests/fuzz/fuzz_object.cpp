// libFuzzer target: the object-file reader and the single-PE linker (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "asm/diagnostics.h"
#include "asm/disasm.h"
#include "asm/link.h"
#include "asm/object.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera::assembler;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Object obj = ReadObject(text, "fuzz.tobj");
    (void)DisassembleObject(obj);
    (void)LinkSingle({obj}, {});
  } catch (const Error&) {
  }
  return 0;
}
