// Running ahead (docs/performance.md, "Running ahead"): a compute engine whose task only computes
// runs the cycles the fabric guarantees quiet for it (RampPort::horizon) in the Tick of the first,
// instead of one Tick per cycle. A cycle runs ahead only if nothing in it can reach or hear the
// fabric: the engine sends, pops and returns nothing, reads and writes no register, cannot fault
// and keeps its task running; its microthreads, if any, work on memory only. Such a cycle depends
// on nothing but the engine's own state, so it is the cycle the fabric would have stepped,
// computed earlier: Cycle<false> itself when microthreads are busy, else PlainCycle, which is
// Cycle<false> with the steps that have nothing to do left out (the scalar stage is the same
// code).
//
// A run that stops early (a fault elsewhere) stops before the horizon it gave; Rewind then takes
// the engine back: it restores what the run ahead could change and steps again up to the cycle
// the run ended, which gives the same state, since those cycles depend on nothing else.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "ce/ce.h"
#include "ce/dsd.h"
#include "ce/exec_scalar.h"

namespace tessera::ce {

bool Ce::CreditsHome() const {
  static constexpr auto kHome = [] {
    std::array<uint8_t, kColors> h{};
    for (uint8_t& c : h) c = static_cast<uint8_t>(arch::kRampInDepth);
    return h;
  }();
  return std::memcmp(st_.out_credits.data(), kHome.data(), kColors) == 0;
}

bool Ce::CanRunAhead() const {
  for (uint8_t b = st_.busy; b; b &= b - 1) {
    const Microthread& m = st_.ut[__builtin_ctz(b)];
    // Only mem1d operands (no fabric, no mem4d), every element in SRAM (an element step cannot
    // fault): Microthread::mem1d, found at issue.
    if (!m.mem1d) return false;
    if (m.tid != kNoTask) return false;  // its completion would change the task masks
  }
  return !st_.fault_status && st_.running && !st_.owed_mask && !st_.head_ctrl && CreditsHome();
}

// The checks of Ce::ScalarStage and Ce::Execute that decide whether cycle c's issue faults,
// touches a register or the fabric, or ends the task, read without changing anything.
bool Ce::PlainIssue(uint64_t c, const Decoded*& d) const { return PlainIssueInline(c, d); }

// The body of PlainIssue, inlined into the loop that runs ahead.
__attribute__((always_inline)) inline bool Ce::PlainIssueInline(uint64_t c,
                                                                const Decoded*& d) const {
  const ScalarPipe& p = st_.pipe;
  d = nullptr;
  if (c < p.issue_at || p.std_pending) return true;  // nothing issues, or an std's second word
  if (p.sync_ut >= 0 && (st_.busy >> p.sync_ut & 1)) return true;  // waits for a microthread
  uint32_t w;
  if (p.fetch_at == c) {  // ScalarStage fetches first
    if (st_.pc >= kSram) return false;
    std::memcpy(&w, &st_.sram[st_.pc], 4);
  } else {
    if (!p.ir_valid) return false;
    w = p.ir;
  }
  d = DecodeAtPc(w);
  if (!d) return false;
  const arch::InsnInfo* n = d->n;
  const isa::Fields& f = d->f;
  const auto& R = st_.gpr;
  switch (n->cls) {
    case arch::InsnClass::kAlu:
    case arch::InsnClass::kFp:  // or it stalls, while a split step holds the FMAC
      return true;
    case arch::InsnClass::kLoad:
    case arch::InsnClass::kStore: {
      const uint32_t ea = EffAddr(f, R[f.b]);
      const unsigned bytes = MemBytes(static_cast<arch::MemOp>(n->subop));
      return PlainSramAccess(ea, bytes);  // no fault (or a stall for a port)
    }
    case arch::InsnClass::kBr:
      return !BranchTaken(static_cast<arch::BrOp>(n->subop), R[f.a], f.z ? 0 : R[f.b]) ||
             BranchTargetOk(RelTarget(st_.pc, f.imm));
    case arch::InsnClass::kJump:
      return JumpTargetOk(
          JumpTarget(static_cast<arch::JumpOp>(n->subop), st_.pc, f.imm, EffAddr(f, R[f.b])));
    case arch::InsnClass::kSys:  // nop; utwait issues or stalls
      return n->subop == static_cast<uint8_t>(arch::SysOp::kNop) ||
             n->subop == static_cast<uint8_t>(arch::SysOp::kUtWait);
    case arch::InsnClass::kDsd:  // only a stall: its microthread is busy
      return st_.busy >> f.ut & 1;
    default:  // task instructions, sends, descriptors
      return false;
  }
}

void Ce::PlainCycle(uint64_t c, const Decoded* d) {
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
  if (ScalarIssues()) {  // ScalarStage<false>, with the instruction PlainIssue decoded
    if (!d) throw std::logic_error("Ce::PlainCycle: an issue PlainIssue did not decode");
    Execute<false>(*d->n, d->f);
  }
  CommitData();
}

uint64_t Ce::PlainWait(uint64_t c, uint64_t stop) {
  Cyc& x = cyc_;  // what ScalarFpDue, FetchDue and CommitData read
  x.sram_w = false;
  x.dot_w = false;
  Count(arch::PerfEvent::kTaskCycles, static_cast<uint32_t>(stop - c));
  for (; c < stop; ++c) {
    x.c = c;
    x.flags = 0;
    ScalarFpDue();
    FetchDue();
    CommitData();
  }
  last_cycle_ = stop - 1;
  return stop;
}

uint64_t Ce::PlainRun(uint64_t c, uint64_t stop) {
  ScalarPipe& p = st_.pipe;
  auto& R = st_.gpr;
  const uint64_t first = c;
  uint32_t insns = 0;
  // Each pass issues the instruction at pc in cycle c (issue_at): an instruction that would
  // wait, fault, stall, touch a register, the fabric or the FMAC, or end the task is left to
  // PlainIssue and PlainCycle, as is a pipeline with anything pending. What these instructions
  // leave pending (the fetch of a jump's target) is done in the loop.
  if (c != p.issue_at || p.fetch_at != kNoCycle || p.fp_pending || p.std_pending || p.sync_ut >= 0)
    return c;
  while (c < stop && p.ir_valid) {
    const Decoded* e = DecodeAtPc(p.ir);
    if (!e) break;
    const arch::InsnInfo& n = *e->n;
    const isa::Fields& f = e->f;
    const uint32_t bv = f.z ? 0 : R[f.b];
    const uint32_t ea = EffAddr(f, R[f.b]);
    switch (n.cls) {
      case arch::InsnClass::kAlu:
        R[f.a] = AluExec(static_cast<arch::AluOp>(n.subop), bv, AluRhs(n, f, R[f.c]));
        IssueNext(c);
        break;
      case arch::InsnClass::kLoad: {
        const auto op = static_cast<arch::MemOp>(n.subop);
        const unsigned bytes = MemBytes(op);
        if (!PlainSramAccess(ea, bytes)) goto out;
        R[f.a] = LoadExtend(op, ReadRaw(st_.sram, ea, bytes));
        IssueNext(c);
        break;
      }
      case arch::InsnClass::kStore: {
        const unsigned bytes = MemBytes(static_cast<arch::MemOp>(n.subop));
        if (!PlainSramAccess(ea, bytes)) goto out;
        // At the end of the cycle (CommitData): nothing else in it reads the SRAM.
        WriteSram(static_cast<uint16_t>(ea), static_cast<uint8_t>(bytes),
                  StoreValue(R[f.a], bytes));
        IssueNext(c);
        break;
      }
      case arch::InsnClass::kBr: {
        if (!BranchTaken(static_cast<arch::BrOp>(n.subop), R[f.a], bv)) {
          IssueNext(c);
          break;
        }
        const int64_t target = RelTarget(st_.pc, f.imm);
        if (!BranchTargetOk(target)) goto out;
        IssueJump(c, static_cast<uint32_t>(target));
        break;
      }
      case arch::InsnClass::kJump: {
        const auto op = static_cast<arch::JumpOp>(n.subop);
        const int64_t target = JumpTarget(op, st_.pc, f.imm, ea);
        if (!JumpTargetOk(target)) goto out;
        if (op == arch::JumpOp::kJal || op == arch::JumpOp::kJalr) R[f.a] = st_.pc + 4u;
        IssueJump(c, static_cast<uint32_t>(target));
        break;
      }
      case arch::InsnClass::kFp:  // the FMAC is the scalar pipeline's: no microthread is busy
        IssueScalarFp(c, n, f);
        ++insns;
        ++c;
        goto out;                  // nothing issues before its result is due (PlainWait)
      case arch::InsnClass::kSys:  // utwait issues: no microthread is busy
        if (n.subop != static_cast<uint8_t>(arch::SysOp::kNop) &&
            n.subop != static_cast<uint8_t>(arch::SysOp::kUtWait))
          goto out;
        IssueNext(c);
        break;
      default:
        goto out;
    }
    ++insns;
    ++c;
    if (p.fetch_at == c) {  // a taken jump: the target's fetch in the next cycle
      if (c == stop) break;
      Fetch();
      p.fetch_at = kNoCycle;
      ++c;
    }
  }
out:
  if (c == first) return c;
  // What Execute and PlainCycle count per instruction and per cycle.
  p.stall = 0;
  p.stall_color = 0;
  retired_ += insns;
  Count(arch::PerfEvent::kInsns, insns);
  Count(arch::PerfEvent::kTaskCycles, static_cast<uint32_t>(c - first));
  last_cycle_ = c - 1;
  return c;
}

void Ce::AheadCycle(uint64_t c, const Decoded* d) {
  if (PlainState()) return PlainCycle(c, d);
  fabric::RampPort none;  // busy microthreads: the whole cycle model, with nothing arriving
  Cycle<false>(c, none);
  if (none.to_router || none.credit_to_router || Faulted())
    throw std::logic_error(fmt::format(
        "PE({},{}) cycle {}: a cycle run ahead reached the fabric or faulted", st_.x, st_.y, c));
}

void Ce::RunAhead(uint64_t horizon) {
  if (!CanRunAhead()) return;
  const Decoded* d;
  for (uint64_t c = last_cycle_ + 1; c < horizon;) {
    if (!PlainIssueInline(c, d)) return;
    if (!ahead_.open) {
      ahead_.open = true;
      ahead_.from = last_cycle_;
      ahead_.engine = st_.busy != 0;
      ahead_.sram.clear();
      ahead_.bytes.clear();
      CopyAheadState(true);
    }
    if (!st_.busy) {  // PlainState holds, as when the run ahead began
      if (c < st_.pipe.issue_at) {
        c = PlainWait(c, std::min(st_.pipe.issue_at, horizon));
      } else if (const uint64_t next = PlainRun(c, horizon); next != c) {
        c = next;
      } else {
        PlainCycle(c, d);
        ++c;
      }
      continue;
    }
    if (arch::CeStall stall; BulkState(c, stall)) {  // a run of DSD element steps (dsd_bulk.cpp)
      const uint64_t next = BulkSteps(c, horizon, stall);
      if (next != c) {
        c = next;
        continue;
      }
    }
    AheadCycle(c, d);
    ++c;
  }
}

// One list of what a run ahead can change, copied into the log or back from it.
void Ce::CopyAheadState(bool save) {
  AheadLog& a = ahead_;
  auto copy = [save](auto& logged, auto& live) {
    if (save) {
      logged = live;
    } else {
      live = logged;
    }
  };
  copy(a.gpr, st_.gpr);
  copy(a.pc, st_.pc);
  copy(a.pipe, st_.pipe);
  copy(a.perf, st_.perf);
  copy(a.fp_flags, st_.fp_flags);
  copy(a.retired, retired_);
  if (!a.engine) return;  // no microthread was busy: none started since
  copy(a.busy, st_.busy);
  if (!a.ut) a.ut = std::make_unique<std::array<Microthread, kUts>>();
  // Only busy microthreads change while running ahead (none issues): a.busy is the same mask
  // saving and restoring.
  for (uint8_t b = a.busy; b; b &= b - 1) {
    const int u = __builtin_ctz(b);
    copy((*a.ut)[u], st_.ut[u]);
  }
  copy(a.rr_ptr, st_.rr_ptr);
  copy(a.results, st_.results);
  copy(a.split, st_.split);
}

void Ce::Rewind(uint64_t cycle) {
  AheadLog& a = ahead_;
  if (!a.open || last_cycle_ <= cycle) return;
  a.open = false;
  for (auto it = a.sram.rbegin(); it != a.sram.rend(); ++it)
    std::memcpy(&st_.sram[it->addr],
                it->size <= 4 ? static_cast<const void*>(&it->old) : &a.bytes[it->old], it->size);
  CopyAheadState(false);
  last_cycle_ = a.from;
  const Decoded* d;
  for (uint64_t c = a.from + 1; c <= cycle; ++c) {
    PlainIssue(c, d);  // true, as when these cycles ran ahead
    AheadCycle(c, d);
  }
}

}  // namespace tessera::ce
