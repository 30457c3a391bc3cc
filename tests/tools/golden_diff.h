// Compares a file a test wrote with its reviewed golden copy and says where they first differ:
// for .npy files the dtype, shape or order, else the first differing element by its index and
// both values; for text files the first differing line with both lines; otherwise the first
// differing byte. Used by the `tessera run` golden tests (tessera_golden_diff).
#pragma once

#include <string>

namespace tessera::test {

// "" if the two files are equal; otherwise one sentence naming the first difference.
std::string GoldenDiff(const std::string& written, const std::string& golden);

}  // namespace tessera::test
