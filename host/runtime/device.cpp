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
#include "cosim/debug.h"
#include "cosim/end_state.h"
#include "cosim/faults.h"
#include "cosim/links.h"
#include "cosim/quiescence.h"
#include "cosim/retires.h"
#include "cosim/tasks.h"
#include "rtl/tile_model.h"
#include "runtime/diagnosis.h"
#include "runtime/progress.h"
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
    {RunResult::Status::kCycleLimit, "cycle limit"},
    {RunResult::Status::kFault, "fault"},
    {RunResult::Status::kMismatch, "mismatch"},
    {RunResult::Status::kInterrupted, "interrupted"},
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
    OpenMachines();
  } catch (const std::bad_alloc&) {
    machines_.clear();
    throw std::invalid_argument(fmt::format("--fabric {}x{}: out of memory: {}", opt_.width,
                                            opt_.height, MemoryNeed(opt_)));
  }
  for (auto& m : machines_) {
    m->SetTaskLog(true);
    m->Fabric().SetStopWhenQuiescent(true);
    m->Fabric().SetLinkLog(machines_.size() == 2);  // cosim compares every link
  }
  on_debug_ = [](const ce::DebugRecord& d) { std::printf("%s\n", d.ToString().c_str()); };
}

void Device::OpenMachines() {
  if (opt_.backend != Backend::kRtl)
    machines_.push_back(
        MakeFuncMachine(opt_.width, opt_.height, opt_.tile, opt_.threads, opt_.run_ahead));
  if (opt_.backend != Backend::kFunc) {
    RtlMachineOptions r;
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
    machines_.push_back(MakeRtlMachine(r));
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
  machines_[0]->Fabric().SetLinkLog(on_links_ || machines_.size() == 2);
}

uint64_t Device::Cycle() const { return machines_.empty() ? 0 : machines_[0]->Cycle(); }

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
  for (auto& m : machines_) {
    if (port)
      m->PortWrite(pe, addr, value);
    else
      m->Write(pe, addr, value);
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
  uint32_t first = 0;
  for (size_t i = 0; i < machines_.size(); ++i) {
    Machine& m = *machines_[i];
    const uint32_t v = port ? m.PortRead(pe, addr) : m.Read(pe, addr);
    if (i == 0) {
      first = v;
    } else if (v != first) {
      throw CosimMismatch(
          fmt::format("cosim: PE({},{}) address 0x{:04x} reads 0x{:08x} on {} but 0x{:08x} on {}",
                      pe.x, pe.y, addr, first, machines_[0]->Name(), v, m.Name()));
    }
  }
  return first;
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
  for (size_t k = 0; k < plan.size(); ++k) ports[machines_[0]->PortOf(plan[k].pe)].push_back(k);
  RunResult scratch;
  scratch.start_cycle = Cycle();
  while (!ports.empty()) {
    for (auto it = ports.begin(); it != ports.end();) {
      one(it->second.front(), true);
      it->second.pop_front();
      it = it->second.empty() ? ports.erase(it) : std::next(it);
    }
    for (auto& m : machines_) m->Run(1);
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

void Device::Launch(const std::string& task, std::optional<Region> region,
                    std::optional<uint16_t> arg) {
  CheckLoaded();
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
  machines_[0]->Fabric().CheckEdgePort(pe, side);
  auto st = std::make_unique<Stream>();
  st->pe = pe;
  st->side = side;
  for (auto& m : machines_) {
    st->ends.push_back(std::make_unique<fabric::EdgeStream>());
    m->Fabric().SetEdgeEndpoint(pe, side, st->ends.back().get());
  }
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
  for (auto& m : machines_)  // host streams are edge endpoints: their Quiet() counts
    if (!m->Fabric().Quiescent()) return false;
  return true;
}

void Device::Deliver(RunResult& r, const std::vector<fabric::PeEvents>* events) {
  std::vector<ce::DebugRecord> debug[2];
  std::vector<TaskStart> tasks[2];
  std::vector<fabric::FaultRecord> faults[2];
  std::vector<fabric::LinkEvent> links[2];
  for (size_t i = 0; i < machines_.size(); ++i) {
    if (events) {  // one cycle, PEs in index order: already in (cycle, y, x) order
      const fabric::Fabric& f = machines_[i]->Fabric();
      const uint64_t cycle = machines_[i]->Cycle() - 1;
      for (size_t pe = 0; pe < events[i].size(); ++pe) {
        const fabric::PeEvents& e = events[i][pe];
        debug[i].insert(debug[i].end(), e.debug.begin(), e.debug.end());
        if (e.task_start) tasks[i].push_back({cycle, f.At(static_cast<int>(pe)), e.task});
      }
    } else {
      debug[i] = machines_[i]->TakeDebug();
      tasks[i] = machines_[i]->TakeTaskLog();
    }
    faults[i] = machines_[i]->Fabric().Faults();
    links[i] = machines_[i]->Fabric().TakeLinkLog();
  }
  if (on_links_ && !links[0].empty()) {
    std::vector<fabric::LinkEvent> v = links[0];
    std::sort(v.begin(), v.end(), [](const fabric::LinkEvent& a, const fabric::LinkEvent& b) {
      return std::make_tuple(a.cycle, a.pe.y, a.pe.x, a.port, a.into) <
             std::make_tuple(b.cycle, b.pe.y, b.pe.x, b.port, b.into);
    });
    on_links_(v);
  }
  if (machines_.size() == 2 && r.status != RunResult::Status::kMismatch) {
    // Of every kind of difference, the one with the earliest cycle: the likeliest cause.
    const std::string& na = machines_[0]->Name();
    const std::string& nb = machines_[1]->Name();
    uint64_t compared = 0;
    const std::optional<cosim::Mismatch> first = cosim::Earliest({
        cosim::CompareLinks(std::move(links[0]), std::move(links[1]), machines_[0]->Fabric(),
                            machines_[1]->Fabric(), na, nb, &compared),
        cosim::CompareDebug(debug[0], debug[1], na, nb),
        cosim::CompareTasks(tasks[0], tasks[1], na, nb),
        cosim::CompareFaults(faults[0], faults[1], na, nb),
    });
    r.link_wavelets += compared;
    if (first) {
      r.status = RunResult::Status::kMismatch;
      r.message = first->message;
    }
  }
  r.tasks_started += tasks[0].size();
  r.debug_records += debug[0].size();
  for (const ce::DebugRecord& d : debug[0]) on_debug_(d);
  if (!faults[0].empty() && r.status == RunResult::Status::kQuiescent) {
    r.status = RunResult::Status::kFault;
    r.faults = faults[0];
    for (const fabric::FaultRecord& f : faults[0])
      r.message += DescribeFault(*machines_[0], image_ ? &*image_ : nullptr, f) + "\n";
  }
}

RunResult Device::Run(uint64_t max_cycles) {
  CheckLoaded();
  RunResult r;
  r.start_cycle = Cycle();
  auto retired = [this] {
    uint64_t n = 0;
    Machine& m = *machines_[0];
    for (int i = 0; i < m.Width() * m.Height(); ++i) n += m.Retired(m.Fabric().At(i));
    return n;
  };
  const uint64_t retired_before = retired();
  Progress progress(opt_.progress);
  uint64_t done = 0;
  // Every fabric stops by itself after a fault or at the exact cycle it becomes quiescent
  // (Fabric::SetStopWhenQuiescent), so runs go in steps that grow while the fabric stays busy;
  // lockstep compares after every cycle.
  uint64_t step = 64;
  std::vector<fabric::PeEvents> events[2];  // lockstep: the cycle's events of each machine
  while (r.status == RunResult::Status::kQuiescent) {
    if (Quiescent()) break;
    if (done >= max_cycles) {
      r.status = RunResult::Status::kCycleLimit;
      r.message = fmt::format(
          "the run did not finish within {} cycles (deadlock, or raise --max-cycles):\n{}{}",
          max_cycles, DiagnoseDeadlock(*machines_[0], &*image_), PendingStreams());
      break;
    }
    uint64_t stepped[2] = {0, 0};
    uint64_t until_window = UINT64_MAX;
    const bool observed = Observed(Cycle(), &until_window);
    if (opt_.lockstep || observed) {  // one cycle: compared for the watched PE, observed
      const uint64_t now = Cycle();
      if (observed)
        for (CycleObserver* o : observers_)
          if (now >= o->From() && now < o->To()) o->Before(now, *machines_[0]);
      uint64_t cycle = 0;
      for (size_t i = 0; i < machines_.size(); ++i) {
        cycle = machines_[i]->Step(events[i]);
        stepped[i] = 1;
      }
      if (opt_.lockstep) {
        const int pe = machines_[0]->Fabric().Index(*opt_.lockstep);
        const std::string diff = cosim::CompareLockstep(
            *machines_[0], *machines_[1], *opt_.lockstep, cycle, events[0][pe], events[1][pe]);
        if (!diff.empty()) {
          r.status = RunResult::Status::kMismatch;
          r.message = diff;
        }
      }
      if (observed)
        for (CycleObserver* o : observers_)
          if (cycle >= o->From() && cycle < o->To()) o->After(cycle, *machines_[0], events[0]);
      Deliver(r, events);
    } else {
      const uint64_t want = std::min({step, max_cycles - done, until_window});
      step = std::min<uint64_t>(step * 2, 8192);
      for (size_t i = 0; i < machines_.size(); ++i) stepped[i] = machines_[i]->Run(want);
      Deliver(r);
    }
    done += stepped[0];
    if (machines_.size() == 2 && r.status == RunResult::Status::kQuiescent) {
      if (auto stop = cosim::CompareStops(*machines_[0], stepped[0], *machines_[1], stepped[1])) {
        r.status = RunResult::Status::kMismatch;
        r.message = stop->message;
      }
    }
    progress.Update(done);
    if (interrupt_ && r.status == RunResult::Status::kQuiescent && !Quiescent() && interrupt_()) {
      r.status = RunResult::Status::kInterrupted;
      r.message = fmt::format("interrupted after {} cycles, at cycle {}", done, Cycle());
    }
  }
  progress.Finish();
  if (machines_.size() == 2 && r.status != RunResult::Status::kMismatch) {
    const std::string diff = cosim::CompareState(*machines_[0], *machines_[1]);
    if (!diff.empty()) {
      r.status = RunResult::Status::kMismatch;
      r.message = diff;
    }
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
  std::vector<std::string> files;
  for (auto& m : machines_) {
    for (std::string& f : m->Close()) files.push_back(std::move(f));
  }
  machines_.clear();
  stopped_ = true;
  return files;
}

}  // namespace tessera::runtime
