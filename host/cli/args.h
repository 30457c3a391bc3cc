// Argument parsing shared by the subcommands: every error names the option and the text given.
#pragma once

#include <string>
#include <utility>

namespace tessera::cli {

// "4x4" (sep 'x') or "3,2" (sep ','): two numbers of up to 5 digits; throws
// std::invalid_argument naming `option` otherwise.
std::pair<int, int> ParsePair(const std::string& text, const std::string& option, char sep);

}  // namespace tessera::cli
