// The functional model's FMAC: the soft-float library (execute.h) behind the FpBackend interface,
// so that fpcheck, the tests and the benchmark drive it exactly like the RTL datapath.
#pragma once

#include <cstddef>

#include "fp/fp_backend.h"

namespace tessera::fp {

class FuncFpBackend final : public FpBackend {
 public:
  const char* Name() const override { return "func"; }
  void Run(const FpCase* in, FpOut* out, size_t n) override;
};

}  // namespace tessera::fp
