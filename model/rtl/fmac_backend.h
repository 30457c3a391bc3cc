// The RTL FMAC datapath (the verilated tessera_fmac) as an FpBackend, so that `tessera fpcheck`,
// the tests and the benchmarks drive it exactly as they drive the soft-float functional model.
#pragma once

#include <memory>

#include "fp/fp_backend.h"

namespace tessera::rtl {

// Owns one Vtessera_fmac. Run() streams the cases one per cycle (valid_i every cycle) and collects
// each result arch::kFmacLatency cycles later; it throws std::runtime_error if valid_o ever falls
// out of step with that fixed latency.
std::unique_ptr<fp::FpBackend> MakeRtlFpBackend();

}  // namespace tessera::rtl
