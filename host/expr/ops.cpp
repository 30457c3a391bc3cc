// Looking operators up by spelling (expr/ops.h).
#include "expr/ops.h"

namespace tessera::expr {
namespace {

template <size_t N>
const OpInfo* Find(const OpInfo (&table)[N], std::string_view text) {
  for (const OpInfo& o : table) {
    if (text == o.text) return &o;
  }
  return nullptr;
}

}  // namespace

const OpInfo* FindBinary(std::string_view text) { return Find(kBinaryOps, text); }

const OpInfo* FindUnary(std::string_view text) { return Find(kUnaryOps, text); }

const char* Spelling(Op op) {
  for (const OpInfo& o : kBinaryOps) {
    if (o.op == op) return o.text;
  }
  for (const OpInfo& o : kUnaryOps) {
    if (o.op == op) return o.text;
  }
  return "?";
}

size_t PunctLength(std::string_view text, size_t i) {
  size_t best = 0;
  auto consider = [&](std::string_view spelling) {
    if (spelling.size() > best && text.substr(i, spelling.size()) == spelling) {
      best = spelling.size();
    }
  };
  for (const OpInfo& o : kBinaryOps) consider(o.text);
  for (const OpInfo& o : kUnaryOps) consider(o.text);
  for (const char* p : kPunctuation) consider(p);
  return best;
}

}  // namespace tessera::expr
