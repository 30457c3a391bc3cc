#include "func/func_fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace tessera::func {

namespace {

// The part of the due endpoints whose Tick runs on this thread (util::WorkerPool; 0 outside one).
thread_local size_t t_part = 0;

using L = arch::Link;
using C = arch::Credit;

inline int LowestBit(uint32_t m) { return __builtin_ctz(m); }

// Round robin over a color mask: the first set bit at or after ptr, wrapping around.
inline int RoundRobin(uint32_t m, int ptr) {
  uint32_t upper = m & ~((1u << ptr) - 1);
  return LowestBit(upper ? upper : m);
}

inline uint64_t PayloadOf(uint64_t link) { return L::Data(link) | (L::Ctrl(link) << 32); }

}  // namespace

FuncFabric::FuncFabric(int width, int height) : w_(width), h_(height) {
  if (width < 1 || height < 1 || width > 0xFFFF || height > 0xFFFF)
    throw std::invalid_argument(
        fmt::format("--fabric {}x{}: sides must be 1..65535", width, height));
  queues_ = std::make_unique<util::LazyArena>(static_cast<size_t>(NumPes()),
                                              kQueueSlots * sizeof(Payload), "router queue stores");
  routers_.resize(NumPes());
  for (int r = 0; r < NumPes(); ++r) {
    RouterState& s = routers_[r];
    s.buf = reinterpret_cast<Payload*>(queues_->At(static_cast<size_t>(r)));
    s.Reset();
    fabric::Coord c = At(r);
    uint8_t tied = 0;
    if (c.x == 0) tied |= 1u << static_cast<int>(arch::Dir::kW);
    if (c.x == w_ - 1) tied |= 1u << static_cast<int>(arch::Dir::kE);
    if (c.y == h_ - 1) tied |= 1u << static_cast<int>(arch::Dir::kS);
    if (c.y == 0) tied |= 1u << static_cast<int>(arch::Dir::kN);
    s.tied = tied;  // until an edge endpoint unties it
    s.edge = tied;
    for (int col = 0; col < kColors; ++col) s.UpdateRoute(col);
  }
  // Endpoint ids: one per ramp, then four per router for its edge ports.
  const size_t ids = static_cast<size_t>(NumPes()) * (1 + arch::kNumEdgeDirs);
  endpoints_.assign(ids, nullptr);
  fault_cycle_.assign(NumPes(), fabric::kNever);
  in_word_.assign(static_cast<size_t>(NumPes()) * kDirs, 0);
  stamp_.assign(NumPes(), 0);
  ce_link_.assign(ids, 0);
  ce_credit_.assign(ids, 0);
  ep_stamp_.assign(ids, 0);
  inbound_.assign(ids, 0);
  next_wake_.assign(ids, fabric::kNever);
  quiet_until_.assign(static_cast<size_t>(NumPes()), fabric::kNever);
  unpromised_at_.assign(static_cast<size_t>(NumPes()), 0);
  awake_at_.assign(static_cast<size_t>(NumPes()), -1);
  pe_regs_.reserve(NumPes());
  for (int r = 0; r < NumPes(); ++r) pe_regs_.emplace_back(this, At(r));
}

void FuncFabric::SetThreads(int threads) {
  if (threads < 1) throw std::invalid_argument(fmt::format("--threads {}: at least 1", threads));
  pool_ = threads > 1 ? std::make_unique<util::WorkerPool>(threads) : nullptr;
  const size_t parts = pool_ ? pool_->MaxParts() : 1;
  reg_writes_.resize(parts);
  tick_bufs_.resize(parts);
}

fabric::RouterRegs& FuncFabric::RouterRegsOf(fabric::Coord pe) {
  CheckContains(pe);
  return pe_regs_[Index(pe)];
}

void FuncFabric::PeRegs::Write(uint16_t addr, uint32_t value) {
  if (f_->stepping_) {
    f_->reg_writes_[t_part].writes.push_back({pe_, addr, value});
  } else {
    f_->WriteReg(pe_, addr, value);
  }
}

int FuncFabric::Neighbour(int r, int dir) const {
  switch (dir) {
    case 0:
      return r - 1;  // W
    case 1:
      return r + 1;  // E
    case 2:
      return r + w_;  // S
    case 3:
      return r - w_;  // N
  }
  return -1;
}

