// The Python module `tessera` (docs/python.md): the host runtime with the public SDK's calls
// (SdkRuntime), the assembler and the layout linker, over numpy arrays. It wraps the C++
// libraries; every rule lives there.
#include <pybind11/pybind11.h>

#include "python/bindings.h"
#include "python/errors.h"

PYBIND11_MODULE(tessera, m) {
  m.doc() =
      "Tessera: an RTL-accurate emulator of a wafer-scale dataflow fabric.\n\n"
      "  runner = tessera.SdkRuntime('out.timg', backend='cosim')\n"
      "  runner.load(); runner.run()\n"
      "  runner.memcpy_h2d('x', x, 0, 0, 4, 1, 16)\n"
      "  runner.launch('main')\n"
      "  runner.memcpy_d2h(y, 'y', 0, 0, 4, 1, 16)\n"
      "  runner.stop()\n\n"
      "See docs/python.md.";
  m.attr("__version__") = "0.2";
  tessera::python::BindErrors(m);
  tessera::python::BindRuntime(m);
  tessera::python::BindBuild(m);
  tessera::python::BindKernels(m);
}
