// `tessera fpcheck`: runs a TestFloat vector file through an FMAC backend (the functional model or
// the RTL datapath) and reports what differs; with --directed, instead of a file, the directed
// vectors of an operation TestFloat has none for (min, max, neg, abs), expected results from the
// functional model. The checking is fp::CheckVectors (model/fp/vector_check.h): f16 two-lane
// operations pack consecutive vectors into lanes 0 and 1 of one case, so both lanes are checked;
// lane-0-only f16 operations carry a signaling NaN in lane 1; every selected vector is checked
// exactly once. Exit status: 0 all passed, 1 a vector failed, 2 bad input (thrown, main prints).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "fp/directed_vectors.h"
#include "fp/fp_backend.h"
#include "fp/func_fp_backend.h"
#include "fp/testfloat_file.h"
#include "fp/vector_check.h"
#include "rtl/fmac_backend.h"
#include "util/json.h"

namespace tessera::cli {
namespace {

struct FpcheckOptions {
  std::string backend = "func";
  std::string file;
  std::string op;
  bool directed = false;
  size_t sample = 0;
  size_t show = 5;
  bool json = false;
  bool list_ops = false;
};

void CheckBackendName(const std::string& name) {
  if (name != "func" && name != "rtl") {
    throw std::runtime_error(fmt::format("--backend: '{}' is not a backend (rtl or func)", name));
  }
}

std::unique_ptr<fp::FpBackend> MakeBackend(const std::string& name) {
  CheckBackendName(name);
  if (name == "rtl") return rtl::MakeRtlFpBackend();
  return std::make_unique<fp::FuncFpBackend>();
}

// The vectors to check: the file's, or the directed ones of --op.
fp::TestFloatFile LoadVectors(const FpcheckOptions& opt) {
  if (!opt.directed) {
    if (opt.file.empty()) throw std::runtime_error("name a vector file, or use --directed --op OP");
    return fp::ReadTestFloatFile(opt.file, opt.op);
  }
  if (!opt.file.empty()) {
    throw std::runtime_error(
        fmt::format("--directed generates its vectors: give no vector file ('{}')", opt.file));
  }
  if (opt.backend == "func") {
    throw std::runtime_error(
        "--directed takes its expected results from the functional model: check another backend "
        "(--backend rtl)");
  }
  const fp::TestFloatOp* op = fp::FindTestFloatOp(opt.op);
  if (op == nullptr) {
    throw std::runtime_error(
        opt.op.empty() ? fmt::format("--directed needs --op, one of: {}", fp::TestFloatOpNames())
                       : fmt::format("--op: unknown operation '{}'; valid ones: {}", opt.op,
                                     fp::TestFloatOpNames()));
  }
  return fp::DirectedVectors(*op);
}

void RunFpcheck(const FpcheckOptions& opt) {
  if (opt.list_ops) {  // one a line, for scripts (scripts/regress.sh)
    std::string names = fp::TestFloatOpNames();
    for (size_t p; (p = names.find(", ")) != std::string::npos;) names.replace(p, 2, "\n");
    fmt::print("{}\n", names);
    return;
  }
  CheckBackendName(opt.backend);
  const fp::TestFloatFile file = LoadVectors(opt);
  const fp::TestFloatOp& op = file.op;
  std::unique_ptr<fp::FpBackend> backend = MakeBackend(opt.backend);
  const fp::VectorCheckReport r = fp::CheckVectors(*backend, file, {opt.sample, opt.show});

  for (const fp::VectorMismatch& m : r.mismatches) fmt::print("{}", fp::FormatMismatch(file, m));
  if (r.failed > r.mismatches.size()) {
    fmt::print("... and {} more\n", r.failed - r.mismatches.size());
  }
  fmt::print("{} on {}: {} of {} {}vectors{}{} in {:.3f} s\n", op.name, backend->Name(), r.checked,
             file.vectors.size(), opt.directed ? "directed " : "",
             r.checked < file.vectors.size() ? " (evenly spaced sample)" : "",
             r.lanes == 2 ? fmt::format(" as {} two-lane cases", r.cases) : "", r.seconds);
  fmt::print("fpcheck: {} passed, {} failed\n", r.passed, r.failed);
  if (opt.json) {
    std::string lines = "[";
    for (const fp::VectorMismatch& m : r.mismatches) {
      if (lines.size() > 1) lines += ",";
      lines += std::to_string(file.vectors[m.vector].line);
    }
    lines += "]";
    util::JsonObject j;
    j.Add("file", file.path)
        .Add("op", op.name)
        .Add("backend", backend->Name())
        .Add("vectors", file.vectors.size())
        .Add("checked", r.checked)
        .Add("cases", r.cases)
        .Add("lanes", r.lanes)
        .Add("passed", r.passed)
        .Add("failed", r.failed)
        .Add("seconds", r.seconds)
        .AddRaw("first_failed_lines", lines);
    fmt::print("{}\n", j.str());
  }
  if (r.failed > 0) throw CLI::RuntimeError(1);
}

}  // namespace

void AddFpcheckCommand(CLI::App& app) {
  auto opt = std::make_shared<FpcheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fpcheck", "Run a TestFloat vector file through an FMAC backend and compare every result");
  cmd->add_option("--backend", opt->backend, "FMAC backend: func (functional model) or rtl")
      ->capture_default_str();
  cmd->add_option("file", opt->file, "TestFloat vector file (plain or .gz), e.g. f32_mulAdd.tv.gz");
  cmd->add_option("--op", opt->op,
                  "operation as TestFloat names it (e.g. f32_mulAdd); default: the file name's "
                  "stem");
  cmd->add_flag("--directed", opt->directed,
                "instead of a file, every pair of 84 special and random values for --op (e.g. "
                "f32_min), expected results from the functional model; both f16 lanes");
  cmd->add_option("--sample", opt->sample, "run N evenly spaced vectors (0: all)")
      ->capture_default_str();
  cmd->add_option("--show", opt->show, "print the first K failing vectors")->capture_default_str();
  cmd->add_flag("--json", opt->json, "end with one JSON object");
  cmd->add_flag("--list-ops", opt->list_ops,
                "print the operations the FMAC implements (TestFloat names), one a line");
  cmd->callback([opt] { RunFpcheck(*opt); });
}

}  // namespace tessera::cli
