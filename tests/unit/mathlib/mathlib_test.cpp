// The firmware math library (firmware/lib/math.s, firmware/lib/README.md) on the functional
// model. For every routine (scalar, vector f32, vector f16) the error in ulps against the host's
// double-precision function (std::exp, std::log, std::tanh, 1/(1 + std::exp(-x)),
// 1/std::sqrt), rounded to the routine's format for the size of an ulp, over a dense sweep of
// the routine's useful range and its special values, must stay within the bound the README
// documents: the bounds below are the measured maxima, rounded up a little, so that a less
// accurate routine fails. Special values must give exactly the documented results, and the
// vector routines must keep their documented speed. Last, the golden outputs of the co-simulated
// example (tests/integration/runtime, run_mathlib_*: they are what the functional model wrote)
// are checked against double precision with the same bounds.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "layout/layout.h"
#include "runtime/device.h"
#include "runtime/npy.h"

namespace tessera::runtime {
namespace {

const std::string kFirmware = TESSERA_FIRMWARE_DIR;
const std::string kData = TESSERA_MATHLIB_DATA;
const std::string kGolden = TESSERA_RUNTIME_GOLDEN;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// The harness's batch sizes (sweep.s: x holds N f32 or 2N f16 elements).
constexpr size_t kBatch32 = 4096;
constexpr size_t kBatch16 = 8192;

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float Float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

double HalfToDouble(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const int m = h & 0x3FF;
  const double s = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0x1F) return m ? kNan : s * kInf;
  if (e == 0) return s * std::ldexp(m, -24);
  return s * std::ldexp(1024 + m, e - 25);
}

// The error of y in ulps of the f32 nearest ref; 0 for NaN against NaN and for equal
// infinities, infinite for any other mismatch of NaN or infinity.
double UlpsF32(float y, double ref) {
  if (std::isnan(ref) || std::isnan(y)) return std::isnan(ref) && std::isnan(y) ? 0 : kInf;
  const float r = static_cast<float>(ref);
  if (std::isinf(r) || std::isinf(y)) return y == r ? 0 : kInf;
  return std::abs(static_cast<double>(y) - ref) /
         std::ldexp(1.0, std::max(std::ilogb(r), -126) - 23);
}

// The same in f16 ulps (ref rounded to f16 to find its binade).
double UlpsF16(uint16_t y16, double ref) {
  const double y = HalfToDouble(y16);
  if (std::isnan(ref) || std::isnan(y)) return std::isnan(ref) && std::isnan(y) ? 0 : kInf;
  double r = std::copysign(kInf, ref);
  if (std::abs(ref) < 65520.0) {
    const double q = std::ldexp(1.0, std::max(std::ilogb(ref), -14) - 10);
    r = std::nearbyint(ref / q) * q;
  }
  if (std::isinf(r) || std::isinf(y)) return y == r ? 0 : kInf;
  return std::abs(y - ref) / std::ldexp(1.0, std::max(std::ilogb(r), -14) - 10);
}

double Exp(double x) { return std::exp(x); }
double Log(double x) { return std::log(x); }
double Tanh(double x) { return std::tanh(x); }
double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double Rsqrt(double x) { return 1.0 / std::sqrt(x); }

// One function of the library: its place in the harness's table, its double reference, the
// range the sweep covers, the documented error bounds (ulps of the scalar, the f32 vector and
// the f16 vector routine), and the documented speed on typical arguments typ_lo..typ_hi (mean
// cycles per scalar call; cycles per element of the f32 vector routine for 4096 elements).
struct Function {
  const char* name;
  int index;
  double (*ref)(double);
  float lo, hi;
  double scalar_ulps, vector_ulps, half_ulps;
  float typ_lo, typ_hi;
  double scalar_cycles, vector_cycles;
};

const Function kFunctions[] = {
    {"exp", 0, Exp, -104.5f, 89.5f, 0.59, 0.77, 0.5001, -20, 20, 140, 34.2},
    {"log", 1, Log, 0.0f, std::numeric_limits<float>::max(), 0.62, 0.70, 0.5001, 0.01f, 100, 145,
     37.5},
    {"tanh", 2, Tanh, -10.0f, 10.0f, 0.54, 2.21, 0.5001, -4, 4, 245, 34.3},
    {"sigmoid", 3, Sigmoid, -105.0f, 20.0f, 0.55, 1.71, 0.5001, -20, 20, 245, 38.6},
    {"rsqrt", 4, Rsqrt, 0.0f, std::numeric_limits<float>::max(), 0.5001, 1.47, 0.5001, 0.01f, 100,
     70, 2.9},
};

// Every f32 input of a sweep: from +0 up to hi and from -0 down to lo, every stride-th bit
// pattern (an odd stride, so that the low bits of the significand vary too), then the special
// values of every function. The vector routines are swept twice as densely as the scalar ones,
// which take about four times as long per element.
constexpr uint32_t kVectorStride = 32771;
constexpr uint32_t kScalarStride = 65537;

std::vector<uint32_t> Sweep(const Function& f, uint32_t stride) {
  std::vector<uint32_t> x;
  if (f.hi >= 0) {
    for (uint64_t b = 0; b <= Bits(f.hi); b += stride) x.push_back(static_cast<uint32_t>(b));
  }
  if (f.lo < 0) {
    for (uint64_t b = 0x80000000u; b <= Bits(f.lo); b += stride) {
      x.push_back(static_cast<uint32_t>(b));
    }
  }
  for (uint32_t s :
       {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u,
        0x007FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0x42B17217u,
        0x42B17218u, 0xC2CFF1B5u, 0xC2CFF1B6u, 0xC2D00000u, 0x42B20000u, 0x41100000u, 0x4111999Au,
        0x3F200000u, 0x3F1FFFFFu, 0x1F800000u, 0x1F7FFFFFu}) {
    x.push_back(s);
  }
  return x;
}

// The harness (tests/unit/mathlib/data/sweep.s) linked with the library and loaded into a
// device on the functional model, once for all tests.
class MathLib : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string text = fmt::format(
        "fabric 1x1\nregion at=0,0 program={}/sweep.s,{}/lib/math.s\n", kData, kFirmware);
    image_ = new layout::Image(layout::Link(layout::ParseLayoutText("sweep.tlayout", text)));
    DeviceOptions o;
    o.backend = Backend::kFunc;
    dev_ = new Device(o);
    dev_->Load(*image_);
  }
  static void TearDownTestSuite() {
    delete dev_;
    delete image_;
  }

  // Runs routine `fn` of the harness's table over x (f32 patterns, or f16 ones in the low
  // halves with half) and returns y; adds the cycles taken to *cycles.
  static std::vector<uint32_t> Run(int fn, const std::vector<uint32_t>& x, bool half,
                                   uint64_t* cycles = nullptr) {
    const Region pe{0, 0, 1, 1};
    const size_t batch = half ? kBatch16 : kBatch32;
    std::vector<uint32_t> y;
    for (size_t at = 0; at < x.size(); at += batch) {
      const uint32_t n = static_cast<uint32_t>(std::min(batch, x.size() - at));
      const uint32_t f = static_cast<uint32_t>(fn);
      dev_->MemcpyH2D("fn", &f, 1, pe, 1);
      dev_->MemcpyH2D("count", &n, 1, pe, 1);
      if (half) {
        std::vector<uint16_t> in(x.begin() + at, x.begin() + at + n);
        MemcpyOptions o;
        o.elem_bits = 16;
        dev_->MemcpyH2D("x16", in.data(), n, pe, n, o);
      } else {
        dev_->MemcpyH2D("x", x.data() + at, n, pe, n);
      }
      dev_->Launch("main");
      const RunResult r = dev_->Run(100'000'000);
      EXPECT_TRUE(r.ok()) << StatusName(r.status) << ": " << r.message;
      if (!r.ok()) return {};
      if (half) {
        std::vector<uint16_t> out(n);
        MemcpyOptions o;
        o.elem_bits = 16;
        dev_->MemcpyD2H(out.data(), n, "y16", pe, n, o);
        y.insert(y.end(), out.begin(), out.end());
      } else {
        std::vector<uint32_t> out(n);
        dev_->MemcpyD2H(out.data(), n, "y", pe, n);
        y.insert(y.end(), out.begin(), out.end());
      }
      uint32_t c = 0;
      dev_->MemcpyD2H(&c, 1, "cycles", pe, 1);
      if (cycles) *cycles += c;
    }
    return y;
  }

  static layout::Image* image_;
  static Device* dev_;
};
layout::Image* MathLib::image_ = nullptr;
Device* MathLib::dev_ = nullptr;

