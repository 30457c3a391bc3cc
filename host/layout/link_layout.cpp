// Link: a Layout to an Image. Each PE gets at most one region and at most one route per color;
// each source is assembled once, and each region's objects are linked once per distinct set of
// param values.
#include <fmt/core.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "asm/assembler.h"
#include "asm/link.h"
#include "asm/object.h"
#include "layout/layout.h"

namespace tessera::layout {

using assembler::Diagnostic;
using assembler::Diagnostics;
using assembler::Error;
using assembler::Location;

namespace {

std::string ParamsText(const std::map<std::string, int64_t>& params) {
  std::string text;
  for (const auto& [name, value] : params) {
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", name, value);
  }
  return text.empty() ? "no params" : text;
}

std::string Note(const Location& loc, const std::string& message) {
  return loc.ToString() + ": note: " + message;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

uint32_t SwitchValue(const Route& r) {
  // A position that keeps the base route (code 0) leaves its Out bit 0 too, so that a route
  // without positions has the reset value 0.
  auto out = [](const SwitchPos& p) { return uint32_t(p.code != 0 && p.out); };
  uint32_t v = 0;
  v = arch::SwitchCfg::WithPos1Dir(v, r.pos[0].code);
  v = arch::SwitchCfg::WithPos1Out(v, out(r.pos[0]));
  v = arch::SwitchCfg::WithPos2Dir(v, r.pos[1].code);
  v = arch::SwitchCfg::WithPos2Out(v, out(r.pos[1]));
  v = arch::SwitchCfg::WithPos3Dir(v, r.pos[2].code);
  v = arch::SwitchCfg::WithPos3Out(v, out(r.pos[2]));
  v = arch::SwitchCfg::WithRing(v, r.ring);
  v = arch::SwitchCfg::WithPos(v, static_cast<uint32_t>(r.start));
  v = arch::SwitchCfg::WithFilter(v, r.filter ? 1 : 0);
  if (r.counter) {
    v = arch::SwitchCfg::WithCounter(v, 1);
    v = arch::SwitchCfg::WithCountData(v, r.count_data ? 1 : 0);
    v = arch::SwitchCfg::WithCountCtrl(v, r.count_ctrl ? 1 : 0);
  }
  return v;
}

class Linker {
 public:
  explicit Linker(const Layout& layout)
      : layout_(layout), fw_(layout.fabric_w()), fh_(layout.fabric_h()) {}

  Image Run() {
    if (fw_ < 1 || fh_ < 1 || fw_ > 0xFFFF || fh_ > 0xFFFF) {
      throw Error(Location{}, fmt::format("the fabric size {}x{} is out of range (1..65535 each "
                                          "way)",
                                          fw_, fh_));
    }
    if (int64_t(fw_) * fh_ > kMaxFabricPes) {
      throw Error(Location{}, fmt::format("the fabric {}x{} has {} PEs; a layout may have up to {}",
                                          fw_, fh_, int64_t(fw_) * fh_, kMaxFabricPes));
    }
    pes_.assign(size_t(fw_) * fh_, PeState{});
    for (size_t i = 0; i < layout_.regions().size(); ++i) AssignRegion(i);
    for (size_t i = 0; i < layout_.routes().size(); ++i) AssignRoute(i);
    diags_.ThrowIfAny();

    Image image;
    image.fabric_w = fw_;
    image.fabric_h = fh_;
    for (int y = 0; y < fh_; ++y) {
      for (int x = 0; x < fw_; ++x) {
        PeState& st = At(x, y);
        if (st.region < 0 && st.routes.empty()) continue;
        ImagePe pe;
        pe.x = x;
        pe.y = y;
        if (st.region >= 0) pe.program = ProgramFor(x, y, st, &image);
        for (const auto& [color, rt] : st.routes) pe.routes.push_back(rt.cfg);
        image.pes.push_back(std::move(pe));
      }
    }
    diags_.ThrowIfAny();
    image.warnings.assign(warnings_.begin(), warnings_.end());
    return image;
  }

 private:
  struct PeRoute {
    RouteCfg cfg;
    size_t route = 0;
  };
  struct PeState {
    int region = -1;
    std::map<std::string, int64_t> params;
    std::map<int, PeRoute> routes;
  };

  PeState& At(int x, int y) { return pes_[size_t(y) * fw_ + x]; }

  void Add(const Location& loc, const std::string& message) {
    diags_.Add(Diagnostic{loc, message, {}});
  }
  // Passes on the assembler's or linker's problems; one with no place of its own (a param
  // without a value, a program too big) is placed at the layout statement `at`.
  void AddAll(const Error& e, const std::string& note = "", const Location& at = {}) {
    for (Diagnostic d : e.diagnostics()) {
      if (d.loc.file.empty()) d.loc = at;
      if (!note.empty()) d.notes.push_back(note);
      diags_.Add(std::move(d));
    }
  }

  Scope PeScope(const Scope& base, int x, int y) const {
    Scope s = base;
    s.Set("FW", fw_);
    s.Set("FH", fh_);
    s.Set("x", x);
    s.Set("y", y);
    return s;
  }

  void AssignRegion(size_t index) {
    const Region& r = layout_.regions()[index];
    if (r.w < 1 || r.h < 1 || r.x0 < 0 || r.y0 < 0 || int64_t(r.x0) + r.w > fw_ ||
        int64_t(r.y0) + r.h > fh_) {
      Add(r.loc, fmt::format("the region at {},{} of size {}x{} does not fit in the {}x{} fabric "
                             "(it covers x {}..{}, y {}..{}; the fabric x 0..{}, y 0..{})",
                             r.x0, r.y0, r.w, r.h, fw_, fh_, r.x0, int64_t(r.x0) + r.w - 1, r.y0,
                             int64_t(r.y0) + r.h - 1, fw_ - 1, fh_ - 1));
      return;
    }
    if (r.program.empty()) {
      Add(r.loc, "the region has no program");
      return;
    }
    for (int y = r.y0; y < r.y0 + r.h; ++y) {
      for (int x = r.x0; x < r.x0 + r.w; ++x) {
        Scope s = PeScope(r.scope, x, y);
        s.Set("X0", r.x0);
        s.Set("Y0", r.y0);
        s.Set("W", r.w);
        s.Set("H", r.h);
        const std::string context = fmt::format(" (at PE({},{}))", x, y);
        try {
          if (r.when && r.when->Eval(s, context) == 0) continue;
          PeState& pe = At(x, y);
          if (pe.region >= 0) {
            // Once per pair of regions: the first PE they share.
            if (overlaps_.insert({pe.region, static_cast<int>(index)}).second) {
              const Region& other = layout_.regions()[pe.region];
              Add(r.loc, fmt::format("PE({},{}) is in two regions: this one and the one at {}", x,
                                     y, other.loc.ToString()));
            }
            continue;
          }
          pe.region = static_cast<int>(index);
          for (const Param& p : r.params) pe.params[p.name] = p.value.Eval(s, context);
        } catch (const Error& e) {
          AddAll(e);
          return;  // a bad expression would fail on most PEs: report it once
        }
      }
    }
  }

  void AssignRoute(size_t index) {
    const Route& r = layout_.routes()[index];
    if (r.color < 0 || r.color >= int(arch::kNumColors)) {
      Add(r.loc, fmt::format("color {} is out of range (routable colors are 0..{})", r.color,
                             arch::kNumColors - 1));
      return;
    }
    if (r.x0 < 0 || r.y0 < 0 || r.x1 < r.x0 || r.y1 < r.y0 || r.x1 >= fw_ || r.y1 >= fh_) {
      Add(r.loc, fmt::format("the route covers x {}..{}, y {}..{}, outside the {}x{} fabric "
                             "(x 0..{}, y 0..{})",
                             r.x0, r.x1, r.y0, r.y1, fw_, fh_, fw_ - 1, fh_ - 1));
      return;
    }
    if ((r.rx | r.tx) >> arch::kNumDirs) {
      Add(r.loc, "a direction mask has bits above RAMP (masks are 5 bits, W E S N RAMP)");
      return;
    }
    for (const SwitchPos& p : r.pos) {
      if (p.code > 7) {
        Add(r.loc, fmt::format("switch code {} is out of range (0..7)", p.code));
        return;
      }
    }
    RouteCfg cfg;
    cfg.color = r.color;
    cfg.color_cfg = arch::ColorCfg::WithSwapX(ColorCfgValue(r.rx, r.tx), r.swap_x ? 1 : 0);
    cfg.switch_cfg = SwitchValue(r);
    if (r.filter)
      cfg.filter_range = arch::FilterRange::WithMax(
          arch::FilterRange::WithMin(0, static_cast<uint32_t>(r.filter->first)),
          static_cast<uint32_t>(r.filter->second));
    if (r.counter)
      cfg.filter_count = arch::FilterCount::WithLimit(
          arch::FilterCount::WithCount(0, static_cast<uint32_t>(r.counter->first)),
          static_cast<uint32_t>(r.counter->second));
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) {
        try {
          if (r.when &&
              r.when->Eval(PeScope(r.scope, x, y), fmt::format(" (at PE({},{}))", x, y)) == 0) {
            continue;
          }
        } catch (const Error& e) {
          AddAll(e);
          return;  // once per route
        }
        PeState& pe = At(x, y);
        auto [it, fresh] = pe.routes.emplace(r.color, PeRoute{cfg, index});
        if (!fresh) {
          Add(r.loc, fmt::format("PE({},{}) already has a route for color {} (from {})", x, y,
                                 r.color, layout_.routes()[it->second.route].loc.ToString()));
        }
      }
    }
  }

