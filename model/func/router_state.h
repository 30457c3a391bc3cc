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

// Queue storage is one flat array: per direction, per color, QueueDepth(dir) slots.
inline constexpr int QueueBase(int dir) {
  return dir * kColors * static_cast<int>(arch::kLinkDepth);
}
inline constexpr int kQueueSlots = QueueBase(kRampDir) + kColors * QueueDepth(kRampDir);
inline constexpr int QueueSlot(int dir, int color, int slot) {
  return QueueBase(dir) + color * QueueDepth(dir) + slot;
}

struct RouterState {
  // Hot state first (what every step reads), the queue storage last.
  std::array<uint32_t, kDirs> nonempty{};          // per direction: colors with something stored
  std::array<uint32_t, kDirs> credit_ok{};         // per direction: colors with a credit
  std::array<uint32_t, kDirs> tx_has{}, rx_has{};  // per direction: colors whose route has it
  std::array<uint32_t, kDirs> rx_any{};  // per direction: colors some switch position accepts
  uint32_t has_route = 0, tied_hit = 0;
  uint32_t swap_x = 0;  // colors with ColorCfg.SwapX: they leave W and E as color ^ 1
  std::array<Route, kColors> route{};
  std::array<uint8_t, kDirs> rr_ptr{};
  uint8_t prio = 0;     // input visited first; then the one after the first winner
  uint8_t tied = 0;     // edge directions tied off (bit per direction)
  uint8_t edge = 0;     // directions that face off the fabric (bit per direction)
  bool queued = false;  // any queue non-empty
  // Something that could let a queued wavelet move happened since the router last stepped (an
  // arrival, a credit, a register write). A router whose last step moved nothing and that is not
  // dirty would move nothing again: the model skips it.
  bool dirty = true;
  uint32_t fault_reg = 0;  // arch::RouterFault
  // Per output direction, the colors back pressure held up in the router's last step (a wavelet
  // waiting at an input, routed there, no credit): Fabric::SetBackPressureCount. A router skipped
  // because nothing changed would compute the same masks again.
  std::array<uint32_t, kDirs> blocked{};

  // Output credits toward the downstream queues.
  std::array<std::array<uint8_t, kColors>, kDirs> credit{};
  // Input queues, per direction per color: a ring of QueueDepth(dir) payloads.
  std::array<std::array<uint8_t, kColors>, kDirs> head{}, count{};

  // Routing registers.
  std::array<uint32_t, kColors> color_cfg{}, switch_cfg{}, filter_range{}, filter_count{};

  // kQueueSlots payloads (see QueueSlot()) the state does not own: the fabric's util::LazyArena,
  // where the queues of a router that never held a wavelet cost no host memory.
  Payload* buf = nullptr;

  // Back to reset; the queue storage stays where it is (the counts say what it holds).
  void Reset();
  // Recomputes a color's route and the per-direction masks after its registers changed.
  void UpdateRoute(int color);
};

}  // namespace tessera::func
