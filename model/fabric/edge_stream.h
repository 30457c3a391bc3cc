// The host's stream on one edge port (Fabric::SetEdgeEndpoint): wavelets the host injects into
// the fabric through that port, and the wavelets that leave the fabric through it.
//
// Injection: Inject queues a wavelet. Queued wavelets enter the router in FIFO order (the head
// waits for its color's credit and holds back the rest), at most one per cycle. The stream starts
// with arch::kLinkDepth credits per color, what a neighbouring router would hold toward that
// input queue, and gets one back per credit_from_router.
//
// Reception: every wavelet the router sends out through the port is recorded (Received) in the
// cycle it arrives, and waits in the stream until it is consumed. Consuming one returns its
// credit to the router (credit_to_router, at most one per cycle), oldest first. By default every
// wavelet is consumed in the cycle it arrives; SetConsumeLimit slows or stops consumption so that
// tests can create back pressure: wavelets not yet consumed hold the router's credits, and at most
// kLinkDepth per color can wait in the stream.
//
// The stream acts on its own only to send and to consume; NextWake says when, so the
// event-driven functional model may skip the cycles between.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "fabric/ramp_port.h"

namespace tessera::fabric {

class EdgeStream final : public RampEndpoint {
 public:
  struct Wavelet {
    uint64_t cycle = 0;  // Received: the cycle it reached the stream (its Tick)
    uint32_t color = 0;
    bool ctrl = false;
    uint32_t data = 0;
    bool operator==(const Wavelet& o) const {
      return cycle == o.cycle && color == o.color && ctrl == o.ctrl && data == o.data;
    }
  };
  static constexpr uint32_t kUnlimited = ~0u;

  EdgeStream();

  // Queues a wavelet for injection. Colors over 23 throw std::invalid_argument.
  void Inject(uint32_t color, uint32_t data, bool ctrl = false);

  // Every wavelet that left the fabric through the port, in order of arrival.
  const std::vector<Wavelet>& Received() const { return received_; }
  std::vector<Wavelet> TakeReceived();

  // Consume at most `n` wavelets in every window of `cycles` cycles (windows are aligned to
  // cycle 0: [0, cycles), [cycles, 2 cycles), ...). kUnlimited (the default): each wavelet is
  // consumed in the cycle it arrives. A port returns at most one credit per cycle, so n >= cycles
  // is unlimited. n = 0 stops consuming. cycles = 0 throws std::invalid_argument.
  void SetConsumeLimit(uint32_t n, uint32_t cycles = 1);
  // Stops consuming (true) or resumes under the consume limit (false): for back-pressure tests.
  void Hold(bool hold) { hold_ = hold; }

  size_t Pending() const { return out_.size(); }  // injected, not yet sent into the router
  // The color of the first wavelet not yet sent (Pending() > 0): the one waiting for a credit.
  uint32_t PendingColor() const;
  // The cycle each injected wavelet was sent (its Tick), in order of injection.
  const std::vector<uint64_t>& SentCycles() const { return sent_; }
  size_t Holding() const { return in_.size(); }  // received, not yet consumed
  // Credits toward the router's input queue of `color` (0..kLinkDepth).
  uint32_t Credits(uint32_t color) const { return credits_.at(color); }
  // Violations of the port protocol seen (a wavelet beyond the credits the router holds, a
  // credit beyond the queue depth, a reserved color); the first in words.
  uint64_t ProtocolErrors() const { return protocol_errors_; }
  const std::string& FirstProtocolError() const { return first_error_; }

  void Tick(uint64_t cycle, RampPort& port) override;
  uint64_t NextWake() const override;
  bool Quiet() const override { return out_.empty() && in_.empty(); }
  // Nothing to send, and nothing it will consume (consumption stopped, SetConsumeLimit or Hold).
  bool Settled() const override { return out_.empty() && (in_.empty() || hold_ || limit_n_ == 0); }

 private:
  bool MayConsume(uint64_t cycle) const;
  void ProtocolError(uint64_t cycle, const std::string& what);

  std::deque<uint64_t> out_;  // arch::Link words to send
  std::deque<uint64_t> in_;   // arch::Link words received, not consumed
  std::array<uint8_t, arch::kNumColors> credits_{};
  std::array<uint8_t, arch::kNumColors> waiting_{};  // per color: in in_
  std::vector<Wavelet> received_;
  std::vector<uint64_t> sent_;
  uint32_t limit_n_ = kUnlimited, limit_cycles_ = 1;
  uint64_t window_ = 0;    // the consume window of the last consumption
  uint32_t consumed_ = 0;  // consumed in that window
  bool hold_ = false;
  bool ticked_ = false;
  uint64_t now_ = 0;  // the cycle of the last Tick
  uint64_t protocol_errors_ = 0;
  std::string first_error_;
};

}  // namespace tessera::fabric