// The largest error of y against f.ref over x (f32 patterns), and where.
struct Worst {
  double ulps = 0;
  uint32_t x = 0, y = 0;
};
Worst WorstF32(const Function& f, const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
  Worst w;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    const double e = UlpsF32(Float(y[i]), f.ref(Float(x[i])));
    if (e > w.ulps || std::isnan(e)) w = {e, x[i], y[i]};
  }
  return w;
}
Worst WorstF16(const Function& f, const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
  Worst w;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    const double e = UlpsF16(static_cast<uint16_t>(y[i]), f.ref(HalfToDouble(x[i])));
    if (e > w.ulps || std::isnan(e)) w = {e, x[i], y[i]};
  }
  return w;
}

std::string Where(const Worst& w, bool half = false) {
  if (half) {
    return fmt::format("{:.5f} ulp at x = {:#06x} ({:.6g}) -> {:#06x} ({:.6g})", w.ulps, w.x,
                       HalfToDouble(w.x), w.y, HalfToDouble(w.y));
  }
  return fmt::format("{:.5f} ulp at x = {:#010x} ({:.9g}) -> {:#010x} ({:.9g})", w.ulps, w.x,
                     Float(w.x), w.y, Float(w.y));
}

// The sweeps over each function's range: scalar and vector f32 routines within their bounds.
TEST_F(MathLib, ScalarAndVectorF32WithinTheirBoundsOverTheWholeRange) {
  for (const Function& f : kFunctions) {
    SCOPED_TRACE(f.name);
    const std::vector<uint32_t> xs = Sweep(f, kScalarStride), xv = Sweep(f, kVectorStride);
    const std::vector<uint32_t> ys = Run(f.index, xs, false);
    const std::vector<uint32_t> yv = Run(5 + f.index, xv, false);
    ASSERT_EQ(ys.size(), xs.size());
    ASSERT_EQ(yv.size(), xv.size());
    const Worst ws = WorstF32(f, xs, ys), wv = WorstF32(f, xv, yv);
    fmt::print("{:8} scalar, {} points: {}\n", f.name, xs.size(), Where(ws));
    fmt::print("{:8} vector, {} points: {}\n", f.name, xv.size(), Where(wv));
    EXPECT_LE(ws.ulps, f.scalar_ulps) << f.name << "f: " << Where(ws);
    EXPECT_LE(wv.ulps, f.vector_ulps) << "v" << f.name << "f: " << Where(wv);
  }
}

