// `tessera kernel`: runs a kernel of the library (docs/kernels.md) with generated inputs on a
// backend and checks it against a double-precision host reference.
//
//   tessera kernel gemv --m 100 --n 64 --fabric 4x2 --dtype f16 --backend cosim --json
//
// Exit status: 0 when it passed; 1 when it ran and failed (a fault, a deadlock, a cosim
// difference, an error above the tolerance); 2 on bad input, before anything runs.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <stdexcept>
#include <string>

#include "args.h"
#include "asm/diagnostics.h"
#include "commands.h"
#include "instrument_args.h"
#include "kernels/kernel.h"
#include "util/json.h"

namespace tessera::cli {
namespace {

struct KernelCliArgs {
  std::string name;
  bool list = false, json = false;
  int m = 0, n = 0, k = 0, nx = 0, ny = 0, nz = 0, iters = 0;
  int bins = 0;
  double tol = 0;
  int nnz = 0;
  std::string fabric, dtype = "f32", backend = "func", tile = "auto", firmware;
  std::string along = "row", op = "sum";
  uint64_t seed = 1, max_cycles = 50'000'000;
  int threads = 1;
  bool no_run_ahead = false;
  InstrumentArgs watch;  // traces, timeline, heatmaps, profile
};

int RunKernel(const KernelCliArgs& a) {
  if (a.list) {
    for (const kernels::KernelDef& k : kernels::Kernels())
      fmt::print("{:<18} {}\n{:<18} {}\n", k.name, k.summary, "", k.options);
    return 0;
  }
  const kernels::KernelDef* def = kernels::FindKernel(a.name);
  kernels::KernelArgs args;
  trace::InstrumentOptions io;
  try {
    if (a.name.empty()) throw std::invalid_argument("give a kernel name (tessera kernel --list)");
    if (!def) {
      std::string names;
      for (const kernels::KernelDef& k : kernels::Kernels()) names += std::string(" ") + k.name;
      throw std::invalid_argument(fmt::format("unknown kernel '{}' (kernels:{})", a.name, names));
    }
    args.m = a.m;
    args.n = a.n;
    args.k = a.k;
    args.nx = a.nx;
    args.ny = a.ny;
    args.nz = a.nz;
    args.iters = a.iters;
    args.bins = a.bins;
    args.tol = a.tol;
    args.nnz = a.nnz;
    args.dtype = a.dtype;
    args.along = a.along;
    args.op = a.op;
    args.seed = a.seed;
    args.max_cycles = a.max_cycles;
    args.threads = a.threads;
    args.run_ahead = !a.no_run_ahead;
    args.firmware_dir = a.firmware;
    args.backend = runtime::ParseBackend(a.backend);
    if (!a.fabric.empty()) {
      const auto [w, h] = ParsePair(a.fabric, "--fabric", 'x');
      args.fabric_w = w;
      args.fabric_h = h;
    }
    if (a.tile != "auto") args.tile = ParsePair(a.tile, "--tile", 'x');
    io = a.watch.Options();
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "tessera kernel: {}\n", e.what());
    return 2;
  }
  // The kernel's device is watched from its load to its close (traces, timeline, counters).
  std::unique_ptr<trace::Instruments> instruments;
  std::vector<std::string> instrument_lines;
  std::string backend_name;
  if (io.Any()) {
    args.on_load = [&](runtime::Device& dev) {
      instruments = std::make_unique<trace::Instruments>(io, dev);
      backend_name = runtime::BackendName(dev.options().backend);
    };
    args.on_close = [&](runtime::Device&) {
      if (instruments) instrument_lines = instruments->Finish();
    };
  }
  kernels::KernelResult r;
  try {
    r = def->run(args);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "tessera kernel {}: {}\n", a.name, e.what());
    return 2;
  } catch (const assembler::Error& e) {
    fmt::print(stderr, "tessera kernel {}: the device code does not build:\n{}\n", a.name,
               e.what());
    return 2;
  }
  fmt::print(
      "{} {} {} on {}x{} ({}): {} ({}) after {} cycles, max error {:.3g} (relative {:.3g}, "
      "tolerance {:.3g}), FMAC utilization {:.1f}%{}\n",
      a.name, r.size, a.dtype, r.fabric_w, r.fabric_h, a.backend, r.pass ? "pass" : "FAIL",
      r.status, r.cycles, r.max_abs_err, r.max_rel_err, r.tolerance, 100.0 * r.fmac_utilization,
      args.backend == runtime::Backend::kCosim && r.pass
          ? fmt::format("; func and rtl agree ({} link wavelets compared)", r.link_wavelets)
          : "");
  if (!r.pass && !r.message.empty()) fmt::print(stderr, "{}\n", r.message);
  for (const std::string& line : instrument_lines) fmt::print("{}\n", line);
  if (a.watch.profile && instruments && instruments->counters()) {
    fmt::print("{}", instruments->counters()->Summary(backend_name));
    fmt::print("  FMAC utilization: {:.1f}% (the kernel's useful FMAC operations per PE-cycle)\n",
               100.0 * r.fmac_utilization);
  }
  if (a.json) {
    util::JsonObject j;
    j.Add("kernel", a.name)
        .Add("backend", a.backend)
        .Add("dtype", a.dtype)
        .Add("fabric_w", r.fabric_w)
        .Add("fabric_h", r.fabric_h)
        .Add("size", r.size)
        .Add("pass", r.pass)
        .Add("status", r.status)
        .Add("cycles", r.cycles)
        .Add("max_abs_err", r.max_abs_err)
        .Add("max_rel_err", r.max_rel_err)
        .Add("tolerance", r.tolerance)
        .Add("useful_ops", r.useful_ops)
        .Add("fmac_utilization", r.fmac_utilization);
    if (args.backend == runtime::Backend::kCosim)
      j.Add("mismatches", r.status == "mismatch" ? 1 : 0).Add("link_wavelets", r.link_wavelets);
    if (a.watch.profile && instruments && instruments->counters())
      j.Add("profile", instruments->counters()->Json());
    fmt::print("{}\n", j.str());
  }
  return r.pass ? 0 : 1;
}

}  // namespace

