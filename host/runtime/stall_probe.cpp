#include "runtime/stall_probe.h"

#include <algorithm>

#include "arch/arch.h"

namespace tessera::runtime {

StallProbe::StallProbe(machine::Machine& m, std::function<std::string()> pending)
    : m_(m), pending_(std::move(pending)) {
  window_ = std::max<uint64_t>(4096, 16ull * uint64_t(m.Width() + m.Height()));
  next_ = window_;
}

std::vector<uint32_t> StallProbe::Signature() {
  std::vector<uint32_t> s;
  const int n = m_.Width() * m_.Height();
  s.reserve(size_t(n) * 44 + 8);
  // CeStatus without Stall and StallColor, which change only when an instruction tries to issue.
  const uint32_t status_mask =
      ~(((1u << arch::CeStatus::kStallWidth) - 1) << arch::CeStatus::kStallLsb) &
      ~(((1u << arch::CeStatus::kStallColorWidth) - 1) << arch::CeStatus::kStallColorLsb);
  for (int i = 0; i < n; ++i) {
    const fabric::Coord pe = m_.Fabric().At(i);
    const uint64_t retired = m_.Retired(pe);
    s.push_back(uint32_t(retired));
    s.push_back(uint32_t(retired >> 32));
    s.push_back(
        m_.Read(pe, arch::PerfCount::Addr(static_cast<uint32_t>(arch::PerfEvent::kDsdElems))));
    s.push_back(m_.Read(pe, arch::CeStatus::kAddr) & status_mask);
    for (uint32_t c = 0; c < arch::CeColor::kCount; ++c)
      s.push_back(m_.Read(pe, arch::CeColor::Addr(c)));
    for (uint32_t k = 0; k < arch::RouterInCount::kCount; ++k)
      s.push_back(m_.Read(pe, arch::RouterInCount::Addr(k)));
  }
  const std::string p = pending_ ? pending_() : std::string();
  s.push_back(static_cast<uint32_t>(std::hash<std::string>()(p)));
  return s;
}

bool StallProbe::Stalled(uint64_t done) {
  if (done < next_) return false;
  next_ = done + window_;
  std::vector<uint32_t> now = Signature();
  const bool same = !last_.empty() && now == last_;
  last_ = std::move(now);
  return same;
}

}  // namespace tessera::runtime
