// Counters of a run that every backend counts the same way (docs/profiling.md, "Counters"):
//   - each CE's performance counters (PerfCount, arch::PerfEvent: instructions, task and
//     microthread cycles, scalar stall cycles by class, microthread-cycles by wait state), counted
//     by the functional model and the RTL alike and compared by co-simulation, read through the
//     back door at the start and the end;
//   - from the link log: the wavelets each router sent out of each port, each CE sent up its ramp
//     and received from it, per PE and per color;
//   - back pressure (fabric::Fabric::SetBackPressureCount): per PE, output port and color, the
//     cycles a waiting wavelet found no credit there, counted by every backend alike (a cosim
//     device's two counts must agree);
//   - per PE and task, the cycles the task ran, from its start to its tend (the start events and
//     the retired tends every backend reports; they add up to PerfCount TaskCycles).
// They feed `--profile` (a summary a person reads in ten seconds, and with --json every counter)
// and `--heatmap DIR` (pictures of the fabric).
//
// Counter outputs carry kCountersVersion. A counter that is not measured is absent from the
// JSON, never zero; lists of tasks and colors name only those that counted.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "fabric/fabric.h"
#include "runtime/device.h"
#include "trace/running_tasks.h"
#include "util/json.h"

namespace tessera::trace {

inline constexpr int kCountersVersion = 4;                   // 4: ut_fifo
inline constexpr int kPerfEvents = arch::PerfCount::kCount;  // one per arch::PerfEvent

struct PeCounters {
  std::array<uint32_t, kPerfEvents> perf{};  // PerfCount over the run (mod 2^32)
  uint64_t instructions = 0;
  std::array<uint64_t, 4> out{};         // wavelets its router sent through W, E, S, N
  std::map<int, uint64_t> out_color[4];  // ... per color that crossed
  uint64_t ce_sent = 0, ce_received = 0;
  std::array<uint64_t, arch::kNumDirs> blocked{};  // back pressure per output, all colors
  std::map<int, uint64_t> task_cycles;             // per task that ran: its cycles
};

class RunCounters : public runtime::CycleObserver {
 public:
  // Starts counting on `dev` (its first machine's retire counts as they are now); turns on the
  // fabrics' back-pressure counts. Add it to the device as a cycle observer (task cycles).
  explicit RunCounters(runtime::Device& dev);
  uint64_t From() const override { return 0; }
  uint64_t To() const override { return UINT64_MAX; }
  void Before(uint64_t cycle, machine::Machine& m) override;
  void After(uint64_t cycle, machine::Machine& m,
             const std::vector<fabric::PeEvents>& events) override;
  // The wavelets of one run step (Device::SetLinkHandler).
  void AddLinks(const std::vector<fabric::LinkEvent>& v);
  // Reads the instruction counts at the end; `cycles`: the run's length. Throws
  // runtime::CosimMismatch if a cosim device's two fabrics counted back pressure differently.
  void Finish(uint64_t cycles);

  int width() const { return w_; }
  int height() const { return h_; }
  uint64_t cycles() const { return cycles_; }
  const std::vector<PeCounters>& pes() const { return pes_; }
  const std::array<uint64_t, 32>& per_color() const { return color_; }
  // Back pressure on output `dir` of PE `i` for `color`, in cycles.
  uint64_t Blocked(int i, int dir, int color) const;

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
  std::vector<uint64_t> blocked_;  // the first fabric's back pressure (Fabric::BackPressure)
  RunningTasks tasks_;             // per PE, for task_cycles
  std::map<std::pair<int, int>, std::string> task_names_;  // (PE index, task)
  std::string TaskLabel(int i, int task) const;
};

}  // namespace tessera::trace
