// `tessera fpcheck`: runs a TestFloat vector file through an FMAC backend (the functional model or
// the RTL datapath) and reports what differs. f16 two-lane operations pack consecutive vectors
// into lanes 0 and 1 of one case, so both lanes are checked; every selected vector is checked
// exactly once. Exit status: 0 all passed, 1 a vector failed, 2 bad input (thrown, main prints).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "fp/execute.h"
#include "fp/flags.h"
#include "fp/fp_backend.h"
#include "fp/func_fp_backend.h"
#include "fp/testfloat_file.h"
#include "fp/value_text.h"
#include "testbench/fmac/rtl_fp_backend.h"
#include "util/json.h"

namespace tessera::cli {
namespace {

constexpr size_t kNoVector = std::numeric_limits<size_t>::max();

struct FpcheckOptions {
  std::string backend = "func";
  std::string file;
  std::string op;
  size_t sample = 0;
  size_t show = 5;
  bool json = false;
};

void CheckBackendName(const std::string& name) {
  if (name != "func" && name != "rtl") {
    throw std::runtime_error(fmt::format("--backend: '{}' is not a backend (rtl or func)", name));
  }
}

std::unique_ptr<fp::FpBackend> MakeBackend(const std::string& name) {
  CheckBackendName(name);
  if (name == "rtl") return tb::MakeRtlFpBackend();
  return std::make_unique<fp::FuncFpBackend>();
}

// Indices of the vectors to run: all, or `sample` evenly spaced ones.
std::vector<size_t> Select(size_t total, size_t sample) {
  std::vector<size_t> chosen;
  if (sample == 0 || sample >= total) {
    for (size_t i = 0; i < total; ++i) chosen.push_back(i);
  } else {
    for (size_t k = 0; k < sample; ++k) chosen.push_back(k * total / sample);
  }
  return chosen;
}

struct Failure {
  size_t vector;
  int lane;
  uint32_t result;
  uint8_t flags;
  uint8_t other_lane_flags;  // lane 1's flags for a one-lane operation (must be 0)
};

void PrintFailure(const fp::TestFloatFile& file, const Failure& f) {
  const fp::TestFloatOp& op = file.op;
  const fp::TestFloatVector& v = file.vectors[f.vector];
  const uint32_t operands[3] = {v.in.a, v.in.b, v.in.c};
  std::string lane = fp::IsTwoLane(op.op, op.fmt) ? fmt::format(" (lane {})", f.lane) : "";
  fmt::print("FAIL {}:{}{}: {}", file.path, v.line, lane, op.name);
  for (int i = 0; i < op.operands; ++i) {
    fmt::print(" {}={}", static_cast<char>('a' + i), fp::FormatValue(op.operand_type, operands[i]));
  }
  fmt::print("\n  expected {} flags {}\n", fp::FormatValue(op.result_type, v.result),
             fp::FlagNames(v.flags));
  fmt::print("  got      {} flags {}\n", fp::FormatValue(op.result_type, f.result),
             fp::FlagNames(f.flags));
  if (f.other_lane_flags) {
    fmt::print("  and lane 1 flags {} (a one-lane operation must leave them 0)\n",
               fp::FlagNames(f.other_lane_flags));
  }
}

void RunFpcheck(const FpcheckOptions& opt) {
  CheckBackendName(opt.backend);
  const fp::TestFloatFile file = fp::ReadTestFloatFile(opt.file, opt.op);
  const fp::TestFloatOp& op = file.op;
  std::unique_ptr<fp::FpBackend> backend = MakeBackend(opt.backend);
  const bool two_lane = fp::IsTwoLane(op.op, op.fmt);
  const int lanes = two_lane ? 2 : 1;

  // Cases to run, and which vector fills each lane of each.
  const std::vector<size_t> chosen = Select(file.vectors.size(), opt.sample);
  std::vector<fp::FpCase> in;
  std::vector<std::array<size_t, 2>> lane_vector;
  for (size_t k = 0; k < chosen.size(); k += lanes) {
    fp::FpCase c = file.vectors[chosen[k]].in;
    std::array<size_t, 2> which = {chosen[k], kNoVector};
    if (two_lane && k + 1 < chosen.size()) {
      const fp::FpCase& hi = file.vectors[chosen[k + 1]].in;
      c.a |= hi.a << 16;
      c.b |= hi.b << 16;
      c.c |= hi.c << 16;
      which[1] = chosen[k + 1];
    }
    in.push_back(c);
    lane_vector.push_back(which);
  }

  std::vector<fp::FpOut> out(in.size());
  const auto start = std::chrono::steady_clock::now();
  backend->Run(in.data(), out.data(), in.size());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  size_t passed = 0;
  std::vector<Failure> failures;
  size_t failed = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    for (int lane = 0; lane < lanes; ++lane) {
      const size_t vi = lane_vector[i][lane];
      if (vi == kNoVector) continue;
      const fp::TestFloatVector& v = file.vectors[vi];
      Failure got{vi, lane, out[i].result, out[i].flags[lane], 0};
      if (two_lane) got.result = (out[i].result >> (16 * lane)) & 0xFFFF;
      if (!two_lane) got.other_lane_flags = out[i].flags[1];
      if (got.result == v.result && got.flags == v.flags && got.other_lane_flags == 0) {
        ++passed;
      } else {
        ++failed;
        if (failures.size() < opt.show) failures.push_back(got);
      }
    }
  }

