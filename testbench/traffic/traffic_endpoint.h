// The CE side of one PE's ramp during a traffic run: a source that creates wavelets as a
// Bernoulli process and a sink that checks and consumes what arrives.
//
// Source: with probability `rate` per cycle (event-driven: the gap to the next creation is drawn
// from the geometric distribution with the endpoint's own splitmix64, seeded from the run's seed
// and the PE index, so the traffic never depends on the backend or the host's library) a wavelet
// is created on one of the endpoint's flows (a control wavelet with the flow's probability),
// traced (RouteTracer), registered with the Scoreboard and queued in an unbounded FIFO. Each Tick
// sends the FIFO head if the endpoint holds a credit for its color toward the router's RAMP input
// (arch::kRampInDepth per color at reset, one back per credit_from_router). Creation stops at the
// stop cycle; the FIFO then drains.
//
// Sink: a wavelet in from_router is delivered to the Scoreboard and its credit returned through
// credit_to_router. One credit leaves per Tick: owed credits of unblocked colors are returned
// round-robin, so with one color arriving the credit leaves in the same Tick. A blocked color
// (Block, for directed back-pressure tests) still delivers to the scoreboard on arrival, but its
// credits are held until it is unblocked.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arch/arch.h"
#include "fabric/ramp_port.h"
#include "scoreboards/ring.h"
#include "scoreboards/route_tracer.h"
#include "scoreboards/scoreboard.h"
#include "traffic/rng.h"

namespace tessera::noc {

class TrafficEndpoint : public fabric::RampEndpoint {
 public:
  // The tracer and the scoreboard are shared by all endpoints of a run and must outlive them.
  TrafficEndpoint(int pe, RouteTracer& tracer, Scoreboard& scoreboard, uint64_t seed);

  // A flow this PE sends on: each creation picks one of the endpoint's flows uniformly.
  void AddFlow(uint32_t color, double ctrl_prob = 0);
  // Creates wavelets with probability `rate` (0..1, else std::invalid_argument) in each cycle of
  // [start, stop). Call before the run reaches `start`.
  void StartInjection(double rate, uint64_t start, uint64_t stop);
  // Stops creating at `stop` (creations already drawn before it stand).
  void StopInjection(uint64_t stop);
  // Holds (true) or releases (false) the credits of a color's arrivals.
  void Block(uint32_t color, bool blocked);

  // Directed tests. SendNow queues an explicit wavelet (Valid is forced, the rest kept: e.g. a
  // reserved color, or a color whose route faults). It is traced (switch positions, predicted
  // faults) but not registered with the scoreboard: a delivery of it counts as misrouted. A color
  // over 23 needs no credit (the router faults it on arrival). CreateNow makes the next Tick
  // create one generated wavelet on `color` outside the random process (traced and expected).
  void SendNow(uint64_t word);
  void CreateNow(uint32_t color, bool ctrl);

  void Tick(uint64_t cycle, fabric::RampPort& port) override;
  uint64_t NextWake() const override;

  int Pe() const { return pe_; }
  uint64_t Created() const { return created_; }    // generated wavelets
  uint64_t Sent() const { return sent_; }          // every wavelet that entered the ramp
  uint64_t Received() const { return received_; }  // every wavelet that arrived
  size_t Queued() const { return fifo_.size() + requests_.size(); }
  uint64_t NextCreation() const { return next_create_; }  // fabric::kNever when none is due
  uint32_t Credits(uint32_t color) const { return credits_.at(color); }
  uint32_t HeldCredits(uint32_t color) const { return owed_.at(color); }  // not yet returned

 private:
  struct Flow {
    uint32_t color;
    Chance ctrl;
  };
  struct Request {
    uint32_t color;
    bool ctrl;
  };
  static constexpr uint64_t kRawBit = uint64_t{1} << 63;  // FIFO marker: not a generated wavelet

  void Create(uint32_t color, bool ctrl, uint64_t cycle);
  void ScheduleNext(uint64_t after);

  // Hot state first (Tick touches these every cycle).
  uint64_t now_ = 0;
  uint64_t next_create_ = fabric::kNever;
  uint32_t owed_mask_ = 0;  // colors with owed credits
  uint32_t blocked_ = 0;
  uint32_t rr_ = 0;  // the color after the last credit returned
  bool ticked_ = false;
  int pe_;
  Ring<uint64_t> fifo_;
  std::array<uint8_t, arch::kNumColors> credits_;  // toward the router's RAMP input
  std::array<uint16_t, arch::kNumColors> owed_{};  // arrivals whose credit is not yet returned
  std::vector<Request> requests_;
  RouteTracer& tracer_;
  Scoreboard& scoreboard_;

  SplitMix64 gap_rng_;   // creation times
  SplitMix64 pick_rng_;  // flow and control-bit choices
  std::vector<Flow> flows_;
  GeometricGap gap_;
  uint64_t stop_ = 0;

  uint64_t created_ = 0;
  uint64_t sent_ = 0;
  uint64_t received_ = 0;
};

}  // namespace tessera::noc
