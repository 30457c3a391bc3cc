// The wavelets that crossed the fabric's links, compared between two fabrics running the same
// program. Only links both fabrics observe (fabric::Fabric::ObservesLink) are compared: the RTL
// does not see the links inside a tile of several PEs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cosim/difference.h"
#include "fabric/fabric.h"

namespace tessera::cosim {

// The link logs (fabric::LinkEvent) of the same stretch of cycles, in any order: per link and
// color, the sequence of wavelets with their cycles. `compared`, if given, receives how many of
// b's were compared. Reports the difference with the earliest cycle: "cosim: {link}, color {c}:
// {na} carries data 0x... at cycle x; {nb} carries data 0x... at cycle y (the wavelets before
// agree)" or "... {na} carries ... at cycle x but {nb} carries no such wavelet".
std::optional<Mismatch> CompareLinks(std::vector<fabric::LinkEvent> a,
                                     std::vector<fabric::LinkEvent> b, const fabric::Fabric& fa,
                                     const fabric::Fabric& fb, const std::string& na,
                                     const std::string& nb, uint64_t* compared = nullptr);

// The wavelets of one cycle on every link both fabrics observe (their link logs, taken): the
// first link in (y, x, port, direction) order whose wavelet differs, as the PE whose link carried
// it and a Difference (the link, then "color C data 0x..." or "nothing" per side); pe -1 when the
// logs agree.
struct LinkDifference {
  int pe = -1;
  Difference diff;
};
LinkDifference CompareCycleLinks(fabric::Fabric& fa, fabric::Fabric& fb);

}  // namespace tessera::cosim
