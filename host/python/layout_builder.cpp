#include "python/layout_builder.h"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

#include "layout/layout.h"

namespace tessera::python {

std::string LayoutBuilder::Name(const std::string& s, const std::string& arg) {
  static const std::regex re(R"(^[A-Za-z_][A-Za-z0-9_]*$)");
  if (!std::regex_match(s, re))
    throw std::invalid_argument(
        fmt::format("{} '{}': expected a name (letters, digits, _)", arg, s));
  return s;
}

std::string LayoutBuilder::Expr(const std::string& s, const std::string& arg) {
  // The expression characters of docs/layout.md; '=' only inside ==, !=, <= and >=.
  static const std::regex chars(R"(^[A-Za-z0-9_ +\-*/%<>=!&|^~?:(),]+$)");
  static const std::regex lone_eq(R"((^|[^=!<>])=($|[^=]))");
  if (s.empty() || !std::regex_match(s, chars) || std::regex_search(s, lone_eq))
    throw std::invalid_argument(
        fmt::format("{} '{}': expected an integer or a layout expression (docs/layout.md, "
                    "\"Expressions\")",
                    arg, s));
  return s;
}

std::string LayoutBuilder::Path(const std::string& s, const std::string& arg) {
  if (s.empty() || s.find_first_of("\",#\n\r\\") != std::string::npos)
    throw std::invalid_argument(fmt::format(
        "{} '{}': a path here may not be empty or hold a quote, comma, '#' or backslash", arg, s));
  return s.find(' ') != std::string::npos ? "\"" + s + "\"" : s;
}

LayoutBuilder::LayoutBuilder(const std::string& width, const std::string& height,
                             std::string base_dir)
    : base_dir_(std::move(base_dir)) {
  text_ = fmt::format("fabric {},{}\n", Expr(width, "width"), Expr(height, "height"));
}

void LayoutBuilder::Let(const std::string& name, const std::string& expr) {
  text_ += fmt::format("let {} = {}\n", Name(name, "let name"), Expr(expr, "let " + name));
}

void LayoutBuilder::Include(const std::string& path) {
  text_ += fmt::format("include {}\n", Path(path, "include"));
}

void LayoutBuilder::Region(const std::string& x, const std::string& y, const std::string& w,
                           const std::string& h, const std::vector<std::string>& programs,
                           const std::vector<std::pair<std::string, std::string>>& params,
                           const std::string& when) {
  if (programs.empty()) throw std::invalid_argument("region program: name at least one file");
  std::string files;
  for (const std::string& p : programs) files += (files.empty() ? "" : ",") + Path(p, "program");
  std::string line =
      fmt::format("region at={},{} size={},{} program={}", Expr(x, "region x"), Expr(y, "region y"),
                  Expr(w, "region w"), Expr(h, "region h"), files);
  for (const auto& [name, value] : params)
    line += fmt::format(" param {}={}", Name(name, "param"), Expr(value, "param " + name));
  if (!when.empty()) line += " when=" + Expr(when, "region when");
  text_ += line + "\n";
}

void LayoutBuilder::Route(const std::string& color, const std::string& x, const std::string& y,
                          const std::vector<std::string>& rx, const std::vector<std::string>& tx,
                          const std::vector<std::string>& pos, bool ring, const std::string& when) {
  auto range = [](const std::string& s, const std::string& arg) {
    const size_t dots = s.find("..");
    if (dots == std::string::npos) return Expr(s, arg);
    return Expr(s.substr(0, dots), arg) + ".." + Expr(s.substr(dots + 2), arg);
  };
  auto dirs = [](const std::vector<std::string>& v, const std::string& arg) {
    static const std::regex re(R"(^(W|E|S|N|RAMP)$)", std::regex::icase);
    if (v.empty())
      throw std::invalid_argument(fmt::format("route {}: name at least one direction", arg));
    std::string out;
    for (const std::string& d : v) {
      if (!std::regex_match(d, re))
        throw std::invalid_argument(
            fmt::format("route {} '{}': expected W, E, S, N or RAMP", arg, d));
      out += (out.empty() ? "" : ",") + d;
    }
    return out;
  };
  if (pos.size() > 3)
    throw std::invalid_argument(
        fmt::format("route pos: at most three switch positions, got {}", pos.size()));
  std::string line =
      fmt::format("route color={} at={},{} rx={} tx={}", Expr(color, "route color"),
                  range(x, "route x"), range(y, "route y"), dirs(rx, "rx"), dirs(tx, "tx"));
  static const std::regex pos_re(R"(^[A-Za-z]+(:[A-Za-z]+)?$)");
  for (size_t i = 0; i < pos.size(); ++i) {
    if (!std::regex_match(pos[i], pos_re))
      throw std::invalid_argument(fmt::format(
          "route pos[{}] '{}': expected tx:DIR, rx:DIR, tx:none, rx:none or base", i, pos[i]));
    line += fmt::format(" pos{}={}", i + 1, pos[i]);
  }
  if (ring) line += " ring";
  if (!when.empty()) line += " when=" + Expr(when, "route when");
  text_ += line + "\n";
}

layout::Image LayoutBuilder::Link() const {
  return layout::Link(layout::ParseLayoutText("<tessera.Layout>", text_, base_dir_));
}

}  // namespace tessera::python
