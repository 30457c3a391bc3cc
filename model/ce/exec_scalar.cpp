// The scalar pipeline (docs/isa.md 6.8 item 3) and the scalar instructions (4.5-4.10). An
// instruction first checks its faults, then its resources (it stalls if one is missing), and only
// then takes effect: a faulting or stalled instruction changes nothing.
#include "ce/exec_scalar.h"

#include "ce/ce.h"

namespace tessera::ce {
namespace {

using arch::CeFault;
using arch::CeStall;

inline uint32_t MemInfo(unsigned bytes, bool write) {
  return MakeFaultInfo(arch::DsdRole::kNone, static_cast<arch::AccSize>(AccSizeOf(bytes)), write,
                       kNoUt, 0, 0);
}
inline uint32_t PlainInfo() {
  return MakeFaultInfo(arch::DsdRole::kNone, arch::AccSize::kByte, false, kNoUt, 0, 0);
}

}  // namespace

template <bool kT>
void Ce::ScalarStage() {
  ScalarPipe& p = st_.pipe;
  if (!ScalarIssues()) return;
  if (!p.ir_valid) {  // sequential execution ran past 0xBFFC
    RaiseFault<kT>(CeFault::kPcRange, st_.pc, st_.pc, PlainInfo());
    return;
  }
  const uint32_t w = p.ir;
  const arch::InsnInfo* n = isa::DecodeCached(w);
  if (!n) {
    RaiseFault<kT>(CeFault::kIllegal, st_.pc, w, PlainInfo());
    return;
  }
  Execute<kT>(*n, isa::SplitFields(w));
}

uint32_t Ce::IssueScalarFp(uint64_t c, const arch::InsnInfo& n, const isa::Fields& f) {
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
  return v;
}

template <bool kT>
void Ce::Execute(const arch::InsnInfo& n, const isa::Fields& f) {
  Cyc& x = cyc_;
  ScalarPipe& p = st_.pipe;
  auto& R = st_.gpr;
  const uint16_t pc = st_.pc;
  const uint32_t bv = f.z ? 0 : R[f.b];
  TraceRecord rec;
  if constexpr (kT) {
    rec.kind = TraceRecord::Kind::kRetire;
    rec.cycle = x.c;
    rec.pc = pc;
    rec.word = f.word;
  }
  auto next = [&] { IssueNext(x.c); };
  auto jump = [&](uint32_t target) { IssueJump(x.c, target); };
  auto set_gpr = [&](unsigned r, uint32_t v) {
    R[r] = v;
    if constexpr (kT) rec.AddWrite(TraceWrite::Kind::kGpr, static_cast<uint16_t>(r), v);
  };
  auto mem_fault = [&](const MemFault& m, unsigned bytes, bool write) {
    RaiseFault<kT>(m.cause, pc, m.addr, MemInfo(bytes, write));
  };
  const uint32_t ea = EffAddr(f, R[f.b]);

  switch (n.cls) {
    case arch::InsnClass::kAlu:
      set_gpr(f.a, AluExec(static_cast<arch::AluOp>(n.subop), bv, AluRhs(n, f, R[f.c])));
      next();
      break;

    case arch::InsnClass::kFp: {
      if (x.split_second) {  // the FMAC slot of c+1 belongs to a split DSD step
        StallOn(CeStall::kFmac);
        return;
      }
      x.fmac = true;
      const uint32_t v = IssueScalarFp(x.c, n, f);
      if constexpr (kT) rec.AddWrite(TraceWrite::Kind::kGpr, f.a, v);
      break;
    }

    case arch::InsnClass::kLoad: {
      const auto op = static_cast<arch::MemOp>(n.subop);
      const unsigned bytes = MemBytes(op);
      const MemFault m = CheckAccess(ea, bytes, false);
      if (m.cause != CeFault::kNone) return mem_fault(m, bytes, false);
      uint32_t raw;
      if (ea >= arch::kMmioBase) {  // registers use no SRAM port
        raw = ReadReg(static_cast<uint16_t>(ea));
        if (ea == arch::CycleLo::kAddr) st_.cycle_hi = static_cast<uint16_t>(x.c >> 32);
      } else {
        if (x.split_second) {
          StallOn(CeStall::kPort);
          return;
        }
        x.ports = 1;
        x.banks = BankMask(ea, bytes);
        x.row = Row(ea);
        raw = ReadRaw(st_.sram, ea, bytes);
      }
      set_gpr(f.a, LoadExtend(op, raw));
      next();
      break;
    }

    case arch::InsnClass::kStore: {
      const auto op = static_cast<arch::MemOp>(n.subop);
      const unsigned bytes = MemBytes(op);
      const MemFault m = CheckAccess(ea, bytes, true);
      if (m.cause != CeFault::kNone) return mem_fault(m, bytes, true);
      const uint32_t v = StoreValue(R[f.a], bytes);
      if (ea >= arch::kMmioBase) {
        x.mmio_w = true;
        x.mmio_addr = static_cast<uint16_t>(ea);
        x.mmio_value = v;
      } else {
        if (x.write_port) {  // a DSD result takes the write port of this cycle
          StallOn(CeStall::kPort);
          return;
        }
        x.write_port = true;
        x.sram_w = true;
        x.sram_addr = static_cast<uint16_t>(ea);
        x.sram_size = static_cast<uint8_t>(bytes);
        x.sram_value = v;
      }
      if constexpr (kT)
        rec.AddWrite(TraceWrite::Kind::kMem, static_cast<uint16_t>(ea), v,
                     static_cast<uint8_t>(bytes));
      next();
      break;
    }

    case arch::InsnClass::kBr: {
      if (!BranchTaken(static_cast<arch::BrOp>(n.subop), R[f.a], bv)) {
        next();
        break;
      }
      const int64_t target = RelTarget(pc, f.imm);
      if (!BranchTargetOk(target)) {
        RaiseFault<kT>(CeFault::kPcRange, pc, static_cast<uint32_t>(target), PlainInfo());
        return;
      }
      jump(static_cast<uint32_t>(target));
      break;
    }

    case arch::InsnClass::kJump: {
      const auto op = static_cast<arch::JumpOp>(n.subop);
      const int64_t target = JumpTarget(op, pc, f.imm, ea);
      if (!JumpTargetOk(target)) {
        RaiseFault<kT>(CeFault::kPcRange, pc, static_cast<uint32_t>(target), PlainInfo());
        return;
      }
      if (op == arch::JumpOp::kJal || op == arch::JumpOp::kJalr) set_gpr(f.a, pc + 4u);
      jump(static_cast<uint32_t>(target));
      break;
    }

    case arch::InsnClass::kSys:
      switch (static_cast<arch::SysOp>(n.subop)) {
        case arch::SysOp::kNop:
          next();
          break;
        case arch::SysOp::kTend:
          st_.running = false;
          st_.task = kNoTask;
          st_.pc = static_cast<uint16_t>(pc + 4);
          p.ir_valid = false;
          p.issue_at = x.c + 1;
          break;
        case arch::SysOp::kTrap:
          RaiseFault<kT>(CeFault::kTrap, pc, f.imm, PlainInfo());
          return;
        case arch::SysOp::kUtWait:
          if (st_.busy & f.imm) {
            StallOn(CeStall::kUtWait);
            return;
          }
          next();
          break;
      }
      break;

    case arch::InsnClass::kTask: {
      const auto op = static_cast<arch::TaskOp>(n.subop);
      const uint32_t t = f.z ? f.imm : R[f.b];
      const bool activate = op == arch::TaskOp::kActivate || op == arch::TaskOp::kActivateArg;
      if (t > kNoTask) {
        RaiseFault<kT>(CeFault::kTaskId, pc, t, PlainInfo());
        return;
      }
      if (t != kNoTask) {
        const auto kind = static_cast<arch::TaskKind>(st_.task_kind[t]);
        if (activate && kind != arch::TaskKind::kLocal && kind != arch::TaskKind::kControl) {
          RaiseFault<kT>(CeFault::kTaskKind, pc, t, PlainInfo());
          return;
        }
        const uint32_t bit = 1u << t;
        switch (op) {
          case arch::TaskOp::kActivateArg:
            x.s_arg_task = static_cast<int>(t);
            x.s_arg = static_cast<uint16_t>(R[f.a]);
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
      next();
      break;
    }

    case arch::InsnClass::kSend: {
      const uint32_t col = f.z ? f.imm : R[f.b];
      if (col >= arch::kNumColors || !ColorUsable(col, true)) {
        RaiseFault<kT>(CeFault::kBadColor, pc, col, PlainInfo());
        return;
      }
      if (st_.out_credits[col] == 0 || x.ramp) {
        StallOn(CeStall::kSend);
        p.stall_color = static_cast<uint8_t>(col);
        return;
      }
      --st_.out_credits[col];
      x.ramp = true;
      x.send_link =
          fabric::MakeLink(n.subop == static_cast<uint8_t>(arch::SendOp::kCtrl), col, R[f.a]);
      next();
      break;
    }

    case arch::InsnClass::kDsr: {
      auto& D = st_.dsr;
      auto set_dsr = [&](unsigned r, uint64_t v) {
        D[r] = v;
        if constexpr (kT) rec.AddWrite(TraceWrite::Kind::kDsr, static_cast<uint16_t>(r), v);
      };
      switch (static_cast<arch::DsrOp>(n.subop)) {
        case arch::DsrOp::kLdd:
        case arch::DsrOp::kStd: {
          const bool store = n.subop == static_cast<uint8_t>(arch::DsrOp::kStd);
          MemFault m;
          if (ea > 0xFFFF) {
            m = {CeFault::kOutOfRange, ea};
          } else if (ea % arch::kDsdBytes) {
            m = {CeFault::kMisaligned, ea};
          } else if (ea >= arch::kMmioBase) {
            m = {CeFault::kMmioAccess, ea};
          }
          if (m.cause != CeFault::kNone) return mem_fault(m, arch::kDsdBytes, store);
          if (!store) {
            if (x.split_second) {
              StallOn(CeStall::kPort);
              return;
            }
            x.ports = 2;
            x.banks = BankMask(ea, 8);
            x.row = Row(ea);
            uint64_t v = 0;
            for (int k = 0; k < 8; ++k) v |= static_cast<uint64_t>(st_.sram[ea + k]) << (8 * k);
            set_dsr(f.a, v);
            next();
          } else {
            if (x.write_port) {
              StallOn(CeStall::kPort);
              return;
            }
            const uint64_t v = D[f.a];
            x.write_port = true;
            x.sram_w = true;
            x.sram_addr = static_cast<uint16_t>(ea);
            x.sram_size = 4;
            x.sram_value = static_cast<uint32_t>(v);
            if constexpr (kT) {
              rec.AddWrite(TraceWrite::Kind::kMem, static_cast<uint16_t>(ea),
                           static_cast<uint32_t>(v), 4);
              rec.AddWrite(TraceWrite::Kind::kMem, static_cast<uint16_t>(ea + 4), v >> 32, 4);
            }
            next();
            p.std_pending = true;
            p.std_addr = static_cast<uint16_t>(ea + 4);
            p.std_value = static_cast<uint32_t>(v >> 32);
          }
          break;
        }
        case arch::DsrOp::kDmov:
          set_dsr(f.a, D[f.b]);
          next();
          break;
        case arch::DsrOp::kDrd:
          set_gpr(f.a, static_cast<uint32_t>(f.imm ? D[f.b] >> 32 : D[f.b]));
          next();
          break;
        case arch::DsrOp::kDwr: {
          const uint64_t v = D[f.a];
          set_dsr(f.a, f.imm ? (v & 0xFFFFFFFFull) | static_cast<uint64_t>(bv) << 32
                             : (v & ~0xFFFFFFFFull) | bv);
          next();
          break;
        }
        case arch::DsrOp::kSetBase:
          if (ea > 0xFFFF) {
            RaiseFault<kT>(CeFault::kOutOfRange, pc, ea, MemInfo(arch::kDsdBytes, false));
            return;
          }
          set_dsr(f.a, arch::Dsd::WithBase(D[f.a], ea));
          next();
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
          set_dsr(f.a, arch::Dsd::WithBase(d, (arch::Dsd::Base(d) + bval * scale) & 0xFFFF));
          next();
          break;
        }
        case arch::DsrOp::kSetLen: {
          const uint32_t v = bv + Sx16(f.imm);
          if (v > arch::kUnboundedLength) {
            RaiseFault<kT>(CeFault::kDsdInvalid, pc, v, PlainInfo());
            return;
          }
          set_dsr(f.a, arch::Dsd::WithLength(D[f.a], v));
          next();
          break;
        }
      }
      break;
    }

    case arch::InsnClass::kDsd:
      if (!IssueDsd<kT>(n, f)) return;
      next();
      break;
  }
  p.stall = 0;
  p.stall_color = 0;
  ++retired_;
  Count(arch::PerfEvent::kInsns);
  if constexpr (kT) sink_->Record(rec);
}

template void Ce::Execute<false>(const arch::InsnInfo&, const isa::Fields&);
template void Ce::ScalarStage<true>();
template void Ce::ScalarStage<false>();

}  // namespace tessera::ce
