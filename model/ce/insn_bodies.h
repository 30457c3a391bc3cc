// One body per instruction class (docs/isa.md 4.5-4.11): the only place an instruction's
// behaviour is written. Every path through the engine's cycle (path.h) runs these bodies: the
// whole cycle model, traced or not (path_cycle.cpp), the plain path that runs a task alone in its
// engine many cycles at a time, and the probe that asks whether a cycle's issue would stay inside
// the engine (path_plain.cpp). The pure semantics (ALU results, addresses, checks) are the
// functions of exec_scalar.h; a body adds operand fetch, resources and timing.
//
// Each body decides, then acts. Deciding: faults (Fault), resources and waits (Stall), and on
// the plain paths what would reach beyond the engine (Issue::kLeave); nothing changes before the
// line `if constexpr (P::kProbe) return Issue::kDone;`, after which nothing can leave. Acting:
// registers (SetGpr, SetDsr), SRAM (StoreSram), the pipeline (Next, Jump) and, on the cycle path
// only, what Commit applies at the end of the cycle.
//
// Included by the drivers only (path_cycle.cpp, path_plain.cpp): the bodies are member templates
// of Ce, instantiated and inlined there.
#pragma once

#include "ce/ce.h"
#include "ce/exec_scalar.h"

namespace tessera::ce {

namespace body {

inline uint32_t MemInfo(unsigned bytes, bool write) {
  return MakeFaultInfo(arch::DsdRole::kNone, static_cast<arch::AccSize>(AccSizeOf(bytes)), write,
                       kNoUt, 0, 0);
}
inline uint32_t PlainInfo() {
  return MakeFaultInfo(arch::DsdRole::kNone, arch::AccSize::kByte, false, kNoUt, 0, 0);
}

}  // namespace body

// ---- Deciding ----------------------------------------------------------------------------------

template <class P>
Issue Ce::Fault(arch::CeFault cause, uint16_t pc, uint32_t addr, uint32_t info) {
  if constexpr (P::kPlain) {
    return Issue::kLeave;
  } else {
    RaiseFault<P::kTrace>(cause, pc, addr, info);
    return Issue::kFault;
  }
}

template <class P>
Issue Ce::Stall(P& path, arch::CeStall s, uint8_t waits) {
  if constexpr (P::kProbe) {
    path.stall = s;
    path.waits = waits;
    return Issue::kStall;
  } else if constexpr (P::kPlain) {
    return Issue::kLeave;  // a task alone in its engine never waits: the cycle model's case
  } else {
    StallOn(s);
    return Issue::kStall;
  }
}

// The SRAM read ports of a load of `bytes` at ea (ldd: two ports, 8 bytes); false while a split
// DSD step's second read holds them (the cycle path's resources; the plain paths have them all).
template <class P>
bool Ce::TakeReadPorts(uint32_t ea, unsigned bytes, uint8_t ports) {
  if constexpr (!P::kPlain) {
    Cyc& x = cyc_;
    if (x.split_second) return false;
    x.ports = ports;
    x.banks = BankMask(ea, bytes);
    x.row = Row(ea);
  }
  return true;
}

// The SRAM write port of this cycle; false if a DSD result took it.
template <class P>
bool Ce::TakeWritePort() {
  if constexpr (!P::kPlain) {
    if (cyc_.write_port) return false;
    cyc_.write_port = true;
  }
  return true;
}

// The FMAC slot of the next cycle; false if a split DSD step holds it.
template <class P>
bool Ce::TakeFmac() {
  if constexpr (!P::kPlain) {
    if (cyc_.split_second) return false;
    cyc_.fmac = true;
  }
  return true;
}

// ---- Acting ------------------------------------------------------------------------------------

template <class P>
void Ce::SetGpr(P& path, unsigned r, uint32_t v) {
  st_.gpr[r] = v;
  if constexpr (P::kTrace) path.rec.AddWrite(TraceWrite::Kind::kGpr, static_cast<uint16_t>(r), v);
}

template <class P>
void Ce::SetDsr(P& path, unsigned r, uint64_t v) {
  st_.dsr[r] = v;
  if constexpr (P::kTrace) path.rec.AddWrite(TraceWrite::Kind::kDsr, static_cast<uint16_t>(r), v);
}

// An SRAM store of `bytes` (whose write port the body took): at the end of the cycle on the
// cycle path, at once on the plain path; traced as the retiring instruction's write unless
// `untraced` (an std's second word, in the cycle after its retire).
template <class P>
void Ce::StoreSram(P& path, uint32_t ea, unsigned bytes, uint32_t v, bool untraced) {
  if constexpr (P::kPlain) {
    WriteSram(static_cast<uint16_t>(ea), static_cast<uint8_t>(bytes), v);
  } else {
    Cyc& x = cyc_;
    x.sram_w = true;
    x.sram_addr = static_cast<uint16_t>(ea);
    x.sram_size = static_cast<uint8_t>(bytes);
    x.sram_value = v;
  }
  if constexpr (P::kTrace) {
    if (!untraced)
      path.rec.AddWrite(TraceWrite::Kind::kMem, static_cast<uint16_t>(ea), v,
                        static_cast<uint8_t>(bytes));
  }
}

// ---- The bodies --------------------------------------------------------------------------------

template <class P>
Issue Ce::AluBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  if constexpr (P::kProbe) return Issue::kDone;
  const auto& R = st_.gpr;
  SetGpr(path, f.a,
         AluExec(static_cast<arch::AluOp>(n.subop), f.z ? 0 : R[f.b], AluRhs(n, f, R[f.c])));
  IssueNext(c);
  return Issue::kDone;
}

