// Pass 1, pseudo-instructions (asm/assembler_impl.h): a pseudo of the generated table
// (arch::kInsnPseudos, e.g. `li`, `mov`) whose operands match becomes the instructions of its
// expansion, each a line of text with the operands as written substituted in, which parse.cpp
// parses again as if the user had written it (Instruction at depth 1, so that an expansion does
// not expand again). Errors in an expansion point at the operand as written, or at the mnemonic.
#include <fmt/core.h>

#include "asm/assembler_impl.h"

namespace tessera::assembler::internal {

// The first form of the pseudo `mn` whose operands accept the items, expanded; each instruction of
// the expansion is parsed on a line of its own that keeps the columns of what was written.
void Assembler::Pseudo(const std::string& mn, const std::vector<Token>& toks, size_t i,
                       const std::vector<Item>& items) {
  const Token& w = toks[i];
  const arch::InsnPseudo* chosen = nullptr;
  std::vector<std::string> names;
  std::vector<Bound> bound;
  std::string forms;
  for (const auto& p : arch::kInsnPseudos) {
    if (mn != p.mnemonic) continue;
    forms += (forms.empty() ? "'" : "' or '") + PseudoSyntax(p);
    std::vector<K> kinds;
    std::vector<std::string> n;
    PseudoOperands(p, &kinds, &n);
    BindFailure f;
    if (auto b = Bind(kinds, items, &f); b && !chosen) {
      chosen = &p;
      names = n;
      bound = *b;
    }
  }
  if (!chosen) {
    throw LineError(w.pos, fmt::format("wrong operands for '{}' (the form is {}')", mn, forms));
  }
  std::vector<std::string> parts = SplitExpansion(chosen->expansion);
  if (mn == "li") parts = ChooseLi(toks, items, &chosen, &names);
  const auto original = line_;
  for (size_t k = 0; k < parts.size(); ++k) {
    line_ = std::make_shared<const SourceLine>(Substitute(parts[k], names, bound, items, w));
    Instruction(Lex(line_->text), 0, 1);
    line_ = original;
  }
}

std::vector<std::string> Assembler::ChooseLi(const std::vector<Token>& toks,
                                             const std::vector<Item>& items,
                                             const arch::InsnPseudo** chosen,
                                             std::vector<std::string>* names) {
  const arch::InsnPseudo* short_form = nullptr;
  const arch::InsnPseudo* long_form = nullptr;
  for (const auto& p : arch::kInsnPseudos) {
    if (std::string(p.mnemonic) != "li") continue;
    const std::string ops = p.operands;
    if (ops.find("simm") != std::string::npos) short_form = &p;
    if (ops.find("imm32") != std::string::npos) long_form = &p;
  }
  // The table's two forms: `li rd, simm` (addi) and `li rd, imm32` (lui; ori).
  const Item& it = items[1];
  std::optional<Value> v;
  try {
    v = Evaluate(toks, it.b, it.e, *this);
  } catch (const NotYetDefined&) {
    // Not known yet: two words, as for a link-time value.
  }
  const arch::InsnPseudo* use = long_form;
  size_t parts = SplitExpansion(long_form->expansion).size();
  if (v && v->wrap != Wrap::kNone) {
    throw LineError(it.pos, "li takes a value; lo() and hi() belong to lui and ori");
  }
  if (v && v->IsConst()) {
    if (v->num < INT32_MIN || v->num > int64_t(UINT32_MAX)) {
      throw LineError(it.pos, fmt::format("li value {} does not fit in 32 bits "
                                          "(-2147483648..4294967295)",
                                          v->num));
    }
    if (v->num >= -32768 && v->num <= 32767) {
      use = short_form;
      parts = SplitExpansion(short_form->expansion).size();
    } else if ((v->num & 0xFFFF) == 0) {
      parts = 1;  // lui alone
    }
  }
  *chosen = use;
  names->clear();
  std::vector<K> kinds;
  PseudoOperands(*use, &kinds, names);
  std::vector<std::string> all = SplitExpansion(use->expansion);
  all.resize(parts);
  return all;
}

SourceLine Assembler::Substitute(const std::string& part, const std::vector<std::string>& names,
                                 const std::vector<Bound>& bound, const std::vector<Item>& items,
                                 const Token& w) {
  SourceLine out;
  out.file = line_->file;
  out.line = line_->line;
  out.expansion = line_->expansion;
  const int mcol = line_->At(w.pos).column;
  auto put = [&](const std::string& text, int col) {
    out.text += text;
    out.columns.insert(out.columns.end(), text.size(), col);
  };
  for (size_t c = 0; c < part.size();) {
    if (IsIdentStart(part[c])) {
      size_t j = c;
      while (j < part.size() && IsIdentChar(part[j])) ++j;
      const std::string name = part.substr(c, j - c);
      size_t k = 0;
      while (k < names.size() && names[k] != name) ++k;
      if (k < names.size() && k < bound.size() && bound[k].count > 0) {
        const Item& first = items[bound[k].item];
        const Item& last = items[bound[k].item + bound[k].count - 1];
        // An expression goes in parentheses, so that the expansion's own operators cannot
        // regroup it; the parentheses take the expression's column.
        const bool wrap = first.shape == Shape::kExpr;
        if (wrap) put("(", line_->At(first.pos).column);
        for (size_t p = first.pos; p < last.end; ++p) {
          out.text += line_->text[p];
          out.columns.push_back(line_->At(p).column);
        }
        if (wrap) put(")", line_->At(first.pos).column);
      } else {
        put(name, mcol);
      }
      c = j;
      continue;
    }
    put(std::string(1, part[c]), mcol);
    ++c;
  }
  out.columns.push_back(mcol);  // the column of the end of the line
  return out;
}

}  // namespace tessera::assembler::internal
