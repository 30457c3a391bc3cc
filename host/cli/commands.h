// Subcommands of the `tessera` program. Each lives in its own cmd_*.cpp and registers itself on
// the top-level CLI11 app. A subcommand that reports results takes `--json` and then prints one
// JSON object (util::JsonObject) as its last line.
#pragma once

#include <CLI/CLI.hpp>

namespace tessera::cli {

void AddNocCommand(CLI::App& app);      // random-traffic runs on the router fabric
void AddFpcheckCommand(CLI::App& app);  // TestFloat vectors through an FMAC backend
void AddAsmCommand(CLI::App& app);      // assemble a compute-engine source file
void AddDisasmCommand(CLI::App& app);   // print an object or raw words as assembly
void AddLinkCommand(CLI::App& app);     // link a layout and its programs into an image
void AddFuzzCommand(CLI::App& app);
void AddKernelCommand(CLI::App& app);  // a kernel of the library, checked against the host
void AddMlCommand(CLI::App& app);      // ML layers: an MLP checked, digits training
void AddRunCommand(CLI::App& app);  // run a program image through the host runtime     // random CE
                                    // programs, functional model vs RTL in lockstep

}  // namespace tessera::cli
