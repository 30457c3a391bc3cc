#include "asm/source.h"

#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "arch/isa_table.h"
#include "asm/lexer.h"

namespace tessera::assembler {
namespace {

bool ReadWholeFile(const std::string& path, std::string& text, std::string& why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

std::string DirName(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool IsParamStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsParamChar(char c) { return IsParamStart(c) || (c >= '0' && c <= '9'); }

// Pieces of text[begin, end) separated by top-level commas (not inside parentheses or quotes),
// as [begin, end) offsets with the blanks around each piece removed.
std::vector<std::pair<size_t, size_t>> SplitArgs(const std::string& text, size_t begin,
                                                 size_t end) {
  std::vector<std::pair<size_t, size_t>> pieces;
  auto trim_push = [&](size_t b, size_t e) {
    while (b < e && (text[b] == ' ' || text[b] == '\t')) ++b;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r')) --e;
    pieces.emplace_back(b, e);
  };
  int depth = 0;
  QuoteTracker quotes;
  size_t start = begin;
  for (size_t i = begin; i < end; ++i) {
    const char c = text[i];
    if (quotes.Quoted(text, i)) continue;
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      trim_push(start, i);
      start = i + 1;
    }
  }
  trim_push(start, end);
  if (pieces.size() == 1 && pieces[0].first == pieces[0].second) pieces.clear();
  return pieces;
}

bool IsInstructionName(const std::string& lower) {
  for (const auto& n : arch::kInsns) {
    if (lower == n.mnemonic) return true;
  }
  for (const auto& a : arch::kInsnAliases) {
    if (lower == a.name) return true;
  }
  for (const auto& p : arch::kInsnPseudos) {
    if (lower == p.mnemonic) return true;
  }
  return false;
}

}  // namespace

// ---- SourceLine ----

SourceLine SourceLine::Plain(const std::string& file, int line, const std::string& text) {
  SourceLine s;
  s.text = text;
  s.file = file;
  s.line = line;
  s.columns.resize(text.size() + 1);
  for (size_t i = 0; i <= text.size(); ++i) s.columns[i] = static_cast<int>(i) + 1;
  return s;
}

Location SourceLine::At(size_t offset) const {
  int col = 0;
  if (!columns.empty()) col = columns[std::min(offset, columns.size() - 1)];
  return Location{file, line, col};
}

Location SourceLine::Origin() const {
  if (!expansion) return Location{file, line, 0};
  const ExpansionFrame* f = expansion.get();
  while (f->parent) f = f->parent.get();
  return Location{f->call.file, f->call.line, 0};
}

std::vector<std::string> SourceLine::Notes() const {
  std::vector<std::string> notes;
  for (const ExpansionFrame* f = expansion.get(); f; f = f->parent.get()) {
    notes.push_back(
        fmt::format("{}: note: in expansion of macro '{}'", f->call.ToString(), f->macro));
  }
  return notes;
}

Diagnostic SourceLine::Error(size_t offset, const std::string& message) const {
  return Diagnostic{At(offset), message, Notes()};
}

// ---- Preprocessor ----

struct Preprocessor::Head {
  size_t labels_end = 0;  // offset just after the last label's ':' (0: no label)
  std::string word;       // the first word after the labels, as written
  std::string lower;
  size_t word_pos = 0;
  size_t rest = 0;  // offset after the word
  bool assignment = false;
};

namespace {

template <typename HeadT>
HeadT ParseHeadOf(const std::string& text) {
  HeadT h;
  const size_t stop = CommentStart(text);
  size_t i = 0;
  auto skip_blanks = [&] {
    while (i < stop && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
  };
  skip_blanks();
  while (i < stop && IsIdentChar(text[i])) {
    size_t j = i;
    while (j < stop && IsIdentChar(text[j])) ++j;
    size_t k = j;
    while (k < stop && (text[k] == ' ' || text[k] == '\t')) ++k;
    if (k < stop && text[k] == ':') {
      i = k + 1;
      h.labels_end = i;
      skip_blanks();
      continue;
    }
    break;
  }
  if (i < stop && IsIdentStart(text[i])) {
    h.word_pos = i;
    while (i < stop && IsIdentChar(text[i])) ++i;
    h.word = text.substr(h.word_pos, i - h.word_pos);
    h.lower = ToLower(h.word);
    h.rest = i;
    size_t k = i;
    while (k < stop && (text[k] == ' ' || text[k] == '\t')) ++k;
    h.assignment = k < stop && text[k] == '=' && !(k + 1 < stop && text[k + 1] == '=');
  } else {
    h.rest = i;
  }
  return h;
}

}  // namespace

Preprocessor::Preprocessor(std::vector<std::string> include_dirs, Diagnostics& diags,
                           ConstEval eval)
    : include_dirs_(std::move(include_dirs)), diags_(diags), eval_(std::move(eval)) {}

void Preprocessor::OpenFile(const std::string& path) {
  std::string text, why;
  if (!ReadWholeFile(path, text, why)) {
    throw assembler::Error(Location{path, 0, 0}, fmt::format("cannot read source file: {}", why));
  }
  PushFile(path, text, Location{});
}

void Preprocessor::OpenText(const std::string& name, const std::string& text) {
  PushFile(name, text, Location{});
}

void Preprocessor::PushFile(const std::string& path, const std::string& text, const Location&) {
  auto lines = std::make_shared<std::vector<SourceLine>>();
  size_t start = 0;
  int number = 1;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string l = text.substr(start, nl - start);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (!(nl == text.size() && l.empty())) lines->push_back(SourceLine::Plain(path, number, l));
    ++number;
    start = nl + 1;
  }
  Frame f;
  f.lines = lines;
  f.cond_depth = conds_.size();
  f.dir = DirName(path);
  f.is_file = true;
  frames_.push_back(std::move(f));
}

void Preprocessor::Fail(const SourceLine& line, size_t offset, const std::string& message) {
  diags_.Add(line.Error(offset, message));
}

void Preprocessor::PopFrame() {
  const Frame& f = frames_.back();
  while (conds_.size() > f.cond_depth) {
    const Cond& c = conds_.back();
    diags_.Add(Diagnostic{c.where,
                          f.is_macro
                              ? "unterminated .if: no .endif before the end of the macro body"
                              : "unterminated .if: no .endif before the end of the file",
                          {}});
    conds_.pop_back();
  }
  frames_.pop_back();
}

bool Preprocessor::Active() const { return conds_.empty() || conds_.back().active; }

int64_t Preprocessor::Evaluate(const SourceLine& line, size_t begin, const char* directive) {
  const size_t end = CommentStart(line.text);
  size_t b = begin;
  while (b < end && (line.text[b] == ' ' || line.text[b] == '\t')) ++b;
  if (b >= end) {
    Fail(line, begin, fmt::format("{} needs an assembly-time constant expression", directive));
    return 0;
  }
  try {
    return eval_(line, b, end);
  } catch (const LineError& e) {
    Fail(line, e.pos(), e.what());
    return 0;
  }
}

bool Preprocessor::HandleConditional(const SourceLine& line, const Head& h) {
  const std::string& w = h.lower;
  if (w != ".if" && w != ".elif" && w != ".else" && w != ".endif") return false;
  const size_t floor = frames_.back().cond_depth;
  if (w == ".if") {
    Cond c;
    c.where = line.At(h.word_pos);
    if (!Active()) {
      c.parent_active = false;
      c.taken = true;
    } else {
      c.active = Evaluate(line, h.rest, ".if") != 0;
      c.taken = c.active;
    }
    conds_.push_back(c);
    return true;
  }
  if (conds_.size() <= floor) {
    Fail(line, h.word_pos, fmt::format("{} without .if", w));
    return true;
  }
  Cond& c = conds_.back();
  if (w == ".endif") {
    conds_.pop_back();
    return true;
  }
  if (c.seen_else) {
    Fail(line, h.word_pos, fmt::format("{} after .else (the .if is at {})", w, c.where.ToString()));
    c.active = false;
    return true;
  }
  if (w == ".else") {
    c.seen_else = true;
    c.active = c.parent_active && !c.taken;
    c.taken = true;
    return true;
  }
  // .elif
  if (!c.parent_active || c.taken) {
    c.active = false;
  } else {
    c.active = Evaluate(line, h.rest, ".elif") != 0;
    c.taken = c.active;
  }
  return true;
}

std::vector<SourceLine> Preprocessor::CollectBody(const SourceLine& open,
                                                  const std::string& open_word,
                                                  const std::string& close_word) {
  Frame& f = frames_.back();
  std::vector<SourceLine> body;
  int depth = 1;
  while (f.next < f.lines->size()) {
    const SourceLine& l = (*f.lines)[f.next++];
    const Head h = ParseHeadOf<Head>(l.text);
    if (h.lower == open_word) ++depth;
    if (h.lower == close_word && --depth == 0) return body;
    body.push_back(l);
  }
  const Head h = ParseHeadOf<Head>(open.text);
  Fail(open, h.word_pos,
       fmt::format("unterminated {}: no {} before the end of the {}", open_word, close_word,
                   f.is_macro ? "macro body" : "file"));
  return {};
}

void Preprocessor::DefineMacro(const SourceLine& line, const Head& h) {
  const std::string& text = line.text;
  const size_t end = CommentStart(text);
  size_t i = h.rest;
  while (i < end && (text[i] == ' ' || text[i] == '\t')) ++i;
  const size_t name_pos = i;
  while (i < end && IsIdentChar(text[i])) ++i;
  Macro m;
  m.name = text.substr(name_pos, i - name_pos);
  m.defined_at = line.At(name_pos);
  m.body = CollectBody(line, ".macro", ".endm");
  if (m.name.empty() || !IsIdentStart(m.name[0])) {
    Fail(line, name_pos, ".macro needs a name: .macro NAME [param[=default], ...]");
    return;
  }
  if (IsInstructionName(ToLower(m.name)) || m.name[0] == '.') {
    Fail(line, name_pos,
         fmt::format("cannot name a macro '{}': it is an instruction or directive", m.name));
    return;
  }
  if (i < end && text[i] == ',') ++i;
  for (const auto& [b, e] : SplitArgs(text, i, end)) {
    const std::string piece = text.substr(b, e - b);
    const size_t eq = piece.find('=');
    std::string name = piece.substr(0, eq);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    bool valid = !name.empty() && IsParamStart(name[0]);
    for (const char c : name) valid = valid && IsParamChar(c);
    if (!valid) {
      Fail(line, b,
           fmt::format("bad macro parameter '{}': a parameter is a name, optionally "
                       "with a default (name=value)",
                       piece));
      return;
    }
    for (const std::string& p : m.params) {
      if (p == name) {
        Fail(line, b, fmt::format("macro parameter '{}' is listed twice", name));
        return;
      }
    }
    m.params.push_back(name);
    m.has_default.push_back(eq != std::string::npos);
    std::string def = eq == std::string::npos ? "" : piece.substr(eq + 1);
    while (!def.empty() && (def.front() == ' ' || def.front() == '\t')) def.erase(0, 1);
    m.defaults.push_back(def);
  }
  const auto it = macros_.find(m.name);
  if (it != macros_.end()) {
    Fail(line, name_pos,
         fmt::format("macro '{}' is already defined at {}", m.name,
                     it->second.defined_at.ToString()));
    return;
  }
  macros_[m.name] = std::move(m);
}

void Preprocessor::ExpandMacro(const SourceLine& line, const Head& h, const Macro& m) {
  if (static_cast<int>(frames_.size()) >= kMaxDepth) {
    Fail(line, h.word_pos,
         fmt::format("macro expansions nested more than {} deep: does '{}' invoke itself?",
                     kMaxDepth, m.name));
    return;
  }
  const std::string& text = line.text;
  const size_t end = CommentStart(text);
  // Arguments: positional, or name=value for a parameter name.
  std::vector<std::string> args(m.params.size());
  std::vector<bool> given(m.params.size(), false);
  size_t positional = 0;
  for (const auto& [b, e] : SplitArgs(text, h.rest, end)) {
    std::string piece = text.substr(b, e - b);
    size_t index = m.params.size();
    size_t k = 0;
    while (k < piece.size() && IsParamChar(piece[k])) ++k;
    size_t eq = k;
    while (eq < piece.size() && (piece[eq] == ' ' || piece[eq] == '\t')) ++eq;
    if (k > 0 && eq < piece.size() && piece[eq] == '=' &&
        !(eq + 1 < piece.size() && piece[eq + 1] == '=')) {
      const std::string name = piece.substr(0, k);
      for (size_t p = 0; p < m.params.size(); ++p) {
        if (m.params[p] == name) index = p;
      }
      if (index == m.params.size()) {
        Fail(line, b, fmt::format("macro '{}' has no parameter '{}'", m.name, name));
        return;
      }
      size_t v = eq + 1;
      while (v < piece.size() && (piece[v] == ' ' || piece[v] == '\t')) ++v;
      piece = piece.substr(v);
    } else {
      while (positional < m.params.size() && given[positional]) ++positional;
      if (positional >= m.params.size()) {
        Fail(line, b,
             fmt::format("too many arguments for macro '{}' (it takes {})", m.name,
                         m.params.size()));
        return;
      }
      index = positional++;
    }
    if (given[index]) {
      Fail(line, b, fmt::format("macro parameter '{}' is given twice", m.params[index]));
      return;
    }
    given[index] = true;
    args[index] = piece;
  }
  for (size_t p = 0; p < m.params.size(); ++p) {
    if (given[p]) continue;
    if (!m.has_default[p]) {
      Fail(line, h.word_pos,
           fmt::format("macro '{}' needs a value for parameter '{}' (it has no default)", m.name,
                       m.params[p]));
      return;
    }
    args[p] = m.defaults[p];
  }
  const int64_t unique = expansions_++;
  auto frame = std::make_shared<ExpansionFrame>();
  frame->macro = m.name;
  frame->call = line.At(h.word_pos);
  frame->parent = line.expansion;
  auto lines = std::make_shared<std::vector<SourceLine>>();
  for (const SourceLine& body : m.body) {
    SourceLine out;
    out.file = body.file;
    out.line = body.line;
    out.expansion = frame;
    const std::string& t = body.text;
    for (size_t i = 0; i < t.size();) {
      const int col = body.columns[i];
      if (t[i] == '\\' && i + 1 < t.size()) {
        if (t[i + 1] == '@') {
          for (const char c : std::to_string(unique)) {
            out.text += c;
            out.columns.push_back(col);
          }
          i += 2;
          continue;
        }
        if (t[i + 1] == '(' && i + 2 < t.size() && t[i + 2] == ')') {
          i += 3;
          continue;
        }
        if (IsParamStart(t[i + 1])) {
          size_t j = i + 1;
          while (j < t.size() && IsParamChar(t[j])) ++j;
          const std::string name = t.substr(i + 1, j - i - 1);
          size_t p = 0;
          while (p < m.params.size() && m.params[p] != name) ++p;
          if (p < m.params.size()) {
            for (const char c : args[p]) {
              out.text += c;
              out.columns.push_back(col);
            }
            i = j;
            continue;
          }
        }
      }
      out.text += t[i];
      out.columns.push_back(col);
      ++i;
    }
    out.columns.push_back(body.columns.empty() ? 1 : body.columns.back());
    lines->push_back(std::move(out));
  }
  Frame f;
  f.lines = lines;
  f.cond_depth = conds_.size();
  f.is_macro = true;
  frames_.push_back(std::move(f));
}

void Preprocessor::Include(const SourceLine& line, const Head& h) {
  std::vector<Token> toks;
  try {
    toks = Lex(line.text.substr(0, CommentStart(line.text)));
  } catch (const LineError& e) {
    Fail(line, e.pos(), e.what());
    return;
  }
  size_t k = 0;
  while (k < toks.size() && toks[k].pos < h.rest) ++k;
  if (k + 1 != toks.size() || toks[k].kind != TokKind::kString) {
    Fail(line, h.word_pos, ".include needs one file name in quotes: .include \"file\"");
    return;
  }
  if (static_cast<int>(frames_.size()) >= kMaxDepth) {
    Fail(line, h.word_pos,
         fmt::format(".include nested more than {} deep: does a file include itself?", kMaxDepth));
    return;
  }
  const std::string& name = toks[k].text;
  std::vector<std::string> tried;
  if (!name.empty() && name[0] == '/') {
    tried.push_back(name);
  } else {
    std::string dir = ".";
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
      if (it->is_file) {
        dir = it->dir;
        break;
      }
    }
    tried.push_back(dir + "/" + name);
    for (const std::string& d : include_dirs_) tried.push_back(d + "/" + name);
  }
  for (const std::string& path : tried) {
    std::string text, why;
    if (ReadWholeFile(path, text, why)) {
      PushFile(path, text, line.At(h.word_pos));
      return;
    }
  }
  std::string dirs;
  for (const std::string& t : tried) dirs += (dirs.empty() ? "" : ", ") + DirName(t);
  Fail(line, toks[k].pos,
       fmt::format("cannot find include file \"{}\" (looked in: {})", name, dirs));
}

void Preprocessor::Rept(const SourceLine& line, const Head& h) {
  const int64_t n = Evaluate(line, h.rest, ".rept");
  std::vector<SourceLine> body = CollectBody(line, ".rept", ".endr");
  if (n < 0 || n > kMaxRept) {
    Fail(line, h.rest,
         fmt::format(".rept count {} is out of range (0..{})", n, static_cast<long>(kMaxRept)));
    return;
  }
  if (n == 0 || body.empty()) return;
  Frame f;
  f.lines = std::make_shared<std::vector<SourceLine>>(std::move(body));
  f.repeats_left = n - 1;
  f.cond_depth = conds_.size();
  f.is_macro = frames_.back().is_macro;
  frames_.push_back(std::move(f));
}

bool Preprocessor::Next(SourceLine& out) {
  static const char* const kWords[] = {".include", ".macro", ".endm", ".rept", ".endr",
                                       ".if",      ".elif",  ".else", ".endif"};
  while (true) {
    SourceLine line;
    if (pending_) {
      line = std::move(*pending_);
      pending_.reset();
    } else {
      if (frames_.empty()) return false;
      Frame& f = frames_.back();
      if (f.next >= f.lines->size()) {
        if (f.repeats_left > 0) {
          --f.repeats_left;  // another pass over a .rept body
          f.next = 0;
        } else {
          PopFrame();
        }
        continue;
      }
      line = (*f.lines)[f.next++];
    }
    const Head h = ParseHeadOf<Head>(line.text);
    bool handled_here = false;
    for (const char* w : kWords) handled_here = handled_here || h.lower == w;
    const auto macro = h.assignment ? macros_.end() : macros_.find(h.word);
    if (macro != macros_.end()) handled_here = true;
    if (handled_here && h.labels_end > 0 && Active()) {
      // Labels before a directive handled here: hand them on as a line of their own first.
      SourceLine labels = line;
      labels.text = line.text.substr(0, h.labels_end);
      labels.columns.resize(h.labels_end + 1);
      for (size_t i = 0; i < h.labels_end; ++i) line.text[i] = ' ';
      pending_ = std::move(line);
      out = std::move(labels);
      return true;
    }
    if (HandleConditional(line, h)) continue;
    if (!Active()) continue;
    if (h.lower == ".include") {
      Include(line, h);
    } else if (h.lower == ".macro") {
      DefineMacro(line, h);
    } else if (h.lower == ".endm") {
      Fail(line, h.word_pos, ".endm without .macro");
    } else if (h.lower == ".rept") {
      Rept(line, h);
    } else if (h.lower == ".endr") {
      Fail(line, h.word_pos, ".endr without .rept");
    } else if (macro != macros_.end()) {
      ExpandMacro(line, h, macro->second);
    } else {
      out = std::move(line);
      return true;
    }
  }
}

}  // namespace tessera::assembler