void AddKernelCommand(CLI::App& app) {
  auto a = std::make_shared<KernelCliArgs>();
  CLI::App* cmd = app.add_subcommand(
      "kernel", "Run a kernel of the library on a backend and check it against a host reference");
  cmd->add_option("name", a->name, "The kernel (--list shows them)");
  cmd->add_flag("--list", a->list, "List the kernels, their options and limits");
  cmd->add_option("--m", a->m, "Rows (gemv: of A)");
  cmd->add_option("--n", a->n, "Columns (gemv: of A); values per PE (collectives)");
  cmd->add_option("--k", a->k, "Inner size (gemm)");
  cmd->add_option("--nx", a->nx, "3-D grid: points in x (= fabric width)");
  cmd->add_option("--ny", a->ny, "3-D grid: points in y (= fabric height)");
  cmd->add_option("--nz", a->nz, "3-D grid: points in z (in PE memory)");
  cmd->add_option("--iters", a->iters, "Iterations (cg: the limit; power: the count)");
  cmd->add_option("--bins", a->bins, "histogram: the number of bins (default 64)");
  cmd->add_option("--tol", a->tol, "cg: relative residual to reach (default 1e-4)");
  cmd->add_option("--nnz", a->nnz, "Sparse kernels: nonzeros of the matrix");
  cmd->add_option("--fabric", a->fabric, "WxH PEs (default: the kernel's choice for the sizes)");
  cmd->add_option("--dtype", a->dtype, "f32 or f16")->capture_default_str();
  cmd->add_option("--along", a->along, "Collectives: row, col or grid")->capture_default_str();
  cmd->add_option("--op", a->op, "Reduce, allreduce: sum or max")->capture_default_str();
  cmd->add_option("--seed", a->seed, "Seed of the generated inputs")->capture_default_str();
  cmd->add_option("--backend", a->backend, "func, rtl or cosim (both, compared)")
      ->capture_default_str();
  cmd->add_option("--tile", a->tile,
                  "RTL tile TWxTH of full PEs (also one host port each), or auto: 1x1")
      ->capture_default_str();
  cmd->add_option(
         "--threads", a->threads,
         "Host threads stepping the functional model's compute engines and the RTL's tiles "
         "(results do not depend on it)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--max-cycles", a->max_cycles, "Stop with a deadlock diagnosis after this many")
      ->capture_default_str();
  cmd->add_flag("--no-run-ahead", a->no_run_ahead,
                "func: step every compute engine every cycle it acts, also those that could run "
                "ahead of the fabric or step DSD operations in bulk (results do not depend on it)");
  cmd->add_option("--firmware", a->firmware,
                  "The folder holding kernels/NAME (default: the source tree's firmware)");
  a->watch.AddTo(cmd);
  cmd->add_flag("--json", a->json, "Print a JSON summary as the last line");
  cmd->callback([a] {
    const int rc = RunKernel(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace tessera::cli
