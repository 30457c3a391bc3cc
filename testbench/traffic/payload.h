// The payload of every wavelet `tessera noc` generates: the source PE's index in the top
// 12 bits and a per-source sequence number in the low 20, so that a sink can name the wavelet it
// received. Hence the 4096-PE limit of the traffic patterns; sequence numbers wrap at 2^20 and the
// scoreboard restores the full number from the wavelets its source has injected so far.
#pragma once

#include <cstdint>

namespace tessera::noc {

inline constexpr int kMaxTrafficPes = 1 << 12;
inline constexpr uint32_t kPayloadSeqBits = 20;
inline constexpr uint32_t kPayloadSeqMask = (1u << kPayloadSeqBits) - 1;

inline constexpr uint32_t MakePayload(int src, uint32_t seq) {
  return (static_cast<uint32_t>(src) & 0xFFFu) << kPayloadSeqBits | (seq & kPayloadSeqMask);
}
inline constexpr int PayloadSrc(uint32_t data) { return static_cast<int>(data >> kPayloadSeqBits); }
inline constexpr uint32_t PayloadSeq(uint32_t data) { return data & kPayloadSeqMask; }

}  // namespace tessera::noc
