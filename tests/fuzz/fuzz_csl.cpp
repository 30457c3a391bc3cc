// libFuzzer target: the CSL lexer and parser (tests/fuzz/README.md). Any input either parses or
// is refused with csl::Error; a parsed tree prints (csl::Dump), which walks all of it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "csl/ast.h"
#include "csl/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera::csl;
  Sources sources;
  const int f = sources.Add("fuzz.csl", std::string(reinterpret_cast<const char*>(data), size));
  try {
    const NodePtr tree = ParseFile(sources, f);
    (void)Dump(*tree);
  } catch (const Error&) {
  }
  return 0;
}
