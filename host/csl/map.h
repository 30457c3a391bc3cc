// @map(f, a, b, ..., out): f applied element by element (docs/csl.md, "@map").
#pragma once

#include <vector>

#include "csl/sema.h"

namespace tessera::csl {

RV MapBuiltin(Sema& s, const Node* call, const std::vector<const Node*>& args);

}  // namespace tessera::csl
