// The link-time check that a layout's routes connect: wherever a route of color c sends toward
// a neighbouring PE (its base tx, or a switch position that replaces the output side), that
// neighbour's route of c accepts from this side at some position. A tx off the fabric's edge is
// an edge port (a host stream), not checked. Routes that firmware writes at run time are unknown
// here, so what this finds are warnings (docs/layout.md, "Routes that connect").
#pragma once

#include <string>
#include <vector>

#include "layout/image.h"

namespace tessera::layout {

// One message per PE, color and direction that does not connect, e.g. "PE(1,0) sends color 4
// east (E), but PE(2,0) has no route of color 4"; in (y, x, color) order.
std::vector<std::string> UnconnectedRoutes(const Image& image);

}  // namespace tessera::layout
