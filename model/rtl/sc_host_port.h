// The host port of an RTL fabric as a TLM-2.0 target, so the fabric drops into a SystemC virtual
// platform: bind an initiator socket to `socket`. The module only translates transactions into
// the fabric's register back door; it has no behaviour of its own (docs/runtime.md, "TLM").
//
// Address map (64-bit): bits 63:16 the PE index y * W + x, bits 15:0 the address in that PE (SRAM
// below 0xC000, memory-mapped registers above, docs/isa.md 3.2). Data: 4-byte words, little
// endian, word aligned; a transaction of n words covers n consecutive words of one PE.
//   - b_transport: a timed access through the host port, made between two cycles while the
//     fabric is paused; it adds one cycle (1 ns) per word to the delay, which the initiator owes
//     the simulation (the host port serves one word per tile per cycle).
//   - transport_dbg: the zero-time back door (loading, reading results with the fabric stopped).
// Errors come back as TLM response statuses: an address outside the fabric or a transaction
// crossing a PE's address space is TLM_ADDRESS_ERROR_RESPONSE; a length or address that is not
// whole aligned words is TLM_BURST_ERROR_RESPONSE; byte enables are TLM_BYTE_ENABLE_ERROR_RESPONSE.
#pragma once

#include <cstdint>

// clang-format off
#include "verilated.h"
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
// clang-format on

#include "fabric/fabric.h"

namespace tessera::rtl {

class HostPortTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<HostPortTarget> socket;

  // `fab` (not owned) is the fabric the port reaches.
  HostPortTarget(sc_core::sc_module_name name, fabric::Fabric& fab);

  static uint64_t Address(const fabric::Fabric& fab, fabric::Coord pe, uint16_t addr) {
    return (static_cast<uint64_t>(fab.Index(pe)) << 16) | addr;
  }
  uint64_t words() const { return words_; }  // words moved through b_transport so far

 private:
  void BTransport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& p);
  // Performs the access; returns the words moved, 0 with the response status set on error.
  unsigned Access(tlm::tlm_generic_payload& p);

  fabric::Fabric& fab_;
  uint64_t words_ = 0;
};

}  // namespace tessera::rtl
