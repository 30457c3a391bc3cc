#include "ml/fabric_mlp.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "arch/arch.h"
#include "kernels/kernel_run.h"
#include "layout/layout.h"

#ifndef TESSERA_FIRMWARE_DIR
#define TESSERA_FIRMWARE_DIR "firmware"
#endif

namespace tessera::ml {
namespace {

constexpr int kWeightColor = 12, kGradColor = 13;  // mlp.s WS and GS
constexpr int kNorth = static_cast<int>(arch::Dir::kN);

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float Float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::string Layout(const MlpSpec& s, const MlpPlan& p) {
  const int L = s.NumLayers();
  std::string params = fmt::format(
      "param P={} param PX=x param B={} param NL={} param F16={} param STREAM={} param TRAIN={} "
      "param MMAX={} param TMP={}",
      p.pes, s.batch, L, s.f16 ? 1 : 0, s.mode == Mode::kStreaming ? 1 : 0, s.train ? 1 : 0, p.mmax,
      p.tmp);
  for (int l = 0; l < L; ++l) {
    params += fmt::format(
        " \\\n  param NB{0}={1} param M{0}={2} param MP{0}={3} param ACT{0}={4} param SP{0}={5} "
        "param CAP{0}={6}",
        l, p.nb[l], p.m[l], p.mp[l], s.act == Activation::kGelu ? 1 : 0, s.Sparse() ? 1 : 0,
        p.cap[l]);
  }
  std::string t = fmt::format(
      "fabric {}x1\ninclude ../lib/collectives.tlayout\n"
      "region at=0,0 size={}x1 program=mlp.s,../lib/collectives.s,../lib/math.s {}\n",
      p.pes, p.pes, params);
  if (s.mode == Mode::kStreaming) {
    t += fmt::format("route color={} at=0..FW-1,0 rx=N tx=RAMP\n", kWeightColor);
    if (s.train) t += fmt::format("route color={} at=0..FW-1,0 rx=RAMP tx=N\n", kGradColor);
  }
  return t;
}

}  // namespace

FabricMlp::FabricMlp(const MlpSpec& spec, const MlpParams& init, const FabricOptions& opt)
    : spec_(spec), opt_(opt), host_(init) {
  const int L = spec.NumLayers();
  if (static_cast<int>(init.w.size()) != L || static_cast<int>(init.b.size()) != L)
    throw std::invalid_argument(
        fmt::format("the parameters have {} layers, the model {}", init.w.size(), L));
  for (int l = 0; l < L; ++l) {
    if (init.w[l].size() != size_t(spec.Out(l)) * spec.In(l) ||
        init.b[l].size() != size_t(spec.Out(l))) {
      throw std::invalid_argument(fmt::format(
          "layer {}: the weights are {} values and the biases {}; a {} -> {} layer needs {} and {}",
          l, init.w[l].size(), init.b[l].size(), spec.In(l), spec.Out(l),
          size_t(spec.Out(l)) * spec.In(l), spec.Out(l)));
    }
  }
  // Resident sparse: room for the most nonzeros any PE holds.
  std::vector<std::vector<int>> nnz;
  if (spec.Sparse() && spec.mode == Mode::kResident) {
    MlpPlan first = PlanMlp(spec);  // the PE count, from the expected density
    for (int l = 0; l < L; ++l) {
      nnz.emplace_back();
      for (int pe = 0; pe < first.pes; ++pe)
        nnz.back().push_back(static_cast<int>(SparsePairs(spec, first, init, l, pe).size() / 2));
    }
    MlpSpec fixed = spec;
    fixed.pes = first.pes;
    plan_ = PlanMlp(fixed, nnz);
  } else {
    plan_ = PlanMlp(spec);
  }
  const std::string root = opt.firmware_dir.empty() ? TESSERA_FIRMWARE_DIR : opt.firmware_dir;
  const std::string dir = root + "/ml";
  if (!std::filesystem::is_regular_file(dir + "/mlp.s"))
    throw std::invalid_argument(fmt::format(
        "--firmware: the MLP's device code is not in {} (give the folder that holds ml/mlp.s)",
        dir));
  const layout::Image img = kernels::LinkKernel(dir, Layout(spec, plan_));
  runtime::DeviceOptions o;
  o.backend = opt.backend;
  o.width = plan_.pes;
  o.height = 1;
  o.tile = opt.tile;
  dev_ = std::make_unique<runtime::Device>(o);
  dev_->Load(img);
  for (int l = 0; l < L; ++l) {
    host_v_.w.emplace_back(host_.w[l].size(), 0.0f);
    host_v_.b.emplace_back(host_.b[l].size(), 0.0f);
  }
  PlaceParams();
}

FabricMlp::~FabricMlp() = default;

template <typename T>
std::vector<T> FabricMlp::ReadAll(const std::string& sym, int per_pe, int bits) {
  std::vector<T> out(size_t(plan_.pes) * per_pe);
  runtime::MemcpyOptions o;
  o.elem_bits = bits;
  dev_->MemcpyD2H(out.data(), out.size(), sym, {0, 0, plan_.pes, 1}, per_pe, o);
  return out;
}

template <typename T>
void FabricMlp::WriteAll(const std::string& sym, const std::vector<T>& data, int per_pe, int bits) {
  runtime::MemcpyOptions o;
  o.elem_bits = bits;
  dev_->MemcpyH2D(sym, data.data(), data.size(), {0, 0, plan_.pes, 1}, per_pe, o);
}

void FabricMlp::PlaceParams() {
  const int L = spec_.NumLayers(), P = plan_.pes;
  for (int l = 0; l < L; ++l) {
    const int N = spec_.In(l), M = spec_.Out(l), nb = plan_.nb[l], mp = plan_.mp[l];
    std::vector<float> bias(size_t(P) * mp, 0.0f);
    for (int pe = 0; pe < P; ++pe)
      for (int i = 0; i < M; ++i) bias[size_t(pe) * mp + i] = host_.b[l][i];
    WriteAll("bias" + std::to_string(l), bias, mp);
    if (spec_.mode == Mode::kStreaming) continue;
    if (spec_.Sparse()) {
      const int cap = plan_.cap[l];
      std::vector<uint32_t> nz(size_t(P) * 2 * cap, 0), cnt(P, 0);
      for (int pe = 0; pe < P; ++pe) {
        const std::vector<uint32_t> pairs = SparsePairs(spec_, plan_, host_, l, pe);
        std::copy(pairs.begin(), pairs.end(), nz.begin() + size_t(pe) * 2 * cap);
        cnt[pe] = static_cast<uint32_t>(pairs.size() / 2);
      }
      WriteAll("nz" + std::to_string(l), nz, 2 * cap);
      WriteAll("nnz" + std::to_string(l), cnt, 1);
      continue;
    }
    // Column-major blocks: PE p's element (j, i) at j*M + i is W[i][p*nb + j].
    std::vector<float> w32(size_t(P) * nb * M, 0.0f);
    for (int pe = 0; pe < P; ++pe)
      for (int j = 0; j < nb && pe * nb + j < N; ++j)
        for (int i = 0; i < M; ++i)
          w32[(size_t(pe) * nb + j) * M + i] = host_.w[l][size_t(i) * N + pe * nb + j];
    if (spec_.f16) {
      std::vector<uint16_t> w16(w32.size());
      for (size_t k = 0; k < w32.size(); ++k) w16[k] = kernels::F16Bits(w32[k]);
      WriteAll("w" + std::to_string(l), w16, nb * M, 16);
      if (spec_.train) WriteAll("wm" + std::to_string(l), w32, nb * M);
    } else {
      WriteAll("wm" + std::to_string(l), w32, nb * M);
    }
  }
}

void FabricMlp::PlaceInputs(const std::vector<float>& x) {
  const int B = spec_.batch, N = spec_.In(0), nb = plan_.nb[0], P = plan_.pes;
  if (x.size() != size_t(B) * N)
    throw std::invalid_argument(
        fmt::format("the batch has {} values; {} samples of {} features need {}", x.size(), B, N,
                    size_t(B) * N));
  std::vector<float> xs(size_t(P) * B * nb, 0.0f);
  for (int pe = 0; pe < P; ++pe)
    for (int b = 0; b < B; ++b)
      for (int j = 0; j < nb && pe * nb + j < N; ++j)
        xs[(size_t(pe) * B + b) * nb + j] = x[size_t(b) * N + pe * nb + j];
  if (spec_.f16) {
    std::vector<uint16_t> h(xs.size());
    for (size_t k = 0; k < xs.size(); ++k) h[k] = kernels::F16Bits(xs[k]);
    WriteAll("x0", h, B * nb, 16);
  } else {
    WriteAll("x0", xs, B * nb);
  }
}

StepStats FabricMlp::Forward(const std::vector<float>& x) {
  PlaceInputs(x);
  return Run("forward", false);
}

StepStats FabricMlp::Train(const std::vector<float>& x, const std::vector<int>& labels, float lr,
                           float momentum) {
  if (!spec_.train) throw std::logic_error("FabricMlp::Train: the image has no train task");
  const int B = spec_.batch, C = spec_.Out(spec_.NumLayers() - 1);
  if (labels.size() != size_t(B))
    throw std::invalid_argument(
        fmt::format("the batch has {} labels for {} samples", labels.size(), B));
  for (size_t b = 0; b < labels.size(); ++b)
    if (labels[b] < 0 || labels[b] >= C)
      throw std::invalid_argument(
          fmt::format("label {} of sample {} is not a class 0..{}", labels[b], b, C - 1));
  PlaceInputs(x);
  std::vector<int32_t> lab(size_t(plan_.pes) * B);
  for (int pe = 0; pe < plan_.pes; ++pe)
    for (int b = 0; b < B; ++b) lab[size_t(pe) * B + b] = labels[b];
  WriteAll("lab", lab, B);
  std::vector<float> hyp;
  for (int pe = 0; pe < plan_.pes; ++pe) {
    hyp.push_back(lr);
    hyp.push_back(momentum);
    hyp.push_back(1.0f / static_cast<float>(B));
  }
  WriteAll("hyp", hyp, 3);
  StepStats st = Run("train", true);
  if (st.ok && spec_.mode == Mode::kStreaming) {
    // The update of the streamed weights, where they live, in the device's f32 order:
    // v = mu v + g (two roundings), w = w + v (-lr) (one).
    for (int l = 0; l < spec_.NumLayers(); ++l) {
      for (size_t k = 0; k < host_.w[l].size(); ++k) {
        const float t = momentum * host_v_.w[l][k];
        host_v_.w[l][k] = t + static_cast<float>(streamed_g_[l][k]);
        host_.w[l][k] = std::fmaf(host_v_.w[l][k], -lr, host_.w[l][k]);
      }
    }
  }
  return st;
}

StepStats FabricMlp::Run(const std::string& task, bool train) {
  const int L = spec_.NumLayers(), P = plan_.pes;
  StepStats st;
  const bool stream = spec_.mode == Mode::kStreaming;
  if (stream) {
    for (int pe = 0; pe < P; ++pe) {
      std::vector<uint32_t> words;
      auto column = [&](int l, int j) {
        const int N = spec_.In(l), M = spec_.Out(l), col = pe * plan_.nb[l] + j;
        for (int i = 0; i < M; ++i) {
          const float v = col < N ? host_.w[l][size_t(i) * N + col] : 0.0f;
          words.push_back(spec_.f16 ? kernels::F16Bits(v) : Bits(v));
        }
      };
      for (int l = 0; l < L; ++l) {
        if (spec_.Sparse()) {
          const std::vector<uint32_t> pairs = SparsePairs(spec_, plan_, host_, l, pe);
          words.push_back(static_cast<uint32_t>(pairs.size() / 2));
          words.insert(words.end(), pairs.begin(), pairs.end());
        } else {
          for (int j = 0; j < plan_.nb[l]; ++j) column(l, j);
        }
      }
      if (train)
        for (int l = L - 1; l >= 1; --l)
          for (int j = 0; j < plan_.nb[l]; ++j) column(l, j);
      st.words_streamed_in += words.size();
      dev_->StreamIn({pe, 0}, kNorth, kWeightColor, words);
      if (train) dev_->StreamOut({pe, 0}, kNorth);  // opens the port
    }
  }
  dev_->Launch(task);
  const runtime::RunResult r = dev_->Run(opt_.max_cycles);
  st.ok = r.ok();
  st.status = runtime::StatusName(r.status);
  st.message = r.message;
  st.cycles = r.cycles();
  st.link_wavelets = r.link_wavelets;
  if (!st.ok) return st;
  const std::vector<uint32_t> prof = ReadAll<uint32_t>("prof", 5);
  st.phases = {prof[0], prof[1], prof[2], prof[3], prof[4]};
  if (stream && train) {
    streamed_g_.assign(L, {});
    for (int l = 0; l < L; ++l) streamed_g_[l].assign(size_t(spec_.Out(l)) * spec_.In(l), 0.0);
    for (int pe = 0; pe < P; ++pe) {
      const std::vector<fabric::EdgeStream::Wavelet> out = dev_->StreamOut({pe, 0}, kNorth);
      size_t k = 0;
      for (int l = L - 1; l >= 0; --l) {
        const int N = spec_.In(l), M = spec_.Out(l);
        for (int j = 0; j < plan_.nb[l]; ++j) {
          for (int i = 0; i < M; ++i, ++k) {
            if (k >= out.size())
              throw std::runtime_error(fmt::format(
                  "PE({},0) streamed out {} gradient values; the model has more", pe, out.size()));
            const int col = pe * plan_.nb[l] + j;
            if (col < N) streamed_g_[l][size_t(i) * N + col] = Float(out[k].data);
          }
        }
      }
      if (k != out.size())
        throw std::runtime_error(
            fmt::format("PE({},0) streamed out {} gradient values, not {}", pe, out.size(), k));
      st.words_streamed_out += out.size();
    }
  }
  return st;
}

std::vector<double> FabricMlp::Z(int l) {
  const int B = spec_.batch, M = spec_.Out(l), mp = plan_.mp[l];
  const std::vector<float> z = ReadAll<float>("z" + std::to_string(l), B * mp);
  std::vector<double> out(size_t(B) * M);
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < M; ++i) out[size_t(b) * M + i] = z[size_t(b) * mp + i];  // PE 0's copy
  return out;
}

