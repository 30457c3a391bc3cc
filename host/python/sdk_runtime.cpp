#include "python/sdk_runtime.h"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "python/arrays.h"
#include "python/errors.h"
#include "runtime/memcpy.h"

namespace py = pybind11;

namespace tessera::python {

int ParseSide(const std::string& side, const std::string& arg) {
  std::string s = side;
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (s == "W") return static_cast<int>(arch::Dir::kW);
  if (s == "E") return static_cast<int>(arch::Dir::kE);
  if (s == "N") return static_cast<int>(arch::Dir::kN);
  if (s == "S") return static_cast<int>(arch::Dir::kS);
  throw std::invalid_argument(
      fmt::format("{} '{}': expected an edge side, W, E, N or S", arg, side));
}

namespace {

const char* SideName(int side) { return arch::ToString(static_cast<arch::Dir>(side)); }

std::string SymbolName(const py::object& o, const char* call, const char* arg) {
  if (py::isinstance<py::str>(o)) return o.cast<std::string>();
  if (py::isinstance<py::dict>(o) && o.contains("name")) return o["name"].cast<std::string>();
  throw std::invalid_argument(
      fmt::format("{} {}: expected a symbol name or what get_id() returned, not {}", call, arg,
                  py::str(py::type::of(o)).cast<std::string>()));
}

int Color(const py::object& o, const char* call, const char* arg) {
  if (!py::isinstance<py::int_>(o) && !py::hasattr(o, "__index__"))
    throw std::invalid_argument(fmt::format("{} {}: streaming copies name a color (0..{}), not {}",
                                            call, arg, arch::kNumColors - 1,
                                            py::str(py::type::of(o)).cast<std::string>()));
  const long c = py::int_(o).cast<long>();
  if (c < 0 || c >= static_cast<long>(arch::kNumColors))
    throw std::invalid_argument(
        fmt::format("{} {}: color {} is not one of 0..{}", call, arg, c, arch::kNumColors - 1));
  return static_cast<int>(c);
}

void CheckSizes(int w, int h, int n, const char* call) {
  if (w < 1 || h < 1 || n < 1)
    throw std::invalid_argument(
        fmt::format("{}: w, h and elem_per_pe must be at least 1 (got w={}, h={}, elem_per_pe={})",
                    call, w, h, n));
}

int ElemBits(MemcpyDataType t) { return t == MemcpyDataType::k16Bit ? 16 : 32; }

// The edge that every PE of a streaming copy's region lies on: `side` if given, else the first
// of W, N, E, S that holds the whole region.
int StreamSide(const runtime::Region& r, int fw, int fh, const std::string& side,
               const char* call) {
  if (r.x < 0 || r.y < 0 || r.x + r.w > fw || r.y + r.h > fh)
    throw std::invalid_argument(
        fmt::format("{}: the region {}x{} at ({},{}) is not inside the {}x{} fabric", call, r.w,
                    r.h, r.x, r.y, fw, fh));
  auto on = [&](int s) {
    switch (static_cast<arch::Dir>(s)) {
      case arch::Dir::kW:
        return r.x == 0 && r.w == 1;
      case arch::Dir::kE:
        return r.x + r.w == fw && r.w == 1;
      case arch::Dir::kN:
        return r.y == 0 && r.h == 1;
      case arch::Dir::kS:
        return r.y + r.h == fh && r.h == 1;
      default:
        return false;
    }
  };
  if (!side.empty()) {
    const int s = ParseSide(side, std::string(call) + " side");
    if (!on(s))
      throw std::invalid_argument(fmt::format(
          "{}: streaming goes through each PE's own edge port, but the region {}x{} at ({},{}) "
          "does not lie along the {} edge of the {}x{} fabric",
          call, r.w, r.h, r.x, r.y, SideName(s), fw, fh));
    return s;
  }
  for (arch::Dir d : {arch::Dir::kW, arch::Dir::kN, arch::Dir::kE, arch::Dir::kS})
    if (on(static_cast<int>(d))) return static_cast<int>(d);
  throw std::invalid_argument(fmt::format(
      "{}: streaming goes through each PE's own edge port, so the region must be one column at "
      "the W or E edge or one row at the N or S edge; {}x{} at ({},{}) is neither",
      call, r.w, r.h, r.x, r.y));
}

void CheckStreamArray(const py::array& a, MemcpyDataType t, size_t count, const runtime::Region& r,
                      int n, const std::string& arg, const std::string& what) {
  const int bytes = ElemBits(t) / 8;
  const char kind = a.dtype().kind();
  if (a.itemsize() != bytes || (kind != 'f' && kind != 'i' && kind != 'u'))
    throw std::invalid_argument(fmt::format(
        "{} {}: a {}-bit streaming copy takes {} arrays, not {}", what, arg, ElemBits(t),
        bytes == 4 ? "float32, int32 or uint32" : "float16, int16 or uint16",
        DtypeName(a.dtype())));
  CheckArray(a, a.dtype(), count, r, n, arg, what);
}

}  // namespace

SdkRuntime::SdkRuntime(layout::Image image, const SdkOptions& o)
    : image_(std::move(image)), opt_(o) {
  opt_.device.width = image_.fabric_w;
  opt_.device.height = image_.fabric_h;
  dev_ = std::make_unique<runtime::Device>(opt_.device);
  dev_->SetDebugHandler([this](const ce::DebugRecord& d) {
    debug_.push_back(d);
    if (!opt_.quiet) {
      const std::string line = d.ToString() + "\n";
      std::fwrite(line.data(), 1, line.size(), stdout);
    }
  });
}

SdkRuntime::~SdkRuntime() = default;

runtime::Device& SdkRuntime::device() {
  if (stopped_) RaiseError("stop() was called: the session has ended");
  return *dev_;
}

void SdkRuntime::Load() {
  if (stopped_) RaiseError("load(): stop() was called: the session has ended");
  if (loaded_) RaiseError("load() was called already: a runtime takes one image");
  dev_->Load(image_);
  loaded_ = true;
  if (opt_.instruments.Any())
    instruments_ = std::make_unique<trace::Instruments>(opt_.instruments, *dev_);
}

void SdkRuntime::Run() {
  if (stopped_) RaiseError("run(): stop() was called: the session has ended");
  if (!loaded_) RaiseError("run(): call load() first (the SDK's order: load(), run(), commands)");
  if (started_) RaiseError("run() was called already: the session has started");
  started_ = true;
}

std::vector<std::string> SdkRuntime::Stop() {
  if (stopped_) RaiseError("stop() was called already");
  if (started_) Drain();
  if (instruments_) {
    instrument_lines_ = instruments_->Finish();
    if (opt_.instruments.profile)
      py::print(instruments_->counters()->Summary(runtime::BackendName(opt_.device.backend)),
                py::arg("end") = "");
  }
  std::vector<std::string> files = dev_->Stop();
  stopped_ = true;
  const trace::InstrumentOptions& io = opt_.instruments;
  for (const std::string& f : {io.trace_insn, io.link_trace, io.timeline})
    if (!f.empty()) files.push_back(f);
  return files;
}

void SdkRuntime::CheckStarted(const char* call) const {
  if (stopped_) RaiseError(fmt::format("{}: stop() was called: the session has ended", call));
  if (!started_)
    RaiseError(
        fmt::format("{}: call load() and run() first (the SDK's order: load(), run(), "
                    "then memcpy and launch)",
                    call));
}

uint64_t SdkRuntime::Cycle() const { return dev_ ? dev_->Cycle() : 0; }

py::dict SdkRuntime::GetId(const std::string& name) const {
  const std::vector<fabric::Coord> pes = dev_->Symbol(name);
  const assembler::SymbolInfo* s = image_.Symbol(pes[0].x, pes[0].y, name);
  py::dict d;
  d["name"] = name;
  d["dtype"] = s && s->type ? py::object(DtypeOf(*s->type)) : py::object(py::none());
  d["count"] = s ? s->count : 0;
  d["address"] = s ? s->address : 0;
  py::list where, addresses;
  for (const fabric::Coord& c : pes) {
    where.append(py::make_tuple(c.x, c.y));
    const assembler::SymbolInfo* at = image_.Symbol(c.x, c.y, name);
    addresses.append(at ? at->address : 0);
  }
  d["pes"] = where;
  d["addresses"] = addresses;  // per PE: programs may place the symbol differently
  return d;
}

std::string SdkRuntime::CountersJson() const {
  if (!instruments_ || !instruments_->counters() || !stopped_) return "";
  return instruments_->counters()->Json().str();
}

py::list SdkRuntime::DebugRecords() const {
  py::list out;
  for (const ce::DebugRecord& d : debug_)
    out.append(py::make_tuple(d.cycle, d.x, d.y, d.value, d.ToString()));
  return out;
}

py::object SdkRuntime::Issue(const std::string& what, bool nonblock,
                             std::function<py::object()> fn) {
  auto task = std::make_shared<Task>();
  task->what = what;
  if (nonblock) {
    queue_.push_back({task, std::move(fn)});
    return py::cast(task);
  }
  Drain();
  task->result = fn();
  task->done = true;
  return task->result;
}

void SdkRuntime::Drain(const Task* until) {
  while (!queue_.empty()) {
    Command c = std::move(queue_.front());
    queue_.pop_front();
    try {
      c.task->result = c.fn();
      c.task->done = true;
    } catch (...) {
      c.task->done = true;  // it ran, and raised
      const size_t dropped = queue_.size();
      queue_.clear();
      if (dropped) {
        const std::string note =
            fmt::format("{} failed; the {} command{} queued after it (nonblock=True) were dropped",
                        c.task->what, dropped, dropped == 1 ? "" : "s");
        if (PyErr_WarnEx(PyExc_RuntimeWarning, note.c_str(), 1) < 0) PyErr_Clear();
      }
      throw;
    }
    if (c.task.get() == until) return;
  }
}

void SdkRuntime::DebugWrite(int x, int y, uint32_t address, uint32_t value,
                            const std::string& backend) {
  CheckStarted("debug_write");
  Drain();
  if (backend.empty()) {
    dev_->WriteWord({x, y}, address, value);
    return;
  }
  const runtime::Backend b = runtime::ParseBackend(backend);
  const std::vector<machine::Machine*> parts = dev_->machine().Parts();
  if (parts.size() != 2 || b == runtime::Backend::kCosim)
    throw std::invalid_argument(
        fmt::format("debug_write backend '{}': only a cosim session writes one backend alone "
                    "(func or rtl); this session runs {}",
                    backend, runtime::BackendName(opt_.device.backend)));
  dev_->ReadWord({x, y}, address);  // checks the PE and the address
  parts[b == runtime::Backend::kFunc ? 0 : 1]->Write({x, y}, static_cast<uint16_t>(address), value);
}

uint32_t SdkRuntime::DebugRead(int x, int y, uint32_t address) {
  CheckStarted("debug_read");
  Drain();
  return dev_->ReadWord({x, y}, address);
}

py::object SdkRuntime::TaskWait(const std::shared_ptr<Task>& task) {
  if (!task->done) {
    const bool queued =
        std::any_of(queue_.begin(), queue_.end(), [&](const Command& c) { return c.task == task; });
    if (!queued)
      RaiseError(
          fmt::format("task_wait: {} never ran: a command queued before it failed, and the "
                      "queue was dropped",
                      task->what));
    Drain(task.get());
  }
  return task->result;
}

runtime::RunResult SdkRuntime::RunFabric(uint64_t max_cycles, const std::string& what) {
  // What Python printed so far goes out before the run's debug records.
  py::module_::import("sys").attr("stdout").attr("flush")();
  std::optional<py::error_already_set> interrupt;
  dev_->SetInterruptCheck([&interrupt] {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() == 0) return false;
    interrupt.emplace();  // takes the pending exception (KeyboardInterrupt)
    return true;
  });
  runtime::RunResult r;
  try {
    py::gil_scoped_release release;
    r = dev_->Run(max_cycles, opt_.settle);
    std::fflush(stdout);
  } catch (...) {
    std::fflush(stdout);
    dev_->SetInterruptCheck(nullptr);
    throw;
  }
  dev_->SetInterruptCheck(nullptr);
  last_ = r;
  if (interrupt) {
    interrupt->restore();
    throw py::error_already_set();
  }
  RaiseIfFailed(r, what);
  return r;
}

