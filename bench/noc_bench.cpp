// Router fabric speed: router-cycles per second of `tessera noc` (uniform traffic, rate 0.1) on
// 4x4, 8x8 and 16x16 fabrics, for the functional model and the RTL joined by SystemC or by a
// plain loop, printed as ratios measured in the same run. Each configuration runs in its own
// process (SystemC elaborates once per process). Figures include the traffic testbench.
//
//   tessera_bench_noc [TESSERA_BINARY] [--quick]
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Config {
  std::string label, args;
};

double RouterCyclesPerSecond(const std::string& tessera, const std::string& args) {
  std::string cmd = fmt::format("{} noc {} --json", tessera, args);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run: " + cmd);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int rc = pclose(p);
  std::smatch m;
  static const std::regex re("\"router_cycles_per_second\":([0-9.e+]+)");
  if (rc != 0 || !std::regex_search(out, m, re))
    throw std::runtime_error(fmt::format("`{}` failed (status {}):\n{}", cmd, rc, out));
  return std::stod(m[1]);
}

}  // namespace

int main(int argc, char** argv) {
  std::string tessera = "build/bin/tessera";
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else {
      tessera = a;
    }
  }
  struct Size {
    int n;
    int cycles;
  };
  std::vector<Size> sizes = {{4, 20000}, {8, 5000}, {16, 1500}};
  if (quick) sizes = {{4, 2000}, {8, 500}, {16, 150}};
  try {
    fmt::print("{:>7} {:>8} {:>14} {:>14} {:>14} {:>10} {:>10}\n", "fabric", "tile", "func",
               "rtl loop", "rtl SystemC", "glue cost", "func/rtl");
    for (const Size& s : sizes) {
      std::string common =
          fmt::format("--fabric {0}x{0} --pattern uniform --rate 0.1 --seed 1", s.n);
      // The functional model runs 10x the cycles: it is that much faster and needs the length
      // to be timed well.
      double func = RouterCyclesPerSecond(
          tessera, fmt::format("{} --cycles {} --backend func", common, 10 * s.cycles));
      for (const char* tile : {"1x1", "2x2", "4x4"}) {
        if (s.n % (tile[0] - '0')) continue;
        std::string rtl =
            fmt::format("{} --cycles {} --backend rtl --tile {}", common, s.cycles, tile);
        double loop = RouterCyclesPerSecond(tessera, rtl + " --glue loop");
        double sc = RouterCyclesPerSecond(tessera, rtl + " --glue sc");
        fmt::print("{:>7} {:>8} {:>14.3g} {:>14.3g} {:>14.3g} {:>9.1f}% {:>9.1f}x\n",
                   fmt::format("{0}x{0}", s.n), tile, func, loop, sc, 100.0 * (loop - sc) / loop,
                   func / sc);
      }
    }
    fmt::print(
        "router-cycles/s; glue cost = (loop - SystemC) / loop; func/rtl against the SystemC "
        "fabric\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "tessera_bench_noc: {}\n", e.what());
    return 1;
  }
  return 0;
}