void FuncFabric::WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) {
  CheckContains(pe);
  RouterState& s = routers_[Index(pe)];
  s.dirty = true;
  using CC = arch::ColorCfg;
  using SC = arch::SwitchCfg;
  if (addr >= CC::kAddr && addr < CC::Addr(kColors) && addr % 4 == 0) {
    int c = (addr - CC::kAddr) / 4;
    s.color_cfg[c] = value & ((1u << (CC::kSwapXLsb + CC::kSwapXWidth)) - 1);
    s.UpdateRoute(c);
  } else if (addr >= SC::kAddr && addr < SC::Addr(kColors) && addr % 4 == 0) {
    int c = (addr - SC::kAddr) / 4;
    s.switch_cfg[c] = value & ((1u << (SC::kCountCtrlLsb + SC::kCountCtrlWidth)) - 1);
    s.UpdateRoute(c);
  } else if (addr >= arch::FilterRange::kAddr && addr < arch::FilterRange::Addr(kColors) &&
             addr % 4 == 0) {
    s.filter_range[(addr - arch::FilterRange::kAddr) / 4] = value;
  } else if (addr >= arch::FilterCount::kAddr && addr < arch::FilterCount::Addr(kColors) &&
             addr % 4 == 0) {
    s.filter_count[(addr - arch::FilterCount::kAddr) / 4] = value;
  } else if (addr == arch::RouterFault::kAddr) {
    s.fault_reg = 0;  // writing acknowledges (clears) the fault record
  }
}

uint32_t FuncFabric::ReadReg(fabric::Coord pe, uint16_t addr) {
  CheckContains(pe);
  const RouterState& s = routers_[Index(pe)];
  using CC = arch::ColorCfg;
  using SC = arch::SwitchCfg;
  if (addr == arch::PeCoord::kAddr) return static_cast<uint32_t>(pe.y) << 16 | pe.x;
  if (addr >= CC::kAddr && addr < CC::Addr(kColors) && addr % 4 == 0)
    return s.color_cfg[(addr - CC::kAddr) / 4];
  if (addr >= SC::kAddr && addr < SC::Addr(kColors) && addr % 4 == 0)
    return s.switch_cfg[(addr - SC::kAddr) / 4];
  if (addr >= arch::FilterRange::kAddr && addr < arch::FilterRange::Addr(kColors) && addr % 4 == 0)
    return s.filter_range[(addr - arch::FilterRange::kAddr) / 4];
  if (addr >= arch::FilterCount::kAddr && addr < arch::FilterCount::Addr(kColors) && addr % 4 == 0)
    return s.filter_count[(addr - arch::FilterCount::kAddr) / 4];
  if (addr == arch::RouterFault::kAddr) return s.fault_reg;
  using IC = arch::RouterInCount;
  if (addr >= IC::kAddr && addr < IC::Addr(IC::kCount) && addr % 4 == 0) {
    // Element words * d + w: input d, colors per_word * w onwards, a nibble each.
    constexpr int kBits = IC::kCount0Width;
    constexpr int kPerWord = 32 / kBits;
    constexpr int kWords = kColors / kPerWord;
    static_assert(IC::kCount == kDirs * kWords, "RouterInCount covers every input and color");
    const int i = (addr - IC::kAddr) / 4;
    const int d = i / kWords, c0 = (i % kWords) * kPerWord;
    uint32_t v = 0;
    for (int k = 0; k < kPerWord; ++k) v |= static_cast<uint32_t>(s.count[d][c0 + k]) << kBits * k;
    return v;
  }
  return 0;
}

void FuncFabric::SetEndpoint(fabric::Coord pe, fabric::RampEndpoint* ep) {
  CheckContains(pe);
  int i = Index(pe);
  endpoints_[i] = ep;
  if (ep) {
    next_wake_[i] = cycle_;  // tick it at the next cycle, then as it asks
    wakes_.push({cycle_, i});
  }
}

void FuncFabric::SetEdgeEndpoint(fabric::Coord pe, int dir, fabric::RampEndpoint* ep) {
  CheckEdgePort(pe, dir);
  const int r = Index(pe);
  const int id = EdgeId(r, dir);
  fabric::RampEndpoint* old = endpoints_[id];
  if (old && ep != old) {
    // What is on the link now reaches its end in the next cycle (the slot of cycle_).
    const Slot& next = SlotAt(cycle_);
    bool busy = false;
    for (const CeEvent& e : next.ce_links) busy |= e.pe == id;
    for (const Arrival& a : next.arrivals) busy |= a.router == r && a.dir == dir;
    if (busy) ThrowEdgeLinkBusy(pe, dir);
  }
  endpoints_[id] = ep;
  auto it = std::find(edge_ids_.begin(), edge_ids_.end(), id);
  if (ep && it == edge_ids_.end()) edge_ids_.push_back(id);
  if (!ep && it != edge_ids_.end()) edge_ids_.erase(it);
  RouterState& s = routers_[r];
  const uint8_t bit = static_cast<uint8_t>(1u << dir);
  s.tied = ep ? (s.tied & ~bit) : (s.tied | bit);
  for (int c = 0; c < kColors; ++c) s.UpdateRoute(c);
  s.dirty = true;
  if (ep) {
    next_wake_[id] = cycle_;  // tick it at the next cycle, then as it asks
    wakes_.push({cycle_, id});
  }
}

