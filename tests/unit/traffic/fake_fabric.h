// A tiny stand-in backend for the unit tests of testbench/traffic (test code only): it keeps the
// routing registers written through WriteReg, and moves every wavelet a CE side sends straight to
// the destinations a RouteTracer of those registers finds, `latency` cycles later. It models the
// ramp flow control (the RAMP input's credits go back to the sender when the wavelet leaves it;
// per PE and color kRampOutCredits credits toward the CE side, one delivery per PE per cycle,
// round-robin over colors), reports the tracer's faults as RouterFault records and stops a Run
// after a cycle with a fault. Knobs corrupt the delivery stream to exercise the scoreboard.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "arch/arch.h"
#include "fabric/fabric.h"
#include "scoreboards/route_tracer.h"
#include "traffic/routes.h"

namespace tessera::noc::testing {

class FakeFabric : public fabric::Fabric {
 public:
  FakeFabric(int width, int height) : table_(width, height) {
    const size_t n = static_cast<size_t>(width * height);
    eps_.assign(n, nullptr);
    ports_.resize(n);
    queues_.resize(n * arch::kNumColors);
    credits_out_.assign(n * arch::kNumColors, arch::kRampOutCredits);
    credit_back_.resize(n);
    rr_.assign(n, 0);
    fault_.assign(n, 0);
    fault_cycle_.assign(n, 0);
  }

  // Knobs (0 = off): drop / duplicate every n-th delivered copy; swap every n-th delivery with
  // the next one of the same PE and color; tick every endpoint every cycle or only when it is due
  // (NextWake) or something reaches it.
  uint64_t drop_every = 0;
  uint64_t dup_every = 0;
  uint64_t swap_every = 0;
  bool event_driven = false;
  uint64_t latency = 3;

  uint64_t writes = 0;  // WriteReg calls
  uint64_t ticks = 0;   // Tick calls

  const char* Name() const override { return "fake"; }
  int Width() const override { return table_.Width(); }
  int Height() const override { return table_.Height(); }

  void WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    ++writes;
    const int i = Index(pe);
    if (addr >= arch::ColorCfg::kAddr && addr < arch::ColorCfg::Addr(arch::kNumColors)) {
      table_.SetBase(i, (addr - arch::ColorCfg::kAddr) / 4, value);
      tracer_.reset();
    } else if (addr >= arch::SwitchCfg::kAddr && addr < arch::SwitchCfg::Addr(arch::kNumColors)) {
      table_.SetSwitch(i, (addr - arch::SwitchCfg::kAddr) / 4, value);
      tracer_.reset();
    } else if (addr == arch::RouterFault::kAddr) {
      fault_[static_cast<size_t>(i)] = 0;
    }
  }
  uint32_t ReadReg(fabric::Coord pe, uint16_t addr) override {
    const int i = Index(pe);
    if (addr >= arch::ColorCfg::kAddr && addr < arch::ColorCfg::Addr(arch::kNumColors)) {
      return table_.Base(i, (addr - arch::ColorCfg::kAddr) / 4);
    }
    if (addr >= arch::SwitchCfg::kAddr && addr < arch::SwitchCfg::Addr(arch::kNumColors)) {
      const uint32_t c = (addr - arch::SwitchCfg::kAddr) / 4;
      return arch::SwitchCfg::WithPos(table_.Switch(i, c), Tracer().Position(i, c));
    }
    if (addr == arch::RouterFault::kAddr) return fault_[static_cast<size_t>(i)];
    return 0;
  }
  void SetEndpoint(fabric::Coord pe, fabric::RampEndpoint* ep) override {
    eps_[static_cast<size_t>(Index(pe))] = ep;
  }
  // Edge ports are not modelled: testbench/traffic uses ramps only.
  void SetEdgeEndpoint(fabric::Coord, int, fabric::RampEndpoint*) override {
    throw std::logic_error("FakeFabric has no edge ports");
  }
  bool WaveletsInFlight() override {
    for (const auto& q : queues_)
      if (!q.empty()) return true;
    return false;
  }
  bool Quiescent() override {
    if (WaveletsInFlight()) return false;
    for (const fabric::RampEndpoint* ep : eps_)
      if (ep && !ep->Quiet()) return false;
    return true;
  }
  bool Settled() override {
    if (WaveletsInFlight()) return false;
    for (const fabric::RampEndpoint* ep : eps_)
      if (ep && !ep->Settled()) return false;
    return true;
  }
  uint64_t Cycle() const override { return cycle_; }

  std::vector<fabric::FaultRecord> Faults() override {
    std::vector<fabric::FaultRecord> out;
    for (int i = 0; i < NumPes(); ++i) {
      if (fault_[static_cast<size_t>(i)]) {
        out.push_back(
            {At(i), fault_cycle_[static_cast<size_t>(i)], fault_[static_cast<size_t>(i)]});
      }
    }
    return out;
  }

