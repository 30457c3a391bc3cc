// DSD operations: results, throughput and cycle counts (docs/isa.md 4.11, 6.1-6.8), bank
// conflicts and split steps, fdot's reduction order, microthreads and completions.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "ce_test_util.h"
#include "fp/execute.h"

namespace tessera::ce::test {
namespace {

using arch::ElemType;
using arch::FpFmt;
using arch::FpOp;
using Kind = TraceRecord::Kind;

const std::vector<TaskBinding> kMain = {{0, arch::TaskKind::kLocal, 0x0000}};

uint32_t Fp(FpOp op, FpFmt fmt, uint32_t a, uint32_t b, uint32_t c = 0) {
  uint8_t fl[2];
  return fp::Execute(op, fmt, a, b, c, fl);
}
uint16_t H(float f) {  // f32 -> f16 bits, round to nearest even
  uint8_t fl[2];
  return static_cast<uint16_t>(fp::Execute(FpOp::kCvtF2F, FpFmt::kF32, F32(f), 0, 0, fl));
}

// A program that loads d0..d2 from the descriptors given, runs `op` and then one instruction at
// pc `next` whose retire cycle measures the cost.
struct DsdProg {
  Prog p;
  uint16_t op_pc = 0, next_pc = 0;
};
DsdProg MakeOp(const std::vector<uint64_t>& dsds, const std::string& mn, std::vector<Opnd> ops,
               const std::vector<std::pair<int, uint32_t>>& regs = {}) {
  DsdProg d;
  for (size_t k = 0; k < dsds.size(); ++k)
    d.p.Dword(static_cast<uint16_t>(0x0800 + 8 * k), dsds[k]);
  for (size_t k = 0; k < dsds.size(); ++k)
    d.p("ldd", {D(static_cast<int>(k)), A(0x0800 + 8 * static_cast<int>(k))});
  for (auto [r, v] : regs) d.p("lui", {R(r), I(v >> 16)})("ori", {R(r), R(r), I(v & 0xFFFF)});
  d.op_pc = d.p.Here();
  d.p(mn, std::move(ops));
  d.next_pc = d.p.Here();
  d.p("nop")("tend");
  return d;
}

uint64_t Cost(const Bench& b, const DsdProg& d) {
  return b.RetireCycle(d.next_pc) - b.RetireCycle(d.op_pc);
}

void FillF32(Prog& p, uint16_t base, int n, float start, float step) {
  for (int i = 0; i < n; ++i) p.Word(static_cast<uint16_t>(base + 4 * i), F32(start + step * i));
}

TEST(CeDsd, FmacsOf64F32CostsSeventy) {
  const uint16_t y = 0x1000, x = 0x1104;  // x = y + 4 (mod 16): no bank conflicts
  auto d = MakeOp({Mem1d(ElemType::kF32, y, 64), Mem1d(ElemType::kF32, x, 64)}, "fmacs",
                  {D(0), D(0), D(1), R(5), Sync()}, {{5, F32(2.5f)}});
  FillF32(d.p, y, 64, 1.0f, 1.0f);
  FillF32(d.p, x, 64, 0.5f, 0.25f);
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(Cost(b, d), 70u);
  for (int i = 0; i < 64; ++i) {
    const uint32_t want =
        Fp(FpOp::kMulAdd, FpFmt::kF32, F32(0.5f + 0.25f * i), F32(2.5f), F32(1.0f + i));
    ASSERT_EQ(b.Word(static_cast<uint16_t>(y + 4 * i)), want) << i;
  }
  auto done = b.Records(Kind::kUtDone);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].cycle, b.RetireCycle(d.op_pc) + 69);
}

TEST(CeDsd, FaddhOf64AlignedF16CostsThirtyEight) {
  const uint16_t a = 0x1000, c = 0x1084, o = 0x1200;
  auto d = MakeOp(
      {Mem1d(ElemType::kF16, o, 64), Mem1d(ElemType::kF16, a, 64), Mem1d(ElemType::kF16, c, 64)},
      "faddh", {D(0), D(1), D(2), Sync()});
  for (int i = 0; i < 64; ++i) {
    d.p.Half(static_cast<uint16_t>(a + 2 * i), H(0.5f * i));
    d.p.Half(static_cast<uint16_t>(c + 2 * i), H(1.0f + i));
  }
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(Cost(b, d), 38u);
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(b.Half(static_cast<uint16_t>(o + 2 * i)),
              Fp(FpOp::kAdd, FpFmt::kF16, H(0.5f * i), H(1.0f + i)) & 0xFFFF)
        << i;
}

// Division and square root step like the other FMAC operations: one element (f32) or one pair
// (f16) per cycle, memory or scalar operands.
TEST(CeDsd, DivisionAndSquareRootStepLikeAdd) {
  const uint16_t a = 0x1000, c = 0x1104, o = 0x1208;
  auto d = MakeOp(
      {Mem1d(ElemType::kF32, o, 32), Mem1d(ElemType::kF32, a, 32), Mem1d(ElemType::kF32, c, 32)},
      "fdivs", {D(0), D(1), D(2), Sync()});
  FillF32(d.p, a, 32, 1.0f, 1.5f);
  FillF32(d.p, c, 32, -3.0f, 0.5f);  // c[6] = 0: a division by zero
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  const uint64_t div_cost = Cost(b, d);
  for (int i = 0; i < 32; ++i)
    ASSERT_EQ(b.Word(static_cast<uint16_t>(o + 4 * i)),
              Fp(FpOp::kDiv, FpFmt::kF32, F32(1.0f + 1.5f * i), F32(-3.0f + 0.5f * i)))
        << i;
  EXPECT_EQ(b.ce.State().fp_flags & static_cast<uint32_t>(arch::FpFlag::kInfinite),
            static_cast<uint32_t>(arch::FpFlag::kInfinite));

  auto e = MakeOp(
      {Mem1d(ElemType::kF32, o, 32), Mem1d(ElemType::kF32, a, 32), Mem1d(ElemType::kF32, c, 32)},
      "fadds", {D(0), D(1), D(2), Sync()});
  FillF32(e.p, a, 32, 1.0f, 1.5f);
  FillF32(e.p, c, 32, -3.0f, 0.5f);
  Bench add;
  add.Load(e.p, kMain);
  add.RunToQuiet();
  EXPECT_EQ(div_cost, Cost(add, e));

  auto s = MakeOp({Mem1d(ElemType::kF16, o, 16), Mem1d(ElemType::kF16, a, 16)}, "fsqrth",
                  {D(0), D(1), Sync()});
  for (int i = 0; i < 16; ++i) s.p.Half(static_cast<uint16_t>(a + 2 * i), H(0.25f * i));
  Bench sq;
  sq.Load(s.p, kMain);
  sq.RunToQuiet();
  for (int i = 0; i < 16; ++i)
    ASSERT_EQ(sq.Half(static_cast<uint16_t>(o + 2 * i)),
              Fp(FpOp::kSqrt, FpFmt::kF16, H(0.25f * i), 0) & 0xFFFF)
        << i;

  auto v = MakeOp({Mem1d(ElemType::kF32, o, 8), Mem1d(ElemType::kF32, a, 8)}, "fdivs",
                  {D(0), D(1), R(5), Sync()}, {{5, F32(7.0f)}});
  FillF32(v.p, a, 8, 1.0f, 1.0f);
  Bench vs;
  vs.Load(v.p, kMain);
  vs.RunToQuiet();
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(vs.Word(static_cast<uint16_t>(o + 4 * i)), F32((1.0f + i) / 7.0f)) << i;

  auto h = MakeOp({Mem1d(ElemType::kF16, o, 8), Mem1d(ElemType::kF16, a, 8)}, "fdivh",
                  {D(0), D(1), R(5), Sync()}, {{5, H(3.0f)}});
  for (int i = 0; i < 8; ++i) h.p.Half(static_cast<uint16_t>(a + 2 * i), H(1.0f + i));
  Bench hs;
  hs.Load(h.p, kMain);
  hs.RunToQuiet();
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(hs.Half(static_cast<uint16_t>(o + 2 * i)),
              Fp(FpOp::kDiv, FpFmt::kF16, H(1.0f + i), H(3.0f)) & 0xFFFF)
        << i;

  auto r = MakeOp({Mem1d(ElemType::kF32, o, 8), Mem1d(ElemType::kF32, a, 8)}, "fsqrts",
                  {D(0), D(1), Sync()});
  FillF32(r.p, a, 8, -1.0f, 1.0f);  // sqrt(-1): invalid, the canonical NaN
  Bench rs;
  rs.Load(r.p, kMain);
  rs.RunToQuiet();
  EXPECT_EQ(rs.Word(o), arch::kCanonicalNan32);
  for (int i = 1; i < 8; ++i)
    ASSERT_EQ(rs.Word(static_cast<uint16_t>(o + 4 * i)), F32(std::sqrt(-1.0f + i))) << i;
}