  // One file of a program, read or assembled once however many regions use it; nullptr (and
  // the problems reported, once) if it cannot be.
  const assembler::Object* File(const Region& r, const std::string& path) {
    auto found = files_.find(path);
    if (found != files_.end()) return found->second ? &*found->second : nullptr;
    std::optional<assembler::Object>& slot = files_[path];
    try {
      if (EndsWith(path, ".tobj")) {
        slot = assembler::ReadObjectFile(path);
      } else if (EndsWith(path, ".s") || EndsWith(path, ".S") || EndsWith(path, ".asm")) {
        assembler::AssembleOptions opt;
        opt.include_dirs = layout_.include_dirs();
        slot = Assembled(path, opt);
      } else {
        Add(r.loc,
            fmt::format("program file '{}' is neither assembly (.s) nor an object (.tobj)", path));
      }
    } catch (const Error& e) {
      AddAll(e, Note(r.loc, "in the program of this region"));
    }
    return slot ? &*slot : nullptr;
  }

  // A file assembled; its warnings are kept for the image (each text once).
  assembler::Object Assembled(const std::string& path, const assembler::AssembleOptions& opt) {
    assembler::AssembleResult r = assembler::Assemble(path, opt);
    for (const assembler::Diagnostic& w : r.warnings) {
      if (seen_warnings_.insert(w.Format()).second) warnings_.push_back(w.Format());
    }
    return std::move(r.object);
  }