std::vector<std::string> SdkRuntime::ClearFaults() {
  CheckStarted("clear_faults");
  Drain();
  return dev_->ClearFaults();
}

runtime::RunResult SdkRuntime::RunUntilQuiescent(std::optional<uint64_t> max_cycles) {
  CheckStarted("run_until_quiescent");
  Drain();
  return RunFabric(max_cycles.value_or(opt_.max_cycles), "run_until_quiescent");
}

runtime::MemcpyOptions SdkRuntime::CopyOptions(runtime::Order order, MemcpyDataType t) const {
  runtime::MemcpyOptions o;
  o.elem_bits = ElemBits(t);
  o.order = order;
  o.timing = opt_.host_port ? runtime::Timing::kHostPort : runtime::Timing::kBackDoor;
  return o;
}

arch::ElemType SdkRuntime::SymbolType(const std::string& symbol, const runtime::Region& r,
                                      const char* call) const {
  const assembler::SymbolInfo* s = image_.Symbol(r.x, r.y, symbol);
  if (!s || !s->type)
    throw std::invalid_argument(
        fmt::format("{} '{}': PE({},{}) does not export it with a type (.export {}, TYPE, COUNT)",
                    call, symbol, r.x, r.y, symbol));
  return *s->type;
}

std::deque<fabric::EdgeStream::Wavelet>& SdkRuntime::OutBuffer(fabric::Coord pe, int side) {
  auto& buf = out_[{pe.y * image_.fabric_w + pe.x, side}];
  for (const auto& w : dev_->StreamOut(pe, side)) buf.push_back(w);
  return buf;
}

