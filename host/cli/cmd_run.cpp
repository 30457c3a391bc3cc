// `tessera run`: runs a program image (docs/layout.md) on a backend through the host runtime
// (docs/runtime.md), for programs that need no host code of their own: memcpy inputs from files,
// launch, run to quiescence, memcpy outputs to files.
//
//   tessera run axpy.timg --backend cosim --in x=x.npy --in y=y.npy --launch main --out y=out.npy
//
// Exit status: 0 when the run reached quiescence; 1 when it faulted, passed --max-cycles or (cosim)
// the backends differed, with the reason on stderr; 2 on bad input, before anything runs.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "args.h"
#include "asm/diagnostics.h"
#include "asm/object.h"
#include "commands.h"
#include "fabric/fabric.h"
#include "instrument_args.h"
#include "layout/image.h"
#include "runtime/device.h"
#include "runtime/npy.h"
#include "stream_files.h"
#include "util/enum_names.h"
#include "util/json.h"

namespace tessera::cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

// SIGINT during a run: the run stops at its next check; a second one ends the process.
void OnInterrupt(int) {
  g_interrupted = 1;
  std::signal(SIGINT, SIG_DFL);
}

struct RunArgs {
  std::string image;
  std::string fabric;
  std::string backend = "func";
  std::string tile = "auto";
  std::vector<std::string> in, out, launch, stream_in, stream_out;
  uint64_t max_cycles = 10'000'000;
  int threads = 1;
  bool clock_idle_tiles = false;
  bool eval_input_region = false;
  bool no_run_ahead = false;
  bool host_port = false, col_major = false, quiet = false, no_progress = false, json = false;
  std::string wave, wave_window, wave_region, lockstep;
  InstrumentArgs watch;  // traces, timeline, heatmaps, profile (docs/profiling.md)
};

// SYMBOL[@X,Y,WxH]=FILE (--in, --out) or TASK[@X,Y,WxH][=ARG] (--launch).
struct Spec {
  std::string name;
  std::optional<runtime::Region> region;
  std::string value;
};

Spec ParseSpec(const std::string& text, const std::string& option, bool value_required) {
  static const std::regex re(
      R"(^([A-Za-z_.$][A-Za-z0-9_.$]*)(@([0-9]{1,5}),([0-9]{1,5}),([0-9]{1,5})x([0-9]{1,5}))?(=(.+))?$)");
  std::smatch m;
  if (!std::regex_match(text, m, re) || (value_required && !m[7].matched))
    throw std::invalid_argument(fmt::format(
        "{} '{}': expected {}", option, text,
        value_required ? "SYMBOL=FILE or SYMBOL@X,Y,WxH=FILE" : "TASK, TASK@X,Y,WxH or TASK=ARG"));
  Spec s;
  s.name = m[1];
  if (m[2].matched)
    s.region = runtime::Region{std::stoi(m[3]), std::stoi(m[4]), std::stoi(m[5]), std::stoi(m[6])};
  if (m[7].matched) s.value = m[8];
  return s;
}

bool IsNpy(const std::string& path) { return EndsWith(path, ".npy"); }

// An output file that cannot be written is refused before anything runs: its folder must exist
// and be writable, and so must the file if it exists.
void CheckWritable(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (fs::is_directory(p, ec))
    throw std::invalid_argument(fmt::format("{}: cannot write {}: it is a folder", what, path));
  if (!fs::is_directory(dir, ec))
    throw std::invalid_argument(
        fmt::format("{}: cannot write {}: there is no folder {}", what, path, dir.string()));
  const bool exists = fs::exists(p, ec);
  if (::access(exists ? path.c_str() : dir.c_str(), W_OK) != 0)
    throw std::invalid_argument(fmt::format("{}: cannot write {}: {} is not writable", what, path,
                                            exists ? path : dir.string()));
}

constexpr util::EnumName<arch::ElemType> kDtypeTable[] = {
    {arch::ElemType::kF32, "<f4"}, {arch::ElemType::kI32, "<i4"}, {arch::ElemType::kU32, "<u4"},
    {arch::ElemType::kF16, "<f2"}, {arch::ElemType::kI16, "<i2"},
};

const char* Dtype(arch::ElemType t) { return util::NameOf(kDtypeTable, t, "<u2"); }

