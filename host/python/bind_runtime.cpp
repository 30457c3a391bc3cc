// tessera.SdkRuntime and what its calls return (docs/python.md).
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "layout/image.h"
#include "layout/layout.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "python/sdk_runtime.h"
#include "runtime/device.h"

namespace py = pybind11;

namespace tessera::python {
namespace {

// (w, h), [w, h] or "WxH".
std::pair<int, int> Pair(const py::object& o, const char* arg, char sep) {
  if (py::isinstance<py::str>(o)) {
    const std::string s = o.cast<std::string>();
    static const std::regex x(R"(^([0-9]{1,5})x([0-9]{1,5})$)"),
        c(R"(^([0-9]{1,5}),([0-9]{1,5})$)");
    std::smatch m;
    if (std::regex_match(s, m, sep == 'x' ? x : c)) return {std::stoi(m[1]), std::stoi(m[2])};
    throw std::invalid_argument(
        fmt::format("{} '{}': expected {}", arg, s, sep == 'x' ? "'WxH' or (w, h)" : "(x, y)"));
  }
  try {
    const auto v = o.cast<std::vector<int>>();
    if (v.size() == 2) return {v[0], v[1]};
  } catch (const py::cast_error&) {
  }
  throw std::invalid_argument(fmt::format("{}: expected {}, not {}", arg,
                                          sep == 'x' ? "'WxH' or (w, h)" : "(x, y)",
                                          py::str(py::repr(o)).cast<std::string>()));
}

std::vector<long long> Ints(const py::object& o, size_t n, const char* arg, const char* form) {
  try {
    const auto v = o.cast<std::vector<long long>>();
    if (v.size() == n) return v;
  } catch (const py::cast_error&) {
  }
  throw std::invalid_argument(
      fmt::format("{}: expected {}, not {}", arg, form, py::str(py::repr(o)).cast<std::string>()));
}

// An image argument: a tessera.Image, or the path of a .timg (or of a .tlayout, linked here).
layout::Image ImageArg(const py::object& o) {
  if (py::isinstance<layout::Image>(o)) return o.cast<layout::Image>();
  if (!py::isinstance<py::str>(o) && !py::hasattr(o, "__fspath__"))
    throw std::invalid_argument(
        fmt::format("image: expected a tessera.Image or the path of a .timg or .tlayout file, "
                    "not {}",
                    py::str(py::type::of(o)).cast<std::string>()));
  const std::string path = py::str(py::module_::import("os").attr("fspath")(o));
  if (!std::filesystem::exists(path))
    throw std::invalid_argument(fmt::format("image {}: no such file", path));
  if (path.size() > 8 && path.compare(path.size() - 8, 8, ".tlayout") == 0) {
    layout::Image img = layout::Link(layout::ParseLayoutFile(path));
    WarnLinker(img, path);
    return img;
  }
  return layout::ReadImageFile(path);
}

std::unique_ptr<SdkRuntime> MakeRuntime(
    const py::object& image, const std::string& backend, const py::object& fabric,
    const py::object& tile, uint64_t max_cycles, bool host_port, bool quiet, bool progress,
    const py::object& wave, const py::object& wave_window, const py::object& wave_region,
    const py::object& link_trace, const py::object& lockstep, bool systemc,
    const py::object& trace_insn, const py::object& trace_region, const py::object& trace_window,
    const py::object& timeline, const py::object& heatmap, bool profile, int threads, bool settle) {
  SdkOptions o;
  layout::Image img = ImageArg(image);
  o.device.backend = runtime::ParseBackend(backend);
  if (!fabric.is_none()) {
    const auto [w, h] = Pair(fabric, "fabric", 'x');
    if (w != img.fabric_w || h != img.fabric_h)
      throw std::invalid_argument(fmt::format(
          "fabric {}x{}: the image is linked for a {}x{} fabric (the fabric is set in its layout)",
          w, h, img.fabric_w, img.fabric_h));
  }
  if (!tile.is_none()) o.device.tile = Pair(tile, "tile", 'x');
  o.max_cycles = max_cycles;
  o.host_port = host_port;
  o.quiet = quiet;
  o.settle = settle;
  o.device.progress = progress;
  o.device.systemc = systemc;
  if (threads < 1 || threads > 64)
    throw std::invalid_argument(fmt::format("threads {}: expected 1 to 64", threads));
  o.device.threads = threads;
  if (!wave.is_none()) o.device.wave_path = py::str(py::module_::import("os").attr("fspath")(wave));
  if (!wave_window.is_none()) {
    const auto v = Ints(wave_window, 2, "wave_window", "(from, to) cycles");
    if (v[0] < 0 || v[0] >= v[1])
      throw std::invalid_argument(
          fmt::format("wave_window ({}, {}): expected 0 <= from < to", v[0], v[1]));
    o.device.wave_from = v[0];
    o.device.wave_to = v[1];
  }
  if (!wave_region.is_none()) {
    const auto v = Ints(wave_region, 4, "wave_region", "(x0, y0, x1, y1)");
    o.device.wave_x0 = v[0];
    o.device.wave_y0 = v[1];
    o.device.wave_x1 = v[2];
    o.device.wave_y1 = v[3];
  }
  if ((!wave_window.is_none() || !wave_region.is_none()) && wave.is_none())
    throw std::invalid_argument("wave_window and wave_region need wave='FILE.fst'");
  auto path = [](const py::object& p) {
    return p.is_none() ? std::string()
                       : py::str(py::module_::import("os").attr("fspath")(p)).cast<std::string>();
  };
  trace::InstrumentOptions& io = o.instruments;
  io.link_trace = path(link_trace);
  io.trace_insn = path(trace_insn);
  io.timeline = path(timeline);
  io.heatmap_dir = path(heatmap);
  io.profile = profile;
  for (const auto& [kw, file] :
       {std::pair{"link_trace", io.link_trace}, std::pair{"trace_insn", io.trace_insn},
        std::pair{"timeline", io.timeline}})
    if (!file.empty() && !std::ofstream(file, std::ios::app))
      throw std::invalid_argument(fmt::format("{} {}: cannot write the file", kw, file));
  std::string region, window;
  if (!trace_region.is_none()) {
    const auto v = Ints(trace_region, 4, "trace_region", "(x0, y0, x1, y1)");
    region = fmt::format("{},{}:{},{}", v[0], v[1], v[2], v[3]);
  }
  if (!trace_window.is_none()) {
    const auto v = Ints(trace_window, 2, "trace_window", "(from, to) cycles");
    window = fmt::format("{}:{}", v[0], v[1]);
  }
  try {
    io.scope = trace::ParseScope(region, window);
  } catch (const std::invalid_argument& e) {  // name the Python keyword, not the CLI option
    std::string m = e.what();
    for (const auto& [cli, kw] :
         {std::pair{"--trace-region", "trace_region"}, std::pair{"--trace-window", "trace_window"}})
      if (m.rfind(cli, 0) == 0) m = kw + m.substr(std::string(cli).size());
    throw std::invalid_argument(m);
  }
  if (!lockstep.is_none()) {
    const auto [x, y] = Pair(lockstep, "lockstep", ',');
    o.device.lockstep = fabric::Coord{x, y};
  }
  return std::make_unique<SdkRuntime>(std::move(img), o);
}

py::list FaultList(const runtime::RunResult& r) {
  py::list out;
  for (const fabric::FaultRecord& f : r.faults) out.append(fabric::DescribeFault(f));
  return out;
}

}  // namespace

void BindRuntime(py::module_& m) {
  py::enum_<runtime::Order>(m, "MemcpyOrder", "Host array order of a copy (the SDK's names).")
      .value("ROW_MAJOR", runtime::Order::kRowMajor)
      .value("COL_MAJOR", runtime::Order::kColMajor);
  py::enum_<MemcpyDataType>(m, "MemcpyDataType", "Element size of a copy (the SDK's names).")
      .value("MEMCPY_32BIT", MemcpyDataType::k32Bit)
      .value("MEMCPY_16BIT", MemcpyDataType::k16Bit);

  py::class_<runtime::RunResult>(m, "RunResult", "What a run of the fabric gave.")
      .def_property_readonly(
          "status", [](const runtime::RunResult& r) { return runtime::StatusName(r.status); })
      .def_property_readonly("ok", &runtime::RunResult::ok)
      .def_property_readonly("cycles", &runtime::RunResult::cycles)
      .def_readonly("start_cycle", &runtime::RunResult::start_cycle)
      .def_readonly("end_cycle", &runtime::RunResult::end_cycle)
      .def_readonly("instructions", &runtime::RunResult::instructions)
      .def_readonly("tasks_started", &runtime::RunResult::tasks_started)
      .def_readonly("debug_records", &runtime::RunResult::debug_records)
      .def_readonly("link_wavelets", &runtime::RunResult::link_wavelets)
      .def_readonly("message", &runtime::RunResult::message)
      .def_property_readonly("faults", &FaultList)
      .def("__repr__", [](const runtime::RunResult& r) {
        return fmt::format(
            "<RunResult {} after {} cycles ({}..{}), {} instructions, {} task "
            "starts>",
            runtime::StatusName(r.status), r.cycles(), r.start_cycle, r.end_cycle, r.instructions,
            r.tasks_started);
      });

  py::class_<runtime::MemcpyResult>(m, "MemcpyResult",
                                    "What a copy took: simulated cycles (host port) and words.")
      .def_readonly("cycles", &runtime::MemcpyResult::cycles)
      .def_readonly("words", &runtime::MemcpyResult::words)
      .def("__repr__", [](const runtime::MemcpyResult& r) {
        return fmt::format("<MemcpyResult {} words in {} cycles>", r.words, r.cycles);
      });

  py::class_<Task, std::shared_ptr<Task>>(m, "Task",
                                          "A command issued with nonblock=True (task_wait).")
      .def_readonly("what", &Task::what)
      .def_readonly("done", &Task::done)
      .def("__repr__", [](const Task& t) {
        return fmt::format("<Task {} ({})>", t.what, t.done ? "done" : "queued");
      });

  using R = SdkRuntime;
  py::class_<R>(m, "SdkRuntime",
                "A session on the emulated fabric with the public SDK's runtime calls: load(), "
                "run(), memcpy_h2d(), launch(), memcpy_d2h(), stop(). See docs/python.md.")
      .def(py::init(&MakeRuntime), py::arg("image"), py::arg("backend") = "func",
           py::arg("fabric") = py::none(), py::arg("tile") = py::none(), py::kw_only(),
           py::arg("max_cycles") = 10'000'000, py::arg("host_port") = false,
           py::arg("quiet") = false, py::arg("progress") = true, py::arg("wave") = py::none(),
           py::arg("wave_window") = py::none(), py::arg("wave_region") = py::none(),
           py::arg("link_trace") = py::none(), py::arg("lockstep") = py::none(),
           py::arg("systemc") = false, py::arg("trace_insn") = py::none(),
           py::arg("trace_region") = py::none(), py::arg("trace_window") = py::none(),
           py::arg("timeline") = py::none(), py::arg("heatmap") = py::none(),
           py::arg("profile") = false, py::arg("threads") = 1, py::arg("settle") = false)
      .def("load", &R::Load, "Writes the image into every PE (zero time).")
      .def("run", &R::Run, "Starts the session: memcpy and launch may follow.")
      .def("stop", &R::Stop,
           "Runs the queued commands and ends the session; returns the files written (waves, "
           "link trace).")
      .def("get_id", &R::GetId, py::arg("name"),
           "The exported symbol `name`: a dict with name, dtype, count, address and the PEs "
           "that export it. memcpy takes it or the name.")
      .def("memcpy_h2d", &R::MemcpyH2D, py::arg("dest"), py::arg("src"), py::arg("px"),
           py::arg("py"), py::arg("w"), py::arg("h"), py::arg("elem_per_pe"),
           py::arg("streaming") = false, py::arg("order") = runtime::Order::kRowMajor,
           py::arg("data_type") = MemcpyDataType::k32Bit, py::arg("nonblock") = false,
           py::kw_only(), py::arg("side") = "",
           "Copies the numpy array `src` into symbol `dest` on the region (px, py, w, h), "
           "elem_per_pe per PE; streaming=True sends it as wavelets of color `dest` through each "
           "PE's edge port.")
      .def("memcpy_d2h", &R::MemcpyD2H, py::arg("dest"), py::arg("src"), py::arg("px"),
           py::arg("py"), py::arg("w"), py::arg("h"), py::arg("elem_per_pe"),
           py::arg("streaming") = false, py::arg("order") = runtime::Order::kRowMajor,
           py::arg("data_type") = MemcpyDataType::k32Bit, py::arg("nonblock") = false,
           py::kw_only(), py::arg("side") = "",
           "Copies symbol `src` of the region into the numpy array `dest` (in place); "
           "streaming=True takes the wavelets of color `src` that left through each PE's edge "
           "port.")
      .def("launch", &R::Launch, py::arg("name"), py::arg("nonblock") = false,
           py::arg("region") = py::none(),
           "Activates the exported task `name` (with one 16-bit argument, if given) and runs the "
           "fabric until it is quiescent again; returns a RunResult (or a Task with "
           "nonblock=True).")
      .def("clear_faults", &R::ClearFaults,
           "Clears the faults of every faulted PE (a host write to FaultStatus and RouterFault): "
           "a faulted PE stays stopped until then, and its compute engine goes on at the "
           "instruction that faulted. Returns the faults cleared, in words.")
      .def("run_until_quiescent", &R::RunUntilQuiescent, py::arg("max_cycles") = py::none(),
           "Runs the fabric until it is quiescent (for streams and data tasks).")
      .def("stream_in", &R::StreamIn, py::arg("x"), py::arg("y"), py::arg("side"), py::arg("color"),
           py::arg("data"), py::arg("ctrl") = false, py::kw_only(), py::arg("nonblock") = false,
           "Queues one wavelet per 32-bit element of `data` into the edge port of PE(x, y) "
           "facing `side`.")
      .def("stream_out", &R::StreamOut, py::arg("x"), py::arg("y"), py::arg("side"),
           "Opens the edge port of PE(x, y) facing `side` and returns what has left through it "
           "(cycle, color, ctrl, data).")
      .def("debug_write", &R::DebugWrite, py::arg("x"), py::arg("y"), py::arg("address"),
           py::arg("value"), py::kw_only(), py::arg("backend") = "",
           "Writes one 32-bit word of PE(x, y) through the back door (SRAM below 0xC000, "
           "registers above); under cosim backend='func' or 'rtl' writes one backend alone.")
      .def("debug_read", &R::DebugRead, py::arg("x"), py::arg("y"), py::arg("address"),
           "Reads one 32-bit word of PE(x, y) through the back door (cosim: both, compared).")
      .def("task_wait", &R::TaskWait, py::arg("task"),
           "Runs the queued commands up to `task` and returns its result.")
      .def(
          "is_task_complete", [](const R&, const std::shared_ptr<Task>& t) { return t->done; },
          py::arg("task"))
      .def_property_readonly("cycle", &R::Cycle, "The fabric's current cycle.")
      .def_property_readonly("stopped", &R::stopped, "True after stop().")
      .def_property_readonly(
          "counters",
          [](const R& r) -> py::object {
            const std::string j = r.CountersJson();
            if (j.empty()) return py::none();
            return py::module_::import("json").attr("loads")(j);
          },
          "After stop(), with profile=True or heatmap=: every counter (docs/profiling.md), a "
          "dict; else None.")
      .def_property_readonly("last_result", &R::last_result, "The RunResult of the last run.")
      .def_property_readonly("debug_records", &R::DebugRecords,
                             "Debug-port records so far: (cycle, x, y, value, text).")
      .def_property_readonly(
          "backend", [](const R& r) { return runtime::BackendName(r.options().device.backend); })
      .def_property_readonly(
          "fabric",
          [](const R& r) { return py::make_tuple(r.image().fabric_w, r.image().fabric_h); })
      .def(
          "__enter__", [](R& r) -> R& { return r; }, py::return_value_policy::reference)
      .def("__exit__", [](R& r, const py::object& type, const py::object&, const py::object&) {
        if (type.is_none() && !r.stopped()) r.Stop();
      });
}

}  // namespace tessera::python
