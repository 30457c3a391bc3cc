// Pictures of the fabric as SVG (docs/profiling.md, "Heatmaps"): one cell per PE colored by a
// counter (viridis; zero in light grey, so "nothing" stands out from "little"), and the link load
// as an arrow per router output (E, W, S, N) whose color and width grow with the wavelets it
// carried. Fabrics wider or taller than 128 PEs are drawn in blocks (the sum over each block), so
// the wafer stays readable. Titles carry the counter, its unit and the scale.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::trace {

// Values per PE (row by row, w * h).
std::string HeatmapSvg(const std::string& title, int w, int h, const std::vector<double>& v);
// Wavelets out of each PE's router through W, E, S, N (row by row).
std::string LinkLoadSvg(const std::string& title, int w, int h,
                        const std::vector<std::array<uint64_t, 4>>& out);

}  // namespace tessera::trace
