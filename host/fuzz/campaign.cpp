#include "fuzz/campaign.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/link.h"
#include "ce/fault_text.h"

namespace tessera::fuzz {
namespace {

// A PE's CE fault in words, from its registers (the same text for every backend).
std::string DescribeFault(Backend& b, int pe) {
  ce::FaultContext f;
  const fabric::Coord c = b.Coord(pe);
  f.x = static_cast<uint16_t>(c.x);
  f.y = static_cast<uint16_t>(c.y);
  f.status = b.ReadReg(pe, arch::FaultStatus::kAddr);
  f.pc = b.ReadReg(pe, arch::FaultPc::kAddr);
  f.addr = b.ReadReg(pe, arch::FaultAddr::kAddr);
  f.info = b.ReadReg(pe, arch::FaultInfo::kAddr);
  if (f.pc % 4 == 0 && f.pc + 4 <= arch::kSramBytes) {
    uint8_t w[4];
    b.ReadSram(pe, static_cast<uint16_t>(f.pc), w, 4);
    f.word = w[0] | w[1] << 8 | w[2] << 16 | static_cast<uint32_t>(w[3]) << 24;
  }
  for (uint32_t t = 0; t < arch::kNumTasks; ++t)
    f.task_kind[t] =
        static_cast<uint8_t>(arch::TaskCfg::Kind(b.ReadReg(pe, arch::TaskCfg::Addr(t))));
  std::string s = ce::DescribeCeFault(f);
  const uint32_t router = b.ReadReg(pe, arch::RouterFault::kAddr);
  if (router) s += fmt::format("{}RouterFault 0x{:08x}", s.empty() ? "" : "; ", router);
  return s;
}

// What a PE is doing, for a run that does not end: the running task and pc, busy microthreads
// and what they wait for, CE queues holding wavelets, and the task masks.
std::string DescribeActivity(Backend& b, int pe) {
  using S = arch::CeStatus;
  const uint32_t st = b.ReadReg(pe, arch::CeStatus::kAddr);
  std::string s = S::Running(st) ? fmt::format("task {} runs at pc 0x{:04x}", S::Task(st),
                                               b.ReadReg(pe, arch::CePc::kAddr))
                                 : std::string("no task runs");
  for (uint32_t u = 0; u < arch::kNumMicrothreads; ++u) {
    const uint32_t us = b.ReadReg(pe, arch::UtStatus::Addr(u));
    if (!arch::UtStatus::Busy(us)) continue;
    const uint32_t ui = b.ReadReg(pe, arch::UtInfo::Addr(u));
    s += fmt::format("; ut{} busy with the operation at pc 0x{:04x} (wait {}, color {}, {} done)",
                     u, arch::UtInfo::Pc(ui), arch::UtStatus::Wait(us), arch::UtInfo::Color(ui),
                     arch::UtStatus::Done(us));
  }
  for (uint32_t c = 0; c < arch::kNumColors; ++c) {
    const uint32_t q = b.ReadReg(pe, arch::CeColor::Addr(c));
    if (arch::CeColor::InCount(q)) {
      s += fmt::format("; color {}: {} wavelets queued{}", c, arch::CeColor::InCount(q),
                       arch::CeColor::HeadCtrl(q) ? ", a control wavelet first" : "");
    }
  }
  s += fmt::format("; TaskActive 0x{:08x}, TaskBlocked 0x{:08x}",
                   b.ReadReg(pe, arch::TaskActive::kAddr), b.ReadReg(pe, arch::TaskBlocked::kAddr));
  return s;
}

// Whether the run ended as the generator intended; the reason if not.
std::optional<std::string> CheckOutcome(const Program& p, const assembler::PeProgram& image,
                                        Backend& b, RunEnd end, const RunOptions& options) {
  if (end == RunEnd::kTimeout)
    return fmt::format("the program did not end within {} cycles: {}", options.max_cycles,
                       DescribeActivity(b, 0));
  const bool faulted = b.Faulted(0);
  if (p.expect_fault == arch::CeFault::kNone) {
    if (faulted) return "unexpected fault: " + DescribeFault(b, 0);
    return std::nullopt;
  }
  const std::string want =
      fmt::format("the deliberate {} fault at fault_site", FaultName(p.expect_fault));
  if (!faulted) return fmt::format("the program ended quiet, without {}", want);
  const auto site = image.symbols.find("fault_site");
  const uint32_t cause = b.ReadReg(0, arch::FaultStatus::kAddr);
  const uint32_t pc = b.ReadReg(0, arch::FaultPc::kAddr);
  if (cause != static_cast<uint32_t>(p.expect_fault) ||
      (site != image.symbols.end() && pc != site->second.address)) {
    return fmt::format("expected {} (pc 0x{:04x}), got: {}", want,
                       site != image.symbols.end() ? site->second.address : 0, DescribeFault(b, 0));
  }
  return std::nullopt;
}

}  // namespace

ProgramRun RunProgram(const Program& p, const BackendFactory& a, const BackendFactory& b,
                      const RunOptions& options) {
  ProgramRun run;
  auto fail = [&](const std::string& kind, const std::string& message) {
    run.failure = Failure{p.seed, kind, message, ""};
    return run;
  };
  assembler::PeProgram image;
  try {
    const assembler::AssembleResult r =
        assembler::AssembleText(fmt::format("fuzz-{}.s", p.seed), p.source);
    image = assembler::LinkSingle({r.object}, {});
  } catch (const assembler::Error& e) {
    return fail("assembly", e.what());
  }
  const auto entry = image.symbols.find(p.launch);
  int launch = -1;
  for (const assembler::TaskBinding& t : image.tasks)
    if (entry != image.symbols.end() && t.entry == entry->second.address) launch = t.id;
  if (launch < 0) return fail("assembly", fmt::format("no task starts at '{}'", p.launch));

  std::unique_ptr<Backend> ba = a(), bb = b ? b() : nullptr;
  ba->Load(0, image);
  ba->Launch(0, launch);
  if (bb) {
    bb->Load(0, image);
    bb->Launch(0, launch);
    const LockstepResult r = RunLockstep(*ba, *bb, options);
    run.cycles = r.cycles;
    run.end = r.end;
    if (r.diverged) return fail("divergence", r.divergence.Describe(ba->Name(), bb->Name()));
  } else {
    const SoloResult r = RunSolo(*ba, options);
    run.cycles = r.cycles;
    run.end = r.end;
  }
  if (auto why = CheckOutcome(p, image, *ba, run.end, options)) return fail("outcome", *why);
  return run;
}

std::string DumpProgram(const std::string& dir, const Program& p, const std::string& report) {
  std::filesystem::create_directories(dir);
  const std::string base = (std::filesystem::path(dir) / fmt::format("fuzz-{}", p.seed)).string();
  std::ofstream s(base + ".s"), t(base + ".txt");
  s << p.source;
  t << report << "\n";
  if (!s || !t) throw std::runtime_error(fmt::format("--dump: cannot write {}.s", base));
  return base + ".s";
}

CampaignResult RunCampaign(const CampaignOptions& options, const BackendFactory& a,
                           const BackendFactory& b,
                           const std::function<void(const Failure&)>& on_failure) {
  CampaignResult res;
  for (int i = 0; i < options.programs; ++i) {
    const Program p = Generate(options.seed + static_cast<uint64_t>(i), options.gen);
    ProgramRun r = RunProgram(p, a, b, options.run);
    ++res.programs;
    res.cycles += r.cycles;
    if (!r.failure) continue;
    Failure& f = *r.failure;
    if (!options.dump_dir.empty()) f.dumped = DumpProgram(options.dump_dir, p, f.message);
    if (on_failure) on_failure(f);
    res.failures.push_back(std::move(f));
  }
  return res;
}

}  // namespace tessera::fuzz
