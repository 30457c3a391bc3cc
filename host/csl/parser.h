// The CSL parser: a file's tokens to a tree (csl/ast.h). Recursive descent over the grammar of
// the SDK's documentation (Zig's, with CSL's `task`, `param`, `layout` and tensor accesses);
// operator precedence is Zig's (docs/csl.md, "Language"). Errors are thrown as csl::Error at
// the token that does not fit, saying what was expected.
#pragma once

#include "csl/ast.h"
#include "csl/source.h"

namespace tessera::csl {

NodePtr ParseFile(const Sources& sources, int file);

}  // namespace tessera::csl
