// `cslc`: the CSL compiler's command line, with the SDK's flags (docs/csl.md, "cslc"). Both
// spellings of each option work (`--fabric-dims=8,3` and `--fabric-dims 8,3`); an option cslc
// does not know is refused. Errors print as `file:line:col: error: ...` and exit 1.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "csl/compiler.h"

namespace {

// "a,b" -> two integers; throws CLI::ValidationError naming the option.
std::pair<int, int> Pair(const std::string& opt, const std::string& v) {
  const size_t comma = v.find(',');
  try {
    if (comma == std::string::npos) throw std::invalid_argument("");
    size_t e1 = 0, e2 = 0;
    const int a = std::stoi(v.substr(0, comma), &e1);
    const int b = std::stoi(v.substr(comma + 1), &e2);
    if (e1 != comma || e2 != v.size() - comma - 1 || a < 1 || b < 0)
      throw std::invalid_argument("");
    return {a, b};
  } catch (const std::exception&) {
    throw CLI::ValidationError(opt, fmt::format("expected two numbers X,Y, found '{}'", v));
  }
}

// "--params=a:1,b:2" (repeatable) -> pairs.
void NameValues(const std::string& opt, const std::vector<std::string>& in,
                std::vector<std::pair<std::string, std::string>>& out) {
  for (const std::string& item : in) {
    size_t start = 0;
    while (start <= item.size()) {
      size_t end = item.find(',', start);
      if (end == std::string::npos) end = item.size();
      const std::string nv = item.substr(start, end - start);
      const size_t colon = nv.find(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == nv.size())
        throw CLI::ValidationError(opt, fmt::format("expected NAME:VALUE, found '{}'", nv));
      out.emplace_back(nv.substr(0, colon), nv.substr(colon + 1));
      start = end + 1;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "cslc: compiles a CSL program (its layout file) for Tessera; writes the image, the "
      "generated assembly and out.json to the output folder"};
  tessera::csl::Options o;
  std::string arch = "wse2", dims, offsets;
  std::vector<std::string> params, colors;
  int max_inlined = 0;
  std::string fp16 = "ieee";
  app.add_option("file", o.layout_file, "the top-level file (with the layout block)")->required();
  app.add_option("--arch", arch,
                 "wse2 (or wse3: parsed, @is_arch answers; the machine is Tessera's)")
      ->check(CLI::IsMember({"wse2", "wse3"}));
  app.add_option("--fabric-dims", dims, "the fabric's size W,H (default: the smallest that fits)");
  app.add_option("--fabric-offsets", offsets,
                 "the program rectangle's north-west PE X,Y (default 4,1)");
  app.add_option("--params", params,
                 "NAME:VALUE[,NAME:VALUE...]: params of the top-level file (repeatable)");
  app.add_option("--colors", colors, "NAME:VALUE[,...]: color params of the top-level file");
  app.add_option("-o,--output", o.out_dir, "the output folder (default out)");
  app.add_flag("--memcpy", o.memcpy, "the program uses the memcpy framework");
  app.add_option("--channels", o.channels,
                 "memcpy I/O channels (1..16; Tessera's host has one path)")
      ->check(CLI::Range(1, 16));
  app.add_option("--width-west-buf", o.west_buf, "buffer columns west of the program (memcpy)")
      ->check(CLI::Range(0, 64));
  app.add_option("--width-east-buf", o.east_buf, "buffer columns east of the program (memcpy)")
      ->check(CLI::Range(0, 64));
  app.add_option("--import-path", o.import_paths, "a folder searched by @import_module");
  app.add_option("--max-inlined-iterations", max_inlined,
                 "accepted for the SDK's commands (no limit here)");
  app.add_option("--fp16-format", fp16, "ieee (the only half format here)")
      ->check(CLI::IsMember({"ieee"}));
  app.add_flag("--verbose", o.verbose, "say what was written");
  try {
    app.parse(argc, argv);
    o.arch = arch;
    // The SDK's commands also write `-o=out`: the short option with '='.
    if (!o.out_dir.empty() && o.out_dir[0] == '=') o.out_dir.erase(0, 1);
    if (!dims.empty()) std::tie(o.fabric_w, o.fabric_h) = Pair("--fabric-dims", dims);
    if (!offsets.empty()) {
      std::tie(o.offset_x, o.offset_y) = Pair("--fabric-offsets", offsets);
      o.offsets_given = true;
    }
    NameValues("--params", params, o.params);
    NameValues("--colors", colors, o.colors);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  try {
    tessera::csl::Compiler c(o);
    c.Run();
    if (o.verbose)
      fmt::print("cslc: wrote {}/out.timg, {}/out.json and the assembly\n", o.out_dir, o.out_dir);
  } catch (const tessera::csl::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "cslc: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
