// A small JSON object writer for `--json` output: one flat or nested object on one line.
// Use it for every subcommand's machine-readable result so keys are quoted and escaped alike.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tessera::util {

class JsonObject {
 public:
  JsonObject& Add(const std::string& key, const std::string& v) {
    Key(key);
    out_ += Quote(v);
    return *this;
  }
  JsonObject& Add(const std::string& key, const char* v) { return Add(key, std::string(v)); }
  JsonObject& Add(const std::string& key, bool v) {
    Key(key);
    out_ += v ? "true" : "false";
    return *this;
  }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  JsonObject& Add(const std::string& key, T v) {
    Key(key);
    if constexpr (std::is_floating_point_v<T>) {
      out_ += std::isfinite(v) ? fmt::format("{:.6g}", v) : "null";
    } else {
      out_ += fmt::format("{}", v);
    }
    return *this;
  }
  JsonObject& Add(const std::string& key, const JsonObject& nested) {
    Key(key);
    out_ += nested.str();
    return *this;
  }
  // Adds a pre-formatted JSON value (an array, say) verbatim.
  JsonObject& AddRaw(const std::string& key, const std::string& json) {
    Key(key);
    out_ += json;
    return *this;
  }
  std::string str() const { return "{" + out_ + "}"; }

  static std::string Quote(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
      switch (c) {
        case '"':
          o += "\\\"";
          break;
        case '\\':
          o += "\\\\";
          break;
        case '\n':
          o += "\\n";
          break;
        case '\t':
          o += "\\t";
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            o += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
          } else {
            o += c;
          }
      }
    }
    return o + "\"";
  }

 private:
  void Key(const std::string& k) {
    if (!out_.empty()) out_ += ",";
    out_ += Quote(k) + ":";
  }
  std::string out_;
};

}  // namespace tessera::util