// Vector conversions f32 <-> i32 and i16 -> f16: one element per step, the FMAC's conversions.
TEST(CeDsd, VectorConversionsBetweenFloatAndInteger) {
  const uint16_t a = 0x1000, o = 0x1204;
  const float fv[8] = {1.5f, -2.7f, 3e9f, -3e9f, 0.0f, -0.0f, 100.99f, -1e-3f};
  auto d = MakeOp({Mem1d(ElemType::kI32, o, 8), Mem1d(ElemType::kF32, a, 8)}, "fs2i",
                  {D(0), D(1), Sync()});
  for (int i = 0; i < 8; ++i) d.p.Word(static_cast<uint16_t>(a + 4 * i), F32(fv[i]));
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(b.Word(static_cast<uint16_t>(o + 4 * i)),
              Fp(FpOp::kCvtF2I, FpFmt::kF32, F32(fv[i]), 0))
        << i;
  EXPECT_EQ(b.Word(o + 8), 0x7FFFFFFFu);  // 3e9 saturates
  EXPECT_EQ(b.ce.State().fp_flags & static_cast<uint32_t>(arch::FpFlag::kInvalid),
            static_cast<uint32_t>(arch::FpFlag::kInvalid));

  const int32_t iv[8] = {0, 1, -1, 16777217, -2147483647 - 1, 2147483647, 1000, -77};
  auto e = MakeOp({Mem1d(ElemType::kF32, o, 8), Mem1d(ElemType::kI32, a, 8)}, "fi2s",
                  {D(0), D(1), Sync()});
  for (int i = 0; i < 8; ++i) e.p.Word(static_cast<uint16_t>(a + 4 * i), uint32_t(iv[i]));
  Bench be;
  be.Load(e.p, kMain);
  be.RunToQuiet();
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(be.Word(static_cast<uint16_t>(o + 4 * i)), F32(static_cast<float>(iv[i]))) << i;

  const int16_t hv[9] = {0, 1, -1, 2049, -2049, 32767, -32768, 300, -7};  // 9: an odd tail
  auto h = MakeOp({Mem1d(ElemType::kF16, o, 9), Mem1d(ElemType::kI16, a, 9)}, "fi2h",
                  {D(0), D(1), Sync()});
  for (int i = 0; i < 9; ++i) h.p.Half(static_cast<uint16_t>(a + 2 * i), uint16_t(hv[i]));
  Bench bh;
  bh.Load(h.p, kMain);
  bh.RunToQuiet();
  for (int i = 0; i < 9; ++i)
    ASSERT_EQ(bh.Half(static_cast<uint16_t>(o + 2 * i)),
              Fp(FpOp::kCvtI2F, FpFmt::kF16, uint32_t(int32_t(hv[i])), 0) & 0xFFFF)
        << i;
  EXPECT_EQ(bh.Half(o + 2 * 5), H(32768.0f));  // 32767 rounds to 32768 in f16
  EXPECT_EQ(Cost(bh, h), 9u + 6);              // one element a step

  // f16 -> i16, toward zero, saturating: NaN and +inf give 0x7FFF, -32768 is exact.
  const uint16_t fh[9] = {H(1.75f), H(-1.75f), H(40000.0f), H(-40000.0f), H(-32768.0f),
                          0x7E00,   0xFC00,    H(0.4f),     H(32752.0f)};
  const uint16_t want[9] = {1, 0xFFFF, 0x7FFF, 0x8000, 0x8000, 0x7FFF, 0x8000, 0, 32752};
  auto g = MakeOp({Mem1d(ElemType::kI16, o, 9), Mem1d(ElemType::kF16, a, 9)}, "fh2i",
                  {D(0), D(1), Sync()});
  for (int i = 0; i < 9; ++i) g.p.Half(static_cast<uint16_t>(a + 2 * i), fh[i]);
  Bench bg;
  bg.Load(g.p, kMain);
  bg.RunToQuiet();
  for (int i = 0; i < 9; ++i) ASSERT_EQ(bg.Half(static_cast<uint16_t>(o + 2 * i)), want[i]) << i;
  EXPECT_EQ(bg.ce.State().fp_flags, static_cast<uint8_t>(arch::FpFlag::kInvalid));
}

// mem4d (docs/isa.md 2.3): a transposed read of a 4 x 6 row-major matrix is one mov32, element
// (i, j) of the result at 4 j + i; it costs what the same copy from a mem1d source costs.
TEST(CeDsd, Mem4dReadsATransposedTile) {
  const uint16_t a = 0x1000, t = 0x1200, u = 0x1404;
  const auto [src, ext] = Mem4d(ElemType::kF32, a, {4, 6, 1, 1}, {6, 1, 0, 0});
  auto d = MakeOp({Mem1d(ElemType::kF32, t, 24), 0, src, ext}, "mov32", {D(0), D(2), Sync()});
  FillF32(d.p, a, 24, 0.0f, 1.0f);  // A[i][j] = 6 i + j
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 4; ++i)
      ASSERT_EQ(b.Word(static_cast<uint16_t>(t + 4 * (4 * j + i))), F32(6.0f * i + j)) << i << j;
  auto flat = MakeOp({Mem1d(ElemType::kF32, u, 24), 0, Mem1d(ElemType::kF32, a, 24)}, "mov32",
                     {D(0), D(2), Sync()});
  Bench b2;
  b2.Load(flat.p, kMain);
  b2.RunToQuiet();
  EXPECT_EQ(Cost(b, d), Cost(b2, flat));
}

