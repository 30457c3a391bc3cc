// The RTL fabric's host port as a TLM-2.0 target (model/rtl/sc_host_port.h), driven by an
// initiator socket as a SystemC virtual platform would: back-door and timed accesses reach the
// PE's SRAM and registers, and malformed transactions come back with TLM error responses.
// SystemC elaborates once per process, so this binary holds exactly one fabric.
#include <gtest/gtest.h>

#include <cstring>

// clang-format off
#include "verilated.h"
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
// clang-format on

#include "arch/arch.h"
#include "rtl/rtl_fabric.h"
#include "rtl/sc_host_port.h"

namespace tessera::rtl {
namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  explicit Initiator(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {}
};

struct Platform {
  Platform() {
    RtlFabricOptions o;
    o.width = 2;
    o.height = 1;
    o.ce = true;
    fab = MakeScRtlFabric(o);
    target = std::make_unique<HostPortTarget>("host_port", *fab);
    init = std::make_unique<Initiator>("cpu");
    init->socket.bind(target->socket);
  }
  // Returns the response; `delay` receives b_transport's annotation.
  tlm::tlm_response_status Do(bool write, uint64_t addr, uint32_t* words, unsigned len, bool timed,
                              sc_core::sc_time* delay = nullptr,
                              unsigned char* byte_enable = nullptr) {
    tlm::tlm_generic_payload p;
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(addr);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(words));
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_byte_enable_ptr(byte_enable);
    if (byte_enable) p.set_byte_enable_length(len);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    if (timed)
      init->socket->b_transport(p, d);
    else
      init->socket->transport_dbg(p);
    if (delay) *delay = d;
    return p.get_response_status();
  }
  std::unique_ptr<RtlFabric> fab;
  std::unique_ptr<HostPortTarget> target;
  std::unique_ptr<Initiator> init;
};

Platform& P() {
  static Platform p;
  return p;
}

TEST(HostPortTlm, BackDoorAndTimedAccessesReachThePe) {
  Platform& p = P();
  const uint64_t pe1 = HostPortTarget::Address(*p.fab, {1, 0}, 0x0100);
  uint32_t w[3] = {0x11111111, 0x22222222, 0x33333333};
  EXPECT_EQ(p.Do(true, pe1, w, 12, false), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(p.fab->ReadReg({1, 0}, 0x0104), 0x22222222u);
  EXPECT_EQ(p.fab->ReadReg({0, 0}, 0x0104), 0u) << "PE(0,0) must not be disturbed";
  sc_core::sc_time delay;
  uint32_t r[3] = {};
  EXPECT_EQ(p.Do(false, pe1, r, 12, true, &delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r[2], 0x33333333u);
  EXPECT_EQ(delay, sc_core::sc_time(3, sc_core::SC_NS)) << "one cycle per word";
  EXPECT_EQ(p.target->words(), 3u);
  // A register: the PE's coordinates.
  uint32_t coord = 0;
  EXPECT_EQ(
      p.Do(false, HostPortTarget::Address(*p.fab, {1, 0}, arch::PeCoord::kAddr), &coord, 4, false),
      tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(coord, 1u);
}

TEST(HostPortTlm, MalformedTransactionsGetErrorResponses) {
  Platform& p = P();
  uint32_t w[2] = {};
  EXPECT_EQ(p.Do(true, uint64_t{2} << 16, w, 4, false), tlm::TLM_ADDRESS_ERROR_RESPONSE)
      << "PE index 2 is outside a 2x1 fabric";
  EXPECT_EQ(p.Do(true, 0xFFFC, w, 8, false), tlm::TLM_ADDRESS_ERROR_RESPONSE)
      << "crosses the end of a PE's space";
  EXPECT_EQ(p.Do(true, 0x0102, w, 4, false), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(p.Do(true, 0x0100, w, 6, false), tlm::TLM_BURST_ERROR_RESPONSE);
  unsigned char be[4] = {0xFF, 0, 0xFF, 0};
  EXPECT_EQ(p.Do(true, 0x0100, w, 4, false, nullptr, be), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
}

}  // namespace
}  // namespace tessera::rtl
