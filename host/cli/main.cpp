// `tessera`: the single command-line entry point; see `tessera --help`.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Tessera: an RTL-accurate emulator of a wafer-scale dataflow fabric"};
  app.require_subcommand(1);
  // --help shows every option's default (subcommands inherit this).
  app.option_defaults()->always_capture_default();
  tessera::cli::AddNocCommand(app);
  tessera::cli::AddFpcheckCommand(app);
  tessera::cli::AddAsmCommand(app);
  tessera::cli::AddDisasmCommand(app);
  tessera::cli::AddLinkCommand(app);
  tessera::cli::AddRunCommand(app);
  tessera::cli::AddKernelCommand(app);
  tessera::cli::AddMlCommand(app);
  tessera::cli::AddFuzzCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version exit 0; a failed check exits 1; bad arguments exit 2, like the tools'
    // own input checks.
    const int code = app.exit(e);
    if (code == 0 || dynamic_cast<const CLI::RuntimeError*>(&e)) return code;
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tessera: error: {}\n", e.what());
    return 2;
  }
  return 0;
}
