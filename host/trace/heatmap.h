// Pictures of the fabric as SVG (docs/profiling.md, "Heatmaps"): one cell per PE colored by a
// counter (viridis; zero in light grey, so "nothing" stands out from "little"), and the link load
// as an arrow per router output (E, W, S, N) and a disc per ramp whose color and width grow with
// the load it carried. Fabrics wider or taller than 128 PEs are drawn in blocks (the sum over each
// block), so the wafer stays readable. Titles carry the counter, its unit and the scale.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::trace {

// Values per PE (row by row, w * h), in `unit` ("cycles", "instructions", ...). The axes give
// PE coordinates, numbers are written plainly, the title is never cut.
std::string HeatmapSvg(const std::string& title, const std::string& unit, int w, int h,
                       const std::vector<double>& v);
// A load per router output W, E, S, N and the RAMP into the compute engine (row by row), in
// `unit` ("wavelets", "cycles waiting for a credit"): thin arrows whose colour and width carry
// the load, a disc for the ramp, and a legend.
std::string LinkLoadSvg(const std::string& title, const std::string& unit, int w, int h,
                        const std::vector<std::array<uint64_t, 5>>& out);

}  // namespace tessera::trace