bool FuncFabric::WaveletsInFlight() {
  // Some router holds a queued wavelet, or one is on a link or in a ramp (an arrival at a router
  // input or a delivery to an endpoint is in the wheel).
  return !queued_.empty() || in_wheel_ != 0;
}

void FuncFabric::Wake(int id, uint64_t wake) {
  if (wake < next_wake_[id]) {
    next_wake_[id] = wake;
    wakes_.push({wake, id});
  }
}

std::vector<fabric::FaultRecord> FuncFabric::Faults() {
  std::vector<fabric::FaultRecord> out;
  for (int i = 0; i < NumPes(); ++i) {
    if (fault_cycle_[i] == fabric::kNever) continue;
    fabric::FaultRecord f{At(i), fault_cycle_[i], routers_[i].fault_reg};
    uint32_t regs[4];
    if (endpoints_[i] && endpoints_[i]->Fault(regs)) {
      f.ce_status = regs[0];
      f.ce_pc = regs[1];
      f.ce_addr = regs[2];
      f.ce_info = regs[3];
    }
    out.push_back(f);
  }
  return out;
}

uint64_t FuncFabric::Run(uint64_t cycles) {
  fault_pending_ = false;
  // Endpoints may have been changed from outside between runs (a color unblocked, a wavelet
  // queued): take their wishes again.
  // An engine sends nothing before it next acts on its own (quiet_until_).
  for (int pe = 0; pe < NumPes(); ++pe) {
    const uint64_t wake =
        endpoints_[pe] ? std::max(endpoints_[pe]->NextWake(), cycle_) : fabric::kNever;
    Wake(pe, wake);
    SetQuietUntil(pe, wake);
  }
  for (int id : edge_ids_) Wake(id, std::max(endpoints_[id]->NextWake(), cycle_));
  for (int pe : unpromised_) unpromised_at_[static_cast<size_t>(pe)] = 0;
  unpromised_.clear();
  quiet_min_stale_ = true;
  run_end_ = cycle_ + std::min(cycles, fabric::kNever - cycle_);
  uint64_t done = 0;
  while (done < cycles) {
    StepCycle();
    ++done;
    if (fault_pending_ || StopNow()) break;
    if (run_ahead_) {  // cycles with nothing due change nothing: on to the next with something
      const uint64_t idle = std::min(IdleCycles(), cycles - done);
      cycle_ += idle;
      done += idle;
    }
  }
  if (done < cycles) {  // stopped early: no compute engine may stay ahead of the last cycle
    for (int pe = 0; pe < NumPes(); ++pe)
      if (endpoints_[pe]) endpoints_[pe]->Rewind(cycle_ - 1);
  }
  return done;
}

uint64_t FuncFabric::QuietMin() {
  if (quiet_min_stale_) {
    quiet_min_ = fabric::kNever;
    for (int pe : awake_) quiet_min_ = std::min(quiet_min_, quiet_until_[static_cast<size_t>(pe)]);
    quiet_min_stale_ = false;
  }
  return quiet_min_;
}

uint64_t FuncFabric::IdleCycles() {
  // A router holding a wavelet steps every cycle; soon_ ticks in the next one.
  if (!queued_.empty() || !soon_.empty()) return 0;
  // The first cycle with an event in the wheel (it covers the next kWheel cycles) or in the heap
  // (an entry whose wake was moved since only makes this earlier).
  uint64_t next = wakes_.empty() ? fabric::kNever : wakes_.top().first;
  for (uint64_t k = 0; k < kWheel && cycle_ + k < next; ++k) {
    const Slot& s = SlotAt(cycle_ + k);
    if (!s.arrivals.empty() || !s.credits.empty() || !s.ce_links.empty() || !s.ce_credits.empty() ||
        !s.wakes.empty()) {
      next = cycle_ + k;
      break;
    }
  }
  return next > cycle_ ? next - cycle_ : 0;
}

