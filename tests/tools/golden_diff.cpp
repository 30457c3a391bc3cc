#include "golden_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "fp/value_text.h"
#include "runtime/npy.h"

namespace tessera::test {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot read the file", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ShapeText(const std::vector<size_t>& shape) {
  return fmt::format("({})", fmt::join(shape, ", "));
}

// The index of element `flat` (in storage order) of an array of `shape`.
std::string IndexText(size_t flat, const std::vector<size_t>& shape, bool fortran_order) {
  std::vector<size_t> idx(shape.size());
  for (size_t k = 0; k < shape.size(); ++k) {
    const size_t d = fortran_order ? k : shape.size() - 1 - k;
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return fmt::format("[{}]", fmt::join(idx, ", "));
}

std::string ElementText(const runtime::NpyArray& a, size_t i) {
  uint32_t bits = 0;
  std::memcpy(&bits, &a.data[i * a.elem_bytes], a.elem_bytes);
  const std::string& t = a.dtype;
  if (t == "<f4") return fp::FormatValue(fp::ValueType::kF32, bits);
  if (t == "<f2") return fp::FormatValue(fp::ValueType::kF16, bits);
  if (t == "<i4") return fmt::format("{}", static_cast<int32_t>(bits));
  if (t == "<i2") return fmt::format("{}", static_cast<int16_t>(bits));
  return fmt::format("{}", bits);
}

std::string NpyDiff(const std::string& written, const std::string& golden) {
  const runtime::NpyArray a = runtime::ReadNpy(written), b = runtime::ReadNpy(golden);
  if (a.dtype != b.dtype)
    return fmt::format("{} has dtype {}, the golden {} has {}", written, a.dtype, golden, b.dtype);
  if (a.shape != b.shape)
    return fmt::format("{} has shape {}, the golden {} has {}", written, ShapeText(a.shape), golden,
                       ShapeText(b.shape));
  if (a.fortran_order != b.fortran_order)
    return fmt::format("{} is in {} order, the golden {} is not", written,
                       a.fortran_order ? "Fortran" : "C", golden);
  size_t differing = 0, first = 0;
  for (size_t i = 0; i < a.count(); ++i) {
    if (std::memcmp(&a.data[i * a.elem_bytes], &b.data[i * b.elem_bytes], a.elem_bytes) == 0)
      continue;
    if (differing++ == 0) first = i;
  }
  if (differing == 0) return "";
  return fmt::format(
      "{} differs from the golden {} in {} of {} elements; the first is {}: {} "
      "written, {} golden",
      written, golden, differing, a.count(), IndexText(first, a.shape, a.fortran_order),
      ElementText(a, first), ElementText(b, first));
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string TextDiff(const std::string& written, const std::string& golden, const std::string& a,
                     const std::string& b) {
  const std::vector<std::string> la = Lines(a), lb = Lines(b);
  const size_t n = std::min(la.size(), lb.size());
  for (size_t i = 0; i < n; ++i) {
    if (la[i] != lb[i])
      return fmt::format("{}:{} differs from the golden {}:{}:\n  written: {}\n  golden:  {}",
                         written, i + 1, golden, i + 1, la[i], lb[i]);
  }
  if (la.size() != lb.size()) {
    const bool more = la.size() > lb.size();
    return fmt::format("{} has {} lines, the golden {} has {}; the first extra line ({}:{}): {}",
                       written, la.size(), golden, lb.size(), more ? written : golden, n + 1,
                       more ? la[n] : lb[n]);
  }
  return fmt::format("{} differs from the golden {} only in line endings", written, golden);
}

}  // namespace

std::string GoldenDiff(const std::string& written, const std::string& golden) {
  if (EndsWith(golden, ".npy")) return NpyDiff(written, golden);
  const std::string a = Slurp(written), b = Slurp(golden);
  if (a == b) return "";
  const bool text = a.find('\0') == std::string::npos && b.find('\0') == std::string::npos;
  if (text) return TextDiff(written, golden, a, b);
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() || i == b.size())
    return fmt::format("{} has {} bytes, the golden {} has {} (the shorter is a prefix)", written,
                       a.size(), golden, b.size());
  return fmt::format(
      "{} differs from the golden {} first at byte {}: 0x{:02x} written, 0x{:02x} "
      "golden",
      written, golden, i, static_cast<uint8_t>(a[i]), static_cast<uint8_t>(b[i]));
}

}  // namespace tessera::test
