// Hypersparse SpMV with (index, value) wavelets (docs/kernels.md, "spmv-hypersparse"; device
// code firmware/kernels/spmv-hypersparse/spmv.s): y = A x, A n x n with few nonzeros, blocks
// of A over a W x H fabric (row blocks by PE row, column blocks by PE column).
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

KernelResult Run(const KernelArgs& given) {
  // The user's matrix as triplets (rows, cols, vals) and x: n from x, nnz from vals.
  KernelArgs a = given;
  a.n = SizeFrom(given, given.n, "--n", "x", 0, 1);
  a.nnz = SizeFrom(given, given.nnz, "--nnz", "vals", 0, 1);
  const bool user = HasInput(a, "rows") || HasInput(a, "cols") || HasInput(a, "vals");
  if (user &&
      !(HasInput(a, "rows") && HasInput(a, "cols") && HasInput(a, "vals") && HasInput(a, "x")))
    throw std::invalid_argument(
        "inputs rows, cols, vals and x: give all four (A's nonzeros and x)");
  const int n = a.n > 0 ? a.n : 1000;
  const int W = a.fabric_w > 0 ? a.fabric_w : 4, H = a.fabric_w > 0 ? a.fabric_h : 4;
  const int nnz = a.nnz > 0 ? a.nnz : n / 10 + 1;
  if (a.dtype != "f32")
    throw std::invalid_argument(
        fmt::format("--dtype: spmv-hypersparse runs f32, not '{}'", a.dtype));
  if (W < 1 || H < 1 || W > 256 || H > 256)
    throw std::invalid_argument(fmt::format("--fabric {}x{}: 1x1 up to 256x256", W, H));
  if (n < std::max(W, H) || n > 65536 * H)
    throw std::invalid_argument(
        fmt::format("--n {}: at least one row and column per PE row and column", n));
  if (nnz < 1 || uint64_t(nnz) > uint64_t(n) * n / 2)
    throw std::invalid_argument(
        fmt::format("--nnz {}: between 1 and half of the {} x {} entries", nnz, n, n));
  const int mb = CeilDiv(n, H), nb = CeilDiv(n, W);
  if (mb > 65535) throw std::invalid_argument("--n: a row block may have at most 65535 rows");
  // The nonzeros: distinct random positions, values in [-1, 1).
  std::mt19937_64 rng(a.seed);
  std::vector<std::pair<int, int>> pos;
  if (user) {
    const std::vector<uint32_t> ri = InputIndices(a, "rows", size_t(nnz), uint32_t(n)),
                                ci = InputIndices(a, "cols", size_t(nnz), uint32_t(n));
    std::set<std::pair<int, int>> seen;
    for (size_t t = 0; t < ri.size(); ++t) {
      if (!seen.insert({int(ri[t]), int(ci[t])}).second)
        throw std::invalid_argument(fmt::format(
            "inputs rows, cols: the entry ({}, {}) appears twice (at {}); give each nonzero once",
            ri[t], ci[t], t));
      pos.push_back({int(ri[t]), int(ci[t])});
    }
  } else {
    std::set<std::pair<int, int>> set;
    while (int(set.size()) < nnz) set.insert({int(rng() % n), int(rng() % n)});
    pos.assign(set.begin(), set.end());
  }
  const std::vector<float> vals = InputF32(a, "vals", {size_t(nnz)}, rng),
                           x = InputF32(a, "x", {size_t(n)}, rng);
  std::vector<std::vector<uint32_t>> per_pe(size_t(W) * H);
  size_t k = 0;
  for (const auto& [i, j] : pos) {
    const int py = i / mb, px = j / nb;
    const uint32_t bits = F32Bits(vals[k++]);
    per_pe[size_t(py) * W + px].insert(per_pe[size_t(py) * W + px].end(),
                                       {uint32_t(i % mb), uint32_t(j % nb), bits});
  }
  size_t cap = 1;
  for (const auto& v : per_pe) cap = std::max(cap, v.size() / 3);
  const int bytes = 4 * (mb + nb) + 12 * int(cap) + 64;
  if (bytes > kDataBytes) {
    throw std::invalid_argument(fmt::format(
        "--n {} --nnz {} on {}x{} needs {} bytes per PE (y {} and x {} values, {} nonzeros on the "
        "fullest PE); use a larger fabric or fewer nonzeros",
        n, nnz, W, H, bytes, mb, nb, cap));
  }
  std::vector<uint32_t> nzs(size_t(W) * H * cap * 3, 0), counts(size_t(W) * H);
  for (size_t p = 0; p < per_pe.size(); ++p) {
    std::copy(per_pe[p].begin(), per_pe[p].end(), nzs.begin() + p * cap * 3);
    counts[p] = uint32_t(per_pe[p].size() / 3);
  }
  std::vector<float> xs(size_t(W) * H * nb, 0.0f);  // the x block of each PE's column
  for (int py = 0; py < H; ++py)
    for (int px = 0; px < W; ++px)
      for (int j = 0; j < nb && px * nb + j < n; ++j)
        xs[(size_t(py) * W + px) * nb + j] = x[size_t(px) * nb + j];

  // Partial sums flow west along each row; colors alternate by column parity so that a PE's
  // incoming and outgoing sums differ (as GEMV's: docs/kernels.md).
  std::string layout = fmt::format(
      "fabric {}x{}\n"
      "region at=0,0 size={}x{} program=spmv.s param MB={} param NB={} param CAP={} "
      "param ROLE=FW==1 ? 0 : x==0 ? 1 : x==FW-1 ? 3 : 2 param CIN=x%2==0 ? 2 : 1 "
      "param COUT=x%2==1 ? 2 : 1\n",
      W, H, W, H, mb, nb, cap);
  if (W > 1) {
    layout +=
        "route color=2 at=0..FW-1,0..FH-1 rx=RAMP tx=W when=x%2==1\n"
        "route color=2 at=0..FW-1,0..FH-1 rx=E tx=RAMP when=x%2==0 && x<FW-1\n"
        "route color=1 at=0..FW-1,0..FH-1 rx=RAMP tx=W when=x%2==0 && x>0\n"
        "route color=1 at=0..FW-1,0..FH-1 rx=E tx=RAMP when=x%2==1 && x<FW-1\n";
  }
  const layout::Image img = LinkKernel(KernelDir(a, "spmv-hypersparse"), layout);
  runtime::Device dev(DeviceFor(a, W, H));
  dev.Load(img);
  const runtime::Region all{0, 0, W, H};
  dev.MemcpyH2D("nz", nzs.data(), nzs.size(), all, int(cap) * 3);
  dev.MemcpyH2D("count", counts.data(), counts.size(), all, 1);
  dev.MemcpyH2D("x", xs.data(), xs.size(), all, nb);

  KernelResult out;
  out.fabric_w = W;
  out.fabric_h = H;
  out.pes = W * H;
  out.size = fmt::format("n={} nnz={}", n, nnz);
  out.useful_ops = uint64_t(nnz);
  const bool ok = RunToEnd(dev, a, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(out.pes)) : 0.0;
  if (!ok) return out;
  std::vector<float> y(size_t(H) * mb);
  dev.MemcpyD2H(y.data(), y.size(), "y", runtime::Region{0, 0, 1, H}, mb);
  std::vector<double> ref(n, 0.0), scale(n, 0.0), got(n);
  k = 0;
  for (const auto& [i, j] : pos) {
    const double t = double(vals[k++]) * x[j];
    ref[i] += t;
    scale[i] += std::fabs(t);
  }
  for (int i = 0; i < n; ++i) got[i] = y[i];
  OutputF32(a, "y", {size_t(n)}, std::vector<float>(y.begin(), y.begin() + n));
  // f32 products and f32 sums (at most nnz terms per row): 1e-5 of the row's magnitude.
  MeasureError(ref, got, scale, 1e-5, out);
  return out;
}

}  // namespace

KernelDef SpmvHypersparseKernel() {
  return {"spmv-hypersparse",
          "y = A x for a hypersparse A: f32 partial sums per PE, added along each row westward",
          "--n (size, default 1000), --nnz (default n/10 + 1), --fabric WxH (default 4x4)",
          &Run,
          {{"rows", "(nnz,)", "int", "the nonzeros' rows, 0..n-1"},
           {"cols", "(nnz,)", "int", "their columns, 0..n-1 (each (row, column) once)"},
           {"vals", "(nnz,)", "f32", "their values"},
           {"x", "(n,)", "f32", "the vector"}},
          {{"y", "(n,)", "f32", "A x"}}};
}

}  // namespace tessera::kernels
