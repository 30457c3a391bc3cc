// The exceptions of the Python module (docs/python.md, "Errors"):
//
//   tessera.Error (RuntimeError)          the base of what a run or the tools raise
//     tessera.AssemblyError (also ValueError)  assembler, linker and layout messages
//     tessera.FaultError                  a PE faulted: the fault in words, `.result`
//     tessera.DeadlockError               the cycle limit passed: the deadlock diagnosis, `.result`
//     tessera.MismatchError               cosim: the backends differ: the first difference
//   tessera.LinkWarning (UserWarning)     what the linker notes but does not refuse
//
// Bad arguments raise ValueError naming the argument; Ctrl-C during a run raises
// KeyboardInterrupt after whole cycles.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "layout/image.h"
#include "runtime/device.h"

namespace tessera::python {

// Creates the exception classes in `m` and registers the translation of C++ exceptions:
// assembler::Error -> AssemblyError, runtime::CosimMismatch -> MismatchError,
// std::invalid_argument -> ValueError.
void BindErrors(pybind11::module_& m);

// Raises the exception for a run that did not end quiescent (FaultError, DeadlockError,
// MismatchError; KeyboardInterrupt for an interrupted one), with `result` attached and `what`
// ("launch 'main'") leading the message. Returns normally for a quiescent run.
void RaiseIfFailed(const runtime::RunResult& result, const std::string& what);

// The linker's warnings about `image` (assembly warnings such as bank conflicts, and routes that
// connect nowhere) as Python warnings of class tessera.LinkWarning, as `tessera link` prints them
// (`source` names the layout).
void WarnLinker(const layout::Image& image, const std::string& source);

// Raises what a kernel's failed run calls for: FaultError (status "fault"), DeadlockError
// ("deadlock", "cycle limit"), MismatchError ("mismatch"), else tessera.Error.
[[noreturn]] void RaiseKernelFailure(const std::string& status, const std::string& message);

// Raises tessera.Error with `message`.
[[noreturn]] void RaiseError(const std::string& message);

}  // namespace tessera::python
