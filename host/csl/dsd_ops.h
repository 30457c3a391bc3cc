// DSDs in CSL: @get_dsd (mem1d with tensor accesses, fabin, fabout), the builtins that change
// one (@increment_dsd_offset, @set_dsd_base_addr, @set_dsd_length, @set_dsd_stride), and the
// DSD operations (@fadds, @fmacs, @fmovs, @mov16, @add16, ...) with their sync, .async,
// .activate and .unblock forms, mapped onto the instruction set (docs/csl.md, "DSDs").
#pragma once

#include <vector>

#include "csl/sema.h"

namespace tessera::csl {

struct DsdOpResult {
  bool handled = false;
  RV value;
};

// Handles the builtin `call` if it is one of the above.
DsdOpResult DsdBuiltin(Sema& s, const Node* call, const std::vector<const Node*>& args);

}  // namespace tessera::csl
