// The 7-point stencil kernels (docs/kernels.md, "stencil-spmv", "cg", "power"; device code
// firmware/kernels/stencil/stencil.s): an nx x ny x nz grid on nx x ny PEs, z in PE memory,
// the Dirichlet operator A u = 6 u - (the six neighbours' u).
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

enum Kind { kSpmv = 0, kCg = 1, kPower = 2 };

struct Grid {
  int nx, ny, nz;
  size_t At(int x, int y, int z) const { return (size_t(y) * nx + x) * nz + z; }  // host (ny,nx,nz)
  size_t Size() const { return size_t(nx) * ny * nz; }
};

Grid Plan(const KernelArgs& a) {
  Grid g{a.nx > 0 ? a.nx : 4, a.ny > 0 ? a.ny : 4, a.nz > 0 ? a.nz : 32};
  if (g.nx < 1 || g.ny < 1 || g.nx > 256 || g.ny > 256)
    throw std::invalid_argument(
        fmt::format("--nx {} --ny {}: one PE per (x, y), 1..256 each way", g.nx, g.ny));
  const int bytes = 5 * 4 * g.nz + 64;
  if (g.nz < 1 || bytes > kDataBytes) {
    throw std::invalid_argument(fmt::format(
        "--nz {}: a PE holds five columns of nz f32 values ({} bytes for nz = {}); nz may be "
        "1..{}",
        g.nz, bytes, g.nz, (kDataBytes - 64) / 20));
  }
  if (a.dtype != "f32")
    throw std::invalid_argument(
        fmt::format("--dtype: the stencil kernels run f32, not '{}'", a.dtype));
  if (a.fabric_w > 0 && (a.fabric_w != g.nx || a.fabric_h != g.ny)) {
    throw std::invalid_argument(fmt::format(
        "--fabric {}x{}: the stencil kernels put one (x, y) column on each PE, so the fabric is "
        "--nx x --ny ({}x{})",
        a.fabric_w, a.fabric_h, g.nx, g.ny));
  }
  return g;
}

std::string Layout(const Grid& g, Kind kind, int iters, float tol2) {
  return fmt::format("fabric {}x{}\n", g.nx, g.ny) + HaloLets() +
         fmt::format(
             "region at=0,0 size={}x{} program=stencil.s,../../lib/collectives.s \\\n"
             "  param NZ={} param KIND={} param ITERS={} param TOL2={} \\\n  ",
             g.nx, g.ny, g.nz, int(kind), iters, F32Bits(tol2)) +
         HaloParams() + "\ninclude ../../lib/collectives.tlayout\n" + HaloRoutes();
}

// A u in double.
std::vector<double> Apply(const Grid& g, const std::vector<double>& u) {
  std::vector<double> q(g.Size());
  for (int y = 0; y < g.ny; ++y)
    for (int x = 0; x < g.nx; ++x)
      for (int z = 0; z < g.nz; ++z) {
        double s = 6 * u[g.At(x, y, z)];
        if (z > 0) s -= u[g.At(x, y, z - 1)];
        if (z < g.nz - 1) s -= u[g.At(x, y, z + 1)];
        if (x > 0) s -= u[g.At(x - 1, y, z)];
        if (x < g.nx - 1) s -= u[g.At(x + 1, y, z)];
        if (y > 0) s -= u[g.At(x, y - 1, z)];
        if (y < g.ny - 1) s -= u[g.At(x, y + 1, z)];
        q[g.At(x, y, z)] = s;
      }
  return q;
}

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

