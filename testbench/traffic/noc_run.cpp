#include "traffic/noc_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "scoreboards/route_tracer.h"
#include "traffic/traffic_endpoint.h"

namespace tessera::noc {
namespace {

// Drain in steps so that the run ends soon after the last delivery without a Run call per cycle.
constexpr uint64_t kDrainStep = 16;

// Detaches the endpoints from the fabric however RunNoc leaves (they die with it).
class Attachment {
 public:
  Attachment(fabric::Fabric& fabric, std::vector<std::unique_ptr<TrafficEndpoint>>& eps)
      : fabric_(fabric), eps_(eps) {
    for (auto& ep : eps_) fabric_.SetEndpoint(fabric_.At(ep->Pe()), ep.get());
  }
  ~Attachment() {
    for (auto& ep : eps_) fabric_.SetEndpoint(fabric_.At(ep->Pe()), nullptr);
  }
  Attachment(const Attachment&) = delete;
  Attachment& operator=(const Attachment&) = delete;

 private:
  fabric::Fabric& fabric_;
  std::vector<std::unique_ptr<TrafficEndpoint>>& eps_;
};

}  // namespace

struct NocSession::State {
  fabric::Fabric& fabric;
  NocOptions options;
  NocResult res;
  std::shared_ptr<Scoreboard> scoreboard;
  std::unique_ptr<RouteTracer> tracer;
  std::vector<std::unique_ptr<TrafficEndpoint>> eps;
  std::unique_ptr<Attachment> attach;
  uint64_t start = 0, window_left = 0, limit = 0, stalled = 0, delivered_in_window = 0;
  bool in_window = true, done = false;
  State(fabric::Fabric& f, const NocOptions& o) : fabric(f), options(o) {}
};

NocSession::NocSession(fabric::Fabric& fabric, const NocOptions& options)
    : st_(std::make_unique<State>(fabric, options)) {
  State& s = *st_;
  const int w = fabric.Width(), h = fabric.Height();
  if (!(options.rate >= 0 && options.rate <= 1)) {
    throw std::invalid_argument(fmt::format(
        "noc: --rate {} is not a probability per PE per cycle in [0, 1]", options.rate));
  }
  if (options.cycles == 0) throw std::invalid_argument("noc: --cycles must be at least 1");
  TrafficPlan plan = MakePlan(options.pattern, w, h, options.seed);
  NocResult& res = s.res;
  res.pattern = options.pattern;
  res.width = w;
  res.height = h;
  res.flows = static_cast<int>(plan.flows.size());
  res.silent = plan.silent;
  res.cycles = options.cycles;

  plan.routes.Apply(fabric);
  s.scoreboard = std::make_shared<Scoreboard>(w, h, options.keep_log);
  s.tracer = std::make_unique<RouteTracer>(plan.routes);
  s.eps.reserve(static_cast<size_t>(fabric.NumPes()));
  for (int pe = 0; pe < fabric.NumPes(); ++pe) {
    s.eps.push_back(std::make_unique<TrafficEndpoint>(pe, *s.tracer, *s.scoreboard, options.seed));
  }
  for (const Flow& f : plan.flows) s.eps[static_cast<size_t>(f.src)]->AddFlow(f.color, f.ctrl_prob);
  s.start = fabric.Cycle();
  res.start_cycle = s.start;
  for (auto& ep : s.eps) ep->StartInjection(options.rate, s.start, s.start + options.cycles);
  s.attach = std::make_unique<Attachment>(fabric, s.eps);
  s.window_left = options.cycles;
  // Draining stops after `limit` cycles without a delivery: nothing will move again.
  s.limit = options.drain_limit ? options.drain_limit
                                : std::max<uint64_t>(2000, 20 * static_cast<uint64_t>(w + h));
}

NocSession::~NocSession() {
  if (st_) st_->fabric.SetStopWhenQuiescent(false);
}

bool NocSession::Done() const { return st_->done; }

void NocSession::Step(uint64_t max_cycles) {
  State& s = *st_;
  if (s.done || max_cycles == 0) return;
  NocResult& res = s.res;
  if (s.in_window) {
    const uint64_t n = std::min(max_cycles, s.window_left);
    const uint64_t ran = s.fabric.Run(n);
    s.window_left -= ran;
    // A fault in the window's last cycle stops nothing but still ends the run.
    res.stopped_by_fault = ran < n || !s.fabric.Faults().empty();
    if (s.window_left > 0 && !res.stopped_by_fault) return;
    s.in_window = false;
    s.delivered_in_window = s.scoreboard->Stats().delivered;
    s.fabric.SetStopWhenQuiescent(true);
  } else {
    // Drain to quiescence (Fabric::Quiescent: every wavelet delivered or consumed, nothing in
    // flight), stopping at the exact cycle it is reached, while deliveries still happen.
    const uint64_t before = s.scoreboard->Outstanding();
    const uint64_t step = std::min(max_cycles, s.limit - s.stalled);
    const uint64_t n = s.fabric.Run(step);
    res.drain_cycles += n;
    res.stopped_by_fault = !s.fabric.Faults().empty() || (n < step && !s.fabric.Quiescent());
    s.stalled = s.scoreboard->Outstanding() < before ? 0 : s.stalled + n;
  }
  if (res.stopped_by_fault || (s.scoreboard->Outstanding() == 0 && s.fabric.Quiescent()) ||
      s.stalled >= s.limit) {
    s.done = true;
    s.fabric.SetStopWhenQuiescent(false);
  }
}

NocResult NocSession::Finish() {
  State& s = *st_;
  s.attach.reset();  // detach the endpoints
  NocResult& res = s.res;
  res.run_cycles = s.fabric.Cycle() - s.start;
  res.drained = s.scoreboard->Outstanding() == 0;
  res.faults = s.fabric.Faults();
  res.stats = s.scoreboard->Stats();
  res.predicted_faults = s.scoreboard->PredictedFaults();
  const double pe_cycles = static_cast<double>(s.fabric.NumPes()) * s.options.cycles;
  res.offered_load = res.stats.offered / pe_cycles;
  res.accepted_load = s.delivered_in_window / pe_cycles;
  res.scoreboard = s.scoreboard;
  return res;
}

NocResult RunNoc(fabric::Fabric& fabric, const NocOptions& options) {
  NocSession session(fabric, options);
  // The window in one Run, then drain in steps so that the run ends soon after quiescence
  // without a Run call per cycle.
  session.Step(options.cycles);
  while (!session.Done()) session.Step(kDrainStep);
  return session.Finish();
}

}  // namespace tessera::noc
