// Scoreboard for the RTL FMAC datapath: runs every line of the shared TestFloat vector files
// (../shared/testfloat/*.tv.gz) through the verilated tessera_fmac and checks result and flags;
// then directed checks of the operations the vectors do not cover (min, max, neg, abs) against a
// small reference of the RISC-V rules. f16 arithmetic vectors are packed two per issue (lane 0,
// lane 1); f16 lane-0-only operations carry a signalling NaN in lane 1, which must be ignored.
//
//   tessera_tb_fmac_vectors [--dir DIR] [--show N] [FILE.tv.gz ...]
//
// Prints `<file>: N passed, M failed` per file and the first failures decoded; exits 1 on any
// failure.
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "fp/fp_backend.h"
#include "rtl_fp_backend.h"

#ifndef TESSERA_TESTFLOAT_DIR
#define TESSERA_TESTFLOAT_DIR "../shared/testfloat"
#endif

namespace {

using tessera::arch::FpFmt;
using tessera::arch::FpOp;
using tessera::fp::FpCase;
using tessera::fp::FpOut;

// How a vector file maps onto the datapath.
enum class Kind {
  kTwoLane,  // f16 arithmetic: two cases per issue
  kLane0,    // f16 operands, lane 0 only, 16-bit or boolean result
  kWord,     // f32 / i32 operands, 32-bit result
};

struct FileSpec {
  const char* name;
  FpOp op;
  FpFmt fmt;
  int operands;
  Kind kind;
  int operand_bits;  // 16 or 32, for printing
  int result_bits;   // 16 or 32, for printing (zero-extended results are checked on all 32 bits)
};

constexpr FileSpec kFiles[] = {
    {"f16_add", FpOp::kAdd, FpFmt::kF16, 2, Kind::kTwoLane, 16, 16},
    {"f16_sub", FpOp::kSub, FpFmt::kF16, 2, Kind::kTwoLane, 16, 16},
    {"f16_mul", FpOp::kMul, FpFmt::kF16, 2, Kind::kTwoLane, 16, 16},
    {"f16_mulAdd", FpOp::kMulAdd, FpFmt::kF16, 3, Kind::kTwoLane, 16, 16},
    {"f16_eq", FpOp::kEq, FpFmt::kF16, 2, Kind::kLane0, 16, 32},
    {"f16_le", FpOp::kLe, FpFmt::kF16, 2, Kind::kLane0, 16, 32},
    {"f16_lt", FpOp::kLt, FpFmt::kF16, 2, Kind::kLane0, 16, 32},
    {"f16_to_f32", FpOp::kCvtF2F, FpFmt::kF16, 1, Kind::kLane0, 16, 32},
    {"f16_to_i32_rminMag", FpOp::kCvtF2I, FpFmt::kF16, 1, Kind::kLane0, 16, 32},
    {"f32_add", FpOp::kAdd, FpFmt::kF32, 2, Kind::kWord, 32, 32},
    {"f32_sub", FpOp::kSub, FpFmt::kF32, 2, Kind::kWord, 32, 32},
    {"f32_mul", FpOp::kMul, FpFmt::kF32, 2, Kind::kWord, 32, 32},
    {"f32_mulAdd", FpOp::kMulAdd, FpFmt::kF32, 3, Kind::kWord, 32, 32},
    {"f32_eq", FpOp::kEq, FpFmt::kF32, 2, Kind::kWord, 32, 32},
    {"f32_le", FpOp::kLe, FpFmt::kF32, 2, Kind::kWord, 32, 32},
    {"f32_lt", FpOp::kLt, FpFmt::kF32, 2, Kind::kWord, 32, 32},
    {"f32_to_f16", FpOp::kCvtF2F, FpFmt::kF32, 1, Kind::kWord, 32, 32},
    {"f32_to_i32_rminMag", FpOp::kCvtF2I, FpFmt::kF32, 1, Kind::kWord, 32, 32},
    {"i32_to_f16", FpOp::kCvtI2F, FpFmt::kF16, 1, Kind::kWord, 32, 32},
    {"i32_to_f32", FpOp::kCvtI2F, FpFmt::kF32, 1, Kind::kWord, 32, 32},
};

constexpr uint32_t kLane1Snan = 0x7D00;  // an f16 sNaN: invalid if lane 1 leaked into a result
constexpr const char* kDirectedName = "min_max_neg_abs";  // the directed checks, by name

struct Vector {
  uint32_t op[3];
  uint32_t result;
  uint8_t flags;
};

std::string FlagNames(unsigned f) {
  static const char* const kNames[] = {"NX", "UF", "OF", "DZ", "NV"};
  std::string s;
  for (int i = 4; i >= 0; --i) {
    if (f & (1u << i)) s += std::string(s.empty() ? "" : "|") + kNames[i];
  }
  return s.empty() ? "-" : s;
}

bool ReadVectors(const std::string& path, int operands, std::vector<Vector>* out) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "error: cannot open %s\n", path.c_str());
    return false;
  }
  char line[256];
  int lineno = 0;
  bool ok = true;
  while (gzgets(f, line, sizeof line)) {
    ++lineno;
    uint32_t v[5] = {};
    char* p = line;
    int n = 0;
    for (; n < operands + 2; ++n) {
      char* end = nullptr;
      unsigned long x = std::strtoul(p, &end, 16);
      if (end == p) break;
      v[n] = static_cast<uint32_t>(x);
      p = end;
    }
    if (n == 0) continue;  // blank line
    if (n != operands + 2) {
      std::fprintf(stderr, "error: %s:%d: expected %d fields\n", path.c_str(), lineno,
                   operands + 2);
      ok = false;
      break;
    }
    Vector vec{};
    for (int i = 0; i < operands; ++i) vec.op[i] = v[i];
    vec.result = v[operands];
    vec.flags = static_cast<uint8_t>(v[operands + 1]);
    out->push_back(vec);
  }
  gzclose(f);
  return ok;
}

