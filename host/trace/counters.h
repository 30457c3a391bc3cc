// Counters of a run that every backend counts the same way (docs/profiling.md, "Counters"):
//   - each CE's performance counters (PerfCount, arch::PerfEvent: instructions, task and
//     microthread cycles, scalar stall cycles by class, microthread-cycles by wait state), counted
//     by the functional model and the RTL alike and compared by co-simulation, read through the
//     back door at the start and the end;
//   - from the link log: the wavelets each router sent out of each port, each CE sent up its ramp
//     and received from it, per PE and per color.
// They feed `--profile` (a summary a person reads in ten seconds, and with --json every counter)
// and `--heatmap DIR` (pictures of the fabric).
//
// Counter outputs carry kCountersVersion. A counter that is not measured is absent from the
// JSON, never zero: FMAC busy cycles and back pressure per link are not counted yet.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "fabric/fabric.h"
#include "runtime/device.h"
#include "util/json.h"

namespace tessera::trace {

inline constexpr int kCountersVersion = 2;
inline constexpr int kPerfEvents = arch::PerfCount::kCount;  // one per arch::PerfEvent

struct PeCounters {
  std::array<uint32_t, kPerfEvents> perf{};  // PerfCount over the run (mod 2^32)
  uint64_t instructions = 0;
  std::array<uint64_t, 4> out{};  // wavelets its router sent through W, E, S, N
  uint64_t ce_sent = 0, ce_received = 0;
};

class RunCounters {
 public:
  // Starts counting on `dev` (its first machine's retire counts as they are now).
  explicit RunCounters(runtime::Device& dev);
  // The wavelets of one run step (Device::SetLinkHandler).
  void AddLinks(const std::vector<fabric::LinkEvent>& v);
  // Reads the instruction counts at the end; `cycles`: the run's length.
  void Finish(uint64_t cycles);

  int width() const { return w_; }
  int height() const { return h_; }
  uint64_t cycles() const { return cycles_; }
  const std::vector<PeCounters>& pes() const { return pes_; }
  const std::array<uint64_t, 32>& per_color() const { return color_; }

  // The summary: FMAC-free for now; the busiest PEs and links, CE traffic.
  std::string Summary(const std::string& backend) const;
  // Every counter, per PE and in total, under the version.
  util::JsonObject Json() const;
  // Writes instructions.svg, busy.svg, ce_sent.svg, ce_received.svg, link_load.svg and one
  // picture per stall or wait class that occurred (stall_port.svg, ut_fabin.svg, ...) into `dir`
  // (made if missing); returns the files. Throws std::runtime_error naming a file that cannot be
  // written.
  std::vector<std::string> WriteHeatmaps(const std::string& dir) const;

 private:
  runtime::Device& dev_;
  int w_ = 1, h_ = 1;
  std::vector<uint64_t> retired0_;
  std::vector<std::array<uint32_t, kPerfEvents>> perf0_;  // PerfCount at the start
  std::vector<PeCounters> pes_;
  std::array<uint64_t, 32> color_{};
  uint64_t cycles_ = 0;
};

}  // namespace tessera::trace
