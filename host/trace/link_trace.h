// The link trace (`--link-trace FILE.csv`, the Python module's `link_trace=`): every wavelet that
// crossed a link of the fabric in the trace's scope (its PE region and cycle window), one CSV row
// each, in cycle order, streamed to the file as the run goes (docs/profiling.md):
//
//   cycle,x,y,port,direction,color,control,data,task
//   9,0,0,Ramp,in,3,0,0x00000000,0
//
// The links and cycles are those of the link log (docs/runtime.md, "Co-simulation"). Rows of
// the ramp, the wavelets the PE's compute engine sent (`in`) and received (`out`), name the task
// running in that cycle (blank if none); other rows leave it blank. The task comes from the
// backends' task starts and retired `tend`s, so the trace watches every cycle of its window.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "runtime/device.h"
#include "trace/running_tasks.h"
#include "trace/scope.h"

namespace tessera::trace {

class LinkTrace final : public runtime::CycleObserver {
 public:
  // Opens `path` and writes the header; throws std::invalid_argument naming `option` and the
  // file if it cannot be written. Add it to the device as a cycle observer (the task column).
  LinkTrace(const std::string& path, const std::string& option, const Scope& scope = {});
  LinkTrace(const LinkTrace&) = delete;
  LinkTrace& operator=(const LinkTrace&) = delete;

  uint64_t From() const override { return scope_.from; }
  uint64_t To() const override { return scope_.to; }
  void Before(uint64_t cycle, machine::Machine& m) override;
  void After(uint64_t cycle, machine::Machine& m,
             const std::vector<fabric::PeEvents>& events) override;

  // The wavelets of one run step (Device::SetLinkHandler), in order.
  void Add(const std::vector<fabric::LinkEvent>& v);
  // Flushes and closes; throws std::runtime_error naming the option and file if a write failed.
  void Close();

  uint64_t rows() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_, option_;
  Scope scope_;
  std::ofstream out_;
  uint64_t rows_ = 0;
  int width_ = 0;
  RunningTasks tasks_;
};

}  // namespace tessera::trace