py::object SdkRuntime::MemcpyH2D(const py::object& dest, const py::array& src, int px, int py,
                                 int w, int h, int n, bool streaming, runtime::Order order,
                                 MemcpyDataType data_type, bool nonblock, const std::string& side) {
  CheckStarted("memcpy_h2d");
  CheckSizes(w, h, n, "memcpy_h2d");
  const runtime::Region r{px, py, w, h};
  const size_t count = size_t(w) * h * n;
  if (streaming) {
    const int color = Color(dest, "memcpy_h2d", "dest");
    const std::string what = fmt::format("memcpy_h2d streaming color {}", color);
    const int s = StreamSide(r, image_.fabric_w, image_.fabric_h, side, "memcpy_h2d");
    CheckStreamArray(src, data_type, count, r, n, "src", what);
    const py::array a = InOrder(src, order);
    std::vector<std::vector<uint32_t>> words =
        runtime::PlanStreamH2D(r, n, CopyOptions(order, data_type), a.data());
    for (int i = 0; i < w * h; ++i) OutBuffer({px + i % w, py + i / w}, s);  // checks the ports
    return Issue(what, nonblock, [this, r, s, color, words = std::move(words)] {
      for (int i = 0; i < r.w * r.h; ++i)
        dev_->StreamIn({r.x + i % r.w, r.y + i / r.w}, s, color, words[i]);
      return py::object(py::none());
    });
  }
  const std::string name = SymbolName(dest, "memcpy_h2d", "dest");
  const std::string what = fmt::format("memcpy_h2d '{}'", name);
  const runtime::MemcpyOptions o = CopyOptions(order, data_type);
  runtime::CheckMemcpy(image_, name, r, n, count, o);
  CheckArray(src, DtypeOf(SymbolType(name, r, "memcpy_h2d")), count, r, n, "src", what);
  const py::array a = InOrder(src, order);
  return Issue(what, nonblock, [this, name, a, count, r, n, o] {
    return py::cast(dev_->MemcpyH2D(name, a.data(), count, r, n, o));
  });
}

