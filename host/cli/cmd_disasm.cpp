// `tessera disasm`: prints an object file (or raw little-endian words) as canonical assembly
// (docs/isa.md 8.4); assembling that text gives the same object again. Exit status: 0, or 2 on
// bad input.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "asm/diagnostics.h"
#include "asm/disasm.h"
#include "asm/lexer.h"
#include "asm/object.h"
#include "commands.h"

namespace tessera::cli {
namespace {

struct DisasmOptions {
  bool raw = false;
  std::string base = "0";
  std::string input;
};

uint32_t ParseBase(const std::string& text) {
  std::vector<assembler::Token> toks;
  try {
    toks = assembler::Lex(text);
  } catch (const assembler::LineError&) {
  }
  if (toks.size() != 1 || toks[0].kind != assembler::TokKind::kInt || toks[0].value < 0 ||
      toks[0].value >= arch::kSramBytes || toks[0].value % 4 != 0) {
    throw std::invalid_argument(fmt::format(
        "--base {}: expected a word-aligned SRAM address 0..0x{:X}", text, arch::kSramBytes - 4));
  }
  return static_cast<uint32_t>(toks[0].value);
}

void RunDisasm(const DisasmOptions& o) {
  try {
    if (o.raw) {
      const uint32_t base = ParseBase(o.base);
      std::ifstream in(o.input, std::ios::binary);
      if (!in) {
        throw assembler::Error(assembler::Location{o.input, 0, 0},
                               fmt::format("cannot read file: {}", std::strerror(errno)));
      }
      const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                       std::istreambuf_iterator<char>()};
      fmt::print("{}", assembler::DisassembleRaw(bytes, base));
    } else {
      fmt::print("{}", assembler::DisassembleObject(assembler::ReadObjectFile(o.input)));
    }
  } catch (const assembler::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    throw CLI::RuntimeError(2);
  }
}

}  // namespace

void AddDisasmCommand(CLI::App& app) {
  auto opt = std::make_shared<DisasmOptions>();
  CLI::App* cmd = app.add_subcommand("disasm", "Print an object (or raw words) as assembly");
  cmd->add_flag("--raw", opt->raw, "The input is raw little-endian words, not an object");
  cmd->add_option("--base", opt->base, "With --raw: the address of the first word")
      ->capture_default_str();
  cmd->add_option("input", opt->input, "Object file (.tobj), or a binary file with --raw")
      ->required();
  cmd->callback([opt] { RunDisasm(*opt); });
}

}  // namespace tessera::cli