std::vector<double> FabricMlp::Input(int l) {
  const int B = spec_.batch, N = spec_.In(l), nb = plan_.nb[l];
  const std::vector<float> x = ReadAll<float>("xf" + std::to_string(l), B * nb);
  std::vector<double> out(size_t(B) * N);
  for (int pe = 0; pe < plan_.pes; ++pe)
    for (int b = 0; b < B; ++b)
      for (int j = 0; j < nb && pe * nb + j < N; ++j)
        out[size_t(b) * N + pe * nb + j] = x[(size_t(pe) * B + b) * nb + j];
  return out;
}

std::vector<double> FabricMlp::Dz(int l) {
  const int B = spec_.batch, M = spec_.Out(l), mp = plan_.mp[l];
  const std::vector<float> d = ReadAll<float>("dz" + std::to_string(l), B * mp);
  std::vector<double> out(size_t(B) * M);
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < M; ++i) out[size_t(b) * M + i] = d[size_t(b) * mp + i];
  return out;
}

std::vector<double> FabricMlp::GradW(int l) {
  if (spec_.mode == Mode::kStreaming) return streamed_g_.at(l);
  const int N = spec_.In(l), M = spec_.Out(l), nb = plan_.nb[l];
  const std::vector<float> g = ReadAll<float>("g" + std::to_string(l), nb * M);
  std::vector<double> out(size_t(M) * N);
  for (int pe = 0; pe < plan_.pes; ++pe)
    for (int j = 0; j < nb && pe * nb + j < N; ++j)
      for (int i = 0; i < M; ++i)
        out[size_t(i) * N + pe * nb + j] = g[(size_t(pe) * nb + j) * M + i];
  return out;
}

