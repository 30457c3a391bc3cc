// `tessera link`: links a layout (docs/layout.md) and its programs into a program image.
// Exit status: 0 on success; 2 on bad input, with one `file:line:column: error: message` line
// per problem.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "asm/diagnostics.h"
#include "commands.h"
#include "layout/image.h"
#include "layout/layout.h"
#include "layout/route_check.h"
#include "util/json.h"

namespace tessera::cli {
namespace {

struct LinkOptions {
  std::string input;
  std::string output;
  bool json = false;
};

void RunLink(const LinkOptions& o) {
  try {
    const layout::Image img = layout::Link(layout::ParseLayoutFile(o.input));
    layout::WriteImageFile(o.output, img);
    size_t programs = 0, routes = 0;
    for (const layout::ImagePe& pe : img.pes) {
      programs += pe.program >= 0;
      routes += pe.routes.size();
    }
    // Routes that do not connect: warnings, since firmware may write routes at run time.
    const std::vector<std::string> unconnected = layout::UnconnectedRoutes(img);
    for (const std::string& w : unconnected) fmt::print(stderr, "{}: warning: {}\n", o.input, w);
    for (const std::string& w : img.warnings) fmt::print(stderr, "{}\n", w);
    fmt::print("{}: fabric {}x{}, {} PEs with a program ({} distinct links), {} routes\n", o.output,
               img.fabric_w, img.fabric_h, programs, img.programs.size(), routes);
    if (o.json) {
      util::JsonObject j;
      j.Add("image", o.output)
          .Add("fabric_w", img.fabric_w)
          .Add("fabric_h", img.fabric_h)
          .Add("pes_with_program", programs)
          .Add("programs", img.programs.size())
          .Add("routes", routes)
          .Add("unconnected_routes", unconnected.size())
          .Add("assembly_warnings", img.warnings.size());
      fmt::print("{}\n", j.str());
    }
  } catch (const assembler::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    throw CLI::RuntimeError(2);
  }
}

}  // namespace

void AddLinkCommand(CLI::App& app) {
  auto opt = std::make_shared<LinkOptions>();
  CLI::App* cmd = app.add_subcommand("link", "Link a layout and its programs into a program image");
  cmd->add_option("-o", opt->output, "Image file to write (.timg)")->required();
  cmd->add_flag("--json", opt->json, "Print a JSON summary as the last line");
  cmd->add_option("layout", opt->input, "Layout file (.tlayout)")->required();
  cmd->callback([opt] { RunLink(*opt); });
}

}  // namespace tessera::cli