KernelResult Run(const KernelArgs& given, Kind kind) {
  // The grid from the user's p (stencil-spmv) or b (cg, power): shape (ny, nx, nz).
  const char* in_name = kind == kSpmv ? "p" : "b";
  KernelArgs a = given;
  a.ny = SizeFrom(given, given.ny, "--ny", in_name, 0, 3);
  a.nx = SizeFrom(given, given.nx, "--nx", in_name, 1, 3);
  a.nz = SizeFrom(given, given.nz, "--nz", in_name, 2, 3);
  const Grid g = Plan(a);
  const int iters = a.iters > 0 ? a.iters : kind == kPower ? 50 : 1000;
  const double tol = a.tol > 0 ? a.tol : 1e-4;
  if (kind == kCg && (tol < 1e-7 || tol >= 1))
    throw std::invalid_argument(
        fmt::format("--tol {}: between 1e-7 (f32 cannot do better) and 1", tol));
  std::mt19937_64 rng(a.seed);
  const std::vector<float> bf =
      InputF32(a, in_name, {size_t(g.ny), size_t(g.nx), size_t(g.nz)}, rng);
  const layout::Image img =
      LinkKernel(KernelDir(a, "stencil"), Layout(g, kind, iters, static_cast<float>(tol * tol)));
  runtime::Device dev(DeviceFor(a, g.nx, g.ny));
  dev.Load(img);
  const runtime::Region all{0, 0, g.nx, g.ny};
  dev.MemcpyH2D(kind == kSpmv ? "p" : "b", bf.data(), bf.size(), all, g.nz);

  KernelResult out;
  out.fabric_w = g.nx;
  out.fabric_h = g.ny;
  out.pes = g.nx * g.ny;
  out.size = fmt::format("{}x{}x{}", g.nx, g.ny, g.nz);
  const bool ok = RunToEnd(dev, a, "main", out);
  uint32_t done_iters = 0;
  float result = 0;
  if (ok && kind != kSpmv) {
    std::vector<uint32_t> it(out.pes);
    std::vector<float> res(out.pes);
    dev.MemcpyD2H(it.data(), it.size(), "iters", all, 1);
    dev.MemcpyD2H(res.data(), res.size(), "result", all, 1);
    done_iters = it[0];
    result = res[0];
    for (int k = 1; k < out.pes; ++k) {
      if (it[k] != it[0] || F32Bits(res[k]) != F32Bits(res[0])) {
        out.status = "differs";
        out.message = fmt::format(
            "PE({},{}) took {} iterations to {}, PE(0,0) {} to {}: the allreduces must agree",
            k % g.nx, k / g.nx, it[k], res[k], it[0], res[0]);
        return out;
      }
    }
  }
  // Useful multiply-adds: 7 per point per operator application, 2 per point per dot product and
  // per axpy.
  const uint64_t pts = g.Size();
  out.useful_ops = kind == kSpmv ? 7 * pts
                   : kind == kCg ? uint64_t(done_iters) * (7 + 2 + 2 + 2 + 2 + 2) * pts
                                 : uint64_t(done_iters) * (7 + 2 + 2 + 1) * pts;
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(out.pes)) : 0.0;
  if (!ok) return out;

  if (kind == kSpmv) {
    // The device's order in f32: 6 p, less z-1, z+1, W, E, N, S: bit for bit.
    std::vector<float> q(pts);
    dev.MemcpyD2H(q.data(), q.size(), "q", all, g.nz);
    OutputF32(a, "q", {size_t(g.ny), size_t(g.nx), size_t(g.nz)}, q);
    auto P = [&](int x, int y, int z) { return bf[g.At(x, y, z)]; };
    out.pass = true;
    for (int y = 0; y < g.ny && out.pass; ++y)
      for (int x = 0; x < g.nx && out.pass; ++x)
        for (int z = 0; z < g.nz; ++z) {
          float s = 6.0f * P(x, y, z);
          if (z > 0) s -= P(x, y, z - 1);
          if (z < g.nz - 1) s -= P(x, y, z + 1);
          if (x > 0) s -= P(x - 1, y, z);
          if (x < g.nx - 1) s -= P(x + 1, y, z);
          if (y > 0) s -= P(x, y - 1, z);
          if (y < g.ny - 1) s -= P(x, y + 1, z);
          const float got = q[g.At(x, y, z)];
          out.max_abs_err = std::max(out.max_abs_err, double(std::fabs(got - s)));
          if (F32Bits(got) != F32Bits(s)) {
            out.pass = false;
            out.status = "differs";
            out.message = fmt::format("q at ({}, {}, {}) is {}; in the device's order it is {}", x,
                                      y, z, got, s);
            break;
          }
        }
    return out;
  }

  std::vector<double> b(pts);
  for (size_t i = 0; i < pts; ++i) b[i] = bf[i];
  if (kind == kCg) {
    // Host CG in double, same start and test: its iteration count is the yardstick.
    std::vector<double> x(pts, 0.0), r = b, p = b;
    double rr = Dot(r, r);
    const double thr = tol * tol * rr;
    int host_iters = 0;
    while (host_iters < iters) {
      const std::vector<double> q = Apply(g, p);
      const double alpha = rr / Dot(p, q);
      for (size_t i = 0; i < pts; ++i) {
        x[i] += alpha * p[i];
        r[i] -= alpha * q[i];
      }
      const double rn = Dot(r, r);
      ++host_iters;
      if (rn <= thr) break;
      for (size_t i = 0; i < pts; ++i) p[i] = r[i] + rn / rr * p[i];
      rr = rn;
    }
    // The device's solution: its true residual, and its distance from the host's.
    std::vector<float> xf(pts);
    dev.MemcpyD2H(xf.data(), xf.size(), "x", all, g.nz);
    OutputF32(a, "x", {size_t(g.ny), size_t(g.nx), size_t(g.nz)}, xf);
    std::vector<double> xd(xf.begin(), xf.end());
    const std::vector<double> ax = Apply(g, xd);
    double res2 = 0, err2 = 0, ref2 = 0;
    for (size_t i = 0; i < pts; ++i) {
      res2 += (b[i] - ax[i]) * (b[i] - ax[i]);
      err2 += (xd[i] - x[i]) * (xd[i] - x[i]);
      ref2 += x[i] * x[i];
    }
    const double true_res = std::sqrt(res2 / Dot(b, b));
    // f32 CG: the recurrence reaches the tolerance; the true residual may lag it by the
    // rounding of about cond(A) * 2^-24 per step, so it must be within 4 x the tolerance.
    const int margin = std::max(3, host_iters / 10);
    out.tolerance = 4 * tol;
    out.max_rel_err = true_res;
    out.max_abs_err = std::sqrt(err2 / std::max(ref2, 1e-300));
    out.size += fmt::format(" iters={} (double: {})", done_iters, host_iters);
    out.pass = true;
    if (int(done_iters) > host_iters + margin || done_iters >= uint32_t(iters)) {
      out.pass = false;
      out.status = "too many iterations";
      out.message = fmt::format(
          "CG took {} iterations; double precision takes {}, and the margin is {} (limit {})",
          done_iters, host_iters, margin, iters);
    } else if (!(true_res <= out.tolerance)) {
      out.pass = false;
      out.status = "above tolerance";
      out.message = fmt::format("|b - A x| / |b| = {:.3g}, above {:.3g} (the recurrence's {:.3g})",
                                true_res, out.tolerance, std::sqrt(double(result) / Dot(b, b)));
    }
    return out;
  }
  // Power method in double from the same start, the same number of steps.
  std::vector<double> v = b;
  double nb = std::sqrt(Dot(v, v)), lambda = 0;
  for (double& e : v) e /= nb;
  for (uint32_t k = 0; k < done_iters; ++k) {
    const std::vector<double> q = Apply(g, v);
    lambda = Dot(v, q);
    const double nq = std::sqrt(Dot(q, q));
    for (size_t i = 0; i < pts; ++i) v[i] = q[i] / nq;
  }
  const double pi = std::acos(-1.0);
  const double lmax = 6 + 2 * std::cos(pi / (g.nx + 1)) + 2 * std::cos(pi / (g.ny + 1)) +
                      2 * std::cos(pi / (g.nz + 1));
  OutputF32(a, "lambda", {1}, {result});
  out.tolerance = 1e-5;
  out.max_abs_err = std::fabs(result - lambda);
  out.max_rel_err = out.max_abs_err / std::fabs(lambda);
  out.size += fmt::format(" iters={} lambda={:.7g} (double {:.7g}, exact max {:.7g})", done_iters,
                          result, lambda, lmax);
  out.pass = out.max_rel_err <= out.tolerance;
  if (!out.pass) {
    out.status = "above tolerance";
    out.message = fmt::format("lambda {} after {} steps; double precision gives {}", result,
                              done_iters, lambda);
  }
  return out;
}

