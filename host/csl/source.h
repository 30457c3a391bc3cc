// CSL source files and the errors users see. Every node of a program keeps a Loc (a file and a
// byte offset); an error is printed as compilers users know print them:
//
//   gemv/pe_program.csl:12:9: error: no variable 'x' here
//     y[i] = x + 1;
//            ^
//
// Everything user-facing is thrown as csl::Error with that text; `cslc` prints it and exits 1.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::csl {

struct Loc {
  int file = -1;        // index into Sources; -1: no place (command line, the compiler itself)
  uint32_t offset = 0;  // byte offset into the file's text
};

struct SourceFile {
  std::string path;  // as the user or the importing file named it
  std::string text;
  std::vector<uint32_t> line_starts;  // byte offset of each line's first byte

  SourceFile(std::string path, std::string text);
  int Line(uint32_t offset) const;    // 1-based
  int Column(uint32_t offset) const;  // 1-based, in bytes
  std::string LineText(int line) const;
};

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// All files of one compilation. Files are never removed, so a Loc stays valid.
class Sources {
 public:
  int Add(std::string path, std::string text);
  // Reads a file; throws Error naming `from` (the import or the command line) if it cannot.
  int Load(const std::string& path, Loc from);
  const SourceFile& file(int i) const { return *files_[static_cast<size_t>(i)]; }
  size_t size() const { return files_.size(); }

  // "file:line:col: KIND: message" with the source line and a caret under the column.
  std::string Format(Loc at, const std::string& kind, const std::string& message) const;
  [[noreturn]] void Fail(Loc at, const std::string& message) const;

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace tessera::csl