struct Tally {
  size_t passed = 0, failed = 0;
};

struct Speed {
  size_t issues = 0;
  double seconds = 0;
};

void RunTimed(tessera::fp::FpBackend& be, const std::vector<FpCase>& in, std::vector<FpOut>* out,
              Speed* speed) {
  out->assign(in.size(), FpOut{});
  const auto t0 = std::chrono::steady_clock::now();
  be.Run(in.data(), out->data(), in.size());
  const auto t1 = std::chrono::steady_clock::now();
  speed->issues += in.size();
  speed->seconds += std::chrono::duration<double>(t1 - t0).count();
}

Tally CheckFile(tessera::fp::FpBackend& be, const FileSpec& spec, const std::vector<Vector>& vecs,
                int show, Speed* speed) {
  std::vector<FpCase> in;
  const bool two_lane = spec.kind == Kind::kTwoLane;
  const size_t per_issue = two_lane ? 2 : 1;
  in.reserve((vecs.size() + per_issue - 1) / per_issue);
  for (size_t i = 0; i < vecs.size(); i += per_issue) {
    FpCase c{spec.op, spec.fmt, 0, 0, 0};
    uint32_t* ops[3] = {&c.a, &c.b, &c.c};
    for (int k = 0; k < spec.operands; ++k) {
      if (two_lane) {
        const Vector& hi = (i + 1 < vecs.size()) ? vecs[i + 1] : vecs[i];
        *ops[k] = (vecs[i].op[k] & 0xFFFFu) | (hi.op[k] << 16);
      } else if (spec.kind == Kind::kLane0) {
        *ops[k] = (vecs[i].op[k] & 0xFFFFu) | (kLane1Snan << 16);
      } else {
        *ops[k] = vecs[i].op[k];
      }
    }
    in.push_back(c);
  }
  std::vector<FpOut> out;
  RunTimed(be, in, &out, speed);

  Tally t;
  int shown = 0;
  for (size_t i = 0; i < vecs.size(); ++i) {
    const Vector& v = vecs[i];
    const FpOut& o = out[i / per_issue];
    uint32_t got;
    unsigned got_flags, other_flags;
    if (two_lane) {
      const unsigned lane = i % 2;
      got = (o.result >> (16 * lane)) & 0xFFFFu;
      got_flags = o.flags[lane];
      other_flags = 0;  // the other lane holds its own case
    } else {
      got = o.result;
      got_flags = o.flags[0];
      other_flags = o.flags[1];
    }
    const bool ok = got == v.result && got_flags == v.flags && other_flags == 0;
    if (ok) {
      ++t.passed;
      continue;
    }
    ++t.failed;
    if (shown++ < show) {
      std::string ops;
      for (int k = 0; k < spec.operands; ++k) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%s%0*X", k ? " " : "", spec.operand_bits / 4, v.op[k]);
        ops += buf;
      }
      std::printf("  FAIL %s line %zu: %s -> expected %0*X %s, got %0*X %s%s\n", spec.name, i + 1,
                  ops.c_str(), spec.result_bits / 4, v.result, FlagNames(v.flags).c_str(),
                  spec.result_bits / 4, got, FlagNames(got_flags).c_str(),
                  other_flags ? (" (lane 1 flags " + FlagNames(other_flags) + ")").c_str() : "");
    }
  }
  return t;
}

