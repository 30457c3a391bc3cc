// One random-traffic run on a fabric backend (`tessera noc`): lay out a pattern's routes, attach a
// TrafficEndpoint to every PE, inject for `cycles` cycles, drain, and score.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "scoreboards/scoreboard.h"
#include "traffic/pattern.h"

namespace tessera::noc {

struct NocOptions {
  std::string pattern = "uniform";  // see PatternNames()
  double rate = 0.1;                // wavelets created per source PE per cycle, 0..1
  uint64_t cycles = 1000;           // injection window
  uint64_t seed = 1;
  // Draining stops after this many cycles without a delivery (0: max(2000, 20 * (W + H))).
  uint64_t drain_limit = 0;
  bool keep_log = true;  // keep the scoreboard's delivery logs (co-simulation)
};

struct NocResult {
  std::string pattern;
  int width = 0;
  int height = 0;
  int flows = 0;              // source PEs that send
  int silent = 0;             // PEs the pattern could not give a color
  uint64_t start_cycle = 0;   // fabric cycle when injection began
  uint64_t cycles = 0;        // injection window
  uint64_t drain_cycles = 0;  // cycles stepped after the window
  uint64_t run_cycles = 0;    // all cycles stepped
  bool drained = false;       // every expected delivery was made
  bool stopped_by_fault = false;
  ScoreStats stats;
  double offered_load = 0;  // wavelets created per PE per cycle of the window
  // Deliveries made during the window per PE per cycle (multicast: each copy counts).
  double accepted_load = 0;
  std::vector<fabric::FaultRecord> faults;       // what the fabric reports (Fabric::Faults)
  std::vector<PredictedFault> predicted_faults;  // what the tracer expected (none for the patterns)
  std::shared_ptr<const Scoreboard> scoreboard;  // logs for co-simulation (CompareLogs)

  // No fault, none predicted, nothing lost, no delivery error.
  bool Passed() const {
    return faults.empty() && predicted_faults.empty() && stats.Errors() == 0 && drained;
  }
};

// One traffic run on one fabric, stepped by its owner: RunNoc steps one alone, co-simulation
// steps two in lockstep so that it compares their link logs as they go. The constructor lays
// out the routes and attaches the endpoints (throwing std::invalid_argument for bad options
// before touching the fabric); Step runs the injection window, then drains to quiescence (or a
// fault, or `drain_limit` cycles without a delivery); Finish detaches and scores.
class NocSession {
 public:
  NocSession(fabric::Fabric& fabric, const NocOptions& options);
  ~NocSession();
  NocSession(const NocSession&) = delete;
  NocSession& operator=(const NocSession&) = delete;

  void Step(uint64_t max_cycles);  // at most that many cycles; nothing once Done
  bool Done() const;
  NocResult Finish();

 private:
  struct State;
  std::unique_ptr<State> st_;
};

// Runs from the fabric's current cycle. The fabric's routing registers should be unused (the run
// writes the pattern's non-zero ones, nothing else); its endpoints are detached at the end.
// Throws std::invalid_argument for bad options (pattern, rate, fabric size) before touching the
// fabric.
NocResult RunNoc(fabric::Fabric& fabric, const NocOptions& options);

}  // namespace tessera::noc
