#include "ml/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/kernel_run.h"

namespace tessera::ml {
namespace {

constexpr double kGeluC = 0.7978845608028654;  // sqrt(2/pi)
constexpr double kGeluK = 0.044715;

double RoundF16(double v) { return kernels::F16Value(kernels::F16Bits(static_cast<float>(v))); }

double Act(Activation a, double z) {
  if (a == Activation::kRelu) return z > 0 ? z : 0.0;
  return 0.5 * z * (1.0 + std::tanh(kGeluC * (z + kGeluK * z * z * z)));
}

double ActDeriv(Activation a, double z) {
  if (a == Activation::kRelu) return z > 0 ? 1.0 : 0.0;
  const double t = std::tanh(kGeluC * (z + kGeluK * z * z * z));
  return 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * kGeluC * (1.0 + 3.0 * kGeluK * z * z);
}

}  // namespace

RefStep ReferenceStep(const MlpSpec& s, const MlpParams& p, const std::vector<float>& x,
                      const int* labels, const MlpMomentum& v, double lr, double momentum) {
  const int L = s.NumLayers(), B = s.batch;
  RefStep r;
  // The weights the forward reads: f16 rounds the master copy.
  std::vector<std::vector<double>> wf(L);
  for (int l = 0; l < L; ++l) {
    wf[l].resize(p.w[l].size());
    for (size_t i = 0; i < p.w[l].size(); ++i)
      wf[l][i] = s.f16 ? RoundF16(p.w[l][i]) : double(p.w[l][i]);
  }
  std::vector<double> a(x.begin(), x.end());
  if (s.f16)
    for (double& e : a) e = RoundF16(e);
  for (int l = 0; l < L; ++l) {
    const int N = s.In(l), M = s.Out(l);
    r.a.push_back(a);
    std::vector<double> z(size_t(B) * M);
    for (int b = 0; b < B; ++b) {
      for (int i = 0; i < M; ++i) {
        double acc = p.b[l][i];
        for (int j = 0; j < N; ++j) acc += wf[l][size_t(i) * N + j] * a[size_t(b) * N + j];
        z[size_t(b) * M + i] = acc;
      }
    }
    r.z.push_back(z);
    if (l + 1 < L) {
      a.assign(z.size(), 0.0);
      for (size_t k = 0; k < z.size(); ++k) {
        a[k] = Act(s.act, z[k]);
        if (s.f16) a[k] = RoundF16(a[k]);
      }
    }
  }
  if (!labels) return r;

  // Softmax with cross-entropy, mean over the batch.
  const int C = s.Out(L - 1);
  std::vector<double> dz(size_t(B) * C);
  double loss = 0;
  for (int b = 0; b < B; ++b) {
    const double* zr = &r.z[L - 1][size_t(b) * C];
    const double m = *std::max_element(zr, zr + C);
    double sum = 0;
    for (int i = 0; i < C; ++i) sum += std::exp(zr[i] - m);
    loss += std::log(sum) + m - zr[labels[b]];
    for (int i = 0; i < C; ++i)
      dz[size_t(b) * C + i] = (std::exp(zr[i] - m) / sum - (i == labels[b] ? 1.0 : 0.0)) / B;
  }
  r.loss = loss / B;
  r.dz.assign(L, {});
  r.gw.assign(L, {});
  r.gb.assign(L, {});
  for (int l = L - 1; l >= 0; --l) {
    const int N = s.In(l), M = s.Out(l);
    r.dz[l] = dz;
    std::vector<double> gw(size_t(M) * N, 0.0), gb(M, 0.0);
    for (int b = 0; b < B; ++b) {
      for (int i = 0; i < M; ++i) {
        const double d = dz[size_t(b) * M + i];
        gb[i] += d;
        for (int j = 0; j < N; ++j) gw[size_t(i) * N + j] += d * r.a[l][size_t(b) * N + j];
      }
    }
    r.gw[l] = gw;
    r.gb[l] = gb;
    if (l > 0) {
      std::vector<double> prev(size_t(B) * N, 0.0);
      for (int b = 0; b < B; ++b) {
        for (int j = 0; j < N; ++j) {
          double acc = 0;
          for (int i = 0; i < M; ++i) acc += wf[l][size_t(i) * N + j] * dz[size_t(b) * M + i];
          prev[size_t(b) * N + j] = acc * ActDeriv(s.act, r.z[l - 1][size_t(b) * N + j]);
        }
      }
      dz = prev;
    }
  }
  // SGD with momentum (PyTorch's form, dampening 0): v = mu v + g; p -= lr v.
  for (int l = 0; l < L; ++l) {
    auto step = [&](const std::vector<float>& param, const std::vector<float>& vel,
                    const std::vector<double>& g, std::vector<double>& p1,
                    std::vector<double>& v1) {
      p1.resize(param.size());
      v1.resize(param.size());
      for (size_t k = 0; k < param.size(); ++k) {
        v1[k] = momentum * (vel.empty() ? 0.0 : vel[k]) + g[k];
        p1[k] = param[k] - lr * v1[k];
      }
    };
    r.w1.emplace_back();
    r.b1.emplace_back();
    r.vw1.emplace_back();
    r.vb1.emplace_back();
    step(p.w[l], l < static_cast<int>(v.w.size()) ? v.w[l] : std::vector<float>{}, r.gw[l],
         r.w1.back(), r.vw1.back());
    step(p.b[l], l < static_cast<int>(v.b.size()) ? v.b[l] : std::vector<float>{}, r.gb[l],
         r.b1.back(), r.vb1.back());
  }
  return r;
}

double NormwiseError(const std::vector<double>& ref, const std::vector<double>& got,
                     size_t* where) {
  double top = 0, diff = 0;
  size_t at = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    top = std::max(top, std::fabs(ref[i]));
    const double d = std::fabs(got[i] - ref[i]);
    if (!(d <= diff)) {  // NaN counts as the largest
      diff = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
      at = i;
    }
  }
  if (where) *where = at;
  if (diff == 0) return 0;
  return top > 0 ? diff / top : std::numeric_limits<double>::infinity();
}

}  // namespace tessera::ml
