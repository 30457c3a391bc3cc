// Traffic patterns: for a W x H fabric, the routes to configure and the flows (which PE sends on
// which color) of a named pattern. The endpoints decide when to send; the plan decides where.
//
//   uniform    each PE sends to a random other PE (seeded); colors are assigned first-fit from a
//              seeded random order so that flows sharing a color never conflict (flows to the
//              same destination merge); a PE that finds no color after 4 destinations is silent.
//   transpose  PE(x,y) -> PE(y mod W, x mod H), colors first-fit as for uniform.
//   hotspot    every PE (the centre itself too) -> the centre PE(W/2, H/2) on color 0: a merge
//              tree.
//   neighbour  each PE -> its east neighbour on color x%2; the last column -> its west neighbour
//              on color 2 (a 1-wide fabric loops back to itself).
//   broadcast  for y < min(H, 24), PE(0,y) multicasts on color y to every PE: east along row y,
//              and from every router of row y north and south along its column.
//   switch     for y < min(H, 24), PE(0,y) sends east along row y on color y. The router at column
//              m = W/2 (0 when W = 2) delivers to its CE at position 0 and has switch positions
//              1: E, 2: RAMP, 3: E (all output side), Ring=1: each control wavelet flips the
//              stream between PE(m,y) and PE(W-1,y). (It also advances the positions of the other
//              routers it passes, whose SwitchCfg is 0: they keep their base route.) One wavelet
//              in 8 is a control wavelet. Needs W >= 2.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "traffic/routes.h"

namespace tessera::noc {

struct Flow {
  int src = 0;
  uint32_t color = 0;
  double ctrl_prob = 0;    // probability that a created wavelet is a control wavelet
  std::vector<int> dests;  // where a data wavelet goes with every switch at its initial position
};

struct TrafficPlan {
  TrafficPlan(std::string name, int width, int height)
      : pattern(std::move(name)), routes(width, height) {}
  std::string pattern;
  RouteTable routes;
  std::vector<Flow> flows;  // at most one per source PE, ascending source
  int silent = 0;           // PEs the pattern wanted to send from but could not give a color
};

// The valid pattern names, in the order above.
const std::vector<std::string>& PatternNames();

// Throws std::invalid_argument for an unknown pattern (naming the valid ones), an empty fabric, a
// fabric of more than kMaxTrafficPes PEs, or `switch` on a fabric narrower than 2.
TrafficPlan MakePlan(const std::string& pattern, int width, int height, uint64_t seed);

}  // namespace tessera::noc
