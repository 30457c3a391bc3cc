#include "trace/counters.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <stdexcept>

#include "arch/arch.h"
#include "cosim/back_pressure.h"
#include "trace/heatmap.h"
#include "trace/issued.h"

namespace tessera::trace {
namespace {
constexpr int kOutputs = static_cast<int>(arch::kNumDirs);  // W, E, S, N, RAMP
const char* OutputName(int d) { return arch::ToString(static_cast<arch::Dir>(d)); }

arch::PerfEvent Event(int e) { return static_cast<arch::PerfEvent>(e); }

// What each class of the vocabulary waited on, for the summary.
const char* Meaning(arch::PerfEvent e) {
  using P = arch::PerfEvent;
  switch (e) {
    case P::kStallUt:
      return "a DSD instruction waits for its busy microthread";
    case P::kStallSync:
      return "waits for a synchronous DSD operation";
    case P::kStallSend:
      return "a send waits for an output credit";
    case P::kStallUtWait:
      return "utwait waits for microthreads";
    case P::kStallPort:
      return "waits for an SRAM port (bank conflict)";
    case P::kStallFmac:
      return "waits for the FMAC";
    case P::kUtReady:
      return "stepping";
    case P::kUtFabIn:
      return "waiting for fabric input";
    case P::kUtFabOut:
      return "waiting for an output credit";
    case P::kUtPort:
      return "waiting for an SRAM port (bank conflict)";
    case P::kUtFmac:
      return "waiting for the FMAC";
    case P::kUtTurn:
      return "waiting its turn";
    case P::kUtDrain:
      return "draining results";
    case P::kUtFifo:
      return "waiting for a FIFO (empty, or full)";
    case P::kSplitSteps:
      return "split DSD steps: both sources in one SRAM bank (half speed)";
    case P::kFmacBusy:
      return "FMAC busy (an operation issued)";
    case P::kDsdElems:
      return "DSD elements finished";
    default:
      return "";
  }
}

std::array<uint32_t, kPerfEvents> ReadPerf(machine::Machine& m, fabric::Coord pe) {
  std::array<uint32_t, kPerfEvents> v{};
  for (int e = 0; e < kPerfEvents; ++e) v[e] = m.Read(pe, arch::PerfCount::Addr(e));
  return v;
}
}  // namespace

RunCounters::RunCounters(runtime::Device& dev) : dev_(dev), w_(dev.Width()), h_(dev.Height()) {
  machine::Machine& m = dev.machine();
  // Both fabrics of a co-simulation count, and it compares them at the end of each run.
  m.ForEachFabric([](fabric::Fabric& f) { f.SetBackPressureCount(true); });
  pes_.resize(size_t(w_) * h_);
  retired0_.resize(pes_.size());
  perf0_.resize(pes_.size());
  for (size_t i = 0; i < pes_.size(); ++i) {
    const fabric::Coord pe = m.Fabric().At(int(i));
    retired0_[i] = m.Retired(pe);
    perf0_[i] = ReadPerf(m, pe);
  }
}

void RunCounters::AddLinks(const std::vector<fabric::LinkEvent>& v) {
  for (const fabric::LinkEvent& e : v) {
    PeCounters& p = pes_[size_t(e.pe.y) * w_ + e.pe.x];
    ++color_[arch::Link::Color(e.word) & 31];
    if (e.port == static_cast<int>(arch::Dir::kRamp)) {
      ++(e.into ? p.ce_sent : p.ce_received);
    } else if (!e.into) {
      ++p.out[e.port & 3];
      ++p.out_color[e.port & 3][int(arch::Link::Color(e.word))];
    }
  }
}

void RunCounters::Before(uint64_t cycle, machine::Machine& m) {
  if (!tasks_.started()) tasks_.Start(cycle, m);  // a task already running counts from here
}

void RunCounters::After(uint64_t cycle, machine::Machine& m,
                        const std::vector<fabric::PeEvents>& events) {
  tasks_.After(cycle, m, events,
               [this](int i, int task, uint64_t n) { pes_[i].task_cycles[task] += n; });
}

void RunCounters::Finish(uint64_t cycles) {
  cycles_ = cycles;
  machine::Machine& m = dev_.machine();
  // Tasks still running: their cycles so far.
  tasks_.ForOpen(m.Cycle(),
                 [this](int i, int task, uint64_t n) { pes_[i].task_cycles[task] += n; });
  for (size_t i = 0; i < pes_.size(); ++i) {
    const fabric::Coord pe = m.Fabric().At(int(i));
    pes_[i].instructions = m.Retired(pe) - retired0_[i];
    const std::array<uint32_t, kPerfEvents> now = ReadPerf(m, pe);
    for (int e = 0; e < kPerfEvents; ++e) pes_[i].perf[e] = now[e] - perf0_[i][e];
    for (const auto& [task, n] : pes_[i].task_cycles)
      task_names_.emplace(std::make_pair(int(i), task), TaskName(m, dev_.image(), pe, task));
  }
  blocked_ = m.Fabric().BackPressure();
  for (size_t i = 0; i < pes_.size(); ++i)
    for (int d = 0; d < kOutputs; ++d)
      for (int c = 0; c < fabric::Fabric::kBackPressureColors; ++c)
        pes_[i].blocked[d] += Blocked(int(i), d, c);
}

uint64_t RunCounters::Blocked(int i, int dir, int color) const {
  if (blocked_.empty()) return 0;
  return blocked_[fabric::Fabric::BackPressureIndex(i, dir, color)];
}

std::string RunCounters::TaskLabel(int i, int task) const {
  auto it = task_names_.find({i, task});
  return it == task_names_.end() ? fmt::format("task {}", task) : it->second;
}

std::string RunCounters::Summary(const std::string& backend) const {
  using P = arch::PerfEvent;
  const uint64_t pe_cycles = cycles_ * pes_.size();
  std::array<uint64_t, kPerfEvents> total{};
  uint64_t insns = 0, sent = 0, hops = 0;
  for (const PeCounters& p : pes_) {
    insns += p.instructions;
    sent += p.ce_sent;
    hops += std::accumulate(p.out.begin(), p.out.end(), uint64_t(0));
    for (int e = 0; e < kPerfEvents; ++e) total[e] += p.perf[e];
  }
  auto pct = [](uint64_t n, uint64_t of) { return of ? 100.0 * double(n) / double(of) : 0.0; };
  auto t = [&](P e) { return total[static_cast<int>(e)]; };
  // The PE where a class counted most.
  auto most = [&](int e) {
    size_t best = 0;
    bool equal = true;
    for (size_t i = 1; i < pes_.size(); ++i) {
      equal &= pes_[i].perf[e] == pes_[0].perf[e];
      if (pes_[i].perf[e] > pes_[best].perf[e]) best = i;
    }
    if (equal && pes_.size() > 1) return std::string("the same on every PE");
    return fmt::format("most on PE({},{})", int(best) % w_, int(best) / w_);
  };
  std::string s = fmt::format("profile (counters v{}): {} cycles on {}x{} PEs ({})\n",
                              kCountersVersion, cycles_, w_, h_, backend);
  s += fmt::format(
      "  compute engines: a task runs {:.1f}% of PE-cycles, idle {:.1f}%; microthreads busy "
      "{:.1f}%; {} instructions ({:.3f} per PE-cycle)\n",
      pct(t(P::kTaskCycles), pe_cycles), 100.0 - pct(t(P::kTaskCycles), pe_cycles),
      pct(t(P::kUtBusy), pe_cycles), insns, pe_cycles ? double(insns) / pe_cycles : 0.0);
  s += fmt::format("  FMAC: busy {:.1f}% of PE-cycles (the utilization; {}); {} DSD elements\n",
                   pct(t(P::kFmacBusy), pe_cycles), most(static_cast<int>(P::kFmacBusy)),
                   t(P::kDsdElems));
  // Microthread-cycles by wait state, then scalar stalls, largest first.
  auto classes = [&](int from, int to, uint64_t of, bool percent) {
    std::vector<int> order;
    for (int e = from; e <= to; ++e)
      if (total[e]) order.push_back(e);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return total[a] > total[b]; });
    std::string out;
    for (size_t k = 0; k < std::min<size_t>(4, order.size()); ++k) {
      const int e = order[k];
      out += fmt::format("{}{} {}", out.empty() ? "" : "; ", Meaning(Event(e)),
                         percent ? fmt::format("{:.1f}%", pct(total[e], of))
                                 : fmt::format("{} PE-cycles (summed over the PEs)", total[e]));
      if (e != static_cast<int>(P::kUtReady)) out += fmt::format(" ({})", most(e));
    }
    return out;
  };
  const uint64_t ut_cycles = [&] {
    uint64_t n = 0;
    for (int e = static_cast<int>(P::kUtReady); e <= static_cast<int>(P::kUtFifo); ++e)
      n += total[e];
    return n;
  }();
  if (ut_cycles)
    s += "  microthread-cycles: " +
         classes(static_cast<int>(P::kUtReady), static_cast<int>(P::kUtFifo), ut_cycles, true) +
         "\n";
  const std::string stalls =
      classes(static_cast<int>(P::kStallUt), static_cast<int>(P::kStallFmac), 0, false);
  uint64_t stalled = 0;
  for (int e = static_cast<int>(P::kStallUt); e <= static_cast<int>(P::kStallFmac); ++e)
    stalled += total[e];
  const uint64_t tasks = t(P::kTaskCycles);
  // Task cycles that neither issued nor stalled: waiting for a result (a load, an FP operation)
  // or refetching after a taken branch.
  const uint64_t latency = tasks - std::min(tasks, t(P::kInsns) + stalled);
  if (tasks)
    s += fmt::format(
        "  scalar stage, of the task cycles: issuing {:.1f}%, stalled {:.1f}%, waiting on a "
        "result or a branch {:.1f}%\n",
        pct(t(P::kInsns), tasks), pct(stalled, tasks), pct(latency, tasks));
  s += "  scalar stalls: " + (stalls.empty() ? std::string("none") : stalls) + "\n";
  const int split = static_cast<int>(P::kSplitSteps);
  if (total[split])
    s += fmt::format("  {}: {} PE-cycles (summed over the PEs; {})\n", Meaning(P::kSplitSteps),
                     total[split], most(split));
  // The slowest PEs: the most cycles with a task running.
  std::vector<int> order(pes_.size());
  std::iota(order.begin(), order.end(), 0);
  const int tc = static_cast<int>(P::kTaskCycles);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return pes_[a].perf[tc] > pes_[b].perf[tc]; });
  std::string top;
  for (size_t k = 0; k < std::min<size_t>(3, order.size()); ++k) {
    const PeCounters& p = pes_[order[k]];
    if (!p.perf[tc]) break;
    top += fmt::format("{}PE({},{}) {} task cycles, {} instructions", top.empty() ? "" : ", ",
                       order[k] % w_, order[k] / w_, p.perf[tc], p.instructions);
  }
  if (!top.empty()) s += "  slowest PEs: " + top + "\n";
  // The tasks that ran longest, over all PEs.
  struct TaskRun {
    int pe, task;
    uint64_t n;
  };
  std::vector<TaskRun> runs;
  for (size_t i = 0; i < pes_.size(); ++i)
    for (const auto& [task, n] : pes_[i].task_cycles) runs.push_back({int(i), task, n});
  std::stable_sort(runs.begin(), runs.end(),
                   [](const TaskRun& a, const TaskRun& b) { return a.n > b.n; });
  std::string tasks_top;
  for (size_t k = 0; k < std::min<size_t>(3, runs.size()); ++k)
    tasks_top +=
        fmt::format("{}PE({},{}) {} {} cycles", tasks_top.empty() ? "" : ", ", runs[k].pe % w_,
                    runs[k].pe / w_, TaskLabel(runs[k].pe, runs[k].task), runs[k].n);
  if (!tasks_top.empty()) s += "  longest-running tasks: " + tasks_top + "\n";
  struct Link {
    int pe, dir;
    uint64_t n;
  };
  std::vector<Link> links;
  for (size_t i = 0; i < pes_.size(); ++i)
    for (int d = 0; d < 4; ++d)
      if (pes_[i].out[d]) links.push_back({int(i), d, pes_[i].out[d]});
  std::stable_sort(links.begin(), links.end(),
                   [](const Link& a, const Link& b) { return a.n > b.n; });
  s += fmt::format("  wavelets: {} sent by compute engines, {} router hops\n", sent, hops);
  std::string busy;
  for (size_t k = 0; k < std::min<size_t>(3, links.size()); ++k)
    busy += fmt::format("{}PE({},{}) {} {} ({:.0f}% of cycles)", busy.empty() ? "" : ", ",
                        links[k].pe % w_, links[k].pe / w_, OutputName(links[k].dir), links[k].n,
                        pct(links[k].n, cycles_));
  if (!busy.empty()) s += "  busiest links (out of a router): " + busy + "\n";
  // Back pressure: the (router output, color) pairs held up longest.
  struct Held {
    int pe, dir, color;
    uint64_t n;
  };
  std::vector<Held> held;
  for (size_t i = 0; i < pes_.size(); ++i)
    for (int d = 0; d < kOutputs; ++d)
      if (pes_[i].blocked[d])
        for (int c = 0; c < fabric::Fabric::kBackPressureColors; ++c)
          if (const uint64_t n = Blocked(int(i), d, c)) held.push_back({int(i), d, c, n});
  std::stable_sort(held.begin(), held.end(),
                   [](const Held& a, const Held& b) { return a.n > b.n; });
  std::string bp;
  for (size_t k = 0; k < std::min<size_t>(3, held.size()); ++k)
    bp += fmt::format("{}PE({},{}) {} color {} {} cycles ({:.0f}%)", bp.empty() ? "" : ", ",
                      held[k].pe % w_, held[k].pe / w_, OutputName(held[k].dir), held[k].color,
                      held[k].n, pct(held[k].n, cycles_));
  s += "  back pressure (a wavelet waits, no credit): " + (bp.empty() ? std::string("none") : bp) +
       "\n";
  return s;
}

