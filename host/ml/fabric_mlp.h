// An MLP running on the emulated fabric (docs/ml.md): links firmware/ml/mlp.s for the spec, opens
// a device on a backend, places the parameters (resident) or keeps them on the host and streams
// them in (streaming), and runs forward passes and training steps, each one task launch. The
// host only moves batches in, streams weights in and gradients out, and applies the streamed
// layers' updates; everything else runs on the device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ml/mlp_spec.h"
#include "ml/reference.h"
#include "runtime/device.h"

namespace tessera::ml {

struct Slicing;

struct FabricOptions {
  runtime::Backend backend = runtime::Backend::kFunc;
  std::pair<int, int> tile{0, 0};
  uint64_t max_cycles = 200'000'000;
  std::string firmware_dir;  // holds ml/ and lib/; empty: the source tree's firmware
};

// Cycles of one task by phase, as the device counted them on PE 0 (prof[] of mlp.s).
struct PhaseCycles {
  uint64_t forward = 0, collectives = 0, loss = 0, backward = 0, update = 0;
};

struct StepStats {
  bool ok = false;
  std::string status, message;  // runtime::StatusName and the diagnosis when not ok
  uint64_t cycles = 0;
  PhaseCycles phases;
  uint64_t words_streamed_in = 0, words_streamed_out = 0;
  uint64_t link_wavelets = 0;  // cosim: wavelets compared on links
};

class FabricMlp {
 public:
  // Plans (PlanMlp), links and loads; throws std::invalid_argument for a spec that cannot run.
  FabricMlp(const MlpSpec& spec, const MlpParams& init, const FabricOptions& opt);
  ~FabricMlp();

  const MlpSpec& spec() const { return spec_; }
  const MlpPlan& plan() const { return plan_; }

  // The forward of one batch, x: B x In(0) row-major.
  StepStats Forward(const std::vector<float>& x);
  // Forward, loss, backward and SGD with momentum (the image must be built with spec.train).
  StepStats Train(const std::vector<float>& x, const std::vector<int>& labels, float lr,
                  float momentum);

  // Results of the last run (from the device; streamed gradients from the host's copy).
  std::vector<double> Z(int l);      // B x Out(l): W a + b
  std::vector<double> Input(int l);  // B x In(l): the layer's input as the gradients see it
  std::vector<double> Dz(int l);     // B x Out(l) (train)
  std::vector<double> GradW(int l);  // Out(l) x In(l) (train)
  std::vector<double> GradB(int l);  // Out(l) (train)
  double Loss();                     // train
  MlpParams Params();                // the current master weights and biases
  MlpMomentum Momentum();            // train

 private:
  template <typename T>
  std::vector<T> ReadAll(const std::string& sym, int per_pe, int bits = 32);
  template <typename T>
  void WriteAll(const std::string& sym, const std::vector<T>& data, int per_pe, int bits = 32);
  // The same values to every PE.
  template <typename T>
  void WriteEach(const std::string& sym, const std::vector<T>& values);
  // Layer l's weights as PE blocks, and its inputs as PE slices (fabric_mlp.cpp).
  Slicing WeightBlocks(int l) const;
  Slicing InputSlices(int l) const;
  // B rows of an [B][MP_l] array of PE 0 (z, dz), each cut to Out(l).
  std::vector<double> BatchRows(const std::string& sym, int l);
  void PlaceInputs(const std::vector<float>& x);
  void PlaceParams();
  StepStats Run(const std::string& task, bool train);

  MlpSpec spec_;
  MlpPlan plan_;
  FabricOptions opt_;
  std::unique_ptr<runtime::Device> dev_;
  MlpParams host_;  // streaming: the weights live here (and their momentum)
  MlpMomentum host_v_;
  std::vector<std::vector<double>> streamed_g_;  // streaming: the last gradients, Out x In
  std::vector<float> hyp_;                       // what `hyp` holds on the device
};

}  // namespace tessera::ml
