// A fabric backend: W x H PEs that step in lockstep, whatever the implementation (verilated
// tiles joined by SystemC or by a plain loop, or the functional model). The host, the traffic
// testbench and co-simulation drive every backend through this interface only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fabric/ramp_port.h"

namespace tessera::fabric {

struct Coord {
  int x = 0, y = 0;
  bool operator==(const Coord& o) const { return x == o.x && y == o.y; }
};

// A fault a PE recorded (its RouterFault register), with the cycle the backend first saw it.
struct FaultRecord {
  Coord pe;
  uint64_t cycle = 0;
  uint32_t status = 0;  // arch::RouterFault register value
  // The CE's fault registers (FaultStatus, FaultPc, FaultAddr, FaultInfo); status 0: none.
  uint32_t ce_status = 0, ce_pc = 0, ce_addr = 0, ce_info = 0;
};

// Describes a fault in words: "PE(3,2) fault at cycle 41: routing fault, color 5 arrived from E
// which no switch position of its route accepts (1 fault)".
std::string DescribeFault(const FaultRecord& f);

// One wavelet crossing a link, as the link log keeps it (Fabric::SetLinkLog). Each link is
// logged once, at its sending end:
//  - out of PE pe's router through port W, E, S or N (to a neighbour or an edge endpoint):
//    `into` false, `cycle` the cycle the router sends it (it arrives in the next);
//  - out of the router down the ramp: port RAMP, `into` false, `cycle` the cycle the CE side
//    receives it (arch::kRampLatency after the router sent it);
//  - into the router from the CE (port RAMP) or from an edge endpoint (port W, E, S or N):
//    `into` true, `cycle` the cycle the CE side or the endpoint sends it.
// A link between two PEs is logged as the sender's output only.
struct LinkEvent {
  uint64_t cycle = 0;
  Coord pe;
  uint8_t port = 0;   // arch::Dir
  bool into = false;  // into the router (from the CE or an edge endpoint), else out of it
  uint64_t word = 0;  // arch::Link
  bool operator==(const LinkEvent& o) const {
    return cycle == o.cycle && pe == o.pe && port == o.port && into == o.into && word == o.word;
  }
};

// The link a LinkEvent crossed, in words: "the link out of PE(1,0) to the E", "the ramp from
// PE(1,0)'s router down to its CE", "the ramp from PE(1,0)'s CE up to its router", "the edge link
// into PE(0,0) from the W".
std::string DescribeLink(const LinkEvent& e);
// The directions of a mask (bit d: arch::Dir d) by their names, e.g. "W,RAMP" with sep ",";
// `none` for an empty mask.
std::string DirMaskText(uint32_t mask, const char* sep, const char* none);
// A wavelet in words: "color 3 data 0x3f800000", with " (control)" for a control wavelet.
std::string DescribeWavelet(uint32_t color, uint32_t data, bool ctrl);

class Fabric {
 public:
  virtual ~Fabric() = default;
  virtual const char* Name() const = 0;
  virtual int Width() const = 0;
  virtual int Height() const = 0;

  // Back-door access to a PE's memory-mapped registers: zero simulated time. Addresses outside
  // the implemented registers read 0 and ignore writes.
  virtual void WriteReg(Coord pe, uint16_t addr, uint32_t value) = 0;
  virtual uint32_t ReadReg(Coord pe, uint16_t addr) = 0;

  // The endpoint of each PE's ramp (not owned); nullptr leaves the ramp idle.
  virtual void SetEndpoint(Coord pe, RampEndpoint* ep) = 0;

  // The host's end of PE pe's edge port in direction dir (arch::Dir W, E, S or N; the port
  // must face off the fabric, else std::invalid_argument naming the PE and direction).
  // Non-null unties the port; the endpoint is then ticked once per cycle exactly like a ramp
  // endpoint (fabric/ramp_port.h contract), except that the link has the ordinary 1-cycle hop
  // timing of a router-to-router link instead of RampLatency. nullptr ties the port off again.
  // Edge ports are tied off until an endpoint is set: a wavelet routed onto a tied-off port is a
  // routing fault (TiedOffEdge). Not owned; set and cleared between Run calls only. Clearing or
  // replacing an endpoint while a wavelet is on the link between it and the router (either
  // way) would lose that wavelet: it throws std::logic_error instead. Edge endpoints' Fault()
  // is not consulted. See docs/router.md, "Edge ports".
  virtual void SetEdgeEndpoint(Coord pe, int dir, RampEndpoint* ep) = 0;

  // After the last cycle stepped: some wavelet is still in a router input queue, on a link
  // (edge links included), or in a ramp pipeline in either direction. Credits in flight do not
  // count. Identical in both backends after every cycle.
  virtual bool WaveletsInFlight() = 0;

  // The fabric is quiescent: no wavelet is in flight and every endpoint (ramp and edge) is quiet;
  // on fabrics of full PEs every compute engine shows CeStatus.Quiet. Valid between runs, also
  // after back-door writes.
  virtual bool Quiescent() = 0;
  // The fabric is settled: no wavelet is in flight and every endpoint is settled (a compute
  // engine's CeStatus.Settled, a host stream with nothing to send): nothing can move until the
  // host acts, though microthreads may wait for data (docs/isa.md 3.2). Quiescent implies it.
  virtual bool Settled() = 0;
  // When Run stops early besides a fault: after the first cycle after which the fabric is
  // quiescent (the host runtime's run to quiescence) or settled (a program whose microthreads
  // wait for host data: the SDK's command stream). kNever by default.
  enum class StopWhen { kNever, kQuiescent, kSettled };
  void SetStopWhen(StopWhen w) { stop_when_ = w; }
  StopWhen GetStopWhen() const { return stop_when_; }
  void SetStopWhenQuiescent(bool on) { stop_when_ = on ? StopWhen::kQuiescent : StopWhen::kNever; }

