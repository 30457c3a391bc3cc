// libFuzzer target: the .npy reader (tests/fuzz/README.md). Bytes either parse or are refused
// with std::invalid_argument; a parsed array's shape matches its data.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "runtime/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera::runtime;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const NpyArray a = ParseNpy(bytes, "fuzz.npy");
    size_t n = 1;
    for (size_t d : a.shape) n *= d;
    if (n != a.count()) std::abort();  // the shape must describe the data
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
