// `tessera asm`: assembles one source file into a text object (docs/isa.md 8.4,
// docs/assembler.md), optionally with a listing. Exit status: 0 on success; 2 on bad input,
// with one `file:line:column: error: message` line per problem.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/lexer.h"
#include "asm/listing.h"
#include "asm/object.h"
#include "commands.h"

namespace tessera::cli {
namespace {

struct AsmOptions {
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;
  std::string output;
  std::string listing;
  std::string input;
};

// NAME=VALUE, VALUE an integer literal (decimal, 0x, 0b, optionally negative).
std::pair<std::string, int64_t> ParseDefine(const std::string& text) {
  const size_t eq = text.find('=');
  const auto bad = [&] {
    return std::invalid_argument(
        fmt::format("-D {}: expected NAME=VALUE with an integer VALUE (e.g. -D RX=3)", text));
  };
  if (eq == std::string::npos || eq == 0) throw bad();
  std::vector<assembler::Token> toks;
  try {
    toks = assembler::Lex(text.substr(eq + 1));
  } catch (const assembler::LineError&) {
    throw bad();
  }
  const bool negative = !toks.empty() && toks[0].Is("-");
  const size_t k = negative ? 1 : 0;
  if (toks.size() != k + 1 || toks[k].kind != assembler::TokKind::kInt) throw bad();
  return {text.substr(0, eq), negative ? -toks[k].value : toks[k].value};
}

void RunAsm(const AsmOptions& o) {
  assembler::AssembleOptions opt;
  opt.include_dirs = o.include_dirs;
  for (const std::string& d : o.defines) {
    const auto [name, value] = ParseDefine(d);
    opt.defines[name] = value;
  }
  try {
    const assembler::AssembleResult r = assembler::Assemble(o.input, opt);
    for (const assembler::Diagnostic& w : r.warnings) fmt::print(stderr, "{}\n", w.Format());
    assembler::WriteObjectFile(o.output, r.object);
    if (!o.listing.empty()) {
      std::ofstream out(o.listing);
      out << assembler::FormatListing(r.object.source, r.listing);
      if (!out) throw std::runtime_error(fmt::format("cannot write listing {}", o.listing));
    }
  } catch (const assembler::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    throw CLI::RuntimeError(2);
  }
}

}  // namespace

void AddAsmCommand(CLI::App& app) {
  auto opt = std::make_shared<AsmOptions>();
  CLI::App* cmd = app.add_subcommand("asm", "Assemble a compute-engine source file into an object");
  cmd->add_option("-I", opt->include_dirs, "Directory searched by .include (after the file's own)");
  cmd->add_option("-D", opt->defines,
                  "NAME=VALUE: an assembly-time constant; a .param NAME takes this value");
  cmd->add_option("-o", opt->output, "Object file to write (.tobj)")->required();
  cmd->add_option("-l", opt->listing, "Listing file to write");
  cmd->add_option("input", opt->input, "Source file (.s)")->required();
  cmd->callback([opt] { RunAsm(*opt); });
}

}  // namespace tessera::cli
