#include "runtime/npy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace tessera::runtime {
namespace {

const char kMagic[] = "\x93NUMPY";

// The value text of `key` in the header dict ("'descr': '<f4', ..."), trimmed.
std::string Field(const std::string& h, const std::string& key, const std::string& path) {
  const size_t k = h.find("'" + key + "'");
  if (k == std::string::npos)
    throw std::invalid_argument(fmt::format("{}: npy header has no '{}'", path, key));
  size_t v = h.find(':', k);
  if (v == std::string::npos)
    throw std::invalid_argument(fmt::format("{}: malformed npy header", path));
  ++v;
  while (v < h.size() && h[v] == ' ') ++v;
  size_t e = v;
  if (h[v] == '(') {
    e = h.find(')', v);
    if (e == std::string::npos)
      throw std::invalid_argument(fmt::format("{}: malformed npy shape", path));
    return h.substr(v, e - v + 1);
  }
  while (e < h.size() && h[e] != ',' && h[e] != '}') ++e;
  std::string s = h.substr(v, e - v);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

NpyArray ReadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot open", path));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return ParseNpy(bytes, path);
}

NpyArray ParseNpy(const std::string& bytes, const std::string& path) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0)
    throw std::invalid_argument(fmt::format("{}: not an .npy file (no \\x93NUMPY magic)", path));
  const int major = static_cast<uint8_t>(bytes[6]);
  size_t hlen = 0, off = 0;
  if (major == 1) {
    hlen =
        static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    off = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw std::invalid_argument(fmt::format("{}: truncated header", path));
    for (int i = 0; i < 4; ++i)
      hlen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    off = 12;
  } else {
    throw std::invalid_argument(
        fmt::format("{}: npy format version {} is not supported", path, major));
  }
  if (off + hlen > bytes.size())
    throw std::invalid_argument(fmt::format("{}: truncated header", path));
  const std::string h = bytes.substr(off, hlen);
  NpyArray a;
  std::string descr = Field(h, "descr", path);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"'))
    throw std::invalid_argument(fmt::format("{}: unsupported dtype {}", path, descr));
  a.dtype = descr.substr(1, descr.size() - 2);
  static const char* kTypes[] = {"<f4", "<i4", "<u4", "<f2", "<i2", "<u2"};
  bool known = false;
  for (const char* t : kTypes) known |= a.dtype == t;
  if (!known)
    throw std::invalid_argument(
        fmt::format("{}: dtype '{}' is not supported (use little-endian f4, i4, u4, f2, i2 or u2)",
                    path, a.dtype));
  a.elem_bytes = a.dtype.back() == '4' ? 4 : 2;
  const std::string fo = Field(h, "fortran_order", path);
  if (fo != "True" && fo != "False")
    throw std::invalid_argument(fmt::format("{}: fortran_order is '{}'", path, fo));
  a.fortran_order = fo == "True";
  const std::string shape = Field(h, "shape", path);
  size_t count = 1;
  for (size_t i = 1; i + 1 < shape.size();) {
    while (i + 1 < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i + 1 >= shape.size()) break;
    size_t used = 0;
    unsigned long long d = 0;
    try {
      if (shape[i] < '0' || shape[i] > '9') throw std::invalid_argument("not a digit");
      d = std::stoull(shape.substr(i), &used);
    } catch (const std::exception&) {
      throw std::invalid_argument(fmt::format("{}: malformed shape {}", path, shape));
    }
    // The element count is bounded by the data the file holds: a shape whose product exceeds it
    // (or overflows) is refused before anything is allocated for it.
    if (d != 0 && count > (bytes.size() / a.elem_bytes) / d)
      throw std::invalid_argument(
          fmt::format("{}: shape {} has more elements than the file's {} bytes of data can hold",
                      path, shape, bytes.size() - std::min(bytes.size(), off + hlen)));
    a.shape.push_back(d);
    count *= d;
    i += used;
  }
  const size_t data_off = off + hlen;
  if (bytes.size() - data_off != count * a.elem_bytes)
    throw std::invalid_argument(fmt::format("{}: shape {} needs {} bytes of data, the file has {}",
                                            path, shape, count * a.elem_bytes,
                                            bytes.size() - data_off));
  a.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_off), bytes.end());
  return a;
}

void WriteNpy(const std::string& path, const std::string& dtype, const std::vector<size_t>& shape,
              const void* data, size_t bytes, bool fortran_order) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
  s += shape.size() == 1 ? ",)" : ")";  // a 1-tuple is written "(5,)"
  std::string h = fmt::format("{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}", dtype,
                              fortran_order ? "True" : "False", s);
  // Pad so that the data starts at a multiple of 64 bytes; the header ends with '\n'.
  const size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot open for writing", path));
  out.write(kMagic, 6);
  const char ver[2] = {1, 0};
  out.write(ver, 2);
  const char len[2] = {static_cast<char>(h.size() & 0xFF), static_cast<char>(h.size() >> 8)};
  out.write(len, 2);
  out << h;
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!out) throw std::runtime_error(fmt::format("{}: write failed", path));
}

}  // namespace tessera::runtime
