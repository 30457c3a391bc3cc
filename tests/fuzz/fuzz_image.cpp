// libFuzzer target: the program-image reader (tests/fuzz/README.md). An image either reads or is
// refused with assembler::Error naming the line; one that reads must write and read back, and
// list its load writes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "asm/diagnostics.h"
#include "layout/image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const layout::Image img = layout::ReadImage(text, "fuzz.timg");
    (void)layout::ReadImage(layout::WriteImage(img), "fuzz2.timg");
    if (int64_t(img.fabric_w) * img.fabric_h <= 4096) {
      uint64_t n = 0;
      img.ForEachWrite([&](int, int, uint16_t, uint32_t) { ++n; });
    }
  } catch (const assembler::Error&) {
  }
  return 0;
}