// All four dimensions, negative strides, a mem4d destination and a mem4d source of another
// shape beside a mem1d one: every element lands where the address rule of 4.11 puts it.
TEST(CeDsd, Mem4dFourDimensionsWithNegativeStrides) {
  const std::array<uint32_t, 4> len = {3, 2, 2, 2};  // 24 elements
  const std::array<int, 4> sd = {1, 3, -6, 12}, s1 = {-1, 5, 2, -20};
  const uint16_t dst = 0x1100, x0 = 0x1400, x1 = 0x1800;
  const auto [d0, e0] = Mem4d(ElemType::kF32, dst, len, sd);
  const auto [d1, e1] = Mem4d(ElemType::kF32, x1, {4, 3, 1, 31}, s1);  // dim 3 runs on
  auto d = MakeOp({d0, e0, Mem1d(ElemType::kF32, x0, 24), 0, d1, e1}, "fadds",
                  {D(0), D(2), D(4), Sync()});
  auto addr = [](std::array<uint32_t, 4> l, std::array<int, 4> st, int i) {
    int off = 0;
    for (int k = 0; k < 3; ++k) {
      off += i % static_cast<int>(l[k]) * st[k];
      i /= static_cast<int>(l[k]);
    }
    return off + i * st[3];
  };
  FillF32(d.p, x0, 24, 1.0f, 1.0f);
  for (int k = -64; k < 64; ++k) d.p.Word(static_cast<uint16_t>(x1 + 4 * k), F32(0.5f * k));
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  std::map<int, uint32_t> want;
  for (int i = 0; i < 24; ++i)
    want[addr(len, sd, i)] =
        Fp(FpOp::kAdd, FpFmt::kF32, F32(1.0f + i), F32(0.5f * addr({4, 3, 1, 31}, s1, i)));
  ASSERT_EQ(want.size(), 24u);  // the destination's elements are distinct
  for (const auto& [off, v] : want)
    ASSERT_EQ(b.Word(static_cast<uint16_t>(dst + 4 * off)), v) << "element offset " << off;
}

// A mem4d operand must sit in an even register; the lead's four lengths must multiply to at
// most 0x7FFE; an element outside SRAM faults with its index; dincb moves Base in elements.
TEST(CeDsd, Mem4dFaultsAndDincb) {
  const auto [d4, x4] = Mem4d(ElemType::kF32, 0x1000, {4, 2, 1, 1}, {1, 4, 0, 0});
  {
    auto d = MakeOp({Mem1d(ElemType::kF32, 0x2000, 8), d4, x4}, "mov32", {D(0), D(1), Sync()});
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(b.ce.FaultMessage(),
              fmt::format("PE(3,2) fault: mov32 at pc 0x{:04X}: src0 (d1) is a mem4d descriptor "
                          "in an odd register (it needs an even one, with its extension in the "
                          "next)",
                          d.op_pc));
  }
  {
    const auto [big, xb] = Mem4d(ElemType::kF32, 0x1000, {2000, 2000, 31, 31}, {1, 0, 0, 0});
    auto d = MakeOp({big, xb, Mem1d(ElemType::kF32, 0x2000, 8)}, "mov32", {D(2), D(0), Sync()});
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(b.ce.FaultMessage(),
              fmt::format("PE(3,2) fault: mov32 at pc 0x{:04X}: src0 (d0) is a "
                          "mem4d descriptor of 3844000000 elements, more than "
                          "0x7FFE",
                          d.op_pc));
    EXPECT_EQ(arch::FaultInfo::Index(b.ce.State().fault_info),
              static_cast<uint32_t>(arch::DsdWhy::kShape));
  }
  {
    // dim 1 steps by -0x400 elements: element 4 (i0 = 0, i1 = 1) is at 0x1000 - 0x1000 + 16.
    const auto [dn, xn] = Mem4d(ElemType::kF32, 0x0FF0, {4, 2, 1, 1}, {1, -0x404, 0, 0});
    auto d = MakeOp({Mem1d(ElemType::kF32, 0x2000, 8), 0, dn, xn}, "mov32", {D(0), D(2), Sync()});
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(static_cast<arch::CeFault>(b.ce.State().fault_status), arch::CeFault::kDsdRange);
    EXPECT_EQ(b.ce.State().fault_addr, static_cast<uint32_t>(0x0FF0 - 4 * 0x404));
    EXPECT_EQ(arch::FaultInfo::Index(b.ce.State().fault_info), 4u);
  }
  {
    Prog p;
    p.Dword(0x800, d4);
    p("ldd", {D(6), A(0x800)})("dincb", {D(6), I(3)})("tend");
    Bench b;
    b.Load(p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(arch::Dsd::Base(b.ce.State().dsr[6]), 0x100Cu);
  }
}

// Compares write masks of all ones or zeros, with IEEE semantics: NaN is unordered (only
// ne is true), -0 equals +0; lt, le, gt, ge are signaling (invalid on a NaN), eq and ne quiet.
TEST(CeDsd, ComparesWriteMasks) {
  const uint32_t nan = 0x7FC00000, ninf = 0xFF800000;
  const std::vector<uint32_t> x = {F32(1), F32(2), nan, 0x80000000, F32(3)};
  const std::vector<uint32_t> y = {F32(2), F32(2), F32(1), 0, ninf};
  // per op, the mask bits of the five elements (bit i: element i)
  const std::vector<std::pair<std::string, unsigned>> ops = {
      {"fceqs", 0b01010}, {"fcnes", 0b10101}, {"fclts", 0b00001},
      {"fcles", 0b01011}, {"fcgts", 0b10000}, {"fcges", 0b11010}};
  for (const auto& [mn, bits] : ops) {
    auto d = MakeOp({Mem1d(ElemType::kU32, 0x1200, 5), Mem1d(ElemType::kF32, 0x1000, 5),
                     Mem1d(ElemType::kF32, 0x1104, 5)},
                    mn, {D(0), D(1), D(2), Sync()});
    for (int i = 0; i < 5; ++i) {
      d.p.Word(static_cast<uint16_t>(0x1000 + 4 * i), x[i]);
      d.p.Word(static_cast<uint16_t>(0x1104 + 4 * i), y[i]);
    }
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1200 + 4 * i)), (bits >> i & 1) ? ~0u : 0u)
          << mn << " element " << i;
    const bool signaling = mn != "fceqs" && mn != "fcnes";
    EXPECT_EQ((b.ce.State().fp_flags & static_cast<uint32_t>(arch::FpFlag::kInvalid)) != 0,
              signaling)
        << mn;
  }
  // f16 against a scalar: x < 1.5, one element a step (no pairs)
  auto h = MakeOp({Mem1d(ElemType::kU16, 0x1200, 4), Mem1d(ElemType::kF16, 0x1000, 4)}, "fclth",
                  {D(0), D(1), R(5), Sync()}, {{5, H(1.5f)}});
  const float hx[4] = {1.0f, 1.5f, -7.0f, 2.0f};
  for (int i = 0; i < 4; ++i) h.p.Half(static_cast<uint16_t>(0x1000 + 2 * i), H(hx[i]));
  Bench bh;
  bh.Load(h.p, kMain);
  bh.RunToQuiet();
  const uint16_t want[4] = {0xFFFF, 0, 0xFFFF, 0};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(bh.Half(static_cast<uint16_t>(0x1200 + 2 * i)), want[i]) << i;
  // one element a step: 4 steps, against 2 pair steps for faddh
  auto add = MakeOp({Mem1d(ElemType::kF16, 0x1200, 4), Mem1d(ElemType::kF16, 0x1000, 4)}, "faddh",
                    {D(0), D(1), R(5), Sync()}, {{5, H(1.5f)}});
  Bench ba;
  ba.Load(add.p, kMain);
  ba.RunToQuiet();
  EXPECT_EQ(Cost(bh, h), Cost(ba, add) + 2);
}

