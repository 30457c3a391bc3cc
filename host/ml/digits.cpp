#include "ml/digits.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace tessera::ml {

std::string DefaultDigitsPath() {
  for (const char* p : {"/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz",
                        "/usr/local/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

Dataset LoadDigits(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw std::invalid_argument(fmt::format("--data {}: no such file", path));
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::invalid_argument(fmt::format("--data {}: cannot open it", path));
  Dataset d;
  d.features = 64;
  d.classes = 10;
  char buf[4096];
  int line = 0;
  try {
    while (gzgets(f, buf, sizeof buf)) {
      ++line;
      std::string s(buf);
      while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
      if (s.empty()) continue;
      std::vector<long> v;
      const char* p = s.c_str();
      while (*p) {
        char* end = nullptr;
        errno = 0;
        const long n = std::strtol(p, &end, 10);
        if (end == p || errno)
          throw std::invalid_argument(
              fmt::format("{}:{}: '{}' is not a whole number", path, line, std::string(p, 12)));
        v.push_back(n);
        p = end;
        if (*p == ',')
          ++p;
        else if (*p)
          throw std::invalid_argument(
              fmt::format("{}:{}: unexpected '{}' (values separated by commas)", path, line, *p));
      }
      if (v.size() != 65)
        throw std::invalid_argument(
            fmt::format("{}:{}: {} values; a digit is 64 pixels and its label (65 values)", path,
                        line, v.size()));
      for (int k = 0; k < 64; ++k) {
        if (v[k] < 0 || v[k] > 16)
          throw std::invalid_argument(
              fmt::format("{}:{}: pixel {} is {}, not 0..16", path, line, k, v[k]));
        d.x.push_back(static_cast<float>(v[k]) / 16.0f);
      }
      if (v[64] < 0 || v[64] > 9)
        throw std::invalid_argument(
            fmt::format("{}:{}: the label is {}, not a digit 0..9", path, line, v[64]));
      d.y.push_back(static_cast<int>(v[64]));
    }
    int err = 0;
    const char* msg = gzerror(f, &err);
    if (err != Z_OK && err != Z_STREAM_END)
      throw std::invalid_argument(fmt::format("{}: after line {}: {}", path, line, msg));
  } catch (...) {
    gzclose(f);
    throw;
  }
  gzclose(f);
  if (d.size() < 20)
    throw std::invalid_argument(
        fmt::format("{}: {} samples; training needs at least 20", path, d.size()));
  return d;
}

}  // namespace tessera::ml
