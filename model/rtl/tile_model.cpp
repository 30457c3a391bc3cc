#include "rtl/tile_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "arch/arch.h"

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
  ramp_sent.assign(tw * th, 0);
  blocked.assign(static_cast<size_t>(tw * th) * arch::kNumDirs, 0);
  events.assign(tw * th, 0);
  quiet = 0;
  settled = 0;
  observers_clear = true;
  at_rest = false;
}

bool TileIo::Idle() const {
  if (!at_rest) return false;
  for (int s = 0; s < kNumSides; ++s)
    if (!AllZero(in[s]) || !AllZero(cin[s])) return false;
  return AllZero(ramp_in) && AllZero(ramp_cin);
}

void TileIo::CheckAtRest(int num_pe, bool ce) {
  at_rest = false;
  if (busy) return;
  if (ce && quiet != (num_pe == 64 ? ~0ull : (1ull << num_pe) - 1)) return;
  for (int s = 0; s < kNumSides; ++s)
    if (!AllZero(out[s]) || !AllZero(cout[s])) return;
  at_rest = AllZero(ramp_out) && AllZero(ramp_cout);
}

void TileIo::ClearObservers() {
  if (observers_clear) return;
  std::fill(dbg.begin(), dbg.end(), 0);
  std::fill(events.begin(), events.end(), 0);
  std::fill(ramp_sent.begin(), ramp_sent.end(), 0);
  std::fill(blocked.begin(), blocked.end(), 0);
  observers_clear = true;
}

std::string BuiltTileShapesText(bool ce) {
  std::string s;
  for (auto [w, h] : BuiltTileShapes(ce)) s += fmt::format("{}{}x{}", s.empty() ? "" : ", ", w, h);
  return s;
}

}  // namespace tessera::rtl
