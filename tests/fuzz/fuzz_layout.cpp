// libFuzzer target: the layout parser and linker (tests/fuzz/README.md). Programs are looked up
// in tests/fuzz/data (a.s, b.s). Fabrics above 4096 PEs are parsed but not linked: linking one
// program per PE of a large fabric is slow by design, not a bug, and would read as a hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "asm/diagnostics.h"
#include "layout/image.h"
#include "layout/layout.h"

#ifndef TESSERA_FUZZ_DATA
#define TESSERA_FUZZ_DATA "tests/fuzz/data"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const layout::Layout l =
        layout::ParseLayoutText(TESSERA_FUZZ_DATA "/fuzz.tlayout", text, TESSERA_FUZZ_DATA);
    if (int64_t(l.fabric_w()) * l.fabric_h() > 4096) return 0;
    const layout::Image img = layout::Link(l);
    (void)layout::ReadImage(layout::WriteImage(img), "fuzz.timg");
  } catch (const assembler::Error&) {
  }
  return 0;
}
