// A scripted CE-side endpoint for directed tests: sends given wavelets no earlier than given
// cycles (per color in order, as credits allow), records every wavelet it receives with its
// cycle, and can refuse a color (hold it without returning credits) to create back pressure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "arch/arch.h"
#include "fabric/ramp_port.h"

namespace tessera::tb {

class ScriptEndpoint final : public fabric::RampEndpoint {
 public:
  struct Received {
    uint64_t cycle;
    uint64_t link;  // arch::Link word
  };

  ScriptEndpoint();
  // Queues a wavelet to send at `cycle` or later. Colors over 23 go out as they are (the router
  // must report them); they use no credit.
  void Send(uint64_t cycle, bool ctrl, uint32_t color, uint32_t data);
  // While blocked, wavelets of `color` are held and their credits are not returned.
  void Block(uint32_t color, bool blocked);

  void Tick(uint64_t cycle, fabric::RampPort& port) override;
  uint64_t NextWake() const override;

  const std::vector<Received>& received() const { return received_; }
  const std::vector<uint64_t>& sent_cycles() const { return sent_cycles_; }
  size_t pending() const { return pending_; }

 private:
  struct Item {
    uint64_t cycle;
    uint64_t link;
  };
  std::vector<std::deque<Item>> out_;  // per color 0..31
  std::vector<int> credits_;           // per color: free slots in the router's RAMP queue
  std::vector<bool> blocked_;
  std::vector<int> held_;  // per color: wavelets held while blocked
  std::vector<Received> received_;
  std::vector<uint64_t> sent_cycles_;
  size_t pending_ = 0;
  uint32_t next_color_ = 0;  // round robin among colors ready to send
  uint64_t now_ = 0;
};

}  // namespace tessera::tb
