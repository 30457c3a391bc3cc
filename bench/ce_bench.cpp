// Compute-engine speed on both backends: simulated PE-cycles per second and instructions (or DSD
// elements) per second for a scalar-heavy and a DSD-heavy kernel (bench/programs), on 1x1 and 8x8
// fabrics, every PE running the kernel. The RTL is the fabric of full-PE tiles (plain-loop glue);
// the functional model is FuncFabric with one Ce per PE. Figures are ratios measured in the same
// process; absolute rates are printed for the note, not asserted. At 8x8 the RTL runs with 1x1
// and with 2x2 tiles (a bigger tile's code falls out of the instruction cache sooner). Also: what
// idle PEs cost the functional model, what tracing and a fabric around one CE cost the
// interpreter, and the resident memory of a 64x64 RTL fabric.
//
//   tessera_bench_ce [--quick] [--big]   (--big: also build the 64x64 RTL fabric)
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "asm/link.h"
#include "ce/ce.h"
#include "ce/ce_endpoint.h"
#include "ce/trace.h"
#include "func/func_fabric.h"
#include "rtl/rtl_fabric.h"

namespace {

using tessera::assembler::PeProgram;
using tessera::fabric::Coord;
namespace arch = tessera::arch;

double Now() {
  using C = std::chrono::steady_clock;
  return std::chrono::duration<double>(C::now().time_since_epoch()).count();
}

long RssKiB() {
  std::ifstream f("/proc/self/status");
  std::string k;
  long v = 0;
  while (f >> k) {
    if (k == "VmRSS:") {
      f >> v;
      return v;
    }
  }
  return 0;
}

struct Kernel {
  std::string name;
  PeProgram prog;
  double work_per_iter;  // instructions (scalar) or DSD elements per r1 increment
  const char* unit;
};

struct Result {
  double pe_cycles_per_s = 0, work_per_s = 0;
};

// Every PE of `busy` (all if empty) runs the kernel; the others stay idle.
Result RunFunc(const Kernel& k, int n, uint64_t cycles, const std::vector<Coord>& busy = {}) {
  tessera::func::FuncFabric fab(n, n);
  std::vector<std::unique_ptr<tessera::ce::Ce>> ces;
  std::vector<std::unique_ptr<tessera::ce::CeEndpoint>> eps;
  std::vector<Coord> running;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      Coord c{x, y};
      ces.push_back(std::make_unique<tessera::ce::Ce>(x, y, &fab.RouterRegsOf(c)));
      eps.push_back(std::make_unique<tessera::ce::CeEndpoint>(*ces.back()));
      fab.SetEndpoint(c, eps.back().get());
      bool run = busy.empty();
      for (Coord b : busy) run |= b == c;
      if (!run) continue;
      std::vector<tessera::ce::TaskBinding> tasks;
      for (const auto& t : k.prog.tasks)
        tasks.push_back({static_cast<uint8_t>(t.id), t.kind, t.entry});
      ces.back()->Load(k.prog.sram, tasks);
      ces.back()->Activate(0);
      running.push_back(c);
    }
  }
  const double t0 = Now();
  fab.Run(cycles);
  const double dt = Now() - t0;
  double iters = 0;
  for (Coord c : running) iters += ces[c.y * n + c.x]->HostRead(arch::Gpr::Addr(1));
  if (!fab.Faults().empty()) throw std::runtime_error("func: a PE faulted");
  return {static_cast<double>(n) * n * cycles / dt, iters * k.work_per_iter / dt};
}

// One CE of the functional model alone (no fabric), stepped until it is quiet, with or without a
// trace sink: simulated cycles per second. The kernel's loop count r1 is set to `iters`.
class CountingSink final : public tessera::ce::TraceSink {
 public:
  void Record(const tessera::ce::TraceRecord& r) override { n += r.num_writes + 1; }
  uint64_t n = 0;
};

double RunCeAlone(const Kernel& k, bool traced, uint64_t cycles) {
  tessera::ce::Ce ce(0, 0, nullptr);
  CountingSink sink;
  if (traced) ce.SetTraceSink(&sink);
  std::vector<tessera::ce::TaskBinding> tasks;
  for (const auto& t : k.prog.tasks) tasks.push_back({static_cast<uint8_t>(t.id), t.kind, t.entry});
  ce.Load(k.prog.sram, tasks);
  ce.Activate(0);
  tessera::fabric::RampPort port;
  const double t0 = Now();
  for (uint64_t c = 0; c < cycles; ++c) ce.Tick(c, port);
  const double dt = Now() - t0;
  if (ce.Faulted()) throw std::runtime_error("func: the CE faulted: " + ce.FaultMessage());
  return cycles / dt;
}

