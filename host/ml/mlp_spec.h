// What a multi-layer perceptron on the fabric is (docs/ml.md): its layer sizes, batch, number
// format, execution mode, sparsity and activation, the host-side parameters (weights and biases
// in PyTorch's layout), and how they map onto a row of PEs (firmware/ml/mlp.s).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tessera::ml {

enum class Mode { kResident, kStreaming };
enum class Activation { kRelu, kGelu };

struct MlpSpec {
  std::vector<int> layers;  // feature counts: inputs, hidden..., classes (2 to 5 entries)
  int batch = 16;
  bool f16 = false;  // f16 weights and activations, f32 accumulation and gradients
  Mode mode = Mode::kResident;
  double sparsity = 0;  // fraction of weights that are zero, streamed/stored as pairs if > 0
  Activation act = Activation::kRelu;  // of the hidden layers
  int pes = 0;                         // PEs in the row; 0: chosen from the sizes
  bool train = false;                  // the image carries the backward and the update

  int NumLayers() const { return static_cast<int>(layers.size()) - 1; }
  int In(int l) const { return layers[l]; }
  int Out(int l) const { return layers[l + 1]; }
  bool Sparse() const { return sparsity > 0; }
};

// Parses "64,32,10"; mode, dtype and activation names. Each throws std::invalid_argument naming
// the option.
std::vector<int> ParseLayers(const std::string& text);
Mode ParseMode(const std::string& name);
Activation ParseActivation(const std::string& name);
const char* ModeName(Mode m);
const char* ActivationName(Activation a);

// How the spec maps onto P PEs: per layer the input slice NB, outputs M and the padded z row MP.
struct MlpPlan {
  int pes = 1;
  std::vector<int> nb, m, mp;
  int mmax = 1, tmp = 1;
  std::vector<int> cap;  // resident sparse: room for nonzeros per PE, per layer
  int bytes = 0;         // PE memory the data takes (the largest PE)
};

// Checks the spec (sizes, batch, sparsity, limits of descriptors) and plans it, choosing P if
// spec.pes is 0: 4 PEs (fewer if a layer has fewer inputs), or more, up to 16, until the model
// fits (each PE needs at least one input of every layer). A resident model that fits nowhere is
// refused with the bytes it needs and the suggestion to stream. `nnz_per_pe` (resident sparse: per
// layer, the most nonzeros on one PE at the given P) may be empty, then the density's expectation
// is used. Throws std::invalid_argument naming the option.
MlpPlan PlanMlp(const MlpSpec& spec, const std::vector<std::vector<int>>& nnz_per_pe = {});

// The model's parameters as PyTorch holds them: w[l] is Out(l) x In(l) row-major, b[l] Out(l).
// Sparse: zeros in w are the pruned weights (never stored or streamed).
struct MlpParams {
  std::vector<std::vector<float>> w, b;
};

// PyTorch's default initialisation of nn.Linear (uniform in +-1/sqrt(fan_in) for weights and
// biases), then each weight zeroed with probability `spec.sparsity`; f16: rounded to f16 values.
MlpParams RandomParams(const MlpSpec& spec, std::mt19937_64& rng);

// The nonzeros of layer l on PE p (P = plan.pes) in the device's pair format: word 0 holds the
// byte offsets (4 i) << 16 | (EB j) of output i in a z row and of input j in an x row, word 1
// the value (f32 bits, or f16 bits in 15:0).
std::vector<uint32_t> SparsePairs(const MlpSpec& spec, const MlpPlan& plan, const MlpParams& p,
                                  int l, int pe);

}  // namespace tessera::ml
