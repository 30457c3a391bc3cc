#include "rtl/tile_model.h"

#include <fmt/format.h>

namespace tessera::rtl {

void TileIo::Resize(int tw, int th) {
  for (int s = 0; s < kNumSides; ++s) {
    int n = (s == kWest || s == kEast) ? th : tw;
    in[s].assign(n, 0);
    out[s].assign(n, 0);
    cin[s].assign(n, 0);
    cout[s].assign(n, 0);
    tied[s].assign(n, 0);
  }
  ramp_in.assign(tw * th, 0);
  ramp_out.assign(tw * th, 0);
  ramp_cin.assign(tw * th, 0);
  ramp_cout.assign(tw * th, 0);
  fault = 0;
  busy = 0;
  dbg.assign(tw * th, 0);
  events.assign(tw * th, 0);
  quiet = 0;
}

std::string BuiltTileShapesText(bool ce) {
  std::string s;
  for (auto [w, h] : BuiltTileShapes(ce)) s += fmt::format("{}{}x{}", s.empty() ? "" : ", ", w, h);
  return s;
}

}  // namespace tessera::rtl
