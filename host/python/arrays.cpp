#include "python/arrays.h"

#include <fmt/format.h>

#include <stdexcept>

namespace py = pybind11;

namespace tessera::python {

py::dtype DtypeOf(arch::ElemType t) {
  switch (t) {
    case arch::ElemType::kF32:
      return py::dtype("float32");
    case arch::ElemType::kF16:
      return py::dtype("float16");
    case arch::ElemType::kI32:
      return py::dtype("int32");
    case arch::ElemType::kI16:
      return py::dtype("int16");
    case arch::ElemType::kU32:
      return py::dtype("uint32");
    case arch::ElemType::kU16:
      return py::dtype("uint16");
  }
  throw std::invalid_argument("unknown element type");
}

std::string DtypeName(const py::dtype& d) { return py::str(py::handle(d)).cast<std::string>(); }

void CheckArray(const py::array& a, const py::dtype& want, size_t count, const runtime::Region& r,
                int n, const std::string& arg, const std::string& what) {
  if (!a.dtype().equal(want))
    throw std::invalid_argument(fmt::format(
        "{} {}: the array's dtype is {}, but the symbol holds {} (convert with "
        ".astype(np.{}), or .view(np.{}) for raw bits)",
        what, arg, DtypeName(a.dtype()), DtypeName(want), DtypeName(want), DtypeName(want)));
  if (static_cast<size_t>(a.size()) != count)
    throw std::invalid_argument(fmt::format(
        "{} {}: the array has {} elements, but the region {}x{} at ({},{}) with {} per PE "
        "needs w*h*elem_per_pe = {}",
        what, arg, a.size(), r.w, r.h, r.x, r.y, n, count));
  const bool shaped = a.ndim() == 3 && a.shape(0) == r.h && a.shape(1) == r.w && a.shape(2) == n;
  if (a.ndim() != 1 && !shaped)
    throw std::invalid_argument(
        fmt::format("{} {}: the array must be one-dimensional or of shape (h, w, elem_per_pe) "
                    "= ({}, {}, {}); it has {} dimensions",
                    what, arg, r.h, r.w, n, a.ndim()));
}

namespace {
bool Contiguous(const py::array& a, runtime::Order order) {
  const int flag = order == runtime::Order::kRowMajor ? py::array::c_style : py::array::f_style;
  // pybind11's flags mirror NPY_ARRAY_C_CONTIGUOUS / NPY_ARRAY_F_CONTIGUOUS.
  return (a.flags() & flag) != 0;
}
}  // namespace

py::array InOrder(const py::array& a, runtime::Order order) {
  if (Contiguous(a, order)) return a;
  py::module_ np = py::module_::import("numpy");
  return np.attr(order == runtime::Order::kRowMajor ? "ascontiguousarray" : "asfortranarray")(a);
}

bool WritableInOrder(const py::array& a, runtime::Order order) {
  return a.writeable() && Contiguous(a, order);
}

}  // namespace tessera::python
