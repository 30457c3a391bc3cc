// `tessera kernel`: runs a kernel of the library (docs/kernels.md) with generated inputs on a
// backend and checks it against a double-precision host reference.
//
//   tessera kernel gemv --m 100 --n 64 --fabric 4x2 --dtype f16 --backend cosim --json
//
// Exit status: 0 when it passed; 1 when it ran and failed (a fault, a deadlock, a cosim
// difference, an error above the tolerance); 2 on bad input, before anything runs.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "args.h"
#include "asm/diagnostics.h"
#include "commands.h"
#include "instrument_args.h"
#include "kernels/kernel.h"
#include "runtime/npy.h"
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
  bool no_run_ahead = false, no_progress = false, clock_idle_tiles = false,
       eval_input_region = false;
  InstrumentArgs watch;              // traces, timeline, heatmaps, profile
  std::vector<std::string> in, out;  // NAME=FILE.npy: the user's data, the results
  // The kernel-specific options as given on the command line (name -> option), for checking
  // that the kernel takes them.
  std::vector<std::pair<std::string, CLI::Option*>> specific;
};

// The options a kernel takes: the --names its description lists (KernelDef::options, what
// --list prints), so the list and the check cannot drift.
std::set<std::string> TakenOptions(const kernels::KernelDef& k) {
  std::set<std::string> out;
  const std::string s = k.options;
  for (size_t at = s.find("--"); at != std::string::npos; at = s.find("--", at + 2)) {
    size_t e = at + 2;
    while (e < s.size() && (std::islower(static_cast<unsigned char>(s[e])) || s[e] == '-')) ++e;
    out.insert(s.substr(at + 2, e - at - 2));
  }
  return out;
}

