// NumPy .npy files (format versions 1.0 to 3.0), for memcpy inputs and outputs of `tessera run`:
// little-endian 16- and 32-bit dtypes (<f2 <i2 <u2 <f4 <i4 <u4), any shape, C or Fortran order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::runtime {

struct NpyArray {
  std::string dtype;  // as in the header, e.g. "<f4"
  std::vector<size_t> shape;
  bool fortran_order = false;
  std::vector<uint8_t> data;  // the elements, little endian
  size_t elem_bytes = 0;
  size_t count() const { return elem_bytes ? data.size() / elem_bytes : 0; }
};

// Throws std::invalid_argument naming the file and what is wrong with it.
NpyArray ReadNpy(const std::string& path);
// The same for the bytes of a file; `path` names it in messages.
NpyArray ParseNpy(const std::string& bytes, const std::string& path);
// Writes a version 1.0 file (data in C order, or Fortran order with fortran_order); throws
// std::runtime_error if it cannot.
void WriteNpy(const std::string& path, const std::string& dtype, const std::vector<size_t>& shape,
              const void* data, size_t bytes, bool fortran_order = false);

}  // namespace tessera::runtime
