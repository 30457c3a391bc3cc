// Mandelbrot escape counts of an M x N image on a W x H fabric (docs/kernels.md, "mandelbrot";
// device code firmware/kernels/mandelbrot/mandelbrot.s). The image is split into W x H blocks of
// MB x NB pixels (MB = ceil(M/H), NB = ceil(N/W)), padded with c = 0 where the sizes do not
// divide the fabric; every PE iterates z <- z^2 + c over its block with DSD operations. The host
// replays the device's f32 operations in the same order, so every count must match exactly.
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

struct MandelPlan {
  int m = 64, n = 64;  // the image
  int w = 4, h = 4;    // the fabric
  int mb = 0, nb = 0;  // rows and columns of a PE's block
  int np = 0;          // pixels per PE: mb * nb rounded up to a multiple of 8
  int iters = 64;
  int Bytes() const { return 8 * 4 * np + 8 * 16; }  // eight arrays, each 16-aligned and skewed
};

MandelPlan Plan(const KernelArgs& a) {
  MandelPlan p;
  const Board board = CheckBoard(a, "mandelbrot", "image", {p.m, p.n, p.w, p.h});
  p.m = board.m;
  p.n = board.n;
  p.w = board.w;
  p.h = board.h;
  if (a.dtype != "f32")
    throw std::invalid_argument(
        fmt::format("--dtype: mandelbrot iterates in f32, not '{}'", a.dtype));
  p.iters = a.iters > 0 ? a.iters : 64;
  if (a.iters < 0 || p.iters > 100'000)
    throw std::invalid_argument(
        fmt::format("--iters {}: the iterations per pixel may be 1..100000", a.iters));
  p.mb = CeilDiv(p.m, p.h);
  p.nb = CeilDiv(p.n, p.w);
  p.np = (p.mb * p.nb + 7) / 8 * 8;
  if (p.Bytes() > kDataBytes) {
    int s = std::max(p.w, p.h);
    auto bytes = [&](int side) {
      MandelPlan t = p;
      t.np = (CeilDiv(p.m, side) * CeilDiv(p.n, side) + 7) / 8 * 8;
      return t.Bytes();
    };
    while (s < 4096 && bytes(s) > kDataBytes) ++s;
    throw std::invalid_argument(fmt::format(
        "--m {} --n {} on a {}x{} fabric needs {} bytes per PE ({} pixels of 32 bytes), more "
        "than the {} a PE has for data; a {}x{} fabric would do",
        p.m, p.n, p.w, p.h, p.Bytes(), p.np, kDataBytes, s, s));
  }
  return p;
}

// The escape count of one point in the device's order of f32 operations.
uint32_t Escape(float cr, float ci, int iters) {
  float zr = 0.0f, zi = 0.0f;
  uint32_t cnt = 0;
  for (int k = 0; k < iters; ++k) {
    const float zr2 = zr * zr;
    const float zi2 = zi * zi;
    const float t = zr2 + zi2;
    if (t <= 4.0f) ++cnt;  // a NaN compares false, as on the device
    const float p = zr * zi;
    zi = std::fmaf(p, 2.0f, ci);  // fmacs: ci + p * 2, one rounding
    const float d = zr2 - zi2;
    zr = d + cr;
  }
  return cnt;
}

KernelResult Run(const KernelArgs& args) {
  const MandelPlan g = Plan(args);
  const int M = g.m, N = g.n, W = g.w, H = g.h, MB = g.mb, NB = g.nb, NP = g.np;
  // The view: real part -2 .. 0.5, imaginary part 1.25 .. -1.25 (row 0 at the top); each
  // pixel's point is at a random place inside the pixel (the seed), rounded to f32.
  std::mt19937_64 rng(args.seed);
  auto unit = [&] { return static_cast<double>(rng() >> 40) / (1 << 24); };
  std::vector<float> cr(size_t(M) * N), ci(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      cr[size_t(i) * N + j] = static_cast<float>(-2.0 + 2.5 * (j + unit()) / N);
      ci[size_t(i) * N + j] = static_cast<float>(1.25 - 2.5 * (i + unit()) / M);
    }
  // Per PE (host shape (H, W, NP)): the block row-major, then padding (c = 0).
  const size_t pes = size_t(W) * H;
  std::vector<float> pcr(pes * NP, 0.0f), pci(pes * NP, 0.0f);
  auto slot = [&](int i, int j) {
    const int py = i / MB, px = j / NB;
    return (size_t(py) * W + px) * NP + size_t(i % MB) * NB + (j % NB);
  };
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      pcr[slot(i, j)] = cr[size_t(i) * N + j];
      pci[slot(i, j)] = ci[size_t(i) * N + j];
    }

  const std::string layout = fmt::format(
      "fabric {}x{}\nregion at=0,0 size={}x{} program=mandelbrot.s param NP={} param ITERS={}\n", W,
      H, W, H, NP, g.iters);
  const layout::Image img = LinkKernel(KernelDir(args, "mandelbrot"), layout);
  runtime::Device dev(DeviceFor(args, W, H));
  dev.Load(img);
  const runtime::Region all{0, 0, W, H};
  dev.MemcpyH2D("cr", pcr.data(), pcr.size(), all, NP);
  dev.MemcpyH2D("ci", pci.data(), pci.size(), all, NP);

  KernelResult out;
  out.fabric_w = W;
  out.fabric_h = H;
  out.pes = static_cast<int>(pes);
  out.size = fmt::format("m={} n={} iters={}", M, N, g.iters);
  // Eight FMAC operations per pixel and iteration: three multiplies, the fused multiply-add,
  // two adds, a subtraction and the compare (the count's sub32 uses no FMAC slot).
  out.useful_ops = 8ull * M * N * g.iters;
  const bool ok = RunToEnd(dev, args, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(pes)) : 0.0;
  if (!ok) return out;

  std::vector<uint32_t> cnt(pes * NP);
  dev.MemcpyD2H(cnt.data(), cnt.size(), "cnt", all, NP);
  std::vector<uint32_t> image(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) image[size_t(i) * N + j] = cnt[slot(i, j)];
  OutputU32(args, "count", {size_t(M), size_t(N)}, image);
  out.pass = true;
  out.tolerance = 0;
  for (int i = 0; i < M && out.pass; ++i)
    for (int j = 0; j < N; ++j) {
      const size_t k = size_t(i) * N + j;
      const uint32_t want = Escape(cr[k], ci[k], g.iters), got = cnt[slot(i, j)];
      out.max_abs_err = std::max(out.max_abs_err, std::fabs(double(got) - double(want)));
      if (got != want) {
        out.pass = false;
        out.status = "differs";
        out.message = fmt::format(
            "pixel (row {}, column {}) at c = {:.9g} {:+.9g}i, on PE({},{}): count {}; the "
            "device's f32 order gives {}",
            i, j, cr[k], ci[k], j / NB, i / MB, got, want);
        break;
      }
    }
  return out;
}

}  // namespace

KernelDef MandelbrotKernel() {
  return {"mandelbrot",
          "Mandelbrot escape counts of an M x N image, blocks of pixels per PE, z = z^2 + c "
          "over DSD vectors, checked exactly",
          "--m ROWS --n COLS of the image (default 64x64; any, padded to the fabric), --iters "
          "(default 64), "
          "--fabric WxH (default 4x4; at least one pixel row and column per PE)",
          &Run,
          {},
          {{"count", "(m, n)", "u32", "each pixel's escape count"}}};
}

}  // namespace tessera::kernels