  // A file of a region's program assembled with the PE's parameters as assembly-time
  // constants (-D), so that a parameter works in any expression, `.if`, `.rept` and `.space`
  // (per-region assembly, docs/layout.md): once per file and distinct values of the parameters
  // it declares. An object file, or a file that declares none of them, is the one read above.
  const assembler::Object* FileWith(const Region& r, const std::string& path,
                                    const std::map<std::string, int64_t>& params) {
    if (EndsWith(path, ".tobj")) return File(r, path);
    std::map<std::string, int64_t> defines;
    for (const auto& [name, dflt] : DeclaredParams(r, path)) {
      auto v = params.find(name);
      if (v != params.end()) {
        defines[name] = v->second;
      } else if (dflt) {
        defines[name] = *dflt;  // a number the region does not override: a constant too
      }
    }
    if (defines.empty()) return File(r, path);
    std::string key = path + '\n';
    for (const auto& [name, value] : defines) key += fmt::format("{}={}\n", name, value);
    auto found = files_.find(key);
    if (found != files_.end()) return found->second ? &*found->second : nullptr;
    std::optional<assembler::Object>& slot = files_[key];
    try {
      assembler::AssembleOptions opt;
      opt.include_dirs = layout_.include_dirs();
      opt.defines = defines;
      slot = Assembled(path, opt);
    } catch (const Error& e) {
      AddAll(e, Note(r.loc, fmt::format("in the program of this region, assembled with {}",
                                        ParamsText(defines))));
    }
    return slot ? &*slot : nullptr;
  }

