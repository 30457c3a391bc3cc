// The options that watch a run (docs/profiling.md), shared by `tessera run` and `tessera kernel`:
// --trace-insn, --trace-region, --trace-window, --link-trace, --timeline, --heatmap, --profile.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "trace/instruments.h"

namespace tessera::cli {

struct InstrumentArgs {
  std::string trace_insn, trace_region, trace_window, link_trace, timeline, heatmap;
  bool profile = false;

  // Adds the options to `cmd`.
  void AddTo(CLI::App* cmd);
  // What they ask for; throws std::invalid_argument naming a bad --trace-region or --trace-window.
  trace::InstrumentOptions Options() const;
};

}  // namespace tessera::cli
