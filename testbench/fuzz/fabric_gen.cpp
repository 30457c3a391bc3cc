// The plan of a fabric program: links between PEs (their routes and how each end uses them), the
// PE with the deliberate fault, and one program per PE from the generator.
#include "fuzz/fabric_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "fuzz/gen_context.h"

namespace tessera::fuzz {
namespace {

using arch::Dir;

constexpr int kMaxLinks = 6;
constexpr char kHeader[] = "; tessera fuzz fabric program:";
constexpr char kSection[] = "; ---- PE(";

// Steps across W, E, S, N (y grows to the south).
constexpr int kDx[] = {-1, 1, 0, 0};
constexpr int kDy[] = {0, 0, 1, -1};

uint32_t Bit(Dir d) { return 1u << static_cast<int>(d); }

// W <-> E, S <-> N.
Dir Opposite(Dir d) { return static_cast<Dir>(static_cast<int>(d) ^ 1); }

// The seed of PE pe's program: SplitMix64 of the fabric program's seed and the PE, so that the
// PEs of one fabric program differ, and so do consecutive fabric programs.
uint64_t PeSeed(uint64_t seed, int pe) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(pe + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Planner {
  // The PEs on one link and their route's rx and tx masks.
  using Route = std::map<int, std::array<uint32_t, 2>>;

 public:
  Planner(uint64_t seed, int width, int height) : r_(seed), w_(width), h_(height) {}

  // Links of the mix's kinds (none without send or fabric): each PE's part in them.
  std::vector<PeLinks> Links(const Mix& m) {
    std::vector<PeLinks> out(w_ * h_);
    if (w_ * h_ < 2 || !(m.Has(Category::kSend) || m.Has(Category::kDsdFabric))) return out;
    std::vector<int> colors(arch::kNumColors);
    std::iota(colors.begin(), colors.end(), 0);
    r_.Shuffle(colors);
    const int num = r_.Int(1, kMaxLinks);
    for (int i = 0; i < num; ++i) {
      // A link whose color's pair no other link uses may swap colors on its hop (ColorCfg.SwapX).
      const int c = colors[i];
      const bool pair_free =
          std::find(colors.begin(), colors.begin() + num, c ^ 1) == colors.begin() + num;
      if (pair_free && r_.Chance(0.25) && AddSwapLink(c, m.Has(Category::kDsdFabric), out))
        continue;
      AddLink(c, m.Has(Category::kDsdFabric), out);
    }
    return out;
  }

  detail::Rng& Rng() { return r_; }

 private:
  // The neighbour of pe across d (W, E, S or N), or -1 at the fabric's edge.
  int Neighbour(int pe, Dir d) const {
    const int x = pe % w_ + kDx[static_cast<int>(d)], y = pe / w_ + kDy[static_cast<int>(d)];
    return x >= 0 && y >= 0 && x < w_ && y < h_ ? y * w_ + x : -1;
  }

  // The directions from pe to neighbours not on the link yet, in a random order.
  std::vector<Dir> FreeDirs(int pe, const Route& on) {
    std::vector<int> order = {0, 1, 2, 3};
    r_.Shuffle(order);
    std::vector<Dir> out;
    for (int d : order) {
      const int n = Neighbour(pe, static_cast<Dir>(d));
      if (n >= 0 && !on.count(n)) out.push_back(static_cast<Dir>(d));
    }
    return out;
  }

  // A link with color swap: a sender on `color` to its W or E neighbour, which receives it as
  // color ^ 1 (the sender's route has ColorCfg.SwapX). False if the sender has no W or E
  // neighbour (the caller draws an ordinary link instead).
  bool AddSwapLink(int color, bool streams, std::vector<PeLinks>& out) {
    const int sender = r_.Int(0, w_ * h_ - 1);
    std::vector<Dir> dirs;
    for (Dir d : {Dir::kW, Dir::kE})
      if (Neighbour(sender, d) >= 0) dirs.push_back(d);
    if (dirs.empty()) return false;
    const Dir d = dirs[static_cast<size_t>(r_.Int(0, static_cast<int>(dirs.size()) - 1))];
    const int n = Neighbour(sender, d);
    using CC = arch::ColorCfg;
    out[sender].routes.push_back(
        {color, CC::WithSwapX(CC::WithRx(CC::WithTx(0, Bit(d)), Bit(Dir::kRamp)), 1)});
    out[sender].routed |= 1u << color;
    const int arrives = color ^ 1;
    out[n].routes.push_back(
        {arrives, CC::WithRx(CC::WithTx(0, Bit(Dir::kRamp)), Bit(Opposite(d)))});
    out[n].routed |= 1u << arrives;
    if (!streams || r_.Chance(0.5)) {
      out[sender].task_colors.push_back(color);
      out[n].rx_tasks.push_back(arrives);
      return true;
    }
    PeLinks::Stream s;
    s.color = color;
    s.ctrl_end = r_.Chance(0.4);
    s.count = r_.Int(0, detail::kSendBudget - (s.ctrl_end ? 1 : 0));
    out[sender].streams.push_back(s);
    if (r_.Chance(0.25)) {
      out[n].rx_tasks.push_back(arrives);
    } else {
      out[n].reads.push_back({arrives, s.count});
    }
    return true;
  }

  // One link on `color`: a sender, one or two neighbours, perhaps one more hop past the first;
  // then who does what with it.
  void AddLink(int color, bool streams, std::vector<PeLinks>& out) {
    enum { kRx = 0, kTx = 1 };
    Route on;
    std::vector<int> receivers;
    const int sender = r_.Int(0, w_ * h_ - 1);
    on[sender][kRx] = Bit(Dir::kRamp);
    const std::vector<Dir> dirs = FreeDirs(sender, on);
    const int fan = dirs.size() > 1 && r_.Chance(0.25) ? 2 : 1;
    for (int k = 0; k < fan; ++k) {
      const int n = Neighbour(sender, dirs[k]);
      on[sender][kTx] |= Bit(dirs[k]);
      on[n][kRx] = Bit(Opposite(dirs[k]));
      on[n][kTx] = Bit(Dir::kRamp);
      receivers.push_back(n);
    }
    if (r_.Chance(0.3)) {  // on past the first neighbour, which may receive too or only pass on
      const int mid = receivers[0];
      const std::vector<Dir> next = FreeDirs(mid, on);
      if (!next.empty()) {
        const int n = Neighbour(mid, next[0]);
        if (r_.Chance(0.5)) {
          receivers.erase(receivers.begin());
          on[mid][kTx] = 0;
        }
        on[mid][kTx] |= Bit(next[0]);
        on[n][kRx] = Bit(Opposite(next[0]));
        on[n][kTx] = Bit(Dir::kRamp);
        receivers.push_back(n);
      }
    }
    for (const auto& [pe, m] : on) {
      out[pe].routes.push_back(
          {color, arch::ColorCfg::WithRx(arch::ColorCfg::WithTx(0, m[kTx]), m[kRx])});
      out[pe].routed |= 1u << color;
    }
    // A receiver that runs data tasks may filter what reaches its CE (its route's other
    // targets still get everything).
    auto maybe_filter = [&](int pe) {
      if (!r_.Chance(0.3)) return;
      for (PeLinks::Route& rt : out[pe].routes)
        if (rt.color == color) {
          rt.filter = true;
          rt.filter_spec = detail::RandomFilter(r_);
        }
    };
    if (!streams || r_.Chance(0.5)) {  // to data tasks, as much as the sender's code sends
      out[sender].task_colors.push_back(color);
      for (int pe : receivers) {
        out[pe].rx_tasks.push_back(color);
        maybe_filter(pe);
      }
      return;
    }
    PeLinks::Stream s;
    s.color = color;
    s.ctrl_end = r_.Chance(0.4);
    s.count = r_.Int(0, detail::kSendBudget - (s.ctrl_end ? 1 : 0));
    out[sender].streams.push_back(s);
    for (int pe : receivers) {
      if (r_.Chance(0.25)) {
        out[pe].rx_tasks.push_back(color);
        maybe_filter(pe);
      } else {
        out[pe].reads.push_back({color, s.count});
      }
    }
  }

  detail::Rng r_;
  int w_, h_;
};

}  // namespace

FabricProgram GenerateFabric(uint64_t seed, int width, int height, const GenOptions& options) {
  if (width < 1 || height < 1)
    throw std::invalid_argument(fmt::format("fabric {}x{}: needs at least 1x1 PEs", width, height));
  Planner plan(seed, width, height);
  const std::vector<PeLinks> links = plan.Links(options.mix);
  const int n = width * height;
  int fault_pe = -1;
  if (options.mix.Has(Category::kFault) && plan.Rng().Chance(options.fault_rate))
    fault_pe = plan.Rng().Int(0, n - 1);
  FabricProgram f;
  f.seed = seed;
  f.width = width;
  f.height = height;
  f.mix = options.mix.ToString();
  f.links = links;
  for (int pe = 0; pe < n; ++pe) {
    GenOptions o = options;
    o.links = links[pe];
    o.fault_rate = pe == fault_pe ? 1.0 : 0.0;
    f.pes.push_back(Generate(PeSeed(seed, pe), o));
  }
  return f;
}

std::string FabricProgram::Source() const {
  std::string s =
      fmt::format("{} seed {}, fabric {}x{}, mix {}\n", kHeader, seed, width, height, mix);
  for (size_t pe = 0; pe < pes.size(); ++pe) {
    s += fmt::format("{}{},{})\n", kSection, static_cast<int>(pe) % width,
                     static_cast<int>(pe) / width);
    s += pes[pe].source;
  }
  return s;
}

std::optional<FabricProgram> ParseFabricSource(const std::string& text) {
  if (text.rfind(kHeader, 0) != 0) return std::nullopt;
  FabricProgram f;
  const std::string first = text.substr(0, text.find('\n'));
  unsigned long long seed = 0;
  char mix[256] = {};
  if (std::sscanf(first.c_str() + sizeof(kHeader) - 1, " seed %llu, fabric %dx%d, mix %255s", &seed,
                  &f.width, &f.height, mix) != 4 ||
      f.width < 1 || f.height < 1)
    throw std::invalid_argument("a fabric program's first line must name its seed, mix and shape");
  f.seed = seed;
  f.mix = mix;
  f.pes.resize(static_cast<size_t>(f.width) * f.height);
  std::vector<bool> seen(f.pes.size());
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  Program* cur = nullptr;
  while (std::getline(in, line)) {
    if (line.rfind(kSection, 0) == 0) {
      int x = -1, y = -1;
      std::sscanf(line.c_str() + sizeof(kSection) - 1, "%d,%d", &x, &y);
      if (x < 0 || y < 0 || x >= f.width || y >= f.height || seen[y * f.width + x])
        throw std::invalid_argument(fmt::format("fabric program: bad section '{}'", line));
      seen[y * f.width + x] = true;
      cur = &f.pes[y * f.width + x];
      continue;
    }
    if (!cur) continue;
    cur->source += line + "\n";
  }
  for (size_t pe = 0; pe < f.pes.size(); ++pe) {
    if (!seen[pe])
      throw std::invalid_argument(fmt::format("fabric program: no section for PE({},{})",
                                              static_cast<int>(pe) % f.width,
                                              static_cast<int>(pe) / f.width));
    f.pes[pe].seed = f.seed;
    f.pes[pe].mix = f.mix;
    f.pes[pe].expect_fault = ParseExpectation(f.pes[pe].source);
    f.pes[pe].expect_settled = ParseSettled(f.pes[pe].source);
  }
  return f;
}

}  // namespace tessera::fuzz