// sel32 and sel16: dst = mask != 0 ? src1 : s; sel16 per 16-bit lane, in pairs. With a
// compare it clips, masks and blends without a branch: here ReLU's backward, g * (x > 0).
TEST(CeDsd, SelectByMask) {
  auto d = MakeOp({Mem1d(ElemType::kF32, 0x1200, 4), Mem1d(ElemType::kU32, 0x1000, 4),
                   Mem1d(ElemType::kF32, 0x1104, 4)},
                  "sel32", {D(0), D(1), D(2), R(5), Sync()}, {{5, F32(-1.0f)}});
  const uint32_t m[4] = {~0u, 0, 1, 0x80000000};
  for (int i = 0; i < 4; ++i) {
    d.p.Word(static_cast<uint16_t>(0x1000 + 4 * i), m[i]);
    d.p.Word(static_cast<uint16_t>(0x1104 + 4 * i), F32(10.0f + i));
  }
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  const float want[4] = {10.0f, -1.0f, 12.0f, 13.0f};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1200 + 4 * i)), F32(want[i])) << i;
  EXPECT_EQ(b.ce.State().fp_flags, 0u);

  Prog p;  // g = x > 0 ? g : 0, in f16, through a mask
  const float x[4] = {1.0f, -2.0f, 0.0f, 3.0f}, g[4] = {0.5f, 0.25f, 4.0f, -8.0f};
  for (int i = 0; i < 4; ++i) {
    p.Half(static_cast<uint16_t>(0x1000 + 2 * i), H(x[i]));
    p.Half(static_cast<uint16_t>(0x1100 + 2 * i), H(g[i]));
  }
  p.Dword(0x800, Mem1d(ElemType::kF16, 0x1000, 4));
  p.Dword(0x808, Mem1d(ElemType::kU16, 0x1200, 4));
  p.Dword(0x810, Mem1d(ElemType::kF16, 0x1100, 4));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)})(
      "ori", {R(3), Z(), I(0)})                             // +0.0
      ("fcgth", {D(1), D(0), R(3), Sync()})                 // mask = x > 0
      ("sel16", {D(2), D(1), D(2), R(3), Sync()})("tend");  // g = mask ? g : 0
  Bench b2;
  b2.Load(p, kMain);
  b2.RunToQuiet();
  const float gw[4] = {0.5f, 0.0f, 0.0f, -8.0f};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(b2.Half(static_cast<uint16_t>(0x1100 + 2 * i)), H(gw[i])) << i;
}

TEST(CeDsd, UnalignedF16StepsOneElementAtATime) {
  // Bases at 2 mod 4: element 0 alone, then pairs from element 1 (all operands aligned there).
  const uint16_t a = 0x1002, c = 0x1086, o = 0x1202;
  auto d = MakeOp(
      {Mem1d(ElemType::kF16, o, 9), Mem1d(ElemType::kF16, a, 9), Mem1d(ElemType::kF16, c, 9)},
      "fmulh", {D(0), D(1), D(2), Sync()});
  for (int i = 0; i < 9; ++i) {
    d.p.Half(static_cast<uint16_t>(a + 2 * i), H(1.5f + i));
    d.p.Half(static_cast<uint16_t>(c + 2 * i), H(2.0f));
  }
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(Cost(b, d), 5u + 6);  // steps: {0}, {1,2}, {3,4}, {5,6}, {7,8}
  for (int i = 0; i < 9; ++i)
    EXPECT_EQ(b.Half(static_cast<uint16_t>(o + 2 * i)), H(2.0f * (1.5f + i))) << i;
  // The halfword before the destination is untouched.
  EXPECT_EQ(b.Half(0x1200), 0u);
}

TEST(CeDsd, MixedOperandsStepOneElement) {
  // A stride-2 operand forbids pairs: 8 elements, 8 steps.
  auto d = MakeOp({Mem1d(ElemType::kI16, 0x1200, 8), Mem1d(ElemType::kU16, 0x1000, 8, 2)}, "add16",
                  {D(0), D(1), R(3), Sync()}, {{3, 0x10005}});
  for (int i = 0; i < 16; ++i) d.p.Half(static_cast<uint16_t>(0x1000 + 2 * i), 0xFFF0 + i);
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(Cost(b, d), 8u + 6);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(b.Half(static_cast<uint16_t>(0x1200 + 2 * i)),
              static_cast<uint16_t>(0xFFF0 + 2 * i + 5))
        << i;
}

TEST(CeDsd, IntegerOperations32) {
  const char* kOps[] = {"add32", "sub32", "and32", "or32", "xor32", "shl32", "shr32"};
  auto ref = [](int k, uint32_t a, uint32_t b) -> uint32_t {
    switch (k) {
      case 0:
        return a + b;
      case 1:
        return a - b;
      case 2:
        return a & b;
      case 3:
        return a | b;
      case 4:
        return a ^ b;
      case 5:
        return a << (b & 31);
      default:
        return a >> (b & 31);
    }
  };
  for (int k = 0; k < 7; ++k) {
    auto d = MakeOp({Mem1d(ElemType::kU32, 0x1200, 4), Mem1d(ElemType::kI32, 0x1000, 4),
                     Mem1d(ElemType::kU32, 0x1104, 4)},
                    kOps[k], {D(0), D(1), D(2), Sync()});
    const uint32_t a[4] = {0x80000001u, 5, 0xFFFFFFFFu, 0x12345678u};
    const uint32_t c[4] = {33, 2, 1, 0x0F0F0F0Fu};
    for (int i = 0; i < 4; ++i) {
      d.p.Word(static_cast<uint16_t>(0x1000 + 4 * i), a[i]);
      d.p.Word(static_cast<uint16_t>(0x1104 + 4 * i), c[i]);
    }
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(Cost(b, d), 4u + 6) << kOps[k];
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1200 + 4 * i)), ref(k, a[i], c[i]))
          << kOps[k] << " " << i;
  }
}

TEST(CeDsd, IntegerOperations16InPairs) {
  const char* kOps[] = {"add16", "sub16", "and16", "or16", "xor16", "shl16", "shr16"};
  auto ref = [](int k, uint32_t a, uint32_t b) -> uint16_t {
    uint32_t v;
    switch (k) {
      case 0:
        v = a + b;
        break;
      case 1:
        v = a - b;
        break;
      case 2:
        v = a & b;
        break;
      case 3:
        v = a | b;
        break;
      case 4:
        v = a ^ b;
        break;
      case 5:
        v = a << (b & 15);
        break;
      default:
        v = a >> (b & 15);
        break;
    }
    return static_cast<uint16_t>(v);
  };
  for (int k = 0; k < 7; ++k) {
    auto d = MakeOp({Mem1d(ElemType::kU16, 0x1200, 8), Mem1d(ElemType::kI16, 0x1000, 8),
                     Mem1d(ElemType::kU16, 0x1104, 8)},
                    kOps[k], {D(0), D(1), D(2), Sync()});
    for (int i = 0; i < 8; ++i) {
      d.p.Half(static_cast<uint16_t>(0x1000 + 2 * i), static_cast<uint16_t>(0xFF00 + 37 * i));
      d.p.Half(static_cast<uint16_t>(0x1104 + 2 * i), static_cast<uint16_t>(17 + 3 * i));
    }
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(Cost(b, d), 4u + 6) << kOps[k];  // 2 elements per step
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(b.Half(static_cast<uint16_t>(0x1200 + 2 * i)),
                ref(k, static_cast<uint16_t>(0xFF00 + 37 * i), 17 + 3 * i))
          << kOps[k] << " " << i;
  }
}