// A scalar FP instruction (docs/isa.md 4.8): its result is due FmacLatency cycles after the next,
// and the instruction after it issues in the cycle after that.
template <class P>
Issue Ce::FpBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  if (!TakeFmac<P>()) return Stall(path, arch::CeStall::kFmac);
  if constexpr (P::kProbe) return Issue::kDone;
  const auto& R = st_.gpr;
  ScalarPipe& p = st_.pipe;
  const auto op = static_cast<arch::FpOp>(n.subop);
  const bool binary = !arch::IsUnary(op);
  uint8_t fl = 0;
  const uint32_t v = ScalarFp(op, static_cast<arch::FpFmt>(n.fmt), f.z ? 0 : R[f.b],
                              binary ? R[f.c] : 0, op == arch::FpOp::kMulAdd ? R[f.d] : 0, fl);
  Count(arch::PerfEvent::kFmacBusy);
  p.fp_pending = true;
  p.fp_due = c + 1 + arch::kFmacLatency;
  p.fp_reg = f.a;
  p.fp_value = v;
  p.fp_flags = fl;
  IssueNext(c);
  p.issue_at = c + 2 + arch::kFmacLatency;
  if constexpr (P::kTrace) path.rec.AddWrite(TraceWrite::Kind::kGpr, f.a, v);
  return Issue::kDone;
}

template <class P>
Issue Ce::LoadBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  const auto op = static_cast<arch::MemOp>(n.subop);
  const unsigned bytes = MemBytes(op);
  const uint32_t ea = EffAddr(f, st_.gpr[f.b]);
  const bool sram = PlainSramAccess(ea, bytes);
  if (!sram) {  // a register (which uses no SRAM port), or a fault
    if constexpr (P::kPlain) return Issue::kLeave;
    const MemFault m = CheckAccess(ea, bytes, false);
    if (m.cause != arch::CeFault::kNone)
      return Fault<P>(m.cause, st_.pc, m.addr, body::MemInfo(bytes, false));
  } else if (!TakeReadPorts<P>(ea, bytes, 1)) {
    return Stall(path, arch::CeStall::kPort);
  }
  if constexpr (P::kProbe) return Issue::kDone;
  uint32_t raw;
  if (sram) {
    raw = ReadRaw(st_.sram, ea, bytes);
  } else {
    raw = LoadReg(static_cast<uint16_t>(ea), c);
  }
  SetGpr(path, f.a, LoadExtend(op, raw));
  IssueNext(c);
  return Issue::kDone;
}

template <class P>
Issue Ce::StoreBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  const unsigned bytes = MemBytes(static_cast<arch::MemOp>(n.subop));
  const uint32_t ea = EffAddr(f, st_.gpr[f.b]);
  const bool sram = PlainSramAccess(ea, bytes);
  if (!sram) {  // a register (written at the end of the cycle, through no SRAM port), or a fault
    if constexpr (P::kPlain) return Issue::kLeave;
    const MemFault m = CheckAccess(ea, bytes, true);
    if (m.cause != arch::CeFault::kNone)
      return Fault<P>(m.cause, st_.pc, m.addr, body::MemInfo(bytes, true));
  } else if (!TakeWritePort<P>()) {  // a DSD result takes the write port of this cycle
    return Stall(path, arch::CeStall::kPort);
  }
  if constexpr (P::kProbe) return Issue::kDone;
  const uint32_t v = StoreValue(st_.gpr[f.a], bytes);
  if (sram) {
    StoreSram(path, ea, bytes, v);
  } else if constexpr (!P::kPlain) {
    Cyc& x = cyc_;
    x.mmio_w = true;
    x.mmio_addr = static_cast<uint16_t>(ea);
    x.mmio_value = v;
    if constexpr (P::kTrace)
      path.rec.AddWrite(TraceWrite::Kind::kMem, static_cast<uint16_t>(ea), v,
                        static_cast<uint8_t>(bytes));
  }
  IssueNext(c);
  return Issue::kDone;
}

