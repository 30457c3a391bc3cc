#include "asm/diagnostics.h"

#include <fmt/core.h>

#include <algorithm>

namespace tessera::assembler {
namespace {

std::string JoinAll(const std::vector<Diagnostic>& diags) {
  std::string text;
  for (const Diagnostic& d : diags) {
    if (!text.empty()) text += '\n';
    text += d.Format();
  }
  return text;
}

}  // namespace

std::string Location::ToString() const {
  if (file.empty()) return "";
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

std::string Diagnostic::Format() const {
  const std::string where = loc.ToString();
  const std::string kind = warning ? "warning: " : "error: ";
  std::string text = where.empty() ? kind + message : where + ": " + kind + message;
  for (const std::string& n : notes) text += "\n" + n;
  return text;
}

Error::Error(std::vector<Diagnostic> diags) : std::runtime_error(JoinAll(diags)), diags_(diags) {}

Error::Error(const Location& loc, const std::string& message)
    : Error(std::vector<Diagnostic>{Diagnostic{loc, message, {}}}) {}

void Diagnostics::Add(Diagnostic d) {
  d.order = order_;
  diags_.push_back(std::move(d));
  if (diags_.size() >= kLimit) {
    diags_.push_back(Diagnostic{{}, fmt::format("too many errors ({}); stopping", kLimit), {}});
    throw Error(diags_);
  }
}

void Diagnostics::Add(const Location& loc, const std::string& message) {
  Add(Diagnostic{loc, message, {}});
}

void Diagnostics::ThrowIfAny() const {
  if (diags_.empty()) return;
  std::vector<Diagnostic> sorted = diags_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.order < b.order; });
  throw Error(sorted);
}

}  // namespace tessera::assembler
