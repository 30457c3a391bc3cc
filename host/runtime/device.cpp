#include "runtime/device.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "arch/arch.h"
#include "cosim/cosim_machine.h"
#include "rtl/tile_model.h"
#include "runtime/diagnosis.h"
#include "runtime/progress.h"
#include "runtime/stall_probe.h"
#include "util/enum_names.h"

namespace tessera::runtime {

constexpr util::EnumName<Backend> kBackendNameTable[] = {
    {Backend::kFunc, "func"},
    {Backend::kRtl, "rtl"},
    {Backend::kCosim, "cosim"},
};

const char* BackendName(Backend b) { return util::NameOf(kBackendNameTable, b); }

Backend ParseBackend(const std::string& name) {
  if (auto b = util::ParseName(kBackendNameTable, name)) return *b;
  throw std::invalid_argument(fmt::format("--backend {}: expected {}", name.empty() ? "''" : name,
                                          util::NameList(kBackendNameTable)));
}

constexpr util::EnumName<RunResult::Status> kStatusNameTable[] = {
    {RunResult::Status::kQuiescent, "quiescent"},
    {RunResult::Status::kSettled, "settled"},
    {RunResult::Status::kCycleLimit, "cycle limit"},
    {RunResult::Status::kFault, "fault"},
    {RunResult::Status::kMismatch, "mismatch"},
    {RunResult::Status::kInterrupted, "interrupted"},
    {RunResult::Status::kDeadlock, "deadlock"},
};

const char* StatusName(RunResult::Status s) { return util::NameOf(kStatusNameTable, s); }

namespace {

// Host memory per PE, measured (bench/fabric_memory.sh: peak resident size of `tessera run` on
// 16x16 and 64x64, the difference over the extra PEs). The functional model keeps about 6 KB per PE
// of state; its SRAMs and router queues live in lazily backed arenas (util::LazyArena), so a PE's
// SRAM costs only the 4 KiB pages its program touches, at most those up to the program's end
// (PeProgram::end) once it is loaded. The RTL keeps about 127 KB per PE. A fabric that would need
// more than this machine's memory is refused before anything is allocated, and again when an
// image's programs would push it over.
constexpr uint64_t kFuncBytesPerPe = 6 * 1024;
constexpr uint64_t kRtlBytesPerPe = 127 * 1024;
constexpr uint64_t kHostPage = 4096;

uint64_t BytesPerPe(Backend b) {
  return (b != Backend::kRtl ? kFuncBytesPerPe : 0) + (b != Backend::kFunc ? kRtlBytesPerPe : 0);
}

// This machine's physical memory in bytes (0 if unknown).
uint64_t PhysicalBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

// The functional model's SRAM pages an image's programs may touch: every page up to each
// program's end, on every PE that runs it.
uint64_t ProgramBytes(const DeviceOptions& o, const layout::Image* image) {
  if (!image || o.backend == Backend::kRtl) return 0;
  uint64_t n = 0;
  for (const layout::ImagePe& pe : image->pes)
    if (pe.program >= 0)
      n += (image->programs[pe.program].program.end + kHostPage - 1) / kHostPage * kHostPage;
  return n;
}

uint64_t NeededBytes(const DeviceOptions& o, const layout::Image* image = nullptr) {
  return static_cast<uint64_t>(o.width) * static_cast<uint64_t>(o.height) * BytesPerPe(o.backend) +
         ProgramBytes(o, image);
}

std::string MemoryNeed(const DeviceOptions& o, const layout::Image* image = nullptr) {
  constexpr double kGb = 1024.0 * 1024 * 1024;
  const uint64_t pes = static_cast<uint64_t>(o.width) * o.height;
  return fmt::format(
      "a {}x{} fabric on {} needs about {} KB per PE{}, {:.1f} GB for its {} PEs; this machine "
      "has {:.1f} GB",
      o.width, o.height, BackendName(o.backend), BytesPerPe(o.backend) / 1024,
      image ? fmt::format(" and {} KB of program pages per PE", ProgramBytes(o, image) / pes / 1024)
            : std::string(),
      static_cast<double>(NeededBytes(o, image)) / kGb, pes,
      static_cast<double>(PhysicalBytes()) / kGb);
}

void CheckMemory(const DeviceOptions& o, const layout::Image* image = nullptr) {
  const uint64_t have = PhysicalBytes();
  if (have != 0 && NeededBytes(o, image) > have)
    throw std::invalid_argument(fmt::format("--fabric {}x{}: too large for memory: {}", o.width,
                                            o.height, MemoryNeed(o, image)));
}

}  // namespace

Device::Device(const DeviceOptions& opt) : opt_(opt) {
  if (opt_.width < 1 || opt_.height < 1 || opt_.width > 0xFFFF || opt_.height > 0xFFFF)
    throw std::invalid_argument(
        fmt::format("--fabric {}x{}: each side needs 1 to 65535 PEs", opt_.width, opt_.height));
  if (opt_.tile.first == 0 && opt_.tile.second == 0) opt_.tile = rtl::DefaultCeTile();
  if (opt_.tile.first < 1 || opt_.tile.second < 1 || opt_.width % opt_.tile.first ||
      opt_.height % opt_.tile.second)
    throw std::invalid_argument(fmt::format("--tile {}x{}: does not divide the {}x{} fabric",
                                            opt_.tile.first, opt_.tile.second, opt_.width,
                                            opt_.height));
  if (opt_.lockstep) {
    if (opt_.backend != Backend::kCosim)
      throw std::invalid_argument("--lockstep: needs --backend cosim");
    if (opt_.lockstep->x < 0 || opt_.lockstep->y < 0 || opt_.lockstep->x >= opt_.width ||
        opt_.lockstep->y >= opt_.height)
      throw std::invalid_argument(fmt::format("--lockstep {},{}: outside the {}x{} fabric",
                                              opt_.lockstep->x, opt_.lockstep->y, opt_.width,
                                              opt_.height));
  }
  if (!opt_.wave_path.empty() && opt_.backend == Backend::kFunc)
    throw std::invalid_argument("--wave: waves come from the RTL; use --backend rtl or cosim");
  CheckMemory(opt_);
  try {
    OpenMachine();
  } catch (const std::bad_alloc&) {
    machine_.reset();
    throw std::invalid_argument(fmt::format("--fabric {}x{}: out of memory: {}", opt_.width,
                                            opt_.height, MemoryNeed(opt_)));
  }
  machine_->SetTaskLog(true);
  machine_->ForEachFabric([](fabric::Fabric& f) { f.SetStopWhenQuiescent(true); });
  on_debug_ = [](const ce::DebugRecord& d) { std::printf("%s\n", d.ToString().c_str()); };
}

void Device::OpenMachine() {
  std::unique_ptr<machine::Machine> func, rtl;
  if (opt_.backend != Backend::kRtl)
    func =
        machine::MakeFuncMachine(opt_.width, opt_.height, opt_.tile, opt_.threads, opt_.run_ahead);
  if (opt_.backend != Backend::kFunc) {
    machine::RtlMachineOptions r;
    r.width = opt_.width;
    r.height = opt_.height;
    r.tile = opt_.tile;
    r.systemc = opt_.systemc;
    r.clock_idle_tiles = opt_.clock_idle_tiles;
    r.eval_input_region = opt_.eval_input_region;
    r.threads = opt_.threads;
    r.wave_path = opt_.wave_path;
    r.wave_from = opt_.wave_from;
    r.wave_to = opt_.wave_to;
    r.wave_x0 = opt_.wave_x0;
    r.wave_y0 = opt_.wave_y0;
    r.wave_x1 = opt_.wave_x1;
    r.wave_y1 = opt_.wave_y1;
    rtl = machine::MakeRtlMachine(r);
  }
  if (func && rtl) {
    machine_ = cosim::MakeCosimMachine(std::move(func), std::move(rtl), opt_.lockstep);
  } else {
    machine_ = func ? std::move(func) : std::move(rtl);
  }
}

Device::~Device() {
  if (stopped_ || !opt_.on_close) return;
  try {
    opt_.on_close(*this);
  } catch (const std::exception& e) {  // a destructor must not throw: say it
    fmt::print(stderr, "tessera: {}\n", e.what());
  }
}

void Device::SetLinkHandler(std::function<void(const std::vector<fabric::LinkEvent>&)> fn) {
  CheckOpen();
  on_links_ = std::move(fn);
  machine_->SetLinkLog(static_cast<bool>(on_links_));
}

uint64_t Device::Cycle() const { return machine_ ? machine_->Cycle() : 0; }

void Device::CheckOpen() const {
  if (stopped_) throw std::logic_error("the device was stopped");
}

void Device::CheckLoaded() const {
  CheckOpen();
  if (!image_) throw std::logic_error("no image loaded (call Load first)");
}

const layout::Image& Device::image() const {
  CheckLoaded();
  return *image_;
}

void Device::Load(const layout::Image& image) {
  CheckOpen();
  if (image_) throw std::logic_error("the device already holds an image");
  if (image.fabric_w != opt_.width || image.fabric_h != opt_.height)
    throw std::invalid_argument(
        fmt::format("the image is linked for a {}x{} fabric, the device has {}x{} (--fabric)",
                    image.fabric_w, image.fabric_h, opt_.width, opt_.height));
  CheckMemory(opt_, &image);
  image.ForEachWrite([&](int x, int y, uint16_t addr, uint32_t value) {
    WriteAll({x, y}, addr, value, false);
  });
  image_ = image;
  if (opt_.on_load) opt_.on_load(*this);
}

std::vector<fabric::Coord> Device::Symbol(const std::string& name) const {
  CheckLoaded();
  std::vector<fabric::Coord> pes;
  for (const layout::ImagePe& pe : image_->pes) {
    const assembler::SymbolInfo* s = image_->Symbol(pe.x, pe.y, name);
    if (s && s->exported) pes.push_back({pe.x, pe.y});
  }
  if (!pes.empty()) return pes;
  std::set<std::string> known;  // for the message: every exported name
  for (const layout::ImageProgram& p : image_->programs)
    for (const auto& [n, s] : p.program.symbols)
      if (s.exported) known.insert(n);
  std::string list;
  for (const std::string& n : known) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument(fmt::format("unknown symbol '{}': no PE's program exports it{}", name,
                                          list.empty() ? "" : " (exported: " + list + ")"));
}

void Device::WriteAll(fabric::Coord pe, uint16_t addr, uint32_t value, bool port) {
  if (port) {
    machine_->PortWrite(pe, addr, value);
  } else {
    machine_->Write(pe, addr, value);
  }
}

namespace {
void CheckWord(const DeviceOptions& o, fabric::Coord pe, uint32_t addr) {
  if (pe.x < 0 || pe.y < 0 || pe.x >= o.width || pe.y >= o.height)
    throw std::invalid_argument(
        fmt::format("PE({},{}) is outside the {}x{} fabric", pe.x, pe.y, o.width, o.height));
  if (addr > 0xFFFC || addr % 4)
    throw std::invalid_argument(
        fmt::format("address 0x{:x}: a word address is a multiple of 4 up to 0xfffc", addr));
}
}  // namespace

void Device::WriteWord(fabric::Coord pe, uint32_t addr, uint32_t value) {
  CheckOpen();
  CheckWord(opt_, pe, addr);
  WriteAll(pe, static_cast<uint16_t>(addr), value, false);
}

uint32_t Device::ReadWord(fabric::Coord pe, uint32_t addr) {
  CheckOpen();
  CheckWord(opt_, pe, addr);
  return ReadAll(pe, static_cast<uint16_t>(addr), false);
}

uint32_t Device::ReadAll(fabric::Coord pe, uint16_t addr, bool port) {
  return port ? machine_->PortRead(pe, addr) : machine_->Read(pe, addr);
}

MemcpyResult Device::Transfer(std::vector<WordTransfer>& plan, bool write, Timing timing,
                              std::vector<uint32_t>* read) {
  MemcpyResult res;
  res.words = plan.size();
  if (read) read->assign(plan.size(), 0);
  auto one = [&](size_t k, bool port) {
    WordTransfer& t = plan[k];
    if (!write) {
      (*read)[k] = ReadAll(t.pe, t.addr, port);
      return;
    }
    uint32_t v = t.value;
    if (t.mask != 0xFFFFFFFFu) v = (ReadAll(t.pe, t.addr, port) & ~t.mask) | (t.value & t.mask);
    WriteAll(t.pe, t.addr, v, port);
  };
  if (timing == Timing::kBackDoor) {
    for (size_t k = 0; k < plan.size(); ++k) one(k, false);
    return res;
  }
  // The host port of each tile serves one word per cycle, between cycles, while the fabric runs.
  std::map<int, std::deque<size_t>> ports;
  for (size_t k = 0; k < plan.size(); ++k) ports[machine_->PortOf(plan[k].pe)].push_back(k);
  RunResult scratch;
  scratch.start_cycle = Cycle();
  while (!ports.empty()) {
    for (auto it = ports.begin(); it != ports.end();) {
      one(it->second.front(), true);
      it->second.pop_front();
      it = it->second.empty() ? ports.erase(it) : std::next(it);
    }
    machine_->Run(1);
    ++res.cycles;
    Deliver(scratch);
    if (scratch.status != RunResult::Status::kQuiescent)
      throw std::runtime_error(fmt::format("memcpy through the host port stopped at cycle {}: {}",
                                           Cycle(), scratch.message));
  }
  return res;
}

MemcpyResult Device::MemcpyH2D(const std::string& symbol, const void* data, size_t count,
                               const Region& r, int elems_per_pe, const MemcpyOptions& o) {
  CheckLoaded();
  Symbol(symbol);  // an unknown symbol is named as such, before the per-PE checks
  const std::vector<uint16_t> addrs = CheckMemcpy(*image_, symbol, r, elems_per_pe, count, o);
  std::vector<WordTransfer> plan = PlanH2D(addrs, r, elems_per_pe, o, data);
  return Transfer(plan, true, o.timing, nullptr);
}

MemcpyResult Device::MemcpyD2H(void* out, size_t count, const std::string& symbol, const Region& r,
                               int elems_per_pe, const MemcpyOptions& o) {
  CheckLoaded();
  Symbol(symbol);
  const std::vector<uint16_t> addrs = CheckMemcpy(*image_, symbol, r, elems_per_pe, count, o);
  std::vector<WordTransfer> plan = PlanD2H(addrs, r, elems_per_pe, o);
  std::vector<uint32_t> words;
  MemcpyResult res = Transfer(plan, false, o.timing, &words);
  ScatterD2H(addrs, r, elems_per_pe, o, words, out);
  return res;
}

std::vector<std::string> Device::ClearFaults() {
  CheckLoaded();
  std::vector<std::string> cleared;
  for (const fabric::FaultRecord& f : Reference().Fabric().Faults()) {
    cleared.push_back(DescribeFault(Reference(), &*image_, f));
    WriteAll(f.pe, arch::FaultStatus::kAddr, 0, false);
    WriteAll(f.pe, arch::RouterFault::kAddr, 0, false);
    machine_->ForEachFabric([&f](fabric::Fabric& fab) { fab.ForgetFault(f.pe); });
  }
  return cleared;
}

void Device::Launch(const std::string& task, std::optional<Region> region,
                    std::optional<uint16_t> arg) {
  CheckLoaded();
  // A faulted PE stays stopped until its faults are cleared: launching there would only report
  // the old fault again.
  for (const fabric::FaultRecord& f : Reference().Fabric().Faults()) {
    const bool in = region ? (f.pe.x >= region->x && f.pe.x < region->x + region->w &&
                              f.pe.y >= region->y && f.pe.y < region->y + region->h)
                           : image_->Symbol(f.pe.x, f.pe.y, task) != nullptr;
    if (in)
      throw std::invalid_argument(fmt::format(
          "launch '{}': PE({},{}) has faulted and stays stopped ({}); clear its faults first "
          "(tessera.SdkRuntime.clear_faults())",
          task, f.pe.x, f.pe.y, DescribeFault(Reference(), &*image_, f)));
  }
  std::vector<fabric::Coord> pes;
  if (region) {
    const Region& r = *region;
    if (r.w < 1 || r.h < 1 || r.x < 0 || r.y < 0 || r.x + r.w > opt_.width ||
        r.y + r.h > opt_.height)
      throw std::invalid_argument(
          fmt::format("launch '{}': region at ({},{}) of {}x{} PEs is not inside the {}x{} fabric",
                      task, r.x, r.y, r.w, r.h, opt_.width, opt_.height));
    for (int y = r.y; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) pes.push_back({x, y});
  } else {
    pes = Symbol(task);
  }
  std::vector<std::pair<fabric::Coord, int>> ids;
  for (const fabric::Coord& pe : pes) {
    const assembler::PeProgram* p = image_->ProgramAt(pe.x, pe.y);
    if (!p)
      throw std::invalid_argument(
          fmt::format("launch '{}': PE({},{}) has no program", task, pe.x, pe.y));
    const assembler::SymbolInfo* s = image_->Symbol(pe.x, pe.y, task);
    if (!s || !s->exported)
      throw std::invalid_argument(fmt::format(
          "launch '{}': the program on PE({},{}) does not export '{}'", task, pe.x, pe.y, task));
    int id = -1;
    for (const assembler::TaskBinding& t : p->tasks)
      if (t.kind == arch::TaskKind::kLocal && t.entry == s->address) id = t.id;
    if (id < 0)
      throw std::invalid_argument(fmt::format(
          "launch '{}': on PE({},{}) no local task starts at '{}' (0x{:04x}); bind one with "
          "`.task {}, local, ID`",
          task, pe.x, pe.y, task, s->address, task));
    ids.push_back({pe, id});
  }
  for (const auto& [pe, id] : ids) {
    if (arg) WriteAll(pe, arch::TaskArg::Addr(id), *arg, false);
    WriteAll(pe, arch::TaskActiveSet::kAddr, 1u << id, false);
  }
}

Device::Stream& Device::StreamAt(fabric::Coord pe, int side) {
  CheckLoaded();
  for (auto& st : streams_)
    if (st->pe == pe && st->side == side) return *st;
  machine_->Fabric().CheckEdgePort(pe, side);
  auto st = std::make_unique<Stream>();
  st->pe = pe;
  st->side = side;
  machine_->ForEachFabric([&](fabric::Fabric& f) {
    st->ends.push_back(std::make_unique<fabric::EdgeStream>());
    f.SetEdgeEndpoint(pe, side, st->ends.back().get());
  });
  streams_.push_back(std::move(st));
  return *streams_.back();
}

void Device::StreamIn(fabric::Coord pe, int side, uint32_t color, const std::vector<uint32_t>& data,
                      bool ctrl) {
  if (color >= arch::kNumColors)
    throw std::invalid_argument(
        fmt::format("stream into PE({},{}): color {} is not routable (0..23)", pe.x, pe.y, color));
  Stream& st = StreamAt(pe, side);
  for (auto& e : st.ends)
    for (uint32_t d : data) e->Inject(color, d, ctrl);
}

std::vector<fabric::EdgeStream::Wavelet> Device::StreamOut(fabric::Coord pe, int side) {
  Stream& st = StreamAt(pe, side);
  std::vector<fabric::EdgeStream::Wavelet> out = st.ends[0]->TakeReceived();
  for (size_t i = 1; i < st.ends.size(); ++i) st.ends[i]->TakeReceived();
  return out;
}

std::string Device::PendingStreams() const {
  std::string out;
  for (const auto& st : streams_) {
    const fabric::EdgeStream& e = *st->ends[0];
    if (e.Pending() == 0) continue;
    out += fmt::format(
        "host stream into PE({},{}) {}: {} wavelets not yet injected, the next on color {}\n",
        st->pe.x, st->pe.y, arch::ToString(static_cast<arch::Dir>(st->side)), e.Pending(),
        e.PendingColor());
  }
  return out;
}

bool Device::Quiescent() {
  return machine_->Quiescent();  // host streams are edge endpoints: their Quiet() counts
}

void Device::Deliver(RunResult& r, const std::vector<fabric::PeEvents>* events) {
  machine::Machine& m = *machine_;
  std::vector<ce::DebugRecord> debug;
  std::vector<machine::TaskStart> tasks;
  if (events) {  // one cycle, PEs in index order: already in (cycle, y, x) order
    const uint64_t cycle = m.Cycle() - 1;
    for (size_t pe = 0; pe < events->size(); ++pe) {
      const fabric::PeEvents& e = (*events)[pe];
      debug.insert(debug.end(), e.debug.begin(), e.debug.end());
      if (e.task_start) tasks.push_back({cycle, m.Fabric().At(static_cast<int>(pe)), e.task});
    }
  } else {
    debug = m.TakeDebug();
    tasks = m.TakeTaskLog();
  }
  std::vector<fabric::LinkEvent> links = m.TakeLinkLog();
  if (on_links_ && !links.empty()) {
    std::sort(links.begin(), links.end(),
              [](const fabric::LinkEvent& a, const fabric::LinkEvent& b) {
                return std::make_tuple(a.cycle, a.pe.y, a.pe.x, a.port, a.into) <
                       std::make_tuple(b.cycle, b.pe.y, b.pe.x, b.port, b.into);
              });
    on_links_(links);
  }
  const machine::Machine::Agreement agree = m.TakeAgreement(false);
  r.link_wavelets += agree.link_wavelets;
  if (!agree.difference.empty() && r.status != RunResult::Status::kMismatch) {
    r.status = RunResult::Status::kMismatch;
    r.message = agree.difference;
  }
  r.tasks_started += tasks.size();
  r.debug_records += debug.size();
  for (const ce::DebugRecord& d : debug) on_debug_(d);
  // The faults of this run: an earlier run's stay listed (a faulted PE stays stopped) but were
  // reported then.
  std::vector<fabric::FaultRecord> faults;
  for (const fabric::FaultRecord& f : m.Fabric().Faults())
    if (f.cycle >= r.start_cycle) faults.push_back(f);
  if (!faults.empty() && r.status == RunResult::Status::kQuiescent) {
    r.status = RunResult::Status::kFault;
    r.faults = faults;
    for (const fabric::FaultRecord& f : faults)
      r.message += DescribeFault(Reference(), image_ ? &*image_ : nullptr, f) + "\n";
  }
}

bool Device::Settled() { return machine_->Settled(); }

RunResult Device::Run(uint64_t max_cycles, bool until_settled) {
  CheckLoaded();
  using StopWhen = fabric::Fabric::StopWhen;
  const StopWhen stop = until_settled ? StopWhen::kSettled : StopWhen::kQuiescent;
  machine_->ForEachFabric([stop](fabric::Fabric& f) { f.SetStopWhen(stop); });
  RunResult r;
  r.start_cycle = Cycle();
  machine::Machine& m = *machine_;
  auto retired = [&m] {
    uint64_t n = 0;
    for (int i = 0; i < m.Width() * m.Height(); ++i) n += m.Retired(m.Fabric().At(i));
    return n;
  };
  const uint64_t retired_before = retired();
  Progress progress(opt_.progress);
  uint64_t done = 0;
  // The fabric stops by itself after a fault or at the exact cycle it becomes quiescent
  // (Fabric::SetStopWhenQuiescent), so runs go in steps that grow while the fabric stays busy;
  // lockstep (cosim) compares after every cycle.
  uint64_t step = 64;
  std::vector<fabric::PeEvents> events;  // a stepped cycle's events
  // Nothing moving for a whole window ends the run early, on every backend.
  StallProbe stall(Reference(), [this] { return PendingStreams(); });
  while (r.status == RunResult::Status::kQuiescent) {
    if (Quiescent()) break;
    if (until_settled && Settled()) {
      r.status = RunResult::Status::kSettled;
      break;
    }
    if (done >= max_cycles) {
      r.status = RunResult::Status::kCycleLimit;
      r.message = fmt::format(
          "the run did not finish within {} cycles (deadlock, or raise --max-cycles):\n{}{}",
          max_cycles, DiagnoseDeadlock(Reference(), &*image_), PendingStreams());
      break;
    }
    uint64_t stepped = 0;
    uint64_t until_window = UINT64_MAX;
    const bool observed = Observed(Cycle(), &until_window);
    if (opt_.lockstep || observed) {  // one cycle: compared for the watched PE, observed
      const uint64_t now = Cycle();
      if (observed)
        for (CycleObserver* o : observers_)
          if (now >= o->From() && now < o->To()) o->Before(now, Reference());
      const uint64_t cycle = m.Step(events);
      stepped = 1;
      if (observed)
        for (CycleObserver* o : observers_)
          if (cycle >= o->From() && cycle < o->To()) o->After(cycle, Reference(), events);
      Deliver(r, &events);
    } else {
      const uint64_t want = std::min({step, max_cycles - done, until_window});
      step = std::min<uint64_t>(step * 2, 8192);
      stepped = m.Run(want);
      Deliver(r);
    }
    done += stepped;
    progress.Update(done);
    if (r.status == RunResult::Status::kQuiescent && !Quiescent() &&
        !(until_settled && Settled()) && stall.Stalled(done)) {
      r.status = RunResult::Status::kDeadlock;
      r.message = fmt::format(
          "deadlock: nothing has moved for {} cycles (at cycle {}) and the run is not over:\n{}{}",
          stall.Window(), Cycle(), DiagnoseDeadlock(Reference(), &*image_), PendingStreams());
    }
    if (interrupt_ && r.status == RunResult::Status::kQuiescent && !Quiescent() && interrupt_()) {
      r.status = RunResult::Status::kInterrupted;
      r.message = fmt::format("interrupted after {} cycles, at cycle {}", done, Cycle());
    }
  }
  progress.Finish();
  if (until_settled)
    machine_->ForEachFabric([](fabric::Fabric& f) { f.SetStopWhenQuiescent(true); });
  const machine::Machine::Agreement agree =
      m.TakeAgreement(r.status != RunResult::Status::kMismatch);
  if (!agree.difference.empty() && r.status != RunResult::Status::kMismatch) {
    r.status = RunResult::Status::kMismatch;
    r.message = agree.difference;
  }
  r.end_cycle = Cycle();
  r.instructions = retired() - retired_before;
  return r;
}

bool Device::Observed(uint64_t cycle, uint64_t* until_next) const {
  for (const CycleObserver* o : observers_) {
    if (cycle >= o->From() && cycle < o->To()) return true;
    if (o->From() > cycle) *until_next = std::min(*until_next, o->From() - cycle);
  }
  return false;
}

std::vector<std::string> Device::Stop() {
  CheckOpen();
  if (opt_.on_close) opt_.on_close(*this);
  std::vector<std::string> files = machine_->Close();
  machine_.reset();
  stopped_ = true;
  return files;
}

}  // namespace tessera::runtime