// The symbol's region: the one given, else the bounding box of the PEs exporting it, which must
// all export it.
runtime::Region RegionOf(const runtime::Device& dev, const Spec& s, const std::string& option) {
  if (s.region) return *s.region;
  const std::vector<fabric::Coord> pes = dev.Symbol(s.name);
  int x0 = pes[0].x, y0 = pes[0].y, x1 = x0, y1 = y0;
  for (const fabric::Coord& c : pes) {
    x0 = std::min(x0, c.x), y0 = std::min(y0, c.y);
    x1 = std::max(x1, c.x), y1 = std::max(y1, c.y);
  }
  const runtime::Region r{x0, y0, x1 - x0 + 1, y1 - y0 + 1};
  if (static_cast<int>(pes.size()) != r.w * r.h)
    throw std::invalid_argument(fmt::format(
        "{} {}: the PEs exporting '{}' do not fill a rectangle; name one as {}@X,Y,WxH=...", option,
        s.name, s.name, s.name));
  return r;
}

// The symbol's type as the first PE of the region exports it (the memcpy checks every PE).
const assembler::SymbolInfo& SymbolAt(const runtime::Device& dev, const Spec& s,
                                      const runtime::Region& r, const std::string& option) {
  const assembler::SymbolInfo* sym = dev.image().Symbol(r.x, r.y, s.name);
  if (!sym || !sym->exported || !sym->type)
    throw std::invalid_argument(
        fmt::format("{} {}: PE({},{}) does not export '{}' with a type and count", option, s.name,
                    r.x, r.y, s.name));
  return *sym;
}

// An --in or --out: its symbol's region, type and exported count, and the memcpy options.
struct Transfer {
  Spec spec;
  runtime::Region region;
  runtime::MemcpyOptions opt;
  arch::ElemType type = arch::ElemType::kF32;
  int per_pe = 0;  // elements per PE: --out the exported count, --in what the file holds
};
using Output = Transfer;

struct Input : Transfer {
  std::vector<uint8_t> data;
  size_t count = 0;
};

Transfer PlanTransfer(const runtime::Device& dev, const std::string& text,
                      const std::string& option, const RunArgs& a) {
  Transfer t;
  t.spec = ParseSpec(text, option, true);
  t.region = RegionOf(dev, t.spec, option);
  const assembler::SymbolInfo& sym = SymbolAt(dev, t.spec, t.region, option);
  t.type = *sym.type;
  t.opt.elem_bits = runtime::ElemBits(t.type);
  t.opt.order = a.col_major ? runtime::Order::kColMajor : runtime::Order::kRowMajor;
  t.opt.timing = a.host_port ? runtime::Timing::kHostPort : runtime::Timing::kBackDoor;
  t.per_pe = static_cast<int>(sym.count);
  return t;
}

Input ReadInput(const runtime::Device& dev, const std::string& text, const RunArgs& a) {
  Input in;
  static_cast<Transfer&>(in) = PlanTransfer(dev, text, "--in", a);
  const std::string& path = in.spec.value;
  const size_t eb = in.opt.elem_bits / 8;
  if (IsNpy(path)) {
    runtime::NpyArray arr = runtime::ReadNpy(path);
    if (arr.dtype != Dtype(in.type))
      throw std::invalid_argument(fmt::format("--in {}: {} holds {}, but '{}' is {} ({})",
                                              in.spec.name, path, arr.dtype, in.spec.name,
                                              assembler::ElemTypeName(in.type), Dtype(in.type)));
    in.opt.order = arr.fortran_order ? runtime::Order::kColMajor : runtime::Order::kRowMajor;
    in.data = std::move(arr.data);
  } else {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::invalid_argument(fmt::format("--in {}: cannot open {}", in.spec.name, path));
    in.data.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (in.data.size() % eb)
      throw std::invalid_argument(fmt::format("--in {}: {} has {} bytes, not whole {}-bit elements",
                                              in.spec.name, path, in.data.size(), 8 * eb));
  }
  in.count = in.data.size() / eb;
  const size_t pes = static_cast<size_t>(in.region.w) * in.region.h;
  if (in.count == 0 || in.count % pes)
    throw std::invalid_argument(
        fmt::format("--in {}: {} has {} elements, not a multiple of the {} PEs of the region",
                    in.spec.name, path, in.count, pes));
  in.per_pe = static_cast<int>(in.count / pes);
  return in;
}