template <class P>
Issue Ce::BranchBody(P& /*path*/, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  const auto& R = st_.gpr;
  if (!BranchTaken(static_cast<arch::BrOp>(n.subop), R[f.a], f.z ? 0 : R[f.b])) {
    if constexpr (P::kProbe) return Issue::kDone;
    IssueNext(c);
    return Issue::kDone;
  }
  const int64_t target = RelTarget(st_.pc, f.imm);
  if (!BranchTargetOk(target))
    return Fault<P>(arch::CeFault::kPcRange, st_.pc, static_cast<uint32_t>(target),
                    body::PlainInfo());
  if constexpr (P::kProbe) return Issue::kDone;
  IssueJump(c, static_cast<uint32_t>(target));
  return Issue::kDone;
}

template <class P>
Issue Ce::JumpBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  const auto op = static_cast<arch::JumpOp>(n.subop);
  const uint16_t pc = st_.pc;
  const int64_t target = JumpTarget(op, pc, f.imm, EffAddr(f, st_.gpr[f.b]));
  if (!JumpTargetOk(target))
    return Fault<P>(arch::CeFault::kPcRange, pc, static_cast<uint32_t>(target), body::PlainInfo());
  if constexpr (P::kProbe) return Issue::kDone;
  if (op == arch::JumpOp::kJal || op == arch::JumpOp::kJalr) SetGpr(path, f.a, pc + 4u);
  IssueJump(c, static_cast<uint32_t>(target));
  return Issue::kDone;
}

template <class P>
Issue Ce::SysBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  switch (static_cast<arch::SysOp>(n.subop)) {
    case arch::SysOp::kNop:
      break;
    case arch::SysOp::kTend: {
      if constexpr (P::kPlain) {
        return Issue::kLeave;  // the task ends: the picker acts in the next cycle
      } else {
        ScalarPipe& p = st_.pipe;
        st_.running = false;
        st_.task = kNoTask;
        st_.pc = static_cast<uint16_t>(st_.pc + 4);
        p.ir_valid = false;
        p.issue_at = c + 1;
        return Issue::kDone;
      }
    }
    case arch::SysOp::kTrap:
      return Fault<P>(arch::CeFault::kTrap, st_.pc, f.imm, body::PlainInfo());
    case arch::SysOp::kUtWait:
      if (const uint8_t waits = st_.busy & f.imm) return Stall(path, arch::CeStall::kUtWait, waits);
      break;
  }
  if constexpr (P::kProbe) return Issue::kDone;
  IssueNext(c);
  return Issue::kDone;
}

template <class P>
Issue Ce::TaskBody(P& /*path*/, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  if constexpr (P::kPlain) {
    return Issue::kLeave;  // the task masks
  } else {
    const auto op = static_cast<arch::TaskOp>(n.subop);
    const uint32_t t = f.z ? f.imm : st_.gpr[f.b];
    const bool activate = op == arch::TaskOp::kActivate || op == arch::TaskOp::kActivateArg;
    if (t > kNoTask) return Fault<P>(arch::CeFault::kTaskId, st_.pc, t, body::PlainInfo());
    if (t != kNoTask) {
      const auto kind = static_cast<arch::TaskKind>(st_.task_kind[t]);
      if (activate && kind != arch::TaskKind::kLocal && kind != arch::TaskKind::kControl)
        return Fault<P>(arch::CeFault::kTaskKind, st_.pc, t, body::PlainInfo());
      Cyc& x = cyc_;
      const uint32_t bit = 1u << t;
      switch (op) {
        case arch::TaskOp::kActivateArg:
          x.s_arg_task = static_cast<int>(t);
          x.s_arg = static_cast<uint16_t>(st_.gpr[f.a]);
          x.s_active_set |= bit;
          break;
        case arch::TaskOp::kActivate:
          x.s_active_set |= bit;
          break;
        case arch::TaskOp::kBlock:
          x.s_blocked_set |= bit;
          break;
        case arch::TaskOp::kUnblock:
          x.s_blocked_clr |= bit;
          break;
      }
    }
    IssueNext(c);
    return Issue::kDone;
  }
}

