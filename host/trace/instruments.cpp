#include "trace/instruments.h"

#include <fmt/format.h>

#include "runtime/diagnosis.h"

namespace tessera::trace {

Instruments::Instruments(const InstrumentOptions& o, runtime::Device& dev)
    : opt_(o), dev_(dev), start_cycle_(dev.Cycle()) {
  if (!o.trace_insn.empty()) {
    insn_ = std::make_unique<InsnTrace>(o.trace_insn, "--trace-insn", o.scope, dev.image());
    dev.AddCycleObserver(insn_.get());
  }
  if (!o.link_trace.empty()) {
    links_ = std::make_unique<LinkTrace>(o.link_trace, "--link-trace", o.scope);
    dev.AddCycleObserver(links_.get());
  }
  if (!o.timeline.empty()) {
    timeline_ = std::make_unique<Timeline>(o.timeline, "--timeline", o.scope, dev.image());
    dev.AddCycleObserver(timeline_.get());
  }
  if (o.profile || !o.heatmap_dir.empty()) {
    counters_ = std::make_unique<RunCounters>(dev);
    dev.AddCycleObserver(counters_.get());
  }
  if (links_ || timeline_ || counters_) {
    dev.SetLinkHandler([this](const std::vector<fabric::LinkEvent>& v) {
      if (links_) links_->Add(v);
      if (timeline_) timeline_->AddLinks(v);
      if (counters_) counters_->AddLinks(v);
    });
  }
}

std::vector<std::string> Instruments::Finish() {
  std::vector<std::string> lines;
  if (finished_) return lines;
  finished_ = true;
  if (insn_) {
    insn_->Close();
    lines.push_back(fmt::format("instruction trace: {} rows to {}", insn_->rows(), insn_->path()));
  }
  if (links_) {
    links_->Close();
    lines.push_back(fmt::format("link trace: {} wavelets to {}", links_->rows(), links_->path()));
  }
  if (timeline_) {
    for (const fabric::FaultRecord& f : dev_.machine().Fabric().Faults())
      timeline_->AddFault(f.pe, f.cycle,
                          runtime::DescribeFault(*dev_.machine().Parts()[0], &dev_.image(), f));
    const uint64_t n = timeline_->Close();
    lines.push_back(fmt::format("timeline: {} events to {} (open it in ui.perfetto.dev)", n,
                                timeline_->path()));
  }
  if (counters_) {
    counters_->Finish(dev_.Cycle() - start_cycle_);
    if (!opt_.heatmap_dir.empty()) {
      const std::vector<std::string> files = counters_->WriteHeatmaps(opt_.heatmap_dir);
      lines.push_back(fmt::format("heatmaps: {} pictures in {}", files.size(), opt_.heatmap_dir));
    }
  }
  return lines;
}

}  // namespace tessera::trace