int RunKernel(const KernelCliArgs& a) {
  if (a.list) {
    for (const kernels::KernelDef& k : kernels::Kernels()) {
      fmt::print("{:<18} {}\n{:<18} {}\n", k.name, k.summary, "", k.options);
      for (const kernels::IoSpec& x : k.inputs)
        fmt::print("{:<18} --in {}=FILE.npy  {} {}: {}\n", "", x.name, x.dtype, x.shape, x.what);
      for (const kernels::IoSpec& x : k.outputs)
        fmt::print("{:<18} --out {}=FILE.npy  {} {}: {}\n", "", x.name, x.dtype, x.shape, x.what);
    }
    return 0;
  }
  const kernels::KernelDef* def = kernels::FindKernel(a.name);
  kernels::KernelArgs args;
  kernels::HostArrays inputs, outputs;
  std::vector<std::string> out_files;
  trace::InstrumentOptions io;
  try {
    if (a.name.empty()) throw std::invalid_argument("give a kernel name (tessera kernel --list)");
    if (!def) {
      std::string names;
      for (const kernels::KernelDef& k : kernels::Kernels()) names += std::string(" ") + k.name;
      throw std::invalid_argument(fmt::format("unknown kernel '{}' (kernels:{})", a.name, names));
    }
    // The user's data: --in NAME=FILE.npy replaces a generated input, --out NAME=FILE.npy
    // writes a result.
    std::vector<std::string> out_names;
    for (const std::string& spec : a.in) {
      const size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        throw std::invalid_argument(fmt::format("--in {}: expected NAME=FILE.npy", spec));
      const std::string name = spec.substr(0, eq);
      if (inputs.count(name))
        throw std::invalid_argument(fmt::format("--in {}: given twice", name));
      inputs[name] = runtime::ReadNpy(spec.substr(eq + 1));
    }
    for (const std::string& spec : a.out) {
      const size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        throw std::invalid_argument(fmt::format("--out {}: expected NAME=FILE.npy", spec));
      out_names.push_back(spec.substr(0, eq));
      out_files.push_back(spec.substr(eq + 1));
    }
    kernels::CheckIoNames(*def, &inputs, out_names);
    if (!inputs.empty()) args.in = &inputs;
    if (!out_names.empty()) args.out = &outputs;
    // Options the kernel does not take are refused (they would be ignored), and so are sizes,
    // counts and fabrics that are not positive (0 is not "the default": leave the option out).
    const std::set<std::string> taken = TakenOptions(*def);
    for (const auto& [name, opt] : a.specific) {
      if (opt->count() == 0) continue;
      if (!taken.count(name)) {
        std::string list;
        for (const std::string& t : taken) list += " --" + t;
        throw std::invalid_argument(
            fmt::format("--{}: {} does not take it (it takes{}, --seed)", name, a.name, list));
      }
    }
    const std::pair<const char*, int> sizes[] = {
        {"m", a.m},   {"n", a.n},         {"k", a.k},       {"nx", a.nx},  {"ny", a.ny},
        {"nz", a.nz}, {"iters", a.iters}, {"bins", a.bins}, {"nnz", a.nnz}};
    for (const auto& [name, v] : sizes)
      for (const auto& [n2, opt] : a.specific)
        if (n2 == name && opt->count() && v < 1)
          throw std::invalid_argument(fmt::format("--{} {}: give 1 or more", name, v));
    for (const auto& [n2, opt] : a.specific)
      if (n2 == "tol" && opt->count() && !(a.tol > 0))
        throw std::invalid_argument(fmt::format("--tol {}: give a positive tolerance", a.tol));
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
    args.progress = !a.no_progress;
    args.clock_idle_tiles = a.clock_idle_tiles;
    args.eval_input_region = a.eval_input_region;
    args.firmware_dir = a.firmware;
    args.backend = runtime::ParseBackend(a.backend);
    if (!a.fabric.empty()) {
      const auto [w, h] = ParsePair(a.fabric, "--fabric", 'x');
      if (w < 1 || h < 1)
        throw std::invalid_argument(
            fmt::format("--fabric {}: each side needs 1 PE or more", a.fabric));
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
  // The results asked for: written whenever the kernel produced them (also after a failed check,
  // so that the user can look at them).
  for (size_t i = 0; i < a.out.size(); ++i) {
    const std::string name = a.out[i].substr(0, a.out[i].find('='));
    const auto it = outputs.find(name);
    if (it == outputs.end()) {
      fmt::print(stderr, "--out {}: not written: the run ended before its result existed\n", name);
      continue;
    }
    const runtime::NpyArray& x = it->second;
    runtime::WriteNpy(out_files[i], x.dtype, x.shape, x.data.data(), x.data.size());
    fmt::print("--out {}: {} {} to {}\n", name, x.dtype, kernels::ShapeText(x.shape), out_files[i]);
  }
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
  auto specific = [&](const char* name, CLI::Option* o) {
    a->specific.emplace_back(name, o);
    return o;
  };
  specific("m", cmd->add_option("--m", a->m, "Rows (gemv: of A)"));
  specific("n", cmd->add_option("--n", a->n, "Columns (gemv: of A); values per PE (collectives)"));
  specific("k", cmd->add_option("--k", a->k, "Inner size (gemm)"));
  specific("nx", cmd->add_option("--nx", a->nx, "3-D grid: points in x (= fabric width)"));
  specific("ny", cmd->add_option("--ny", a->ny, "3-D grid: points in y (= fabric height)"));
  specific("nz", cmd->add_option("--nz", a->nz, "3-D grid: points in z (in PE memory)"));
  specific("iters",
           cmd->add_option("--iters", a->iters, "Iterations (cg: the limit; power: the count)"));
  specific("bins",
           cmd->add_option("--bins", a->bins, "histogram: the number of bins (default 64)"));
  specific("tol",
           cmd->add_option("--tol", a->tol, "cg: relative residual to reach (default 1e-4)"));
  specific("nnz", cmd->add_option("--nnz", a->nnz, "Sparse kernels: nonzeros of the matrix"));
  specific("fabric", cmd->add_option("--fabric", a->fabric,
                                     "WxH PEs (default: the kernel's choice for the sizes)"));
  specific("dtype", cmd->add_option("--dtype", a->dtype, "f32 or f16")->capture_default_str());
  specific(
      "along",
      cmd->add_option("--along", a->along, "Collectives: row, col or grid")->capture_default_str());
  specific("op",
           cmd->add_option("--op", a->op, "Reduce, allreduce: sum or max")->capture_default_str());
  cmd->add_option("--seed", a->seed, "Seed of the generated inputs")->capture_default_str();
  cmd->add_option("--in", a->in,
                  "NAME=FILE.npy: the kernel's input NAME from a file instead of generated "
                  "(--list shows each kernel's inputs, their shapes and types)");
  cmd->add_option("--out", a->out, "NAME=FILE.npy: write the kernel's result NAME");
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
  cmd->add_flag("--no-progress", a->no_progress, "No progress line on the terminal");
  cmd->add_flag("--clock-idle-tiles", a->clock_idle_tiles,
                "RTL: evaluate every tile in every cycle, also the idle ones it skips by default "
                "(results do not depend on it)");
  cmd->add_flag("--eval-input-region", a->eval_input_region,
                "RTL: evaluate each tile's input-combinational region every cycle (results do not "
                "depend on it)");
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