KernelResult Spmv(const KernelArgs& a) { return Run(a, kSpmv); }
KernelResult Cg(const KernelArgs& a) { return Run(a, kCg); }
KernelResult Power(const KernelArgs& a) { return Run(a, kPower); }

}  // namespace

std::vector<KernelDef> StencilKernels() {
  return {
      {"stencil-spmv",
       "q = A p for the 7-point Laplacian on nx x ny x nz (z in PE memory)",
       "--nx --ny (the fabric) --nz (default 4x4x32; nz up to 2,300)",
       &Spmv,
       {{"p", "(ny, nx, nz)", "f32", "the grid function (ny x nx is the fabric)"}},
       {{"q", "(ny, nx, nz)", "f32", "A p"}}},
      {"cg",
       "conjugate gradient for A x = b on the stencil, dot products by grid allreduce",
       "--nx --ny --nz, --tol (relative residual, default 1e-4), --iters (limit, default 1000)",
       &Cg,
       {{"b", "(ny, nx, nz)", "f32", "the right-hand side"}},
       {{"x", "(ny, nx, nz)", "f32", "the solution"}}},
      {"power",
       "power method for A's largest eigenvalue",
       "--nx --ny --nz, --iters (default 50)",
       &Power,
       {{"b", "(ny, nx, nz)", "f32", "the starting vector"}},
       {{"lambda", "(1,)", "f32", "the eigenvalue estimate"}}},
  };
}

}  // namespace tessera::kernels
