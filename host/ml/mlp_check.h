// `tessera ml mlp` (docs/ml.md): runs the forward (and training steps) of an MLP on the fabric and
// checks every layer and every step against the double-precision host reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ml/fabric_mlp.h"
#include "ml/mlp_spec.h"

namespace tessera::ml {

struct MlpCheckArgs {
  MlpSpec spec;
  FabricOptions fabric;
  uint64_t seed = 1;
  int train_steps = 0;  // 0: the forward only
  float lr = 0.05f, momentum = 0.9f;
  std::string load_dir;  // w<l>.npy, b<l>.npy, x.npy, labels.npy instead of random ones
  std::string save_dir;  // logits, gradients and the parameters after the steps, as .npy
};

struct CheckedArray {
  std::string name;  // "z1", "gw0", "loss", "w0 after step 2", ...
  double error = 0;  // normwise relative error against the reference
};

struct MlpCheckResult {
  bool pass = false;
  std::string status = "quiescent", message;
  double max_rel_err = 0, tolerance = 0;
  uint64_t cycles = 0;  // of the forward, or of all training steps
  PhaseCycles phases;   // summed over the runs
  uint64_t words_streamed_in = 0, words_streamed_out = 0, link_wavelets = 0;
  double loss = -1;             // training: the last step's loss (device)
  double accuracy = -1;         // with labels: the fraction the last forward classified right
  uint64_t macs = 0;            // multiply-adds of the dense forward (per run)
  uint64_t nonzeros = 0;        // weights stored or streamed
  double fmac_utilization = 0;  // forward: macs / (cycles * PEs)
  int pes = 0;
  std::vector<CheckedArray> checked;
};

// Throws std::invalid_argument for bad arguments or files (nothing runs).
MlpCheckResult RunMlpCheck(const MlpCheckArgs& args);

// The tolerance of the normwise comparisons: f32 1e-4, f16 2e-3 (docs/ml.md).
double MlpTolerance(const MlpSpec& spec);

}  // namespace tessera::ml
