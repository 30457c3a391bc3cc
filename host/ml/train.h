// `tessera ml train-digits` (docs/ml.md): trains an MLP on the digits data set on the fabric, with
// a fixed train/test split, and measures the test accuracy with the device's forward.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ml/fabric_mlp.h"
#include "ml/mlp_spec.h"

namespace tessera::ml {

struct TrainArgs {
  MlpSpec spec;  // layers[0] must be 64 and the last 10; train is set
  FabricOptions fabric;
  int epochs = 10;
  int max_steps = 0;     // per epoch; 0: every full batch (short RTL runs use a few)
  int test_batches = 0;  // batches of the test set evaluated; 0: all of it
  float lr = 0.05f, momentum = 0.9f;
  uint64_t seed = 1;     // initial weights and the order of the batches
  std::string data;      // the CSV (gz); empty: python3-sklearn's
  std::string plot;      // an .svg to write the loss curve to; empty: none
  std::string load_dir;  // the initial weights (ml/params_io.h); empty: random (seed)
  std::string save_dir;  // where the trained weights go; empty: nowhere
};

struct EpochReport {
  int epoch = 0, epochs = 0;
  int step = 0, steps = 0;    // within the epoch, as it goes
  double loss = 0;            // mean loss of the steps so far
  double test_accuracy = -1;  // at the end of the epoch
  uint64_t cycles = 0;        // simulated, so far in the run
  bool done = false;          // the epoch has ended
};

struct TrainResult {
  std::vector<double> epoch_loss, epoch_accuracy, step_loss;
  double test_accuracy = 0;
  int train_samples = 0, test_samples = 0, steps = 0, pes = 0;
  uint64_t cycles = 0;  // simulated, training steps and test forwards
  // Multiply-adds of the problem in those cycles (a training step: the forward, the weight
  // gradients and the input gradients of every layer but the first; a test batch: the
  // forward), and their share of the PEs' FMAC slots: macs / (cycles * pes).
  uint64_t macs = 0;
  double fmac_utilization = 0;
  bool ok = true;
  std::string message;  // why a run stopped (a fault, a deadlock, a cosim difference)
};

// Throws std::invalid_argument for bad arguments or data (before anything runs). `progress` is
// called after every step and at the end of every epoch.
TrainResult TrainDigits(const TrainArgs& args,
                        const std::function<void(const EpochReport&)>& progress);

}  // namespace tessera::ml
