#include "python/errors.h"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

#include "asm/diagnostics.h"
#include "layout/route_check.h"

namespace py = pybind11;

namespace tessera::python {
namespace {

// The classes, created once by BindErrors (borrowed references kept alive by the module).
PyObject* g_error = nullptr;
PyObject* g_assembly = nullptr;
PyObject* g_fault = nullptr;
PyObject* g_deadlock = nullptr;
PyObject* g_mismatch = nullptr;
PyObject* g_link_warning = nullptr;

PyObject* NewClass(py::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string full = fmt::format("tessera.{}", name);
  PyObject* cls = PyErr_NewExceptionWithDoc(full.c_str(), doc, bases, nullptr);
  if (!cls) throw py::error_already_set();
  m.add_object(name, py::handle(cls));
  return cls;
}

// The runtime names its options as the command line spells them; in Python they are keyword
// arguments: "--fabric 4x4: ..." reads "fabric=4x4: ...", "raise --max-cycles" reads "raise
// max_cycles".
std::string PythonWords(std::string m) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"--max-cycles", "max_cycles"},   {"--fabric ", "fabric="},
      {"(--fabric)", "(fabric=)"},      {"--tile ", "tile="},
      {"--lockstep", "lockstep"},       {"--wave-window", "wave_window"},
      {"--wave-region", "wave_region"}, {"--wave", "wave"},
      {"--backend ", "backend="},       {"--threads", "threads"},
      {"--host-port", "host_port"}};
  for (const auto& [cli, py_word] : kWords) {
    const std::string from = cli, to = py_word;
    for (size_t at = m.find(from); at != std::string::npos; at = m.find(from, at + to.size()))
      m.replace(at, from.size(), to);
  }
  // Any other "--name value" (a kernel's sizes: "--nnz 500") reads "name=value".
  static const std::regex kOption("--([a-z][a-z0-9]*(?:-[a-z0-9]+)*) (?=[0-9-])");
  m = std::regex_replace(m, kOption, "$1=");
  return m;
}

[[noreturn]] void Raise(PyObject* cls, const std::string& message,
                        const runtime::RunResult* result) {
  py::object exc =
      py::reinterpret_steal<py::object>(PyObject_CallFunction(cls, "s", message.c_str()));
  if (!exc) throw py::error_already_set();
  exc.attr("result") = result ? py::cast(*result) : py::none();
  PyErr_SetObject(cls, exc.ptr());
  throw py::error_already_set();
}

}  // namespace

void BindErrors(py::module_& m) {
  g_error =
      NewClass(m, "Error", PyExc_RuntimeError, "Base of the errors of a run and of the tools.");
  py::tuple both = py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError));
  g_assembly = NewClass(m, "AssemblyError", both.ptr(),
                        "A source, object, layout or image was refused: every problem as "
                        "file:line:column: error: message.");
  g_fault = NewClass(m, "FaultError", g_error,
                     "A PE faulted; the message says which, where and why; .result holds the "
                     "RunResult.");
  g_deadlock = NewClass(m, "DeadlockError", g_error,
                        "Nothing moved for a whole window, or the cycle limit passed, before the "
                        "fabric became quiescent; the message holds the deadlock diagnosis; "
                        ".result holds the RunResult.");
  g_link_warning = NewClass(m, "LinkWarning", PyExc_UserWarning,
                            "What the linker notes but does not refuse: a bank conflict in "
                            "straight-line code, a route that connects nowhere.");
  g_mismatch = NewClass(m, "MismatchError", g_error,
                        "Co-simulation: the backends differ; the message names the first "
                        "difference.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const assembler::Error& e) {
      PyErr_SetString(g_assembly, e.what());
    } catch (const runtime::CosimMismatch& e) {
      PyErr_SetString(g_mismatch, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, PythonWords(e.what()).c_str());
    }
  });
}

void RaiseIfFailed(const runtime::RunResult& r, const std::string& what) {
  using S = runtime::RunResult::Status;
  const std::string message = PythonWords(fmt::format("{}: {}", what, r.message));
  switch (r.status) {
    case S::kQuiescent:
    case S::kSettled:
      return;
    case S::kFault:
      Raise(g_fault, message, &r);
    case S::kCycleLimit:
    case S::kDeadlock:
      Raise(g_deadlock, message, &r);
    case S::kMismatch:
      Raise(g_mismatch, message, &r);
    case S::kInterrupted:
      PyErr_SetString(PyExc_KeyboardInterrupt, message.c_str());
      throw py::error_already_set();
  }
  Raise(g_error, message, &r);
}

void RaiseError(const std::string& message) { Raise(g_error, message, nullptr); }

void RaiseKernelFailure(const std::string& status, const std::string& message) {
  PyObject* cls = status == "fault"                                   ? g_fault
                  : (status == "deadlock" || status == "cycle limit") ? g_deadlock
                  : status == "mismatch"                              ? g_mismatch
                                                                      : g_error;
  Raise(cls, PythonWords(message), nullptr);
}

void WarnLinker(const layout::Image& image, const std::string& source) {
  std::vector<std::string> lines;
  for (const std::string& w : layout::UnconnectedRoutes(image))
    lines.push_back(fmt::format("{}: warning: {}", source, w));
  lines.insert(lines.end(), image.warnings.begin(), image.warnings.end());
  for (const std::string& w : lines)
    if (PyErr_WarnEx(g_link_warning, w.c_str(), 1) != 0) throw py::error_already_set();
}

}  // namespace tessera::python
