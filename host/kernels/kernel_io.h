// A kernel's data from and to its user (docs/kernels.md, "Your own data"): named inputs that
// replace the generated ones, and named outputs, as host arrays (the .npy model: dtype, shape,
// bytes). The CLI (`tessera kernel NAME --in A=a.npy --out y=y.npy`) and Python
// (`tessera.kernels.gemv(A, x, b)`) go through the same Run of each kernel; one place plans the
// layout and packs the data.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "runtime/npy.h"

namespace tessera::kernels {

struct KernelArgs;

using HostArrays = std::map<std::string, runtime::NpyArray>;

// One input or output of a kernel, for --list, the checks and Python's argument order.
struct IoSpec {
  const char* name;   // "A"
  const char* shape;  // "(m, n)": in terms of the kernel's sizes
  const char* dtype;  // "f32", "u32", "u8", ...
  const char* what;   // "the matrix"
};

// The size `opt` (--m, ...) of a kernel: from the input `input`'s dimension `dim` when the user
// gave that input (it must agree with `given` if both are given), else `given`. Throws
// std::invalid_argument naming the input and the option.
int SizeFrom(const KernelArgs& a, int given, const char* opt, const char* input, size_t dim,
             size_t rank);

// Input `name` of shape `shape` as f32 (a float32 or float16 array; its values as they are, NaN
// and infinities included), or `count` values from the kernel's generator when not given.
std::vector<float> InputF32(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
                            std::mt19937_64& rng);
// Input `name` of 0s and 1s (bool, uint8, int32, uint32 or float32), as 32-bit words; anything
// else is refused with the first value that is not 0 or 1.
std::vector<uint32_t> InputCells(const KernelArgs& a, const char* name,
                                 const std::vector<size_t>& shape);
// Input `name` of `count` integer indices (int32, uint32, int64 or uint64), each below `bound`.
std::vector<uint32_t> InputIndices(const KernelArgs& a, const char* name, size_t count,
                                   uint32_t bound);
bool HasInput(const KernelArgs& a, const char* name);
const runtime::NpyArray& Input(const KernelArgs& a, const char* name);
void CheckShape(const KernelArgs& a, const char* name, const std::vector<size_t>& shape);

// Gives output `name` to the user (when they asked for outputs).
void OutputF32(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
               const std::vector<float>& v);
void OutputU32(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
               const std::vector<uint32_t>& v);
void OutputU8(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
              const std::vector<uint8_t>& v);

std::string ShapeText(const std::vector<size_t>& shape);

}  // namespace tessera::kernels
