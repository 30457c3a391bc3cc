#include "fuzz/campaign.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/link.h"
#include "ce/fault_text.h"
#include "cosim/end_state.h"
#include "cosim/faults.h"
#include "machine/func_machine.h"
#include "machine/pe_load.h"

namespace tessera::fuzz {
namespace {

// A PE's CE fault in words, from its registers (the same text for every backend).
std::string DescribeFault(machine::Machine& b, fabric::Coord c) {
  ce::FaultContext f;
  f.x = static_cast<uint16_t>(c.x);
  f.y = static_cast<uint16_t>(c.y);
  f.status = b.Read(c, arch::FaultStatus::kAddr);
  f.pc = b.Read(c, arch::FaultPc::kAddr);
  f.addr = b.Read(c, arch::FaultAddr::kAddr);
  f.info = b.Read(c, arch::FaultInfo::kAddr);
  if (f.pc % 4 == 0 && f.pc + 4 <= arch::kSramBytes) {
    uint8_t w[4];
    b.ReadSram(c, static_cast<uint16_t>(f.pc), w, 4);
    f.word = w[0] | w[1] << 8 | w[2] << 16 | static_cast<uint32_t>(w[3]) << 24;
  }
  for (uint32_t t = 0; t < arch::kNumTasks; ++t)
    f.task_kind[t] = static_cast<uint8_t>(arch::TaskCfg::Kind(b.Read(c, arch::TaskCfg::Addr(t))));
  std::string s = ce::DescribeCeFault(f);
  const uint32_t router = b.Read(c, arch::RouterFault::kAddr);
  if (router) s += fmt::format("{}RouterFault 0x{:08x}", s.empty() ? "" : "; ", router);
  return s;
}

// What a PE is doing, for a run that does not end: the running task and pc, busy microthreads
// and what they wait for, CE queues holding wavelets, and the task masks.
std::string DescribeActivity(machine::Machine& b, fabric::Coord c) {
  using S = arch::CeStatus;
  const uint32_t st = b.Read(c, arch::CeStatus::kAddr);
  std::string s = S::Running(st) ? fmt::format("task {} runs at pc 0x{:04x}", S::Task(st),
                                               b.Read(c, arch::CePc::kAddr))
                                 : std::string("no task runs");
  for (uint32_t u = 0; u < arch::kNumMicrothreads; ++u) {
    const uint32_t us = b.Read(c, arch::UtStatus::Addr(u));
    if (!arch::UtStatus::Busy(us)) continue;
    const uint32_t ui = b.Read(c, arch::UtInfo::Addr(u));
    s += fmt::format("; ut{} busy with the operation at pc 0x{:04x} (wait {}, color {}, {} done)",
                     u, arch::UtInfo::Pc(ui), arch::UtStatus::Wait(us), arch::UtInfo::Color(ui),
                     arch::UtStatus::Done(us));
  }
  for (uint32_t color = 0; color < arch::kNumColors; ++color) {
    const uint32_t q = b.Read(c, arch::CeColor::Addr(color));
    if (arch::CeColor::InCount(q)) {
      s += fmt::format("; color {}: {} wavelets queued{}", color, arch::CeColor::InCount(q),
                       arch::CeColor::HeadCtrl(q) ? ", a control wavelet first" : "");
    }
  }
  s += fmt::format("; TaskActive 0x{:08x}, TaskBlocked 0x{:08x}",
                   b.Read(c, arch::TaskActive::kAddr), b.Read(c, arch::TaskBlocked::kAddr));
  return s;
}

// One PE's program, assembled and linked, and the local task the host launches.
struct Image {
  assembler::PeProgram image;
  int launch = -1;
  bool active_at_load = false;  // the image starts the task itself; the host does not launch it
};

// Assembles and links p as file `name`; the error in words if that fails.
std::optional<std::string> Build(const Program& p, const std::string& name, Image& out) {
  try {
    const assembler::AssembleResult r = assembler::AssembleText(name, p.source);
    out.image = assembler::LinkSingle({r.object}, {});
  } catch (const assembler::Error& e) {
    return e.what();
  }
  const auto entry = out.image.symbols.find(p.launch);
  for (const assembler::TaskBinding& t : out.image.tasks)
    if (entry != out.image.symbols.end() && t.entry == entry->second.address) {
      out.launch = t.id;
      out.active_at_load = t.active;
    }
  if (out.launch < 0) return fmt::format("no task starts at '{}'", p.launch);
  return std::nullopt;
}

// Whether PE pe's run ended as its program intended; the reason if not.
std::optional<std::string> CheckPe(const Program& p, const assembler::PeProgram& image,
                                   machine::Machine& b, fabric::Coord pe) {
  const bool faulted = cosim::Faulted(b, pe);
  if (p.expect_fault == arch::CeFault::kNone) {
    if (faulted) return "unexpected fault: " + DescribeFault(b, pe);
    return std::nullopt;
  }
  const std::string want =
      fmt::format("the deliberate {} fault at fault_site", FaultName(p.expect_fault));
  if (!faulted) return fmt::format("the program ended quiet, without {}", want);
  const auto site = image.symbols.find("fault_site");
  const uint32_t cause = b.Read(pe, arch::FaultStatus::kAddr);
  const uint32_t pc = b.Read(pe, arch::FaultPc::kAddr);
  if (cause != static_cast<uint32_t>(p.expect_fault) ||
      (site != image.symbols.end() && pc != site->second.address)) {
    return fmt::format("expected {} (pc 0x{:04x}), got: {}", want,
                       site != image.symbols.end() ? site->second.address : 0,
                       DescribeFault(b, pe));
  }
  return std::nullopt;
}

// Whether the run ended as the generator intended; the reason if not. PE i ran pes[i].
std::optional<std::string> CheckOutcome(const std::vector<Program>& pes,
                                        const std::vector<Image>& images, machine::Machine& b,
                                        RunEnd end, const RunOptions& options) {
  const bool alone = pes.size() == 1;
  const fabric::Fabric& fab = b.Fabric();
  auto name = [&](int pe) {
    const fabric::Coord c = fab.At(pe);
    return alone ? std::string() : fmt::format("PE({},{}): ", c.x, c.y);
  };
  if (end == RunEnd::kTimeout) {
    std::string busy;
    for (int pe = 0; pe < fab.NumPes(); ++pe) {
      const fabric::Coord c = fab.At(pe);
      if (alone || !arch::CeStatus::Quiet(b.Read(c, arch::CeStatus::kAddr)))
        busy += (busy.empty() ? "" : "; ") + name(pe) + DescribeActivity(b, c);
    }
    return fmt::format("the program did not end within {} cycles: {}", options.max_cycles, busy);
  }
  for (int pe = 0; pe < fab.NumPes(); ++pe) {
    if (auto why = CheckPe(pes[pe], images[pe].image, b, fab.At(pe))) return name(pe) + *why;
  }
  // A program that ends settled keeps one microthread waiting; the others end quiet.
  bool any_fault = false;
  for (const Program& p : pes) any_fault |= p.expect_fault != arch::CeFault::kNone;
  if (any_fault) return std::nullopt;
  for (int pe = 0; pe < fab.NumPes(); ++pe) {
    const fabric::Coord c = fab.At(pe);
    const uint32_t status = b.Read(c, arch::CeStatus::kAddr);
    if (pes[pe].expect_settled) {
      if (arch::CeStatus::Quiet(status) || !arch::CeStatus::Settled(status))
        return name(pe) + fmt::format(
                              "the program should end settled, with a microthread "
                              "waiting for data, but ended {}: {}",
                              arch::CeStatus::Quiet(status) ? "quiet" : "unsettled",
                              DescribeActivity(b, c));
    } else if (!arch::CeStatus::Quiet(status)) {
      return name(pe) +
             "the program should end quiet, but ended settled: " + DescribeActivity(b, c);
    }
  }
  return std::nullopt;
}

// Runs PE i's program pes[i] on `a`, in lockstep with `b` unless b is empty; `fabric`: the host
// sets FabricDim on every PE.
ProgramRun RunPes(uint64_t seed, const std::vector<Program>& pes, bool fabric,
                  const MachineFactory& a, const MachineFactory& b, const RunOptions& options) {
  ProgramRun run;
  auto fail = [&](const std::string& kind, const std::string& message) {
    run.failure = Failure{seed, kind, message, ""};
    return run;
  };
  std::unique_ptr<machine::Machine> ba = a(), bb = b ? b() : nullptr;
  const int n = ba->Fabric().NumPes();
  if (n != static_cast<int>(pes.size()))
    throw std::invalid_argument(
        fmt::format("{} programs for the {} PEs of backend {}", pes.size(), n, ba->Name()));
  std::vector<Image> images(pes.size());
  for (int pe = 0; pe < n; ++pe) {
    const fabric::Coord c = ba->Fabric().At(pe);
    const std::string file = fabric ? fmt::format("fuzz-{}-PE{}_{}.s", seed, c.x, c.y)
                                    : fmt::format("fuzz-{}.s", pes[pe].seed);
    if (auto error = Build(pes[pe], file, images[pe])) return fail("assembly", *error);
  }
  auto load = [&](machine::Machine& x) {
    for (int pe = 0; pe < n; ++pe) {
      const fabric::Coord c = x.Fabric().At(pe);
      if (fabric)
        x.Write(c, arch::FabricDim::kAddr,
                static_cast<uint32_t>(x.Height()) << 16 | static_cast<uint32_t>(x.Width()));
      machine::LoadPeProgram(x, c, images[pe].image);
    }
    for (int pe = 0; pe < n; ++pe)
      if (!images[pe].active_at_load) machine::LaunchTask(x, x.Fabric().At(pe), images[pe].launch);
  };
  for (machine::Machine* x : {ba.get(), bb.get()})
    if (x) load(*x);
  // How two machines that each ran alone ended, and their end state: the difference, if any.
  auto apart = [&options](machine::Machine& a, const cosim::SoloResult& ra,
                          machine::Machine& b) -> std::string {
    const cosim::SoloResult rb = cosim::RunSolo(b, options);
    if (ra.cycles != rb.cycles || ra.end != rb.end)
      return fmt::format("the run ended ({}) after {} cycles on {}, but ({}) after {} on {}",
                         RunEndName(ra.end), ra.cycles, a.Name(), RunEndName(rb.end), rb.cycles,
                         b.Name());
    return cosim::CompareState(a, b);
  };
  if (bb && options.apart) {
    const cosim::SoloResult ra = cosim::RunSolo(*ba, options);
    run.cycles = ra.cycles;
    run.end = ra.end;
    if (const std::string diff = apart(*ba, ra, *bb); !diff.empty())
      return fail("divergence", diff);
  } else if (bb) {
    const cosim::LockstepResult r = cosim::RunLockstep(*ba, *bb, options);
    run.cycles = r.cycles;
    run.end = r.end;
    if (r.diverged) return fail("divergence", r.divergence.Describe(ba->Name(), bb->Name()));
  } else {
    const cosim::SoloResult r = cosim::RunSolo(*ba, options);
    run.cycles = r.cycles;
    run.end = r.end;
  }
  if (auto why = CheckOutcome(pes, images, *ba, run.end, options)) return fail("outcome", *why);
  // The functional model's paths, each alone against the reference.
  if (!options.paths.empty()) {
    std::unique_ptr<machine::Machine> ref = options.reference();
    load(*ref);
    const cosim::SoloResult rr = cosim::RunSolo(*ref, options);
    for (const MachineFactory& make : options.paths) {
      std::unique_ptr<machine::Machine> v = make();
      load(*v);
      if (const std::string diff = apart(*ref, rr, *v); !diff.empty())
        return fail("divergence", diff);
    }
  }
  return run;
}

}  // namespace

MachineFactory FuncReference(int width, int height) {
  return [width, height] { return machine::MakeFuncMachine(width, height, {1, 1}); };
}

std::vector<MachineFactory> PathVariants(int width, int height) {
  using Paths = ce::Ce::FastPaths;
  std::vector<MachineFactory> v;
  auto func = [width, height](Paths p, bool traced, int threads) -> MachineFactory {
    return [=] {
      auto m = std::make_unique<machine::FuncMachine>(width, height, std::make_pair(1, 1));
      m->SetFastPaths(p);
      if (traced) m->SetTraced();
      m->SetThreads(threads);
      return std::unique_ptr<machine::Machine>(std::move(m));
    };
  };
  v.push_back(func(Paths{false, true, true}, false, 1));
  v.push_back(func(Paths{true, false, true}, false, 1));
  v.push_back(func(Paths{true, true, false}, false, 1));
  v.push_back(func(Paths{false, false, false}, false, 1));
  v.push_back(func(Paths{}, true, 1));
  if (width * height > 1) v.push_back(func(Paths{}, false, 2));
  return v;
}

ProgramRun RunProgram(const Program& p, const MachineFactory& a, const MachineFactory& b,
                      const RunOptions& options) {
  return RunPes(p.seed, {p}, false, a, b, options);
}

ProgramRun RunFabricProgram(const FabricProgram& f, const MachineFactory& a,
                            const MachineFactory& b, const RunOptions& options) {
  return RunPes(f.seed, f.pes, true, a, b, options);
}

std::string DumpProgram(const std::string& dir, uint64_t seed, const std::string& source,
                        const std::string& report) {
  std::filesystem::create_directories(dir);
  const std::string base = (std::filesystem::path(dir) / fmt::format("fuzz-{}", seed)).string();
  std::ofstream s(base + ".s"), t(base + ".txt");
  s << source;
  t << report << "\n";
  if (!s || !t) throw std::runtime_error(fmt::format("--dump: cannot write {}.s", base));
  return base + ".s";
}

CampaignResult RunCampaign(const CampaignOptions& options, const MachineFactory& a,
                           const MachineFactory& b,
                           const std::function<void(const Failure&)>& on_failure) {
  CampaignResult res;
  const bool fabric = options.width * options.height > 1;
  for (int i = 0; i < options.programs; ++i) {
    const uint64_t seed = options.seed + static_cast<uint64_t>(i);
    std::string source;
    ProgramRun r;
    if (fabric) {
      const FabricProgram p = GenerateFabric(seed, options.width, options.height, options.gen);
      r = RunFabricProgram(p, a, b, options.run);
      if (r.failure && !options.dump_dir.empty()) source = p.Source();
    } else {
      const Program p = Generate(seed, options.gen);
      r = RunProgram(p, a, b, options.run);
      source = p.source;
    }
    ++res.programs;
    res.cycles += r.cycles;
    if (!r.failure) continue;
    Failure& f = *r.failure;
    if (!options.dump_dir.empty())
      f.dumped = DumpProgram(options.dump_dir, seed, source, f.message);
    if (on_failure) on_failure(f);
    res.failures.push_back(std::move(f));
  }
  return res;
}

}  // namespace tessera::fuzz
