// libFuzzer target: the TestFloat vector file reader (tests/fuzz/README.md). The first byte picks
// the operation (1, 2 and 3 operands, floats and integers); the rest is the file, plain or gzip,
// written to a temporary file because the reader takes a path.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "fp/testfloat_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* kOps[] = {"f32_add",    "f32_mulAdd",         "f16_sqrt",
                               "i32_to_f32", "f32_to_i32_rminMag", "f16_mulAdd",
                               "f32_div",    "f16_to_f32"};
  if (size < 1) return 0;
  static const std::string path = "/tmp/tessera_fuzz_testfloat_" + std::to_string(getpid());
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data + 1, 1, size - 1, f);
  std::fclose(f);
  try {
    (void)tessera::fp::ReadTestFloatFile(path, kOps[data[0] % 8]);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
