#include "noc/noc_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "noc/route_tracer.h"
#include "noc/traffic_endpoint.h"

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

NocResult RunNoc(fabric::Fabric& fabric, const NocOptions& options) {
  const int w = fabric.Width(), h = fabric.Height();
  if (!(options.rate >= 0 && options.rate <= 1)) {
    throw std::invalid_argument(fmt::format(
        "noc: --rate {} is not a probability per PE per cycle in [0, 1]", options.rate));
  }
  if (options.cycles == 0) throw std::invalid_argument("noc: --cycles must be at least 1");
  TrafficPlan plan = MakePlan(options.pattern, w, h, options.seed);

  NocResult res;
  res.pattern = options.pattern;
  res.width = w;
  res.height = h;
  res.flows = static_cast<int>(plan.flows.size());
  res.silent = plan.silent;
  res.cycles = options.cycles;

  plan.routes.Apply(fabric);
  auto scoreboard = std::make_shared<Scoreboard>(w, h, options.keep_log);
  RouteTracer tracer(plan.routes);
  std::vector<std::unique_ptr<TrafficEndpoint>> eps;
  eps.reserve(static_cast<size_t>(fabric.NumPes()));
  for (int pe = 0; pe < fabric.NumPes(); ++pe) {
    eps.push_back(std::make_unique<TrafficEndpoint>(pe, tracer, *scoreboard, options.seed));
  }
  for (const Flow& f : plan.flows) eps[static_cast<size_t>(f.src)]->AddFlow(f.color, f.ctrl_prob);

  const uint64_t start = fabric.Cycle();
  res.start_cycle = start;
  uint64_t delivered_in_window = 0;
  for (auto& ep : eps) ep->StartInjection(options.rate, start, start + options.cycles);
  {
    Attachment attach(fabric, eps);
    uint64_t ran = fabric.Run(options.cycles);
    // A fault in the window's last cycle stops nothing but still ends the run.
    res.stopped_by_fault = ran < options.cycles || !fabric.Faults().empty();
    delivered_in_window = scoreboard->Stats().delivered;
    // Drain to quiescence (Fabric::Quiescent: every wavelet delivered or consumed, nothing in
    // flight), stopping at the exact cycle it is reached, while deliveries still happen: a
    // saturated pattern may need many cycles to empty, but `limit` cycles without a single
    // delivery mean nothing will move again (a deadlock).
    const uint64_t limit = options.drain_limit
                               ? options.drain_limit
                               : std::max<uint64_t>(2000, 20 * static_cast<uint64_t>(w + h));
    uint64_t stalled = 0;
    fabric.SetStopWhenQuiescent(true);
    while (!res.stopped_by_fault && (scoreboard->Outstanding() > 0 || !fabric.Quiescent()) &&
           stalled < limit) {
      const uint64_t before = scoreboard->Outstanding();
      const uint64_t step = std::min(kDrainStep, limit - stalled);
      const uint64_t n = fabric.Run(step);
      res.drain_cycles += n;
      res.stopped_by_fault = !fabric.Faults().empty() || (n < step && !fabric.Quiescent());
      stalled = scoreboard->Outstanding() < before ? 0 : stalled + n;
    }
    fabric.SetStopWhenQuiescent(false);
  }
  res.run_cycles = fabric.Cycle() - start;
  res.drained = scoreboard->Outstanding() == 0;
  res.faults = fabric.Faults();
  res.stats = scoreboard->Stats();
  res.predicted_faults = scoreboard->PredictedFaults();
  const double pe_cycles = static_cast<double>(fabric.NumPes()) * options.cycles;
  res.offered_load = res.stats.offered / pe_cycles;
  res.accepted_load = delivered_in_window / pe_cycles;
  res.scoreboard = std::move(scoreboard);
  return res;
}

}  // namespace tessera::noc
