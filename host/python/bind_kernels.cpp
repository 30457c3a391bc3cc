// tessera.kernels (docs/kernels.md, "Your own data"): every kernel of the library as a function
// on numpy arrays, over the same host code as `tessera kernel`:
//
//   y, report = tessera.kernels.gemv(A, x, b, fabric=(4, 4), backend="cosim")
//
// Positional arguments are the kernel's inputs in order (None: generated from `seed`); keyword
// arguments are inputs by name or the options of `tessera kernel` (m, n, k, nx, ny, nz, iters,
// bins, tol, nnz, fabric, dtype, along, op, seed, backend, max_cycles, threads) and profile=True,
// timeline="FILE.json". It returns the outputs in order and a report dict; a run that faults,
// deadlocks, differs (cosim) or misses the tolerance raises.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>

#include "kernels/kernel.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "trace/instruments.h"

namespace py = pybind11;

namespace tessera::python {
namespace {

runtime::NpyArray ToHost(const py::handle& obj, const std::string& name) {
  py::array a = py::array::ensure(obj, py::array::c_style);
  if (!a) throw std::invalid_argument(fmt::format("input {}: not an array", name));
  runtime::NpyArray x;
  x.dtype = py::str(a.dtype().attr("str")).cast<std::string>();
  x.elem_bytes = static_cast<size_t>(a.itemsize());
  for (py::ssize_t i = 0; i < a.ndim(); ++i) x.shape.push_back(static_cast<size_t>(a.shape(i)));
  x.data.resize(static_cast<size_t>(a.nbytes()));
  std::memcpy(x.data.data(), a.data(), x.data.size());
  return x;
}

py::array ToNumpy(const runtime::NpyArray& x) {
  const std::string dt = x.dtype == "|u1" ? "u1" : x.dtype;
  py::array out(py::dtype(dt), std::vector<py::ssize_t>(x.shape.begin(), x.shape.end()));
  std::memcpy(out.mutable_data(), x.data.data(), x.data.size());
  return out;
}

int IntOption(const py::handle& v, const char* name) {
  if (py::isinstance<py::bool_>(v) || !py::hasattr(v, "__index__"))
    throw std::invalid_argument(fmt::format("{}: expected an integer", name));
  const long long n = v.cast<long long>();
  if (n < 1 || n > 1'000'000'000)
    throw std::invalid_argument(fmt::format("{}={}: give 1 or more", name, n));
  return static_cast<int>(n);
}

py::tuple RunKernel(const kernels::KernelDef& def, const py::args& pos, const py::kwargs& kw) {
  kernels::KernelArgs args;
  kernels::HostArrays in, out;
  if (pos.size() > def.inputs.size())
    throw std::invalid_argument(
        fmt::format("{}: takes {} inputs, got {}", def.name, def.inputs.size(), pos.size()));
  for (size_t i = 0; i < pos.size(); ++i)
    if (!pos[i].is_none()) in[def.inputs[i].name] = ToHost(pos[i], def.inputs[i].name);
  bool profile = false;
  std::string timeline;
  for (const auto& [key, value] : kw) {
    const std::string k = py::str(key);
    bool is_input = false;
    for (const kernels::IoSpec& s : def.inputs) is_input |= k == s.name;
    if (is_input) {
      if (in.count(k))
        throw std::invalid_argument(fmt::format("{}: input {} given twice", def.name, k));
      if (!value.is_none()) in[k] = ToHost(value, k);
    } else if (k == "m") {
      args.m = IntOption(value, "m");
    } else if (k == "n") {
      args.n = IntOption(value, "n");
    } else if (k == "k") {
      args.k = IntOption(value, "k");
    } else if (k == "nx") {
      args.nx = IntOption(value, "nx");
    } else if (k == "ny") {
      args.ny = IntOption(value, "ny");
    } else if (k == "nz") {
      args.nz = IntOption(value, "nz");
    } else if (k == "iters") {
      args.iters = IntOption(value, "iters");
    } else if (k == "bins") {
      args.bins = IntOption(value, "bins");
    } else if (k == "nnz") {
      args.nnz = IntOption(value, "nnz");
    } else if (k == "threads") {
      args.threads = IntOption(value, "threads");
    } else if (k == "max_cycles") {
      args.max_cycles = value.cast<uint64_t>();
    } else if (k == "seed") {
      args.seed = value.cast<uint64_t>();
    } else if (k == "tol") {
      args.tol = value.cast<double>();
      if (!(args.tol > 0)) throw std::invalid_argument("tol: give a positive tolerance");
    } else if (k == "dtype") {
      args.dtype = py::str(value);
    } else if (k == "along") {
      args.along = py::str(value);
    } else if (k == "op") {
      args.op = py::str(value);
    } else if (k == "backend") {
      args.backend = runtime::ParseBackend(py::str(value));
    } else if (k == "fabric") {
      const auto t = value.cast<std::vector<int>>();
      if (t.size() != 2 || t[0] < 1 || t[1] < 1)
        throw std::invalid_argument("fabric: expected (width, height), each 1 or more");
      args.fabric_w = t[0];
      args.fabric_h = t[1];
    } else if (k == "profile") {
      profile = value.cast<bool>();
    } else if (k == "timeline") {
      timeline = py::str(value);
    } else {
      throw std::invalid_argument(fmt::format("{}: unknown argument '{}'", def.name, k));
    }
  }
  kernels::CheckIoNames(def, &in, {});
  args.in = &in;
  args.out = &out;
  trace::InstrumentOptions io;
  io.profile = profile;
  io.timeline = timeline;
  std::unique_ptr<trace::Instruments> instruments;
  if (io.Any()) {
    args.on_load = [&](runtime::Device& dev) {
      instruments = std::make_unique<trace::Instruments>(io, dev);
    };
    args.on_close = [&](runtime::Device&) {
      if (instruments) instruments->Finish();
    };
  }
  kernels::KernelResult r;
  {
    py::gil_scoped_release release;
    r = def.run(args);
  }
  py::dict report;
  report["kernel"] = def.name;
  report["pass"] = r.pass;
  report["status"] = r.status;
  report["cycles"] = r.cycles;
  report["fabric"] = py::make_tuple(r.fabric_w, r.fabric_h);
  report["size"] = r.size;
  report["useful_ops"] = r.useful_ops;
  report["fmac_utilization"] = r.fmac_utilization;
  report["max_abs_err"] = r.max_abs_err;
  report["max_rel_err"] = r.max_rel_err;
  report["tolerance"] = r.tolerance;
  report["link_wavelets"] = r.link_wavelets;
  if (instruments && instruments->counters())
    report["counters"] =
        py::module_::import("json").attr("loads")(instruments->counters()->Json().str());
  if (!r.pass) RaiseKernelFailure(r.status, fmt::format("{} {}: {}", def.name, r.size, r.message));
  py::list results;
  for (const kernels::IoSpec& s : def.outputs) {
    const auto it = out.find(s.name);
    results.append(it == out.end() ? py::object(py::none()) : py::object(ToNumpy(it->second)));
  }
  results.append(report);
  return py::tuple(results);
}

std::string PyName(const char* name) {
  std::string s = name;
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

}  // namespace

void BindKernels(py::module_& m) {
  py::module_ k = m.def_submodule(
      "kernels", "The kernel library on your own data (docs/kernels.md, \"Your own data\").");
  for (const kernels::KernelDef& def : kernels::Kernels()) {
    const kernels::KernelDef* d = &def;
    std::string doc = fmt::format("{}\n\nOptions: {}\n", def.summary, def.options);
    std::string ins, outs;
    for (const kernels::IoSpec& s : def.inputs)
      doc += fmt::format("input {}: {} {}: {}\n", s.name, s.dtype, s.shape, s.what);
    for (const kernels::IoSpec& s : def.outputs)
      doc += fmt::format("output {}: {} {}: {}\n", s.name, s.dtype, s.shape, s.what);
    doc += "Returns the outputs, then a report dict (cycles, fmac_utilization, ...).";
    k.def(
        PyName(def.name).c_str(),
        [d](const py::args& a, const py::kwargs& kw) { return RunKernel(*d, a, kw); }, doc.c_str());
  }
}

}  // namespace tessera::python