// Every f16 input (all 65536 patterns) through the f16 vector routines: the f32 kernel's result
// rounded to f16, so within half an ulp and a little (one rounding of an f32 value that is
// already within about an f32 ulp).
TEST_F(MathLib, VectorF16ExhaustivelyWithinTheirBounds) {
  std::vector<uint32_t> x(65536);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = i;
  for (const Function& f : kFunctions) {
    SCOPED_TRACE(f.name);
    const std::vector<uint32_t> y = Run(10 + f.index, x, true);
    ASSERT_EQ(y.size(), x.size());
    const Worst w = WorstF16(f, x, y);
    fmt::print("{:8} f16 vector {}\n", f.name, Where(w, true));
    EXPECT_LE(w.ulps, f.half_ulps) << "v" << f.name << "h: " << Where(w, true);
  }
}

// Special values give exactly these results (bit patterns; NaN is the canonical NaN), in the
// scalar and the vector f32 routine alike.
TEST_F(MathLib, SpecialValuesExactly) {
  struct Case {
    int fn;
    uint32_t x, y;
  };
  const Case cases[] = {
      // exp: NaN, +-inf, +-0, overflow, underflow, the last finite and first infinite result.
      {0, 0x7FC00000, 0x7FC00000},
      {0, 0xFFC00001, 0x7FC00000},
      {0, 0x7F800000, 0x7F800000},
      {0, 0xFF800000, 0x00000000},
      {0, 0x00000000, 0x3F800000},
      {0, 0x80000000, 0x3F800000},
      {0, 0x42B20000, 0x7F800000},
      {0, 0x7F7FFFFF, 0x7F800000},
      {0, 0xC2D00000, 0x00000000},
      {0, 0xFF7FFFFF, 0x00000000},
      {0, 0x42B17218, 0x7F800000},
      {0, 0x00000001, 0x3F800000},
      {0, 0xC2CFF1B5, 0x00000000},
      {0, 0xC2CE8ED0, 0x00000001},
      // log: NaN and x < 0 -> NaN, +-0 -> -inf, +inf -> +inf, 1 -> +0.
      {1, 0x7FC00000, 0x7FC00000},
      {1, 0xFF800000, 0x7FC00000},
      {1, 0xBF800000, 0x7FC00000},
      {1, 0x80000001, 0x7FC00000},
      {1, 0x00000000, 0xFF800000},
      {1, 0x80000000, 0xFF800000},
      {1, 0x7F800000, 0x7F800000},
      {1, 0x3F800000, 0x00000000},
      // tanh: NaN, +-inf -> +-1, +-0 and subnormals unchanged, large -> +-1.
      {2, 0x7FC00000, 0x7FC00000},
      {2, 0x7F800000, 0x3F800000},
      {2, 0xFF800000, 0xBF800000},
      {2, 0x00000000, 0x00000000},
      {2, 0x80000000, 0x80000000},
      {2, 0x00000001, 0x00000001},
      {2, 0x80400000, 0x80400000},
      {2, 0x41200000, 0x3F800000},
      {2, 0xC1200000, 0xBF800000},
      // sigmoid: NaN, +inf -> 1, -inf -> +0, +-0 -> 0.5.
      {3, 0x7FC00000, 0x7FC00000},
      {3, 0x7F800000, 0x3F800000},
      {3, 0xFF800000, 0x00000000},
      {3, 0x00000000, 0x3F000000},
      {3, 0x80000000, 0x3F000000},
      {3, 0x41A00000, 0x3F800000},
      // rsqrt: +0 -> +inf, -0 -> -inf, x < 0 and NaN -> NaN, +inf -> +0, 4 -> 0.5.
      {4, 0x7FC00000, 0x7FC00000},
      {4, 0x00000000, 0x7F800000},
      {4, 0x80000000, 0xFF800000},
      {4, 0xBF800000, 0x7FC00000},
      {4, 0xFF800000, 0x7FC00000},
      {4, 0x7F800000, 0x00000000},
      {4, 0x40800000, 0x3F000000},
      {4, 0x00000001, 0x64B504F3},
  };
  for (const Case& c : cases) {
    for (int form : {0, 5}) {
      const std::vector<uint32_t> y = Run(form + c.fn, {c.x}, false);
      ASSERT_EQ(y.size(), 1u);
      EXPECT_EQ(y[0], c.y) << fmt::format("{}{}f({:#010x}) = {:#010x}, expected {:#010x}",
                                          form ? "v" : "", kFunctions[c.fn].name, c.x, y[0], c.y);
    }
  }
}

