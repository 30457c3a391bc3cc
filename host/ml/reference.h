// The double-precision host reference of an MLP step (docs/ml.md, "Checking"): forward, softmax
// with cross-entropy, backward and SGD with momentum, rounding to f16 exactly where the device
// stores f16 (weights, inputs and activations of the forward) so that only the arithmetic's
// precision differs.
#pragma once

#include <vector>

#include "ml/mlp_spec.h"

namespace tessera::ml {

// Momentum buffers, shaped as the parameters (empty vectors: zero).
struct MlpMomentum {
  std::vector<std::vector<float>> w, b;
};

struct RefStep {
  std::vector<std::vector<double>> a;  // a[l]: the input of layer l, B x In(l)
  std::vector<std::vector<double>> z;  // z[l]: W a + b, B x Out(l)
  // Training only (labels given):
  double loss = 0;
  std::vector<std::vector<double>> dz;                // dL/dz[l], B x Out(l)
  std::vector<std::vector<double>> gw;                // dL/dW[l], Out(l) x In(l)
  std::vector<std::vector<double>> gb;                // dL/db[l], Out(l)
  std::vector<std::vector<double>> w1, b1, vw1, vb1;  // after the SGD step
};

// x: B x In(0) row-major. labels: B classes, or nullptr for the forward only.
RefStep ReferenceStep(const MlpSpec& spec, const MlpParams& p, const std::vector<float>& x,
                      const int* labels, const MlpMomentum& v, double lr, double momentum);

// The normwise relative error of `got` against `ref`: max |got - ref| / max |ref| (0 for an
// all-zero reference matched exactly); NaN anywhere gives infinity. `where` receives the index of
// the largest difference.
double NormwiseError(const std::vector<double>& ref, const std::vector<double>& got,
                     size_t* where = nullptr);

}  // namespace tessera::ml
