#include "ml/fabric_mlp.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "arch/arch.h"
#include "kernels/kernel_run.h"
#include "layout/layout.h"

#ifndef TESSERA_FIRMWARE_DIR
#define TESSERA_FIRMWARE_DIR "firmware"
#endif

namespace tessera::ml {

// How a layer's rows x n matrix (row-major, as PyTorch holds it) is cut into the PEs' arrays:
// PE p holds the columns p*nb .. p*nb + nb - 1 (zero past n), as rows x nb row-major (inputs:
// rows are samples) or as nb x rows, one column after the other (weight blocks: the layout of
// mlp.s's w, g and v, and the order in which columns stream in and gradients stream out).
struct Slicing {
  int rows, n, nb, pes;
  bool by_column;
  int PerPe() const { return rows * nb; }
  size_t At(int r, int c) const {  // where element (r, c < n) is in the PEs' arrays
    const int pe = c / nb, j = c % nb;
    return size_t(pe) * PerPe() + (by_column ? size_t(j) * rows + r : size_t(r) * nb + j);
  }
  template <typename T>
  std::vector<T> Split(const std::vector<T>& full) const {
    std::vector<T> parts(size_t(pes) * PerPe(), T{});
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < n; ++c) parts[At(r, c)] = full[size_t(r) * n + c];
    return parts;
  }
  template <typename Out, typename In>
  std::vector<Out> Join(const std::vector<In>& parts) const {
    std::vector<Out> full(size_t(rows) * n);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < n; ++c) full[size_t(r) * n + c] = static_cast<Out>(parts[At(r, c)]);
    return full;
  }
};