// ---- reference for the operations without vectors (RISC-V fmin/fmax, fneg, fabs) ----
struct Format {
  int exp_bits, man_bits;
  uint32_t Width() const { return 1 + exp_bits + man_bits; }
  uint32_t Mask() const { return Width() == 32 ? 0xFFFFFFFFu : (1u << Width()) - 1; }
  uint32_t Sign(uint32_t x) const { return (x >> (Width() - 1)) & 1; }
  uint32_t Exp(uint32_t x) const { return (x >> man_bits) & ((1u << exp_bits) - 1); }
  uint32_t Frac(uint32_t x) const { return x & ((1u << man_bits) - 1); }
  bool IsNan(uint32_t x) const { return Exp(x) == (1u << exp_bits) - 1 && Frac(x) != 0; }
  bool IsSnan(uint32_t x) const { return IsNan(x) && !((x >> (man_bits - 1)) & 1); }
  bool IsZero(uint32_t x) const { return (x & (Mask() >> 1)) == 0; }
  uint32_t CanonicalNan() const {
    return Width() == 32 ? tessera::arch::kCanonicalNan32 : tessera::arch::kCanonicalNan16;
  }
  // a < b for non-NaN values, -0 == +0
  bool Lt(uint32_t a, uint32_t b) const {
    if (Sign(a) != Sign(b)) return Sign(a) && !(IsZero(a) && IsZero(b));
    return a != b && (Sign(a) ^ (a < b));
  }
  bool Eq(uint32_t a, uint32_t b) const { return a == b || (IsZero(a) && IsZero(b)); }
};

struct RefOut {
  uint32_t result;
  uint8_t flags;
};

RefOut RefNoncomp(const Format& f, FpOp op, uint32_t a, uint32_t b) {
  const uint32_t sign_bit = 1u << (f.Width() - 1);
  const uint8_t snan = (f.IsSnan(a) || f.IsSnan(b)) ? 0x10 : 0;
  switch (op) {
    case FpOp::kMin:
    case FpOp::kMax: {
      if (f.IsNan(a) && f.IsNan(b)) return {f.CanonicalNan(), snan};
      if (f.IsNan(a)) return {b, snan};
      if (f.IsNan(b)) return {a, snan};
      const bool a_first = op == FpOp::kMin ? (f.Lt(a, b) || (f.Eq(a, b) && f.Sign(a)))
                                            : (f.Lt(b, a) || (f.Eq(a, b) && f.Sign(b)));
      return {a_first ? a : b, snan};
    }
    case FpOp::kNeg:
      return {a ^ sign_bit, 0};
    case FpOp::kAbs:
      return {a & ~sign_bit, 0};
    default:
      return {0, 0};
  }
}

std::vector<uint32_t> SpecialValues(const Format& f) {
  const uint32_t s = 1u << (f.Width() - 1);
  const uint32_t exp_ones = ((1u << f.exp_bits) - 1) << f.man_bits;
  const uint32_t one = ((1u << (f.exp_bits - 1)) - 1) << f.man_bits;
  const uint32_t quiet = 1u << (f.man_bits - 1);
  const uint32_t frac_max = (1u << f.man_bits) - 1;
  std::vector<uint32_t> base = {0,
                                1,
                                frac_max,
                                1u << f.man_bits,
                                one,
                                one + 1,
                                exp_ones - 1,
                                exp_ones,
                                exp_ones | quiet,
                                exp_ones | quiet | 5,
                                exp_ones | 1,
                                exp_ones | (quiet >> 1)};
  std::vector<uint32_t> v;
  for (uint32_t x : base) {
    v.push_back(x);
    v.push_back(x | s);
  }
  return v;
}

