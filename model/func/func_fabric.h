// The functional model of the router fabric: event driven, and cycle for cycle the same as the
// RTL (same allocation order, queue depths, credit loop and ramp latency), so co-simulation can
// compare what is delivered, in what order and when. Only routers with queued or arriving
// wavelets and endpoints with something to do cost time; an idle PE costs nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/router_regs.h"
#include "func/router_state.h"
#include "util/lazy_arena.h"
#include "util/worker_pool.h"

namespace tessera::func {

class FuncFabric final : public fabric::Fabric {
 public:
  FuncFabric(int width, int height);
  // Steps the compute engines of a cycle on `threads` host threads (1: the caller alone, the
  // default); results are bit-identical whatever the count (docs/performance.md, "Threads").
  // Throws std::invalid_argument below 1.
  void SetThreads(int threads);
  // Lets compute engines run ahead (RampPort::horizon; on by default). Off: every engine is ticked
  // every cycle it acts, to compare (the results are the same).
  void SetRunAhead(bool on) { run_ahead_ = on; }
  const char* Name() const override { return "func"; }
  int Width() const override { return w_; }
  int Height() const override { return h_; }
  void WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) override;
  uint32_t ReadReg(fabric::Coord pe, uint16_t addr) override;
  void SetEndpoint(fabric::Coord pe, fabric::RampEndpoint* ep) override;
  void SetEdgeEndpoint(fabric::Coord pe, int dir, fabric::RampEndpoint* ep) override;
  bool WaveletsInFlight() override;
  uint64_t Run(uint64_t cycles) override;
  bool Quiescent() override;
  bool Settled() override;
  uint64_t Cycle() const override { return cycle_; }
  std::vector<fabric::FaultRecord> Faults() override;
  void ForgetFault(fabric::Coord pe) override { fault_cycle_.at(Index(pe)) = fabric::kNever; }

  const RouterState& Router(fabric::Coord pe) const { return routers_[Index(pe)]; }

  // The routing registers of one PE as its compute engine reaches them (docs/isa.md 3.2). A write
  // made while the fabric steps (from an endpoint's Tick) takes effect at the end of that cycle,
  // after the routers have stepped; a write made between runs takes effect at once.
  fabric::RouterRegs& RouterRegsOf(fabric::Coord pe);

 private:
  class PeRegs final : public fabric::RouterRegs {
   public:
    PeRegs(FuncFabric* f, fabric::Coord pe) : f_(f), pe_(pe) {}
    uint32_t Read(uint16_t addr) override { return f_->ReadReg(pe_, addr); }
    void Write(uint16_t addr, uint32_t value) override;

   private:
    FuncFabric* f_;
    fabric::Coord pe_;
  };
  struct RegWrite {
    fabric::Coord pe;
    uint16_t addr;
    uint32_t value;
  };

  // Events land in a wheel of slots, one per cycle, covering the longest delay (the ramp).
  static constexpr int kWheel = 16;
  static_assert(arch::kRampLatency < kWheel, "the event wheel must cover the ramp latency");
  struct Arrival {  // a wavelet reaching a router input during the slot's cycle
    int32_t router;
    uint8_t dir;
    uint64_t link;
  };
  struct CreditReturn {  // a credit visible at a router output during the slot's cycle
    int32_t router;
    uint8_t dir, color;
  };
  struct CeEvent {  // what an endpoint (a ramp's CE side, or an edge port's) sees in the slot
    int32_t pe;     // the endpoint's id (EdgeId for edge ports)
    uint64_t word;  // arch::Link (deliveries) or arch::Credit (credits)
  };
  struct Slot {
    std::vector<Arrival> arrivals;
    std::vector<CreditReturn> credits;
    std::vector<CeEvent> ce_links, ce_credits;
    std::vector<int> wakes;  // endpoints that asked to tick in this slot's cycle (2..kWheel-1 on)
  };

  // Event constructors that write in place (a struct built on the stack and copied stalls on
  // store forwarding in the hot loop).
  static void Add(std::vector<Arrival>& v, int router, int dir, uint64_t link) {
    Arrival& a = v.emplace_back();
    a.router = router;
    a.dir = static_cast<uint8_t>(dir);
    a.link = link;
  }
  static void Add(std::vector<CreditReturn>& v, int router, int dir, int color) {
    CreditReturn& c = v.emplace_back();
    c.router = router;
    c.dir = static_cast<uint8_t>(dir);
    c.color = static_cast<uint8_t>(color);
  }
  void Add(std::vector<CeEvent>& v, int pe, uint64_t word) {
    ++inbound_[static_cast<size_t>(pe)];
    CeEvent& e = v.emplace_back();
    e.pe = pe;
    e.word = word;
  }

  void StepCycle();
  void TickEndpoints(Slot& now);
  void TickDue(Slot& now);  // Tick every endpoint in ep_due_ (TickEndpoints)
  struct TickOut;
  template <bool kDirect>
  void TickRange(size_t begin, size_t end, size_t part, Slot& now);
  void ApplyTick(const TickOut& o, Slot& now);
  // An endpoint ticked in this cycle asks to be ticked again at `wake` (on the calling thread:
  // only it touches the wakes).
  void NoteWake(int pe, uint64_t wake);
  void StepRouter(int r, const uint64_t* in);
  Slot& SlotAt(uint64_t cycle) { return wheel_[cycle % kWheel]; }
  // The cycles from cycle_ on in which nothing is due: no wavelet anywhere, no endpoint to tick,
  // no event in the wheel or the heap. Stepping them would change nothing but the cycle.
  uint64_t IdleCycles();
  int Neighbour(int r, int dir) const;
  // Endpoints have ids: a PE's ramp its index, an edge port NumPes() + 4 * router + dir.
  int EdgeId(int r, int dir) const { return NumPes() + r * arch::kNumEdgeDirs + dir; }
  void Wake(int id, uint64_t wake);  // queue a Tick of endpoint `id` at `wake` if earlier
  // Queues a wake already recorded in next_wake_: in the wheel if near, else in the heap.
  void QueueWake(uint64_t wake, int id) {
    if (wake - cycle_ < kWheel) {
      SlotAt(wake).wakes.push_back(id);
    } else {
      wakes_.push({wake, id});
    }
  }