py::object SdkRuntime::MemcpyD2H(const py::array& dest, const py::object& src, int px, int py,
                                 int w, int h, int n, bool streaming, runtime::Order order,
                                 MemcpyDataType data_type, bool nonblock, const std::string& side) {
  CheckStarted("memcpy_d2h");
  CheckSizes(w, h, n, "memcpy_d2h");
  const runtime::Region r{px, py, w, h};
  const size_t count = size_t(w) * h * n;
  if (!dest.writeable()) throw std::invalid_argument("memcpy_d2h dest: the array is read-only");
  // Writes the copy's elements into `dest` through `fill(buffer in order)`.
  auto write = [dest, order](const std::function<void(void*)>& fill) {
    if (WritableInOrder(dest, order)) {
      fill(py::array(dest).mutable_data());
      return;
    }
    py::module_ np = py::module_::import("numpy");
    py::array tmp = np.attr("empty")(dest.attr("shape"), dest.dtype(),
                                     order == runtime::Order::kRowMajor ? "C" : "F");
    fill(tmp.mutable_data());
    dest.attr("__setitem__")(py::ellipsis(), tmp);
  };
  if (streaming) {
    const int color = Color(src, "memcpy_d2h", "src");
    const std::string what = fmt::format("memcpy_d2h streaming color {}", color);
    const int s = StreamSide(r, image_.fabric_w, image_.fabric_h, side, "memcpy_d2h");
    CheckStreamArray(dest, data_type, count, r, n, "dest", what);
    for (int i = 0; i < w * h; ++i) OutBuffer({px + i % w, py + i / w}, s);  // opens the ports
    return Issue(what, nonblock, [this, r, n, s, color, what, order, data_type, write] {
      auto have = [&](fabric::Coord pe) {
        const auto& buf = OutBuffer(pe, s);
        return std::count_if(buf.begin(), buf.end(),
                             [&](const auto& v) { return v.color == uint32_t(color); });
      };
      bool short_ = false;
      for (int i = 0; i < r.w * r.h; ++i) short_ |= have({r.x + i % r.w, r.y + i / r.w}) < n;
      if (short_) RunFabric(opt_.max_cycles, what);
      for (int i = 0; i < r.w * r.h; ++i) {
        const fabric::Coord pe{r.x + i % r.w, r.y + i / r.w};
        if (const auto got = have(pe); got < n)
          RaiseError(
              fmt::format("{}: PE({},{}) sent {} of the {} wavelets expected through its {} "
                          "edge port, and the fabric is quiescent",
                          what, pe.x, pe.y, got, n, SideName(s)));
      }
      // Each PE's n wavelets of the color, in order; the others stay for later copies.
      std::vector<std::vector<uint32_t>> words(size_t(r.w) * r.h);
      for (int i = 0; i < r.w * r.h; ++i) {
        auto& buf = OutBuffer({r.x + i % r.w, r.y + i / r.w}, s);
        for (auto it = buf.begin(); it != buf.end() && int(words[i].size()) < n;) {
          if (it->color == uint32_t(color)) {
            words[i].push_back(it->data);
            it = buf.erase(it);
          } else {
            ++it;
          }
        }
      }
      const runtime::MemcpyOptions o = CopyOptions(order, data_type);
      write([&](void* out) { runtime::ScatterStreamD2H(r, n, o, words, out); });
      return py::object(py::none());
    });
  }
  const std::string name = SymbolName(src, "memcpy_d2h", "src");
  const std::string what = fmt::format("memcpy_d2h '{}'", name);
  const runtime::MemcpyOptions o = CopyOptions(order, data_type);
  runtime::CheckMemcpy(image_, name, r, n, count, o);
  CheckArray(dest, DtypeOf(SymbolType(name, r, "memcpy_d2h")), count, r, n, "dest", what);
  return Issue(what, nonblock, [this, name, count, r, n, o, write] {
    runtime::MemcpyResult res;
    write([&](void* out) { res = dev_->MemcpyD2H(out, count, name, r, n, o); });
    return py::cast(res);
  });
}

