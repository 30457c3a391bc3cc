#include "instrument_args.h"

namespace tessera::cli {

void InstrumentArgs::AddTo(CLI::App* cmd) {
  cmd->add_option("--trace-insn", trace_insn,
                  "Write every instruction (cycle, PE, task, pc, source line, disassembly, "
                  "registers written) to FILE.csv or FILE.jsonl");
  cmd->add_option("--trace-region", trace_region,
                  "X0,Y0:X1,Y1 PEs the traces and the timeline cover (default: all)");
  cmd->add_option("--trace-window", trace_window,
                  "FROM:TO cycles the traces and the timeline cover (default: all)");
  cmd->add_option("--link-trace", link_trace,
                  "Write every wavelet crossing a link to FILE.csv (cycle, PE, port, direction, "
                  "color, control, data)");
  cmd->add_option("--timeline", timeline,
                  "Write a Perfetto/Chrome timeline (FILE.json or FILE.json.gz): task spans, "
                  "wavelet hops, debug records per PE");
  cmd->add_option("--heatmap", heatmap, "Write pictures of the fabric (SVG) per counter into DIR");
  cmd->add_flag("--profile", profile,
                "Print the counters' summary (with --json: every counter, per PE)");
}

trace::InstrumentOptions InstrumentArgs::Options() const {
  trace::InstrumentOptions o;
  o.trace_insn = trace_insn;
  o.link_trace = link_trace;
  o.timeline = timeline;
  o.heatmap_dir = heatmap;
  o.profile = profile;
  o.scope = trace::ParseScope(trace_region, trace_window);
  return o;
}

}  // namespace tessera::cli
