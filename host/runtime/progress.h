// Progress of a long run on a terminal: cycles done, simulated cycles per second and elapsed
// time, redrawn on one stderr line at most four times a second. Quiet when stderr is not a
// terminal (logs and CI stay clean) or when not enabled.
#pragma once

#include <chrono>
#include <cstdint>

namespace tessera::runtime {

class Progress {
 public:
  explicit Progress(bool enabled);
  ~Progress() { Finish(); }
  void Update(uint64_t cycles);  // cycles done so far in this run
  void Finish();                 // clears the line

 private:
  using Clock = std::chrono::steady_clock;
  bool on_ = false, drawn_ = false;
  Clock::time_point start_, last_;
};

}  // namespace tessera::runtime
