// 2-D heat equation, explicit finite differences, many steps with halo exchange (docs/kernels.md,
// "heat2d"; device code firmware/kernels/heat2d/heat2d.s). An nx x ny grid on a W x H fabric in
// blocks (the first nx % W columns of PEs one point wider, the same for rows), u = 0 outside.
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

constexpr float kR = 0.2f;  // u += R * laplacian; stable for R <= 1/4

KernelResult Run(const KernelArgs& a) {
  // The grid's size from the user's initial u, if given (shape (ny, nx)).
  const int nx = SizeFrom(a, a.nx > 0 ? a.nx : (HasInput(a, "u") ? 0 : 64), "--nx", "u", 1, 2);
  const int ny = SizeFrom(a, a.ny > 0 ? a.ny : (HasInput(a, "u") ? 0 : 64), "--ny", "u", 0, 2);
  const int W = a.fabric_w > 0 ? a.fabric_w : 4, H = a.fabric_w > 0 ? a.fabric_h : 4;
  const int steps = a.iters > 0 ? a.iters : 100;
  if (a.dtype != "f32")
    throw std::invalid_argument(fmt::format("--dtype: heat2d runs f32, not '{}'", a.dtype));
  if (W < 1 || H < 1 || W > 256 || H > 256)
    throw std::invalid_argument(fmt::format("--fabric {}x{}: 1x1 up to 256x256", W, H));
  if (nx < W || ny < H) {
    throw std::invalid_argument(fmt::format(
        "--nx {} --ny {} on {}x{}: every PE needs at least one point each way", nx, ny, W, H));
  }
  const int bxm = CeilDiv(nx, W), bym = CeilDiv(ny, H);
  const int bytes = 4 * ((bxm + 2) * (bym + 2) + bxm * bym) + 64;
  if (bytes > kDataBytes) {
    int s = std::max(W, H);
    while (4 * ((CeilDiv(nx, s) + 2) * (CeilDiv(ny, s) + 2) + CeilDiv(nx, s) * CeilDiv(ny, s)) +
               64 >
           kDataBytes)
      ++s;
    throw std::invalid_argument(fmt::format(
        "--nx {} --ny {} on {}x{} needs {} bytes per PE (a {}x{} block and its halo), more than "
        "the {} a PE has for data; a {}x{} fabric would do",
        nx, ny, W, H, bytes, bxm, bym, kDataBytes, s, s));
  }
  if (steps > 1'000'000) throw std::invalid_argument("--iters: at most 1000000 steps");
  // Block of PE column x: columns [x0(x), x0(x) + bx(x)).
  auto bx = [&](int x) { return nx / W + (x < nx % W ? 1 : 0); };
  auto by = [&](int y) { return ny / H + (y < ny % H ? 1 : 0); };
  auto x0 = [&](int x) { return x * (nx / W) + std::min(x, nx % W); };
  auto y0 = [&](int y) { return y * (ny / H) + std::min(y, ny % H); };

  std::mt19937_64 rng(a.seed);
  std::vector<float> u0 = InputF32(a, "u", {size_t(ny), size_t(nx)}, rng);  // row-major (ny, nx)
  if (!HasInput(a, "u"))
    for (float& f : u0) f = 0.5f * (f + 1.0f);  // in [0, 1)
  const int pitch = bxm + 2, arr = pitch * (bym + 2);
  std::vector<float> host(size_t(W) * H * arr, 0.0f);  // per PE: its array, halo zero
  for (int py = 0; py < H; ++py)
    for (int px = 0; px < W; ++px)
      for (int j = 0; j < by(py); ++j)
        for (int i = 0; i < bx(px); ++i)
          host[(size_t(py) * W + px) * arr + size_t(j + 1) * pitch + (i + 1)] =
              u0[size_t(y0(py) + j) * nx + x0(px) + i];
  const uint32_t rbits = F32Bits(kR);
  const std::string layout =
      fmt::format("fabric {}x{}\n", W, H) + HaloLets() +
      fmt::format(
          "region at=0,0 size={}x{} program=heat2d.s \\\n"
          "  param BX={}/FW+(x<{}%FW) param BY={}/FH+(y<{}%FH) param BXM={} param BYM={} "
          "param STEPS={} param R={} \\\n  ",
          W, H, nx, nx, ny, ny, bxm, bym, steps, rbits) +
      HaloParams() + "\n" + HaloRoutes();
  const layout::Image img = LinkKernel(KernelDir(a, "heat2d"), layout);
  runtime::Device dev(DeviceFor(a, W, H));
  dev.Load(img);
  const runtime::Region all{0, 0, W, H};
  dev.MemcpyH2D("u", host.data(), host.size(), all, arr);

  KernelResult out;
  out.fabric_w = W;
  out.fabric_h = H;
  out.pes = W * H;
  out.size = fmt::format("{}x{} steps={}", nx, ny, steps);
  out.useful_ops = uint64_t(nx) * ny * steps * 5;  // 3 adds and 2 multiply-adds per point
  const bool ok = RunToEnd(dev, a, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(out.pes)) : 0.0;
  if (!ok) return out;
  std::vector<float> got(host.size());
  dev.MemcpyD2H(got.data(), got.size(), "u", all, arr);

  // The host replays the device's f32 operations in its order: bit for bit.
  std::vector<float> u = u0, t(u.size());
  auto at = [&](const std::vector<float>& v, int x, int y) -> float {
    return x < 0 || y < 0 || x >= nx || y >= ny ? 0.0f : v[size_t(y) * nx + x];
  };
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        float v = at(u, x - 1, y) + at(u, x + 1, y);
        v = v + at(u, x, y - 1);
        v = v + at(u, x, y + 1);
        t[size_t(y) * nx + x] = std::fmaf(at(u, x, y), -4.0f, v);
      }
    for (size_t i = 0; i < u.size(); ++i) u[i] = std::fmaf(t[i], kR, u[i]);
  }
  out.pass = true;
  out.tolerance = 0;
  std::vector<float> result(size_t(nx) * ny);
  for (int py = 0; py < H; ++py)
    for (int px = 0; px < W; ++px)
      for (int j = 0; j < by(py); ++j)
        for (int i = 0; i < bx(px); ++i)
          result[size_t(y0(py) + j) * nx + x0(px) + i] =
              got[(size_t(py) * W + px) * arr + size_t(j + 1) * pitch + (i + 1)];
  OutputF32(a, "u", {size_t(ny), size_t(nx)}, result);
  for (int py = 0; py < H && out.pass; ++py)
    for (int px = 0; px < W && out.pass; ++px)
      for (int j = 0; j < by(py) && out.pass; ++j)
        for (int i = 0; i < bx(px); ++i) {
          const float g = got[(size_t(py) * W + px) * arr + size_t(j + 1) * pitch + (i + 1)];
          const float w = u[size_t(y0(py) + j) * nx + x0(px) + i];
          out.max_abs_err = std::max(out.max_abs_err, double(std::fabs(g - w)));
          if (std::memcmp(&g, &w, 4) != 0) {
            out.pass = false;
            out.status = "differs";
            out.message = fmt::format(
                "u at ({}, {}) is {} after {} steps; in the device's order "
                "it is {}",
                x0(px) + i, y0(py) + j, g, steps, w);
            break;
          }
        }
  return out;
}

}  // namespace

KernelDef Heat2dKernel() {
  return {"heat2d",
          "2-D heat equation, explicit, many steps with halo exchange",
          "--nx --ny (grid, default 64x64), --fabric WxH (default 4x4; any block sizes), --iters "
          "steps (default 100)",
          &Run,
          {{"u", "(ny, nx)", "f32", "the initial temperatures (default: random in [0, 1))"}},
          {{"u", "(ny, nx)", "f32", "the temperatures after the steps"}}};
}

}  // namespace tessera::kernels