bool FuncFabric::Quiescent() {
  if (WaveletsInFlight()) return false;
  // The endpoint found busy last time most likely still is: the search starts there, so that a
  // few busy PEs among many idle ones cost no scan of the idle ones every cycle.
  const size_t n = endpoints_.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = busy_hint_ + k < n ? busy_hint_ + k : busy_hint_ + k - n;
    const fabric::RampEndpoint* ep = endpoints_[i];
    if (ep && !ep->Quiet()) {
      busy_hint_ = i;
      return false;
    }
  }
  return true;
}

bool FuncFabric::Settled() {
  if (WaveletsInFlight()) return false;
  for (const fabric::RampEndpoint* ep : endpoints_)
    if (ep && !ep->Settled()) return false;
  return true;
}

void FuncFabric::TickEndpoints(Slot& now) {
  const uint64_t t = cycle_;
  const uint64_t mark = t + 1;
  const int n = NumPes();
  ep_due_.clear();
  // Each due engine is listed once; running ahead, it is also listed as unpromised (its promise
  // is taken again when it can matter), unless the promises lengthen the horizon below (then
  // the due engines' promises are fresh, and the list is emptied).
  auto due = [&](int pe) {
    if (ep_stamp_[pe] != mark) {
      ep_stamp_[pe] = mark;
      ep_due_.push_back(pe);
      if (run_ahead_ && pe < n && !unpromised_at_[static_cast<size_t>(pe)]) {
        unpromised_at_[static_cast<size_t>(pe)] = 1;
        unpromised_.push_back(pe);
      }
    }
  };
  for (const CeEvent& e : now.ce_links) {
    ce_link_[e.pe] = e.word;
    --inbound_[e.pe];
    due(e.pe);
  }
  for (const CeEvent& e : now.ce_credits) {
    ce_credit_[e.pe] = e.word;
    --inbound_[e.pe];
    due(e.pe);
  }
  soon_now_.swap(soon_);
  soon_.clear();
  for (int pe : soon_now_) {
    if (next_wake_[pe] == t) {
      next_wake_[pe] = fabric::kNever;
      due(pe);
    }
  }
  for (int pe : now.wakes) {
    if (next_wake_[pe] == t) {
      next_wake_[pe] = fabric::kNever;
      due(pe);
    }
  }
  now.wakes.clear();
  while (!wakes_.empty() && wakes_.top().first <= t) {
    auto [when, pe] = wakes_.top();
    wakes_.pop();
    if (next_wake_[pe] == when) {
      next_wake_[pe] = fabric::kNever;
      due(pe);
    }
  }
  // Before any tick, what the due engines promise (QuietUntil); with no wavelet anywhere and no
  // host stream, the horizon is the least promise plus two ramps (ramp up, ramp down). Only then,
  // and only if every due engine promises more than "now", can the promises lengthen it. In the
  // other cycles the due engines are only listed (as unpromised, above), and their promises are
  // taken again (from NextWake, as after a tick) when they can matter.
  constexpr uint64_t kTwoRamps = 2 * arch::kRampLatency;
  bool extend = run_ahead_ && quiet_span_ == kTwoRamps;
  if (extend) {
    for (int pe : ep_due_) {
      if (pe >= n || !endpoints_[pe]) continue;
      const uint64_t q = endpoints_[pe]->QuietUntil(t);
      if (q <= t) {
        extend = false;
        break;
      }
      SetQuietUntil(pe, q);
    }
  }
  if (extend) {
    const uint64_t mark = t + 1;  // ep_stamp_ of the due endpoints: their promises are fresh
    for (int pe : unpromised_) {  // an engine sends nothing before it next acts on its own
      unpromised_at_[static_cast<size_t>(pe)] = 0;
      if (ep_stamp_[pe] != mark) SetQuietUntil(pe, next_wake_[pe]);
    }
    unpromised_.clear();
    const uint64_t q = std::max(QuietMin(), t);
    quiet_span_ = q >= fabric::kNever - kTwoRamps ? fabric::kNever - t : q + kTwoRamps - t;
  }
  TickDue(now);
  // After the ticks: an engine sends nothing before it next acts on its own (NextWake).
  if (extend) {
    for (int pe : ep_due_)
      if (pe < n) SetQuietUntil(pe, std::max(quiet_until_[pe], next_wake_[pe]));
  }
}