namespace {

constexpr int kWeightColor = 12, kGradColor = 13;  // mlp.s WS and GS
constexpr int kNorth = static_cast<int>(arch::Dir::kN);

std::vector<uint16_t> ToF16(const std::vector<float>& v) {
  std::vector<uint16_t> h(v.size());
  for (size_t k = 0; k < v.size(); ++k) h[k] = kernels::F16Bits(v[k]);
  return h;
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

template <typename T>
void FabricMlp::WriteEach(const std::string& sym, const std::vector<T>& values) {
  std::vector<T> all;
  for (int pe = 0; pe < plan_.pes; ++pe) all.insert(all.end(), values.begin(), values.end());
  WriteAll(sym, all, static_cast<int>(values.size()));
}

Slicing FabricMlp::WeightBlocks(int l) const {
  return {spec_.Out(l), spec_.In(l), plan_.nb[l], plan_.pes, true};
}
Slicing FabricMlp::InputSlices(int l) const {
  return {spec_.batch, spec_.In(l), plan_.nb[l], plan_.pes, false};
}

void FabricMlp::PlaceParams() {
  const int L = spec_.NumLayers(), P = plan_.pes;
  for (int l = 0; l < L; ++l) {
    std::vector<float> bias = host_.b[l];
    bias.resize(plan_.mp[l], 0.0f);
    WriteEach("bias" + std::to_string(l), bias);
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
    const Slicing blocks = WeightBlocks(l);
    const std::vector<float> w32 = blocks.Split(host_.w[l]);
    if (spec_.f16) WriteAll("w" + std::to_string(l), ToF16(w32), blocks.PerPe(), 16);
    if (!spec_.f16 || spec_.train) WriteAll("wm" + std::to_string(l), w32, blocks.PerPe());
  }
}

void FabricMlp::PlaceInputs(const std::vector<float>& x) {
  const int B = spec_.batch, N = spec_.In(0);
  if (x.size() != size_t(B) * N)
    throw std::invalid_argument(
        fmt::format("the batch has {} values; {} samples of {} features need {}", x.size(), B, N,
                    size_t(B) * N));
  const Slicing slices = InputSlices(0);
  if (spec_.f16)
    WriteAll("x0", ToF16(slices.Split(x)), slices.PerPe(), 16);
  else
    WriteAll("x0", slices.Split(x), slices.PerPe());
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
  WriteEach("lab", std::vector<int32_t>(labels.begin(), labels.end()));
  const std::vector<float> hyp{lr, momentum, 1.0f / static_cast<float>(B)};
  if (hyp != hyp_) {  // the same for every step of a run, usually
    WriteEach("hyp", hyp);
    hyp_ = hyp;
  }
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
    // Each layer's weight blocks, as the words of its columns (f32 or f16 bits).
    std::vector<std::vector<uint32_t>> blocks(L);
    if (!spec_.Sparse()) {
      for (int l = 0; l < L; ++l)
        for (float v : WeightBlocks(l).Split(host_.w[l]))
          blocks[l].push_back(spec_.f16 ? kernels::F16Bits(v) : kernels::F32Bits(v));
    }
    for (int pe = 0; pe < P; ++pe) {
      std::vector<uint32_t> words;
      auto block = [&](int l) {
        const int n = WeightBlocks(l).PerPe();
        words.insert(words.end(), blocks[l].begin() + size_t(pe) * n,
                     blocks[l].begin() + size_t(pe + 1) * n);
      };
      for (int l = 0; l < L; ++l) {
        if (spec_.Sparse()) {
          const std::vector<uint32_t> pairs = SparsePairs(spec_, plan_, host_, l, pe);
          words.push_back(static_cast<uint32_t>(pairs.size() / 2));
          words.insert(words.end(), pairs.begin(), pairs.end());
        } else {
          block(l);
        }
      }
      if (train)
        for (int l = L - 1; l >= 1; --l) block(l);  // again for the input gradients
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
    // Each PE sends its gradient blocks, the last layer first.
    std::vector<std::vector<float>> parts(L);
    for (int l = 0; l < L; ++l) parts[l].resize(size_t(P) * WeightBlocks(l).PerPe());
    for (int pe = 0; pe < P; ++pe) {
      const std::vector<fabric::EdgeStream::Wavelet> out = dev_->StreamOut({pe, 0}, kNorth);
      size_t expected = 0;
      for (int l = 0; l < L; ++l) expected += WeightBlocks(l).PerPe();
      if (out.size() != expected)
        throw std::runtime_error(fmt::format("PE({},0) streamed out {} gradient values, not {}", pe,
                                             out.size(), expected));
      size_t k = 0;
      for (int l = L - 1; l >= 0; --l) {
        const int n = WeightBlocks(l).PerPe();
        for (int e = 0; e < n; ++e) parts[l][size_t(pe) * n + e] = kernels::F32Value(out[k++].data);
      }
      st.words_streamed_out += out.size();
    }
    streamed_g_.clear();
    for (int l = 0; l < L; ++l) streamed_g_.push_back(WeightBlocks(l).Join<double>(parts[l]));
  }
  return st;
}

std::vector<double> FabricMlp::BatchRows(const std::string& sym, int l) {
  const int B = spec_.batch, M = spec_.Out(l), mp = plan_.mp[l];
  std::vector<float> rows(size_t(B) * mp);
  dev_->MemcpyD2H(rows.data(), rows.size(), sym, {0, 0, 1, 1}, B * mp);  // PE 0's copy
  std::vector<double> out(size_t(B) * M);
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < M; ++i) out[size_t(b) * M + i] = rows[size_t(b) * mp + i];
  return out;
}

std::vector<double> FabricMlp::Z(int l) { return BatchRows("z" + std::to_string(l), l); }
std::vector<double> FabricMlp::Dz(int l) { return BatchRows("dz" + std::to_string(l), l); }

std::vector<double> FabricMlp::Input(int l) {
  const Slicing slices = InputSlices(l);
  return slices.Join<double>(ReadAll<float>("xf" + std::to_string(l), slices.PerPe()));
}

std::vector<double> FabricMlp::GradW(int l) {
  if (spec_.mode == Mode::kStreaming) return streamed_g_.at(l);
  const Slicing blocks = WeightBlocks(l);
  return blocks.Join<double>(ReadAll<float>("g" + std::to_string(l), blocks.PerPe()));
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
    const int M = spec_.Out(l);
    const std::vector<float> b = ReadAll<float>("bias" + std::to_string(l), plan_.mp[l]);
    p.b.emplace_back(b.begin(), b.begin() + M);
    if (spec_.mode == Mode::kStreaming || spec_.Sparse() || (spec_.f16 && !spec_.train)) {
      p.w.push_back(host_.w[l]);  // not on the device, or not changed there
      continue;
    }
    const Slicing blocks = WeightBlocks(l);
    p.w.push_back(blocks.Join<float>(ReadAll<float>("wm" + std::to_string(l), blocks.PerPe())));
  }
  return p;
}

MlpMomentum FabricMlp::Momentum() {
  const int L = spec_.NumLayers();
  MlpMomentum v;
  for (int l = 0; l < L; ++l) {
    const int M = spec_.Out(l);
    const std::vector<float> vb = ReadAll<float>("vb" + std::to_string(l), plan_.mp[l]);
    v.b.emplace_back(vb.begin(), vb.begin() + M);
    if (spec_.mode == Mode::kStreaming) {
      v.w.push_back(host_v_.w[l]);
      continue;
    }
    const Slicing blocks = WeightBlocks(l);
    v.w.push_back(blocks.Join<float>(ReadAll<float>("v" + std::to_string(l), blocks.PerPe())));
  }
  return v;
}

}  // namespace tessera::ml
