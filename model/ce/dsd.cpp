// DSD operations: issue (docs/isa.md 4.11) and the DSD engine (6.1-6.8 item 4): end tests, the
// readiness of each microthread's next step, the round robin, split steps, fdot partials and
// combine steps, and the results each step puts in flight.
#include "ce/dsd.h"

#include <algorithm>
#include <cstring>

#include "ce/ce.h"
#include "ce/exec_scalar.h"

namespace tessera::ce {
namespace {

using arch::CeFault;
using arch::DsdKind;

inline int Ctz(uint32_t m) { return __builtin_ctz(m); }
inline uint8_t Wait(arch::UtWait w) { return static_cast<uint8_t>(w); }
inline bool Is(const DsdOperand& o, DsdKind k) { return o.kind == static_cast<uint8_t>(k); }
inline arch::DsdRole RoleOf(int r) { return static_cast<arch::DsdRole>(r + 1); }

// What the engine found about a microthread's next step in this cycle.
struct StepPlan {  // set for each busy microthread (EngineStage), left unset for the others
  bool combine;
  bool pair;
  bool split;
  int range_role;  // an operand whose element lies outside SRAM, or -1
  int64_t range_addr;
};

}  // namespace

StepValue GenericStep(arch::DsdOp op, arch::DsdFmt fmt, arch::DsdForm form, uint32_t x0,
                      uint32_t x1, uint32_t s, unsigned lanes) {
  using arch::DsdFmt;
  using arch::DsdOp;
  using arch::FpFmt;
  StepValue r;
  if (op == DsdOp::kIMov) {
    r.value = form == arch::DsdForm::kFill ? s : x0;
    return r;
  }
  if (fmt == DsdFmt::kW32) {
    switch (op) {
      case DsdOp::kIAdd:
        r.value = x0 + x1;
        break;
      case DsdOp::kISub:
        r.value = x0 - x1;
        break;
      case DsdOp::kIAnd:
        r.value = x0 & x1;
        break;
      case DsdOp::kIOr:
        r.value = x0 | x1;
        break;
      case DsdOp::kIXor:
        r.value = x0 ^ x1;
        break;
      case DsdOp::kIShl:
        r.value = x0 << (x1 & 31);
        break;
      case DsdOp::kIShr:
        r.value = x0 >> (x1 & 31);
        break;
      case DsdOp::kSel:
        r.value = x0 ? x1 : s;
        break;
      default:
        break;
    }
    return r;
  }
  if (fmt == DsdFmt::kW16 && op == DsdOp::kCvtF2I) {  // fh2i: no FMAC, one element a step
    r.value = fp::F16ToI16TowardZero(static_cast<uint16_t>(x0), r.flags);
    return r;
  }
  if (fmt == DsdFmt::kW16) {
    r.value = Int16Lanes(op, x0, x1, s);
    return r;
  }
  if (fmt == DsdFmt::kMix) {  // fmachs: dst = src0 + f32(src1) * f32(s), one rounding
    const uint32_t b = FmacLanes(arch::FpOp::kCvtF2F, FpFmt::kF16, x1 & 0xFFFF, 0, 0, 1, r.flags);
    const uint32_t c = FmacLanes(arch::FpOp::kCvtF2F, FpFmt::kF16, s & 0xFFFF, 0, 0, 1, r.flags);
    r.value = FmacLanes(arch::FpOp::kMulAdd, FpFmt::kF32, b, c, x0, 1, r.flags);
    return r;
  }
  const FpFmt ff = fmt == DsdFmt::kF16 ? FpFmt::kF16 : FpFmt::kF32;
  const arch::FpOp fop = arch::FmacOp(op);
  if (arch::IsCompare(op)) {  // gt and ge swap the operands of lt and le; ne inverts eq
    const bool swap = arch::IsCmpSwapped(op);
    uint32_t bit = FmacLanes(fop, ff, swap ? x1 : x0, swap ? x0 : x1, 0, 1, r.flags) & 1;
    if (arch::IsCmpInverted(op)) bit ^= 1;
    r.value = bit ? (ff == FpFmt::kF16 ? 0xFFFFu : 0xFFFFFFFFu) : 0;
    return r;
  }
  // What ResolveStep leaves: f16 from i16, the source sign-extended.
  r.value = FmacLanes(fop, ff, uint32_t(int32_t(int16_t(x0))), 0, 0, lanes, r.flags);
  return r;
}

bool Ce::ColorUsable(uint32_t color, bool out) {
  if (!router_) return false;
  const uint32_t cc = router_->Read(arch::ColorCfg::Addr(color));
  const uint32_t sc = router_->Read(arch::SwitchCfg::Addr(color));
  return out ? fabric::ColorAcceptsFromCe(cc, sc) : fabric::ColorDeliversToCe(cc, sc);
}

// ---------------------------------------------------------------------------------------------
// Issue

// The action of a DSD operation's body (Ce::DsdBody, insn_bodies.h), whose microthread is idle:
// the descriptors' checks (a fault returns false), then the microthread starts.
template <bool kT>
bool Ce::IssueDsd(const arch::InsnInfo& n, const isa::Fields& f) {
  Cyc& x = cyc_;
  ScalarPipe& p = st_.pipe;
  const int u = f.ut;
  const arch::DsdForm form = n.form;
  const std::array<bool, 3> has = {arch::HasDst(form), arch::HasSrc0(form), arch::HasSrc1(form)};
  const std::array<uint8_t, 3> reg = {f.dst, f.src0, f.src1};
  std::array<DsdOperand, 3> o;
  for (int r = 0; r < 3; ++r)
    if (has[r]) o[r] = DecodeDsd(st_.dsr[reg[r]], reg[r], st_.dsr[reg[r] | 1]);
  auto fault = [&](CeFault cause, uint32_t addr, int r, unsigned index) {
    RaiseFault<kT>(cause, st_.pc, addr,
                   MakeFaultInfo(RoleOf(r), arch::AccSize::kByte, false, kNoUt, reg[r], index));
    return false;
  };
  auto word1 = [&](int r) { return static_cast<uint32_t>(o[r].raw >> 32); };
  // The lead operand sets N (docs/isa.md 4.11): src0, else src1, else dst, passing over FIFOs;
  // with FIFOs only, N is unbounded (lead -1).
  int lead = -1;
  for (const int r : {kSrc0, kSrc1, kDst}) {
    if (has[r] && !IsFifo(o[r])) {
      lead = r;
      break;
    }
  }
  for (int r = 0; r < 3; ++r) {  // valid descriptors
    DsdInvalidWhy why;
    if (has[r] && InvalidDsd(o[r], why))
      return fault(CeFault::kDsdInvalid, word1(r), r, static_cast<unsigned>(why));
    if (has[r] && r == lead && IsMem4d(o[r]) && Mem4dCount(o[r]) > arch::kUnboundedLength - 1) {
      const uint64_t count = Mem4dCount(o[r]);
      return fault(CeFault::kDsdInvalid, static_cast<uint32_t>(std::min<uint64_t>(count, ~0u)), r,
                   static_cast<unsigned>(DsdInvalidWhy::kShape));
    }
  }
  for (int r = 0; r < 3; ++r) {  // roles
    if (!has[r]) continue;
    const bool ok = InSram(o[r]) || Is(o[r], r == kDst ? DsdKind::kFabOut : DsdKind::kFabIn);
    if (!ok)
      return fault(CeFault::kDsdInvalid, word1(r), r, static_cast<unsigned>(DsdInvalidWhy::kRole));
  }
  // Two fabin sources on one color, or two FIFO sources on one FIFO (one pop each per step).
  if (has[kSrc0] && has[kSrc1] && o[kSrc0].kind == o[kSrc1].kind &&
      (Is(o[kSrc0], DsdKind::kFabIn) || IsFifo(o[kSrc0])) && o[kSrc0].color == o[kSrc1].color)
    return fault(CeFault::kDsdInvalid, word1(kSrc1), kSrc1,
                 static_cast<unsigned>(DsdInvalidWhy::kSameColor));
  for (int r = 0; r < 3; ++r)  // element types
    if (has[r] && !TypeFits(n.types[r], o[r].elem)) return fault(CeFault::kDsdType, word1(r), r, 0);
  for (int r = 0; r < 3; ++r) {  // colors
    if (!has[r] || InSram(o[r])) continue;
    const bool out = Is(o[r], DsdKind::kFabOut);
    if (o[r].color >= arch::kNumColors || !ColorUsable(o[r].color, out))
      return fault(CeFault::kBadColor, o[r].color, r, 0);
  }
  for (int r = 0; r < 3; ++r)  // mem1d, mem4d and FIFO bases aligned to their elements
    if (has[r] && InSram(o[r]) && o[r].base % o[r].size)
      return fault(CeFault::kDsdMisaligned, o[r].base, r, 0);

  Microthread& m = st_.ut[u];
  m = Microthread{};
  m.info = &n;
  m.word = f.word;
  m.pc = st_.pc;
  m.op = static_cast<arch::DsdOp>(n.subop);
  m.fmt = static_cast<arch::DsdFmt>(n.fmt);
  m.form = form;
  m.has = has;
  m.opnd = o;
  m.scalar = st_.gpr[f.s];
  m.s_reg = f.s;
  const auto len = lead < 0           ? arch::kUnboundedLength
                   : IsMem4d(o[lead]) ? static_cast<uint32_t>(Mem4dCount(o[lead]))
                                      : static_cast<uint32_t>(arch::Dsd::Length(o[lead].raw));
  m.n = (lead < 0 || !IsMem4d(o[lead])) && len == arch::kUnboundedLength ? kUnbounded : len;
  m.tid = f.tid;
  m.unblock = f.u && f.tid != kNoTask;
  m.sync = f.u && f.tid == kNoTask;
  m.fmac = IsFmacFmt(m.fmt);
  m.dot = arch::IsReduction(m.op);
  m.pairs = IsHalfFmt(m.fmt) && !arch::IsConversion(m.op) && !arch::IsCompare(m.op);
  m.mem1d = true;
  for (int r = 0; r < 3; ++r) {
    if (!has[r]) continue;
    if (!Is(o[r], DsdKind::kMem1d)) m.mem1d = false;
    if (!Is(o[r], DsdKind::kMem1d) || o[r].stride != 1) m.pairs = false;
    if (r != kDst && Is(o[r], DsdKind::kFabIn)) m.fabin |= 1u << o[r].color;
    if (IsFifo(o[r])) m.fifos = true;
  }
  if (m.dot) DotInit(m.dotst, m.op, m.fmt, m.scalar);
  m.ended = m.n == 0;
  if (m.mem1d && m.n != kUnbounded) {  // mem1d addresses are monotonic in the index
    const int64_t lim = static_cast<int64_t>(kSram);
    for (int r = 0; r < 3 && m.mem1d; ++r) {
      if (!has[r] || m.n == 0) continue;
      for (const uint64_t e : {uint64_t{0}, m.n - 1}) {
        const int64_t a = ElemAddr(o[r], e);
        if (a < 0 || a > lim - o[r].size) m.mem1d = false;
      }
    }
  } else {
    m.mem1d = false;
  }
  const uint8_t bit = static_cast<uint8_t>(1u << u);
  st_.not_mem1d = static_cast<uint8_t>(m.mem1d ? st_.not_mem1d & ~bit : st_.not_mem1d | bit);
  if (m.n == 0 && !m.dot) {
    x.complete |= bit;  // no step: it completes in its issue cycle
  } else {
    m.busy = true;
    st_.busy |= bit;
  }
  if (m.sync) p.sync_ut = static_cast<int8_t>(u);
  return true;
}

// ---------------------------------------------------------------------------------------------
// The engine

template <bool kT>
void Ce::EngineStage() {
  Cyc& x = cyc_;
  if (!x.busy && !x.complete) return;
  const uint64_t c = x.c;

  // First, operations whose next step would find a control wavelet at a fabin head end (6.4).
  uint8_t ending = 0;
  for (uint32_t b = x.busy; b; b &= b - 1) {
    const int u = Ctz(b);
    const Microthread& m = st_.ut[u];
    if (!m.ended && (m.fabin & x.head_ctrl)) ending |= static_cast<uint8_t>(1u << u);
  }

  // Readiness of every other busy microthread's next step.
  StepPlan plan[kUts];
  uint8_t ready = 0;
  const int split_ut = x.split_second ? st_.split.ut : -1;
  for (uint32_t b = x.busy & ~ending; b; b &= b - 1) {
    const int u = Ctz(b);
    Microthread& m = st_.ut[u];
    StepPlan& pl = plan[u];
    pl = StepPlan{false, false, false, -1, 0};
    m.wait_color = arch::kNoColor;
    if (u == split_ut) {
      m.wait = Wait(arch::UtWait::kReady);
      continue;
    }
    if (m.ended) {
      if (!m.dot || m.dotst.stage == DotStages(m.fmt)) {
        m.wait = Wait(arch::UtWait::kDrain);
        continue;
      }
      // An fdot combine step: the FMAC slot and the inputs (6.5).
      pl.combine = true;
      const DotState& d = m.dotst;
      bool in_ok;
      if (m.fmt == arch::DsdFmt::kF16) {
        switch (d.stage) {
          case 0:
            in_ok = d.ready[0] <= c && d.ready[1] <= c && d.ready[2] <= c && d.ready[3] <= c;
            break;
          case 1:
            in_ok = d.ready[4] <= c && d.ready[5] <= c && d.ready[6] <= c && d.ready[7] <= c;
            break;
          case 2:
            in_ok = d.comb_ready[0] <= c && d.comb_ready[1] <= c;
            break;
          default:
            in_ok = d.comb_ready[2] <= c;
            break;
        }
      } else {
        switch (d.stage) {
          case 0:
            in_ok = d.ready[0] <= c && d.ready[1] <= c;
            break;
          case 1:
            in_ok = d.ready[2] <= c && d.ready[3] <= c;
            break;
          default:
            in_ok = d.comb_ready[0] <= c && d.comb_ready[1] <= c;
            break;
        }
      }
      if (x.fmac || !in_ok) {
        m.wait = Wait(arch::UtWait::kFmac);
        continue;
      }
      m.wait = Wait(arch::UtWait::kReady);
      ready |= static_cast<uint8_t>(1u << u);
      continue;
    }

    // An element step.
    const uint64_t i = m.i;
    const auto& o = m.opnd;
    bool pair = m.pairs && i + 1 < m.n && (!m.dot || i % 2 == 0);
    if (pair)
      for (int r = 0; r < 3; ++r)
        if (m.has[r] && ElemAddr(o[r], i) % 4) pair = false;
    pl.pair = pair;
    bool mem[3] = {false, false, false};
    uint8_t banks[3] = {0, 0, 0};
    uint16_t rows[3] = {0, 0, 0};
    for (int r = 0; r < 3; ++r) {
      if (!m.has[r] || !InSram(o[r])) continue;
      const unsigned bytes = pair ? 4 : o[r].size;
      const int64_t a = !IsFifo(o[r]) ? ElemAddr(o[r], i)
                        : r == kDst   ? FifoAddr(o[r], st_.fifo[o[r].color].tail)
                                      : FifoAddr(o[r], st_.fifo[o[r].color].head);
      if (a < 0 || a > static_cast<int64_t>(kSram - bytes)) {
        if (pl.range_role < 0) {
          pl.range_role = r;
          pl.range_addr = a;
        }
        continue;
      }
      mem[r] = true;
      banks[r] = BankMask(static_cast<uint32_t>(a), bytes);
      rows[r] = Row(static_cast<uint32_t>(a));
    }
    uint8_t why = Wait(arch::UtWait::kReady);
    for (int r = kSrc0; r <= kSrc1 && why == 0; ++r) {
      if (m.has[r] && Is(o[r], DsdKind::kFabIn) && !(x.head_data >> o[r].color & 1)) {
        why = Wait(arch::UtWait::kFabIn);
        m.wait_color = o[r].color;
      }
    }
    if (!why && m.has[kDst] && Is(o[kDst], DsdKind::kFabOut) &&
        st_.out_credits[o[kDst].color] == 0) {
      why = Wait(arch::UtWait::kFabOut);
      m.wait_color = o[kDst].color;
    }
    if (!why && m.fifos && FifoBlocked(m)) why = Wait(arch::UtWait::kFifo);
    if (!why) {
      // Reads: src0 and src1 through the ports and banks the scalar pipeline left.
      const bool r0 = mem[kSrc0], r1 = mem[kSrc1];
      auto fits = [&](int r) { return !(x.ports && Conflict(banks[r], rows[r], x.banks, x.row)); };
      if (r0 && r1 && Conflict(banks[kSrc0], rows[kSrc0], banks[kSrc1], rows[kSrc1])) {
        pl.split = true;  // src0 now, src1 in the next cycle
        if (x.ports + 1 > 2 || !fits(kSrc0)) why = Wait(arch::UtWait::kPort);
      } else {
        const int nreads = r0 + r1;
        if (x.ports + nreads > 2 || (r0 && !fits(kSrc0)) || (r1 && !fits(kSrc1)))
          why = Wait(arch::UtWait::kPort);
      }
    }
    if (!why && m.fmac && !pl.split && x.fmac) why = Wait(arch::UtWait::kFmac);
    if (!why && m.dot) {  // the partial this step updates (6.5)
      const uint64_t taken = c + (pl.split ? 1 : 0);
      const DotState& d = m.dotst;
      bool ok;
      if (m.fmt == arch::DsdFmt::kF32 || m.fmt == arch::DsdFmt::kMix) {  // one f32 partial
        ok = d.ready[i % 4] <= taken;
      } else if (pair) {
        const uint64_t k = (i % 8) / 2;
        ok = d.ready[2 * k] <= taken && d.ready[2 * k + 1] <= taken;
      } else {
        ok = d.ready[i % 8] <= taken;
      }
      if (!ok) why = Wait(arch::UtWait::kFmac);
    }
    m.wait = why;
    if (!why) ready |= static_cast<uint8_t>(1u << u);
  }
  for (uint32_t b = ending; b; b &= b - 1) {
    Microthread& m = st_.ut[Ctz(b)];
    m.wait = Wait(arch::UtWait::kDrain);
    m.wait_color = arch::kNoColor;
  }

  // The step: the split step's second half, or the first ready microthread in round-robin order.
  int stepper = split_ut;
  if (stepper < 0 && ready) {  // the first ready at or after rr_ptr, wrapping
    const uint32_t upper = ready & ~((1u << st_.rr_ptr) - 1);
    stepper = Ctz(upper ? upper : ready);
  }
  for (uint32_t b = ready; b; b &= b - 1) {
    const int u = Ctz(b);
    if (u != stepper) st_.ut[u].wait = Wait(arch::UtWait::kTurn);
  }

  // Effects in microthread order: ends, completions, the step (docs/isa.md 7: a fault stops
  // everything after it).
  const uint32_t act = ending | x.complete | (stepper >= 0 ? 1u << stepper : 0u);
  for (uint32_t b = act; b; b &= b - 1) {
    const int u = Ctz(b);
    const uint8_t bit = static_cast<uint8_t>(1u << u);
    Microthread& m = st_.ut[u];
    if (ending & bit) {
      m.ended = true;
      if (!m.dot && m.in_flight == 0) x.complete |= bit;
    }
    if (x.complete & bit) {
      Complete<kT>(u);
      if (x.fault) return;
    }
    if (u == stepper) {
      if (u == split_ut) {
        FinishSplit<kT>();
      } else {
        if (!Step<kT>(u, plan[u].combine, plan[u].pair, plan[u].split, plan[u].range_role,
                      plan[u].range_addr))
          return;
        st_.rr_ptr = static_cast<uint8_t>((u + 1) % kUts);
      }
    }
  }
}

uint32_t Ce::ReadOperand(int u, int r, bool pair) {
  Microthread& m = st_.ut[u];
  const DsdOperand& o = m.opnd[r];
  if (Is(o, DsdKind::kFabIn)) {
    const uint32_t data = Pop(o.color);
    return o.size == 2 ? data & 0xFFFF : data;
  }
  if (IsFifo(o)) {  // a pop: the head's element, then the next slot
    FifoState& f = st_.fifo[o.color];
    const uint32_t v = ReadElem(st_.sram, static_cast<uint32_t>(FifoAddr(o, f.head)), o.size);
    f.head = FifoNext(o, f.head);
    --f.count;
    --f.used;
    return v;
  }
  return ReadElem(st_.sram, static_cast<uint32_t>(ElemAddr(o, m.i)), pair ? 4 : o.size);
}

template <bool kT>
bool Ce::Step(int u, bool combine, bool pair, bool split, int range_role, int64_t range_addr) {
  Microthread& m = st_.ut[u];
  const uint64_t c = cyc_.c;
  if (range_role >= 0) {
    RaiseFault<kT>(
        CeFault::kDsdRange, m.pc, static_cast<uint32_t>(range_addr),
        MakeFaultInfo(RoleOf(range_role), arch::AccSize::kByte, false, static_cast<unsigned>(u),
                      m.opnd[range_role].dsr, static_cast<unsigned>(m.i & 0x7FFF)));
    return false;
  }
  if (combine) {
    Combine(u, c);
    return true;
  }
  const uint32_t x0 = m.has[kSrc0] ? ReadOperand(u, kSrc0, pair) : 0;
  if (m.has[kDst] && Is(m.opnd[kDst], DsdKind::kFabOut)) --st_.out_credits[m.opnd[kDst].color];
  if (split) {
    st_.split = {true, c + 1, static_cast<uint8_t>(u), pair, x0};
    return true;
  }
  const uint32_t x1 = m.has[kSrc1] ? ReadOperand(u, kSrc1, pair) : 0;
  Finish(u, pair, x0, x1, c);
  return true;
}

template <bool kT>
void Ce::FinishSplit() {
  SplitStep& s = st_.split;
  s.active = false;
  const uint32_t x1 = ReadOperand(s.ut, kSrc1, s.pair);
  Finish(s.ut, s.pair, s.x0, x1, cyc_.c);
}

// The computation of an element step taken at `taken`, its result put in flight.
void Ce::Finish(int u, bool pair, uint32_t x0, uint32_t x1, uint64_t taken) {
  Microthread& m = st_.ut[u];
  const DsdOperand& dst = m.opnd[kDst];
  if (m.dot) {
    Advance(u, pair, taken, DotStep(m, pair, x0, x1, taken));
    return;
  }
  int64_t addr = IsMem(dst) ? ElemAddr(dst, m.i) : 0;
  int8_t fifo = -1;
  if (m.has[kDst] && IsFifo(dst)) {  // a push: into the tail's slot, counted when written
    FifoState& f = st_.fifo[dst.color];
    addr = FifoAddr(dst, f.tail);
    f.tail = FifoNext(dst, f.tail);
    ++f.used;
    fifo = static_cast<int8_t>(dst.color);
  }
  PendingResult r =
      ElementResult(m, ResolveStep(m.op, m.fmt), StepScalar(m), pair, x0, x1, m.i, addr);
  r.fifo = fifo;
  Advance(u, pair, taken, r);
}

// Whether a FIFO operand stops the next step: a source FIFO empty, or the destination FIFO full.
bool Ce::FifoBlocked(const Microthread& m) const {
  for (int r = 0; r < 3; ++r) {
    const DsdOperand& o = m.opnd[r];
    if (!m.has[r] || !IsFifo(o)) continue;
    const FifoState& f = st_.fifo[o.color];
    if (r == kDst ? f.used >= o.cap : f.count == 0) return true;
  }
  return false;
}

// An fdot element step: into a partial (docs/isa.md 6.5); the result carries its flags only.
PendingResult Ce::DotStep(Microthread& m, bool pair, uint32_t x0, uint32_t x1, uint64_t taken) {
  const uint64_t i = m.i;
  PendingResult r;
  DotState& d = m.dotst;
  const uint64_t ready = taken + arch::kFmacLatency;
  // A sum is a dot product with ones: x + p rounds as x * 1 + p (docs/isa.md 6.5).
  if (m.op == arch::DsdOp::kSum) x1 = m.fmt == arch::DsdFmt::kF16 ? 0x3C003C00u : 0x3F800000u;
  // Into partial p, by the step's FMAC operation: MulAdd(x0, x1, p) for dot products and sums,
  // Max/Min(x0, p) otherwise.
  const arch::FpOp op = arch::FmacOp(m.op);
  const bool mac = op == arch::FpOp::kMulAdd;
  auto step = [&](arch::FpFmt ff, uint32_t a, uint32_t b, uint32_t p, unsigned lanes) {
    return mac ? FmacLanes(op, ff, a, b, p, lanes, r.flags)
               : FmacLanes(op, ff, a, p, 0, lanes, r.flags);
  };
  if (m.fmt == arch::DsdFmt::kMix) {  // fdothms: f16 elements widened, exactly, to f32
    x0 = FmacLanes(arch::FpOp::kCvtF2F, arch::FpFmt::kF16, x0 & 0xFFFF, 0, 0, 1, r.flags);
    x1 = FmacLanes(arch::FpOp::kCvtF2F, arch::FpFmt::kF16, x1 & 0xFFFF, 0, 0, 1, r.flags);
  }
  if (m.fmt == arch::DsdFmt::kF32 || m.fmt == arch::DsdFmt::kMix) {
    const unsigned j = i % 4;
    d.part[j] = step(arch::FpFmt::kF32, x0, x1, d.part[j], 1);
    d.ready[j] = ready;
  } else if (pair) {
    const unsigned k = (i % 8) / 2;
    d.part[k] = step(arch::FpFmt::kF16, x0, x1, d.part[k], 3);
    d.ready[2 * k] = d.ready[2 * k + 1] = ready;
  } else {
    const unsigned j = i % 8, k = j / 2, lane = j % 2, sh = 16 * lane;
    const uint32_t v =
        step(arch::FpFmt::kF16, (x0 & 0xFFFF) << sh, (x1 & 0xFFFF) << sh, d.part[k], 1u << lane);
    const uint32_t mask = 0xFFFFu << sh;
    d.part[k] = (d.part[k] & ~mask) | (v & mask);
    d.ready[j] = ready;
  }
  return r;
}

// One fdot combine step (docs/isa.md 6.5), taken at `taken`.
void Ce::Combine(int u, uint64_t taken) {
  Microthread& m = st_.ut[u];
  DotState& d = m.dotst;
  PendingResult r;
  const bool f16 = m.fmt == arch::DsdFmt::kF16;
  const arch::FpFmt ff = f16 ? arch::FpFmt::kF16 : arch::FpFmt::kF32;
  const unsigned lanes = f16 ? 3 : 1;
  const uint8_t last = DotStages(m.fmt) - 1;
  uint32_t v = 0;
  const arch::FpOp add = arch::CombineOp(m.op);
  // Pairs of partial sums, then their two sums (f32 ends there); f16 then adds its two lanes,
  // lane 1 moving to the b operand of lane 0.
  switch (d.stage) {
    case 0:
      v = FmacLanes(add, ff, d.part[0], d.part[1], 0, lanes, r.flags);
      break;
    case 1:
      v = FmacLanes(add, ff, d.part[2], d.part[3], 0, lanes, r.flags);
      break;
    case 2:
      v = FmacLanes(add, ff, d.comb[0], d.comb[1], 0, lanes, r.flags);
      break;
    default:
      v = FmacLanes(add, ff, d.comb[2], d.comb[2] >> 16, 0, 1, r.flags) & 0xFFFF;
      break;
  }
  if (d.stage == last) {
    r.kind = PendingResult::kGpr;
    r.reg = m.s_reg;
    r.value = v;
  } else {
    d.comb[d.stage] = v;
    d.comb_ready[d.stage] = taken + arch::kFmacLatency;
  }
  ++d.stage;
  Schedule(u, taken, r);
  Count(arch::PerfEvent::kFmacBusy);  // the FMAC slot of the next cycle
}

template bool Ce::IssueDsd<true>(const arch::InsnInfo&, const isa::Fields&);
template bool Ce::IssueDsd<false>(const arch::InsnInfo&, const isa::Fields&);
template void Ce::EngineStage<true>();
template void Ce::EngineStage<false>();

}  // namespace tessera::ce
