#include "cosim/lockstep.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "asm/disasm.h"
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

uint32_t WordAt(runtime::Machine& m, fabric::Coord pe, uint16_t addr) {
  uint8_t w[4];
  m.ReadSram(pe, addr, w, 4);
  return w[0] | w[1] << 8 | w[2] << 16 | static_cast<uint32_t>(w[3]) << 24;
}

// Compares what both machines did in one cycle on one PE: the differences of the first check
// that finds some, with the check's name in `what`.
std::vector<Difference> CompareCycle(runtime::Machine& a, runtime::Machine& b, fabric::Coord pe,
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
    what = "CeStatus.Quiet";
    return {*q};
  }
  return {};
}

// Whether a run ends after this cycle: a fault, or every PE quiet for o.quiet_cycles cycles in a
// row (`quiet` counts them). Sets `end` when it does.
bool RunEnds(bool fault, bool all_quiet, const LockstepOptions& o, int& quiet, RunEnd& end) {
  if (fault) {
    end = RunEnd::kFault;
    return true;
  }
  quiet = all_quiet ? quiet + 1 : 0;
  if (quiet < o.quiet_cycles) return false;
  end = RunEnd::kQuiet;
  return true;
}

}  // namespace

LockstepResult RunLockstep(runtime::Machine& a, runtime::Machine& b, const LockstepOptions& o) {
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

  // AUDIT (temporary): the first cycle count Q after which both fabrics are quiescent, the end
  // states then, and whether anything happens after it.
  static const bool audit = std::getenv("TESSERA_AUDIT_Q") != nullptr;
  uint64_t q = UINT64_MAX;
  std::vector<EndState> qa, qb;
  std::vector<bool> fault_at_q;
  bool active_after_q = false;
  int quiet = 0;
  while (a.Cycle() < o.max_cycles) {
    const uint64_t cycle = a.Step(ea);
    b.Step(eb);
    bool fault = false, all_quiet = true;
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
      all_quiet &= ea[pe].quiet;
    }
    LinkDifference l = CompareCycleLinks(fa, fb);
    if (l.pe >= 0) {
      diverge(l.pe, cycle, "links", {std::move(l.diff)});
      res.cycles = a.Cycle();
      return res;
    }
    if (audit) {
      const bool both = fa.Quiescent() && fb.Quiescent();
      if (q == UINT64_MAX && both) {
        q = a.Cycle();
        for (int pe = 0; pe < n; ++pe) {
          qa.push_back(CaptureEndState(a, fa.At(pe)));
          qb.push_back(CaptureEndState(b, fa.At(pe)));
          fault_at_q.push_back(ea[pe].faulted);
        }
      } else if (q != UINT64_MAX) {
        bool any = !both;
        for (int pe = 0; pe < n; ++pe) {
          for (const fabric::PeEvents* e : {&ea[pe], &eb[pe]})
            any |= e->retire || e->task_start || !e->debug.empty() || e->faulted != fault_at_q[pe];
        }
        if (any && !active_after_q)
          std::fprintf(stderr, "AUDIT activity after quiescence: Q %llu, cycle %llu\n",
                       static_cast<unsigned long long>(q), static_cast<unsigned long long>(cycle));
        active_after_q |= any;
      }
    }
    if (RunEnds(fault, all_quiet, o, quiet, res.end)) break;
  }
  res.cycles = a.Cycle();
  if (audit && res.end == RunEnd::kQuiet) {
    if (q == UINT64_MAX) {
      std::fprintf(stderr, "AUDIT quiet end at %llu but never quiescent\n",
                   static_cast<unsigned long long>(res.cycles));
    } else {
      std::fprintf(stderr, "AUDIT q %llu end %llu saved %llu\n", static_cast<unsigned long long>(q),
                   static_cast<unsigned long long>(res.cycles),
                   static_cast<unsigned long long>(res.cycles - q));
      for (int pe = 0; pe < n; ++pe) {
        const fabric::Coord c = fa.At(pe);
        for (int side = 0; side < 2; ++side) {
          runtime::Machine& m = side ? b : a;
          for (const Difference& d :
               CompareEndStates(side ? qb[pe] : qa[pe], CaptureEndState(m, c), 100))
            std::fprintf(stderr, "AUDIT end state at Q vs end, %s PE(%d,%d): %s %s -> %s\n",
                         m.Name().c_str(), c.x, c.y, d.what.c_str(), d.a.c_str(), d.b.c_str());
        }
      }
    }
  } else if (audit && res.end == RunEnd::kTimeout) {
    std::fprintf(stderr, "AUDIT timeout\n");
  }
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

SoloResult RunSolo(runtime::Machine& a, const LockstepOptions& o) {
  std::vector<fabric::PeEvents> e;
  SoloResult res;
  res.end = RunEnd::kTimeout;
  int quiet = 0;
  while (a.Cycle() < o.max_cycles) {
    a.Step(e);
    bool fault = false, all_quiet = true;
    for (const fabric::PeEvents& x : e) {
      fault |= x.faulted;
      all_quiet &= x.quiet;
    }
    if (RunEnds(fault, all_quiet, o, quiet, res.end)) break;
  }
  res.cycles = a.Cycle();
  return res;
}

}  // namespace tessera::cosim
