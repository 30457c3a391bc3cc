#include "cosim/difference.h"

#include <fmt/format.h>

namespace tessera::cosim {

std::string PeText(fabric::Coord pe) { return fmt::format("PE({},{})", pe.x, pe.y); }

std::string Hex32(uint32_t v) { return fmt::format("0x{:08x}", v); }

std::optional<Mismatch> Earliest(std::initializer_list<std::optional<Mismatch>> findings) {
  const std::optional<Mismatch>* first = nullptr;
  for (const auto& f : findings)
    if (f && (!first || f->cycle < (*first)->cycle)) first = &f;
  return first ? *first : std::nullopt;
}

}  // namespace tessera::cosim
