// GEMM, C = A B, by SUMMA on a P x P grid (docs/kernels.md, "gemm"; device code
// firmware/kernels/gemm/gemm.s). Blocks: MB = ceil(M/P) and NB = ceil(N/P) rounded up to
// multiples of 4, KB = ceil(K/P); the host pads with zeros, so any size runs.
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

struct GemmPlan {
  int p = 1, mb = 0, nb = 0, kb = 0;
  bool f16 = false;
  int Bytes() const {
    const int eb = f16 ? 2 : 4;
    return 8 * mb * nb + 8 * mb * kb + 2 * eb * kb * nb + 64;  // f16 A: 4 bytes per element
  }
};

GemmPlan Plan(const KernelArgs& a) {
  if (a.m < 1 || a.n < 1 || a.k < 1)
    throw std::invalid_argument(
        "--m --n --k: give the sizes of A (m x k) and B (k x n), 1 or more");
  if (a.dtype != "f32" && a.dtype != "f16")
    throw std::invalid_argument(fmt::format("--dtype: gemm runs f32 or f16, not '{}'", a.dtype));
  if (a.fabric_w > 0 && a.fabric_w != a.fabric_h)
    throw std::invalid_argument(
        fmt::format("--fabric {}x{}: SUMMA runs on a square grid (PxP)", a.fabric_w, a.fabric_h));
  auto fit = [&](int p) {
    GemmPlan g;
    g.f16 = a.dtype == "f16";
    g.p = p;
    g.mb = (CeilDiv(a.m, p) + 3) / 4 * 4;
    g.nb = (CeilDiv(a.n, p) + 7) / 8 * 8;
    g.kb = CeilDiv(a.k, p);
    return g;
  };
  GemmPlan g;
  if (a.fabric_w > 0) {
    g = fit(a.fabric_w);
  } else {
    int p = 1;
    while (p < 16 && fit(p).Bytes() > kDataBytes) ++p;
    g = fit(p);
  }
  if (g.Bytes() > kDataBytes) {
    int p = g.p;
    while (p < 4096 && fit(p).Bytes() > kDataBytes) ++p;
    throw std::invalid_argument(fmt::format(
        "--m {} --n {} --k {} {} on {}x{} needs {} bytes per PE (blocks {}x{}, {}x{}, {}x{}), "
        "more than the {} a PE has for data; a {}x{} fabric would do",
        a.m, a.n, a.k, a.dtype, g.p, g.p, g.Bytes(), g.mb, g.kb, g.kb, g.nb, g.mb, g.nb, kDataBytes,
        p, p));
  }
  if (g.mb * g.nb > 0x7FFE || g.mb * g.kb > 0x7FFE || g.kb * g.nb > 0x7FFE)
    throw std::invalid_argument("--m --n --k: a block may have at most 32766 elements");
  return g;
}

std::string Layout(const GemmPlan& g) {
  std::string t = fmt::format(
      "fabric {}x{}\n"
      "region at=0,0 size={}x{} program=gemm.s param P={} param MB={} param NB={} param KB={} "
      "param PX=x param PY=y param F16={}\n",
      g.p, g.p, g.p, g.p, g.p, g.mb, g.nb, g.kb, g.f16 ? 1 : 0);
  if (g.p > 1) {
    // Row and column broadcasts from any root: the root's own wavelets come back to its ramp.
    t += R"(route color=1 at=0..FW-1,0..FH-1 rx=RAMP tx=RAMP,E when=x==0
route color=1 at=0..FW-1,0..FH-1 rx=W,RAMP tx=RAMP,E when=x>0 && x<FW-1
route color=1 at=0..FW-1,0..FH-1 rx=W,RAMP tx=RAMP when=x==FW-1
route color=2 at=0..FW-1,0..FH-1 rx=RAMP tx=RAMP,W when=x==FW-1
route color=2 at=0..FW-1,0..FH-1 rx=E,RAMP tx=RAMP,W when=x>0 && x<FW-1
route color=2 at=0..FW-1,0..FH-1 rx=E,RAMP tx=RAMP when=x==0
route color=3 at=0..FW-1,0..FH-1 rx=RAMP tx=RAMP,S when=y==0
route color=3 at=0..FW-1,0..FH-1 rx=N,RAMP tx=RAMP,S when=y>0 && y<FH-1
route color=3 at=0..FW-1,0..FH-1 rx=N,RAMP tx=RAMP when=y==FH-1
route color=4 at=0..FW-1,0..FH-1 rx=RAMP tx=RAMP,N when=y==FH-1
route color=4 at=0..FW-1,0..FH-1 rx=S,RAMP tx=RAMP,N when=y>0 && y<FH-1
route color=4 at=0..FW-1,0..FH-1 rx=S,RAMP tx=RAMP when=y==0
)";
  }
  return t;
}

