// Broadcast, reduce and allreduce of N f32 values per PE along rows, columns or the whole grid
// (docs/kernels.md; the library firmware/lib/collectives.s, its routes
// firmware/lib/collectives.tlayout, the kernel firmware/kernels/collectives/coll.s). The host
// replays the library's documented order in f32, so every PE's values must match bit for bit.
#include <fmt/format.h>

#include <cstring>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

enum Kind { kBcast = 0, kReduce = 1, kAllreduce = 2 };

float Combine(bool max, float a, float b) { return max ? (a > b ? a : b) : a + b; }

KernelResult Run(const KernelArgs& a, Kind kind) {
  const char* names[] = {"broadcast", "reduce", "allreduce"};
  // The user's values, shape (h, w, n), give the fabric and the values per PE.
  const bool given = HasInput(a, "v");
  const int W = given ? SizeFrom(a, a.fabric_w > 0 ? a.fabric_w : 0, "--fabric (width)", "v", 1, 3)
                      : (a.fabric_w > 0 ? a.fabric_w : 4);
  const int H = given ? SizeFrom(a, a.fabric_w > 0 ? a.fabric_h : 0, "--fabric (height)", "v", 0, 3)
                      : (a.fabric_w > 0 ? a.fabric_h : 4);
  const int n = SizeFrom(a, a.n > 0 ? a.n : (given ? 0 : 64), "--n", "v", 2, 3);
  const int along = a.along == "row" ? 0 : a.along == "col" ? 1 : a.along == "grid" ? 2 : -1;
  if (along < 0)
    throw std::invalid_argument(fmt::format("--along: row, col or grid, not '{}'", a.along));
  if (a.op != "sum" && a.op != "max")
    throw std::invalid_argument(fmt::format("--op: sum or max, not '{}'", a.op));
  if (kind == kBcast && a.op != "sum")
    throw std::invalid_argument("--op: a broadcast combines nothing; leave --op out");
  if (a.dtype != "f32")
    throw std::invalid_argument(
        fmt::format("--dtype: the collectives move f32, not '{}'", a.dtype));
  if (n < 1 || n > 0x7FFE || 4 * n > kDataBytes) {
    throw std::invalid_argument(
        fmt::format("--n {}: the values per PE must be 1..{} ({} bytes of PE memory)", n,
                    kDataBytes / 4, kDataBytes));
  }
  if (W < 1 || H < 1 || W * H > 65536)
    throw std::invalid_argument(fmt::format("--fabric {}x{}: 1x1 up to 256x256", W, H));
  const bool max = a.op == "max";

  std::mt19937_64 rng(a.seed);
  const std::vector<float> v = InputF32(a, "v", {size_t(H), size_t(W), size_t(n)}, rng);
  auto at = [&](const std::vector<float>& t, int x, int y, int i) -> float {
    return t[(size_t(y) * W + x) * n + i];
  };
  std::vector<float> want = v;
  auto set = [&](int x, int y, int i, float f) { want[(size_t(y) * W + x) * n + i] = f; };
  for (int i = 0; i < n; ++i) {
    // Row results R_y at x = 0 (S_x = v_x + S_(x+1)), column results at y = 0.
    std::vector<float> row(H), col(W);
    for (int y = 0; y < H; ++y) {
      float s = at(v, W - 1, y, i);
      for (int x = W - 2; x >= 0; --x) s = Combine(max, at(v, x, y, i), s);
      row[y] = s;
    }
    for (int x = 0; x < W; ++x) {
      float s = at(v, x, H - 1, i);
      for (int y = H - 2; y >= 0; --y) s = Combine(max, at(v, x, y, i), s);
      col[x] = s;
    }
    float grid = row[H - 1];
    for (int y = H - 2; y >= 0; --y) grid = Combine(max, row[y], grid);
    for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
        if (kind == kBcast) {
          set(x, y, i, along == 0 ? at(v, 0, y, i) : along == 1 ? at(v, x, 0, i) : at(v, 0, 0, i));
        } else if (kind == kAllreduce) {
          set(x, y, i, along == 0 ? row[y] : along == 1 ? col[x] : grid);
        } else if (along == 0 && x == 0) {
          set(x, y, i, row[y]);
        } else if (along == 1 && y == 0) {
          set(x, y, i, col[x]);
        } else if (along == 2 && x == 0) {
          set(x, y, i, y == 0 ? grid : row[y]);  // column 0 keeps its rows' results
        }
      }
    }
  }

  const std::string layout = fmt::format(
      "fabric {}x{}\n"
      "region at=0,0 size={}x{} program=coll.s,../../lib/collectives.s param N={} param KIND={} "
      "param ALONG={} param MAX={}\n"
      "include ../../lib/collectives.tlayout\n",
      W, H, W, H, n, int(kind), along, max ? 1 : 0);
  const layout::Image img = LinkKernel(KernelDir(a, "collectives"), layout);
  runtime::Device dev(DeviceFor(a, W, H));
  dev.Load(img);
  const runtime::Region all{0, 0, W, H};
  dev.MemcpyH2D("v", v.data(), v.size(), all, n);

  KernelResult out;
  out.fabric_w = W;
  out.fabric_h = H;
  out.pes = W * H;
  out.size = fmt::format("n={} {}{}", n, a.along, kind == kBcast ? "" : " " + a.op);
  const uint64_t lines = along == 0   ? uint64_t(H) * (W - 1)
                         : along == 1 ? uint64_t(W) * (H - 1)
                                      : uint64_t(H) * (W - 1) + (H - 1);
  out.useful_ops = kind == kBcast ? 0 : lines * n;  // the combining steps
  const bool ok = RunToEnd(dev, a, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(out.pes)) : 0.0;
  if (!ok) return out;
  std::vector<float> got(v.size());
  dev.MemcpyD2H(got.data(), got.size(), "v", all, n);
  OutputF32(a, "v", {size_t(H), size_t(W), size_t(n)}, got);
  out.pass = true;
  out.tolerance = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    uint32_t gb, wb;
    std::memcpy(&gb, &got[k], 4);
    std::memcpy(&wb, &want[k], 4);
    const double d = std::fabs(double(got[k]) - double(want[k]));
    if (d > out.max_abs_err || gb != wb) out.max_abs_err = std::max(out.max_abs_err, d);
    if (gb != wb && out.pass) {
      out.pass = false;
      out.status = "differs";
      const size_t pe = k / n;
      out.message = fmt::format(
          "{}: PE({},{}) element {} is {} (0x{:08X}); the library's order gives {} (0x{:08X})",
          names[kind], pe % W, pe / W, k % n, got[k], gb, want[k], wb);
    }
  }
  return out;
}