void FuncFabric::TickDue(Slot& now) {
  // Ticks in two phases with workers: the parts of ep_due_ on the threads (an endpoint touches
  // only its own state; its register writes go to its part's list), then, in the order of
  // ep_due_, what the ticks did to the fabric. Alone, in one pass. The result does not depend on
  // the threads.
  if (!pool_) {
    TickRange<true>(0, ep_due_.size(), 0, now);
    return;
  }
  const size_t parts = pool_->Parts(ep_due_.size());
  for (size_t p = 0; p < parts; ++p) {
    tick_bufs_[p].outs.clear();
    tick_bufs_[p].wakes.clear();
  }
  // The parts are contiguous and in order: their lists, merged in part order, are in the order
  // of ep_due_, as one thread alone would have made them. A part is merged as soon as it is done,
  // while later ones are stepped: the merge touches only what the ticks do not (the wakes, the
  // wheel, the link log).
  const util::WorkerPool::MergeFn merge = [&](size_t p) {
    const TickBuf& buf = tick_bufs_[p];
    for (const TickOut& o : buf.outs) ApplyTick(o, now);
    for (const WakeAt& w : buf.wakes) NoteWake(w.second, w.first);
  };
  pool_->For(
      ep_due_.size(),
      [&](size_t begin, size_t end, size_t part) { TickRange<false>(begin, end, part, now); },
      &merge);
}

void FuncFabric::NoteWake(int pe, uint64_t wake) {
  const uint64_t t = cycle_;
  if (wake <= t) wake = t + 1;
  if (wake >= next_wake_[pe]) return;  // an earlier wake is queued
  next_wake_[pe] = wake;
  if (wake == t + 1) {
    soon_.push_back(pe);
  } else {
    QueueWake(wake, pe);
  }
}

void FuncFabric::ApplyTick(const TickOut& o, Slot& now) {
  const uint64_t t = cycle_;
  const int n = NumPes();
  const int pe = o.pe;
  const bool ramp = pe < n;
  const int r = ramp ? pe : (pe - n) / arch::kNumEdgeDirs;
  const int dir = ramp ? kRampDir : (pe - n) % arch::kNumEdgeDirs;
  // Down the ramp: logged where the CE side receives it (edge outputs: at the router).
  if (L::Valid(o.from_router)) LogLink(t, At(r), dir, false, o.from_router);
  if (o.fault) {
    fault_cycle_[pe] = t;  // a compute-engine fault: the run stops after this cycle
    fault_pending_ = true;
  }
  if (L::Valid(o.to_router)) {
    if (link_log_on_) LogLink(t, At(r), dir, true, o.to_router);
    // Through the RampLatency stages into the router's RAMP input; an edge link is one hop.
    Add(SlotAt(t + (ramp ? arch::kRampLatency : 1)).arrivals, r, dir, o.to_router);
    ++in_wheel_;
  }
  if (C::Valid(o.credit_to_router)) {
    // Visible at the router's output this cycle: usable from the next.
    Add(now.credits, r, dir, static_cast<int>(C::Color(o.credit_to_router)));
  }
}

// Ticks endpoints [begin, end) of ep_due_, part `part` of them: kDirect (alone), doing what each
// tick does to the fabric at once; else keeping it in the part's TickBuf.
template <bool kDirect>
void FuncFabric::TickRange(size_t begin, size_t end, size_t part, Slot& now) {
  const uint64_t t = cycle_;
  const int n = NumPes();
  t_part = part;
  TickBuf& buf = tick_bufs_[part];  // emptied by TickDue
  uint32_t regs[4];
  for (size_t k = begin; k < end; ++k) {
    const int pe = ep_due_[k];  // an endpoint id: a ramp (pe < n) or an edge port
    const bool ramp = pe < n;
    // The next endpoint's state reaches the cache while this one ticks (and the one after's
    // endpoint object, which the next Prefetch reads).
    if (k + 2 < end) __builtin_prefetch(endpoints_[ep_due_[k + 2]]);
    if (k + 1 < end) {
      if (const fabric::RampEndpoint* next = endpoints_[ep_due_[k + 1]]) next->Prefetch();
    }
    fabric::RampPort port;
    port.from_router = ce_link_[pe];
    port.credit_from_router = static_cast<uint8_t>(ce_credit_[pe]);
    port.to_router = 0;
    port.credit_to_router = 0;
    port.horizon = ramp && !inbound_[pe] ? std::min(run_end_, t + quiet_span_) : 0;
    // Cleared only if set: a line of these arrays another thread reads stays clean.
    if (port.from_router) ce_link_[pe] = 0;
    if (port.credit_from_router) ce_credit_[pe] = 0;
    const uint64_t from = ramp && link_log_on_ ? port.from_router : 0;  // only to log it
    bool fault = false;
    fabric::RampEndpoint* ep = endpoints_[pe];
    if (ep) {  // else nobody is on the CE side: the wavelet leaves the fabric unconsumed
      ep->Tick(t, port);
      fault = ramp && fault_cycle_[pe] == fabric::kNever && ep->Fault(regs);
      const uint64_t wake = ep->NextWake();
      if (wake != fabric::kNever) {
        if constexpr (kDirect) {
          NoteWake(pe, wake);
        } else {
          buf.wakes.push_back({wake, pe});
        }
      }
    }
    if (L::Valid(from) || L::Valid(port.to_router) || C::Valid(port.credit_to_router) || fault) {
      const TickOut o{pe, from, port.to_router, port.credit_to_router, fault};
      if constexpr (kDirect) {
        ApplyTick(o, now);
      } else {
        buf.outs.push_back(o);
      }
    }
  }
}

