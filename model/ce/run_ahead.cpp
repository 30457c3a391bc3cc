// Running ahead (docs/performance.md, "Running ahead"): a compute engine whose task only computes
// runs the cycles the fabric guarantees quiet for it (RampPort::horizon) in the Tick of the first,
// instead of one Tick per cycle. A cycle runs ahead only if nothing in it can reach or hear the
// fabric: the engine sends, pops and returns nothing, reads and writes no register, cannot fault
// and keeps its task running. Such a cycle depends on nothing but the engine's own state, so it is
// the cycle the fabric would have stepped, computed earlier: PlainCycle is Cycle<false> with the
// steps that have nothing to do left out, and the scalar stage is the same code.
//
// A run that stops early (a fault elsewhere) stops before the horizon it gave; Rewind then takes
// the engine back: it restores what the run ahead could change and steps again up to the cycle
// the run ended, which gives the same state, since those cycles depend on nothing else.
#include <cstring>

#include "ce/ce.h"
#include "ce/exec_scalar.h"

namespace tessera::ce {

bool Ce::CreditsHome() const {
  for (uint8_t c : st_.out_credits)
    if (c != arch::kRampInDepth) return false;
  return true;
}

// The checks of Ce::ScalarStage and Ce::Execute that decide whether cycle c's issue faults,
// touches a register or the fabric, or ends the task, read without changing anything.
bool Ce::PlainIssue(uint64_t c, Decoded& d) const {
  const ScalarPipe& p = st_.pipe;
  d.n = nullptr;
  if (c < p.issue_at || p.std_pending) return true;  // nothing issues, or an std's second word
  uint32_t w;
  if (p.fetch_at == c) {  // ScalarStage fetches first
    if (st_.pc >= kSram) return false;
    std::memcpy(&w, &st_.sram[st_.pc], 4);
  } else {
    if (!p.ir_valid) return false;
    w = p.ir;
  }
  const arch::InsnInfo* n = isa::DecodeCached(w);
  if (!n) return false;
  d.n = n;
  d.f = isa::SplitFields(w);
  const isa::Fields& f = d.f;
  const auto& R = st_.gpr;
  switch (n->cls) {
    case arch::InsnClass::kAlu:
    case arch::InsnClass::kFp:  // no split step can hold the FMAC: no microthread is busy
      return true;
    case arch::InsnClass::kLoad:
    case arch::InsnClass::kStore: {
      const uint32_t ea = EffAddr(f, R[f.b]);
      const unsigned bytes = MemBytes(static_cast<arch::MemOp>(n->subop));
      return ea < arch::kMmioBase && ea % bytes == 0;  // SRAM, no fault
    }
    case arch::InsnClass::kBr:
      return !BranchTaken(static_cast<arch::BrOp>(n->subop), R[f.a], f.z ? 0 : R[f.b]) ||
             BranchTargetOk(RelTarget(st_.pc, f.imm));
    case arch::InsnClass::kJump:
      return JumpTargetOk(
          JumpTarget(static_cast<arch::JumpOp>(n->subop), st_.pc, f.imm, EffAddr(f, R[f.b])));
    case arch::InsnClass::kSys:
      return n->subop == static_cast<uint8_t>(arch::SysOp::kNop);
    default:  // task instructions, sends, descriptors, DSD operations
      return false;
  }
}

// Cycle<false> of a cycle that PlainState and PlainIssue allow, up to the arrivals (which the
// caller takes): no results are due (no microthread is busy), no credit is owed, the dispatcher
// has no control wavelet, the picker waits for the running task, and the issue writes at most a
// register, the SRAM and the pipeline.
void Ce::PlainCycle(uint64_t c, const Decoded& d) {
  Cyc& x = cyc_;  // what the scalar stage and CommitData read, as Cycle<false> would leave it
  x.c = c;
  x.running = true;
  x.split_second = false;
  x.write_port = false;
  x.ports = 0;
  x.fmac = false;
  x.fault = false;
  x.sram_w = false;
  x.dot_w = false;
  x.flags = 0;
  last_cycle_ = c;
  Count(arch::PerfEvent::kTaskCycles);
  ScalarFpDue();
  ScalarStage<false>(&d);
  if (x.sram_w && ahead_.open) {
    uint32_t old = 0;
    std::memcpy(&old, &st_.sram[x.sram_addr], x.sram_size);
    ahead_.sram.push_back({x.sram_addr, x.sram_size, old});
  }
  CommitData();
}

void Ce::RunAhead(uint64_t horizon) {
  if (!PlainState() || !CreditsHome()) return;
  Decoded d;
  for (uint64_t c = last_cycle_ + 1; c < horizon; ++c) {
    if (!PlainIssue(c, d)) return;
    if (!ahead_.open) {
      AheadLog& a = ahead_;
      a.open = true;
      a.from = last_cycle_;
      a.gpr = st_.gpr;
      a.pc = st_.pc;
      a.pipe = st_.pipe;
      a.perf = st_.perf;
      a.fp_flags = st_.fp_flags;
      a.retired = retired_;
      a.sram.clear();
    }
    PlainCycle(c, d);
  }
}

void Ce::Rewind(uint64_t cycle) {
  AheadLog& a = ahead_;
  if (!a.open || last_cycle_ <= cycle) return;
  a.open = false;
  for (auto it = a.sram.rbegin(); it != a.sram.rend(); ++it)
    std::memcpy(&st_.sram[it->addr], &it->old, it->size);
  st_.gpr = a.gpr;
  st_.pc = a.pc;
  st_.pipe = a.pipe;
  st_.perf = a.perf;
  st_.fp_flags = a.fp_flags;
  retired_ = a.retired;
  last_cycle_ = a.from;
  Decoded d;
  for (uint64_t c = a.from + 1; c <= cycle; ++c) {
    PlainIssue(c, d);  // true, as when these cycles ran ahead
    PlainCycle(c, d);
  }
}

}  // namespace tessera::ce
