// The parts of the Python module `tessera` (module.cpp puts them together).
#pragma once

#include <pybind11/pybind11.h>

namespace tessera::python {

void BindRuntime(pybind11::module_& m);  // SdkRuntime, RunResult, MemcpyOrder, ... (bind_runtime)
void BindBuild(pybind11::module_& m);
void BindKernels(
    pybind11::module_& m);  // tessera.kernels: the library on numpy arrays (bind_kernels)    //
                            // assemble, link, Layout, Image (bind_build)

}  // namespace tessera::python