std::vector<double> FabricMlp::GradB(int l) {
  const std::vector<float> g = ReadAll<float>("gb" + std::to_string(l), plan_.mp[l]);
  return std::vector<double>(g.begin(), g.begin() + spec_.Out(l));
}

double FabricMlp::Loss() { return ReadAll<float>("loss", 1)[0]; }

MlpParams FabricMlp::Params() {
  const int L = spec_.NumLayers();
  MlpParams p;
  for (int l = 0; l < L; ++l) {
    const int N = spec_.In(l), M = spec_.Out(l), nb = plan_.nb[l];
    const std::vector<float> b = ReadAll<float>("bias" + std::to_string(l), plan_.mp[l]);
    p.b.emplace_back(b.begin(), b.begin() + M);
    if (spec_.mode == Mode::kStreaming || spec_.Sparse() || (spec_.f16 && !spec_.train)) {
      p.w.push_back(host_.w[l]);  // not on the device, or not changed there
      continue;
    }
    const std::vector<float> w = ReadAll<float>("wm" + std::to_string(l), nb * M);
    std::vector<float> full(size_t(M) * N);
    for (int pe = 0; pe < plan_.pes; ++pe)
      for (int j = 0; j < nb && pe * nb + j < N; ++j)
        for (int i = 0; i < M; ++i)
          full[size_t(i) * N + pe * nb + j] = w[(size_t(pe) * nb + j) * M + i];
    p.w.push_back(std::move(full));
  }
  return p;
}

MlpMomentum FabricMlp::Momentum() {
  const int L = spec_.NumLayers();
  MlpMomentum v;
  for (int l = 0; l < L; ++l) {
    const int N = spec_.In(l), M = spec_.Out(l), nb = plan_.nb[l];
    const std::vector<float> vb = ReadAll<float>("vb" + std::to_string(l), plan_.mp[l]);
    v.b.emplace_back(vb.begin(), vb.begin() + M);
    if (spec_.mode == Mode::kStreaming) {
      v.w.push_back(host_v_.w[l]);
      continue;
    }
    const std::vector<float> w = ReadAll<float>("v" + std::to_string(l), nb * M);
    std::vector<float> full(size_t(M) * N);
    for (int pe = 0; pe < plan_.pes; ++pe)
      for (int j = 0; j < nb && pe * nb + j < N; ++j)
        for (int i = 0; i < M; ++i)
          full[size_t(i) * N + pe * nb + j] = w[(size_t(pe) * nb + j) * M + i];
    v.w.push_back(std::move(full));
  }
  return v;
}

}  // namespace tessera::ml
