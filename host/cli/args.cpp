#include "args.h"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

namespace tessera::cli {

std::pair<int, int> ParsePair(const std::string& text, const std::string& option, char sep) {
  std::smatch m;
  std::regex re(fmt::format("^([0-9]{{1,5}}){}([0-9]{{1,5}})$", sep));
  if (!std::regex_match(text, m, re))
    throw std::invalid_argument(
        fmt::format("{} '{}': expected two numbers like 4{}4", option, text, sep));
  return {std::stoi(m[1]), std::stoi(m[2])};
}

}  // namespace tessera::cli