template <class P>
Issue Ce::SendBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  if constexpr (P::kPlain) {
    return Issue::kLeave;  // the fabric
  } else {
    Cyc& x = cyc_;
    const uint32_t col = f.z ? f.imm : st_.gpr[f.b];
    if (col >= arch::kNumColors || !ColorUsable(col, true))
      return Fault<P>(arch::CeFault::kBadColor, st_.pc, col, body::PlainInfo());
    if (st_.out_credits[col] == 0 || x.ramp) {
      st_.pipe.stall_color = static_cast<uint8_t>(col);
      return Stall(path, arch::CeStall::kSend);
    }
    --st_.out_credits[col];
    x.ramp = true;
    x.send_link =
        fabric::MakeLink(n.subop == static_cast<uint8_t>(arch::SendOp::kCtrl), col, st_.gpr[f.a]);
    IssueNext(c);
    return Issue::kDone;
  }
}

template <class P>
Issue Ce::DsrBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  if constexpr (P::kPlain) {
    return Issue::kLeave;  // left to the cycle model: they seldom run where the plain path does
  } else {
    auto& D = st_.dsr;
    const uint32_t bv = f.z ? 0 : st_.gpr[f.b];
    const uint32_t ea = EffAddr(f, st_.gpr[f.b]);
    switch (static_cast<arch::DsrOp>(n.subop)) {
      case arch::DsrOp::kLdd:
      case arch::DsrOp::kStd: {
        const bool store = n.subop == static_cast<uint8_t>(arch::DsrOp::kStd);
        MemFault m;
        if (ea > 0xFFFF) {
          m = {arch::CeFault::kOutOfRange, ea};
        } else if (ea % arch::kDsdBytes) {
          m = {arch::CeFault::kMisaligned, ea};
        } else if (ea >= arch::kMmioBase) {
          m = {arch::CeFault::kMmioAccess, ea};
        }
        if (m.cause != arch::CeFault::kNone)
          return Fault<P>(m.cause, st_.pc, m.addr, body::MemInfo(arch::kDsdBytes, store));
        if (!store) {
          if (!TakeReadPorts<P>(ea, 8, 2)) return Stall(path, arch::CeStall::kPort);
          uint64_t v = 0;
          for (int k = 0; k < 8; ++k) v |= static_cast<uint64_t>(st_.sram[ea + k]) << (8 * k);
          SetDsr(path, f.a, v);
          IssueNext(c);
        } else {
          if (!TakeWritePort<P>()) return Stall(path, arch::CeStall::kPort);
          // The first word now, the second in the next cycle with a free write port
          // (ScalarIssues).
          const uint64_t v = D[f.a];
          StoreSram(path, ea, 4, static_cast<uint32_t>(v));
          if constexpr (P::kTrace)
            path.rec.AddWrite(TraceWrite::Kind::kMem, static_cast<uint16_t>(ea + 4), v >> 32, 4);
          IssueNext(c);
          ScalarPipe& p = st_.pipe;
          p.std_pending = true;
          p.std_addr = static_cast<uint16_t>(ea + 4);
          p.std_value = static_cast<uint32_t>(v >> 32);
        }
        return Issue::kDone;
      }
      case arch::DsrOp::kDmov:
        SetDsr(path, f.a, D[f.b]);
        break;
      case arch::DsrOp::kDrd:
        SetGpr(path, f.a, static_cast<uint32_t>(f.imm ? D[f.b] >> 32 : D[f.b]));
        break;
      case arch::DsrOp::kDwr: {
        const uint64_t v = D[f.a];
        SetDsr(path, f.a,
               f.imm ? (v & 0xFFFFFFFFull) | static_cast<uint64_t>(bv) << 32
                     : (v & ~0xFFFFFFFFull) | bv);
        break;
      }
      case arch::DsrOp::kSetBase:
        if (ea > 0xFFFF)
          return Fault<P>(arch::CeFault::kOutOfRange, st_.pc, ea,
                          body::MemInfo(arch::kDsdBytes, false));
        SetDsr(path, f.a, arch::Dsd::WithBase(D[f.a], ea));
        break;
      case arch::DsrOp::kIncBase: {
        const uint64_t d = D[f.a];
        const uint32_t bval = bv + Sx16(f.imm);
        uint32_t scale = 1;
        if (arch::Dsd::Kind(d) == static_cast<uint64_t>(arch::DsdKind::kMem1d) ||
            arch::Dsd::Kind(d) == static_cast<uint64_t>(arch::DsdKind::kMem4d)) {
          scale = ElemBytes(static_cast<uint32_t>(arch::Dsd::Elem(d)));
          if (!scale) scale = 1;
        }
        SetDsr(path, f.a, arch::Dsd::WithBase(d, (arch::Dsd::Base(d) + bval * scale) & 0xFFFF));
        break;
      }
      case arch::DsrOp::kSetLen: {
        const uint32_t v = bv + Sx16(f.imm);
        if (v > arch::kUnboundedLength)
          return Fault<P>(arch::CeFault::kDsdInvalid, st_.pc, v, body::PlainInfo());
        SetDsr(path, f.a, arch::Dsd::WithLength(D[f.a], v));
        break;
      }
    }
    IssueNext(c);
    return Issue::kDone;
  }
}