util::JsonObject RunCounters::Json() const {
  util::JsonObject totals;
  uint64_t insns = 0, sent = 0, received = 0;
  std::array<uint64_t, 4> out{};
  std::array<uint64_t, kPerfEvents> perf_total{};
  std::array<uint64_t, kOutputs> blocked_total{};
  std::array<uint64_t, fabric::Fabric::kBackPressureColors> blocked_color{};
  std::string per_pe = "[";
  for (size_t i = 0; i < pes_.size(); ++i) {
    const PeCounters& p = pes_[i];
    insns += p.instructions;
    sent += p.ce_sent;
    received += p.ce_received;
    util::JsonObject links, link_colors;
    for (int d = 0; d < 4; ++d) {
      out[d] += p.out[d];
      links.Add(OutputName(d), p.out[d]);
      if (p.out_color[d].empty()) continue;
      util::JsonObject per;
      for (const auto& [color, n] : p.out_color[d]) per.Add(std::to_string(color), n);
      link_colors.Add(OutputName(d), per);
    }
    util::JsonObject j;
    j.Add("x", int(i) % w_).Add("y", int(i) / w_);
    for (int e = 0; e < kPerfEvents; ++e) {
      j.Add(arch::ToString(Event(e)), p.perf[e]);
      perf_total[e] += p.perf[e];
    }
    j.Add("fmac_utilization",
          cycles_ ? double(p.perf[static_cast<int>(arch::PerfEvent::kFmacBusy)]) / double(cycles_)
                  : 0.0);
    util::JsonObject tasks;
    for (const auto& [task, n] : p.task_cycles) tasks.Add(std::to_string(task), n);
    util::JsonObject held, held_colors;
    for (int d = 0; d < kOutputs; ++d) {
      held.Add(OutputName(d), p.blocked[d]);
      blocked_total[d] += p.blocked[d];
      if (!p.blocked[d]) continue;
      util::JsonObject per;
      for (int c = 0; c < fabric::Fabric::kBackPressureColors; ++c)
        if (const uint64_t n = Blocked(int(i), d, c)) {
          per.Add(std::to_string(c), n);
          blocked_color[c] += n;
        }
      held_colors.Add(OutputName(d), per);
    }
    j.Add("task_cycles_by_task", tasks)
        .Add("back_pressure", held)
        .Add("back_pressure_colors", held_colors);
    j.Add("idle_cycles", cycles_ - p.perf[static_cast<int>(arch::PerfEvent::kTaskCycles)])
        .Add("instructions", p.instructions)
        .Add("ce_sent", p.ce_sent)
        .Add("ce_received", p.ce_received)
        .Add("link_out", links)
        .Add("link_out_colors", link_colors);
    per_pe += (i ? "," : "") + j.str();
  }
  per_pe += "]";
  util::JsonObject links;
  for (int d = 0; d < 4; ++d) links.Add(OutputName(d), out[d]);
  std::string colors = "{";
  for (int c = 0, n = 0; c < 32; ++c)
    if (color_[c]) colors += fmt::format("{}\"{}\":{}", n++ ? "," : "", c, color_[c]);
  colors += "}";
  for (int e = 0; e < kPerfEvents; ++e) totals.Add(arch::ToString(Event(e)), perf_total[e]);
  const uint64_t pe_cycles = cycles_ * pes_.size();
  totals.Add("fmac_utilization",
             pe_cycles ? double(perf_total[static_cast<int>(arch::PerfEvent::kFmacBusy)]) /
                             double(pe_cycles)
                       : 0.0);
  util::JsonObject held, held_colors;
  for (int d = 0; d < kOutputs; ++d) held.Add(OutputName(d), blocked_total[d]);
  for (int c = 0; c < fabric::Fabric::kBackPressureColors; ++c)
    if (blocked_color[c]) held_colors.Add(std::to_string(c), blocked_color[c]);
  totals.Add("back_pressure", held).Add("back_pressure_per_color", held_colors);
  totals.Add("instructions", insns)
      .Add("ce_sent", sent)
      .Add("ce_received", received)
      .Add("link_out", links)
      .AddRaw("link_crossings_per_color", colors);
  util::JsonObject j;
  j.Add("version", kCountersVersion)
      .Add("cycles", cycles_)
      .Add("width", w_)
      .Add("height", h_)
      .Add("totals", totals)
      .AddRaw("pes", per_pe);
  return j;
}