runtime::MemcpyResult WriteOutput(runtime::Device& dev, const Output& o) {
  const size_t count = static_cast<size_t>(o.region.w) * o.region.h * o.per_pe;
  std::vector<uint8_t> data(count * (o.opt.elem_bits / 8));
  const runtime::MemcpyResult res =
      dev.MemcpyD2H(data.data(), count, o.spec.name, o.region, o.per_pe, o.opt);
  const std::string& path = o.spec.value;
  if (IsNpy(path)) {
    runtime::WriteNpy(path, Dtype(o.type),
                      {static_cast<size_t>(o.region.h), static_cast<size_t>(o.region.w),
                       static_cast<size_t>(o.per_pe)},
                      data.data(), data.size(), o.opt.order == runtime::Order::kColMajor);
    return res;
  }
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!f) throw std::runtime_error(fmt::format("--out {}: cannot write {}", o.spec.name, path));
  return res;
}

// X,Y,SIDE[,COLOR]=FILE (--stream-in with a color, --stream-out without).
struct StreamSpec {
  fabric::Coord pe;
  int side = 0;
  uint32_t color = 0;
  std::string file;
  std::vector<StreamWord> words;  // --stream-in: the wavelets
};

StreamSpec ParseStream(const std::string& text, const std::string& option, bool with_color) {
  static const std::regex in_re(R"(^([0-9]{1,5}),([0-9]{1,5}),([WESNwesn]),([0-9]{1,5})=(.+)$)");
  static const std::regex out_re(R"(^([0-9]{1,5}),([0-9]{1,5}),([WESNwesn])=(.+)$)");
  std::smatch m;
  if (!std::regex_match(text, m, with_color ? in_re : out_re))
    throw std::invalid_argument(fmt::format("{} '{}': expected {}", option, text,
                                            with_color ? "X,Y,SIDE,COLOR=FILE (SIDE W, E, S or N)"
                                                       : "X,Y,SIDE=FILE (SIDE W, E, S or N)"));
  StreamSpec s;
  s.pe = {std::stoi(m[1]), std::stoi(m[2])};
  const char side = static_cast<char>(std::toupper(m[3].str()[0]));
  s.side = static_cast<int>(side == 'W'   ? arch::Dir::kW
                            : side == 'E' ? arch::Dir::kE
                            : side == 'S' ? arch::Dir::kS
                                          : arch::Dir::kN);
  if (with_color) {
    s.color = static_cast<uint32_t>(std::stoul(m[4]));
    s.file = m[5];
  } else {
    s.file = m[4];
  }
  return s;
}

runtime::DeviceOptions DeviceOptionsFor(const RunArgs& a, const layout::Image& img) {
  runtime::DeviceOptions d;
  d.backend = runtime::ParseBackend(a.backend);
  d.width = img.fabric_w;
  d.height = img.fabric_h;
  if (!a.fabric.empty()) {
    auto [w, h] = ParsePair(a.fabric, "--fabric", 'x');
    if (w != img.fabric_w || h != img.fabric_h)
      throw std::invalid_argument(fmt::format(
          "--fabric {}: {} is linked for a {}x{} fabric (the fabric is set in its layout)",
          a.fabric, a.image, img.fabric_w, img.fabric_h));
  }
  if (a.tile != "auto") d.tile = ParsePair(a.tile, "--tile", 'x');
  d.threads = a.threads;
  d.clock_idle_tiles = a.clock_idle_tiles;
  d.eval_input_region = a.eval_input_region;
  d.run_ahead = !a.no_run_ahead;
  d.wave_path = a.wave;
  if (!a.wave_window.empty()) {
    static const std::regex re(R"(^([0-9]{1,19}):([0-9]{1,19})$)");
    std::smatch m;
    if (!std::regex_match(a.wave_window, m, re) || std::stoull(m[1]) >= std::stoull(m[2]))
      throw std::invalid_argument(
          fmt::format("--wave-window '{}': expected FROM:TO cycles with FROM < TO", a.wave_window));
    d.wave_from = std::stoull(m[1]);
    d.wave_to = std::stoull(m[2]);
  }
  if (!a.wave_region.empty()) {
    const size_t colon = a.wave_region.find(':');
    if (colon == std::string::npos)
      throw std::invalid_argument(
          fmt::format("--wave-region '{}': expected X0,Y0:X1,Y1", a.wave_region));
    std::tie(d.wave_x0, d.wave_y0) =
        ParsePair(a.wave_region.substr(0, colon), "--wave-region", ',');
    std::tie(d.wave_x1, d.wave_y1) =
        ParsePair(a.wave_region.substr(colon + 1), "--wave-region", ',');
  }
  if ((!a.wave_window.empty() || !a.wave_region.empty()) && a.wave.empty())
    throw std::invalid_argument("--wave-window and --wave-region need --wave FILE.fst");
  if (!a.lockstep.empty()) {
    auto [x, y] = ParsePair(a.lockstep, "--lockstep", ',');
    d.lockstep = fabric::Coord{x, y};
  }
  d.progress = !a.no_progress;
  return d;
}