void FuncFabric::StepCycle() {
  const uint64_t t = cycle_;
  Slot& now = SlotAt(t);
  // A wavelet not yet in the wheel reaches a compute engine RampLatency cycles after its router
  // forwards it, at the earliest in this cycle. With none on a link, in a router or in a ramp, it
  // has yet to be sent: by an edge port in this cycle (one hop to its router), or by a compute
  // engine (RampLatency up the ramp).
  if (!run_ahead_) {
    quiet_span_ = 0;
  } else if (WaveletsInFlight()) {
    quiet_span_ = arch::kRampLatency;
  } else {
    quiet_span_ = arch::kRampLatency + (edge_ids_.empty() ? arch::kRampLatency : 1);
  }
  stepping_ = true;
  TickEndpoints(now);
  stepping_ = false;

  // Routers to step: those holding wavelets and those receiving one.
  const uint64_t mark = t + 1;
  active_.clear();
  for (int r : queued_) {
    if (!routers_[r].dirty) {  // nothing changed since it last moved nothing: skip it
      stamp_[r] = mark;
      skipped_.push_back(r);
      continue;
    }
    if (stamp_[r] != mark) {
      stamp_[r] = mark;
      active_.push_back(r);
    }
  }
  for (const Arrival& a : now.arrivals) {
    in_word_[static_cast<size_t>(a.router) * kDirs + a.dir] = a.link;
    routers_[a.router].dirty = true;
    if (stamp_[a.router] != mark) {
      stamp_[a.router] = mark;
      active_.push_back(a.router);
    }
  }
  queued_.clear();
  for (int r : skipped_) {
    if (routers_[r].dirty) {
      active_.push_back(r);  // an arrival came after all
    } else {
      queued_.push_back(r);
    }
  }
  skipped_.clear();
  for (int r : active_) {
    uint64_t* in = &in_word_[static_cast<size_t>(r) * kDirs];
    StepRouter(r, in);
    for (int d = 0; d < kDirs; ++d) in[d] = 0;
    if (routers_[r].queued) queued_.push_back(r);
  }

  // Back pressure: only a router that still holds a wavelet can have one waiting.
  if (BackPressureCounting()) {
    for (int r : queued_)
      for (int d = 0; d < kDirs; ++d)
        if (routers_[r].blocked[d]) AddBackPressure(r, d, routers_[r].blocked[d]);
  }

  // Credits visible during this cycle count from the next.
  for (const CreditReturn& c : now.credits) {
    RouterState& s = routers_[c.router];
    ++s.credit[c.dir][c.color];
    s.credit_ok[c.dir] |= 1u << c.color;
    s.dirty = true;
  }
  in_wheel_ -= now.arrivals.size() + now.ce_links.size();
  now.arrivals.clear();
  now.credits.clear();
  now.ce_links.clear();
  now.ce_credits.clear();
  // Register writes the compute engines made in this cycle take effect at its end (after the
  // switch advances: a write wins).
  // (Each router's writes come from its own CE, on one thread: their order is kept.)
  for (RegWrites& list : reg_writes_) {
    for (const RegWrite& w : list.writes) WriteReg(w.pe, w.addr, w.value);
    list.writes.clear();
  }
  ++cycle_;
}

