// `tessera fuzz`: random compute-engine programs run on the functional model alone (func), or on
// the functional model and the RTL in lockstep (cosim), compared after every cycle; one PE, or a
// fabric of PEs with traffic between them (--fabric); prints each divergence with a command that
// reproduces it, then `N programs, D divergences`.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "commands.h"
#include "fuzz/campaign.h"
#include "fuzz/fabric_gen.h"
#include "machine/machine.h"
#include "rtl/rtl_fabric.h"
#include "util/json.h"

namespace tessera::cli {
namespace {

struct FuzzArgs {
  uint64_t seed = 1;
  int programs = 100;
  std::string backend = "cosim";
  std::string mix = "all";
  bool json = false;
  std::string dump;
  uint64_t max_cycles = 200000;
  bool status_regs = false;
  double fault_rate = 0.05;
  int units = 0;
  std::string replay;
  bool print = false;
  int history = 12;
  std::string fabric = "1x1";
  std::string tile = "auto";
};

// "WxH" as numbers; throws std::invalid_argument naming the option if malformed.
std::pair<int, int> ParseShape(const std::string& option, const std::string& s) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  std::istringstream in(s);
  if (!(in >> w >> x >> h) || (x != 'x' && x != 'X') || in >> extra || w < 1 || h < 1 || w > 64 ||
      h > 64)
    throw std::invalid_argument(
        fmt::format("{} {}: expected WxH, W and H from 1 to 64 (e.g. 2x2)", option, s));
  return {w, h};
}

// The options that make a program: what reproduces one program of this run.
std::string ReproduceCommand(const FuzzArgs& a, uint64_t seed) {
  std::string s = fmt::format("tessera fuzz --seed {} --programs 1 --backend {} --mix {}", seed,
                              a.backend, a.mix);
  if (a.fabric != FuzzArgs{}.fabric) s += " --fabric " + a.fabric;
  if (a.tile != FuzzArgs{}.tile) s += " --tile " + a.tile;
  if (a.status_regs) s += " --status-regs";
  if (a.fault_rate != FuzzArgs{}.fault_rate) s += fmt::format(" --fault-rate {}", a.fault_rate);
  if (a.units) s += fmt::format(" --units {}", a.units);
  if (a.max_cycles != FuzzArgs{}.max_cycles) s += fmt::format(" --max-cycles {}", a.max_cycles);
  return s;
}

void RunFuzzCommand(const FuzzArgs& a) {
  std::string replay_text;
  std::optional<fuzz::FabricProgram> replay_fabric;
  if (!a.replay.empty()) {  // one program from a file, e.g. one --dump wrote
    std::ifstream in(a.replay);
    if (!in)
      throw std::invalid_argument(fmt::format("--replay {}: cannot read the file", a.replay));
    std::stringstream text;
    text << in.rdbuf();
    replay_text = text.str();
    try {
      replay_fabric = fuzz::ParseFabricSource(replay_text);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("--replay {}: {}", a.replay, e.what()));
    }
  }
  // The shape: --fabric, or the replayed program's (one PE unless it is a fabric program).
  const auto [width, height] =
      replay_fabric      ? std::pair<int, int>{replay_fabric->width, replay_fabric->height}
      : a.replay.empty() ? ParseShape("--fabric", a.fabric)
                         : std::pair<int, int>{1, 1};
  const bool fabric = width * height > 1;
  std::pair<int, int> tile{1, 1};
  if (a.backend == "cosim") {  // one PE too: a 1x1 fabric
    tile = a.tile == "auto" ? rtl::DefaultCeTile() : ParseShape("--tile", a.tile);
    rtl::RtlFabricOptions check;
    check.width = width;
    check.height = height;
    check.tile_w = tile.first;
    check.tile_h = tile.second;
    check.ce = true;
    rtl::ValidateRtlOptions(check);  // throws on a shape not built
  }