Result RunRtl(const Kernel& k, int n, int tile, uint64_t cycles) {
  tessera::rtl::RtlFabricOptions o;
  o.width = o.height = n;
  o.tile_w = o.tile_h = tile;
  o.ce = true;
  tessera::rtl::LoopRtlFabric fab(o);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      for (size_t a = 0; a < k.prog.sram.size(); a += 4) {
        const uint32_t w = k.prog.Word(static_cast<uint16_t>(a));
        if (w) fab.WriteReg({x, y}, static_cast<uint16_t>(a), w);
      }
      for (const auto& t : k.prog.tasks) {
        uint32_t v = arch::TaskCfg::WithEntry(0, t.entry);
        fab.WriteReg({x, y}, arch::TaskCfg::Addr(t.id),
                     arch::TaskCfg::WithKind(v, static_cast<uint32_t>(t.kind)));
      }
      fab.WriteReg({x, y}, arch::TaskActiveSet::kAddr, 1);
    }
  }
  const double t0 = Now();
  fab.Run(cycles);
  const double dt = Now() - t0;
  if (!fab.Faults().empty()) throw std::runtime_error("rtl: a PE faulted");
  double iters = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) iters += fab.ReadReg({x, y}, arch::Gpr::Addr(1));
  return {static_cast<double>(n) * n * cycles / dt, iters * k.work_per_iter / dt};
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, big = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--big") {
      big = true;
    } else {
      fmt::print(stderr, "tessera_bench_ce: unknown argument '{}' (--quick, --big)\n", a);
      return 2;
    }
  }
  try {
    const std::string dir = TESSERA_BENCH_PROGRAMS;
    std::vector<Kernel> kernels = {
        {"scalar", tessera::assembler::AssembleAndLink(dir + "/scalar_loop.s", {}, {}), 6.0,
         "insn"},
        {"dsd", tessera::assembler::AssembleAndLink(dir + "/dsd_loop.s", {}, {}), 256.0, "elem"},
    };
    const uint64_t rtl_cycles = quick ? 1500 : 20000;
    const uint64_t func_cycles = quick ? 20000 : 400000;
    fmt::print("{:>7} {:>7} {:>5} {:>14} {:>14} {:>9} {:>19} {:>19}\n", "kernel", "fabric", "tile",
               "rtl PE-cyc/s", "func PE-cyc/s", "func/rtl", "rtl work/s", "func work/s");
    struct Shape {
      int n, tile;
    };
    for (const Kernel& k : kernels) {
      std::vector<Shape> shapes = {{1, 1}, {8, 1}};
      for (auto [w, h] : tessera::rtl::BuiltTileShapes(true))
        if (w == 2 && h == 2) shapes.push_back({8, 2});  // with -DTESSERA_CE_TILES="1x1;2x2"
      for (Shape sh : shapes) {
        const int n = sh.n;
        const Result r = RunRtl(k, n, sh.tile, n == 1 ? rtl_cycles * 8 : rtl_cycles);
        const Result f = RunFunc(k, n, n == 1 ? func_cycles * 8 : func_cycles);
        fmt::print(
            "{:>7} {:>4}x{:<2} {:>3}x{} {:>14.3e} {:>14.3e} {:>8.1f}x {:>14.3e} {} {:>14.3e} {}\n",
            k.name, n, n, sh.tile, sh.tile, r.pe_cycles_per_s, f.pe_cycles_per_s,
            f.pe_cycles_per_s / r.pe_cycles_per_s, r.work_per_s, k.unit, f.work_per_s, k.unit);
      }
    }
    // The interpreter alone: the fast path against the traced path and against the same CE as
    // the endpoint of a 1x1 FuncFabric.
    for (const Kernel& k : kernels) {
      const uint64_t c = func_cycles * 8;
      const double alone = RunCeAlone(k, false, c), traced = RunCeAlone(k, true, c);
      const double fabric = RunFunc(k, 1, c).pe_cycles_per_s;
      fmt::print(
          "func CE alone, {} kernel: {:.3e} cycles/s; traced {:.2f}x, in a 1x1 FuncFabric {:.2f}x "
          "of that\n",
          k.name, alone, traced / alone, fabric / alone);
    }
    // Idle PEs: one busy PE on an 8x8 fabric against the same PE alone on 1x1.
    const Kernel& s = kernels[0];
    const Result alone = RunFunc(s, 1, func_cycles * 4);
    const Result among = RunFunc(s, 8, func_cycles * 4, {{3, 3}});
    fmt::print(
        "func, 1 busy PE among 63 idle ones: {:.2f}x the simulated cycles per second of the same "
        "PE alone (1.00 = idle PEs cost nothing)\n",
        (among.pe_cycles_per_s / 64) / alone.pe_cycles_per_s);
    if (big) {
      const long before = RssKiB();
      tessera::rtl::RtlFabricOptions o;
      o.width = o.height = 64;
      o.tile_w = o.tile_h = 1;
      o.ce = true;
      const double t0 = Now();
      tessera::rtl::LoopRtlFabric fab(o);
      const double built = Now() - t0;
      fab.Run(20);
      fmt::print(
          "rtl 64x64 full PEs: built in {:.1f} s, resident memory +{:.0f} MiB ({:.1f} KiB "
          "per PE)\n",
          built, (RssKiB() - before) / 1024.0, (RssKiB() - before) / 4096.0);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "tessera_bench_ce: {}\n", e.what());
    return 1;
  }
  return 0;
}