// A DSD operation (docs/isa.md 4.11): its microthread must be idle; IssueDsd (dsd.cpp) checks
// the descriptors and starts it.
template <class P>
Issue Ce::DsdBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c) {
  if (const uint8_t waits = st_.busy & (1u << f.ut)) return Stall(path, arch::CeStall::kUt, waits);
  if constexpr (P::kPlain) {
    return Issue::kLeave;  // a microthread starts
  } else {
    if (!IssueDsd<P::kTrace>(n, f)) return Issue::kFault;
    IssueNext(c);
    return Issue::kDone;
  }
}

// The instruction n (its fields f) issued in cycle c, by class.
template <class P>
__attribute__((always_inline)) inline Issue Ce::Body(P& path, const arch::InsnInfo& n,
                                                     const isa::Fields& f, uint64_t c) {
  switch (n.cls) {
    case arch::InsnClass::kAlu:
      return AluBody(path, n, f, c);
    case arch::InsnClass::kFp:
      return FpBody(path, n, f, c);
    case arch::InsnClass::kLoad:
      return LoadBody(path, n, f, c);
    case arch::InsnClass::kStore:
      return StoreBody(path, n, f, c);
    case arch::InsnClass::kBr:
      return BranchBody(path, n, f, c);
    case arch::InsnClass::kJump:
      return JumpBody(path, n, f, c);
    case arch::InsnClass::kSys:
      return SysBody(path, n, f, c);
    case arch::InsnClass::kTask:
      return TaskBody(path, n, f, c);
    case arch::InsnClass::kSend:
      return SendBody(path, n, f, c);
    case arch::InsnClass::kDsr:
      return DsrBody(path, n, f, c);
    case arch::InsnClass::kDsd:
      return DsdBody(path, n, f, c);
  }
  return Issue::kLeave;
}

// ScalarStage up to the issue (docs/isa.md 6.8 item 3): whether an instruction issues in cycle
// c. Not when the task is not running, before issue_at, in the cycle of an std's second word
// (written here), or while the task waits for a synchronous microthread (a stall). The probe
// changes nothing: it reads a fetch due in c from SRAM (IssueWord).
template <class P>
bool Ce::ScalarIssues(P& path, uint64_t c) {
  ScalarPipe& p = st_.pipe;
  if constexpr (!P::kProbe) FetchDue(c);  // (no fetch is due in a cycle that issues)
  if (c < p.issue_at) return false;
  if (p.std_pending) {  // the second word of an std: the next cycle with a free write port
    if (!TakeWritePort<P>()) {
      Stall(path, arch::CeStall::kPort);
      return false;
    }
    if constexpr (!P::kProbe) {
      StoreSram(path, p.std_addr, 4, p.std_value, true);
      p.std_pending = false;
      p.issue_at = c + 1;
      p.stall = 0;
    }
    return false;
  }
  if (p.sync_ut >= 0) {
    if (const uint8_t waits = st_.busy & (1u << p.sync_ut)) {
      Stall(path, arch::CeStall::kSync, waits);
      return false;
    }
    if constexpr (!P::kProbe) p.sync_ut = -1;
  }
  return true;
}

// (path.h, ProbePath; declared in ce.h.) Inline: the drivers that probe every cycle they take.
inline Issue Ce::ProbeIssue(uint64_t c, ProbePath& path) const {
  // The probe changes nothing (path.h); the bodies it runs are those of the paths that do.
  Ce& self = const_cast<Ce&>(*this);
  const ScalarPipe& p = st_.pipe;
  path = ProbePath{};
  if (!self.ScalarIssues(path, c))
    return path.stall != arch::CeStall::kNone ? Issue::kStall : Issue::kDone;
  if (!p.ir_valid) return Issue::kLeave;  // a PcRange fault
  const Decoded* d = DecodeAtPc(p.ir);
  if (!d) return Issue::kLeave;  // an Illegal fault
  return self.Body(path, *d->n, d->f, c);
}

}  // namespace tessera::ce
