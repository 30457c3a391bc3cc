// Small string helpers shared by the tools.
#pragma once

#include <string>

namespace tessera::util {

inline bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace tessera::util
