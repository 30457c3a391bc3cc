// The timeline (`--timeline FILE.json`, docs/profiling.md "Timeline"): the run in the Trace Event
// format that the Perfetto UI (ui.perfetto.dev) and chrome://tracing open. One track per PE of the
// scope (process "fabric", thread "PE(x,y)"), one microsecond per cycle:
//
//   task spans        from the picker's start to the task's `tend` ("task 0 (main)")
//   stalls            on a track "PE(x,y) stalls" under the PE's: the cycles the scalar stage
//                     stalled, one slice per run of one class ("stall_port"), as PerfCount
//                     counts them
//   microthreads      on a track "PE(x,y) ut<u>" per microthread that ran: a span per operation
//                     named by its instruction ("fmacs d0, d1, d2, ut0"), with a slice per run of
//                     cycles it waited ("ut_fabin c3", "ut_fabout c5", "ut_port", ...)
//   wavelets          a one-cycle slice per hop out of a router ("E c3"), per CE send ("send c3")
//                     and receive ("recv c3"), with a flow arrow from each hop to the next PE
//   debug records     instant events with the value
//   faults            instant events with the fault in words
//
// Events are kept in memory (the scope bounds them) and written at Close, sorted per track; a
// file ending in .gz is gzip-compressed, which Perfetto opens as well.
#pragma once

#include <array>
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
  void Before(uint64_t cycle, machine::Machine& m) override;
  void After(uint64_t cycle, machine::Machine& m,
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
  static constexpr int kRankSliceOrder = 2;  // timeline.cpp's kRankSlice
  // The PE's other tracks: k = 1 stalls, k = 2 + u microthread u.
  int SubTid(fabric::Coord pe, int k) const { return k * width_ * height_ + Tid(pe); }
  // Stalls and microthreads of one PE after a cycle.
  void Inner(uint64_t cycle, machine::Machine& m, fabric::Coord pe);
  void Slice(int tid, uint64_t from, uint64_t to, const std::string& name, const char* cat,
             int rank = kRankSliceOrder);
  struct Inside {                      // what one PE's stall and microthread tracks have open
    std::array<uint32_t, 6> stalls{};  // PerfCount StallUt .. StallFmac after the last cycle
    int stall = -1;                    // the class of the open stall slice
    uint64_t stall_from = 0;
    std::array<int64_t, 8> ut_from{};  // cycle a microthread's span began; -1: idle
    std::array<std::string, 8> ut_name;
    std::array<int, 8> wait{};  // its open wait slice: UtWait, with color in bits 8+; -1: none
    std::array<uint64_t, 8> wait_from{};
  };
  void EndStall(fabric::Coord pe, Inside& in, uint64_t end);
  void EndWait(fabric::Coord pe, Inside& in, int u, uint64_t end);
  void EndUt(fabric::Coord pe, Inside& in, int u, uint64_t end);
  std::map<int, Inside> inside_;       // by PE index
  std::map<int, std::string> tracks_;  // the stall and microthread tracks, by tid
  std::string TaskName(machine::Machine& m, fabric::Coord pe, int task);
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
