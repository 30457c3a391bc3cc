// GEMV, y = A x + b, on a P x Q grid (docs/kernels.md, "gemv"; device code
// firmware/kernels/gemv/gemv.s). A is split into P x Q blocks of MB x NB (MB = ceil(M/P) rounded
// up to a multiple of 4, NB = ceil(N/Q)); sizes that do not divide the grid are padded with zeros
// on the host. Partial sums flow west along each row; y comes out of column 0.
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

constexpr int kColor0 = 1, kColor1 = 2;  // partial sums leaving even / odd columns westward

// Rows and columns of one PE's block, and the bytes it needs.
struct GemvPlan {
  int p = 1, q = 1, mb = 0, nb = 0;
  bool f16 = false;
  int Bytes() const { return 12 * mb + (f16 ? 2 : 4) * (mb * nb + nb) + 8; }
};

GemvPlan Plan(const KernelArgs& a) {
  if (a.m < 1 || a.m > 1'000'000) throw std::invalid_argument("--m: give the rows of A, 1 or more");
  if (a.n < 1 || a.n > 1'000'000)
    throw std::invalid_argument("--n: give the columns of A, 1 or more");
  if (a.dtype != "f32" && a.dtype != "f16")
    throw std::invalid_argument(fmt::format("--dtype: gemv runs f32 or f16, not '{}'", a.dtype));
  GemvPlan g;
  g.f16 = a.dtype == "f16";
  // By default the smallest square fabric (up to 16x16) whose blocks fit.
  int side = 1;
  auto fit = [&](int p, int q) {
    GemvPlan t = g;
    t.p = p;
    t.q = q;
    t.mb = (CeilDiv(a.m, p) + 3) / 4 * 4;
    t.nb = CeilDiv(a.n, q);
    return t;
  };
  if (a.fabric_w > 0) {
    g = fit(a.fabric_h, a.fabric_w);
  } else {
    while (side < 16 && fit(side, side).Bytes() > kDataBytes) ++side;
    g = fit(std::min(side, a.m), std::min(side, a.n));
  }
  if (g.Bytes() > kDataBytes) {
    int s = std::max(g.p, g.q);
    while (s < 4096 && fit(s, s).Bytes() > kDataBytes) ++s;
    throw std::invalid_argument(fmt::format(
        "--m {} --n {} {} on a {}x{} fabric needs {} bytes per PE (a {}x{} block of A), more "
        "than the {} a PE has for data; a {}x{} fabric would do",
        a.m, a.n, a.dtype, g.q, g.p, g.Bytes(), g.mb, g.nb, kDataBytes, s, s));
  }
  if (g.p > a.m || g.q > a.n) {
    throw std::invalid_argument(fmt::format(
        "--fabric {}x{}: gemv needs at least one row of A per PE row and one column per PE "
        "column (--m {} --n {})",
        g.q, g.p, a.m, a.n));
  }
  return g;
}

std::string Layout(const GemvPlan& g) {
  std::string t =
      fmt::format("fabric {}x{}\nlet C0 = {}\nlet C1 = {}\n", g.q, g.p, kColor0, kColor1);
  t += fmt::format(
      "region at=0,0 size={}x{} program=gemv.s param MB={} param NB={} param F16={} \\\n"
      "  param ROLE=FW==1 ? 0 : x==0 ? 1 : x==FW-1 ? 3 : 2 \\\n"
      "  param CIN=(x+1)%2==0 ? C0 : C1 param COUT=x%2==0 ? C0 : C1\n",
      g.q, g.p, g.mb, g.nb, g.f16 ? 1 : 0);
  if (g.q > 1) {  // each PE but the west end sends west; each but the east end receives
    t += "route color=C0 at=1..FW-1,0..FH-1 rx=RAMP tx=W when=x%2==0\n";
    t += "route color=C1 at=1..FW-1,0..FH-1 rx=RAMP tx=W when=x%2==1\n";
    t += "route color=C1 at=0..FW-2,0..FH-1 rx=E tx=RAMP when=x%2==0\n";
    t += "route color=C0 at=0..FW-2,0..FH-1 rx=E tx=RAMP when=x%2==1\n";
  }
  return t;
}