py::object SdkRuntime::Launch(const std::string& name, const py::args& args, bool nonblock,
                              const py::object& region) {
  CheckStarted("launch");
  dev_->Symbol(name);  // an unknown task is refused now, not when the queue runs
  if (args.size() > 1)
    throw std::invalid_argument(
        fmt::format("launch '{}': a task takes at most one argument (its 16-bit TaskArg), got {}",
                    name, args.size()));
  std::optional<uint16_t> arg;
  if (args.size() == 1) {
    const py::object a = args[0];
    if (py::isinstance<py::bool_>(a) || !py::hasattr(a, "__index__"))
      throw std::invalid_argument(
          fmt::format("launch '{}': the argument must be an integer 0..65535, not {}", name,
                      py::str(py::repr(a)).cast<std::string>()));
    const long v = py::int_(a).cast<long>();
    if (v < 0 || v > 0xFFFF)
      throw std::invalid_argument(fmt::format(
          "launch '{}': the argument {} does not fit the 16-bit TaskArg (0..65535)", name, v));
    arg = static_cast<uint16_t>(v);
  }
  std::optional<runtime::Region> where;
  if (!region.is_none()) {
    std::vector<int> t;
    try {
      t = region.cast<std::vector<int>>();
    } catch (const py::cast_error&) {
    }
    if (t.size() != 4)
      throw std::invalid_argument(fmt::format("launch '{}': region must be (x, y, w, h)", name));
    where = runtime::Region{t[0], t[1], t[2], t[3]};
  }
  const std::string what = fmt::format("launch '{}'", name);
  return Issue(what, nonblock, [this, name, where, arg, what] {
    dev_->Launch(name, where, arg);
    return py::cast(RunFabric(opt_.max_cycles, what));
  });
}

