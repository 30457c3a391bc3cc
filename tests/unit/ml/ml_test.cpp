// The ML host side (docs/ml.md): plans and their refusals, the reference's gradients against
// finite differences, the digits reader, the SVG plot, and FabricMlp on the functional model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "kernels/kernel_run.h"
#include "ml/digits.h"
#include "ml/fabric_mlp.h"
#include "ml/mlp_spec.h"
#include "ml/reference.h"
#include "ml/svg_plot.h"

namespace tessera::ml {
namespace {

std::string ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

MlpSpec Spec(std::vector<int> layers, int batch) {
  MlpSpec s;
  s.layers = std::move(layers);
  s.batch = batch;
  return s;
}

TEST(MlpPlan, SlicesEveryLayerAndPadsTheHiddenRows) {
  MlpSpec s = Spec({30, 17, 5}, 4);
  s.pes = 4;
  const MlpPlan p = PlanMlp(s);
  EXPECT_EQ(p.pes, 4);
  EXPECT_EQ(p.nb, (std::vector<int>{8, 5}));
  EXPECT_EQ(p.m, (std::vector<int>{17, 5}));
  EXPECT_EQ(p.mp, (std::vector<int>{20, 5}));  // P * NB1 for the hidden layer, M for the last
}

TEST(MlpPlan, RefusesWhatCannotRunAndSaysWhy) {
  EXPECT_NE(ErrorOf([] { ParseLayers("64"); }).find("give 2 to 5 feature counts"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseLayers("64,0,10"); }).find("'0' is not"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseMode("paged"); }).find("--mode 'paged'"), std::string::npos);
  MlpSpec big = Spec({1024, 1024, 10}, 16);
  const std::string e = ErrorOf([&] { PlanMlp(big); });
  EXPECT_NE(e.find("does not fit resident"), std::string::npos) << e;
  EXPECT_NE(e.find("--mode streaming"), std::string::npos) << e;
  MlpSpec sp = Spec({16, 8}, 4);
  sp.sparsity = 1.0;
  EXPECT_NE(ErrorOf([&] { PlanMlp(sp); }).find("[0, 1)"), std::string::npos);
  MlpSpec narrow = Spec({16, 2, 8}, 4);
  narrow.pes = 3;
  EXPECT_NE(ErrorOf([&] { PlanMlp(narrow); }).find("at least one input feature"),
            std::string::npos);
}

// The reference's gradients are the derivatives of its loss: central differences in double.
TEST(MlpReference, GradientsMatchFiniteDifferences) {
  for (Activation act : {Activation::kRelu, Activation::kGelu}) {
    MlpSpec s = Spec({5, 4, 3}, 3);
    s.act = act;
    std::mt19937_64 rng(7);
    MlpParams p = RandomParams(s, rng);
    const std::vector<float> x = kernels::UniformF32(rng, 15);
    const int labels[3] = {0, 2, 1};
    const RefStep r = ReferenceStep(s, p, x, labels, {}, 0.1, 0.0);
    for (int l = 0; l < 2; ++l) {
      for (size_t k = 0; k < p.w[l].size(); ++k) {
        MlpParams q = p;
        const float h = 1e-3f;
        q.w[l][k] = p.w[l][k] + h;
        const double up = ReferenceStep(s, q, x, labels, {}, 0, 0).loss;
        q.w[l][k] = p.w[l][k] - h;
        const double down = ReferenceStep(s, q, x, labels, {}, 0, 0).loss;
        const double fd = (up - down) / (double(p.w[l][k] + h) - double(p.w[l][k] - h));
        EXPECT_NEAR(r.gw[l][k], fd, 1e-5)
            << ActivationName(act) << " layer " << l << " weight " << k;
      }
      // SGD with zero momentum: w1 = w - lr g
      for (size_t k = 0; k < p.w[l].size(); ++k)
        EXPECT_DOUBLE_EQ(r.w1[l][k], p.w[l][k] - 0.1 * r.gw[l][k]);
    }
  }
}

