// One table per enum of its items' display names, used both to print and to parse them, so a
// name is written once. The architecture's own enums are spelled by the generated arch::ToString;
// this is for the host's and the tools' enums.
//
//   constexpr util::EnumName<Verdict> kVerdictNames[] = {{Verdict::kOk, "ok"}, ...};
//   util::NameOf(kVerdictNames, v);             // "ok", or "?" for an item not in the table
//   util::ParseName(kVerdictNames, "OK");       // std::optional<Verdict>, ignoring case by default
//   util::NameList(kVerdictNames, ", ", " or "); // "ok, reordered or ..." for error messages
#pragma once

#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::util {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

template <typename E, std::size_t N>
constexpr const char* NameOf(const EnumName<E> (&table)[N], E value, const char* unknown = "?") {
  for (const EnumName<E>& item : table) {
    if (item.value == value) return item.name;
  }
  return unknown;
}

inline bool EqualIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The item named `text`; file formats ask for the exact spelling, command lines ignore case.
enum class NameCase { kIgnore, kExact };
template <typename E, std::size_t N>
std::optional<E> ParseName(const EnumName<E> (&table)[N], std::string_view text,
                           NameCase match = NameCase::kIgnore) {
  for (const EnumName<E>& item : table) {
    if (match == NameCase::kExact ? text == item.name : EqualIgnoringCase(item.name, text)) {
      return item.value;
    }
  }
  return std::nullopt;
}

// The names in table order, joined by `sep` and with `last` before the final one.
template <typename E, std::size_t N>
std::string NameList(const EnumName<E> (&table)[N], std::string_view sep = ", ",
                     std::string_view last = " or ") {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) out += (i + 1 == N) ? last : sep;
    out += table[i].name;
  }
  return out;
}

}  // namespace tessera::util