  uint64_t Run(uint64_t cycles) override {
    RouteTracer& tracer = Tracer();
    for (uint64_t k = 0; k < cycles; ++k) {
      bool faulted = false;
      for (size_t i = 0; i < eps_.size(); ++i) {
        fabric::RampPort& p = ports_[i];
        p.from_router = NextDelivery(i);
        p.credit_from_router = 0;
        if (!credit_back_[i].empty() && credit_back_[i].front().first <= cycle_) {
          p.credit_from_router = credit_back_[i].front().second;
          credit_back_[i].pop_front();
        }
        p.to_router = 0;
        p.credit_to_router = 0;
        if (!eps_[i]) continue;
        const bool due =
            !event_driven || p.from_router || p.credit_from_router || eps_[i]->NextWake() <= cycle_;
        if (!due) continue;
        ++ticks;
        eps_[i]->Tick(cycle_, p);
      }
      for (size_t i = 0; i < eps_.size(); ++i) {
        fabric::RampPort& p = ports_[i];
        if (arch::Credit::Valid(p.credit_to_router)) {
          ++credits_out_[i * arch::kNumColors + arch::Credit::Color(p.credit_to_router)];
        }
        if (!arch::Link::Valid(p.to_router)) continue;
        const uint64_t w = p.to_router;
        const uint32_t color = static_cast<uint32_t>(arch::Link::Color(w));
        const TraceResult& r = tracer.Trace(static_cast<int>(i), color, arch::Link::Ctrl(w) != 0);
        for (const TraceFault& f : r.faults) {
          faulted = true;
          uint32_t& st = fault_[static_cast<size_t>(f.pe)];
          if (st == 0) {
            st = arch::RouterFault::WithCause(st, static_cast<uint32_t>(f.cause));
            st = arch::RouterFault::WithDir(st, static_cast<uint32_t>(f.dir));
            st = arch::RouterFault::WithColor(st, f.color);
            fault_cycle_[static_cast<size_t>(f.pe)] = cycle_;
          }
          st = arch::RouterFault::WithCount(st, arch::RouterFault::Count(st) + 1);
        }
        for (int d : r.dests) {
          auto& q = queues_[static_cast<size_t>(d) * arch::kNumColors + color];
          ++copies_;
          if (drop_every && copies_ % drop_every == 0) continue;
          q.push_back({cycle_ + latency, w});
          if (dup_every && copies_ % dup_every == 0) q.push_back({cycle_ + latency, w});
          if (swap_every && copies_ % swap_every == 0) swap_pending_.push_back(&q);
        }
        if (color < arch::kNumColors) {
          credit_back_[i].push_back({cycle_ + latency, fabric::MakeCredit(color)});
        }
      }
      ++cycle_;
      if (faulted) return k + 1;
    }
    return cycles;
  }

 private:
  RouteTracer& Tracer() {
    if (!tracer_) tracer_ = std::make_unique<RouteTracer>(table_);
    return *tracer_;
  }

  // One wavelet per PE per cycle, round-robin over the colors that hold a credit.
  uint64_t NextDelivery(size_t pe) {
    for (uint32_t k = 0; k < arch::kNumColors; ++k) {
      const uint32_t c = (rr_[pe] + k) % arch::kNumColors;
      auto& q = queues_[pe * arch::kNumColors + c];
      uint32_t& cr = credits_out_[pe * arch::kNumColors + c];
      if (q.empty() || q.front().first > cycle_ || cr == 0) continue;
      if (q.size() >= 2 && IsSwapPending(&q)) std::swap(q[0], q[1]);
      const uint64_t w = q.front().second;
      q.pop_front();
      --cr;
      rr_[pe] = (c + 1) % arch::kNumColors;
      return w;
    }
    return 0;
  }
  bool IsSwapPending(std::deque<std::pair<uint64_t, uint64_t>>* q) {
    for (size_t i = 0; i < swap_pending_.size(); ++i) {
      if (swap_pending_[i] == q) {
        swap_pending_.erase(swap_pending_.begin() + static_cast<long>(i));
        return true;
      }
    }
    return false;
  }

  RouteTable table_;
  std::unique_ptr<RouteTracer> tracer_;
  std::vector<fabric::RampEndpoint*> eps_;
  std::vector<fabric::RampPort> ports_;
  std::vector<std::deque<std::pair<uint64_t, uint64_t>>> queues_;  // [pe * colors + c]
  std::vector<uint32_t> credits_out_;                              // toward each CE side
  std::vector<std::deque<std::pair<uint64_t, uint8_t>>> credit_back_;
  std::vector<uint32_t> rr_;
  std::vector<uint32_t> fault_;
  std::vector<uint64_t> fault_cycle_;
  std::vector<std::deque<std::pair<uint64_t, uint64_t>>*> swap_pending_;
  uint64_t cycle_ = 0;
  uint64_t copies_ = 0;
};

}  // namespace tessera::noc::testing
