#include "kernels/kernel_io.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "fp/scalar_ops.h"
#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {

void CheckIoNames(const KernelDef& k, const HostArrays* in, const std::vector<std::string>& outs) {
  auto names = [](const std::vector<IoSpec>& v) {
    std::string s;
    for (const IoSpec& x : v) s += (s.empty() ? "" : ", ") + std::string(x.name);
    return s.empty() ? std::string("none") : s;
  };
  auto has = [](const std::vector<IoSpec>& v, const std::string& n) {
    for (const IoSpec& x : v)
      if (n == x.name) return true;
    return false;
  };
  if (in)
    for (const auto& [n, arr] : *in)
      if (!has(k.inputs, n))
        throw std::invalid_argument(fmt::format("input '{}': {} takes {} (tessera kernel --list)",
                                                n, k.name, names(k.inputs)));
  for (const std::string& n : outs)
    if (!has(k.outputs, n))
      throw std::invalid_argument(fmt::format("output '{}': {} gives {} (tessera kernel --list)", n,
                                              k.name, names(k.outputs)));
}

std::string ShapeText(const std::vector<size_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

bool HasInput(const KernelArgs& a, const char* name) { return a.in && a.in->count(name); }

const runtime::NpyArray& Input(const KernelArgs& a, const char* name) { return a.in->at(name); }

int SizeFrom(const KernelArgs& a, int given, const char* opt, const char* input, size_t dim,
             size_t rank) {
  if (!HasInput(a, input)) return given;
  const runtime::NpyArray& x = Input(a, input);
  if (x.shape.size() != rank)
    throw std::invalid_argument(fmt::format("input {}: {} dimensions {}, expected {}", input,
                                            x.shape.size(), ShapeText(x.shape), rank));
  const size_t v = x.shape[dim];
  if (v < 1 || v > 1'000'000'000)
    throw std::invalid_argument(fmt::format("input {}: dimension {} is {}", input, dim, v));
  if (given > 0 && size_t(given) != v)
    throw std::invalid_argument(
        fmt::format("{} {} does not agree with input {} of shape {} (its dimension {} is {})", opt,
                    given, input, ShapeText(x.shape), dim, v));
  return static_cast<int>(v);
}

void CheckShape(const KernelArgs& a, const char* name, const std::vector<size_t>& shape) {
  const runtime::NpyArray& x = Input(a, name);
  if (x.shape != shape)
    throw std::invalid_argument(fmt::format("input {}: shape {}, but the kernel needs {} here",
                                            name, ShapeText(x.shape), ShapeText(shape)));
}

std::vector<float> InputF32(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
                            std::mt19937_64& rng) {
  size_t count = 1;
  for (size_t d : shape) count *= d;
  if (!HasInput(a, name)) return UniformF32(rng, count);
  CheckShape(a, name, shape);
  const runtime::NpyArray& x = Input(a, name);
  std::vector<float> out(count);
  if (x.dtype == "<f4") {
    std::memcpy(out.data(), x.data.data(), count * 4);
  } else if (x.dtype == "<f2") {
    for (size_t i = 0; i < count; ++i) {
      uint16_t h;
      std::memcpy(&h, x.data.data() + 2 * i, 2);
      uint8_t flags = 0;
      const uint32_t b = fp::F16ToF32(h, flags);
      std::memcpy(&out[i], &b, 4);
    }
  } else {
    throw std::invalid_argument(
        fmt::format("input {}: dtype {}, expected float32 or float16", name, x.dtype));
  }
  if (x.fortran_order) {  // to C order
    std::vector<float> c(count);
    std::vector<size_t> idx(shape.size(), 0);
    for (size_t f = 0; f < count; ++f) {
      size_t lin = 0;
      for (size_t d = 0; d < shape.size(); ++d) lin = lin * shape[d] + idx[d];
      c[lin] = out[f];
      for (size_t d = 0; d < shape.size() && ++idx[d] == shape[d]; ++d) idx[d] = 0;
    }
    out.swap(c);
  }
  return out;
}

std::vector<uint32_t> InputCells(const KernelArgs& a, const char* name,
                                 const std::vector<size_t>& shape) {
  CheckShape(a, name, shape);
  const runtime::NpyArray& x = Input(a, name);
  if (x.fortran_order)
    throw std::invalid_argument(fmt::format("input {}: give it in C order", name));
  size_t count = 1;
  for (size_t d : shape) count *= d;
  std::vector<uint32_t> out(count);
  for (size_t i = 0; i < count; ++i) {
    double v = 0;
    if (x.dtype == "|b1" || x.dtype == "|u1") {
      v = x.data[i];
    } else if (x.dtype == "<i4" || x.dtype == "<u4") {
      int32_t w;
      std::memcpy(&w, x.data.data() + 4 * i, 4);
      v = w;
    } else if (x.dtype == "<f4") {
      float f;
      std::memcpy(&f, x.data.data() + 4 * i, 4);
      v = f;
    } else {
      throw std::invalid_argument(fmt::format(
          "input {}: dtype {}, expected bool, uint8, int32, uint32 or float32", name, x.dtype));
    }
    if (v != 0 && v != 1)
      throw std::invalid_argument(fmt::format(
          "input {}: element {} is {}; the cells are 0 (dead) or 1 (alive)", name, i, v));
    out[i] = static_cast<uint32_t>(v);
  }
  return out;
}

std::vector<uint32_t> InputIndices(const KernelArgs& a, const char* name, size_t count,
                                   uint32_t bound) {
  CheckShape(a, name, {count});
  const runtime::NpyArray& x = Input(a, name);
  std::vector<uint32_t> out(count);
  for (size_t i = 0; i < count; ++i) {
    int64_t v = 0;
    if (x.dtype == "<i4") {
      int32_t w;
      std::memcpy(&w, x.data.data() + 4 * i, 4);
      v = w;
    } else if (x.dtype == "<u4") {
      uint32_t w;
      std::memcpy(&w, x.data.data() + 4 * i, 4);
      v = w;
    } else if (x.dtype == "<i8" || x.dtype == "<u8") {
      std::memcpy(&v, x.data.data() + 8 * i, 8);
      if (x.dtype == "<u8" && v < 0) v = INT64_MAX;
    } else {
      throw std::invalid_argument(fmt::format(
          "input {}: dtype {}, expected integers (int32, uint32, int64)", name, x.dtype));
    }
    if (v < 0 || v >= int64_t(bound))
      throw std::invalid_argument(
          fmt::format("input {}: element {} is {}, outside 0..{}", name, i, v, bound - 1));
    out[i] = static_cast<uint32_t>(v);
  }
  return out;
}

namespace {
void Put(const KernelArgs& a, const char* name, const char* dtype, size_t elem,
         const std::vector<size_t>& shape, const void* data, size_t count) {
  if (!a.out) return;
  runtime::NpyArray x;
  x.dtype = dtype;
  x.shape = shape;
  x.elem_bytes = elem;
  x.data.resize(count * elem);
  std::memcpy(x.data.data(), data, count * elem);
  (*a.out)[name] = std::move(x);
}
}  // namespace

void OutputF32(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
               const std::vector<float>& v) {
  Put(a, name, "<f4", 4, shape, v.data(), v.size());
}
void OutputU32(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
               const std::vector<uint32_t>& v) {
  Put(a, name, "<u4", 4, shape, v.data(), v.size());
}
void OutputU8(const KernelArgs& a, const char* name, const std::vector<size_t>& shape,
              const std::vector<uint8_t>& v) {
  Put(a, name, "|u1", 1, shape, v.data(), v.size());
}

}  // namespace tessera::kernels
