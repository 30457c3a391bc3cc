// 1-D FFT, radix 2, complex f32, across a row of PEs (docs/kernels.md, "fft"; device code
// firmware/kernels/fft/fft.s). Each of the fabric's rows transforms its own N points; PE x holds
// points x*NB .. x*NB + NB - 1. Decimation in frequency: the first log2(Q) stages pair points
// on different PEs (the PEs exchange blocks), the rest are local.
#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

int Log2(int v) {
  int l = 0;
  while ((1 << l) < v) ++l;
  return (1 << l) == v ? l : -1;
}

// One butterfly in the device's f32 order (fft.s): lower a = x + y; upper
// b = (x - y) w = (d_re w_re - d_im w_im, d_re w_im + d_im w_re).
void Butterfly(float& xr, float& xi, float& yr, float& yi, float wr, float wi) {
  const float dr = xr - yr, di = xi - yi;
  xr = xr + yr;
  xi = xi + yi;
  const float p1 = dr * wr, p2 = di * wi, p3 = dr * wi, p4 = di * wr;
  yr = p1 - p2;
  yi = p3 + p4;
}

KernelResult Run(const KernelArgs& a) {
  // The user's rows of points (re and im, shape (rows, n)) give n and the rows (the fabric's
  // height).
  const int n = SizeFrom(a, a.n > 0 ? a.n : (HasInput(a, "re") ? 0 : 1024), "--n", "re", 1, 2);
  int Q = a.fabric_w > 0 ? a.fabric_w : 4, H = a.fabric_w > 0 ? a.fabric_h : 1;
  if (HasInput(a, "re"))
    H = SizeFrom(a, a.fabric_w > 0 ? a.fabric_h : 0, "--fabric (height)", "re", 0, 2);
  const int logq = Log2(Q), logn = Log2(n);
  if (a.dtype != "f32")
    throw std::invalid_argument(fmt::format("--dtype: fft runs complex f32, not '{}'", a.dtype));
  if (logq < 0 || Q > 8)
    throw std::invalid_argument(fmt::format(
        "--fabric {}x{}: a row of 1, 2, 4 or 8 PEs (each cross stage of a wider row would need "
        "more colors than the 24 there are)",
        Q, H));
  if (H < 1 || H > 256)
    throw std::invalid_argument(fmt::format("--fabric {}x{}: 1..256 rows", Q, H));
  if (logn < 0 || n < 2 * Q || n / Q > 512) {
    throw std::invalid_argument(
        fmt::format("--n {}: a power of 2 with 2 to 512 points per PE ({} to {} on a row of {})", n,
                    2 * Q, 512 * Q, Q));
  }
  const int nb = n / Q, lognb = logn - logq;
  std::mt19937_64 rng(a.seed);
  if (HasInput(a, "re") != HasInput(a, "im"))
    throw std::invalid_argument("inputs re and im: give both (the imaginary parts may be zeros)");
  const std::vector<float> re = InputF32(a, "re", {size_t(H), size_t(n)}, rng),
                           im = InputF32(a, "im", {size_t(H), size_t(n)}, rng);
  const double pi = std::acos(-1.0);
  auto twiddle = [&](int m, int len) {
    return std::complex<float>(std::polar(1.0, -2 * pi * m / len));
  };
  // Twiddles per PE: cross stage s (its upper PEs), then local stages (table index nb - 2h).
  std::vector<float> twc_r(size_t(Q) * H * 3 * nb, 0.0f), twc_i(twc_r.size(), 0.0f);
  std::vector<float> twl_r(size_t(Q) * H * nb, 0.0f), twl_i(twl_r.size(), 0.0f);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < Q; ++x) {
      const size_t pe = size_t(y) * Q + x;
      for (int s = 0; s < logq; ++s) {
        const int len = n >> s, h = len / 2;
        for (int t = 0; t < nb; ++t) {
          const int g = x * nb + t;
          if (g % len < h) continue;  // a lower point: no twiddle
          const std::complex<float> w = twiddle(g % len - h, len);
          twc_r[pe * 3 * nb + size_t(s) * nb + t] = w.real();
          twc_i[pe * 3 * nb + size_t(s) * nb + t] = w.imag();
        }
      }
      for (int h = nb / 2; h >= 1; h /= 2)
        for (int m = 0; m < h; ++m) {
          const std::complex<float> w = twiddle(m, 2 * h);
          twl_r[pe * nb + nb - 2 * h + m] = w.real();
          twl_i[pe * nb + nb - 2 * h + m] = w.imag();
        }
    }
  // Colors: cross stage s, pair distance d = Q / 2^(s+1): eastward flows on d colors, westward
  // on d more (flows of one residue x % d never overlap; different residues do).
  std::string params, routes;
  int next = 1;
  for (int s = 0; s < logq; ++s) {
    const int d = Q >> (s + 1), e = next, w = next + d;
    next += 2 * d;
    params += fmt::format(
        " param LOW{s}=x%{dd}<{d} param SND{s}=x%{dd}<{d} ? {e}+x%{d} : {w}+x%{d} "
        "param RCV{s}=x%{dd}<{d} ? {w}+x%{d} : {e}+x%{d}",
        fmt::arg("s", s), fmt::arg("d", d), fmt::arg("dd", 2 * d), fmt::arg("e", e),
        fmt::arg("w", w));
    for (int r = 0; r < d; ++r) {
      routes += fmt::format(
          "route color={c} at=0..FW-1,0..FH-1 rx=RAMP tx=E when=x%{dd}=={r}\n"
          "route color={c} at=0..FW-1,0..FH-1 rx=W tx=E when=x%{dd}>{r} && x%{dd}<{r}+{d}\n"
          "route color={c} at=0..FW-1,0..FH-1 rx=W tx=RAMP when=x%{dd}=={r}+{d}\n"
          "route color={cw} at=0..FW-1,0..FH-1 rx=RAMP tx=W when=x%{dd}=={r}+{d}\n"
          "route color={cw} at=0..FW-1,0..FH-1 rx=E tx=W when=x%{dd}>{r} && x%{dd}<{r}+{d}\n"
          "route color={cw} at=0..FW-1,0..FH-1 rx=E tx=RAMP when=x%{dd}=={r}\n",
          fmt::arg("c", e + r), fmt::arg("cw", w + r), fmt::arg("dd", 2 * d), fmt::arg("r", r),
          fmt::arg("d", d));
    }
  }
  const std::string layout = fmt::format(
                                 "fabric {}x{}\nregion at=0,0 size={}x{} program=fft.s param "
                                 "NB={} param LOGNB={} param LOGQ={}{}\n",
                                 Q, H, Q, H, nb, lognb, logq, params) +
                             routes;
  const layout::Image img = LinkKernel(KernelDir(a, "fft"), layout);
  runtime::Device dev(DeviceFor(a, Q, H));
  dev.Load(img);
  const runtime::Region all{0, 0, Q, H};
  dev.MemcpyH2D("xr", re.data(), re.size(), all, nb);
  dev.MemcpyH2D("xi", im.data(), im.size(), all, nb);
  dev.MemcpyH2D("twc_r", twc_r.data(), twc_r.size(), all, 3 * nb);
  dev.MemcpyH2D("twc_i", twc_i.data(), twc_i.size(), all, 3 * nb);
  dev.MemcpyH2D("twl_r", twl_r.data(), twl_r.size(), all, nb);
  dev.MemcpyH2D("twl_i", twl_i.data(), twl_i.size(), all, nb);

  KernelResult out;
  out.fabric_w = Q;
  out.fabric_h = H;
  out.pes = Q * H;
  out.size = fmt::format("n={} x{}", n, H);
  // Useful floating-point operations of a radix-2 FFT: 5 n log2 n (real adds and multiplies).
  out.useful_ops = uint64_t(5) * n * logn * H;
  const bool ok = RunToEnd(dev, a, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(out.pes)) : 0.0;
  if (!ok) return out;
  std::vector<float> gr(re.size()), gi(im.size());
  dev.MemcpyD2H(gr.data(), gr.size(), "xr", all, nb);
  dev.MemcpyD2H(gi.data(), gi.size(), "xi", all, nb);

  {  // The transforms in natural order: output k holds X[bitrev(k)].
    std::vector<float> xr(gr.size()), xi(gi.size());
    for (int y = 0; y < H; ++y)
      for (int k = 0; k < n; ++k) {
        int f = 0;
        for (int b = 0; b < logn; ++b) f |= ((k >> b) & 1) << (logn - 1 - b);
        xr[size_t(y) * n + f] = gr[size_t(y) * n + k];
        xi[size_t(y) * n + f] = gi[size_t(y) * n + k];
      }
    OutputF32(a, "re", {size_t(H), size_t(n)}, xr);
    OutputF32(a, "im", {size_t(H), size_t(n)}, xi);
  }
  out.pass = true;
  double max_mag = 0;
  for (int y = 0; y < H; ++y) {
    // The device's order in f32 (bit for bit), and the exact DFT in double.
    std::vector<float> r(re.begin() + size_t(y) * n, re.begin() + size_t(y + 1) * n),
        i(im.begin() + size_t(y) * n, im.begin() + size_t(y + 1) * n);
    for (int len = n; len >= 2; len /= 2) {
      const int h = len / 2;
      for (int base = 0; base < n; base += len)
        for (int m = 0; m < h; ++m) {
          const std::complex<float> w = twiddle(m, len);
          Butterfly(r[base + m], i[base + m], r[base + m + h], i[base + m + h], w.real(), w.imag());
        }
    }
    for (int k = 0; k < n && out.pass; ++k) {
      const size_t at = size_t(y) * n + k;
      if (std::memcmp(&gr[at], &r[k], 4) != 0 || std::memcmp(&gi[at], &i[k], 4) != 0) {
        out.pass = false;
        out.status = "differs";
        out.message = fmt::format(
            "row {} output {} (bit-reversed) is ({}, {}); in the device's order it is ({}, {})", y,
            k, gr[at], gi[at], r[k], i[k]);
      }
    }
    for (int k = 0; k < n; ++k) {  // output k holds X[bitrev(k)]
      int f = 0;
      for (int b = 0; b < logn; ++b) f |= ((k >> b) & 1) << (logn - 1 - b);
      std::complex<double> X = 0;
      for (int t = 0; t < n; ++t)
        X += std::complex<double>(re[size_t(y) * n + t], im[size_t(y) * n + t]) *
             std::polar(1.0, -2 * pi * double(f) * t / n);
      const size_t at = size_t(y) * n + k;
      out.max_abs_err =
          std::max(out.max_abs_err, std::abs(std::complex<double>(gr[at], gi[at]) - X));
      max_mag = std::max(max_mag, std::abs(X));
    }
  }
  // The error against the exact DFT, relative to the largest output: f32 rounding grows like
  // log2(n); 1e-6 per stage is the bound.
  out.max_rel_err = max_mag > 0 ? out.max_abs_err / max_mag : 0;
  out.tolerance = 1e-6 * logn;
  if (out.pass && !(out.max_rel_err <= out.tolerance)) {
    out.pass = false;
    out.status = "above tolerance";
    out.message = fmt::format("error {:.3g} of the largest output, above {:.3g}", out.max_rel_err,
                              out.tolerance);
  }
  return out;
}

}  // namespace

KernelDef FftKernel() {
  return {
      "fft",
      "1-D radix-2 FFT of complex f32 across a row of PEs (each row its own transform)",
      "--n points per row (a power of 2, 2..512 per PE; default 1024), --fabric QxH (Q = 1, 2, 4 "
      "or 8 PEs per row, H rows; default 4x1)",
      &Run,
      {{"re", "(rows, n)", "f32", "real parts, a transform per row (rows = the fabric's height)"},
       {"im", "(rows, n)", "f32", "imaginary parts"}},
      {{"re", "(rows, n)", "f32", "real parts of each row's DFT, in natural order"},
       {"im", "(rows, n)", "f32", "imaginary parts"}}};
}

}  // namespace tessera::kernels
