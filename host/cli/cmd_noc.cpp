// `tessera noc`: random traffic on the router fabric, on the RTL, the functional model, or both
// in co-simulation; prints load, latency and the scoreboard's error counts.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <regex>
#include <stdexcept>

#include "args.h"
#include "commands.h"
#include "fabric/fabric.h"
#include "func/func_fabric.h"
#include "rtl/rtl_fabric.h"
#include "traffic/noc_cosim.h"
#include "traffic/noc_run.h"
#include "traffic/pattern.h"
#include "util/json.h"
#include "waves/save_file.h"

namespace tessera::cli {
namespace {

struct NocArgs {
  std::string fabric = "4x4";
  std::string tile = "auto";
  std::string backend = "func";
  std::string glue = "sc";
  std::string wave;
  std::string wave_pe = "0,0";
  noc::NocOptions noc;
  bool json = false;
};

// The fastest tile shape that divides the fabric: 2x2 tiles keep the model in the instruction
// cache and the SystemC glue cheap (measured in docs/router.md); else 1x1.
std::pair<int, int> AutoTile(int w, int h) {
  for (auto [tw, th] : rtl::BuiltTileShapes()) {
    if (tw == 2 && th == 2 && w % 2 == 0 && h % 2 == 0) return {2, 2};
  }
  return {1, 1};
}

std::string Summary(const noc::NocResult& r, const char* name) {
  const auto& s = r.stats;
  std::string out;
  out += fmt::format("  [{}]\n", name);
  out += fmt::format("    flows          {} source PEs{}\n", r.flows,
                     r.silent ? fmt::format(" ({} silent: no free color)", r.silent) : "");
  out += fmt::format("    offered load   {:.4f} wavelets/PE/cycle ({} created)\n", r.offered_load,
                     s.offered);
  out += fmt::format("    accepted load  {:.4f} wavelets/PE/cycle ({} delivered)\n",
                     r.accepted_load, s.delivered);
  out +=
      fmt::format("    latency        avg {:.1f}, max {} cycles\n", s.latency_avg, s.latency_max);
  out += fmt::format("    errors         lost {}, duplicated {}, misrouted {}, reordered {}\n",
                     s.lost, s.duplicated, s.misrouted, s.reordered);
  out += fmt::format("    cycles         {} injecting + {} draining{}\n", r.cycles, r.drain_cycles,
                     r.drained ? "" : " (drain limit reached)");
  for (const auto& f : r.faults) out += "    " + fabric::DescribeFault(f) + "\n";
  if (!s.first_error.empty()) out += "    first error: " + s.first_error + "\n";
  return out;
}

void AddResult(util::JsonObject& j, const noc::NocResult& r) {
  const auto& s = r.stats;
  j.Add("offered", r.offered_load)
      .Add("accepted", r.accepted_load)
      .Add("latency_avg", s.latency_avg)
      .Add("latency_max", s.latency_max)
      .Add("lost", s.lost)
      .Add("duplicated", s.duplicated)
      .Add("misrouted", s.misrouted)
      .Add("reordered", s.reordered)
      .Add("created", s.offered)
      .Add("delivered", s.delivered)
      .Add("flows", r.flows)
      .Add("faults", static_cast<uint64_t>(r.faults.size()))
      .Add("drained", r.drained)
      .Add("run_cycles", r.run_cycles);
}

void RunNocCommand(const NocArgs& a) {
  auto [w, h] = ParsePair(a.fabric, "--fabric", 'x');
  std::pair<int, int> tile = a.tile == "auto" ? AutoTile(w, h) : ParsePair(a.tile, "--tile", 'x');
  const bool want_rtl = a.backend == "rtl" || a.backend == "cosim";
  const bool want_func = a.backend == "func" || a.backend == "cosim";
  if (!a.wave.empty() && !want_rtl)
    throw std::invalid_argument("--wave needs the RTL: use --backend rtl or cosim");
  auto [wave_x, wave_y] = ParsePair(a.wave_pe, "--wave-pe", ',');
  if (wave_x >= w || wave_y >= h)
    throw std::invalid_argument(
        fmt::format("--wave-pe {}: outside the {}x{} fabric", a.wave_pe, w, h));

  rtl::RtlFabricOptions ro{w, h, tile.first, tile.second, a.wave};
  std::unique_ptr<fabric::Fabric> rtl_fabric, func_fabric;
  // Build everything first so bad options fail before anything runs.
  if (want_rtl) {
    rtl::ValidateRtlOptions(ro);
    if (a.glue == "sc") {
      rtl_fabric = rtl::MakeScRtlFabric(ro);
    } else {
      rtl_fabric = std::make_unique<rtl::LoopRtlFabric>(ro);
    }
  }
  if (want_func) func_fabric = std::make_unique<func::FuncFabric>(w, h);

  const std::string where =
      fmt::format("{}x{} PEs ({}{})", w, h, a.backend,
                  want_rtl ? fmt::format(", tiles {}x{}, {} glue", tile.first, tile.second,
                                         a.glue == "sc" ? "SystemC" : "loop")
                           : "");
  fmt::print("noc: {} traffic on {}, rate {:.3f}, {} cycles, seed {}\n", a.noc.pattern, where,
             a.noc.rate, a.noc.cycles, a.noc.seed);

  util::JsonObject j;
  j.Add("pattern", a.noc.pattern)
      .Add("fabric", fmt::format("{}x{}", w, h))
      .Add("backend", a.backend)
      .Add("rate", a.noc.rate)
      .Add("cycles", a.noc.cycles)
      .Add("seed", a.noc.seed);
  if (want_rtl) j.Add("tile", fmt::format("{}x{}", tile.first, tile.second)).Add("glue", a.glue);

  auto t0 = std::chrono::steady_clock::now();
  bool passed = false;
  uint64_t cycles_run = 0;
  if (a.backend == "cosim") {
    noc::NocCosimResult r = noc::RunNocCosim(*func_fabric, *rtl_fabric, a.noc);
    fmt::print("{}{}", Summary(r.a, "func"), Summary(r.b, "rtl"));
    fmt::print(
        "  co-simulation: {} mismatches ({} link wavelets, {} cycles of back pressure "
        "compared){}\n",
        r.mismatches, r.link_wavelets, r.back_pressure_cycles,
        r.mismatches ? "\n  first difference: " + r.first_difference : "");
    AddResult(j, r.b);
    j.Add("mismatches", r.mismatches)
        .Add("link_wavelets", r.link_wavelets)
        .Add("back_pressure_cycles", r.back_pressure_cycles);
    passed = r.Passed();
    cycles_run = r.a.run_cycles + r.b.run_cycles;
  } else {
    fabric::Fabric& f = want_rtl ? *rtl_fabric : *func_fabric;
    noc::NocOptions opt = a.noc;
    opt.keep_log = false;  // delivery logs serve co-simulation only
    noc::NocResult r = noc::RunNoc(f, opt);
    fmt::print("{}", Summary(r, f.Name()));
    AddResult(j, r);
    passed = r.Passed();
    cycles_run = r.run_cycles;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double rc = secs > 0 ? static_cast<double>(cycles_run) * w * h / secs : 0;
  fmt::print("  speed          {:.2f} s, {:.3g} router-cycles/s\n", secs, rc);
  if (!a.wave.empty()) {
    rtl_fabric.reset();  // closes the FST
    std::string save = waves::SaveFilePath(a.wave);
    waves::WriteRouterSaveFile(save, a.wave, {w, h, tile.first, tile.second}, {wave_x, wave_y});
    fmt::print("  waves          {} (open with: gtkwave {})\n", a.wave, save);
  }
  fmt::print("  result         {}\n", passed ? "PASS" : "FAIL");
  j.Add("wall_seconds", secs).Add("router_cycles_per_second", rc).Add("passed", passed);
  if (a.json) fmt::print("{}\n", j.str());
  std::fflush(stdout);
  if (!passed) throw CLI::RuntimeError(1);
}

}  // namespace

void AddNocCommand(CLI::App& app) {
  auto args = std::make_shared<NocArgs>();
  CLI::App* cmd = app.add_subcommand("noc", "Random traffic on the router fabric");
  cmd->add_option("--fabric", args->fabric, "Fabric size in PEs, WxH")->capture_default_str();
  cmd->add_option("--tile", args->tile,
                  "RTL tile shape TWxTH (verilated shapes only), or auto: 2x2 where it divides "
                  "the fabric, else 1x1")
      ->capture_default_str();
  cmd->add_option("--pattern", args->noc.pattern)
      ->check(CLI::IsMember(noc::PatternNames()))
      ->capture_default_str();
  cmd->add_option("--rate", args->noc.rate, "Injection rate per source PE per cycle")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--cycles", args->noc.cycles, "Cycles of injection (then the fabric drains)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--seed", args->noc.seed)->capture_default_str();
  cmd->add_option("--drain", args->noc.drain_limit,
                  "Stop draining after this many cycles without a delivery (0: automatic)")
      ->capture_default_str();
  cmd->add_option("--backend", args->backend)
      ->check(CLI::IsMember({"rtl", "func", "cosim"}))
      ->capture_default_str();
  cmd->add_option("--glue", args->glue, "How the RTL backend joins tiles")
      ->check(CLI::IsMember({"sc", "loop"}))
      ->capture_default_str();
  cmd->add_option("--wave", args->wave, "Dump every RTL signal to this FST file");
  cmd->add_option("--wave-pe", args->wave_pe, "Router the generated GTKWave save file shows, X,Y")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print one JSON object as the last line");
  cmd->callback([args] { RunNocCommand(*args); });
}

}  // namespace tessera::cli
