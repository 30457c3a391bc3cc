// Histogram of N values per PE into B bins on a W x H fabric, every value routed as a wavelet to
// the PE that owns its bin (docs/kernels.md, "histogram"; device code
// firmware/kernels/histogram/histogram.s): along its row to the owner's column on one color per
// PE column, then along that column to the owner on one color per PE row. Bins are dealt to the
// PEs in blocks of BP = ceil(B / (W H)), row by row. The host counts the same bins (computed in
// the device's f32 order) and every count must match.
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "kernels/kernel.h"
#include "kernels/kernel_run.h"

namespace tessera::kernels {
namespace {

struct HistPlan {
  int w = 4, h = 4;  // the fabric
  int n = 256;       // values per PE
  int bins = 64;
  int bp = 0;  // bins per PE
  int Bytes() const { return 4 * n + 4 * bins + 4 * bp + 32; }
};

HistPlan Plan(const KernelArgs& a) {
  HistPlan p;
  if (a.dtype != "f32")
    throw std::invalid_argument(
        fmt::format("--dtype: histogram bins f32 values, not '{}'", a.dtype));
  if (a.fabric_w > 0) {
    p.w = a.fabric_w;
    p.h = a.fabric_h;
  }
  if (p.w < 1 || p.h < 1 || p.w + p.h > 24) {
    throw std::invalid_argument(fmt::format(
        "--fabric {}x{}: histogram routes on one color per PE column and one per PE row, so "
        "width + height may be at most 24 (e.g. 4x4, 8x8, 12x12)",
        p.w, p.h));
  }
  p.n = a.n > 0 ? a.n : 256;
  p.bins = a.bins > 0 ? a.bins : 64;
  if (a.n < 0 || p.n > 0x7FFE)
    throw std::invalid_argument(fmt::format("--n {}: the values per PE may be 1..32766", a.n));
  if (a.bins < 0 || p.bins > 65536)
    throw std::invalid_argument(fmt::format("--bins {}: 1..65536 bins", a.bins));
  p.bp = CeilDiv(p.bins, p.w * p.h);
  if (p.Bytes() > kDataBytes) {
    throw std::invalid_argument(fmt::format(
        "--n {} --bins {} on {}x{} needs {} bytes per PE (4 per value, 4 per bin for the owner "
        "table and 4 per counter), more than the {} a PE has for data; at most {} values per PE "
        "with {} bins",
        p.n, p.bins, p.w, p.h, p.Bytes(), kDataBytes,
        std::max(0, (kDataBytes - p.Bytes()) / 4 + p.n), p.bins));
  }
  return p;
}

// Routes: color c < W leads along every row to column c, where it goes to the compute engine;
// color W + r leads along every column to row r. Each PE's own wavelets enter from its ramp.
std::string Layout(const HistPlan& p) {
  const int W = p.w, H = p.h;
  std::string t = fmt::format(
      "fabric {}x{}\n"
      "region at=0,0 size={}x{} program=histogram.s param N={} param B={} param BP={} \\\n"
      "  param X=x param MYC={}+y param BF={} param BM1F={}\n",
      W, H, W, H, p.n, p.bins, p.bp, W, F32Bits(float(p.bins)), F32Bits(float(p.bins - 1)));
  auto dirs = [](std::initializer_list<std::pair<bool, const char*>> l) {
    std::string s;
    for (const auto& [on, d] : l)
      if (on) s += std::string(s.empty() ? "" : ",") + d;
    return s;
  };
  for (int c = 0; c < W && W > 1; ++c)
    for (int x = 0; x < W; ++x) {
      const std::string rx = x == c  ? dirs({{x > 0, "W"}, {x < W - 1, "E"}})
                             : x < c ? dirs({{x > 0, "W"}, {true, "RAMP"}})
                                     : dirs({{x < W - 1, "E"}, {true, "RAMP"}});
      const char* tx = x == c ? "RAMP" : x < c ? "E" : "W";
      t += fmt::format("route color={} at={},0..FH-1 rx={} tx={}\n", c, x, rx, tx);
    }
  for (int r = 0; r < H && H > 1; ++r)
    for (int y = 0; y < H; ++y) {
      const std::string rx = y == r  ? dirs({{y > 0, "N"}, {y < H - 1, "S"}})
                             : y < r ? dirs({{y > 0, "N"}, {true, "RAMP"}})
                                     : dirs({{y < H - 1, "S"}, {true, "RAMP"}});
      const char* tx = y == r ? "RAMP" : y < r ? "S" : "N";
      t += fmt::format("route color={} at=0..FW-1,{} rx={} tx={}\n", W + r, y, rx, tx);
    }
  return t;
}

KernelResult Run(const KernelArgs& given) {
  // The user's values, shape (h, w, n): the fabric and the values per PE from it.
  KernelArgs args = given;
  args.n = SizeFrom(given, given.n, "--n", "v", 2, 3);
  if (HasInput(given, "v")) {
    args.fabric_h = SizeFrom(given, given.fabric_h, "--fabric (height)", "v", 0, 3);
    args.fabric_w = SizeFrom(given, given.fabric_w, "--fabric (width)", "v", 1, 3);
  }
  const HistPlan p = Plan(args);
  const int W = p.w, H = p.h, N = p.n, B = p.bins, BP = p.bp;
  const size_t pes = size_t(W) * H;
  // Values in [0, 1), 24 random bits each (exact in f32), or the user's.
  std::mt19937_64 rng(args.seed);
  std::vector<float> v(pes * N);
  if (HasInput(args, "v")) {
    v = InputF32(args, "v", {size_t(H), size_t(W), size_t(N)}, rng);
    // The bins cover [0, 1): a value outside would be routed to a PE that has no such bin.
    for (size_t i = 0; i < v.size(); ++i)
      if (!(v[i] >= 0.0f && v[i] < 1.0f))
        throw std::invalid_argument(fmt::format(
            "input v: the value {} at ({}, {}, {}) is outside [0, 1), the range the {} bins "
            "cover; scale the values into it",
            v[i], i / (size_t(W) * N), (i / N) % W, i % N, p.bins));
  } else {
    for (float& f : v) f = static_cast<float>(static_cast<double>(rng() >> 40) / (1 << 24));
  }
  const layout::Image img = LinkKernel(KernelDir(args, "histogram"), Layout(p));
  // The owner tables: bin b belongs to PE b / BP (row by row), counter b % BP. PE(x, y)'s word
  // for b: the color of the first hop (31: its own bin), the owner's column color, the
  // counter's address at the owner.
  std::vector<uint32_t> hist_at(pes);
  for (size_t k = 0; k < pes; ++k) hist_at[k] = img.Symbol(k % W, k / W, "hist")->address;
  std::vector<uint32_t> owns(pes * B);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      for (int b = 0; b < B; ++b) {
        const int pe = b / BP, ox = pe % W, oy = pe / W;
        const uint32_t first = ox != x ? ox : oy != y ? W + oy : 31;
        const uint32_t counter = hist_at[pe] + 4 * (b % BP);
        owns[(size_t(y) * W + x) * B + b] = first << 24 | uint32_t(W + oy) << 16 | counter;
      }
  runtime::Device dev(DeviceFor(args, W, H));
  dev.Load(img);
  const runtime::Region all{0, 0, W, H};
  dev.MemcpyH2D("v", v.data(), v.size(), all, N);
  dev.MemcpyH2D("own", owns.data(), owns.size(), all, B);

  KernelResult out;
  out.fabric_w = W;
  out.fabric_h = H;
  out.pes = static_cast<int>(pes);
  out.size = fmt::format("n={} bins={}", N, B);
  // Three FMAC operations per value (the scale, the clamp, the conversion); the routing and
  // counting are scalar and router work.
  out.useful_ops = 3ull * N * pes;
  const bool ok = RunToEnd(dev, args, "main", out);
  out.fmac_utilization =
      out.cycles ? double(out.useful_ops) / (double(out.cycles) * double(pes)) : 0.0;
  if (!ok) return out;

  // The bins in the device's f32 order: min(v * B, B - 1), truncated.
  std::vector<uint64_t> want(B, 0);
  for (float f : v) {
    float s = f * float(B);
    if (s > float(B - 1)) s = float(B - 1);
    ++want[static_cast<int>(s)];
  }
  std::vector<uint32_t> hist(pes * BP);
  dev.MemcpyD2H(hist.data(), hist.size(), "hist", all, BP);
  out.pass = true;
  out.tolerance = 0;
  for (int b = 0; b < B; ++b) {
    const uint32_t got = hist[size_t(b / BP) * BP + b % BP];
    out.max_abs_err = std::max(out.max_abs_err, std::fabs(double(got) - double(want[b])));
    if (got != want[b] && out.pass) {
      out.pass = false;
      out.status = "differs";
      out.message = fmt::format("bin {} (owned by PE({},{})) counted {} values; the host counts {}",
                                b, (b / BP) % W, (b / BP) / W, got, want[b]);
    }
  }
  std::vector<uint32_t> counts(static_cast<size_t>(B));
  for (int b = 0; b < B; ++b) counts[size_t(b)] = hist[size_t(b / BP) * BP + b % BP];
  OutputU32(args, "hist", {size_t(B)}, counts);
  // Counters past the last bin (when B does not divide) must stay 0: nothing else arrives.
  for (size_t k = B; k < pes * BP && out.pass; ++k) {
    if (hist[k] != 0) {
      out.pass = false;
      out.status = "differs";
      out.message = fmt::format("PE({},{}) counter {} (no bin) counted {} values", (k / BP) % W,
                                (k / BP) / W, k % BP, hist[k]);
    }
  }
  return out;
}

}  // namespace

KernelDef HistogramKernel() {
  return {"histogram",
          "histogram of N values per PE into B bins, each value routed as a wavelet along its "
          "row and then its column to the PE that owns its bin",
          "--n VALUES per PE (default 256, up to 32766), --bins B (default 64), --fabric WxH "
          "(default 4x4; width + height at most 24)",
          &Run,
          {{"v", "(h, w, n)", "f32", "n values in [0, 1) per PE of an h x w fabric"}},
          {{"hist", "(bins,)", "u32", "the count of each bin"}}};
}

}  // namespace tessera::kernels
