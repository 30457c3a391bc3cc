#include "ml/mlp_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "kernels/kernel_run.h"

namespace tessera::ml {

std::vector<int> ParseLayers(const std::string& text) {
  std::vector<int> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t used = 0;
    int n = 0;
    try {
      n = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || n < 1 || n > 4096) {
      throw std::invalid_argument(fmt::format(
          "--layers '{}': give feature counts separated by commas, each 1..4096 ('{}' is not)",
          text, item));
    }
    v.push_back(n);
  }
  if (v.size() < 2 || v.size() > 5) {
    throw std::invalid_argument(fmt::format(
        "--layers '{}': give 2 to 5 feature counts (inputs, up to 3 hidden sizes, classes)", text));
  }
  return v;
}

Mode ParseMode(const std::string& name) {
  if (name == "resident") return Mode::kResident;
  if (name == "streaming") return Mode::kStreaming;
  throw std::invalid_argument(
      fmt::format("--mode '{}': give resident (weights in PE memory) or streaming", name));
}

Activation ParseActivation(const std::string& name) {
  if (name == "relu") return Activation::kRelu;
  if (name == "gelu") return Activation::kGelu;
  throw std::invalid_argument(fmt::format("--act '{}': give relu or gelu (tanh form)", name));
}

const char* ModeName(Mode m) { return m == Mode::kResident ? "resident" : "streaming"; }
const char* ActivationName(Activation a) { return a == Activation::kRelu ? "relu" : "gelu"; }

namespace {

int Align16(int n) { return (n + 15) / 16 * 16 + 16; }  // an array placed by AT16, with its pad

// The data bytes of mlp.s for these sizes (its LAYER_DATA and globals, alignment included).
int DataBytes(const MlpSpec& s, const MlpPlan& p) {
  const int B = s.batch, eb = s.f16 ? 2 : 4, L = s.NumLayers();
  const bool stream = s.mode == Mode::kStreaming;
  int bytes = 4 * B + 64 + 2 * Align16(4 * p.tmp);
  if (stream) bytes += 4 * Align16(4 * p.mmax);
  for (int l = 0; l < L; ++l) {
    const int nb = p.nb[l], m = p.m[l], mp = p.mp[l];
    bytes += Align16(eb * B * nb) + (s.f16 ? Align16(4 * B * nb) : 0);
    bytes += Align16(4 * B * mp) + Align16(4 * mp);
    if (!stream) {
      if (s.Sparse())
        bytes += 8 * p.cap[l] + 8;
      else
        bytes += Align16(eb * nb * m) + (s.f16 && s.train ? Align16(4 * nb * m) : 0);
    }
    if (s.train) {
      bytes += Align16(4 * B * mp) + 3 * Align16(4 * mp);
      if (!stream) bytes += 2 * Align16(4 * nb * m);
      if (l > 0) bytes += 2 * Align16(4 * B * nb);
    }
    bytes += 30 * 16;  // descriptors
  }
  return bytes;
}

}  // namespace

