// The timeline (`--timeline FILE.json`, docs/profiling.md "Timeline"): the run in the Trace Event
// format that the Perfetto UI (ui.perfetto.dev) and chrome://tracing open. One track per PE of the
// scope (process "fabric", thread "PE(x,y)"), one microsecond per cycle:
//
//   task spans        from the picker's start to the task's `tend` ("task 0 (main)")
//   wavelets          a one-cycle slice per hop out of a router ("E c3"), per CE send ("send c3")
//                     and receive ("recv c3"), with a flow arrow from each hop to the next PE
//   debug records     instant events with the value
//   faults            instant events with the fault in words
//
// Events are kept in memory (the scope bounds them) and written at Close, sorted per track; a
// file ending in .gz is gzip-compressed, which Perfetto opens as well.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layout/image.h"
#include "runtime/device.h"
#include "trace/scope.h"

namespace tessera::trace {

class Timeline final : public runtime::CycleObserver {
 public:
  // Throws std::invalid_argument naming `option` if the file cannot be written.
  Timeline(const std::string& path, const std::string& option, const Scope& scope,
           const layout::Image& image);

  uint64_t From() const override { return scope_.from; }
  uint64_t To() const override { return scope_.to; }
  void Before(uint64_t cycle, runtime::Machine& m) override;
  void After(uint64_t cycle, runtime::Machine& m,
             const std::vector<fabric::PeEvents>& events) override;
  // The wavelets of one run step (Device::SetLinkHandler).
  void AddLinks(const std::vector<fabric::LinkEvent>& v);
  // Faults in words (RunResult), shown at their cycle on their PE's track.
  void AddFault(fabric::Coord pe, uint64_t cycle, const std::string& text);

  // Ends open spans, writes the file; throws std::runtime_error if a write failed. Returns the
  // number of events written.
  uint64_t Close();
  const std::string& path() const { return path_; }

 private:
  struct Event {
    uint64_t ts = 0;
    int tid = 0;
    int rank = 0;  // order among events of one track and time: E, B, X, i, s, f
    std::string json;
  };
  void Add(uint64_t ts, int tid, int rank, std::string json) {
    events_.push_back({ts, tid, rank, std::move(json)});
  }
  int Tid(fabric::Coord pe) const { return pe.y * width_ + pe.x + 1; }
  std::string TaskName(runtime::Machine& m, fabric::Coord pe, int task);
  void Begin(fabric::Coord pe, uint64_t ts, const std::string& name);
  void End(fabric::Coord pe, uint64_t ts);

  std::string path_, option_;
  Scope scope_;
  const layout::Image& image_;
  int width_ = 1, height_ = 1;
  bool started_ = false;
  uint64_t last_cycle_ = 0;
  std::map<int, bool> open_;  // tid -> a task span is open
  std::map<std::pair<int, int>, std::string> task_names_;
  std::vector<Event> events_;
  uint64_t next_flow_ = 1;
};

}  // namespace tessera::trace