TEST(MlpReference, NormwiseErrorNamesTheWorstElementAndCountsNaN) {
  size_t at = 9;
  EXPECT_DOUBLE_EQ(NormwiseError({1, -4, 2}, {1, -4.5, 2}, &at), 0.125);
  EXPECT_EQ(at, 1u);
  EXPECT_TRUE(std::isinf(NormwiseError({1, 2}, {1, NAN})));
  EXPECT_EQ(NormwiseError({0, 0}, {0, 0}), 0.0);
}

TEST(Digits, ReadsTheCsvAndNamesTheLineOfBadInput) {
  const std::string path = testing::TempDir() + "/digits_test.csv";
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  std::string good;
  for (int r = 0; r < 20; ++r) {
    for (int k = 0; k < 64; ++k) good += std::to_string((r + k) % 17) + ",";
    good += std::to_string(r % 10) + "\n";
  }
  write(good);
  const Dataset d = LoadDigits(path);
  EXPECT_EQ(d.size(), 20u);
  EXPECT_FLOAT_EQ(d.x[64 * 1 + 16], 0.0f);  // (1 + 16) % 17 = 0
  EXPECT_FLOAT_EQ(d.x[1], 1.0f / 16);
  EXPECT_EQ(d.y[13], 3);
  write(good + "1,2,3\n");
  EXPECT_NE(ErrorOf([&] { LoadDigits(path); }).find("digits_test.csv:21: 3 values"),
            std::string::npos);
  std::string bad = good;
  bad.replace(bad.find("16,"), 2, "17");
  write(bad);
  EXPECT_NE(ErrorOf([&] { LoadDigits(path); }).find("digits_test.csv:1: pixel 16 is 17"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { LoadDigits(path + ".none"); }).find("no such file"), std::string::npos);
  std::remove(path.c_str());
}

TEST(SvgPlot, WritesAxesSeriesAndLegend) {
  const std::string path = testing::TempDir() + "/plot_test.svg";
  WriteSvgPlot(path, "a <title>", "epoch", "loss",
               {{"per step", "#00f", {0, 1, 2}, {2.0, 1.0, 0.5}, false},
                {"per epoch", "#f00", {1, 2}, {1.5, 0.7}, true}});
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string svg = ss.str();
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("a &lt;title&gt;"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 10, true);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("<circle"), std::string::npos);
  EXPECT_NE(svg.find("per epoch"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  std::remove(path.c_str());
}

// One training step on the fabric equals the reference's, resident and streaming: the device
// computes, the host only streams and (streaming) updates where the weights live.
TEST(FabricMlp, OneTrainingStepMatchesTheReference) {
  for (Mode mode : {Mode::kResident, Mode::kStreaming}) {
    MlpSpec s = Spec({12, 9, 4}, 3);
    s.mode = mode;
    s.train = true;
    s.pes = 3;
    std::mt19937_64 rng(3);
    const MlpParams p = RandomParams(s, rng);
    const std::vector<float> x = kernels::UniformF32(rng, 36);
    const std::vector<int> labels{3, 0, 1};
    FabricMlp fm(s, p, {});
    const RefStep r = ReferenceStep(s, p, x, labels.data(), {}, 0.2, 0.9);
    const StepStats st = fm.Train(x, labels, 0.2f, 0.9f);
    ASSERT_TRUE(st.ok) << st.status << ": " << st.message;
    EXPECT_NEAR(fm.Loss(), r.loss, 1e-5 * r.loss) << ModeName(mode);
    const MlpParams after = fm.Params();
    for (int l = 0; l < 2; ++l) {
      EXPECT_LT(NormwiseError(r.gw[l], fm.GradW(l)), 1e-5) << ModeName(mode) << " gw" << l;
      EXPECT_LT(NormwiseError(r.w1[l], {after.w[l].begin(), after.w[l].end()}), 1e-5)
          << ModeName(mode) << " w" << l;
    }
    EXPECT_GT(st.phases.backward, 0u);
    if (mode == Mode::kStreaming) {
      EXPECT_EQ(st.words_streamed_out, 12u * 9 + 9u * 4);  // every weight's gradient, once
    }
  }
}

}  // namespace
}  // namespace tessera::ml
