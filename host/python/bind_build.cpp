// Building programs from Python (docs/python.md, "Building a program"): tessera.assemble,
// tessera.link, tessera.Layout and tessera.Image over the assembler and the layout linker.
#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <stdexcept>

#include "asm/assembler.h"
#include "asm/listing.h"
#include "asm/object.h"
#include "layout/image.h"
#include "layout/layout.h"
#include "layout/route_check.h"
#include "python/arrays.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "python/layout_builder.h"

namespace py = pybind11;

namespace tessera::python {
namespace {

std::string FsPath(const py::object& o) {
  return py::str(py::module_::import("os").attr("fspath")(o)).cast<std::string>();
}

// An int (or numpy integer) or an expression string, as layout text.
std::string ExprArg(const py::object& o, const std::string& arg) {
  if (py::isinstance<py::bool_>(o))
    throw std::invalid_argument(
        fmt::format("{}: expected an integer or an expression, not a bool", arg));
  if (py::isinstance<py::str>(o)) return LayoutBuilder::Expr(o.cast<std::string>(), arg);
  if (py::hasattr(o, "__index__")) return py::str(py::int_(o)).cast<std::string>();
  throw std::invalid_argument(fmt::format("{}: expected an integer or an expression, not {}", arg,
                                          py::str(py::repr(o)).cast<std::string>()));
}

// A route coordinate: an int, an expression, "LO..HI" or a (lo, hi) pair.
std::string RangeArg(const py::object& o, const std::string& arg) {
  if (py::isinstance<py::tuple>(o) || py::isinstance<py::list>(o)) {
    const py::sequence s = o;
    if (s.size() != 2)
      throw std::invalid_argument(fmt::format("{}: a range is (first, last)", arg));
    return ExprArg(s[0], arg) + ".." + ExprArg(s[1], arg);
  }
  return ExprArg(o, arg);  // "LO..HI" is split by the builder
}

std::vector<std::string> Strings(const py::object& o) {
  if (py::isinstance<py::str>(o)) {
    std::vector<std::string> out;
    std::string s = o.cast<std::string>(), cur;
    for (char c : s) {
      if (c == ',') {
        out.push_back(cur);
        cur.clear();
      } else if (c != ' ') {
        cur += c;
      }
    }
    out.push_back(cur);
    return out;
  }
  std::vector<std::string> out;
  for (const py::handle h : o) out.push_back(FsPath(py::reinterpret_borrow<py::object>(h)));
  return out;
}

py::dict Symbols(const layout::Image& img, int x, int y) {
  const assembler::PeProgram* p = img.ProgramAt(x, y);
  if (!p)
    throw std::invalid_argument(
        fmt::format("symbols({}, {}): PE({},{}) has no program", x, y, x, y));
  py::dict out;
  for (const auto& [name, s] : p->symbols) {
    py::dict d;
    d["address"] = s.address;
    d["section"] = s.section;
    d["exported"] = s.exported;
    d["dtype"] = s.type ? py::object(DtypeOf(*s.type)) : py::object(py::none());
    d["count"] = s.count;
    out[py::str(name)] = d;
  }
  return out;
}

struct Assembled {  // tessera.Object
  assembler::AssembleResult result;
};

}  // namespace

void BindBuild(py::module_& m) {
  py::class_<layout::Image>(m, "Image", "A linked program image (.timg): what every backend loads.")
      .def_property_readonly(
          "fabric", [](const layout::Image& i) { return py::make_tuple(i.fabric_w, i.fabric_h); })
      .def_property_readonly(
          "programs", [](const layout::Image& i) { return i.programs.size(); },
          "The number of distinct linked programs.")
      .def_readonly("warnings", &layout::Image::warnings)
      .def("symbols", &Symbols, py::arg("x"), py::arg("y"),
           "The symbols of the program at PE(x, y): name -> dict(address, section, exported, "
           "dtype, count).")
      .def("unconnected_routes", &layout::UnconnectedRoutes,
           "Routes that send toward a neighbour that does not take the color (warnings).")
      .def(
          "save",
          [](const layout::Image& i, const py::object& path) {
            layout::WriteImageFile(FsPath(path), i);
          },
          py::arg("path"))
      .def("text", &layout::WriteImage)
      .def("__repr__", [](const layout::Image& i) {
        return fmt::format("<tessera.Image {}x{}, {} programs, {} PEs with a program or a route>",
                           i.fabric_w, i.fabric_h, i.programs.size(), i.pes.size());
      });

  m.def(
      "read_image", [](const py::object& path) { return layout::ReadImageFile(FsPath(path)); },
      py::arg("path"), "Reads a .timg file; AssemblyError names file:line for a bad one.");

  py::class_<Assembled>(m, "Object", "One assembled source (what `tessera asm` writes, .tobj).")
      .def_property_readonly("warnings",
                             [](const Assembled& a) {
                               std::vector<std::string> out;
                               for (const auto& d : a.result.warnings) out.push_back(d.Format());
                               return out;
                             })
      .def_property_readonly("listing",
                             [](const Assembled& a) {
                               return assembler::FormatListing(a.result.object.source,
                                                               a.result.listing);
                             })
      .def_property_readonly("symbols",
                             [](const Assembled& a) {
                               std::vector<std::string> out;
                               for (const auto& s : a.result.object.symbols) out.push_back(s.name);
                               return out;
                             })
      .def(
          "save",
          [](const Assembled& a, const py::object& path) {
            assembler::WriteObjectFile(FsPath(path), a.result.object);
          },
          py::arg("path"), "Writes the object file (.tobj), which a layout's program= may name.");

  m.def(
      "assemble",
      [](const py::object& path, const py::object& text, const std::string& name,
         const std::vector<std::string>& include_dirs,
         const std::map<std::string, int64_t>& defines, const py::object& output) {
        assembler::AssembleOptions o;
        o.include_dirs = include_dirs;
        o.defines = defines;
        Assembled a;
        if (!path.is_none() && !text.is_none())
          throw std::invalid_argument("assemble: give a path or text=, not both");
        if (!text.is_none()) {
          a.result = assembler::AssembleText(name, text.cast<std::string>(), o);
        } else if (!path.is_none()) {
          const std::string p = FsPath(path);
          if (!std::filesystem::exists(p))
            throw std::invalid_argument(fmt::format("assemble {}: no such file", p));
          a.result = assembler::Assemble(p, o);
        } else {
          throw std::invalid_argument("assemble: give the source's path or text=");
        }
        if (!output.is_none()) assembler::WriteObjectFile(FsPath(output), a.result.object);
        return a;
      },
      py::arg("path") = py::none(), py::kw_only(), py::arg("text") = py::none(),
      py::arg("name") = "<text>", py::arg("include_dirs") = std::vector<std::string>{},
      py::arg("defines") = std::map<std::string, int64_t>{}, py::arg("output") = py::none(),
      "Assembles a source file (or text=); AssemblyError lists every problem as "
      "file:line:column: error: message.");

  py::class_<LayoutBuilder>(m, "Layout",
                            "A layout built in Python (docs/layout.md): regions of programs with "
                            "per-PE params, and routes. .text shows the layout file it makes.")
      .def(py::init(
               [](const py::object& width, const py::object& height, const py::object& base_dir) {
                 return LayoutBuilder(ExprArg(width, "width"), ExprArg(height, "height"),
                                      base_dir.is_none() ? std::filesystem::current_path().string()
                                                         : FsPath(base_dir));
               }),
           py::arg("width"), py::arg("height"), py::arg("base_dir") = py::none(),
           "A width x height fabric; relative program paths are taken from base_dir (default: "
           "the current directory).")
      .def(
          "let",
          [](LayoutBuilder& b, const std::string& name, const py::object& value) {
            b.Let(name, ExprArg(value, "let " + name));
            return &b;
          },
          py::arg("name"), py::arg("value"), py::return_value_policy::reference)
      .def(
          "include",
          [](LayoutBuilder& b, const py::object& path) {
            b.Include(FsPath(path));
            return &b;
          },
          py::arg("path"), py::return_value_policy::reference,
          "A directory searched by .include, or a .tlayout whose statements are read here.")
      .def(
          "region",
          [](LayoutBuilder& b, const py::object& x, const py::object& y, const py::object& program,
             const py::object& w, const py::object& h, const py::object& params,
             const py::object& when) {
            std::vector<std::pair<std::string, std::string>> ps;
            if (!params.is_none())
              for (const auto& [k, v] : params.cast<py::dict>()) {
                const std::string key = py::str(k).cast<std::string>();
                ps.emplace_back(key,
                                ExprArg(py::reinterpret_borrow<py::object>(v), "param " + key));
              }
            std::vector<std::string> programs;
            if (py::isinstance<py::str>(program) || py::hasattr(program, "__fspath__"))
              programs.push_back(FsPath(program));
            else
              programs = Strings(program);
            b.Region(ExprArg(x, "region x"), ExprArg(y, "region y"), ExprArg(w, "region w"),
                     ExprArg(h, "region h"), programs, ps,
                     when.is_none() ? "" : ExprArg(when, "region when"));
            return &b;
          },
          py::arg("x"), py::arg("y"), py::arg("program"), py::arg("w") = 1, py::arg("h") = 1,
          py::arg("params") = py::none(), py::arg("when") = py::none(),
          py::return_value_policy::reference,
          "Runs `program` (a path, or a list linked together) on the w x h PEs at (x, y); "
          "params maps each .param to an int or an expression of x, y, W, H, FW, FH and lets.")
      .def(
          "route",
          [](LayoutBuilder& b, const py::object& color, const py::object& x, const py::object& y,
             const py::object& rx, const py::object& tx, const std::vector<std::string>& pos,
             bool ring, const py::object& when) {
            b.Route(ExprArg(color, "route color"), RangeArg(x, "route x"), RangeArg(y, "route y"),
                    Strings(rx), Strings(tx), pos, ring,
                    when.is_none() ? "" : ExprArg(when, "route when"));
            return &b;
          },
          py::arg("color"), py::arg("x"), py::arg("y"), py::arg("rx"), py::arg("tx"),
          py::arg("pos") = std::vector<std::string>{}, py::arg("ring") = false,
          py::arg("when") = py::none(), py::return_value_policy::reference,
          "The route of `color` on the PEs x, y (each an int, an expression or a (first, last) "
          "range): rx and tx are directions W, E, S, N, RAMP ('W,RAMP' or a list).")
      .def_property_readonly("text", &LayoutBuilder::Text)
      .def(
          "link",
          [](const LayoutBuilder& b, const py::object& output) {
            layout::Image img = b.Link();
            WarnLinker(img, "<tessera.Layout>");
            if (!output.is_none()) layout::WriteImageFile(FsPath(output), img);
            return img;
          },
          py::arg("output") = py::none(),
          "Links the layout into an Image (saved to output if given).");

  m.def(
      "link",
      [](const py::object& layout_arg, const py::object& output) {
        layout::Image img;
        if (py::isinstance<LayoutBuilder>(layout_arg)) {
          img = layout_arg.cast<const LayoutBuilder&>().Link();
          WarnLinker(img, "<tessera.Layout>");
        } else {
          const std::string p = FsPath(layout_arg);
          if (!std::filesystem::exists(p))
            throw std::invalid_argument(fmt::format("link {}: no such file", p));
          img = layout::Link(layout::ParseLayoutFile(p));
          WarnLinker(img, p);
        }
        if (!output.is_none()) layout::WriteImageFile(FsPath(output), img);
        return img;
      },
      py::arg("layout"), py::arg("output") = py::none(),
      "Links a layout (a tessera.Layout or the path of a .tlayout) into an Image.");
}

}  // namespace tessera::python