  fuzz::CampaignOptions o;
  o.seed = a.seed;
  o.programs = a.programs;
  o.width = width;
  o.height = height;
  o.gen.mix = fuzz::Mix::Parse(a.mix);
  o.gen.status_regs = a.status_regs;
  o.gen.fault_rate = a.fault_rate;
  o.gen.units = a.units;
  o.run.max_cycles = a.max_cycles;
  o.run.history = a.history;
  // On a fabric, registers are compared after retires (and at the end), not after every cycle.
  o.run.regs_on_retire = fabric;
  o.dump_dir = a.dump;
  fuzz::MachineFactory func = [w = width, h = height] {
    return machine::MakeFuncMachine(w, h, {1, 1});
  };
  fuzz::MachineFactory other;  // compared with func: func-step or the RTL
  if (a.backend == "func") {   // each program also stepped every cycle, and the two compared
    o.run.apart = true;
    other = [w = width, h = height] { return machine::MakeFuncMachine(w, h, {1, 1}, 1, false); };
  }
  // Every batch: the functional model with each of its fast paths off, against all of them.
  o.run.reference = fuzz::FuncReference(width, height);
  o.run.paths = fuzz::PathVariants(width, height);
  if (a.backend == "cosim") {
    other = [w = width, h = height, tile] {
      machine::RtlMachineOptions m;
      m.width = w;
      m.height = h;
      m.tile = tile;
      m.systemc = false;  // a machine per program: the plain loop
      return machine::MakeRtlMachine(m);
    };
  }

  auto report = [&](const fuzz::Failure& f) {
    const char* kind = f.kind == "divergence" ? "diverged"
                       : f.kind == "outcome"  ? "ended wrong"
                                              : "does not assemble";
    const std::string name =
        a.replay.empty() ? fmt::format("program seed {}", f.seed) : "program " + a.replay;
    fmt::print("{} {}: {}\n", name, kind, f.message);
    if (a.replay.empty()) fmt::print("  reproduce: {}\n", ReproduceCommand(a, f.seed));
    if (!f.dumped.empty()) fmt::print("  program: {}\n", f.dumped);
    std::fflush(stdout);
  };

  const char* how = a.backend == "cosim" ? "func and rtl in lockstep; func's paths apart"
                                         : "func, and func-step and func's other paths apart";
  std::string on = fabric ? fmt::format(", fabric {}x{}", width, height) : "";
  if (fabric && a.backend == "cosim") on += fmt::format(" of {}x{} tiles", tile.first, tile.second);
  if (a.replay.empty()) {
    fmt::print("fuzz: {} program{} from seed {}, mix {}, backend {} ({}){}\n", a.programs,
               a.programs == 1 ? "" : "s", a.seed, o.gen.mix.ToString(), a.backend, how, on);
  } else {
    fmt::print("fuzz: {}, backend {} ({}){}\n", a.replay, a.backend, how, on);
  }
  const auto t0 = std::chrono::steady_clock::now();
  fuzz::CampaignResult r;
  if (!a.replay.empty()) {
    fuzz::ProgramRun run;
    if (replay_fabric) {
      run = fuzz::RunFabricProgram(*replay_fabric, func, other, o.run);
    } else {
      fuzz::Program p;
      p.source = replay_text;
      p.expect_fault = fuzz::ParseExpectation(p.source);
      p.expect_settled = fuzz::ParseSettled(p.source);
      run = fuzz::RunProgram(p, func, other, o.run);
    }
    r.programs = 1;
    r.cycles = run.cycles;
    if (run.failure) {
      report(*run.failure);
      r.failures.push_back(*run.failure);
    }
  } else {
    if (a.print) {
      for (int i = 0; i < a.programs; ++i) {
        fmt::print("{}", fabric ? fuzz::GenerateFabric(a.seed + i, width, height, o.gen).Source()
                                : fuzz::Generate(a.seed + i, o.gen).source);
      }
    }
    r = fuzz::RunCampaign(o, func, other, report);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int divergences = static_cast<int>(r.failures.size());
  fmt::print("  {} cycles in {:.2f} s: {:.1f} programs/s, {:.3g} cycles/s\n", r.cycles, secs,
             secs > 0 ? r.programs / secs : 0.0,
             secs > 0 ? static_cast<double>(r.cycles) / secs : 0.0);
  fmt::print("{} programs, {} divergences\n", r.programs, divergences);
  if (a.json) {
    std::string list = "[";
    for (const fuzz::Failure& f : r.failures) {
      util::JsonObject j;
      j.Add("seed", f.seed).Add("kind", f.kind).Add("message", f.message);
      if (a.replay.empty()) j.Add("reproduce", ReproduceCommand(a, f.seed));
      if (!f.dumped.empty()) j.Add("program", f.dumped);
      list += (list.size() > 1 ? "," : "") + j.str();
    }
    list += "]";
    util::JsonObject j;
    j.Add("programs", r.programs)
        .Add("divergences", divergences)
        .AddRaw("failures", list)
        .Add("seed", a.seed)
        .Add("mix", o.gen.mix.ToString())
        .Add("backend", a.backend)
        .Add("fabric", fmt::format("{}x{}", width, height))
        .Add("cycles", r.cycles)
        .Add("wall_seconds", secs)
        .Add("programs_per_second", secs > 0 ? r.programs / secs : 0.0);
    fmt::print("{}\n", j.str());
  }
  std::fflush(stdout);
  if (divergences) throw CLI::RuntimeError(1);
}

}  // namespace

