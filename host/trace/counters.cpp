#include "trace/counters.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <stdexcept>

#include "arch/arch.h"
#include "trace/heatmap.h"

namespace tessera::trace {
namespace {
const char* kDirs[4] = {"W", "E", "S", "N"};
}

RunCounters::RunCounters(runtime::Device& dev) : dev_(dev), w_(dev.Width()), h_(dev.Height()) {
  runtime::Machine& m = dev.machine(0);
  pes_.resize(size_t(w_) * h_);
  retired0_.resize(pes_.size());
  for (size_t i = 0; i < pes_.size(); ++i) retired0_[i] = m.Retired(m.Fabric().At(int(i)));
}

void RunCounters::AddLinks(const std::vector<fabric::LinkEvent>& v) {
  for (const fabric::LinkEvent& e : v) {
    PeCounters& p = pes_[size_t(e.pe.y) * w_ + e.pe.x];
    ++color_[arch::Link::Color(e.word) & 31];
    if (e.port == static_cast<int>(arch::Dir::kRamp)) {
      ++(e.into ? p.ce_sent : p.ce_received);
    } else if (!e.into) {
      ++p.out[e.port & 3];
    }
  }
}

void RunCounters::Finish(uint64_t cycles) {
  cycles_ = cycles;
  runtime::Machine& m = dev_.machine(0);
  for (size_t i = 0; i < pes_.size(); ++i)
    pes_[i].instructions = m.Retired(m.Fabric().At(int(i))) - retired0_[i];
}

std::string RunCounters::Summary(const std::string& backend) const {
  const uint64_t pe_cycles = cycles_ * pes_.size();
  uint64_t insns = 0, sent = 0, hops = 0;
  for (const PeCounters& p : pes_) {
    insns += p.instructions;
    sent += p.ce_sent;
    hops += std::accumulate(p.out.begin(), p.out.end(), uint64_t(0));
  }
  std::string s = fmt::format("profile (counters v{}): {} cycles on {}x{} PEs ({})\n",
                              kCountersVersion, cycles_, w_, h_, backend);
  s += fmt::format("  instructions: {} ({:.3f} per PE-cycle)\n", insns,
                   pe_cycles ? double(insns) / pe_cycles : 0.0);
  // The busiest PEs by instructions, then the busiest links.
  std::vector<int> order(pes_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return pes_[a].instructions > pes_[b].instructions; });
  std::string top;
  for (size_t k = 0; k < std::min<size_t>(5, order.size()); ++k) {
    const PeCounters& p = pes_[order[k]];
    if (!p.instructions) break;
    top += fmt::format("{}PE({},{}) {} ({:.0f}% of its cycles)", top.empty() ? "" : ", ",
                       order[k] % w_, order[k] / w_, p.instructions,
                       cycles_ ? 100.0 * p.instructions / cycles_ : 0.0);
  }
  if (!top.empty()) s += "  busiest PEs (instructions issued): " + top + "\n";
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
  for (size_t k = 0; k < std::min<size_t>(5, links.size()); ++k)
    busy += fmt::format("{}PE({},{}) {} {} ({:.0f}% of cycles)", busy.empty() ? "" : ", ",
                        links[k].pe % w_, links[k].pe / w_, kDirs[links[k].dir], links[k].n,
                        cycles_ ? 100.0 * links[k].n / cycles_ : 0.0);
  if (!busy.empty()) s += "  busiest links (out of a router): " + busy + "\n";
  std::string colors;
  for (int c = 0; c < 32; ++c)
    if (color_[c]) colors += fmt::format("{}c{} {}", colors.empty() ? "" : ", ", c, color_[c]);
  if (!colors.empty()) s += "  link crossings per color: " + colors + "\n";
  s += "  not counted yet: stall classes, FMAC busy cycles (docs/profiling.md)\n";
  return s;
}

util::JsonObject RunCounters::Json() const {
  util::JsonObject totals;
  uint64_t insns = 0, sent = 0, received = 0;
  std::array<uint64_t, 4> out{};
  std::string per_pe = "[";
  for (size_t i = 0; i < pes_.size(); ++i) {
    const PeCounters& p = pes_[i];
    insns += p.instructions;
    sent += p.ce_sent;
    received += p.ce_received;
    util::JsonObject links;
    for (int d = 0; d < 4; ++d) {
      out[d] += p.out[d];
      links.Add(kDirs[d], p.out[d]);
    }
    util::JsonObject j;
    j.Add("x", int(i) % w_)
        .Add("y", int(i) / w_)
        .Add("instructions", p.instructions)
        .Add("ce_sent", p.ce_sent)
        .Add("ce_received", p.ce_received)
        .Add("link_out", links);
    per_pe += (i ? "," : "") + j.str();
  }
  per_pe += "]";
  util::JsonObject links;
  for (int d = 0; d < 4; ++d) links.Add(kDirs[d], out[d]);
  std::string colors = "{";
  for (int c = 0, n = 0; c < 32; ++c)
    if (color_[c]) colors += fmt::format("{}\"{}\":{}", n++ ? "," : "", c, color_[c]);
  colors += "}";
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
  std::vector<double> v(pes_.size());
  auto grid = [&](auto field) {
    for (size_t i = 0; i < pes_.size(); ++i) v[i] = double(field(pes_[i]));
    return v;
  };
  write("instructions.svg",
        HeatmapSvg(fmt::format("instructions issued per PE in {} cycles", cycles_), w_, h_,
                   grid([](const PeCounters& p) { return p.instructions; })));
  write("ce_sent.svg", HeatmapSvg("wavelets each compute engine sent", w_, h_,
                                  grid([](const PeCounters& p) { return p.ce_sent; })));
  write("ce_received.svg", HeatmapSvg("wavelets each compute engine received", w_, h_,
                                      grid([](const PeCounters& p) { return p.ce_received; })));
  std::vector<std::array<uint64_t, 4>> out(pes_.size());
  for (size_t i = 0; i < pes_.size(); ++i) out[i] = pes_[i].out;
  write("link_load.svg", LinkLoadSvg("wavelets out of each router, per direction", w_, h_, out));
  return files;
}

}  // namespace tessera::trace
