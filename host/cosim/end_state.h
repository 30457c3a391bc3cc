// The state two machines are left in once a run has ended, compared bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cosim/difference.h"
#include "fabric/fabric.h"
#include "machine/machine.h"

namespace tessera::cosim {

// The state of one PE that co-simulation compares once a run has ended: every register word that
// model/arch/tessera.def does not mark no-cosim (ce::ComparedRegs, in that order) and all of
// SRAM.
struct RegWord {
  std::string name;
  uint16_t addr = 0;
  uint32_t value = 0;
};
struct EndState {
  std::vector<RegWord> regs;
  std::vector<uint8_t> sram;  // arch::kSramBytes
};

// Through the machine (ReadSram: the RTL's fast path where it has one).
EndState CaptureEndState(machine::Machine& m, fabric::Coord pe);
// Through a read of the host's back door (a bare ce::Ce in the CE tests: its HostRead).
EndState CaptureEndState(const std::function<uint32_t(uint16_t)>& read);

// Differing registers ("Name": 0x%08x each), then up to `max_words` differing SRAM words
// ("M[0x%04x]"), then "and N more SRAM words".
std::vector<Difference> CompareEndStates(const EndState& a, const EndState& b, int max_words = 8);

// Every PE in index order: the instructions it issued, every register word that
// model/arch/tessera.def does not mark no-cosim (ce::ComparedRegs), then all SRAM. The first
// difference in words ("cosim: final state of PE(x,y) differs at cycle C: NAME (0xADDR) is ...
// on a but ... on b"); "" if none.
std::string CompareState(machine::Machine& a, machine::Machine& b);

}  // namespace tessera::cosim
