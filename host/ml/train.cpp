#include "ml/train.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

#include "ml/digits.h"
#include "ml/params_io.h"
#include "ml/svg_plot.h"

namespace tessera::ml {

TrainResult TrainDigits(const TrainArgs& a,
                        const std::function<void(const EpochReport&)>& progress) {
  MlpSpec spec = a.spec;
  spec.train = true;
  if (spec.layers.front() != 64 || spec.layers.back() != 10)
    throw std::invalid_argument(fmt::format(
        "--layers: the digits have 64 pixels and 10 classes; give 64,...,10 (not {}...{})",
        spec.layers.front(), spec.layers.back()));
  if (a.epochs < 1 || a.epochs > 10000)
    throw std::invalid_argument(fmt::format("--epochs {}: give 1..10000", a.epochs));
  if (a.max_steps < 0) throw std::invalid_argument("--max-steps: give 0 (all) or more");
  if (a.test_batches < 0) throw std::invalid_argument("--test-batches: give 0 (all) or more");
  if (!(a.lr > 0 && a.lr < 100))
    throw std::invalid_argument(fmt::format("--lr {}: give a rate in (0, 100)", a.lr));
  if (!(a.momentum >= 0 && a.momentum < 1))
    throw std::invalid_argument(fmt::format("--momentum {}: give [0, 1)", a.momentum));
  PlanMlp(spec);
  std::string path = a.data.empty() ? DefaultDigitsPath() : a.data;
  if (path.empty())
    throw std::invalid_argument(
        "--data: the digits are not installed (apt install python3-sklearn, or give the CSV)");
  const Dataset d = LoadDigits(path);
  const int F = d.features, B = spec.batch;

  // The fixed split: a shuffle with a constant seed, the last fifth for testing.
  std::vector<int> order(d.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 split_rng(20261126);
  std::shuffle(order.begin(), order.end(), split_rng);
  const int n_split = static_cast<int>(d.size() / 5);
  const int n_train = static_cast<int>(d.size()) - n_split;
  std::vector<int> train(order.begin(), order.begin() + n_train),
      test(order.begin() + n_train, order.end());
  const int n_test = a.test_batches > 0 ? std::min(n_split, a.test_batches * spec.batch) : n_split;
  if (n_train < B)
    throw std::invalid_argument(
        fmt::format("--batch {}: the training set has only {} samples", B, n_train));

  std::mt19937_64 rng(a.seed);
  const MlpParams init =
      a.load_dir.empty() ? RandomParams(spec, rng) : LoadParams(spec, a.load_dir);
  FabricMlp fm(spec, init, a.fabric);
  uint64_t fwd_macs = 0, train_macs = 0;  // per batch
  for (int l = 0; l < spec.NumLayers(); ++l) {
    const uint64_t m = uint64_t(spec.batch) * spec.In(l) * spec.Out(l);
    fwd_macs += m;
    train_macs += (l == 0 ? 2 : 3) * m;
  }
  TrainResult res;
  res.train_samples = n_train;
  res.test_samples = n_test;
  res.pes = fm.plan().pes;
  int steps = n_train / B;
  if (a.max_steps > 0) steps = std::min(steps, a.max_steps);
  std::vector<float> x(size_t(B) * F);
  std::vector<int> y(B);

  auto evaluate = [&]() -> double {
    int right = 0;
    for (int at = 0; at < n_test; at += B) {
      std::fill(x.begin(), x.end(), 0.0f);
      const int n = std::min(B, n_test - at);
      for (int b = 0; b < n; ++b) std::copy_n(&d.x[size_t(test[at + b]) * F], F, &x[size_t(b) * F]);
      const StepStats st = fm.Forward(x);
      res.cycles += st.cycles;
      res.macs += fwd_macs;
      if (!st.ok) {
        res.ok = false;
        res.message = fmt::format("the test forward stopped: {}: {}", st.status, st.message);
        return 0;
      }
      const std::vector<double> z = fm.Z(spec.NumLayers() - 1);
      for (int b = 0; b < n; ++b) {
        const double* r = &z[size_t(b) * 10];
        right += static_cast<int>(std::max_element(r, r + 10) - r) == d.y[test[at + b]];
      }
    }
    return double(right) / n_test;
  };

  for (int e = 0; e < a.epochs && res.ok; ++e) {
    std::shuffle(train.begin(), train.end(), rng);
    double sum = 0;
    for (int s = 0; s < steps; ++s) {
      for (int b = 0; b < B; ++b) {
        const int k = train[size_t(s) * B + b];
        std::copy_n(&d.x[size_t(k) * F], F, &x[size_t(b) * F]);
        y[b] = d.y[k];
      }
      const StepStats st = fm.Train(x, y, a.lr, a.momentum);
      res.cycles += st.cycles;
      res.macs += train_macs;
      ++res.steps;
      if (!st.ok) {
        res.ok = false;
        res.message =
            fmt::format("step {} of epoch {} stopped: {}: {}", s + 1, e + 1, st.status, st.message);
        break;
      }
      const double loss = fm.Loss();
      res.step_loss.push_back(loss);
      sum += loss;
      progress({e + 1, a.epochs, s + 1, steps, sum / (s + 1), -1, res.cycles, false});
    }
    if (!res.ok) break;
    res.epoch_loss.push_back(sum / steps);
    const double acc = evaluate();
    res.epoch_accuracy.push_back(acc);
    res.test_accuracy = acc;
    progress({e + 1, a.epochs, steps, steps, sum / steps, acc, res.cycles, true});
  }
  res.fmac_utilization =
      res.cycles ? double(res.macs) / (double(res.cycles) * double(res.pes)) : 0.0;
  if (!a.save_dir.empty() && res.ok) SaveParams(spec, fm.Params(), a.save_dir);
  if (!a.plot.empty() && !res.step_loss.empty()) {
    PlotSeries steps_s{"loss per step", "#9bb7d4", {}, res.step_loss, false};
    for (size_t i = 0; i < res.step_loss.size(); ++i) steps_s.x.push_back(double(i + 1) / steps);
    PlotSeries epochs_s{"mean loss per epoch", "#c0392b", {}, res.epoch_loss, true};
    for (size_t i = 0; i < res.epoch_loss.size(); ++i) epochs_s.x.push_back(double(i + 1));
    WriteSvgPlot(a.plot,
                 fmt::format("digits, MLP {} on {} PEs ({}): test accuracy {:.1f}%",
                             fmt::join(spec.layers, "-"), res.pes, ModeName(spec.mode),
                             100 * res.test_accuracy),
                 "epoch", "cross-entropy loss", {steps_s, epochs_s});
  }
  return res;
}

}  // namespace tessera::ml
