// The SDK's library modules, written in C++ (docs/csl.md, "Libraries"): `<memcpy/get_params>`
// (layout side), `<memcpy/memcpy>` (PE side: unblock_cmd_stream, the stream colors,
// get_streaming_fabout_dsd), `<layout>` (get_x_coord, get_y_coord) and `<simprint>`
// (print_string and integers, through the debug port's character records).
#pragma once

#include <string>
#include <vector>

#include "csl/sema.h"

namespace tessera::csl {

bool IsLibrary(const std::string& path);  // "<memcpy/memcpy>", ...: the native libraries
// The folder of the libraries written in CSL (host/csl/lib; TESSERA_CSL_LIB overrides it), and
// every library's name for messages.
std::string LibraryDir();
std::string LibraryNames();
// The member `name` of library module m (a value, or a function to call through LibCall).
Value LibMember(Sema& s, ModuleInst* m, const std::string& name, const Node* at);
RV LibCall(Sema& s, ModuleInst* m, const std::string& name, const Node* call,
           const std::vector<const Node*>& args);
// Assembly of the runtime routines a program uses (division, printing), appended to its text.
std::string RuntimeRoutines(const Program& p);

}  // namespace tessera::csl
