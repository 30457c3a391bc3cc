// Checks what the sinks receive against what the tracer predicted. Every generated wavelet is
// registered when it is created (Expect: its source, color, sequence number and destinations),
// counted when it enters the ramp (Injected), and every wavelet a sink receives is classified
// (Deliver):
//   ok          the oldest outstanding wavelet of its (destination, color, source) stream;
//   reordered   expected there, but an older one of the same stream is still outstanding (it is
//               counted and removed, so one overtaking shows as one error; note that a lost
//               wavelet makes every later delivery of its stream reordered as well);
//   duplicated  expected there and already delivered there;
//   misrouted   never expected at that destination on that color (also: a payload that names no
//               wavelet its source injected);
//   corrupted   expected there, but its control bit differs from the one sent.
// Deliveries still outstanding at the end are lost. The scoreboard also keeps, per destination
// and color, the ordered log of deliveries so that two runs (two backends) can be compared.
//
// Deliver is on the simulation's hot path: flat vectors indexed by PE and color, a flat hash for
// the streams, no allocation per call beyond amortized vector growth.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arch/arch.h"
#include "scoreboards/flat_map.h"
#include "scoreboards/ring.h"
#include "scoreboards/route_tracer.h"

namespace tessera::noc {

enum class Verdict : uint8_t { kOk, kReordered, kDuplicated, kMisrouted, kCorrupted };
const char* ToString(Verdict v);

struct ScoreStats {
  uint64_t offered = 0;    // wavelets created (Expect calls)
  uint64_t injected = 0;   // of those, the ones that entered the ramp
  uint64_t expected = 0;   // deliveries expected: a multicast wavelet counts once per destination
  uint64_t delivered = 0;  // wavelets the sinks received, whatever their verdict
  uint64_t ok = 0;
  uint64_t reordered = 0;
  uint64_t duplicated = 0;
  uint64_t misrouted = 0;
  uint64_t corrupted = 0;
  uint64_t protocol = 0;       // ramp protocol violations the endpoints reported
  uint64_t lost = 0;           // expected deliveries not made (yet)
  uint64_t latency_count = 0;  // deliveries with a latency: ok, reordered and corrupted ones
  double latency_avg = 0;      // delivery cycle - creation cycle
  uint64_t latency_max = 0;
  std::string first_error;  // "" when none
  uint64_t Errors() const {
    return reordered + duplicated + misrouted + corrupted + protocol + lost;
  }
};

// One delivery in a destination's log.
struct LogEntry {
  uint64_t cycle = 0;
  uint32_t seq = 0;  // the full sequence number (the payload's 20 bits if it named no wavelet)
  uint16_t src = 0;  // the payload's source PE index
  uint8_t ctrl = 0;
  Verdict verdict = Verdict::kOk;
};

// A fault the tracer predicts for a wavelet created at `cycle`.
struct PredictedFault {
  TraceFault fault;
  uint64_t cycle = 0;
};

class Scoreboard {
 public:
  // keep_log = false saves the memory of the delivery logs (CompareLogs then has nothing).
  Scoreboard(int width, int height, bool keep_log = true);

  int Width() const { return width_; }
  int Height() const { return height_; }
  bool KeepsLog() const { return keep_log_; }

  // A wavelet created by `src` at `cycle`. `seq` must be the source's next sequence number (0, 1,
  // ... per source; std::logic_error otherwise); `dests` are distinct PE indices (any order).
  void Expect(int src, uint32_t color, uint32_t seq, const std::vector<int>& dests, uint64_t cycle,
              bool ctrl = false);
  // The oldest created but not yet injected wavelet of `src` entered the ramp.
  void Injected(int src, uint64_t cycle);
  // A wavelet (arch::Link word) reached the CE side of `dst` at `cycle`. Its payload names the
  // source and the low 20 bits of the sequence number; the full number is the latest one with
  // those bits the source has injected, so a wavelet whose source never called Injected for it
  // is misrouted.
  Verdict Deliver(int dst, uint64_t word, uint64_t cycle);
  // A violation of the ramp protocol seen by an endpoint (counted as `protocol`).
  void ReportError(int pe, uint64_t cycle, const std::string& what);
  // A fault the tracer predicts (kept for comparison with the faults the fabric reports).
  void ExpectFault(const TraceFault& fault, uint64_t cycle);