// The routines' cost on typical arguments (4096 values evenly spread over f.typ_lo..typ_hi):
// mean cycles per scalar call, call and return included (the harness's loop around it
// subtracted), and cycles per element of the f32 vector routine (which do not depend on the
// values), with the fixed cost of a call seen in the cycles for 64 elements (one block).
TEST_F(MathLib, RoutinesKeepTheirSpeed) {
  uint64_t loop_cycles = 0;
  Run(15, std::vector<uint32_t>(kBatch32), false, &loop_cycles);
  // The loop's cycles include the call and return of the empty routine (jalr and ret, 2 each).
  const double loop = static_cast<double>(loop_cycles) / kBatch32 - 4;
  for (const Function& f : kFunctions) {
    std::vector<uint32_t> x(kBatch32);
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = Bits(f.typ_lo + (f.typ_hi - f.typ_lo) * static_cast<float>(i) / x.size());
    }
    uint64_t scalar = 0, vector = 0, block = 0;
    Run(f.index, x, false, &scalar);
    Run(5 + f.index, x, false, &vector);
    Run(5 + f.index, std::vector<uint32_t>(x.begin(), x.begin() + 64), false, &block);
    const double per_call = static_cast<double>(scalar) / x.size() - loop;
    const double per_element = static_cast<double>(vector) / x.size();
    fmt::print(
        "{}f: {:.1f} cycles a call on [{}, {}]; v{}f: {} cycles for {} elements ({:.2f} "
        "an element), {} for 64\n",
        f.name, per_call, f.typ_lo, f.typ_hi, f.name, vector, x.size(), per_element, block);
    EXPECT_LE(per_call, f.scalar_cycles) << f.name << "f is slower than documented";
    EXPECT_LE(per_element, f.vector_cycles) << "v" << f.name << "f is slower than documented";
  }
}