  // Steps up to `cycles` cycles; stops early after a cycle in which some PE faulted (or, if
  // asked, after which the fabric is quiescent). Returns the number of cycles stepped.
  virtual uint64_t Run(uint64_t cycles) = 0;
  virtual uint64_t Cycle() const = 0;  // cycles stepped since reset

  // PEs whose fault flag is set, in PE order.
  virtual std::vector<FaultRecord> Faults() = 0;
  // Forgets that PE `pe` faulted, so that a new fault there stops a run again (the host clears
  // the fault registers themselves with writes: runtime::Device::ClearFaults).
  virtual void ForgetFault(Coord pe) { (void)pe; }

  // With the log on, every wavelet crossing a link the backend observes (ObservesLink) is kept
  // until taken; order within a cycle is the backend's. Co-simulation compares the logs per link
  // and color. Off by default (it costs a branch per wavelet moved).
  void SetLinkLog(bool on) { link_log_on_ = on; }
  std::vector<LinkEvent> TakeLinkLog();
  // Whether the log sees the link at port `port` of PE pe (direction as in LinkEvent). The
  // functional model sees every link; the RTL sees ramps, edge links and links between tiles, not
  // the links inside a tile of several PEs.
  virtual bool ObservesLink(Coord pe, int port, bool into) const;

  // Back pressure (docs/profiling.md, "Back pressure"): with counting on, each router adds one
  // per cycle to (output port, color) for every color whose wavelet waits at one of its inputs,
  // routed to that output, which holds no credit for the color. Both backends count the same
  // (co-simulation compares the counts). Turning it on starts from zero; off frees the counts.
  void SetBackPressureCount(bool on);
  bool BackPressureCounting() const { return !back_pressure_.empty(); }
  // The counts since counting was turned on, at BackPressureIndex(PE index, dir, color); empty
  // when off.
  const std::vector<uint64_t>& BackPressure() const { return back_pressure_; }
  static constexpr int kBackPressureDirs = 5;  // arch::kNumDirs
  static constexpr int kBackPressureColors = 32;
  static size_t BackPressureIndex(int pe_index, int dir, int color) {
    return (static_cast<size_t>(pe_index) * kBackPressureDirs + static_cast<size_t>(dir)) *
               kBackPressureColors +
           static_cast<size_t>(color);
  }

  int NumPes() const { return Width() * Height(); }
  int Index(Coord c) const { return c.y * Width() + c.x; }
  Coord At(int index) const { return {index % Width(), index / Width()}; }
  bool Contains(Coord c) const { return c.x >= 0 && c.y >= 0 && c.x < Width() && c.y < Height(); }
  // Throws std::out_of_range naming the PE and the fabric when `c` is outside it.
  void CheckContains(Coord c) const;
  // True when port `dir` (arch::Dir) of PE `c` faces off the fabric (RAMP never does).
  bool IsEdgePort(Coord c, int dir) const;
  // CheckContains, then std::invalid_argument naming the PE and the direction unless `dir` is
  // W, E, S or N and faces off the fabric.
  void CheckEdgePort(Coord c, int dir) const;

 protected:
  // Backends, with counting on: router `pe_index` held up the colors of `mask` at output `dir`
  // for one cycle.
  void AddBackPressure(int pe_index, int dir, uint32_t mask) {
    uint64_t* row = &back_pressure_[BackPressureIndex(pe_index, dir, 0)];
    for (; mask; mask &= mask - 1) ++row[__builtin_ctz(mask)];
  }
  std::vector<uint64_t> back_pressure_;
  StopWhen stop_when_ = StopWhen::kNever;
  // Backends, after each cycle: whether the run stops (SetStopWhen).
  bool StopNow() {
    switch (stop_when_) {
      case StopWhen::kQuiescent:
        return Quiescent();
      case StopWhen::kSettled:
        return Settled();
      default:
        return false;
    }
  }
  bool link_log_on_ = false;
  std::vector<LinkEvent> link_log_;
  // Backends: a wavelet crossed a link (call only with the log on and a valid word).
  void LogLink(uint64_t cycle, Coord pe, int port, bool into, uint64_t word) {
    LinkEvent& e = link_log_.emplace_back();
    e.cycle = cycle;
    e.pe = pe;
    e.port = static_cast<uint8_t>(port);
    e.into = into;
    e.word = word;
  }
  // Backends: SetEdgeEndpoint found a wavelet on the link to or from the endpoint it replaces.
  [[noreturn]] void ThrowEdgeLinkBusy(Coord c, int dir) const;
};

// Readies the link logs of two fabrics over the same stretch of cycles for comparison: drops the
// events on links that `a` or `b` does not observe (Fabric::ObservesLink) and sorts each log by
// link, color and cycle, so that logs that agree become equal vectors.
void CanonicalLinkLogs(std::vector<LinkEvent>& la, std::vector<LinkEvent>& lb, const Fabric& a,
                       const Fabric& b);

}  // namespace tessera::fabric