TEST(CeDsd, ScalarFormsFillAndOneSource) {
  Prog q;
  q.Dword(0x800, Mem1d(ElemType::kF32, 0x1000, 4));
  q.Dword(0x808, Mem1d(ElemType::kF32, 0x1100, 4));
  q.Dword(0x810, Mem1d(ElemType::kF16, 0x1200, 4));
  q.Dword(0x818, Mem1d(ElemType::kU32, 0x1300, 3));
  q.Dword(0x820, Mem1d(ElemType::kF32, 0x1400, 4));
  for (int i = 0; i < 4; ++i) q.Word(static_cast<uint16_t>(0x1000 + 4 * i), F32(i - 1.5f));
  q("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)})(
      "ldd", {D(3), A(0x818)})("ldd", {D(4), A(0x820)})("lui", {R(1), I(0x4000)})  // 2.0f
      ("fmuls", {D(1), D(0), R(1), Sync()})                                        // VS: x * 2
      ("addi", {R(2), Z(), I(0)})                                                  // +0.0
      ("fmaxs", {D(4), D(0), R(2), Sync(1)})                                       // ReLU
      ("lui", {R(3), I(0xABCD)})("ori", {R(3), R(3), I(0x1234)})("mov32",
                                                                 {D(3), R(3), Sync(2)})  // Fill
      ("mov16", {D(2), R(3), Sync(3)})  // Fill, 16-bit: 0x1234 in both lanes
      ("fnegs", {D(0), D(0), Sync()})   // in place
      ("tend");
  Bench b;
  b.Load(q, kMain);
  b.RunToQuiet();
  for (int i = 0; i < 4; ++i) {
    const float v = i - 1.5f;
    EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1100 + 4 * i)), F32(2 * v));
    EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1400 + 4 * i)), F32(v > 0 ? v : 0.0f));
    EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1000 + 4 * i)), F32(-v));
    EXPECT_EQ(b.Half(static_cast<uint16_t>(0x1200 + 2 * i)), 0x1234u);
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1300 + 4 * i)), 0xABCD1234u);
  EXPECT_EQ(b.Word(0x130C), 0u);
}

TEST(CeDsd, ConversionsAndMixedPrecision) {
  Prog p;
  p.Dword(0x800, Mem1d(ElemType::kF16, 0x1000, 4));  // f16 in
  p.Dword(0x808, Mem1d(ElemType::kF32, 0x1100, 4));  // f32 out
  p.Dword(0x810, Mem1d(ElemType::kF16, 0x1200, 4));  // f16 out
  p.Dword(0x818, Mem1d(ElemType::kF32, 0x1300, 4));  // fmachs dst/src0
  for (int i = 0; i < 4; ++i) {
    p.Half(static_cast<uint16_t>(0x1000 + 2 * i), H(0.25f * (i + 1)));
    p.Word(static_cast<uint16_t>(0x1300 + 4 * i), F32(100.0f));
  }
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)})(
      "ldd", {D(3), A(0x818)})("fh2s", {D(1), D(0), Sync()})  // @5..: 4 steps
      ("fs2h", {D(2), D(1), Sync()})("ori", {R(4), Z(), I(H(3.0f))})(
          "fmachs", {D(3), D(3), D(0), R(4), Sync()})  // 100 + h * 3
      ("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  for (int i = 0; i < 4; ++i) {
    const float v = 0.25f * (i + 1);
    EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1100 + 4 * i)), F32(v));
    EXPECT_EQ(b.Half(static_cast<uint16_t>(0x1200 + 2 * i)), H(v));
    EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1300 + 4 * i)), F32(100.0f + 3 * v));
  }
  // f16 -> f32 steps one element per cycle: 4 + 6.
  EXPECT_EQ(b.RetireCycle(0x0014) - b.RetireCycle(0x0010), 10u);
}

// The reference fdot of docs/isa.md 6.5.
uint32_t RefDots(uint32_t acc, const std::vector<uint32_t>& a, const std::vector<uint32_t>& c) {
  uint32_t p[4] = {acc, 0x80000000u, 0x80000000u, 0x80000000u};
  for (size_t i = 0; i < a.size(); ++i)
    p[i % 4] = Fp(FpOp::kMulAdd, FpFmt::kF32, a[i], c[i], p[i % 4]);
  return Fp(FpOp::kAdd, FpFmt::kF32, Fp(FpOp::kAdd, FpFmt::kF32, p[0], p[1]),
            Fp(FpOp::kAdd, FpFmt::kF32, p[2], p[3]));
}
uint16_t RefDoth(uint16_t acc, const std::vector<uint16_t>& a, const std::vector<uint16_t>& c) {
  uint16_t p[8] = {acc, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000};
  for (size_t i = 0; i < a.size(); ++i)
    p[i % 8] = static_cast<uint16_t>(Fp(FpOp::kMulAdd, FpFmt::kF16, a[i], c[i], p[i % 8]));
  auto add = [](uint16_t x, uint16_t y) {
    return static_cast<uint16_t>(Fp(FpOp::kAdd, FpFmt::kF16, x, y));
  };
  const uint16_t h0 = add(add(p[0], p[2]), add(p[4], p[6]));
  const uint16_t h1 = add(add(p[1], p[3]), add(p[5], p[7]));
  return add(h0, h1);
}

class FdotsTest : public ::testing::TestWithParam<int> {};

TEST_P(FdotsTest, CostsNPlusFourteenInTheDefinedOrder) {
  const int n = GetParam();
  const uint16_t a = 0x1000, c = 0x1204;
  auto d = MakeOp({Mem1d(ElemType::kF32, a, n), Mem1d(ElemType::kF32, c, n)}, "fdots",
                  {R(6), D(0), D(1), Sync()}, {{6, F32(0.1f)}});
  std::vector<uint32_t> va, vc;
  for (int i = 0; i < n; ++i) {
    va.push_back(F32(1.0f / (i + 1)));
    vc.push_back(F32(0.3f * i - 2.0f));
    d.p.Word(static_cast<uint16_t>(a + 4 * i), va.back());
    d.p.Word(static_cast<uint16_t>(c + 4 * i), vc.back());
  }
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(6), RefDots(F32(0.1f), va, vc));
  if (n % 4 == 0 && n > 0) {
    EXPECT_EQ(Cost(b, d), static_cast<uint64_t>(n) + 14);
  }
  auto done = b.Records(Kind::kUtDone);
  ASSERT_EQ(done.size(), 1u);
  ASSERT_EQ(done[0].num_writes, 1);
  EXPECT_EQ(done[0].writes[0].value, b.Gpr(6));
}
INSTANTIATE_TEST_SUITE_P(Lengths, FdotsTest, ::testing::Values(0, 1, 3, 4, 16, 64, 65));

// fsums / fsumh: a dot product with ones, in fdot's order (6.5), at fdot's cost.
class FsumTest : public ::testing::TestWithParam<int> {};

TEST_P(FsumTest, SumsInFdotsOrderAtFdotsCost) {
  const int n = GetParam();
  const uint16_t a = 0x1000;
  auto d = MakeOp({Mem1d(ElemType::kF32, a, n)}, "fsums", {R(6), D(0), Sync()}, {{6, F32(0.1f)}});
  std::vector<uint32_t> va, ones(n, F32(1.0f));
  for (int i = 0; i < n; ++i) {
    va.push_back(F32((i % 2 ? -1.0f : 1.0f) * 1e3f / (i + 1)));  // order-sensitive magnitudes
    d.p.Word(static_cast<uint16_t>(a + 4 * i), va.back());
  }
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(6), RefDots(F32(0.1f), va, ones));
  if (n % 4 == 0 && n > 0) EXPECT_EQ(Cost(b, d), static_cast<uint64_t>(n) + 14);

  const uint16_t h = 0x2000;
  auto e = MakeOp({Mem1d(ElemType::kF16, h, n)}, "fsumh", {R(7), D(0), Sync()}, {{7, H(0.5f)}});
  std::vector<uint16_t> vh, hones(n, H(1.0f));
  for (int i = 0; i < n; ++i) {
    vh.push_back(H((i % 3 ? 0.25f : -3.0f) * (i + 1)));
    e.p.Half(static_cast<uint16_t>(h + 2 * i), vh.back());
  }
  Bench bh;
  bh.Load(e.p, kMain);
  bh.RunToQuiet();
  EXPECT_EQ(bh.Gpr(7) & 0xFFFF, RefDoth(H(0.5f), vh, hones));
}
INSTANTIATE_TEST_SUITE_P(Lengths, FsumTest, ::testing::Values(0, 1, 3, 4, 16, 64, 65));