void SdkRuntime::StreamIn(int x, int y, const std::string& side, int color, const py::array& data,
                          bool ctrl, bool nonblock) {
  CheckStarted("stream_in");
  const int s = ParseSide(side, "stream_in side");
  if (color < 0 || color >= static_cast<int>(arch::kNumColors))
    throw std::invalid_argument(
        fmt::format("stream_in color: {} is not one of 0..{}", color, arch::kNumColors - 1));
  const char kind = data.dtype().kind();
  if (data.itemsize() != 4 || (kind != 'f' && kind != 'i' && kind != 'u'))
    throw std::invalid_argument(fmt::format(
        "stream_in data: one wavelet per 32-bit element (float32, int32 or uint32), not {}",
        DtypeName(data.dtype())));
  const py::array a = InOrder(data, runtime::Order::kRowMajor);
  std::vector<uint32_t> words(a.size());
  if (!words.empty()) std::memcpy(words.data(), a.data(), words.size() * 4);
  OutBuffer({x, y}, s);  // checks the port now
  Issue(fmt::format("stream_in PE({},{}) {}", x, y, SideName(s)), nonblock,
        [this, x, y, s, color, ctrl, words = std::move(words)] {
          dev_->StreamIn({x, y}, s, color, words, ctrl);
          return py::object(py::none());
        });
}

namespace {
struct OutWavelet {
  uint64_t cycle;
  uint32_t color;
  bool ctrl;
  uint32_t data;
};
}  // namespace

py::array SdkRuntime::StreamOut(int x, int y, const std::string& side) {
  CheckStarted("stream_out");
  const int s = ParseSide(side, "stream_out side");
  auto& buf = OutBuffer({x, y}, s);
  static const bool registered = [] {
    PYBIND11_NUMPY_DTYPE(OutWavelet, cycle, color, ctrl, data);
    return true;
  }();
  (void)registered;
  py::array_t<OutWavelet> out(static_cast<py::ssize_t>(buf.size()));
  auto m = out.mutable_unchecked<1>();
  for (size_t i = 0; i < buf.size(); ++i)
    m(i) = OutWavelet{buf[i].cycle, buf[i].color, buf[i].ctrl, buf[i].data};
  buf.clear();
  return out;
}

}  // namespace tessera::python
