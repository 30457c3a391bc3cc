// Architectural and micro-architectural state of one router in the functional model: the same
// state the RTL router holds (per-color input queues, output credits, routing registers,
// round-robin pointers, fault register), as plain data. The engine that steps it is FuncFabric.
#pragma once

#include <array>
#include <cstdint>

#include "arch/arch.h"
#include "func/route_semantics.h"

namespace tessera::func {

inline constexpr int kDirs = arch::kNumDirs;
inline constexpr int kColors = arch::kNumColors;
inline constexpr int kRampDir = static_cast<int>(arch::Dir::kRamp);
inline constexpr int kMaxDepth =
    arch::kRampInDepth > arch::kLinkDepth ? arch::kRampInDepth : arch::kLinkDepth;

inline constexpr int QueueDepth(int dir) {
  return dir == kRampDir ? static_cast<int>(arch::kRampInDepth)
                         : static_cast<int>(arch::kLinkDepth);
}
inline constexpr int CreditInit(int dir) {
  return dir == kRampDir ? static_cast<int>(arch::kRampOutCredits)
                         : static_cast<int>(arch::kLinkDepth);
}

// One queued wavelet: data in bits 31:0, ctrl in bit 32.
using Payload = uint64_t;

struct RouterState {
  // Input queues, per direction per color: a ring of QueueDepth(dir) payloads.
  std::array<std::array<std::array<Payload, kMaxDepth>, kColors>, kDirs> buf{};
  std::array<std::array<uint8_t, kColors>, kDirs> head{}, count{};
  std::array<uint32_t, kDirs> nonempty{};  // per direction: colors with something stored

  // Output credits toward the downstream queues.
  std::array<std::array<uint8_t, kColors>, kDirs> credit{};
  std::array<uint32_t, kDirs> credit_ok{};  // per direction: colors with a credit

  // Routing registers and what they imply.
  std::array<uint32_t, kColors> color_cfg{}, switch_cfg{};
  std::array<Route, kColors> route{};
  std::array<uint32_t, kDirs> tx_has{}, rx_has{};  // per direction: colors whose route has it
  uint32_t has_route = 0, tied_hit = 0;

  std::array<uint8_t, kDirs> rr_ptr{};
  uint8_t prio = 0;        // input visited first; then the one after the first winner
  uint8_t tied = 0;        // edge directions tied off (bit per direction)
  uint32_t fault_reg = 0;  // arch::RouterFault
  bool queued = false;     // any queue non-empty

  void Reset();
  // Recomputes a color's route and the per-direction masks after its registers changed.
  void UpdateRoute(int color);
};

}  // namespace tessera::func
