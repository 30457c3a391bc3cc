#include "cosim/lockstep.h"

#include <fmt/format.h>

#include <deque>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "asm/disasm.h"
#include "cosim/back_pressure.h"
#include "cosim/debug.h"
#include "cosim/end_state.h"
#include "cosim/faults.h"
#include "cosim/links.h"
#include "cosim/quiescence.h"
#include "cosim/registers.h"
#include "cosim/retires.h"
#include "cosim/tasks.h"
#include "fabric/pe_events.h"

namespace tessera::cosim {
namespace {

uint32_t WordAt(machine::Machine& m, fabric::Coord pe, uint16_t addr) {
  uint8_t w[4];
  m.ReadSram(pe, addr, w, 4);
  return w[0] | w[1] << 8 | w[2] << 16 | static_cast<uint32_t>(w[3]) << 24;
}

// Compares what both machines did in one cycle on one PE: the differences of the first check
// that finds some, with the check's name in `what`.
std::vector<Difference> CompareCycle(machine::Machine& a, machine::Machine& b, fabric::Coord pe,
                                     const fabric::PeEvents& x, const fabric::PeEvents& y,
                                     bool gprs, bool dsrs, std::string& what) {
  if (auto d = CompareRetire(x, y)) {
    what = "retired instruction";
    return {*d};
  }
  if (auto d = CompareCycleTask(x, y)) {
    what = "task start";
    return {*d};
  }
  std::vector<Difference> d = CompareCycleDebug(x.debug, y.debug);
  if (!d.empty()) {
    what = "debug records";
    return d;
  }
  d = CompareFaultFlag(a, b, pe, x.faulted, y.faulted);
  if (!d.empty()) {
    what = "fault flag";
    return d;
  }
  if (gprs) d = CompareCore(a, b, pe, dsrs);
  if (!d.empty()) {
    what = "registers";
    return d;
  }
  if (!x.sram_writes.empty() || !y.sram_writes.empty()) {
    std::vector<uint16_t> words = x.sram_writes;
    words.insert(words.end(), y.sram_writes.begin(), y.sram_writes.end());
    d = CompareWrittenSram(a, b, pe, std::move(words));
    if (!d.empty()) {
      what = "memory written";
      return d;
    }
  }
  if (auto q = CompareCeQuiet(x, y)) {
    what = "CeStatus";
    return {*q};
  }
  return {};
}

}  // namespace

LockstepResult RunLockstep(machine::Machine& a, machine::Machine& b, const LockstepOptions& o) {
  if (a.Width() != b.Width() || a.Height() != b.Height()) {
    throw std::invalid_argument(fmt::format("lockstep: {} is {}x{} PEs but {} is {}x{}", a.Name(),
                                            a.Width(), a.Height(), b.Name(), b.Width(),
                                            b.Height()));
  }
  fabric::Fabric& fa = a.Fabric();
  fabric::Fabric& fb = b.Fabric();
  const int n = fa.NumPes();
  fa.SetLinkLog(true);  // the wavelets on every link both observe, after every cycle
  fb.SetLinkLog(true);
  fa.SetBackPressureCount(true);  // and the back pressure at every router output
  fb.SetBackPressureCount(true);
  std::vector<fabric::PeEvents> ea, eb;
  std::vector<int> last_pc(n, -1);
  std::vector<std::deque<std::string>> history(n);
  auto remember = [&](int pe, uint64_t cycle, const fabric::PeEvents& e) {
    auto& h = history[pe];
    if (e.task_start) h.push_back(fmt::format("@{} task {} start", cycle, e.task));
    if (e.retire) {
      const uint32_t word = WordAt(a, fa.At(pe), e.retire_pc);
      h.push_back(
          fmt::format("@{} 0x{:04x} {}", cycle, e.retire_pc, assembler::DisassembleWord(word)));
    }
    while (static_cast<int>(h.size()) > o.history) h.pop_front();
  };
  LockstepResult res;
  res.end = RunEnd::kTimeout;
  auto diverge = [&](int pe, uint64_t cycle, const std::string& what, std::vector<Difference> d) {
    Divergence& v = res.divergence;
    res.diverged = true;
    v.pe = pe;
    v.coord = fa.At(pe);
    v.cycle = cycle;
    v.what = what;
    v.diffs = std::move(d);
    v.history.assign(history[pe].begin(), history[pe].end());
    if (last_pc[pe] >= 0) {
      v.has_pc = true;
      v.pc = static_cast<uint16_t>(last_pc[pe]);
      v.word = WordAt(a, v.coord, v.pc);
      v.insn = assembler::DisassembleWord(v.word);
    }
  };

  while (a.Cycle() < o.max_cycles) {
    const uint64_t cycle = a.Step(ea);
    b.Step(eb);
    bool fault = false;
    for (int pe = 0; pe < n; ++pe) {
      if (ea[pe].retire) {
        last_pc[pe] = ea[pe].retire_pc;
      } else if (eb[pe].retire) {
        last_pc[pe] = eb[pe].retire_pc;
      }
      if (o.history > 0) remember(pe, cycle, ea[pe]);
      std::string what;
      const bool all = !o.regs_on_retire;
      const bool dsrs = all || ea[pe].dsr_write || eb[pe].dsr_write;
      std::vector<Difference> d =
          CompareCycle(a, b, fa.At(pe), ea[pe], eb[pe], all || ea[pe].retire || dsrs, dsrs, what);
      if (!d.empty()) {
        diverge(pe, cycle, what, std::move(d));
        res.cycles = a.Cycle();
        return res;
      }
      fault |= ea[pe].faulted;
    }
    LinkDifference l = CompareCycleLinks(fa, fb);
    if (l.pe >= 0) {
      diverge(l.pe, cycle, "links", {std::move(l.diff)});
      res.cycles = a.Cycle();
      return res;
    }
    BackPressureDifference bp = CompareBackPressure(fa, fb);
    if (bp.pe >= 0) {
      diverge(bp.pe, cycle, "back pressure", {std::move(bp.diff)});
      res.cycles = a.Cycle();
      return res;
    }
    if (fault) {
      res.end = RunEnd::kFault;
      break;
    }
    const bool qa = fa.Quiescent(), qb = fb.Quiescent();
    const bool sa = fa.Settled(), sb = fb.Settled();
    std::optional<Difference> d = CompareQuiescence(qa, qb);
    if (!d) d = CompareSettled(sa, sb);
    if (d) {
      diverge(0, cycle, "quiescence", {*d});
      res.cycles = a.Cycle();
      return res;
    }
    if (sa) {  // quiescent, or nothing can move until the host acts
      res.end = qa ? RunEnd::kQuiet : RunEnd::kSettled;
      break;
    }
  }
  res.cycles = a.Cycle();
  for (int pe = 0; pe < n; ++pe) {
    const fabric::Coord c = fa.At(pe);
    std::vector<Difference> d;
    if (o.regs_on_retire) d = CompareCore(a, b, c);
    if (d.empty()) d = CompareEndStates(CaptureEndState(a, c), CaptureEndState(b, c));
    if (!d.empty()) {
      diverge(pe, res.cycles, "end state", std::move(d));
      break;
    }
  }
  return res;
}

SoloResult RunSolo(machine::Machine& a, const LockstepOptions& o) {
  fabric::Fabric& f = a.Fabric();
  f.SetStopWhen(fabric::Fabric::StopWhen::kSettled);  // after a fault, or once settled
  SoloResult res;
  res.end = RunEnd::kTimeout;
  while (a.Cycle() < o.max_cycles) {
    a.Run(o.max_cycles - a.Cycle());
    if (!f.Faults().empty()) {
      res.end = RunEnd::kFault;
      break;
    }
    if (f.Settled()) {
      res.end = f.Quiescent() ? RunEnd::kQuiet : RunEnd::kSettled;
      break;
    }
  }
  res.cycles = a.Cycle();
  return res;
}

}  // namespace tessera::cosim