KernelResult Bcast(const KernelArgs& a) { return Run(a, kBcast); }
KernelResult Reduce(const KernelArgs& a) { return Run(a, kReduce); }
KernelResult Allreduce(const KernelArgs& a) { return Run(a, kAllreduce); }

constexpr const char* kOptions =
    "--n VALUES per PE (default 64), --fabric WxH (default 4x4), --along row|col|grid";

}  // namespace

std::vector<KernelDef> CollectiveKernels() {
  static const std::string reduce_opts = std::string(kOptions) + ", --op sum|max";
  const std::vector<IoSpec> in = {
      {"v", "(h, w, n)", "f32", "n values on each PE of an h x w fabric"}};
  const std::vector<IoSpec> out = {
      {"v", "(h, w, n)", "f32", "every PE's values after the collective (docs/kernels.md)"}};
  return {
      {"broadcast", "the root's N values to every PE of its row, column or the grid", kOptions,
       &Bcast, in, out},
      {"reduce", "sum or max of every PE's N values, to the root, in the library's fixed order",
       reduce_opts.c_str(), &Reduce, in, out},
      {"allreduce", "reduce, then broadcast: every PE ends with the result", reduce_opts.c_str(),
       &Allreduce, in, out},
  };
}

}  // namespace tessera::kernels
