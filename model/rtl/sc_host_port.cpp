#include "rtl/sc_host_port.h"

#include <cstring>

namespace tessera::rtl {

HostPortTarget::HostPortTarget(sc_core::sc_module_name name, fabric::Fabric& fab)
    : sc_core::sc_module(name), socket("socket"), fab_(fab) {
  socket.register_b_transport(this, &HostPortTarget::BTransport);
  socket.register_transport_dbg(this, &HostPortTarget::TransportDbg);
}

unsigned HostPortTarget::Access(tlm::tlm_generic_payload& p) {
  const uint64_t a = p.get_address();
  const unsigned len = p.get_data_length();
  if (p.get_byte_enable_ptr() != nullptr) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return 0;
  }
  if (len == 0 || len % 4 != 0 || a % 4 != 0 ||
      (p.get_streaming_width() != 0 && p.get_streaming_width() < len)) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return 0;
  }
  const uint64_t pe_index = a >> 16;
  const uint32_t local = static_cast<uint32_t>(a & 0xFFFF);
  if (pe_index >= static_cast<uint64_t>(fab_.NumPes()) || local + len > 0x10000) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  const fabric::Coord pe = fab_.At(static_cast<int>(pe_index));
  unsigned char* data = p.get_data_ptr();
  for (unsigned w = 0; w < len / 4; ++w) {
    const auto addr = static_cast<uint16_t>(local + 4 * w);
    uint32_t v = 0;
    if (p.is_write()) {
      std::memcpy(&v, data + 4 * w, 4);
      fab_.WriteReg(pe, addr, v);
    } else if (p.is_read()) {
      v = fab_.ReadReg(pe, addr);
      std::memcpy(data + 4 * w, &v, 4);
    }
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  return len / 4;
}

void HostPortTarget::BTransport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const unsigned words = Access(p);
  words_ += words;
  delay += sc_core::sc_time(static_cast<double>(words), sc_core::SC_NS);
}

unsigned HostPortTarget::TransportDbg(tlm::tlm_generic_payload& p) { return 4 * Access(p); }

}  // namespace tessera::rtl
