#include "csl/source.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace tessera::csl {

SourceFile::SourceFile(std::string p, std::string t) : path(std::move(p)), text(std::move(t)) {
  line_starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts.push_back(static_cast<uint32_t>(i + 1));
}

int SourceFile::Line(uint32_t offset) const {
  const auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  return static_cast<int>(it - line_starts.begin());
}

int SourceFile::Column(uint32_t offset) const {
  return static_cast<int>(offset - line_starts[static_cast<size_t>(Line(offset) - 1)]) + 1;
}

std::string SourceFile::LineText(int line) const {
  if (line < 1 || static_cast<size_t>(line) > line_starts.size()) return "";
  const size_t b = line_starts[static_cast<size_t>(line - 1)];
  size_t e = text.find('\n', b);
  if (e == std::string::npos) e = text.size();
  if (e > b && text[e - 1] == '\r') --e;
  return text.substr(b, e - b);
}

int Sources::Add(std::string path, std::string text) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return static_cast<int>(files_.size() - 1);
}

int Sources::Load(const std::string& path, Loc from) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(from, fmt::format("cannot read '{}'", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return Add(path, ss.str());
}

std::string Sources::Format(Loc at, const std::string& kind, const std::string& message) const {
  if (at.file < 0 || static_cast<size_t>(at.file) >= files_.size())
    return fmt::format("cslc: {}: {}", kind, message);
  const SourceFile& f = file(at.file);
  const uint32_t off = std::min<uint32_t>(at.offset, static_cast<uint32_t>(f.text.size()));
  const int line = f.Line(off);
  const int col = f.Column(off);
  const std::string text = f.LineText(line);
  // The caret lines up under tabs as the terminal shows them: copy the tabs.
  std::string pad;
  for (int i = 0; i + 1 < col && static_cast<size_t>(i) < text.size(); ++i)
    pad += text[static_cast<size_t>(i)] == '\t' ? '\t' : ' ';
  return fmt::format("{}:{}:{}: {}: {}\n  {}\n  {}^", f.path, line, col, kind, message, text, pad);
}

void Sources::Fail(Loc at, const std::string& message) const {
  throw Error(Format(at, "error", message));
}

}  // namespace tessera::csl
