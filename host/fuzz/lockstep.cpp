#include "fuzz/lockstep.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "asm/disasm.h"

namespace tessera::fuzz {
namespace {

std::string RetireText(const PeEvents& e) {
  return e.retire ? fmt::format("pc 0x{:04x}", e.retire_pc) : "none";
}

std::string TaskText(const PeEvents& e) {
  return e.task_start ? fmt::format("task {}", e.task) : "none";
}

std::string DebugText(const ce::DebugRecord& r) {
  return fmt::format("{} (fmt {}, value 0x{:08x})", r.ToString(), r.fmt, r.value);
}

std::string Hex32(uint32_t v) { return fmt::format("0x{:08x}", v); }

// The fault registers of a PE, for reports of a fault on one side only.
std::vector<std::pair<std::string, uint32_t>> FaultRegs(Backend& b, int pe) {
  return {{"FaultStatus", b.ReadReg(pe, arch::FaultStatus::kAddr)},
          {"FaultPc", b.ReadReg(pe, arch::FaultPc::kAddr)},
          {"FaultAddr", b.ReadReg(pe, arch::FaultAddr::kAddr)},
          {"FaultInfo", b.ReadReg(pe, arch::FaultInfo::kAddr)},
          {"RouterFault", b.ReadReg(pe, arch::RouterFault::kAddr)}};
}

// The differences between both backends' register files of one PE (without `dsrs`, the GPRs).
std::vector<Difference> CompareCore(Backend& a, Backend& b, int pe, bool dsrs = true) {
  std::vector<Difference> d;
  CoreRegs ca, cb;
  if (dsrs) {
    a.ReadCore(pe, ca);
    b.ReadCore(pe, cb);
  } else {
    a.ReadGprs(pe, ca);
    b.ReadGprs(pe, cb);
  }
  for (int i = 0; i < static_cast<int>(arch::kNumGprs); ++i)
    if (ca.gpr[i] != cb.gpr[i])
      d.push_back({fmt::format("r{}", i), Hex32(ca.gpr[i]), Hex32(cb.gpr[i])});
  for (int i = 0; i < static_cast<int>(arch::kNumDsrs) && dsrs; ++i) {
    if (ca.dsr[i] != cb.dsr[i]) {
      d.push_back({fmt::format("d{}", i), fmt::format("0x{:016x}", ca.dsr[i]),
                   fmt::format("0x{:016x}", cb.dsr[i])});
    }
  }
  return d;
}

// Compares what both backends did in one cycle on one PE; the differences of the first item
// that differs, with its name in `what`.
std::vector<Difference> CompareCycle(Backend& a, Backend& b, int pe, const PeEvents& x,
                                     const PeEvents& y, bool gprs, bool dsrs, std::string& what) {
  std::vector<Difference> d;
  if (x.retire != y.retire || (x.retire && x.retire_pc != y.retire_pc)) {
    what = "retired instruction";
    d.push_back({"retire", RetireText(x), RetireText(y)});
    return d;
  }
  if (x.task_start != y.task_start || (x.task_start && x.task != y.task)) {
    what = "task start";
    d.push_back({"task start", TaskText(x), TaskText(y)});
    return d;
  }
  if (x.debug != y.debug) {
    what = "debug records";
    for (size_t i = 0; i < std::max(x.debug.size(), y.debug.size()); ++i) {
      d.push_back({fmt::format("debug record {}", i),
                   i < x.debug.size() ? DebugText(x.debug[i]) : "none",
                   i < y.debug.size() ? DebugText(y.debug[i]) : "none"});
    }
    return d;
  }
  const bool fa = a.Faulted(pe), fb = b.Faulted(pe);
  if (fa != fb) {
    what = "fault flag";
    d.push_back({"fault", fa ? "raised" : "clear", fb ? "raised" : "clear"});
    const auto ra = FaultRegs(a, pe), rb = FaultRegs(b, pe);
    for (size_t i = 0; i < ra.size(); ++i)
      d.push_back({ra[i].first, Hex32(ra[i].second), Hex32(rb[i].second)});
    return d;
  }
  if (gprs) d = CompareCore(a, b, pe, dsrs);
  if (!d.empty()) {
    what = "registers";
    return d;
  }
  std::vector<uint16_t> words = x.sram_writes;
  words.insert(words.end(), y.sram_writes.begin(), y.sram_writes.end());
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  for (uint16_t w : words) {
    uint8_t ba[4], bb[4];
    a.ReadSram(pe, w, ba, 4);
    b.ReadSram(pe, w, bb, 4);
    const uint32_t va = ba[0] | ba[1] << 8 | ba[2] << 16 | static_cast<uint32_t>(ba[3]) << 24;
    const uint32_t vb = bb[0] | bb[1] << 8 | bb[2] << 16 | static_cast<uint32_t>(bb[3]) << 24;
    if (va != vb) d.push_back({fmt::format("M[0x{:04x}]", w), Hex32(va), Hex32(vb)});
  }
  if (!d.empty()) {
    what = "memory written";
    return d;
  }
  const bool qa = a.Quiet(pe), qb = b.Quiet(pe);
  if (qa != qb) {
    what = "CeStatus.Quiet";
    d.push_back({"quiet", qa ? "1" : "0", qb ? "1" : "0"});
  }
  return d;
}

}  // namespace

const char* RunEndName(RunEnd e) {
  switch (e) {
    case RunEnd::kQuiet:
      return "quiet";
    case RunEnd::kFault:
      return "fault";
    case RunEnd::kTimeout:
      return "timeout";
  }
  return "?";
}

std::string Divergence::Describe(const std::string& name_a, const std::string& name_b) const {
  std::string s = fmt::format("PE({},{}) cycle {}", coord.x, coord.y, cycle);
  if (has_pc) s += fmt::format(", pc 0x{:04x}: {} (0x{:08x})", pc, insn, word);
  s += fmt::format(": {} differ", what);
  if (!history.empty()) {
    s += "\n  last events:";
    for (const std::string& h : history) s += "\n    " + h;
  }
  for (const Difference& d : diffs) {
    if (d.a.empty() && d.b.empty()) {
      s += fmt::format("\n  {}", d.what);
    } else {
      s += fmt::format("\n  {}: {} {}, {} {}", d.what, name_a, d.a, name_b, d.b);
    }
  }
  return s;
}

namespace {

// Whether a run ends after this cycle: a fault, or every PE quiet for options.quiet_cycles cycles
// in a row (`quiet` counts them). Sets `end` when it does.
bool RunEnds(bool fault, bool all_quiet, const RunOptions& options, int& quiet, RunEnd& end) {
  if (fault) {
    end = RunEnd::kFault;
    return true;
  }
  quiet = all_quiet ? quiet + 1 : 0;
  if (quiet < options.quiet_cycles) return false;
  end = RunEnd::kQuiet;
  return true;
}

// The wavelets of one cycle on every link both fabrics observe: the first that differs, as the
// PE whose link carried it and a Difference; pe -1 when the logs agree.
std::pair<int, Difference> CompareLinkLogs(fabric::Fabric& fa, fabric::Fabric& fb) {
  std::vector<fabric::LinkEvent> la = fa.TakeLinkLog(), lb = fb.TakeLinkLog();
  fabric::CanonicalLinkLogs(la, lb, fa, fb);
  if (la == lb) return {-1, {}};
  size_t k = 0;
  while (k < la.size() && k < lb.size() && la[k] == lb[k]) ++k;
  // The link that differs is the first of the two in link order (each log is sorted so); a
  // link carries at most one wavelet per cycle.
  auto link = [](const fabric::LinkEvent& x) {
    return std::make_tuple(x.pe.y, x.pe.x, x.port, x.into);
  };
  const bool use_a = k < la.size() && (k == lb.size() || link(la[k]) <= link(lb[k]));
  const fabric::LinkEvent& e = use_a ? la[k] : lb[k];
  auto on_link = [&](const std::vector<fabric::LinkEvent>& v) -> std::string {
    for (const fabric::LinkEvent& x : v)
      if (x.pe == e.pe && x.port == e.port && x.into == e.into)
        return fabric::DescribeWavelet(arch::Link::Color(x.word), arch::Link::Data(x.word),
                                       arch::Link::Ctrl(x.word));
    return "nothing";
  };
  return {fa.Index(e.pe), Difference{fabric::DescribeLink(e), on_link(la), on_link(lb)}};
}

}  // namespace

LockstepResult RunLockstep(Backend& a, Backend& b, const RunOptions& options) {
  if (a.Width() != b.Width() || a.Height() != b.Height()) {
    throw std::invalid_argument(fmt::format("lockstep: {} is {}x{} PEs but {} is {}x{}", a.Name(),
                                            a.Width(), a.Height(), b.Name(), b.Width(),
                                            b.Height()));
  }
  const int n = a.NumPes();
  // Fabrics on both sides: their link logs are compared after every cycle too.
  fabric::Fabric* const links_a = a.LinkFabric();
  fabric::Fabric* const links_b = b.LinkFabric();
  const bool links = links_a && links_b;
  if (links) {
    links_a->SetLinkLog(true);
    links_b->SetLinkLog(true);
  }
  std::vector<PeEvents> ea, eb;
  std::vector<int> last_pc(n, -1);
  std::vector<std::deque<std::string>> history(n);
  auto remember = [&](int pe, uint64_t cycle, const PeEvents& e) {
    auto& h = history[pe];
    if (e.task_start) h.push_back(fmt::format("@{} task {} start", cycle, e.task));
    if (e.retire) {
      uint8_t w[4];
      a.ReadSram(pe, e.retire_pc, w, 4);
      const uint32_t word = w[0] | w[1] << 8 | w[2] << 16 | static_cast<uint32_t>(w[3]) << 24;
      h.push_back(
          fmt::format("@{} 0x{:04x} {}", cycle, e.retire_pc, assembler::DisassembleWord(word)));
    }
    while (static_cast<int>(h.size()) > options.history) h.pop_front();
  };
  LockstepResult res;
  res.end = RunEnd::kTimeout;
  auto diverge = [&](int pe, uint64_t cycle, const std::string& what, std::vector<Difference> d) {
    Divergence& v = res.divergence;
    res.diverged = true;
    v.pe = pe;
    v.coord = a.Coord(pe);
    v.cycle = cycle;
    v.what = what;
    v.diffs = std::move(d);
    v.history.assign(history[pe].begin(), history[pe].end());
    if (last_pc[pe] >= 0) {
      v.has_pc = true;
      v.pc = static_cast<uint16_t>(last_pc[pe]);
      uint8_t w[4];
      a.ReadSram(pe, v.pc, w, 4);
      v.word = w[0] | w[1] << 8 | w[2] << 16 | static_cast<uint32_t>(w[3]) << 24;
      v.insn = assembler::DisassembleWord(v.word);
    }
  };

  int quiet = 0;
  while (a.Cycle() < options.max_cycles) {
    const uint64_t cycle = a.Cycle();
    a.Step(ea);
    b.Step(eb);
    bool fault = false, all_quiet = true;
    for (int pe = 0; pe < n; ++pe) {
      if (ea[pe].retire) {
        last_pc[pe] = ea[pe].retire_pc;
      } else if (eb[pe].retire) {
        last_pc[pe] = eb[pe].retire_pc;
      }
      if (options.history > 0) remember(pe, cycle, ea[pe]);
      std::string what;
      const bool all = !options.regs_on_retire;
      const bool dsrs = all || ea[pe].dsr_write || eb[pe].dsr_write;
      std::vector<Difference> d =
          CompareCycle(a, b, pe, ea[pe], eb[pe], all || ea[pe].retire || dsrs, dsrs, what);
      if (!d.empty()) {
        diverge(pe, cycle, what, std::move(d));
        res.cycles = a.Cycle();
        return res;
      }
      fault |= a.Faulted(pe);
      all_quiet &= a.Quiet(pe);
    }
    if (links) {
      auto [pe, d] = CompareLinkLogs(*links_a, *links_b);
      if (pe >= 0) {
        diverge(pe, cycle, "links", {std::move(d)});
        res.cycles = a.Cycle();
        return res;
      }
    }
    if (RunEnds(fault, all_quiet, options, quiet, res.end)) break;
  }
  res.cycles = a.Cycle();
  for (int pe = 0; pe < n; ++pe) {
    std::vector<Difference> d;
    if (options.regs_on_retire) d = CompareCore(a, b, pe);
    if (d.empty()) d = CompareEndStates(CaptureEndState(a, pe), CaptureEndState(b, pe));
    if (!d.empty()) {
      diverge(pe, res.cycles, "end state", std::move(d));
      break;
    }
  }
  return res;
}

SoloResult RunSolo(Backend& a, const RunOptions& options) {
  std::vector<PeEvents> e;
  SoloResult res;
  res.end = RunEnd::kTimeout;
  int quiet = 0;
  while (a.Cycle() < options.max_cycles) {
    a.Step(e);
    bool fault = false, all_quiet = true;
    for (int pe = 0; pe < a.NumPes(); ++pe) {
      fault |= a.Faulted(pe);
      all_quiet &= a.Quiet(pe);
    }
    if (RunEnds(fault, all_quiet, options, quiet, res.end)) break;
  }
  res.cycles = a.Cycle();
  return res;
}

}  // namespace tessera::fuzz