KernelResult Run(const KernelArgs& given) {
  // The sizes from the user's A, if given.
  KernelArgs args = given;
  args.m = SizeFrom(given, given.m, "--m", "A", 0, 2);
  args.n = SizeFrom(given, given.n, "--n", "A", 1, 2);
  const GemvPlan g = Plan(args);
  const int M = args.m, N = args.n, P = g.p, Q = g.q, MB = g.mb, NB = g.nb;
  std::mt19937_64 rng(args.seed);
  // The problem, as the device sees it (f16: the values rounded to f16).
  std::vector<float> af = InputF32(args, "A", {size_t(M), size_t(N)}, rng),
                     xf = InputF32(args, "x", {size_t(N)}, rng),
                     bf = InputF32(args, "b", {size_t(M)}, rng);
  std::vector<double> av(af.size()), xv(N);
  std::vector<uint16_t> ah(af.size()), xh(N);
  for (size_t i = 0; i < af.size(); ++i) {
    if (g.f16) ah[i] = F16Bits(af[i]);
    av[i] = g.f16 ? F16Value(ah[i]) : af[i];
  }
  for (int j = 0; j < N; ++j) {
    if (g.f16) xh[j] = F16Bits(xf[j]);
    xv[j] = g.f16 ? F16Value(xh[j]) : xf[j];
  }
  // Per-PE arrays, host shape (P, Q, n) row-major: blocks column-major, padded with zeros.
  const size_t pes = size_t(P) * Q;
  std::vector<float> a32(g.f16 ? 0 : pes * MB * NB, 0.0f), x32(g.f16 ? 0 : pes * NB, 0.0f);
  std::vector<uint16_t> a16(g.f16 ? pes * MB * NB : 0, 0), x16(g.f16 ? pes * NB : 0, 0);
  std::vector<float> b32(size_t(P) * MB, 0.0f);  // column 0 only
  for (int py = 0; py < P; ++py) {
    for (int px = 0; px < Q; ++px) {
      const size_t pe = size_t(py) * Q + px;
      for (int j = 0; j < NB; ++j) {
        const int col = px * NB + j;
        if (col >= N) continue;
        if (g.f16)
          x16[pe * NB + j] = xh[col];
        else
          x32[pe * NB + j] = xf[col];
        for (int i = 0; i < MB; ++i) {
          const int row = py * MB + i;
          if (row >= M) continue;
          const size_t at = pe * MB * NB + size_t(j) * MB + i;
          if (g.f16)
            a16[at] = ah[size_t(row) * N + col];
          else
            a32[at] = af[size_t(row) * N + col];
        }
      }
    }
    for (int i = 0; i < MB && py * MB + i < M; ++i) b32[size_t(py) * MB + i] = bf[py * MB + i];
  }

  const layout::Image img = LinkKernel(KernelDir(args, "gemv"), Layout(g));
  runtime::Device dev(DeviceFor(args, Q, P));
  dev.Load(img);
  runtime::MemcpyOptions o16;
  o16.elem_bits = 16;
  const runtime::Region all{0, 0, Q, P};
  if (g.f16) {
    dev.MemcpyH2D("a", a16.data(), a16.size(), all, MB * NB, o16);
    dev.MemcpyH2D("x", x16.data(), x16.size(), all, NB, o16);
  } else {
    dev.MemcpyH2D("a", a32.data(), a32.size(), all, MB * NB);
    dev.MemcpyH2D("x", x32.data(), x32.size(), all, NB);
  }
  const runtime::Region west{0, 0, 1, P};
  dev.MemcpyH2D("b", b32.data(), b32.size(), west, MB);

  KernelResult out;
  out.fabric_w = Q;
  out.fabric_h = P;
  out.pes = static_cast<int>(pes);
  out.size = fmt::format("m={} n={}", M, N);
  out.useful_ops = uint64_t(M) * N;
  const bool ok = RunToEnd(dev, args, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(pes)) : 0.0;
  if (!ok) return out;

  std::vector<float> y(size_t(P) * MB);
  dev.MemcpyD2H(y.data(), y.size(), "y0", west, MB);
  std::vector<double> ref(M), got(M), scale(M);
  for (int i = 0; i < M; ++i) {
    double s = bf[i], mag = std::fabs(bf[i]);
    for (int j = 0; j < N; ++j) {
      s += av[size_t(i) * N + j] * xv[j];
      mag += std::fabs(av[size_t(i) * N + j] * xv[j]);
    }
    ref[i] = s;
    scale[i] = mag;
    got[i] = y[size_t(i / MB) * MB + i % MB];
  }
  // f32 accumulation of n products (exact in f16, rounded once in f32): well inside 1e-5 of the
  // magnitude for the sizes PE memory allows (docs/kernels.md).
  MeasureError(ref, got, scale, 1e-5, out);
  std::vector<float> yv(static_cast<size_t>(M));
  for (int i = 0; i < M; ++i) yv[size_t(i)] = static_cast<float>(got[size_t(i)]);
  OutputF32(args, "y", {size_t(M)}, yv);
  return out;
}

}  // namespace

KernelDef GemvKernel() {
  return {"gemv",
          "y = A x + b, A split over a P x Q grid, partial sums reduced along rows",
          "--m ROWS --n COLS (1..; padded to the grid), --fabric QxP (default: the smallest "
          "square up to 16x16 whose blocks fit), --dtype f32|f16 (f16: A and x in f16, f32 "
          "accumulation)",
          &Run,
          {{"A", "(m, n)", "f32", "the matrix (f16 with --dtype f16: rounded on the host)"},
           {"x", "(n,)", "f32", "the vector"},
           {"b", "(m,)", "f32", "added to A x"}},
          {{"y", "(m,)", "f32", "A x + b"}}};
}

}  // namespace tessera::kernels