  // The names a program file declares with `.param`, and a default that is a plain number: an
  // object's list, or for assembly source the `.param` lines of the file itself (before
  // assembling it: a file that uses a parameter as a constant cannot be assembled without its
  // value).
  using Declared = std::vector<std::pair<std::string, std::optional<int64_t>>>;
  Declared DeclaredParams(const Region& r, const std::string& path) {
    Declared names;
    if (EndsWith(path, ".tobj")) {
      if (const assembler::Object* o = File(r, path))
        for (const assembler::ObjParam& p : o->params) names.emplace_back(p.name, std::nullopt);
      return names;
    }
    auto found = declared_.find(path);
    if (found != declared_.end()) return found->second;
    static const std::regex re(
        R"(^\s*(?:[A-Za-z_.$][A-Za-z0-9_.$]*:\s*)?\.param\s+([A-Za-z_.$][A-Za-z0-9_.$]*)(?:\s*=\s*(-?(?:0x[0-9a-f]+|[0-9]+))\s*(?:;.*)?$)?)",
        std::regex::icase);
    std::ifstream in(path);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      if (!std::regex_search(line, m, re)) continue;
      std::optional<int64_t> dflt;
      // Decimal or 0x hex, as the assembler reads it (a leading 0 is not octal). A default too
      // large for 64 bits is not a plain number here: the assembler reports it.
      if (m[2].matched) {
        const std::string v = m[2].str();
        const bool neg = v[0] == '-';
        const bool hex = v.size() > size_t(neg) + 1 && (v[neg] == '0') &&
                         (v[neg + 1] == 'x' || v[neg + 1] == 'X');
        try {
          dflt = std::stoll(v, nullptr, hex ? 16 : 10);
        } catch (const std::out_of_range&) {
        }
      }
      names.emplace_back(m[1], dflt);
    }
    declared_[path] = names;
    return names;
  }

  // The objects of a region's program for one PE's parameters, in the order given; nullopt if
  // one is bad.
  std::optional<std::vector<assembler::Object>> Objects(
      const Region& r, const std::map<std::string, int64_t>& params) {
    std::vector<assembler::Object> objs;
    bool ok = true;
    for (const std::string& path : r.program) {
      const assembler::Object* o = FileWith(r, path, params);
      if (o) objs.push_back(*o);
      ok = ok && o;
    }
    if (!ok) return std::nullopt;
    return objs;
  }

  int ProgramFor(int x, int y, const PeState& st, Image* image) {
    const Region& r = layout_.regions()[st.region];
    std::string key;
    for (const std::string& p : r.program) key += p + '\n';
    for (const auto& [name, value] : st.params) key += fmt::format("{}={}\n", name, value);
    auto found = programs_.find(key);
    if (found != programs_.end()) return found->second;
    int& slot = programs_[key];
    slot = -1;
    const std::optional<std::vector<assembler::Object>> objs = Objects(r, st.params);
    if (!objs) return -1;
    // Parameters the files declare became assembly-time constants (FileWith); the linker gets
    // the rest (object files), and a value no file declares is an error, as LinkSingle says.
    std::map<std::string, int64_t> link_params;
    for (const auto& [name, value] : st.params) {
      bool declared = false, in_objects = false;
      for (const std::string& path : r.program)
        for (const auto& [p, dflt] : DeclaredParams(r, path)) declared = declared || p == name;
      for (const assembler::Object& o : *objs)
        for (const assembler::ObjParam& p : o.params) in_objects = in_objects || p.name == name;
      if (in_objects || !declared) link_params[name] = value;
    }
    try {
      ImageProgram ip;
      ip.program = assembler::LinkSingle(*objs, link_params);
      ip.sources = r.program;
      ip.params = st.params;
      image->programs.push_back(std::move(ip));
      slot = static_cast<int>(image->programs.size()) - 1;
    } catch (const Error& e) {
      AddAll(e,
             Note(r.loc, fmt::format("linking this region's program for PE({},{}) with {}", x, y,
                                     ParamsText(st.params))),
             r.loc);
    }
    return slot;
  }

  const Layout& layout_;
  const int fw_, fh_;
  std::vector<PeState> pes_;
  // By path (assembled without parameters), and by path and parameter values (FileWith).
  std::map<std::string, std::optional<assembler::Object>> files_;
  std::vector<std::string> warnings_;  // assembly warnings, in the order found
  std::set<std::string> seen_warnings_;
  std::map<std::string, Declared> declared_;  // DeclaredParams of a source file
  std::map<std::string, int> programs_;
  std::set<std::pair<int, int>> overlaps_;  // regions already reported as overlapping
  Diagnostics diags_;
};

}  // namespace

Image Link(const Layout& layout) { return Linker(layout).Run(); }

}  // namespace tessera::layout