// The reference max/min reduction: fdot's partials and combine order with Max or Min, the
// partials starting at the canonical NaN (6.5).
uint32_t RefRed32(FpOp op, uint32_t acc, const std::vector<uint32_t>& a) {
  uint32_t p[4] = {acc, arch::kCanonicalNan32, arch::kCanonicalNan32, arch::kCanonicalNan32};
  for (size_t i = 0; i < a.size(); ++i) p[i % 4] = Fp(op, FpFmt::kF32, a[i], p[i % 4]);
  return Fp(op, FpFmt::kF32, Fp(op, FpFmt::kF32, p[0], p[1]), Fp(op, FpFmt::kF32, p[2], p[3]));
}
uint16_t RefRed16(FpOp op, uint16_t acc, const std::vector<uint16_t>& a) {
  const uint16_t id = static_cast<uint16_t>(arch::kCanonicalNan16);
  uint16_t p[8] = {acc, id, id, id, id, id, id, id};
  auto f = [op](uint16_t x, uint16_t y) {
    return static_cast<uint16_t>(Fp(op, FpFmt::kF16, x, y));
  };
  for (size_t i = 0; i < a.size(); ++i) p[i % 8] = f(a[i], p[i % 8]);
  return f(f(f(p[0], p[2]), f(p[4], p[6])), f(f(p[1], p[3]), f(p[5], p[7])));
}

class FmaxrTest : public ::testing::TestWithParam<int> {};

TEST_P(FmaxrTest, MaxAndMinInFdotsOrderAtFdotsCost) {
  const int n = GetParam();
  std::vector<uint32_t> va;
  std::vector<uint16_t> vh;
  for (int i = 0; i < n; ++i) {
    // Mixed signs, a signed zero pair and a quiet NaN that maximumNumber ignores.
    const float v = (i % 5 == 3) ? -0.0f : (i % 7 == 2 ? 0.0f : (i % 2 ? -1.5f : 2.0f) * i);
    va.push_back(i == 9 ? 0x7FC12345u : F32(v));
    vh.push_back(i == 9 ? 0x7E01 : H(v / 8));
  }
  for (const char* mn : {"fmaxrs", "fminrs"}) {
    const FpOp op = std::string(mn).rfind("fmax", 0) == 0 ? FpOp::kMax : FpOp::kMin;
    auto d = MakeOp({Mem1d(ElemType::kF32, 0x1000, n)}, mn, {R(6), D(0), Sync()}, {{6, F32(0.5f)}});
    for (int i = 0; i < n; ++i) d.p.Word(static_cast<uint16_t>(0x1000 + 4 * i), va[i]);
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(b.Gpr(6), RefRed32(op, F32(0.5f), va)) << mn;
    if (n % 4 == 0 && n > 0) EXPECT_EQ(Cost(b, d), static_cast<uint64_t>(n) + 14) << mn;
  }
  for (const char* mn : {"fmaxrh", "fminrh"}) {
    const FpOp op = std::string(mn).rfind("fmax", 0) == 0 ? FpOp::kMax : FpOp::kMin;
    auto d = MakeOp({Mem1d(ElemType::kF16, 0x2000, n)}, mn, {R(7), D(0), Sync()}, {{7, H(-0.25f)}});
    for (int i = 0; i < n; ++i) d.p.Half(static_cast<uint16_t>(0x2000 + 2 * i), vh[i]);
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(b.Gpr(7) & 0xFFFF, RefRed16(op, H(-0.25f), vh)) << mn;
  }
}
INSTANTIATE_TEST_SUITE_P(Lengths, FmaxrTest, ::testing::Values(0, 1, 3, 4, 16, 64, 65));

// fdothms: f16 vectors, each element widened exactly to f32, accumulated in f32 in fdots' order.
class FdothmsTest : public ::testing::TestWithParam<int> {};

TEST_P(FdothmsTest, AccumulatesF16ProductsInF32) {
  const int n = GetParam();
  const uint16_t a = 0x1000, c = 0x1202;
  auto d = MakeOp({Mem1d(ElemType::kF16, a, n), Mem1d(ElemType::kF16, c, n)}, "fdothms",
                  {R(6), D(0), D(1), Sync()}, {{6, F32(0.1f)}});
  std::vector<uint32_t> wa, wc;  // the widened elements
  for (int i = 0; i < n; ++i) {
    const uint16_t ha = H(1.0f / (i + 1)), hc = H(0.3f * i - 2.0f);
    d.p.Half(static_cast<uint16_t>(a + 2 * i), ha);
    d.p.Half(static_cast<uint16_t>(c + 2 * i), hc);
    wa.push_back(Fp(FpOp::kCvtF2F, FpFmt::kF16, ha, 0));
    wc.push_back(Fp(FpOp::kCvtF2F, FpFmt::kF16, hc, 0));
  }
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(6), RefDots(F32(0.1f), wa, wc));
  if (n % 4 == 0 && n > 0) EXPECT_EQ(Cost(b, d), static_cast<uint64_t>(n) + 14);
}
INSTANTIATE_TEST_SUITE_P(Lengths, FdothmsTest, ::testing::Values(0, 1, 3, 4, 16, 64, 65));

TEST(CeDsd, FdotZeroLengthStillCombines) {
  // N = 0: the combine steps run on p0 = acc and the -0 partials; a signaling NaN accumulator
  // becomes the canonical NaN and raises invalid.
  auto d = MakeOp({Mem1d(ElemType::kF32, 0x1000, 0), Mem1d(ElemType::kF32, 0x1100, 0)}, "fdots",
                  {R(6), D(0), D(1), Sync()}, {{6, 0x7F800001u}});
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(6), arch::kCanonicalNan32);
  EXPECT_EQ(b.ce.State().fp_flags, static_cast<uint8_t>(arch::FpFlag::kInvalid));
  // q0 at t+1, q1 at t+2, the final add at t+6, written at t+11; next issue t+12.
  EXPECT_EQ(Cost(b, d), 12u);
}

class FdothTest : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(FdothTest, EightPartialsInTheDefinedOrder) {
  const int n = GetParam().first;
  const uint16_t a = static_cast<uint16_t>(0x1000 + GetParam().second);
  const uint16_t c = static_cast<uint16_t>(0x1204 + GetParam().second);
  auto d = MakeOp({Mem1d(ElemType::kF16, a, n), Mem1d(ElemType::kF16, c, n)}, "fdoth",
                  {R(6), D(0), D(1), Sync()}, {{6, 0xFFFF0000u | H(0.5f)}});
  std::vector<uint16_t> va, vc;
  for (int i = 0; i < n; ++i) {
    va.push_back(H(1.0f / (i + 1)));
    vc.push_back(H(0.25f * i - 1.0f));
    d.p.Half(static_cast<uint16_t>(a + 2 * i), va.back());
    d.p.Half(static_cast<uint16_t>(c + 2 * i), vc.back());
  }
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(6), RefDoth(H(0.5f), va, vc));
  if (n == 64 && GetParam().second == 0) {
    // 32 pair steps; A = P0+P1 at t+34, B at t+36, C at t+40, the final add at t+44.
    EXPECT_EQ(Cost(b, d), 50u);
  }
}
INSTANTIATE_TEST_SUITE_P(Lengths, FdothTest,
                         ::testing::Values(std::pair{0, 0}, std::pair{1, 0}, std::pair{7, 0},
                                           std::pair{64, 0}, std::pair{33, 2}, std::pair{9, 2}));

