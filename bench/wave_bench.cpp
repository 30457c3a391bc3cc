// What waves cost the RTL fabric. An 8x8 fabric of full PEs (1x1 tiles) runs
// bench/programs/scalar_loop.s on every PE, with each glue, four ways:
//   off      no waves;
//   outside  waves on, the whole fabric, the window after the run: nothing is dumped, so this is
//            what waves cost outside their window;
//   tenth    the last tenth of the run dumped;
//   all      the whole run dumped.
// SystemC allows one fabric per process, so every run is a child process. Each child times its
// Run() alone (the FST is closed inside Run when the window ends); the parent prints medians as
// ratios against the same glue's run without waves, measured by this same program.
//
//   tessera_bench_waves [--quick] [--cycles N] [--reps N] [--program dsd_loop]
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "asm/link.h"
#include "rtl/rtl_fabric.h"
#include "util/enum_names.h"

namespace {

namespace arch = tessera::arch;
namespace rtl = tessera::rtl;
namespace util = tessera::util;

double Now() {
  using C = std::chrono::steady_clock;
  return std::chrono::duration<double>(C::now().time_since_epoch()).count();
}

enum class Mode { kOff, kOutside, kTenth, kAll };
constexpr util::EnumName<Mode> kModeNameTable[] = {
    {Mode::kOff, "off"},
    {Mode::kOutside, "outside"},
    {Mode::kTenth, "tenth"},
    {Mode::kAll, "all"},
};

const char* ModeName(Mode m) { return util::NameOf(kModeNameTable, m); }

struct Sample {
  double seconds = 0;
  uint64_t fst_bytes = 0;
};

// In the child: one fabric, loaded and run; the time of Run() and the FST's size.
Sample RunOnce(const tessera::assembler::PeProgram& prog, bool sc, Mode mode, int n,
               uint64_t cycles, const std::string& fst) {
  rtl::RtlFabricOptions o;
  o.width = o.height = n;
  o.ce = true;
  if (mode != Mode::kOff) o.wave_path = fst;
  if (mode == Mode::kOutside) o.wave_from = cycles + 1000;
  if (mode == Mode::kTenth) o.wave_from = cycles - cycles / 10;
  std::unique_ptr<rtl::RtlFabric> fab;
  if (sc) {
    fab = rtl::MakeScRtlFabric(o);
  } else {
    fab = std::make_unique<rtl::LoopRtlFabric>(o);
  }
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      for (size_t a = 0; a < prog.sram.size(); a += 4) {
        const uint32_t w = prog.Word(static_cast<uint16_t>(a));
        if (w) fab->WriteReg({x, y}, static_cast<uint16_t>(a), w);
      }
      for (const auto& t : prog.tasks) {
        const uint32_t v = arch::TaskCfg::WithEntry(0, t.entry);
        fab->WriteReg({x, y}, arch::TaskCfg::Addr(t.id),
                      arch::TaskCfg::WithKind(v, static_cast<uint32_t>(t.kind)));
      }
      fab->WriteReg({x, y}, arch::TaskActiveSet::kAddr, 1);
    }
  }
  const double t0 = Now();
  if (fab->Run(cycles) != cycles || !fab->Faults().empty())
    throw std::runtime_error("the run stopped early: a PE faulted");
  const double dt = Now() - t0;
  fab.reset();
  Sample s{dt, 0};
  if (mode != Mode::kOff) {
    s.fst_bytes = std::filesystem::file_size(fst);
    std::filesystem::remove(fst);
  }
  return s;
}

// Runs RunOnce in a child process and returns its sample.
Sample InChild(const tessera::assembler::PeProgram& prog, bool sc, Mode mode, int n,
               uint64_t cycles, const std::string& fst) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fd[0]);
    int code = 0;
    Sample s;
    try {
      s = RunOnce(prog, sc, mode, n, cycles, fst);
    } catch (const std::exception& e) {
      fmt::print(stderr, "tessera_bench_waves: {}\n", e.what());
      code = 1;
    }
    const ssize_t w = write(fd[1], &s, sizeof s);
    _exit(w == static_cast<ssize_t>(sizeof s) ? code : 1);
  }
  close(fd[1]);
  Sample s;
  const ssize_t r = read(fd[0], &s, sizeof s);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (r != static_cast<ssize_t>(sizeof s) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(
        fmt::format("the {} run with waves {} failed", sc ? "sc" : "loop", ModeName(mode)));
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t cycles = 3000;
  int reps = 3;
  const int n = 8;
  std::string program = "scalar_loop";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      cycles = 500;
      reps = 1;
    } else if (a == "--cycles" && i + 1 < argc) {
      cycles = std::stoull(argv[++i]);
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::stoi(argv[++i]);
    } else if (a == "--program" && i + 1 < argc) {
      program = argv[++i];
    } else {
      fmt::print(stderr,
                 "tessera_bench_waves: unknown argument '{}' (--quick, --cycles N, --reps N, "
                 "--program NAME)\n",
                 a);
      return 2;
    }
  }
  try {
    const auto prog = tessera::assembler::AssembleAndLink(
        std::string(TESSERA_BENCH_PROGRAMS) + "/" + program + ".s", {}, {});
    const std::string fst = (std::filesystem::temp_directory_path() /
                             fmt::format("tessera_bench_waves_{}.fst", getpid()))
                                .string();
    const Mode modes[] = {Mode::kOff, Mode::kOutside, Mode::kTenth, Mode::kAll};
    fmt::print("{}x{} full PEs, 1x1 tiles, {}.s on every PE, {} cycles, median of {}\n", n, n,
               program, cycles, reps);
    fmt::print("{:>5} {:>8} {:>10} {:>14} {:>9} {:>10}\n", "glue", "waves", "run s", "PE-cycles/s",
               "vs off", "FST bytes");
    for (bool sc : {false, true}) {
      std::vector<std::vector<Sample>> samples(4);
      for (int r = 0; r < reps; ++r)  // interleaved, so that load changes hit every mode alike
        for (int m = 0; m < 4; ++m)
          samples[m].push_back(InChild(prog, sc, modes[m], n, cycles, fst));
      double off = 0;
      for (int m = 0; m < 4; ++m) {
        auto& v = samples[m];
        std::sort(v.begin(), v.end(),
                  [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
        const Sample med = v[v.size() / 2];
        if (m == 0) off = med.seconds;
        fmt::print("{:>5} {:>8} {:>10.3f} {:>14.3e} {:>8.2f}x {:>10}\n", sc ? "sc" : "loop",
                   ModeName(modes[m]), med.seconds,
                   n * n * static_cast<double>(cycles) / med.seconds, med.seconds / off,
                   med.fst_bytes);
      }
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "tessera_bench_waves: {}\n", e.what());
    return 1;
  }
  return 0;
}