  int w_, h_;
  uint64_t cycle_ = 0;
  std::unique_ptr<util::LazyArena> queues_;  // every router's queue storage (RouterState::buf)
  std::vector<RouterState> routers_;
  std::vector<fabric::RampEndpoint*> endpoints_;  // per endpoint id
  std::vector<int> edge_ids_;                     // ids of the edge ports with an endpoint
  std::vector<uint64_t> fault_cycle_;
  bool fault_pending_ = false;
  Slot wheel_[kWheel];
  size_t in_wheel_ = 0;  // arrivals and CE deliveries in the wheel (WaveletsInFlight)

  // Scratch for one cycle.
  std::vector<uint64_t> in_word_;     // per router per direction: arriving link word
  std::vector<uint64_t> stamp_;       // per router: cycle+1 when listed this cycle
  std::vector<int> active_, queued_;  // routers to step; routers holding queued wavelets
  std::vector<int> skipped_;          // queued routers with nothing new this cycle
  std::vector<uint64_t> ce_link_, ce_credit_, ep_stamp_;  // per endpoint id, this cycle
  // Per endpoint id: deliveries (wavelets, credits) in the wheel. A compute engine with none may
  // run ahead (RampPort::horizon) up to the first cycle a new one could reach it.
  std::vector<uint32_t> inbound_;
  uint64_t run_end_ = 0;  // the cycle at which the current Run ends if nothing stops it
  // This cycle: how many cycles pass at least before a wavelet not yet in the wheel reaches a
  // compute engine (StepCycle).
  uint64_t quiet_span_ = 0;
  // Per PE: no wavelet or credit enters its ramp before this cycle unless something reaches it
  // first (RampEndpoint::QuietUntil before a tick, NextWake after it), and the least of them.
  // With no wavelet anywhere and no host stream, nothing reaches an engine before the least plus
  // two ramps (the horizon of "Running ahead").
  size_t busy_hint_ = 0;  // the endpoint Quiescent last found busy
  std::vector<uint64_t> quiet_until_;
  // The PEs whose promise is not kNever (sleeping engines are not), where the least is looked
  // for, and each one's place in that list (-1: not there).
  std::vector<int> awake_, awake_at_;
  // PEs ticked in cycles that took no promises, whose promise is to be taken again (listed once).
  std::vector<int> unpromised_;
  std::vector<uint8_t> unpromised_at_;
  uint64_t quiet_min_ = 0;
  bool quiet_min_stale_ = true;
  void SetQuietUntil(int pe, uint64_t cycle) {
    const auto i = static_cast<size_t>(pe);
    const uint64_t old = quiet_until_[i];
    if (cycle == old) return;
    quiet_until_[i] = cycle;
    if (old == fabric::kNever) {
      awake_at_[i] = static_cast<int>(awake_.size());
      awake_.push_back(pe);
    } else if (cycle == fabric::kNever) {
      const int at = awake_at_[i];
      awake_[static_cast<size_t>(at)] = awake_.back();
      awake_at_[static_cast<size_t>(awake_.back())] = at;
      awake_.pop_back();
      awake_at_[i] = -1;
    }
    if (cycle < quiet_min_) {
      quiet_min_ = cycle;
    } else if (old == quiet_min_) {
      quiet_min_stale_ = true;
    }
  }
  uint64_t QuietMin();
  bool run_ahead_ = true;
  std::vector<int> ep_due_;
  using WakeAt = std::pair<uint64_t, int>;
  std::priority_queue<WakeAt, std::vector<WakeAt>, std::greater<WakeAt>> wakes_;
  std::vector<uint64_t> next_wake_;  // per endpoint id: the wake currently queued, or kNever
  // Wakes for the very next cycle (a busy compute engine asks for one every cycle) skip the heap.
  std::vector<int> soon_, soon_now_;

  std::vector<PeRegs> pe_regs_;
  bool stepping_ = false;  // inside StepCycle
  // CE register writes of this cycle, applied at its end: one list per part of the due
  // endpoints (util::WorkerPool), each on a cache line of its own.
  struct alignas(64) RegWrites {
    std::vector<RegWrite> writes;
  };
  std::vector<RegWrites> reg_writes_ = std::vector<RegWrites>(1);
  std::unique_ptr<util::WorkerPool> pool_;  // SetThreads(n > 1)
  struct TickOut {  // what one endpoint's Tick did to the fabric (TickEndpoints)
    int pe = 0;
    uint64_t from_router = 0, to_router = 0;
    uint8_t credit_to_router = 0;
    bool fault = false;
  };
  // One part's ticks: those that did something, and the wakes they asked (a cache line of its
  // own: threads fill neighbouring parts at once).
  struct alignas(64) TickBuf {
    std::vector<TickOut> outs;
    std::vector<std::pair<uint64_t, int>> wakes;  // NextWake of each ticked endpoint
  };
  std::vector<TickBuf> tick_bufs_ = std::vector<TickBuf>(1);
};

}  // namespace tessera::func