// The vector routines on every kind of operand (data/forms.s): in place, strided (stride 2 in,
// stride -1 out), from and to fabric streams, and f16 in place give the same values as the plain
// call; a count of 0 writes nothing.
TEST(MathLibForms, InPlaceStridedAndStreamedGiveTheSameValues) {
  const std::string text = fmt::format(
      "fabric 1x1\nregion at=0,0 program={}/forms.s,{}/lib/math.s\n"
      "route color=1 at=0,0 rx=W tx=RAMP\nroute color=2 at=0,0 rx=RAMP tx=E\n",
      kData, kFirmware);
  const layout::Image image = layout::Link(layout::ParseLayoutText("forms.tlayout", text));
  DeviceOptions o;
  o.backend = Backend::kFunc;
  Device dev(o);
  dev.Load(image);
  constexpr int kN = 150;
  const Region pe{0, 0, 1, 1};
  std::vector<uint32_t> x(kN);
  std::vector<uint16_t> x16(kN);
  for (int i = 0; i < kN; ++i) {
    x[i] = Bits(static_cast<float>(i - 75) / 16.0f);
    x16[i] = static_cast<uint16_t>(0x3000 + 97 * i);  // 0.125 upward, and some negatives
  }
  dev.MemcpyH2D("x", x.data(), kN, pe, kN);
  MemcpyOptions half;
  half.elem_bits = 16;
  dev.MemcpyH2D("x16", x16.data(), kN, pe, kN, half);
  dev.StreamIn({0, 0}, static_cast<int>(arch::Dir::kW), 1, x);
  dev.StreamOut({0, 0}, static_cast<int>(arch::Dir::kE));  // opens the port
  dev.Launch("main");
  const RunResult r = dev.Run(10'000'000);
  ASSERT_TRUE(r.ok()) << StatusName(r.status) << ": " << r.message;
  std::vector<uint32_t> y(kN), w(kN), z(kN);
  uint32_t u = 0;
  std::vector<uint16_t> y16(kN);
  dev.MemcpyD2H(y.data(), kN, "y", pe, kN);
  dev.MemcpyD2H(w.data(), kN, "w", pe, kN);
  dev.MemcpyD2H(z.data(), kN, "z", pe, kN);
  dev.MemcpyD2H(&u, 1, "u", pe, 1);
  dev.MemcpyD2H(y16.data(), kN, "x16", pe, kN, half);
  const std::vector<fabric::EdgeStream::Wavelet> out =
      dev.StreamOut({0, 0}, static_cast<int>(arch::Dir::kE));
  ASSERT_EQ(out.size(), static_cast<size_t>(kN));
  const Function& tanh = kFunctions[2];
  for (int i = 0; i < kN; ++i) {
    EXPECT_LE(UlpsF32(Float(y[i]), std::tanh(Float(x[i]))), tanh.vector_ulps) << "element " << i;
    EXPECT_EQ(w[i], y[i]) << "in place, element " << i;
    EXPECT_EQ(z[kN - 1 - i], y[i]) << "stride 2 into stride -1, element " << i;
    EXPECT_EQ(out[i].data, y[i]) << "streamed, element " << i;
    EXPECT_LE(UlpsF16(y16[i], std::tanh(HalfToDouble(x16[i]))), tanh.half_ulps)
        << "f16 in place, element " << i;
  }
  EXPECT_EQ(u, 0x12345678u) << "a count of 0 wrote something";
}

// The golden outputs of the co-simulated example firmware/examples/mathlib.s (written by the
// functional model, compared by run_mathlib_cosim and run_mathlib_rtl): every value within the
// bounds above.
TEST(MathLibGolden, ExampleOutputsAreWithinTheBounds) {
  const NpyArray x = ReadNpy(kFirmware + "/examples/mathlib_x.npy");
  const NpyArray x16 = ReadNpy(kFirmware + "/examples/mathlib_x16.npy");
  const NpyArray y = ReadNpy(kGolden + "/mathlib_y.npy");
  const NpyArray y16 = ReadNpy(kGolden + "/mathlib_y16.npy");
  const size_t n = x.count();
  ASSERT_EQ(y.count(), 10 * n);
  ASSERT_EQ(x16.count(), n);
  ASSERT_EQ(y16.count(), 5 * n);
  auto word = [](const NpyArray& a, size_t i) {
    uint32_t v = 0;
    std::memcpy(&v, a.data.data() + i * a.elem_bytes, a.elem_bytes);
    return v;
  };
  for (const Function& f : kFunctions) {
    for (size_t i = 0; i < n; ++i) {
      const float xi = Float(word(x, i));
      const double vector = UlpsF32(Float(word(y, f.index * n + i)), f.ref(xi));
      const double scalar = UlpsF32(Float(word(y, (5 + f.index) * n + i)), f.ref(xi));
      const double half = UlpsF16(static_cast<uint16_t>(word(y16, f.index * n + i)),
                                  f.ref(HalfToDouble(static_cast<uint16_t>(word(x16, i)))));
      EXPECT_LE(vector, f.vector_ulps) << "v" << f.name << "f, element " << i;
      EXPECT_LE(scalar, f.scalar_ulps) << f.name << "f, element " << i;
      EXPECT_LE(half, f.half_ulps) << "v" << f.name << "h, element " << i;
    }
  }
}

}  // namespace
}  // namespace tessera::runtime