  uint32_t NextSeq(int src) const { return sources_.at(static_cast<size_t>(src)).next; }
  uint64_t Outstanding() const { return outstanding_; }  // expected deliveries not made yet
  uint64_t Lost() const { return outstanding_; }         // the same, read at the end of a run
  ScoreStats Stats() const;
  const std::string& FirstError() const { return first_error_; }
  // The oldest missing delivery in words, with the number missing; "" when none is.
  std::string FirstLost() const;
  const std::vector<PredictedFault>& PredictedFaults() const { return predicted_faults_; }

  // Deliveries to `dst` on `color` (0..31), in order. Empty when the log is off.
  const std::vector<LogEntry>& Log(int dst, uint32_t color) const;

  std::string PeName(int pe) const;  // "PE(x,y)"

 private:
  // The wavelets one source created and whose deliveries are not all made: seq in [lo, next).
  struct Record {
    uint64_t cycle = 0;
    uint32_t pending = 0;  // destinations still to receive it
    uint8_t ctrl = 0;
  };
  // A (color, destination set) a source has sent with, and its streams (one per destination).
  struct SrcSet {
    uint32_t color = 0;
    uint32_t set = 0;          // index into sets_
    uint32_t streams_off = 0;  // into stream_lists_, one per destination of the set
  };
  struct Source {
    uint32_t lo = 0;
    uint32_t next = 0;
    uint32_t injected = 0;
    Ring<Record> records;  // seq lo .. next-1
    std::vector<SrcSet> sets;
    std::vector<std::pair<uint32_t, uint32_t>> runs;  // (first seq, index into sets), ascending
  };
  struct Stream {
    Ring<uint32_t> seqs;  // outstanding, ascending
    int dst = 0;
    int src = 0;
    uint32_t color = 0;
  };
  struct Set {
    uint32_t off = 0;  // into set_pool_
    uint32_t len = 0;
  };

  static uint32_t StreamKey(int dst, uint32_t color, int src) {
    return static_cast<uint32_t>(dst) << 17 | color << 12 | static_cast<uint32_t>(src);
  }
  uint32_t FindSrcSet(int src, uint32_t color, const std::vector<int>& sorted);
  uint32_t InternSet(const std::vector<int>& sorted);
  uint32_t StreamFor(int dst, uint32_t color, int src);  // creates it when absent
  int FindStream(int dst, uint32_t color, int src);      // -1 when absent
  const SrcSet* SetOfSeq(const Source& s, uint32_t seq) const;
  bool SetHas(uint32_t set, int pe) const;
  void Fail(Verdict v, int dst, uint64_t cycle, uint32_t color, int src, uint32_t seq, bool ctrl,
            const char* why);

  int width_;
  int height_;
  int num_pes_;
  bool keep_log_;
  std::vector<Source> sources_;
  std::vector<Stream> streams_;
  FlatMap32 stream_index_;                             // StreamKey -> index into streams_
  std::vector<std::pair<int, uint32_t>> last_stream_;  // [dst * 32 + color]: (src, stream)
  std::vector<Set> sets_;
  std::vector<int> set_pool_;
  std::vector<uint32_t> stream_lists_;
  std::vector<std::vector<LogEntry>> logs_;  // [dst * 32 + color]
  std::vector<int> scratch_;
  std::vector<PredictedFault> predicted_faults_;

  uint64_t offered_ = 0, injected_ = 0, expected_ = 0, delivered_ = 0, ok_ = 0;
  uint64_t reordered_ = 0, duplicated_ = 0, misrouted_ = 0, corrupted_ = 0, protocol_ = 0;
  uint64_t outstanding_ = 0;
  uint64_t latency_count_ = 0, latency_sum_ = 0, latency_max_ = 0;
  std::string first_error_;
};

// The first difference between two runs' delivery logs, in words ("" if they are identical):
// per destination and color, the sequence of (source, sequence number, control bit) and, with
// compare_cycles, the delivery cycles. With per_source, only the order within each source's
// deliveries counts (how the sources interleave at a destination, which depends on timing and
// arbitration, may differ). Of the differing (destination, color) logs, the one whose first
// difference happens earliest is named, with both sides' entries.
std::string CompareLogs(const Scoreboard& a, const Scoreboard& b, bool compare_cycles = false,
                        bool per_source = false);

}  // namespace tessera::noc
