#include "fp/func_fp_backend.h"

#include "fp/execute.h"

namespace tessera::fp {

void FuncFpBackend::Run(const FpCase* in, FpOut* out, size_t n) { ExecuteBatch(in, out, n); }

}  // namespace tessera::fp