KernelResult Run(const KernelArgs& given) {
  KernelArgs args = given;  // the sizes from the user's A and B, if given
  args.m = SizeFrom(given, given.m, "--m", "A", 0, 2);
  args.k = SizeFrom(given, given.k, "--k", "A", 1, 2);
  args.k = SizeFrom(args, args.k, "--k", "B", 0, 2);
  args.n = SizeFrom(given, given.n, "--n", "B", 1, 2);
  const GemmPlan g = Plan(args);
  const int M = args.m, N = args.n, K = args.k, P = g.p, MB = g.mb, NB = g.nb, KB = g.kb;
  std::mt19937_64 rng(args.seed);
  const std::vector<float> af = InputF32(args, "A", {size_t(M), size_t(K)}, rng),
                           bf = InputF32(args, "B", {size_t(K), size_t(N)}, rng);
  std::vector<double> av(af.size()), bv(bf.size());
  std::vector<uint16_t> ah(af.size()), bh(bf.size());
  for (size_t i = 0; i < af.size(); ++i) {
    if (g.f16) ah[i] = F16Bits(af[i]);
    av[i] = g.f16 ? F16Value(ah[i]) : af[i];
  }
  for (size_t i = 0; i < bf.size(); ++i) {
    if (g.f16) bh[i] = F16Bits(bf[i]);
    bv[i] = g.f16 ? F16Value(bh[i]) : bf[i];
  }
  // Per PE (host shape (P, P, n)): A_yx column-major MB x KB, B_yx row-major KB x NB.
  const size_t pes = size_t(P) * P;
  std::vector<float> a32(g.f16 ? 0 : pes * MB * KB, 0.0f), b32(g.f16 ? 0 : pes * KB * NB, 0.0f);
  // f16 A: element e of a PE's block in halfword 2e (the device keeps A 4 bytes per element).
  std::vector<uint16_t> a16(g.f16 ? 2 * pes * MB * KB : 0, 0), b16(g.f16 ? pes * KB * NB : 0, 0);
  for (int y = 0; y < P; ++y)
    for (int x = 0; x < P; ++x) {
      const size_t pe = size_t(y) * P + x;
      for (int k = 0; k < KB; ++k) {
        const int col = x * KB + k;  // A's column, B's row
        for (int i = 0; i < MB && col < K; ++i) {
          const int row = y * MB + i;
          if (row >= M) break;
          const size_t at = pe * MB * KB + size_t(k) * MB + i;
          if (g.f16)
            a16[2 * at] = ah[size_t(row) * K + col];
          else
            a32[at] = af[size_t(row) * K + col];
        }
        const int brow = y * KB + k;
        for (int j = 0; j < NB && brow < K; ++j) {
          const int bcol = x * NB + j;
          if (bcol >= N) break;
          const size_t at = pe * KB * NB + size_t(k) * NB + j;
          if (g.f16)
            b16[at] = bh[size_t(brow) * N + bcol];
          else
            b32[at] = bf[size_t(brow) * N + bcol];
        }
      }
    }
  const layout::Image img = LinkKernel(KernelDir(args, "gemm"), Layout(g));
  runtime::Device dev(DeviceFor(args, P, P));
  dev.Load(img);
  const runtime::Region all{0, 0, P, P};
  runtime::MemcpyOptions o16;
  o16.elem_bits = 16;
  if (g.f16) {
    dev.MemcpyH2D("aown", a16.data(), a16.size(), all, 2 * MB * KB, o16);
    dev.MemcpyH2D("bown", b16.data(), b16.size(), all, KB * NB, o16);
  } else {
    dev.MemcpyH2D("aown", a32.data(), a32.size(), all, MB * KB);
    dev.MemcpyH2D("bown", b32.data(), b32.size(), all, KB * NB);
  }
  KernelResult out;
  out.fabric_w = P;
  out.fabric_h = P;
  out.pes = static_cast<int>(pes);
  out.size = fmt::format("m={} n={} k={}", M, N, K);
  out.useful_ops = uint64_t(M) * N * K;
  const bool ok = RunToEnd(dev, args, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(pes)) : 0.0;
  if (!ok) return out;
  std::vector<float> c(pes * MB * NB);
  dev.MemcpyD2H(c.data(), c.size(), "c", all, MB * NB);
  std::vector<double> ref(size_t(M) * N), got(ref.size()), scale(ref.size());
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        const double t = av[size_t(i) * K + k] * bv[size_t(k) * N + j];
        s += t;
        mag += std::fabs(t);
      }
      const size_t at = size_t(i) * N + j;
      ref[at] = s;
      scale[at] = mag;
      const int y = i / MB, x = j / NB;
      got[at] = c[(size_t(y) * P + x) * MB * NB + size_t(i % MB) * NB + (j % NB)];
    }
  MeasureError(ref, got, scale, 1e-5, out);
  std::vector<float> cv(got.begin(), got.end());
  OutputF32(args, "C", {size_t(M), size_t(N)}, cv);
  return out;
}

}  // namespace

KernelDef GemmKernel() {
  return {"gemm",
          "C = A B by SUMMA on a P x P grid (row and column broadcasts from every root)",
          "--m --n --k (any; padded to the grid), --fabric PxP (default: the smallest square up to "
          "16x16 whose blocks fit), --dtype f32|f16 (f16: A and B in f16, f32 accumulation)",
          &Run,
          {{"A", "(m, k)", "f32", "the left matrix (f16 with --dtype f16: rounded on the host)"},
           {"B", "(k, n)", "f32", "the right matrix"}},
          {{"C", "(m, n)", "f32", "A B"}}};
}

}  // namespace tessera::kernels
