#include "stream_files.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "runtime/memcpy.h"
#include "runtime/npy.h"

namespace tessera::cli {
namespace {

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// One CSV cell as a 32-bit word: an integer (decimal, 0x hex, negative as two's complement) or a
// decimal number with a point or an exponent (f32 bits). False if it is neither.
bool ParseWord(const std::string& text, uint32_t* out) {
  if (text.empty()) return false;
  size_t used = 0;
  try {
    const bool real = text.find_first_of(".eE") != std::string::npos &&
                      text.compare(0, 2, "0x") != 0 && text.compare(0, 2, "0X") != 0;
    if (real) {
      const float f = std::stof(text, &used);
      std::memcpy(out, &f, 4);
    } else if (text[0] == '-') {
      const long long v = std::stoll(text, &used, 0);
      if (v < INT32_MIN) return false;
      *out = static_cast<uint32_t>(static_cast<int32_t>(v));
    } else {
      const unsigned long long v = std::stoull(text, &used, 0);
      if (v > UINT32_MAX) return false;
      *out = static_cast<uint32_t>(v);
    }
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

std::vector<StreamWord> ReadCsv(const std::string& path, const std::string& option) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument(fmt::format("{}: cannot open {}", option, path));
  std::vector<StreamWord> out;
  std::string raw;
  bool first = true;  // the first line with content may name the columns
  for (int line = 1; std::getline(f, raw); ++line) {
    const std::string text = Trim(raw);
    if (text.empty() || text[0] == '#') continue;
    const bool header = first && std::isalpha(static_cast<unsigned char>(text[0]));
    first = false;
    if (header) continue;
    StreamWord w;
    const size_t comma = text.find(',');
    std::string data = text;
    if (comma != std::string::npos) {
      const std::string ctrl = Trim(text.substr(0, comma));
      if (ctrl != "0" && ctrl != "1")
        throw std::invalid_argument(
            fmt::format("{}: {}:{}: control '{}' is not 0 or 1 (a line is DATA or CONTROL,DATA)",
                        option, path, line, ctrl));
      w.ctrl = ctrl == "1";
      data = Trim(text.substr(comma + 1));
    }
    if (!ParseWord(data, &w.data))
      throw std::invalid_argument(fmt::format(
          "{}: {}:{}: '{}' is not a 32-bit value (an integer, 0x hex, or a number with a point "
          "for f32)",
          option, path, line, data));
    out.push_back(w);
  }
  return out;
}

}  // namespace

bool EndsWith(const std::string& path, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return path.size() > n && path.compare(path.size() - n, n, suffix) == 0;
}

std::vector<StreamWord> ReadStreamFile(const std::string& path, const std::string& option) {
  if (EndsWith(path, ".csv")) return ReadCsv(path, option);
  std::vector<uint8_t> bytes;
  runtime::MemcpyOptions o;  // the file's elements, one a wavelet (runtime::PlanStreamH2D)
  if (EndsWith(path, ".npy")) {
    runtime::NpyArray a = runtime::ReadNpy(path);
    if (a.elem_bytes != 4 && a.elem_bytes != 2)
      throw std::invalid_argument(fmt::format(
          "{}: {} holds {}; a wavelet carries a 32-bit element (f4, i4 or u4) or a 16-bit one "
          "(f2, i2 or u2) in its low half",
          option, path, a.dtype));
    o.elem_bits = 8 * static_cast<int>(a.elem_bytes);
    bytes = std::move(a.data);
  } else {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::invalid_argument(fmt::format("{}: cannot open {}", option, path));
    bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (bytes.size() % 4)
      throw std::invalid_argument(
          fmt::format("{}: {} has {} bytes, not whole 32-bit words", option, path, bytes.size()));
  }
  const int n = static_cast<int>(bytes.size() / (o.elem_bits / 8));
  std::vector<StreamWord> out(static_cast<size_t>(n));
  if (n == 0) return out;
  const std::vector<uint32_t> words =
      runtime::PlanStreamH2D(runtime::Region{0, 0, 1, 1}, n, o, bytes.data())[0];
  for (int i = 0; i < n; ++i) out[i].data = words[i];
  return out;
}

void WriteStreamFile(const std::string& path, const std::string& option,
                     const std::vector<fabric::EdgeStream::Wavelet>& wavelets) {
  if (EndsWith(path, ".csv")) {
    std::ofstream f(path);
    f << "cycle,color,control,data\n";
    for (const auto& w : wavelets)
      f << fmt::format("{},{},{},0x{:08x}\n", w.cycle, w.color, w.ctrl ? 1 : 0, w.data);
    if (!f) throw std::runtime_error(fmt::format("{}: cannot write {}", option, path));
    return;
  }
  std::vector<uint32_t> data;
  for (const auto& w : wavelets) data.push_back(w.data);
  if (EndsWith(path, ".npy")) {
    runtime::WriteNpy(path, "<u4", {data.size()}, data.data(), 4 * data.size());
    return;
  }
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(data.data()),
          static_cast<std::streamsize>(4 * data.size()));
  if (!f) throw std::runtime_error(fmt::format("{}: cannot write {}", option, path));
}

}  // namespace tessera::cli