// "16 words in 16 cycles"
std::string Copies(const runtime::MemcpyResult& c) {
  return fmt::format("{} word{} in {} cycle{}", c.words, c.words == 1 ? "" : "s", c.cycles,
                     c.cycles == 1 ? "" : "s");
}

int RunImage(const RunArgs& a) {
  layout::Image img;
  try {
    img = layout::ReadImageFile(a.image);
  } catch (const assembler::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 2;
  }
  std::unique_ptr<runtime::Device> dev;
  std::vector<Input> inputs;
  std::vector<Output> outputs;
  std::vector<Spec> launches;
  std::vector<StreamSpec> streams_in, streams_out;
  std::unique_ptr<trace::Instruments> instruments;
  runtime::MemcpyResult h2d, d2h;  // --host-port: the cycles the copies took
  try {
    dev = std::make_unique<runtime::Device>(DeviceOptionsFor(a, img));
    dev->Load(img);
    const trace::InstrumentOptions io = a.watch.Options();
    if (io.Any()) instruments = std::make_unique<trace::Instruments>(io, *dev);
    // Everything is read and checked before the first cycle runs.
    for (const std::string& s : a.in) inputs.push_back(ReadInput(*dev, s, a));
    for (const std::string& s : a.out) {
      outputs.push_back(PlanTransfer(*dev, s, "--out", a));
      CheckWritable(outputs.back().spec.value, "--out " + outputs.back().spec.name);
    }
    for (const std::string& s : a.launch) launches.push_back(ParseSpec(s, "--launch", false));
    for (const std::string& s : a.stream_in) {
      streams_in.push_back(ParseStream(s, "--stream-in", true));
      streams_in.back().words = ReadStreamFile(streams_in.back().file, "--stream-in");
    }
    for (const std::string& s : a.stream_out) {
      streams_out.push_back(ParseStream(s, "--stream-out", false));
      CheckWritable(streams_out.back().file, "--stream-out");
      dev->StreamOut(streams_out.back().pe, streams_out.back().side);  // checks the port
    }
    for (const StreamSpec& st : streams_in) {
      // Runs of wavelets with the same control bit, in order.
      for (size_t i = 0; i < st.words.size();) {
        std::vector<uint32_t> run;
        const bool ctrl = st.words[i].ctrl;
        for (; i < st.words.size() && st.words[i].ctrl == ctrl; ++i)
          run.push_back(st.words[i].data);
        dev->StreamIn(st.pe, st.side, st.color, run, ctrl);
      }
    }
    if (a.launch.empty()) {  // main where it is exported
      try {
        dev->Symbol("main");
        launches.push_back({"main", std::nullopt, ""});
      } catch (const std::invalid_argument& e) {
        // Tasks active from the start (`.task ..., active`) need no launch.
        bool starts = false;
        for (const layout::ImageProgram& p : img.programs)
          for (const assembler::TaskBinding& t : p.program.tasks) starts |= t.active;
        if (streams_in.empty() && !starts)
          throw std::invalid_argument(fmt::format(
              "nothing to run: no PE exports 'main', the task launched by default, and no "
              "--stream-in feeds the fabric; name a task with --launch ({})",
              e.what()));
        fmt::print(stderr,
                   "tessera run: note: no PE exports 'main'; nothing is launched, the run is "
                   "driven by {}\n",
                   starts ? "the tasks active from the start" : "--stream-in alone");
      }
    }
    for (const Input& in : inputs)
      h2d += dev->MemcpyH2D(in.spec.name, in.data.data(), in.count, in.region, in.per_pe, in.opt);
    for (const Spec& l : launches) {
      std::optional<uint16_t> arg;
      if (!l.value.empty()) {
        size_t used = 0;
        unsigned long v = 0;
        try {
          v = std::stoul(l.value, &used, 0);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != l.value.size() || v > 0xFFFF)
          throw std::invalid_argument(
              fmt::format("--launch {}: argument '{}' is not a 16-bit number", l.name, l.value));
        arg = static_cast<uint16_t>(v);
      }
      dev->Launch(l.name, l.region, arg);
    }
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "tessera run: {}\n", e.what());
    return 2;
  }
  if (a.quiet) dev->SetDebugHandler([](const ce::DebugRecord&) {});
  // Ctrl-C stops the run after whole cycles; everything asked for is still written (outputs,
  // timeline, profile) and the exit status is 130. A second Ctrl-C ends the process at once.
  g_interrupted = 0;
  const auto previous = std::signal(SIGINT, OnInterrupt);
  dev->SetInterruptCheck([] { return g_interrupted != 0; });
  const runtime::RunResult r = dev->Run(a.max_cycles);
  dev->SetInterruptCheck(nullptr);
  std::signal(SIGINT, previous);
  const bool interrupted = r.status == runtime::RunResult::Status::kInterrupted;
  if (interrupted)
    fmt::print(stderr,
               "tessera run: interrupted (Ctrl-C); writing the outputs and traces asked for\n");
  const char* backend = runtime::BackendName(dev->options().backend);
  const std::string copies = a.host_port && h2d.words
                                 ? fmt::format("; cycles {}..{} (host-port copies before: {})",
                                               r.start_cycle, r.end_cycle - 1, Copies(h2d))
                                 : "";
  if (r.ok()) {
    fmt::print(
        "{}: quiescent after {} cycles ({} instructions, {} task starts, {} debug records){}{}\n",
        backend, r.cycles(), r.instructions, r.tasks_started, r.debug_records,
        dev->options().backend == runtime::Backend::kCosim
            ? fmt::format("; func and rtl agree ({} link wavelets compared)", r.link_wavelets)
            : "",
        copies);
  } else {
    fmt::print(stderr, "{}: {} after {} cycles{}\n{}", backend, runtime::StatusName(r.status),
               r.cycles(), copies, r.message);
    if (!r.message.empty() && r.message.back() != '\n') fmt::print(stderr, "\n");
  }
  // Outputs are written after a fault or a deadlock too (memory as the run left it, read through
  // the back door); after a cosim mismatch there is no one memory to write.
  if (r.status != runtime::RunResult::Status::kMismatch) {
    if (!r.ok() && !(outputs.empty() && streams_out.empty()))
      fmt::print(stderr, "outputs below hold the state the {} left (back door, no cycles)\n",
                 r.status == runtime::RunResult::Status::kFault ? "fault" : "unfinished run");
    for (Output& o : outputs) {
      if (!r.ok()) o.opt.timing = runtime::Timing::kBackDoor;
      d2h += WriteOutput(*dev, o);
      if (!r.ok()) fmt::print(stderr, "--out {}: written to {}\n", o.spec.name, o.spec.value);
    }
    for (const StreamSpec& st : streams_out) {
      const std::vector<fabric::EdgeStream::Wavelet> w = dev->StreamOut(st.pe, st.side);
      WriteStreamFile(st.file, "--stream-out", w);
      fmt::print("stream out of PE({},{}) {}: {} wavelets to {}\n", st.pe.x, st.pe.y,
                 arch::ToString(static_cast<arch::Dir>(st.side)), w.size(), st.file);
    }
    if (a.host_port && d2h.words) fmt::print("host-port copies after: {}\n", Copies(d2h));
  } else if (!outputs.empty() || !streams_out.empty()) {
    fmt::print(stderr, "outputs not written: the backends differ\n");
  }
  if (instruments) {
    for (const std::string& line : instruments->Finish()) fmt::print("{}\n", line);
    if (a.watch.profile)
      fmt::print("{}",
                 instruments->counters()->Summary(runtime::BackendName(dev->options().backend)));
  }
  const std::vector<std::string> files = dev->Stop();
  if (files.size() == 2)
    fmt::print("waves: {} (open with: gtkwave {} {})\n", files[0], files[0], files[1]);
  if (a.json) {  // the last line
    util::JsonObject j;
    j.Add("image", a.image)
        .Add("backend", backend)
        .Add("status", runtime::StatusName(r.status))
        .Add("cycles", r.cycles())
        .Add("instructions", r.instructions)
        .Add("tasks_started", r.tasks_started)
        .Add("debug_records", r.debug_records)
        .Add("link_wavelets", r.link_wavelets)
        .Add("faults", r.faults.size())
        .Add("start_cycle", r.start_cycle)
        .Add("end_cycle", r.end_cycle)
        .Add("h2d_cycles", h2d.cycles)
        .Add("d2h_cycles", d2h.cycles);
    if (a.watch.profile) j.Add("profile", instruments->counters()->Json());
    fmt::print("{}\n", j.str());
  }
  if (interrupted) return 130;  // as a shell reports a process ended by SIGINT
  return r.ok() ? 0 : 1;
}

}  // namespace

