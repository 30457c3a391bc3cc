// tessera.Layout: a layout (docs/layout.md) built statement by statement from Python. It writes
// the layout's text form and links it with the layout linker, so a layout built here means exactly
// what the same file means; `text` shows it. Values are checked as they are added, so no argument
// can change the statement around it: a name is an identifier, an expression holds only the
// expression characters, a path no quote, comma or newline.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layout/image.h"

namespace tessera::python {

class LayoutBuilder {
 public:
  LayoutBuilder(const std::string& width, const std::string& height, std::string base_dir);

  void Let(const std::string& name, const std::string& expr);
  void Include(const std::string& path);
  // `programs`: paths of .s or .tobj files; `params`: (name, expression) pairs.
  void Region(const std::string& x, const std::string& y, const std::string& w,
              const std::string& h, const std::vector<std::string>& programs,
              const std::vector<std::pair<std::string, std::string>>& params,
              const std::string& when);
  // `x`, `y`: an expression or a range "LO..HI"; `rx`, `tx`: directions; `pos`: up to three
  // "tx:E"-style positions.
  void Route(const std::string& color, const std::string& x, const std::string& y,
             const std::vector<std::string>& rx, const std::vector<std::string>& tx,
             const std::vector<std::string>& pos, bool ring, const std::string& when);

  const std::string& Text() const { return text_; }
  const std::string& base_dir() const { return base_dir_; }
  // Links the layout; throws assembler::Error naming "<tessera.Layout>:LINE".
  layout::Image Link() const;

  // Checks, throwing std::invalid_argument naming `arg`.
  static std::string Name(const std::string& s, const std::string& arg);
  static std::string Expr(const std::string& s, const std::string& arg);
  static std::string Path(const std::string& s, const std::string& arg);

 private:
  std::string base_dir_;
  std::string text_;
};

}  // namespace tessera::python