std::vector<std::string> RunCounters::WriteHeatmaps(const std::string& dir) const {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("--heatmap {}: cannot make the folder", dir));
  std::vector<std::string> files;
  auto write = [&](const std::string& name, const std::string& svg) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::ofstream f(path);
    f << svg;
    f.close();
    if (!f) throw std::runtime_error(fmt::format("--heatmap: cannot write {}", path));
    files.push_back(path);
  };
  auto grid = [&](auto field) {  // one value per PE
    std::vector<double> v(pes_.size());
    for (size_t i = 0; i < pes_.size(); ++i) v[i] = double(field(pes_[i]));
    return v;
  };
  write("instructions.svg",
        HeatmapSvg(fmt::format("instructions issued per PE in {} cycles", cycles_), "instructions",
                   w_, h_, grid([](const PeCounters& p) { return p.instructions; })));
  write("busy.svg", HeatmapSvg(fmt::format("cycles a task ran, per PE, of {}", cycles_), "cycles",
                               w_, h_, grid([](const PeCounters& p) {
                                 return p.perf[static_cast<int>(arch::PerfEvent::kTaskCycles)];
                               })));
  for (int e = static_cast<int>(arch::PerfEvent::kStallUt); e < kPerfEvents; ++e) {
    if (e == static_cast<int>(arch::PerfEvent::kUtReady) ||
        e == static_cast<int>(arch::PerfEvent::kFmacBusy))  // fmac_utilization.svg
      continue;
    const std::vector<double> v = grid([&](const PeCounters& p) { return p.perf[e]; });
    if (std::all_of(v.begin(), v.end(), [](double d) { return d == 0; })) continue;
    const char* what = e < static_cast<int>(arch::PerfEvent::kUtReady)       ? "scalar stage"
                       : e >= static_cast<int>(arch::PerfEvent::kSplitSteps) ? "DSD engine"
                                                                             : "microthread-cycles";
    write(
        std::string(arch::ToString(Event(e))) + ".svg",
        HeatmapSvg(
            fmt::format("{}: {} ({}), {} per PE", arch::ToString(Event(e)), Meaning(Event(e)), what,
                        e == static_cast<int>(arch::PerfEvent::kDsdElems) ? "elements" : "cycles"),
            e == static_cast<int>(arch::PerfEvent::kDsdElems) ? "elements" : "cycles", w_, h_, v));
  }
  write("ce_sent.svg", HeatmapSvg("wavelets each compute engine sent", "wavelets", w_, h_,
                                  grid([](const PeCounters& p) { return p.ce_sent; })));
  write("ce_received.svg", HeatmapSvg("wavelets each compute engine received", "wavelets", w_, h_,
                                      grid([](const PeCounters& p) { return p.ce_received; })));
  std::vector<std::array<uint64_t, 5>> out(pes_.size());
  for (size_t i = 0; i < pes_.size(); ++i) {
    for (int d = 0; d < 4; ++d) out[i][d] = pes_[i].out[d];
    out[i][4] = pes_[i].ce_received;  // what the router gave the ramp
  }
  write("link_load.svg",
        LinkLoadSvg(fmt::format("link load: wavelets out of each router, per direction, in {} "
                                "cycles",
                                cycles_),
                    "wavelets", w_, h_, out));
  for (size_t i = 0; i < pes_.size(); ++i)
    for (int d = 0; d < 5; ++d) out[i][d] = pes_[i].blocked[d];
  write("back_pressure.svg",
        LinkLoadSvg("back pressure: cycles a wavelet waited for a credit, per router output",
                    "cycles waiting", w_, h_, out));
  write("fmac_utilization.svg",
        HeatmapSvg(fmt::format("FMAC utilization: busy cycles per PE, of {}", cycles_), "cycles",
                   w_, h_, grid([](const PeCounters& p) {
                     return p.perf[static_cast<int>(arch::PerfEvent::kFmacBusy)];
                   })));
  return files;
}

}  // namespace tessera::trace
