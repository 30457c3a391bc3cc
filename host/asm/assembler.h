// The assembler (docs/isa.md 8): two passes over the preprocessed source (asm/source.h). The
// first defines labels and sizes every statement; the second encodes instructions and data
// against the complete symbol table. Instructions are matched and encoded through the generated
// table (arch::kInsns, kInsnAliases, kInsnPseudos): the only instruction-specific code is the
// value-dependent choice of `li` (isa.md 4.12) and the completion clause of DSD operations.
//
// A value the linker must supply becomes a relocation: a label's address, a param, a symbol of
// another object (which the file declares with .global). Branches to a label of the same section
// and differences of labels of one section are resolved here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "asm/listing.h"
#include "asm/object.h"

namespace tessera::assembler {

struct AssembleOptions {
  std::vector<std::string> include_dirs;  // -I: searched after the including file's directory
  // -D NAME=VALUE: assembly-time constants defined before the first line; a `.param NAME` then
  // takes this value instead of becoming a link-time value.
  std::map<std::string, int64_t> defines;
};

struct AssembleResult {
  Object object;
  std::vector<ListingEntry> listing;  // FormatListing(object.source, listing) prints it
  // Notes that do not stop assembly (Diagnostic::warning), in program order: a two-source DSD
  // operation whose sources, loaded from .dsd records, read one SRAM bank in every step.
  std::vector<Diagnostic> warnings;
};

// Throws Error with every problem found, each as `file:line:column: error: message`.
AssembleResult Assemble(const std::string& path, const AssembleOptions& options = {});
AssembleResult AssembleText(const std::string& name, const std::string& text,
                            const AssembleOptions& options = {});

}  // namespace tessera::assembler