MlpPlan PlanMlp(const MlpSpec& s, const std::vector<std::vector<int>>& nnz_per_pe) {
  const int L = s.NumLayers();
  if (L < 1 || L > 4) throw std::invalid_argument("--layers: give 2 to 5 feature counts");
  if (s.batch < 1 || s.batch > 256)
    throw std::invalid_argument(fmt::format("--batch {}: give 1..256 samples", s.batch));
  if (!(s.sparsity >= 0 && s.sparsity < 1))
    throw std::invalid_argument(
        fmt::format("--sparsity {}: give a fraction of zero weights in [0, 1)", s.sparsity));
  if (s.Sparse() && s.train)
    throw std::invalid_argument(
        "--sparsity with --train: sparse layers run forward (inference) only; train dense");
  if (s.pes < 0 || s.pes > 64)
    throw std::invalid_argument(fmt::format("--pes {}: give 1..64 PEs (0: chosen)", s.pes));
  int min_in = s.layers[0];
  for (int l = 0; l < L; ++l) min_in = std::min(min_in, s.In(l));
  auto plan_at = [&](int P) {
    MlpPlan p;
    p.pes = P;
    for (int l = 0; l < L; ++l) p.nb.push_back(kernels::CeilDiv(s.In(l), P));
    for (int l = 0; l < L; ++l) {
      p.m.push_back(s.Out(l));
      p.mp.push_back(l + 1 < L ? P * p.nb[l + 1] : s.Out(l));
      p.mmax = std::max(p.mmax, s.Out(l));
      p.tmp = std::max({p.tmp, s.batch * p.nb[l], s.Out(l)});
      int cap = 0;
      if (s.Sparse() && s.mode == Mode::kResident) {
        if (l < static_cast<int>(nnz_per_pe.size()) && !nnz_per_pe[l].empty()) {
          cap = *std::max_element(nnz_per_pe[l].begin(), nnz_per_pe[l].end());
        } else {
          const double mean = (1 - s.sparsity) * p.nb[l] * s.Out(l);
          cap = static_cast<int>(mean + 4 * std::sqrt(mean + 1) + 4);
          cap = std::min(cap, p.nb[l] * s.Out(l));
        }
      }
      p.cap.push_back(std::max(cap, 1));
    }
    p.bytes = DataBytes(s, p);
    return p;
  };
  auto check_limits = [&](const MlpPlan& p) {
    for (int l = 0; l < L; ++l) {
      const long row = long(s.batch) * p.mp[l], block = long(p.nb[l]) * p.m[l];
      if (row > 0x7FFE || block > 0x7FFE || long(s.batch) * p.nb[l] > 0x7FFE) {
        throw std::invalid_argument(fmt::format(
            "--layers/--batch: layer {} ({} -> {}) with a batch of {} on {} PEs needs vectors "
            "of {} elements; a descriptor counts up to 32766",
            l, s.In(l), s.Out(l), s.batch, p.pes, std::max(row, block), 32766));
      }
    }
  };
  // SRAM less the code of mlp.s and its libraries (up to about 6.5 KB) and their buffers (2 KB).
  const int budget = 48 * 1024 - 8704;
  auto Refuse = [&](const MlpPlan& p) {
    std::string hint = "; use more PEs (--pes) or a smaller batch";
    if (s.mode == Mode::kResident) {
      MlpSpec st = s;
      st.mode = Mode::kStreaming;
      hint = fmt::format(
          "; --mode streaming keeps the weights on the host and needs about {} bytes per PE",
          DataBytes(st, p));
    }
    throw std::invalid_argument(fmt::format(
        "the model does not fit {}: on {} PEs it needs {} bytes per PE, more than the {} a PE "
        "has for data{}",
        ModeName(s.mode), p.pes, p.bytes, budget, hint));
  };
  if (s.pes > 0) {
    if (s.pes > min_in)
      throw std::invalid_argument(fmt::format(
          "--pes {}: every PE needs at least one input feature of every layer (the narrowest "
          "layer has {} inputs)",
          s.pes, min_in));
    MlpPlan p = plan_at(s.pes);
    check_limits(p);
    if (p.bytes > budget) Refuse(p);
    return p;
  }
  // By default at least 4 PEs (a fabric, not one PE), more while the model does not fit.
  for (int P = std::min(4, min_in); P <= std::min(16, min_in); ++P) {
    MlpPlan p = plan_at(P);
    if (p.bytes <= budget) {
      check_limits(p);
      return p;
    }
  }
  Refuse(plan_at(std::min(16, min_in)));
  return {};
}

MlpParams RandomParams(const MlpSpec& s, std::mt19937_64& rng) {
  MlpParams p;
  std::uniform_real_distribution<double> u(-1.0, 1.0), keep(0.0, 1.0);
  for (int l = 0; l < s.NumLayers(); ++l) {
    const double bound = 1.0 / std::sqrt(double(s.In(l)));
    std::vector<float> w(size_t(s.Out(l)) * s.In(l)), b(s.Out(l));
    for (float& v : w) {
      v = static_cast<float>(bound * u(rng));
      if (s.Sparse() && keep(rng) < s.sparsity) v = 0.0f;
      if (s.f16) v = static_cast<float>(kernels::F16Value(kernels::F16Bits(v)));
    }
    for (float& v : b) v = static_cast<float>(bound * u(rng));
    p.w.push_back(std::move(w));
    p.b.push_back(std::move(b));
  }
  return p;
}

std::vector<uint32_t> SparsePairs(const MlpSpec& s, const MlpPlan& plan, const MlpParams& p, int l,
                                  int pe) {
  std::vector<uint32_t> out;
  const int nb = plan.nb[l], M = s.Out(l), N = s.In(l), eb = s.f16 ? 2 : 4;
  for (int j = 0; j < nb; ++j) {
    const int col = pe * nb + j;
    if (col >= N) break;
    for (int i = 0; i < M; ++i) {
      const float v = p.w[l][size_t(i) * N + col];
      if (v == 0.0f) continue;
      const uint32_t bits = s.f16 ? kernels::F16Bits(v) : kernels::F32Bits(v);
      out.push_back(uint32_t(4 * i) << 16 | uint32_t(eb * j));
      out.push_back(bits);
    }
  }
  return out;
}

}  // namespace tessera::ml