TEST(CeDsd, BankConflictSplitsEveryStep) {
  // src0 and src1 at the same address mod 16: every step reads src1 one cycle later.
  const int n = 16;
  auto conflict = MakeOp({Mem1d(ElemType::kF32, 0x1400, n), Mem1d(ElemType::kF32, 0x1000, n),
                          Mem1d(ElemType::kF32, 0x1100, n)},
                         "fadds", {D(0), D(1), D(2), Sync()});
  auto same = MakeOp({Mem1d(ElemType::kF32, 0x1400, n), Mem1d(ElemType::kF32, 0x1000, n),
                      Mem1d(ElemType::kF32, 0x1000, n)},
                     "fadds", {D(0), D(1), D(2), Sync()});
  auto skewed = MakeOp({Mem1d(ElemType::kF32, 0x1400, n), Mem1d(ElemType::kF32, 0x1000, n),
                        Mem1d(ElemType::kF32, 0x1108, n)},
                       "fadds", {D(0), D(1), D(2), Sync()});
  for (auto* d : {&conflict, &same, &skewed}) {
    for (int i = 0; i < n; ++i) {
      d->p.Word(static_cast<uint16_t>(0x1000 + 4 * i), F32(1.0f + i));
      d->p.Word(static_cast<uint16_t>(0x1100 + 4 * i), F32(10.0f * i));
      d->p.Word(static_cast<uint16_t>(0x1108 + 4 * i), F32(10.0f * i));
    }
  }
  Bench b1, b2, b3;
  b1.Load(conflict.p, kMain);
  b1.RunToQuiet();
  b2.Load(same.p, kMain);
  b2.RunToQuiet();
  b3.Load(skewed.p, kMain);
  b3.RunToQuiet();
  EXPECT_EQ(Cost(b1, conflict), 2u * n + 6);
  EXPECT_EQ(Cost(b2, same), static_cast<uint64_t>(n) + 6);
  EXPECT_EQ(Cost(b3, skewed), static_cast<uint64_t>(n) + 6);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(b1.Word(static_cast<uint16_t>(0x1400 + 4 * i)), F32(1.0f + i + 10.0f * i));
    EXPECT_EQ(b2.Word(static_cast<uint16_t>(0x1400 + 4 * i)), F32(2.0f + 2 * i));
  }
}

TEST(CeDsd, SplitStepHoldsTheScalarLoadsAndFp) {
  // An asynchronous split operation; loads from the operation's row share it (no conflict) but
  // cannot issue in a split step's second cycle. 4 steps: halves at t+1/t+2, ..., t+7/t+8.
  Prog p;
  p.Dword(0x800, Mem1d(ElemType::kF32, 0x1400, 4));
  p.Dword(0x808, Mem1d(ElemType::kF32, 0x1000, 4));
  p.Dword(0x810, Mem1d(ElemType::kF32, 0x1100, 4));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)});
  const uint16_t op = p.Here();
  p("fadds", {D(0), D(1), D(2), Async(1)});
  const uint16_t loads = p.Here();
  for (int k = 0; k < 5; ++k) p("lw", {R(1 + k), A(0x1000)});
  p("lw", {R(7), A(0xC010)})  // a register load needs no port
      ("fadd.s", {R(8), R(1), R(1)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  EXPECT_EQ(b.RetireCycle(loads + 0), t + 1);
  EXPECT_EQ(b.RetireCycle(loads + 4), t + 3);
  EXPECT_EQ(b.RetireCycle(loads + 8), t + 5);
  EXPECT_EQ(b.RetireCycle(loads + 12), t + 7);
  EXPECT_EQ(b.RetireCycle(loads + 16), t + 9);
  EXPECT_EQ(b.RetireCycle(loads + 20), t + 10);
  EXPECT_EQ(b.RetireCycle(loads + 24), t + 11);
}

TEST(CeDsd, SplitStepHoldsScalarFpInItsSecondCycle) {
  Prog p;
  p.Dword(0x800, Mem1d(ElemType::kF32, 0x1400, 2));
  p.Dword(0x808, Mem1d(ElemType::kF32, 0x1000, 2));
  p.Dword(0x810, Mem1d(ElemType::kF32, 0x1100, 2));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)});
  const uint16_t op = p.Here();
  p("fadds", {D(0), D(1), D(2), Async(1)})("nop");
  const uint16_t fp = p.Here();
  p("fadd.s", {R(8), R(1), R(1)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  // nop at t+1 (step 0 first half), fadd.s would issue at t+2: the second half; it waits a cycle.
  EXPECT_EQ(b.RetireCycle(fp), t + 3);
}

TEST(CeDsd, ScalarFpTakesTheFmacSlotFromAnFpStep) {
  // An asynchronous fadds of 8 elements and scalar FP instructions: each scalar FP issue costs
  // the operation one step (the FMAC slot of c+1).
  Prog p;
  p.Dword(0x800, Mem1d(ElemType::kF32, 0x1400, 8));
  p.Dword(0x808, Mem1d(ElemType::kF32, 0x1000, 8));
  p.Dword(0x810, Mem1d(ElemType::kF32, 0x1104, 8));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)});
  const uint16_t op = p.Here();
  p("fadds", {D(0), D(1), D(2), Async(1)})("fadd.s", {R(8), R(1), R(1)})(
      "fadd.s", {R(9), R(1), R(1)})("utwait", {I(0xFF)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  auto done = b.Records(Kind::kUtDone);
  ASSERT_EQ(done.size(), 1u);
  // Steps at t+2..t+6, t+8..t+10 (fadd.s at t+1 and t+7): last step t+10, complete t+15.
  EXPECT_EQ(done[0].cycle, t + 15);
  // An integer operation is not held back.
  Prog q;
  q.Dword(0x800, Mem1d(ElemType::kU32, 0x1400, 8));
  q.Dword(0x808, Mem1d(ElemType::kU32, 0x1000, 8));
  q.Dword(0x810, Mem1d(ElemType::kU32, 0x1104, 8));
  q("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)});
  q("add32", {D(0), D(1), D(2), Async(1)})("fadd.s", {R(8), R(1), R(1)})(
      "fadd.s", {R(9), R(1), R(1)})("utwait", {I(0xFF)})("tend");
  Bench b2;
  b2.Load(q, kMain);
  b2.RunToQuiet();
  auto done2 = b2.Records(Kind::kUtDone);
  ASSERT_EQ(done2.size(), 1u);
  EXPECT_EQ(done2[0].cycle, b2.RetireCycle(op) + 8 + 5);
}

TEST(CeDsd, TwoMicrothreadsShareTheEngineRoundRobin) {
  Prog p;
  p.Dword(0x800, Mem1d(ElemType::kU32, 0x1400, 4));
  p.Dword(0x808, Mem1d(ElemType::kU32, 0x1000, 4));
  p.Dword(0x810, Mem1d(ElemType::kU32, 0x1500, 4));
  p.Dword(0x818, Mem1d(ElemType::kU32, 0x1104, 4));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)})("ldd",
                                                                               {D(3), A(0x818)});
  const uint16_t op = p.Here();
  p("mov32", {D(0), D(1), Async(2)})("mov32", {D(2), D(3), Async(5)})("utwait", {I(0x24)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  // ut2 steps at t+1; from t+2 both are busy: ut5 (after the pointer at 3), ut2, ut5, ...
  auto done = b.Records(Kind::kUtDone);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].ut, 2);
  EXPECT_EQ(done[0].cycle, t + 7 + 5);  // ut2: t+1, t+3, t+5, t+7
  EXPECT_EQ(done[1].ut, 5);
  EXPECT_EQ(done[1].cycle, t + 8 + 5);  // ut5: t+2, t+4, t+6, t+8
}

