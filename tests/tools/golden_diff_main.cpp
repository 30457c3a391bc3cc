// tessera_golden_diff WRITTEN GOLDEN: exit 0 if equal; else prints where they first differ and
// exits 1 (2 for an unreadable file).
#include <fmt/format.h>

#include <exception>

#include "golden_diff.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: tessera_golden_diff WRITTEN GOLDEN\n");
    return 2;
  }
  try {
    const std::string diff = tessera::test::GoldenDiff(argv[1], argv[2]);
    if (diff.empty()) return 0;
    fmt::print(stderr, "{}\n", diff);
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tessera_golden_diff: {}\n", e.what());
    return 2;
  }
}