  for (const Failure& f : failures) PrintFailure(file, f);
  if (failed > failures.size()) fmt::print("... and {} more\n", failed - failures.size());
  fmt::print("{} on {}: {} of {} vectors{}{} in {:.3f} s\n", op.name, backend->Name(),
             chosen.size(), file.vectors.size(),
             chosen.size() < file.vectors.size() ? " (evenly spaced sample)" : "",
             two_lane ? fmt::format(" as {} two-lane cases", in.size()) : "", seconds);
  fmt::print("fpcheck: {} passed, {} failed\n", passed, failed);
  if (opt.json) {
    std::string lines = "[";
    for (const Failure& f : failures) {
      if (lines.size() > 1) lines += ",";
      lines += std::to_string(file.vectors[f.vector].line);
    }
    lines += "]";
    util::JsonObject j;
    j.Add("file", file.path)
        .Add("op", op.name)
        .Add("backend", backend->Name())
        .Add("vectors", file.vectors.size())
        .Add("checked", chosen.size())
        .Add("cases", in.size())
        .Add("lanes", lanes)
        .Add("passed", passed)
        .Add("failed", failed)
        .Add("seconds", seconds)
        .AddRaw("first_failed_lines", lines);
    fmt::print("{}\n", j.str());
  }
  if (failed > 0) throw CLI::RuntimeError(1);
}

}  // namespace

void AddFpcheckCommand(CLI::App& app) {
  auto opt = std::make_shared<FpcheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fpcheck", "Run a TestFloat vector file through an FMAC backend and compare every result");
  cmd->add_option("--backend", opt->backend, "FMAC backend: func (functional model) or rtl")
      ->capture_default_str();
  cmd->add_option("file", opt->file, "TestFloat vector file (plain or .gz), e.g. f32_mulAdd.tv.gz")
      ->required();
  cmd->add_option("--op", opt->op,
                  "operation as TestFloat names it (e.g. f32_mulAdd); default: the file name's "
                  "stem");
  cmd->add_option("--sample", opt->sample, "run N evenly spaced vectors (0: all)")
      ->capture_default_str();
  cmd->add_option("--show", opt->show, "print the first K failing vectors")->capture_default_str();
  cmd->add_flag("--json", opt->json, "end with one JSON object");
  cmd->callback([opt] { RunFpcheck(*opt); });
}

}  // namespace tessera::cli
