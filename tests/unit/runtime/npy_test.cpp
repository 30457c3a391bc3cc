// The .npy reader (host/runtime/npy.h): a file in each supported form, and shapes read from the
// header that the data cannot back (issue 19: nothing allocated in proportion to them).
#include "runtime/npy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tessera::runtime {
namespace {

// A version 1.0 file with this header dict and `data_bytes` zero bytes of data.
std::string Npy(const std::string& dict, size_t data_bytes) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string f = std::string("\x93NUMPY\x01\x00", 8);
  f += static_cast<char>(h.size() & 0xFF);
  f += static_cast<char>(h.size() >> 8);
  return f + h + std::string(data_bytes, '\0');
}

std::string ErrorOf(const std::string& bytes) {
  try {
    ParseNpy(bytes, "a.npy");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Npy, ParsesShapeTypeAndOrder) {
  const NpyArray a =
      ParseNpy(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24), "a.npy");
  EXPECT_EQ(a.dtype, "<f4");
  EXPECT_EQ(a.shape, (std::vector<size_t>{2, 3}));
  EXPECT_EQ(a.count(), 6u);
  const NpyArray b =
      ParseNpy(Npy("{'descr': '<u2', 'fortran_order': True, 'shape': (5,), }", 10), "b.npy");
  EXPECT_TRUE(b.fortran_order);
  EXPECT_EQ(b.count(), 5u);
  const NpyArray e =
      ParseNpy(Npy("{'descr': '<i4', 'fortran_order': False, 'shape': (0, 7), }", 0), "e.npy");
  EXPECT_EQ(e.count(), 0u);
}

TEST(Npy, RefusesShapesTheDataCannotHold) {
  // Absurd: more elements than the file has bytes; one that overflows 64 bits and would have
  // wrapped to the data's size; a negative dimension.
  EXPECT_NE(
      ErrorOf(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }", 16))
          .find("a.npy: shape (100000, 100000) has more elements than the file's 16 bytes"),
      std::string::npos);
  EXPECT_NE(ErrorOf(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
                        "4294967296, 1), }",
                        0))
                .find("has more elements than the file's 0 bytes"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", 4))
                .find("malformed shape"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 8))
                .find("needs 12 bytes of data, the file has 8"),
            std::string::npos);
}

}  // namespace
}  // namespace tessera::runtime
