// Everything a run can be watched with, set up from one set of options and attached to a device
// (docs/profiling.md): `tessera run`, `tessera kernel` and the Python module share it.
//
//   --trace-insn FILE     the instruction trace (InsnTrace)
//   --link-trace FILE     the link trace (LinkTrace)
//   --timeline FILE.json  the Perfetto timeline (Timeline)
//   --heatmap DIR         pictures of the counters (RunCounters::WriteHeatmaps)
//   --profile             the counters' summary (and all counters with --json)
//   --trace-region, --trace-window   the scope of the traces and the timeline
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "trace/counters.h"
#include "trace/insn_trace.h"
#include "trace/link_trace.h"
#include "trace/scope.h"
#include "trace/timeline.h"

namespace tessera::trace {

struct InstrumentOptions {
  std::string trace_insn, link_trace, timeline, heatmap_dir;
  bool profile = false;
  Scope scope;
  bool Any() const {
    return !trace_insn.empty() || !link_trace.empty() || !timeline.empty() ||
           !heatmap_dir.empty() || profile;
  }
};

class Instruments {
 public:
  // Opens the files (std::invalid_argument naming the option if one cannot be written) and
  // attaches to `dev`, which must have its image loaded and outlive Finish.
  Instruments(const InstrumentOptions& o, runtime::Device& dev);
  Instruments(const Instruments&) = delete;
  Instruments& operator=(const Instruments&) = delete;

  // Closes the traces and the timeline and writes the heatmaps; returns a line per file for the
  // user ("instruction trace: 86 rows to loop.csv"). The counters stay readable. Idempotent.
  std::vector<std::string> Finish();
  // After Finish: the counters (with --profile or --heatmap), else nullptr.
  const RunCounters* counters() const { return counters_.get(); }

 private:
  InstrumentOptions opt_;
  runtime::Device& dev_;
  uint64_t start_cycle_ = 0;
  std::unique_ptr<InsnTrace> insn_;
  std::unique_ptr<LinkTrace> links_;
  std::unique_ptr<Timeline> timeline_;
  std::unique_ptr<RunCounters> counters_;
  bool finished_ = false;
};

}  // namespace tessera::trace