void AddFuzzCommand(CLI::App& app) {
  auto args = std::make_shared<FuzzArgs>();
  CLI::App* cmd = app.add_subcommand(
      "fuzz",
      "Random compute-engine programs: the functional model alone, or with the RTL in lockstep");
  cmd->add_option("--seed", args->seed, "Seed of the first program; program i has seed S+i")
      ->capture_default_str();
  cmd->add_option("--programs", args->programs, "Number of programs")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--backend", args->backend,
                  "func: the functional model (checks that programs end as generated), and the "
                  "same stepped every cycle (--no-run-ahead), compared at the end; cosim: the "
                  "functional model and the RTL, compared every cycle")
      ->check(CLI::IsMember({"func", "cosim"}))
      ->capture_default_str();
  cmd->add_option("--mix", args->mix,
                  "What programs contain: all, scalar (no DSD operations), or a comma-separated "
                  "list of alu, mem, branch, loop, call, fp, dsr, task, send, debug, mmio, utwait, "
                  "fault, dsd, fabric, async")
      ->check(CLI::Validator(
          [](std::string& s) {
            try {
              fuzz::Mix::Parse(s);
            } catch (const std::invalid_argument& e) {
              return std::string(e.what());
            }
            return std::string();
          },
          "MIX"))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print one JSON object as the last line");
  cmd->add_option("--dump", args->dump,
                  "Write each failing program to DIR/fuzz-SEED.s, its report to DIR/fuzz-SEED.txt");
  cmd->add_option("--max-cycles", args->max_cycles,
                  "Cycles after which a program that has not ended fails")
      ->check(CLI::Range(uint64_t{100}, uint64_t{1} << 40))
      ->capture_default_str();
  cmd->add_flag("--status-regs", args->status_regs,
                "Let programs load CeStatus, UtStatus and UtInfo (the RTL lacks some fields)");
  cmd->add_option("--fault-rate", args->fault_rate,
                  "Fraction of programs that end in a deliberate fault (with fault in the mix)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--units", args->units, "Top-level units of code in main (0: 20..80 at random)")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_option("--replay", args->replay,
                  "Run this assembly file (e.g. one --dump wrote) instead of generated programs")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--print", args->print, "Print the source of every generated program first");
  cmd->add_option("--fabric", args->fabric,
                  "PEs, WxH: one program per PE with traffic between neighbours (the RTL needs a "
                  "tile of full PEs that divides the shape; --replay of a fabric program uses "
                  "its own)")
      ->capture_default_str();
  cmd->add_option("--tile", args->tile,
                  "With --fabric and cosim: the RTL's tile shape TWxTH (full PEs, verilated "
                  "shapes only), or auto: 1x1")
      ->capture_default_str();
  cmd->add_option("--history", args->history,
                  "Events (task starts, retired instructions) shown before a divergence")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->callback([args] { RunFuzzCommand(*args); });
}

}  // namespace tessera::cli
