#include "ml/mlp_check.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "kernels/kernel_run.h"
#include "ml/params_io.h"
#include "ml/reference.h"
#include "runtime/npy.h"

namespace tessera::ml {
namespace {

// Reads an f4 (or i4 for labels) array of exactly `count` elements.
void SaveF32(const std::string& path, const std::vector<double>& v, size_t rows, size_t cols) {
  std::vector<float> f(v.begin(), v.end());
  runtime::WriteNpy(path, "<f4", {rows, cols}, f.data(), f.size() * 4);
}

std::vector<double> ToDouble(const std::vector<float>& v) { return {v.begin(), v.end()}; }

}  // namespace

double MlpTolerance(const MlpSpec& spec) { return spec.f16 ? 2e-3 : 1e-4; }

MlpCheckResult RunMlpCheck(const MlpCheckArgs& args) {
  MlpSpec spec = args.spec;
  spec.train = args.train_steps > 0;
  if (args.train_steps < 0 || args.train_steps > 100000)
    throw std::invalid_argument(fmt::format("--train {}: give 0..100000 steps", args.train_steps));
  if (!(args.lr > 0 && args.lr < 100))
    throw std::invalid_argument(fmt::format("--lr {}: give a rate in (0, 100)", args.lr));
  if (!(args.momentum >= 0 && args.momentum < 1))
    throw std::invalid_argument(fmt::format("--momentum {}: give [0, 1)", args.momentum));
  PlanMlp(spec);  // sizes and fit, before anything is read or run
  const int L = spec.NumLayers(), B = spec.batch, C = spec.Out(L - 1), N0 = spec.In(0);
  std::mt19937_64 rng(args.seed);
  MlpParams params;
  std::vector<float> x;
  std::vector<int> labels;
  bool have_labels = false;
  if (!args.load_dir.empty()) {
    const std::string& d = args.load_dir;
    params = LoadParams(spec, d);
    x = LoadShaped<float>(d + "/x.npy", "<f4", {size_t(B), size_t(N0)});
    if (std::filesystem::exists(d + "/labels.npy")) {
      const std::vector<int32_t> lab = LoadShaped<int32_t>(d + "/labels.npy", "<i4", {size_t(B)});
      labels.assign(lab.begin(), lab.end());
      for (int b = 0; b < B; ++b)
        if (labels[b] < 0 || labels[b] >= C)
          throw std::invalid_argument(
              fmt::format("{}/labels.npy: label {} of sample {} is not a "
                          "class 0..{}",
                          d, labels[b], b, C - 1));
      have_labels = true;
    }
    if (spec.f16) {
      for (auto& w : params.w)
        for (float& v : w) v = static_cast<float>(kernels::F16Value(kernels::F16Bits(v)));
    }
  } else {
    params = RandomParams(spec, rng);
  }
  auto random_batch = [&] {
    x = kernels::UniformF32(rng, size_t(B) * N0);
    labels.resize(B);
    for (int& c : labels) c = static_cast<int>(rng() % C);
  };
  if (args.load_dir.empty()) random_batch();
  if (spec.train && !have_labels && !args.load_dir.empty())
    throw std::invalid_argument(
        fmt::format("--train with --load: {}/labels.npy is missing", args.load_dir));

  FabricMlp fm(spec, params, args.fabric);
  MlpCheckResult res;
  res.pes = fm.plan().pes;
  res.tolerance = MlpTolerance(spec);
  for (int l = 0; l < L; ++l) res.macs += uint64_t(B) * spec.In(l) * spec.Out(l);
  for (const auto& w : params.w)
    for (float v : w) res.nonzeros += v != 0.0f;
  res.pass = true;
  auto check = [&](const std::string& name, const std::vector<double>& ref,
                   const std::vector<double>& got) {
    size_t at = 0;
    const double e = NormwiseError(ref, got, &at);
    res.checked.push_back({name, e});
    if (!(e <= res.max_rel_err)) res.max_rel_err = e;
    if (!(e <= res.tolerance) && res.pass) {
      res.pass = false;
      res.status = "above tolerance";
      res.message = fmt::format(
          "{}: element {} is {} where the reference is {} (normwise error {:.3g}, tolerance "
          "{:.3g})",
          name, at, at < got.size() ? got[at] : 0.0, at < ref.size() ? ref[at] : 0.0, e,
          res.tolerance);
    }
  };
  auto add_stats = [&](const StepStats& st) {
    res.cycles += st.cycles;
    res.phases.forward += st.phases.forward;
    res.phases.collectives += st.phases.collectives;
    res.phases.loss += st.phases.loss;
    res.phases.backward += st.phases.backward;
    res.phases.update += st.phases.update;
    res.words_streamed_in += st.words_streamed_in;
    res.words_streamed_out += st.words_streamed_out;
    res.link_wavelets += st.link_wavelets;
    if (!st.ok) {
      res.pass = false;
      res.status = st.status;
      res.message = st.message;
    }
    return st.ok;
  };
  auto accuracy = [&](const std::vector<double>& logits) {
    int right = 0;
    for (int b = 0; b < B; ++b) {
      int best = 0;
      for (int i = 1; i < C; ++i)
        if (logits[size_t(b) * C + i] > logits[size_t(b) * C + best]) best = i;
      right += best == labels[b];
    }
    return double(right) / B;
  };

  if (!spec.train) {
    const RefStep ref = ReferenceStep(spec, params, x, nullptr, {}, 0, 0);
    if (!add_stats(fm.Forward(x))) return res;
    for (int l = 0; l < L; ++l) {
      if (l > 0) check(fmt::format("a{}", l), ref.a[l], fm.Input(l));
      check(fmt::format("z{}", l), ref.z[l], fm.Z(l));
    }
    const std::vector<double> logits = fm.Z(L - 1);
    if (have_labels) res.accuracy = accuracy(logits);
    res.fmac_utilization = res.cycles ? double(res.macs) / (double(res.cycles) * res.pes) : 0.0;
    if (!args.save_dir.empty()) {
      std::filesystem::create_directories(args.save_dir);
      SaveF32(args.save_dir + "/logits.npy", logits, B, C);
    }
    return res;
  }

  // A training step's multiply-adds: the forward, the weight gradients, and the input gradients
  // of every layer but the first.
  uint64_t step_macs = 0;
  for (int l = 0; l < L; ++l) step_macs += uint64_t(l == 0 ? 2 : 3) * B * spec.In(l) * spec.Out(l);
  for (int t = 0; t < args.train_steps; ++t) {
    if (t > 0 && args.load_dir.empty()) random_batch();
    const MlpParams before = fm.Params();
    const MlpMomentum vel = fm.Momentum();
    const RefStep ref = ReferenceStep(spec, before, x, labels.data(), vel, args.lr, args.momentum);
    const StepStats st = fm.Train(x, labels, args.lr, args.momentum);
    if (!add_stats(st)) return res;
    const std::string at = args.train_steps > 1 ? fmt::format(" (step {})", t + 1) : "";
    res.loss = fm.Loss();
    check("loss" + at, {ref.loss}, {res.loss});
    const std::vector<double> logits = fm.Z(L - 1);
    check(fmt::format("z{}{}", L - 1, at), ref.z[L - 1], logits);
    const MlpParams after = fm.Params();
    std::vector<std::vector<double>> gw(L), gb(L), w1(L), b1(L);
    for (int l = L - 1; l >= 0; --l) {
      gw[l] = fm.GradW(l);
      gb[l] = fm.GradB(l);
      w1[l] = ToDouble(after.w[l]);
      b1[l] = ToDouble(after.b[l]);
      check(fmt::format("dz{}{}", l, at), ref.dz[l], fm.Dz(l));
      check(fmt::format("gw{}{}", l, at), ref.gw[l], gw[l]);
      check(fmt::format("gb{}{}", l, at), ref.gb[l], gb[l]);
      check(fmt::format("w{} after the update{}", l, at), ref.w1[l], w1[l]);
      check(fmt::format("b{} after the update{}", l, at), ref.b1[l], b1[l]);
    }
    res.accuracy = accuracy(logits);
    if (!res.pass) break;
    if (!args.save_dir.empty() && t + 1 == args.train_steps) {
      std::filesystem::create_directories(args.save_dir);
      const std::string& d = args.save_dir;
      SaveF32(d + "/logits.npy", logits, B, C);
      for (int l = 0; l < L; ++l) {
        SaveF32(fmt::format("{}/gw{}.npy", d, l), gw[l], spec.Out(l), spec.In(l));
        SaveF32(fmt::format("{}/gb{}.npy", d, l), gb[l], 1, spec.Out(l));
        SaveF32(fmt::format("{}/w{}_next.npy", d, l), w1[l], spec.Out(l), spec.In(l));
        SaveF32(fmt::format("{}/b{}_next.npy", d, l), b1[l], 1, spec.Out(l));
      }
    }
  }
  res.fmac_utilization =
      res.cycles ? double(step_macs) * args.train_steps / (double(res.cycles) * res.pes) : 0.0;
  return res;
}

}  // namespace tessera::ml