TEST(CeDsd, ResultsDueTakeTheWritePortAndTheRampFirst) {
  // An asynchronous one-element operation issued at 3 steps at 4; its result is due at 9.
  auto run = [](uint64_t dst, const std::vector<std::string>& tail, Bench& b) {
    Prog p;
    p.Dword(0x800, dst);
    p.Dword(0x808, Mem1d(ElemType::kU32, 0x1104, 1));
    p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("mov32", {D(0), D(1), Async(1)});
    for (const auto& t : tail) {
      if (t == "sw") {
        p("sw", {R(1), A(0x1200)});
      } else if (t == "std") {
        p("std", {D(1), A(0x1208)});
      } else if (t == "send") {
        p("send", {R(1), I(6)});
      } else {
        p(t);
      }
    }
    p("nop")("tend");
    b.router.OpenAll();
    b.Load(p, kMain);
    b.RunToQuiet();
  };
  {
    Bench b;
    b.NotMirrored("the fake router's registers");
    run(Mem1d(ElemType::kU32, 0x1000, 1), {"nop", "nop", "nop", "nop", "nop", "sw"}, b);
    EXPECT_EQ(b.RetireCycle(0x20), 10u);  // the store waits for the write port
    EXPECT_EQ(b.RetireCycle(0x24), 11u);
  }
  {
    Bench b;
    b.NotMirrored("the fake router's registers");
    run(Mem1d(ElemType::kU32, 0x1000, 1), {"nop", "nop", "nop", "nop", "std"}, b);
    EXPECT_EQ(b.RetireCycle(0x1C), 8u);  // first word at 8, the second waits from 9 to 10
    EXPECT_EQ(b.RetireCycle(0x20), 11u);
    EXPECT_EQ(b.Word(0x120C), static_cast<uint32_t>(Mem1d(ElemType::kU32, 0x1104, 1) >> 32));
  }
  {
    Bench b;
    b.NotMirrored("the fake router's registers");
    run(FabOut(ElemType::kU32, 6, 1), {"nop", "nop", "nop", "nop", "nop", "send"}, b);
    EXPECT_EQ(b.RetireCycle(0x20), 10u);  // the send waits for the ramp slot
    ASSERT_EQ(b.sent.size(), 2u);
    EXPECT_EQ(b.sent[0].cycle, 9u);
    EXPECT_EQ(b.sent[1].cycle, 10u);
  }
}

// FIFOs (docs/isa.md 2.3): a pusher and a popper on two microthreads through a FIFO of 3 slots.
// The lengths come from the memory operands; the FIFO wraps (10 elements through 3 slots) and
// ends empty, its head and tail at slot 10 mod 3; the pusher waited for room (UtWait Fifo).
TEST(CeDsd, FifoCarriesElementsBetweenTwoMicrothreadsAndWraps) {
  Prog p;
  p.Dword(0x800, Fifo(ElemType::kU32, 0x1800, 3, 2));
  p.Dword(0x808, Mem1d(ElemType::kU32, 0x1000, 10));
  p.Dword(0x810, Mem1d(ElemType::kU32, 0x1400, 10));
  for (int i = 0; i < 10; ++i) p.Word(static_cast<uint16_t>(0x1000 + 4 * i), 7u * i + 1);
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("ldd", {D(2), A(0x810)});
  p("mov32", {D(0), D(1), Async(1)})("mov32", {D(2), D(0), Async(2)})("utwait", {I(0x06)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  ASSERT_FALSE(b.ce.Faulted()) << b.ce.FaultMessage();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1400 + 4 * i)), 7u * i + 1);
  const auto& f = b.ce.State().fifo[2];
  EXPECT_EQ(f.head, 1u);
  EXPECT_EQ(f.tail, 1u);
  EXPECT_EQ(f.count, 0u);
  EXPECT_EQ(f.used, 0u);
  EXPECT_EQ(b.Word(arch::FifoState::Addr(4)), 0x00010001u);  // Tail 1, Head 1
  EXPECT_EQ(b.Word(arch::FifoState::Addr(5)), 0u);           // Used 0, Count 0
  EXPECT_GT(b.ce.State().perf[static_cast<int>(arch::PerfEvent::kUtFifo)], 0u);
  auto done = b.Records(Kind::kUtDone);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].ut, 1);  // the pusher ends first; the popper's last pop comes after
  EXPECT_EQ(done[1].ut, 2);
  EXPECT_GT(done[1].cycle, done[0].cycle);
}

// A popper of an empty FIFO waits (UtWait Fifo) and the CE is settled, not quiet; an operation
// on FIFOs only is unbounded.
TEST(CeDsd, FifoPopperOfAnEmptyFifoWaitsSettled) {
  Prog p;
  p.Dword(0x800, Fifo(ElemType::kF32, 0x1800, 4, 0));
  p.Dword(0x808, Fifo(ElemType::kF32, 0x1900, 4, 1));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)});
  p("fnegs", {D(1), D(0), Async(3)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.Run(100);
  ASSERT_FALSE(b.ce.Faulted()) << b.ce.FaultMessage();
  const uint32_t st = b.Word(arch::UtStatus::Addr(3));
  EXPECT_TRUE(arch::UtStatus::Busy(st));
  EXPECT_EQ(arch::UtStatus::Wait(st), static_cast<uint32_t>(arch::UtWait::kFifo));
  EXPECT_EQ(b.ce.State().ut[3].n, kUnbounded);
  EXPECT_FALSE(b.ce.Quiet());
  EXPECT_TRUE(b.ce.Settled());
}

TEST(CeDsd, FifoDescriptorsThatAreNotValidFault) {
  struct Case {
    uint64_t a, b;
    arch::CeFault cause;
    uint32_t index;
    std::string text;
  };
  const std::vector<Case> cases = {
      {Fifo(ElemType::kU32, 0x1800, 0, 1), Mem1d(ElemType::kU32, 0x1000, 4),
       arch::CeFault::kDsdInvalid, static_cast<uint32_t>(arch::DsdWhy::kFifo),
       "dst (d0) is a fifo descriptor of number 1 or of capacity 0 or 0x7FFF"},
      {Fifo(ElemType::kU32, 0x1800, 4, 9), Mem1d(ElemType::kU32, 0x1000, 4),
       arch::CeFault::kDsdInvalid, static_cast<uint32_t>(arch::DsdWhy::kFifo),
       "dst (d0) is a fifo descriptor of number 9"},
      {Fifo(ElemType::kU32, 0x1802, 4, 1), Mem1d(ElemType::kU32, 0x1000, 4),
       arch::CeFault::kDsdMisaligned, 0, "base 0x1802 is not aligned"},
  };
  for (const Case& c : cases) {
    auto d = MakeOp({c.a, c.b}, "mov32", {D(0), D(1), Sync()});
    Bench b;
    b.Load(d.p, kMain);
    b.RunToQuiet();
    EXPECT_EQ(static_cast<arch::CeFault>(b.ce.State().fault_status), c.cause) << c.text;
    if (c.cause == arch::CeFault::kDsdInvalid)
      EXPECT_EQ(arch::FaultInfo::Index(b.ce.State().fault_info), c.index);
    EXPECT_NE(b.ce.FaultMessage().find(c.text), std::string::npos) << b.ce.FaultMessage();
  }
  // Two sources on one FIFO.
  auto d = MakeOp({Mem1d(ElemType::kF32, 0x1000, 4), Fifo(ElemType::kF32, 0x1800, 4, 3),
                   Fifo(ElemType::kF32, 0x1800, 4, 3)},
                  "fadds", {D(0), D(1), D(2), Sync()});
  Bench b;
  b.Load(d.p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(arch::FaultInfo::Index(b.ce.State().fault_info),
            static_cast<uint32_t>(arch::DsdWhy::kSameColor));
  EXPECT_NE(b.ce.FaultMessage().find("both read FIFO 3"), std::string::npos) << b.ce.FaultMessage();
}

}  // namespace
}  // namespace tessera::ce::test
