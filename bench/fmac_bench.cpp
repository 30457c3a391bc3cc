// FMAC throughput of the functional model and the RTL datapath: f32 and f16 (two lanes, two
// operations per case) fused multiply-add on the same random operands, in one process, and the
// func/rtl ratio. Also counts cases where the two backends disagree (they must not). Numbers
// only: nothing here asserts on time.
//
//   tessera_bench_fmac [--cases N] [--seconds S] [--backend func|rtl|both] [--json]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fp/func_fp_backend.h"
#include "rtl/fmac_backend.h"
#include "util/json.h"

namespace {

using tessera::arch::FpFmt;
using tessera::arch::FpOp;
using tessera::fp::FpBackend;
using tessera::fp::FpCase;
using tessera::fp::FpOut;

// Operands like a kernel's: random sign and significand, exponents within +-8 binades of 1, so
// that most products and addends overlap (the datapath's common case, not its special cases).
uint32_t RandomF32(std::mt19937_64& rng) {
  const uint64_t r = rng();
  const uint32_t exp = 127 - 8 + static_cast<uint32_t>((r >> 32) % 17);
  return static_cast<uint32_t>(r & 0x807FFFFF) | exp << 23;
}
uint32_t RandomF16(std::mt19937_64& rng) {
  const uint64_t r = rng();
  const uint32_t exp = 15 - 8 + static_cast<uint32_t>((r >> 32) % 17);
  return static_cast<uint32_t>(r & 0x83FF) | exp << 10;
}

std::vector<FpCase> MakeCases(FpFmt fmt, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto operand = [&] {
    return fmt == FpFmt::kF32 ? RandomF32(rng) : RandomF16(rng) | RandomF16(rng) << 16;
  };
  std::vector<FpCase> cases(n);
  for (auto& c : cases) c = FpCase{FpOp::kMulAdd, fmt, operand(), operand(), operand()};
  return cases;
}

struct Measure {
  double cases_per_s = 0;
  double ops_per_s = 0;
  std::vector<FpOut> out;
};

// Runs the batch repeatedly for at least `seconds` (at least once).
Measure Run(FpBackend& backend, const std::vector<FpCase>& cases, int lanes, double seconds) {
  Measure m;
  m.out.resize(cases.size());
  backend.Run(cases.data(), m.out.data(), std::min<size_t>(cases.size(), 1024));  // warm up
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  size_t done = 0;
  double elapsed = 0;
  do {
    backend.Run(cases.data(), m.out.data(), cases.size());
    done += cases.size();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  m.cases_per_s = static_cast<double>(done) / elapsed;
  m.ops_per_s = m.cases_per_s * lanes;
  return m;
}

size_t Mismatches(const std::vector<FpOut>& a, const std::vector<FpOut>& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    n += a[i].result != b[i].result || a[i].flags[0] != b[i].flags[0] ||
         a[i].flags[1] != b[i].flags[1];
  }
  return n;
}

std::string Rate(double r) {
  if (r >= 1e9) return fmt::format("{:.2f} G", r / 1e9);
  if (r >= 1e6) return fmt::format("{:.2f} M", r / 1e6);
  if (r >= 1e3) return fmt::format("{:.2f} k", r / 1e3);
  return fmt::format("{:.0f} ", r);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"FMAC operations per second: functional model vs RTL datapath"};
  size_t cases = 1 << 20;
  double seconds = 1.0;
  std::string which = "both";
  bool json = false;
  app.add_option("--cases", cases, "random cases per format")->check(CLI::PositiveNumber);
  app.add_option("--seconds", seconds, "minimum time per measurement (the RTL runs once)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--backend", which, "backends to measure")
      ->check(CLI::IsMember({"func", "rtl", "both"}));
  app.add_flag("--json", json, "end with one JSON object");
  CLI11_PARSE(app, argc, argv);

  tessera::fp::FuncFpBackend func;
  std::unique_ptr<FpBackend> rtl;
  if (which != "func") rtl = tessera::rtl::MakeRtlFpBackend();

  tessera::util::JsonObject result;
  result.Add("cases", cases);
  fmt::print("FMAC mulAdd throughput, {} random cases per format (f16: 2 lanes = 2 ops a case)\n",
             cases);
  fmt::print("{:<12} {:<8} {:>14} {:>14}\n", "op", "backend", "cases/s", "ops/s");
  for (const FpFmt fmt : {FpFmt::kF32, FpFmt::kF16}) {
    const char* name = fmt == FpFmt::kF32 ? "f32_mulAdd" : "f16_mulAdd";
    const int lanes = fmt == FpFmt::kF32 ? 1 : 2;
    const auto in = MakeCases(fmt, cases, fmt == FpFmt::kF32 ? 1 : 2);
    tessera::util::JsonObject j;
    Measure f, r;
    if (which != "rtl") {
      f = Run(func, in, lanes, seconds);
      fmt::print("{:<12} {:<8} {:>13}/s {:>13}/s\n", name, "func", Rate(f.cases_per_s),
                 Rate(f.ops_per_s));
      j.Add("func_ops_per_s", f.ops_per_s);
    }
    if (rtl) {
      r = Run(*rtl, in, lanes, 0);
      fmt::print("{:<12} {:<8} {:>13}/s {:>13}/s\n", name, "rtl", Rate(r.cases_per_s),
                 Rate(r.ops_per_s));
      j.Add("rtl_ops_per_s", r.ops_per_s);
    }
    if (rtl && which == "both") {
      const size_t differ = Mismatches(f.out, r.out);
      fmt::print("{:<12} {:<8} {:>14.1f}x{}\n", name, "func/rtl", f.ops_per_s / r.ops_per_s,
                 differ ? fmt::format("   ({} cases differ between backends!)", differ) : "");
      j.Add("ratio", f.ops_per_s / r.ops_per_s).Add("mismatches", differ);
    }
    result.Add(name, j);
  }
  if (json) fmt::print("{}\n", result.str());
  return 0;
}
