#include "runtime/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace tessera::runtime {

Progress::Progress(bool enabled) : on_(enabled && isatty(STDERR_FILENO)) {
  start_ = last_ = Clock::now();
}

void Progress::Update(uint64_t cycles) {
  if (!on_) return;
  const Clock::time_point now = Clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  const double s = std::chrono::duration<double>(now - start_).count();
  const double rate = s > 0 ? static_cast<double>(cycles) / s : 0.0;
  std::fprintf(stderr, "\r\033[K  %llu cycles | %s cycles/s | %.1f s",
               static_cast<unsigned long long>(cycles),
               rate >= 1e6   ? fmt::format("{:.2f}M", rate / 1e6).c_str()
               : rate >= 1e3 ? fmt::format("{:.1f}k", rate / 1e3).c_str()
                             : fmt::format("{:.0f}", rate).c_str(),
               s);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Finish() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace tessera::runtime