void AddRunCommand(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Run a program image on the functional model, the RTL, or both (cosim)");
  cmd->add_option("image", a->image, "Program image (tessera link -o)")->required();
  cmd->add_option("--backend", a->backend, "func, rtl or cosim (both, compared)");
  cmd->add_option("--fabric", a->fabric, "WxH; must be the image's (default: the image's)");
  cmd->add_option("--tile", a->tile,
                  "RTL tile TWxTH of full PEs (also one host port each), or auto: 1x1");
  cmd->add_option("--in", a->in, "SYMBOL[@X,Y,WxH]=FILE: memcpy a .npy or raw file to the device");
  cmd->add_option("--out", a->out,
                  "SYMBOL[@X,Y,WxH]=FILE: after the run, memcpy the symbol (its exported count "
                  "per PE) to a .npy or raw file");
  cmd->add_option("--launch", a->launch,
                  "TASK[@X,Y,WxH][=ARG]: activate an exported local task "
                  "(default: main)");
  cmd->add_option("--stream-in", a->stream_in,
                  "X,Y,SIDE,COLOR=FILE: wavelets into the edge port of PE(X,Y) on SIDE (W, E, S, "
                  "N), one per 32-bit word of the .npy or raw file, or per line of a .csv "
                  "(DATA or CONTROL,DATA)");
  cmd->add_option("--stream-out", a->stream_out,
                  "X,Y,SIDE=FILE: after the run, the wavelets that left through that edge port: "
                  "their data (.npy u4 or raw) or cycle, color, control and data (.csv)");
  cmd->add_option("--max-cycles", a->max_cycles, "Stop with a deadlock diagnosis after this many");
  cmd->add_option(
         "--threads", a->threads,
         "Host threads stepping the functional model's compute engines and the RTL's tiles "
         "(results do not depend on it)")
      ->check(CLI::Range(1, 64));
  cmd->add_flag("--clock-idle-tiles", a->clock_idle_tiles,
                "RTL: evaluate every tile in every cycle, also the idle ones it skips by default "
                "(results do not depend on it)");
  cmd->add_flag("--eval-input-region", a->eval_input_region,
                "RTL: evaluate each tile's input-combinational region every cycle, also where no "
                "input of the tile changed (results do not depend on it)");
  cmd->add_flag("--no-run-ahead", a->no_run_ahead,
                "func: step every compute engine every cycle it acts, also those that could run "
                "ahead of the fabric or step DSD operations in bulk (results do not depend on it)");
  cmd->add_flag("--host-port", a->host_port,
                "memcpy through the host ports, costing cycles (default: the zero-time back door)");
  cmd->add_flag("--col-major", a->col_major, "Raw files are column-major (npy says its own order)");
  cmd->add_option("--wave", a->wave, "Write RTL waves to FILE.fst (and FILE.gtkw)");
  cmd->add_option("--wave-window", a->wave_window, "FROM:TO cycles to dump");
  cmd->add_option("--wave-region", a->wave_region, "X0,Y0:X1,Y1 PEs to dump");
  a->watch.AddTo(cmd);
  cmd->add_option("--lockstep", a->lockstep,
                  "X,Y: cosim compares every instruction this PE retires");
  cmd->add_flag("--quiet", a->quiet, "Do not print debug-port records");
  cmd->add_flag("--no-progress", a->no_progress, "No progress line on the terminal");
  cmd->add_flag("--json", a->json, "Print a JSON summary as the last line");
  cmd->callback([a] {
    const int rc = RunImage(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace tessera::cli