void FuncFabric::StepRouter(int r, const uint64_t* in) {
  RouterState& s = routers_[r];
  const uint64_t t = cycle_;

  // Arrivals: a reserved color faults where it enters; others join their color's queue.
  uint32_t avail[kDirs];
  int push_color[kDirs];
  bool arr_fault[kDirs];
  uint32_t busy = 0;  // inputs with a head or an arrival
  for (int d = 0; d < kDirs; ++d) {
    push_color[d] = -1;
    arr_fault[d] = false;
    avail[d] = s.nonempty[d];
    if (avail[d]) busy |= 1u << d;
    if (!L::Valid(in[d])) continue;
    busy |= 1u << d;
    int c = static_cast<int>(L::Color(in[d]));
    if (c >= kColors) {
      arr_fault[d] = true;
    } else {
      push_color[d] = c;
      avail[d] |= 1u << c;
    }
  }

  // Readiness per color: a route, no tied-off target, a credit at every target.
  // With color swap, an output's credit for a color is the credit of the color it leaves as.
  uint32_t credit_ok[kDirs];
  for (int o = 0; o < kDirs; ++o) credit_ok[o] = SwapView(s.credit_ok[o], s.swap_x, o);
  uint32_t no_credit = 0;
  for (int o = 0; o < kDirs; ++o) no_credit |= s.tx_has[o] & ~credit_ok[o];
  const uint32_t ready = s.has_route & ~s.tied_hit & ~no_credit;
  uint32_t waiting = 0;
  for (int d = 0; d < kDirs; ++d) waiting |= avail[d] & s.rx_has[d];
  for (int o = 0; o < kDirs; ++o)
    s.blocked[o] = waiting & s.tx_has[o] & ~credit_ok[o] & ~s.tied_hit;

  // Faulty heads (a head its route cannot take) are consumed and reported ahead of traffic; an
  // input reports at most one fault per cycle, a reserved color arriving first. A head from an
  // input that only another switch position of its color accepts is not faulty: it waits.
  int bad_color[kDirs];
  uint32_t bad_cause[kDirs];
  for (int dd = 0; dd < kDirs; ++dd) {
    bad_color[dd] = -1;
    if (arr_fault[dd] || !avail[dd]) continue;
    uint32_t bad_rx = avail[dd] & ~s.rx_any[dd];
    uint32_t bad = bad_rx | (avail[dd] & s.rx_has[dd] & (~s.has_route | s.tied_hit));
    if (!bad) continue;
    int c = LowestBit(bad);
    bad_color[dd] = c;
    using FC = arch::FaultCause;
    bad_cause[dd] = static_cast<uint32_t>((bad_rx >> c & 1)         ? FC::kRxMismatch
                                          : !(s.has_route >> c & 1) ? FC::kNoRoute
                                                                    : FC::kTiedOffEdge);
  }

  // Allocation: inputs in round-robin order from s.prio, round robin over colors in an input.
  int fire_color[kDirs] = {-1, -1, -1, -1, -1};
  uint8_t taken = 0;
  bool won = false;
  int d = s.prio;
  for (int k = 0; k < kDirs; ++k, d = (d + 1 == kDirs) ? 0 : d + 1) {
    if (bad_color[d] >= 0) continue;  // consuming a faulty head
    uint32_t cand = avail[d] & s.rx_has[d] & ready;
    if (!cand) continue;
    uint32_t blocked = 0;
    for (int o = 0; o < kDirs; ++o)
      if (taken >> o & 1) blocked |= s.tx_has[o];
    cand &= ~blocked;
    if (!cand) continue;
    int c = RoundRobin(cand, s.rr_ptr[d]);
    fire_color[d] = c;
    taken |= s.route[c].tx;
    if (!won) s.prio = static_cast<uint8_t>(d + 1 == kDirs ? 0 : d + 1);
    won = true;
  }

  // Pops: winners leave, faulty heads are consumed.
  uint32_t nfaults = 0;
  uint32_t first_fault = 0;  // RouterFault fields of the lowest faulting input
  uint32_t advance = 0;      // colors whose control wavelet left: their switches move after
  for (int dd = kDirs - 1; dd >= 0; --dd) {
    if (!(busy >> dd & 1)) continue;
    int color = fire_color[dd];
    const bool head_fault = bad_color[dd] >= 0;
    if (head_fault) color = bad_color[dd];
    if (arr_fault[dd] || head_fault) {
      ++nfaults;
      using RF = arch::RouterFault;
      uint32_t f = 0;
      f = RF::WithCause(f, arr_fault[dd] ? static_cast<uint32_t>(arch::FaultCause::kReservedColor)
                                         : bad_cause[dd]);
      f = RF::WithDir(f, dd);
      f = RF::WithColor(f, arr_fault[dd] ? L::Color(in[dd]) : color);
      first_fault = f;
    }
    Payload payload = 0;
    bool pushed = push_color[dd] >= 0;
    if (color >= 0) {
      // Take the head of `color`: stored, or the wavelet arriving now (fall-through).
      uint32_t bit = 1u << color;
      if (s.nonempty[dd] & bit) {
        uint8_t& h = s.head[dd][color];
        payload = s.buf[QueueSlot(dd, color, h)];
        h = static_cast<uint8_t>(h + 1 == QueueDepth(dd) ? 0 : h + 1);
        if (--s.count[dd][color] == 0) s.nonempty[dd] &= ~bit;
      } else {
        payload = PayloadOf(in[dd]);
        pushed = false;  // it leaves without being stored
      }
      // The freed slot's credit reaches the sender next cycle.
      if (dd == kRampDir) {
        Add(SlotAt(t + 1).ce_credits, r, fabric::MakeCredit(color));
      } else if (s.edge >> dd & 1) {
        Add(SlotAt(t + 1).ce_credits, EdgeId(r, dd), fabric::MakeCredit(color));
      } else {
        Add(SlotAt(t + 1).credits, Neighbour(r, dd), dd ^ 1, color);
      }
    }
    if (pushed) {
      int c = push_color[dd];
      uint8_t n = s.count[dd][c];
      int slot = s.head[dd][c] + n;
      if (slot >= QueueDepth(dd)) slot -= QueueDepth(dd);
      s.buf[QueueSlot(dd, c, slot)] = PayloadOf(in[dd]);
      s.count[dd][c] = static_cast<uint8_t>(n + 1);
      s.nonempty[dd] |= 1u << c;
    }
    if (fire_color[dd] >= 0) {
      const int c = fire_color[dd];
      const bool ctrl = payload >> 32 & 1;
      const uint64_t word = fabric::MakeLink(ctrl, c, static_cast<uint32_t>(payload));
      const uint8_t tx = s.route[c].tx;
      const bool swap = s.swap_x >> c & 1;
      for (int o = 0; o < kDirs; ++o) {
        if (!(tx >> o & 1)) continue;
        // A filtered RAMP copy is not made (it takes no credit); the other targets are served.
        // A counter filter counts what is offered to the RAMP, delivered or not.
        if (o == kRampDir) {
          const uint32_t n = s.filter_count[c];
          s.filter_count[c] = FilterCountAfter(s.switch_cfg[c], n, ctrl);
          if (!FilterPasses(s.switch_cfg[c], s.filter_range[c], n, ctrl,
                            static_cast<uint32_t>(payload)))
            continue;
        }
        // Leaving W or E with color swap, the wavelet is its color's pair (credit and word).
        const int oc = swap && SwapsAt(o) ? c ^ 1 : c;
        const uint64_t out =
            oc == c ? word : fabric::MakeLink(ctrl, oc, static_cast<uint32_t>(payload));
        if (--s.credit[o][oc] == 0) s.credit_ok[o] &= ~(1u << oc);
        if (link_log_on_ && o != kRampDir) LogLink(t, At(r), o, false, out);
        if (o == kRampDir) {
          // Output register plus RampLatency-1 stages to the CE side.
          Add(SlotAt(t + arch::kRampLatency).ce_links, r, word);
          ++in_wheel_;
        } else if (s.edge >> o & 1) {
          Add(SlotAt(t + 1).ce_links, EdgeId(r, o), out);  // to the edge port's endpoint
          ++in_wheel_;
        } else {
          Add(SlotAt(t + 1).arrivals, Neighbour(r, o), o ^ 1, out);
          ++in_wheel_;
        }
      }
      s.rr_ptr[dd] = static_cast<uint8_t>(c + 1 == kColors ? 0 : c + 1);
      if (ctrl) advance |= 1u << c;
    }
  }
  for (; advance; advance &= advance - 1) {
    int c = LowestBit(advance);
    s.switch_cfg[c] = AdvanceSwitch(s.switch_cfg[c]);
    s.UpdateRoute(c);
  }
  if (nfaults) {
    using RF = arch::RouterFault;
    uint32_t count = RF::Count(s.fault_reg);
    if (count == 0) s.fault_reg = first_fault;
    count = std::min<uint32_t>(0xFFFF, count + nfaults);
    s.fault_reg = RF::WithCount(s.fault_reg, count);
    if (fault_cycle_[r] == fabric::kNever) {
      fault_cycle_[r] = t;
      fault_pending_ = true;
    }
  }
  uint32_t any = 0;
  for (int dd = 0; dd < kDirs; ++dd) any |= s.nonempty[dd];
  s.queued = any != 0;
  // If nothing moved, nothing will until an arrival, a credit or a register write.
  s.dirty = won || nfaults != 0;
}

}  // namespace tessera::func
