// numpy arrays for the module: the dtype of each element type of an export (f32 float32,
// f16 float16, i32 int32, u32 uint32, i16 int16, u16 uint16), and host buffers in the order a
// copy reads them, taken without a copy where the array's layout allows.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "arch/arch.h"
#include "runtime/memcpy.h"

namespace tessera::python {

pybind11::dtype DtypeOf(arch::ElemType t);
// "float32" for a numpy dtype.
std::string DtypeName(const pybind11::dtype& d);

// Checks that `a` has dtype `want` and `count` elements, and is either one-dimensional or of
// shape (h, w, n); throws std::invalid_argument naming `arg` and `what` (the copy) otherwise.
void CheckArray(const pybind11::array& a, const pybind11::dtype& want, size_t count,
                const runtime::Region& r, int n, const std::string& arg, const std::string& what);

// `a` itself when its memory already holds the elements in `order` (C order for row-major,
// Fortran order for column-major; any contiguous 1-D array), else a copy in that order.
pybind11::array InOrder(const pybind11::array& a, runtime::Order order);
// True when `a`'s memory can be written in `order` directly.
bool WritableInOrder(const pybind11::array& a, runtime::Order order);

}  // namespace tessera::python