Tally CheckNoncomp(tessera::fp::FpBackend& be, int show, Speed* speed) {
  const Format f32{8, 23}, f16{5, 10};
  const FpOp ops[] = {FpOp::kMin, FpOp::kMax, FpOp::kNeg, FpOp::kAbs};
  std::mt19937 rng(1);
  Tally t;
  int shown = 0;
  for (int w = 0; w < 2; ++w) {
    const Format& f = w == 0 ? f32 : f16;
    const FpFmt fmt = w == 0 ? FpFmt::kF32 : FpFmt::kF16;
    std::vector<uint32_t> vals = SpecialValues(f);
    for (int i = 0; i < 40; ++i) vals.push_back(rng() & f.Mask());
    // near-equal pairs exercise the magnitude compare
    for (int i = 0; i < 10; ++i) {
      const uint32_t x = rng() & f.Mask();
      vals.push_back(x);
      vals.push_back((x + 1) & f.Mask());
    }
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t a : vals) {
      for (uint32_t b : vals) pairs.emplace_back(a, b);
    }
    for (FpOp op : ops) {
      std::vector<FpCase> in;
      // f16: lane 1 runs the pair list in reverse so both lanes see every pair
      for (size_t i = 0; i < pairs.size(); ++i) {
        FpCase c{op, fmt, pairs[i].first, pairs[i].second, 0};
        if (w == 1) {
          const auto& hi = pairs[pairs.size() - 1 - i];
          c.a = pairs[i].first | (hi.first << 16);
          c.b = pairs[i].second | (hi.second << 16);
        }
        in.push_back(c);
      }
      std::vector<FpOut> out;
      RunTimed(be, in, &out, speed);
      for (size_t i = 0; i < in.size(); ++i) {
        const int lanes = w == 1 ? 2 : 1;
        for (int l = 0; l < lanes; ++l) {
          const uint32_t a = w == 1 ? (in[i].a >> (16 * l)) & 0xFFFFu : in[i].a;
          const uint32_t b = w == 1 ? (in[i].b >> (16 * l)) & 0xFFFFu : in[i].b;
          const RefOut ref = RefNoncomp(f, op, a, b);
          const uint32_t got = w == 1 ? (out[i].result >> (16 * l)) & 0xFFFFu : out[i].result;
          const unsigned got_flags = out[i].flags[l];
          const bool other_ok = w == 1 || out[i].flags[1] == 0;
          if (got == ref.result && got_flags == ref.flags && other_ok) {
            ++t.passed;
          } else {
            ++t.failed;
            if (shown++ < show) {
              std::printf("  FAIL %s %s lane %d: %08X %08X -> expected %08X %s, got %08X %s\n",
                          tessera::arch::ToString(fmt), tessera::arch::ToString(op), l, a, b,
                          ref.result, FlagNames(ref.flags).c_str(), got,
                          FlagNames(got_flags).c_str());
            }
          }
        }
      }
    }
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = TESSERA_TESTFLOAT_DIR;
  int show = 5;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: %s [--dir DIR] [--show N] [NAME ...]\n"
          "  NAME: a vector file (f32_add, f16_mulAdd.tv.gz, ...) or %s; default: all\n",
          argv[0], kDirectedName);
      return 0;
    }
    if (arg == "--dir" || arg == "--show") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", arg.c_str());
        return 2;
      }
      const std::string value = argv[++i];
      if (arg == "--dir") {
        dir = value;
      } else {
        char* end = nullptr;
        const long n = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || n < 0 || n > 1000000) {
          std::fprintf(stderr, "error: --show needs a count, got '%s'\n", value.c_str());
          return 2;
        }
        show = static_cast<int>(n);
      }
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "error: unknown option %s (try --help)\n", arg.c_str());
      return 2;
    } else {
      std::string name = arg;
      const std::string suffix = ".tv.gz";
      if (name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        name.resize(name.size() - suffix.size());
      }
      const size_t slash = name.find_last_of('/');
      if (slash != std::string::npos) name = name.substr(slash + 1);
      bool known = name == kDirectedName;
      for (const FileSpec& spec : kFiles) known |= name == spec.name;
      if (!known) {
        std::fprintf(stderr, "error: unknown vector file '%s' (try --help)\n", arg.c_str());
        return 2;
      }
      only.push_back(name);
    }
  }
  auto wanted = [&only](const std::string& name) {
    if (only.empty()) return true;
    for (const auto& o : only) {
      if (o == name) return true;
    }
    return false;
  };

  try {
    auto backend = tessera::tb::MakeRtlFpBackend();
    size_t total_pass = 0, total_fail = 0, lines = 0;
    Speed speed;
    bool io_error = false;
    for (const FileSpec& spec : kFiles) {
      if (!wanted(spec.name)) continue;
      std::vector<Vector> vecs;
      const std::string path = dir + "/" + spec.name + ".tv.gz";
      if (!ReadVectors(path, spec.operands, &vecs)) {
        io_error = true;
        continue;
      }
      if (vecs.empty()) {
        std::fprintf(stderr, "error: %s holds no vectors\n", path.c_str());
        io_error = true;
        continue;
      }
      const Tally t = CheckFile(*backend, spec, vecs, show, &speed);
      std::printf("%-20s %zu passed, %zu failed\n", spec.name, t.passed, t.failed);
      total_pass += t.passed;
      total_fail += t.failed;
      lines += vecs.size();
    }
    if (wanted(kDirectedName)) {
      const Tally t = CheckNoncomp(*backend, show, &speed);
      std::printf("%-20s %zu passed, %zu failed\n", kDirectedName, t.passed, t.failed);
      total_pass += t.passed;
      total_fail += t.failed;
    }
    std::printf("total: %zu passed, %zu failed\n", total_pass, total_fail);
    if (speed.seconds > 0) {
      std::printf("rtl speed: %zu issues in %.3f s = %.0f issues/s (%zu vector lines)\n",
                  speed.issues, speed.seconds, speed.issues / speed.seconds, lines);
    }
    return (total_fail == 0 && !io_error) ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
