#include "fabric/edge_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace tessera::fabric {

using L = arch::Link;
using C = arch::Credit;

EdgeStream::EdgeStream() { credits_.fill(static_cast<uint8_t>(arch::kLinkDepth)); }

void EdgeStream::Inject(uint32_t color, uint32_t data, bool ctrl) {
  if (color >= arch::kNumColors)
    throw std::invalid_argument(fmt::format("EdgeStream::Inject: color {} is not routable (0..{})",
                                            color, arch::kNumColors - 1));
  out_.push_back(MakeLink(ctrl, color, data));
}

std::vector<EdgeStream::Wavelet> EdgeStream::TakeReceived() {
  std::vector<Wavelet> out;
  out.swap(received_);
  return out;
}

void EdgeStream::SetConsumeLimit(uint32_t n, uint32_t cycles) {
  if (cycles == 0)
    throw std::invalid_argument("EdgeStream::SetConsumeLimit: the window must be 1 cycle or more");
  limit_n_ = n;
  limit_cycles_ = cycles;
}

bool EdgeStream::MayConsume(uint64_t cycle) const {
  if (hold_ || limit_n_ == 0) return false;
  if (limit_n_ == kUnlimited) return true;
  const uint64_t w = cycle / limit_cycles_;
  return (w == window_ ? consumed_ : 0) < limit_n_;
}

void EdgeStream::ProtocolError(uint64_t cycle, const std::string& what) {
  if (protocol_errors_++ == 0) first_error_ = fmt::format("cycle {}: {}", cycle, what);
}

void EdgeStream::Tick(uint64_t cycle, RampPort& port) {
  now_ = cycle;
  ticked_ = true;
  port.to_router = 0;
  port.credit_to_router = 0;

  if (C::Valid(port.credit_from_router)) {
    const uint32_t c = static_cast<uint32_t>(C::Color(port.credit_from_router));
    if (c >= arch::kNumColors || credits_[c] >= arch::kLinkDepth) {
      ProtocolError(cycle, fmt::format("credit for color {} beyond the queue depth", c));
    } else {
      ++credits_[c];
    }
  }

  if (L::Valid(port.from_router)) {
    const uint64_t w = port.from_router;
    const uint32_t c = static_cast<uint32_t>(L::Color(w));
    received_.push_back({cycle, c, L::Ctrl(w) != 0, static_cast<uint32_t>(L::Data(w))});
    if (c >= arch::kNumColors) {
      ProtocolError(cycle, fmt::format("reserved color {} left the fabric", c));
    } else if (waiting_[c] >= arch::kLinkDepth) {
      ProtocolError(cycle, fmt::format("color {} arrived without a credit", c));
    } else {
      ++waiting_[c];
      in_.push_back(w);
    }
  }

  // Consume the oldest waiting wavelet: its credit goes back to the router.
  if (!in_.empty() && MayConsume(cycle)) {
    const uint32_t c = static_cast<uint32_t>(L::Color(in_.front()));
    in_.pop_front();
    --waiting_[c];
    port.credit_to_router = MakeCredit(c);
    const uint64_t w = cycle / limit_cycles_;
    consumed_ = (w == window_ ? consumed_ : 0) + 1;
    window_ = w;
  }

  // Send the head of the injection FIFO when its color holds a credit.
  if (!out_.empty()) {
    const uint32_t c = static_cast<uint32_t>(L::Color(out_.front()));
    if (credits_[c] > 0) {
      --credits_[c];
      port.to_router = out_.front();
      out_.pop_front();
      sent_.push_back(cycle);
    }
  }
}

uint64_t EdgeStream::NextWake() const {
  const uint64_t next = ticked_ ? now_ + 1 : 0;
  uint64_t wake = kNever;
  // A head without a credit waits for credit_from_router, which ticks the stream anyway.
  if (!out_.empty() && credits_[L::Color(out_.front())] > 0) wake = next;
  if (!in_.empty() && !hold_ && limit_n_ != 0) {
    const uint64_t consume = MayConsume(next) ? next : (next / limit_cycles_ + 1) * limit_cycles_;
    wake = std::min(wake, consume);
  }
  return wake;
}

uint32_t EdgeStream::PendingColor() const {
  return out_.empty() ? 0 : static_cast<uint32_t>(arch::Link::Color(out_.front()));
}

}  // namespace tessera::fabric
