// The layout file form (docs/layout.md): lines are split into statements, `for` bodies into
// blocks, and the blocks are run with a Scope of lets and loop variables, turning each `region`
// and `route` into a Layout entry. Problems are collected with file:line:column, all of a file
// together.
#include "layout/layout.h"

#include <fmt/core.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "asm/assembler.h"
#include "asm/link.h"
#include "asm/object.h"

namespace tessera::layout {

using assembler::Diagnostic;
using assembler::Diagnostics;
using assembler::Error;
using assembler::LineError;
using assembler::Location;

namespace {

// Names the layout defines itself; lets and loop variables may not take them.
const std::set<std::string> kBuiltinNames = {"x", "y", "X0", "Y0", "W", "H", "FW", "FH"};

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string WithoutComment(const std::string& line) {
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"') quoted = !quoted;
    if (line[i] == '#' && !quoted) return line.substr(0, i);
  }
  return line;
}

std::string JoinPath(const std::string& base, const std::string& path) {
  if (base.empty() || path.empty() || path[0] == '/') return path;
  return base + "/" + path;
}

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::optional<arch::Dir> ParseDir(const std::string& word) {
  arch::Dir d;
  if (arch::FromString(word, &d)) return d;
  return std::nullopt;
}

// A position in one statement's text, with the helpers its parser needs. Problems are thrown
// as LineError at an offset of the line.
class Cursor {
 public:
  Cursor(const std::string& s, const Location& line_at) : s_(s), at_(line_at) {}
  size_t pos() const { return pos_; }
  void set_pos(size_t p) { pos_ = p; }
  const std::string& text() const { return s_; }

  void Space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool AtEnd() {
    Space();
    return pos_ >= s_.size();
  }
  char Peek() {
    Space();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool Accept(const std::string& lit) {
    Space();
    if (s_.compare(pos_, lit.size(), lit) != 0) return false;
    pos_ += lit.size();
    return true;
  }
  void Expect(const std::string& lit, const std::string& what) {
    if (Accept(lit)) return;
    throw LineError(pos_, fmt::format("expected '{}' {}{}", lit, what, Found()));
  }
  std::string Found() {
    Space();
    if (pos_ >= s_.size()) return ", found the end of the line";
    size_t end = pos_;
    while (end < s_.size() && s_[end] != ' ' && s_[end] != '\t') ++end;
    return fmt::format(", found '{}'", s_.substr(pos_, end - pos_));
  }
  // An identifier, or "" if there is none here.
  std::string Word() {
    Space();
    const size_t start = pos_;
    if (pos_ < s_.size() &&
        (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      while (pos_ < s_.size() && IsIdentChar(s_[pos_])) ++pos_;
    }
    return s_.substr(start, pos_ - start);
  }
  std::string ExpectWord(const std::string& what) {
    const size_t start = (Space(), pos_);
    std::string w = Word();
    if (w.empty()) throw LineError(start, fmt::format("expected {}{}", what, Found()));
    return w;
  }
  Expr ParseExpr() {
    Location line_at = at_;
    line_at.column = 1;
    return Expr::ParsePrefix(s_, &pos_, line_at);
  }
  // A file path: "quoted" or a run of characters up to a space or ','.
  std::string Path() {
    Space();
    const size_t start = pos_;
    if (Peek() == '"') {
      const size_t close = s_.find('"', pos_ + 1);
      if (close == std::string::npos) throw LineError(start, "unterminated '\"'");
      pos_ = close + 1;
      return s_.substr(start + 1, close - start - 1);
    }
    while (pos_ < s_.size() && s_[pos_] != ' ' && s_[pos_] != '\t' && s_[pos_] != ',') ++pos_;
    if (pos_ == start) throw LineError(start, fmt::format("expected a file name{}", Found()));
    return s_.substr(start, pos_ - start);
  }

 private:
  const std::string& s_;
  Location at_;
  size_t pos_ = 0;
};

struct Stmt {
  std::string file, dir;  // where it is written: the layout file, and its folder (for paths)
  int line = 0;
  std::string text;
  std::string keyword;
  size_t keyword_pos = 0;
  std::vector<Stmt> body;  // for `for`
};

class FileParser {
 public:
  FileParser(const std::string& name, const std::string& base_dir)
      : name_(name), base_dir_(base_dir) {}

  Layout Run(const std::string& text) {
    std::vector<Stmt> flat;
    Read(name_, base_dir_, text, 0, &flat);
    size_t i = 0;
    std::vector<Stmt> top = Block(flat, &i, nullptr);
    Scope scope;
    Exec(top, &scope);
    if (!saw_fabric_) {
      diags_.Add(Location{name_, 0, 0},
                 "the layout has no 'fabric WxH' statement giving the fabric's size");
    }
    diags_.ThrowIfAny();
    return std::move(layout_);
  }

 private:
  // The statements of one layout file, appended to `flat`: a line ending in `\` continues on the
  // next; `include FILE.tlayout` reads another layout file in its place (its lets, regions and
  // routes are as if written there; its paths are relative to its own folder).
  void Read(const std::string& file, const std::string& dir, const std::string& text, int depth,
            std::vector<Stmt>* flat) {
    std::istringstream in(text);
    std::string raw;
    for (int n = 1; std::getline(in, raw); ++n) {
      Stmt s;
      s.file = file;
      s.dir = dir;
      s.line = n;
      s.text = WithoutComment(raw);
      // Continuation: the backslash and what follows it on the line (blanks) go, the next
      // line's text joins with a blank.
      while (true) {
        const size_t last = s.text.find_last_not_of(" \t\r");
        if (last == std::string::npos || s.text[last] != '\\') break;
        s.text = s.text.substr(0, last) + " ";
        if (!std::getline(in, raw)) break;
        ++n;
        s.text += WithoutComment(raw);
      }
      Location at{file, s.line, 1};
      Cursor c(s.text, at);
      if (c.AtEnd()) continue;
      s.keyword_pos = c.pos();
      s.keyword = c.Word();
      if (s.keyword.empty()) {
        diags_.Add(Location{file, s.line, static_cast<int>(c.pos()) + 1},
                   fmt::format("expected a statement (fabric, include, let, for, end, region, "
                               "route){}",
                               c.Found()));
        continue;
      }
      if (s.keyword == "include") {
        Cursor p(s.text, at);
        p.set_pos(s.keyword_pos + s.keyword.size());
        std::string path;
        try {
          path = p.Path();
        } catch (const LineError& e) {  // no name, or an unterminated quote
          AddAt(s, e.pos(), e.what());
          continue;
        }
        if (path.size() > 8 && path.compare(path.size() - 8, 8, ".tlayout") == 0) {
          const std::string full = JoinPath(dir, path);
          std::ifstream f(full, std::ios::binary);
          if (depth >= 16) {
            AddAt(s, s.keyword_pos,
                  fmt::format("include {}: layout files include each other "
                              "more than 16 deep (a cycle?)",
                              path));
          } else if (!f) {
            AddAt(s, s.keyword_pos, fmt::format("include {}: cannot open {}", path, full));
          } else {
            std::stringstream ss;
            ss << f.rdbuf();
            Read(full, DirOf(full), ss.str(), depth + 1, flat);
          }
          continue;
        }
      }
      flat->push_back(std::move(s));
    }
  }

  // Statements up to the `end` of the `for` at `opener` (or the end of the file).
  std::vector<Stmt> Block(std::vector<Stmt>& flat, size_t* i, const Stmt* opener) {
    std::vector<Stmt> out;
    while (*i < flat.size()) {
      Stmt s = std::move(flat[(*i)++]);
      if (s.keyword == "end") {
        if (opener) return out;
        AddAt(s, s.keyword_pos, "'end' without a 'for' to close");
        continue;
      }
      if (s.keyword == "for") s.body = Block(flat, i, &s);
      out.push_back(std::move(s));
    }
    if (opener) AddAt(*opener, opener->keyword_pos, "this 'for' has no 'end'");
    return out;
  }

  void AddAt(const Stmt& s, size_t pos, const std::string& message) {
    const Location at{s.file, s.line, static_cast<int>(pos) + 1};
    const std::string key = at.ToString() + message;
    if (seen_.insert(key).second) diags_.Add(at, message);
  }
  void AddError(const Error& e) {
    for (const Diagnostic& d : e.diagnostics()) {
      if (seen_.insert(d.loc.ToString() + d.message).second) diags_.Add(d);
    }
  }

  void Exec(const std::vector<Stmt>& stmts, Scope* scope) {
    for (const Stmt& s : stmts) {
      // Nested loops multiply: each is bounded, and so is everything they execute together.
      if (++executed_ > kMaxStatements) {
        if (!over_budget_) {
          AddAt(s, s.keyword_pos,
                fmt::format("the layout executes more than {} statements (loops inside loops?); "
                            "that is the limit",
                            kMaxStatements));
        }
        over_budget_ = true;
        return;
      }
      Cursor c(s.text, Location{s.file, s.line, 1});
      c.set_pos(s.keyword_pos + s.keyword.size());
      try {
        if (s.keyword == "for") {
          For(s, &c, scope);
          continue;
        }
        if (s.keyword == "fabric") {
          Fabric(s, &c, scope);
        } else if (s.keyword == "include") {
          layout_.AddIncludeDir(JoinPath(s.dir, c.Path()));
        } else if (s.keyword == "let") {
          Let(&c, scope);
        } else if (s.keyword == "region" || s.keyword == "route") {
          if (!saw_fabric_) {
            throw LineError(s.keyword_pos, fmt::format("'{}' before 'fabric WxH': give the "
                                                       "fabric's size first",
                                                       s.keyword));
          }
          if (s.keyword == "region") {
            RegionStmt(s, &c, *scope);
          } else {
            RouteStmt(s, &c, *scope);
          }
        } else {
          throw LineError(s.keyword_pos,
                          fmt::format("unknown statement '{}' (there are fabric, include, let, "
                                      "for, end, region, route)",
                                      s.keyword));
        }
        if (!c.AtEnd()) {
          throw LineError(c.pos(),
                          fmt::format("unexpected text at the end of the statement{}", c.Found()));
        }
      } catch (const LineError& e) {
        AddAt(s, e.pos(), e.what());
        Failed(s);
      } catch (const Error& e) {
        AddError(e);
        Failed(s);
      }
      if (over_budget_) return;
    }
  }

  // A statement failed. In a loop it fails again on every iteration (the messages are reported
  // once), so past kMaxFailures the layout stops: enough to show every distinct problem.
  void Failed(const Stmt& s) {
    if (++failures_ <= kMaxFailures) return;
    AddAt(s, s.keyword_pos,
          fmt::format("more than {} failed statements (in loops?); stopping here", kMaxFailures));
    over_budget_ = true;
  }

  int64_t Eval(Cursor* c, const Scope& scope) { return c->ParseExpr().Eval(scope); }

  int Int(Cursor* c, const Scope& scope, int64_t lo, int64_t hi, const std::string& what) {
    c->Space();
    const size_t at = c->pos();
    const int64_t v = Eval(c, scope);
    if (v < lo || v > hi) {
      throw LineError(at, fmt::format("{} {} is out of range ({}..{})", what, v, lo, hi));
    }
    return static_cast<int>(v);
  }

  // WxH (one word, as in `fabric 8x8`) or EXPR,EXPR.
  std::pair<int, int> Dims(Cursor* c, const Scope& scope, const std::string& what) {
    c->Space();
    const std::string& t = c->text();
    size_t p = c->pos(), q = p;
    while (q < t.size() && std::isdigit(static_cast<unsigned char>(t[q]))) ++q;
    if (q > p && q < t.size() && t[q] == 'x' && !(q == p + 1 && t[p] == '0')) {
      size_t r = q + 1;
      while (r < t.size() && std::isdigit(static_cast<unsigned char>(t[r]))) ++r;
      if (r > q + 1 && (r == t.size() || !IsIdentChar(t[r]))) {
        // Digits only; more than 9 of them are out of range anyway (and would overflow stoll).
        auto num = [&](size_t a, size_t e) -> int64_t {
          return e - a > 9 ? INT64_MAX : std::stoll(t.substr(a, e - a));
        };
        const int64_t w = num(p, q), h = num(q + 1, r);
        if (w < 1 || h < 1 || w > 0xFFFF || h > 0xFFFF) {
          throw LineError(p, fmt::format("{} {} is out of range (1..65535 each way)", what,
                                         t.substr(p, r - p)));
        }
        c->set_pos(r);
        return {static_cast<int>(w), static_cast<int>(h)};
      }
    }
    const int w = Int(c, scope, 1, 0xFFFF, what + " width");
    c->Expect(",", fmt::format("between the width and the height of the {} (or write WxH)", what));
    const int h = Int(c, scope, 1, 0xFFFF, what + " height");
    return {w, h};
  }

  void Fabric(const Stmt& s, Cursor* c, Scope* scope) {
    if (saw_fabric_) {
      throw LineError(s.keyword_pos, fmt::format("the fabric's size is given twice (first at "
                                                 "line {})",
                                                 fabric_line_));
    }
    c->Space();
    const size_t at = c->pos();
    const auto [w, h] = Dims(c, *scope, "fabric");
    if (int64_t(w) * h > kMaxFabricPes) {
      throw LineError(at, fmt::format("fabric {}x{} has {} PEs; a layout may have up to {} "
                                      "(2048x2048; the wafer is 750x994)",
                                      w, h, int64_t(w) * h, kMaxFabricPes));
    }
    layout_.SetFabric(w, h);
    scope->Set("FW", w);
    scope->Set("FH", h);
    saw_fabric_ = true;
    fabric_line_ = s.line;
  }

  std::string NewName(Cursor* c, const std::string& what) {
    c->Space();
    const size_t at = c->pos();
    const std::string name = c->ExpectWord(what);
    if (IsKeyword(name)) {
      throw LineError(at, fmt::format("'{}' is a word of the layout's statements; choose another "
                                      "name",
                                      name));
    }
    if (kBuiltinNames.count(name)) {
      throw LineError(at, fmt::format("'{}' is a name the layout defines (x, y, X0, Y0, W, H, "
                                      "FW, FH); choose another",
                                      name));
    }
    return name;
  }

  void Let(Cursor* c, Scope* scope) {
    const std::string name = NewName(c, "a name after 'let'");
    c->Expect("=", "after the name");
    scope->Set(name, Eval(c, *scope));
  }

  void For(const Stmt& s, Cursor* c, Scope* scope) {
    int64_t from = 0, to = 0, step = 1;
    std::string name;
    try {
      name = NewName(c, "a loop variable after 'for'");
      c->Space();
      const size_t in_at = c->pos();
      if (c->Word() != "in") {
        c->set_pos(in_at);
        throw LineError(in_at, fmt::format("expected 'in' after the loop variable{}", c->Found()));
      }
      from = Eval(c, *scope);
      c->Expect("..", "between the first and the last value (for i in 0..7)");
      to = Eval(c, *scope);
      c->Space();
      const size_t step_at = c->pos();
      if (c->Word() == "step") {
        c->Space();
        const size_t at = c->pos();
        step = Eval(c, *scope);
        if (step < 1) throw LineError(at, fmt::format("step {} must be 1 or more", step));
      } else {
        c->set_pos(step_at);
      }
      if (!c->AtEnd()) {
        throw LineError(c->pos(),
                        fmt::format("unexpected text after the loop range{}", c->Found()));
      }
    } catch (const LineError& e) {
      AddAt(s, e.pos(), e.what());
      return;
    } catch (const Error& e) {
      AddError(e);
      return;
    }
    const __int128 span = static_cast<__int128>(to) - from;
    if (span >= 0 && span / step >= kMaxIterations) {
      AddAt(s, s.keyword_pos,
            fmt::format("the loop runs {} times; the limit is {}",
                        static_cast<int64_t>(span / step) + 1, kMaxIterations));
      return;
    }
    for (int64_t v = from; v <= to && !over_budget_; v += step) {
      Scope inner = *scope;
      inner.Set(name, v);
      Exec(s.body, &inner);
      if (to - v < step) break;
    }
  }

  void RegionStmt(const Stmt& s, Cursor* c, const Scope& scope) {
    Region r;
    r.scope = scope;
    r.loc = Location{s.file, s.line, static_cast<int>(s.keyword_pos) + 1};
    bool at = false;
    std::set<std::string> params;
    while (!c->AtEnd()) {
      const size_t key_at = c->pos();
      const std::string key = c->Word();
      if (key == "param") {
        c->Space();
        const size_t name_at = c->pos();
        Param p;
        p.name = c->ExpectWord("a param name after 'param'");
        if (!params.insert(p.name).second) {
          throw LineError(name_at, fmt::format("param '{}' is given twice", p.name));
        }
        c->Expect("=", "after the param name (param N=EXPR)");
        p.value = c->ParseExpr();
        r.params.push_back(std::move(p));
        continue;
      }
      if (key.empty() || !c->Accept("=")) {
        c->set_pos(key_at);
        throw LineError(key_at,
                        fmt::format("expected at=, size=, program=, param or when={}", c->Found()));
      }
      if (key == "at") {
        r.x0 = Int(c, scope, 0, 0xFFFF, "x");
        c->Expect(",", "between x and y (at=X0,Y0)");
        r.y0 = Int(c, scope, 0, 0xFFFF, "y");
        at = true;
      } else if (key == "size") {
        std::tie(r.w, r.h) = Dims(c, scope, "region size");
      } else if (key == "program") {
        do {
          r.program.push_back(JoinPath(s.dir, c->Path()));
        } while (c->Accept(","));
      } else if (key == "when") {
        r.when = c->ParseExpr();
      } else {
        throw LineError(key_at, fmt::format("unknown region setting '{}' (there are at=, size=, "
                                            "program=, param and when=)",
                                            key));
      }
    }
    if (!at || r.program.empty()) {
      throw LineError(s.keyword_pos, fmt::format("a region needs {} (region at=X0,Y0 size=WxH "
                                                 "program=FILE)",
                                                 !at ? "at=" : "program="));
    }
    layout_.AddRegion(std::move(r));
  }

  uint32_t Dirs(Cursor* c) {
    uint32_t mask = 0;
    // `none`: an empty side, for a route whose switch positions give the directions (a
    // wavelet that only a position accepts waits at the head of its queue, docs/router.md).
    {
      c->Space();
      const size_t at = c->pos();
      if (c->Word() == "none") return 0;
      c->set_pos(at);
    }
    do {
      c->Space();
      const size_t at = c->pos();
      const std::string w = c->Word();
      const std::optional<arch::Dir> d = ParseDir(w);
      if (!d) {
        c->set_pos(at);
        throw LineError(at, fmt::format("unknown direction{} (directions are W, E, S, N, RAMP)",
                                        w.empty() ? c->Found() : " '" + w + "'"));
      }
      const uint32_t bit = 1u << static_cast<unsigned>(*d);
      if (mask & bit) throw LineError(at, fmt::format("direction {} is given twice", w));
      mask |= bit;
    } while (c->Accept(","));
    return mask;
  }

  std::pair<int, int> Range(Cursor* c, const Scope& scope, const std::string& what) {
    const int lo = Int(c, scope, 0, 0xFFFF, what);
    int hi = lo;
    if (c->Accept("..")) {
      c->Space();
      const size_t at = c->pos();
      hi = Int(c, scope, 0, 0xFFFF, what);
      if (hi < lo) throw LineError(at, fmt::format("empty range {}..{}", lo, hi));
    }
    return {lo, hi};
  }

  void RouteStmt(const Stmt& s, Cursor* c, const Scope& scope) {
    Route r;
    r.scope = scope;
    r.loc = Location{s.file, s.line, static_cast<int>(s.keyword_pos) + 1};
    bool color = false, at = false, rx = false, tx = false;
    while (!c->AtEnd()) {
      const size_t key_at = c->pos();
      const std::string key = c->Word();
      if (key == "ring") {
        r.ring = true;
        continue;
      }
      if (key == "swap_x") {  // leaving W or E, the wavelet's color becomes its pair (c ^ 1)
        r.swap_x = true;
        continue;
      }
      if (key.empty() || !c->Accept("=")) {
        c->set_pos(key_at);
        throw LineError(key_at, fmt::format("expected color=, at=, rx=, tx=, pos1=..pos3=, ring, "
                                            "start=, filter=, counter=, count=, swap_x or when={}",
                                            c->Found()));
      }
      if (key == "color") {
        r.color = Int(c, scope, 0, arch::kNumColors - 1, "color");
        color = true;
      } else if (key == "at") {
        std::tie(r.x0, r.x1) = Range(c, scope, "x");
        c->Expect(",", "between the x and the y range (at=0..6,0..7)");
        std::tie(r.y0, r.y1) = Range(c, scope, "y");
        at = true;
      } else if (key == "rx") {
        r.rx = Dirs(c);
        rx = true;
      } else if (key == "tx") {
        r.tx = Dirs(c);
        tx = true;
      } else if (key == "pos1" || key == "pos2" || key == "pos3") {
        SwitchPos& p = r.pos[key[3] - '1'];
        c->Space();
        const size_t side_at = c->pos();
        const std::string side = c->Word();
        if (side == "base") {
          p.code = 0;
          continue;
        }
        if (side != "rx" && side != "tx") {
          throw LineError(side_at, fmt::format("expected base, rx:DIR or tx:DIR after {}=", key));
        }
        p.out = side == "tx";
        c->Expect(":", fmt::format("after {} ({}={}:E)", side, key, side));
        c->Space();
        const size_t dir_at = c->pos();
        const std::string dir = c->Word();
        if (dir == "none") {
          p.code = 6;
        } else if (const std::optional<arch::Dir> d = ParseDir(dir)) {
          p.code = static_cast<uint8_t>(static_cast<unsigned>(*d) + 1);
        } else {
          c->set_pos(dir_at);
          throw LineError(dir_at, fmt::format("unknown direction{} (W, E, S, N, RAMP or none)",
                                              dir.empty() ? c->Found() : " '" + dir + "'"));
        }
      } else if (key == "start") {
        r.start = static_cast<int>(Int(c, scope, 0, 3, "start (the switch's position at load)"));
      } else if (key == "filter") {
        // filter=MIN..MAX: data wavelets go to the RAMP only with an index in MIN..MAX.
        const int lo = static_cast<int>(Int(c, scope, 0, 0xFFFF, "the filter's lowest index"));
        c->Expect("..", "between the filter's lowest and highest index (filter=3..5)");
        const int hi = static_cast<int>(Int(c, scope, 0, 0xFFFF, "the filter's highest index"));
        r.filter = std::make_pair(lo, hi);
      } else if (key == "counter") {
        // counter=COUNT..LIMIT: the filter's index is a count of the wavelets offered to the
        // RAMP, from COUNT at load, wrapping to 0 after LIMIT (docs/router.md, "Filters").
        const int n = static_cast<int>(Int(c, scope, 0, 0xFFFF, "the counter's value at load"));
        c->Expect("..", "between the counter's value at load and its limit (counter=0..14)");
        const int lim = static_cast<int>(Int(c, scope, 0, 0xFFFF, "the counter's limit"));
        r.counter = std::make_pair(n, lim);
      } else if (key == "count") {
        // count=data, ctrl, data,ctrl or none: the kinds of wavelets the counter counts.
        r.count_data = r.count_ctrl = false;
        do {
          c->Space();
          const size_t k_at = c->pos();
          const std::string k = c->Word();
          if (k == "none") {
            break;  // a counter that never moves
          } else if (k == "data") {
            r.count_data = true;
          } else if (k == "ctrl") {
            r.count_ctrl = true;
          } else {
            throw LineError(k_at, fmt::format("count= takes data, ctrl, data,ctrl or none{}",
                                              k.empty() ? c->Found() : ", found '" + k + "'"));
          }
        } while (c->Accept(","));
      } else if (key == "when") {
        r.when = c->ParseExpr();
      } else {
        throw LineError(key_at, fmt::format("unknown route setting '{}' (there are color=, at=, "
                                            "rx=, tx=, pos1=, pos2=, pos3=, ring, start=, filter=, "
                                            "counter=, count=, swap_x and when=)",
                                            key));
      }
    }
    if (r.counter && !r.filter)
      throw LineError(s.keyword_pos, "counter= needs filter=MIN..MAX (the counts delivered)");
    if (!color || !at || !rx || !tx) {
      const char* missing = !color ? "color=" : !at ? "at=" : !rx ? "rx=" : "tx=";
      throw LineError(s.keyword_pos,
                      fmt::format("a route needs {} (route color=C at=X..X,Y..Y rx=DIRS "
                                  "tx=DIRS)",
                                  missing));
    }
    layout_.AddRoute(std::move(r));
  }

  static constexpr int64_t kMaxIterations = 1 << 20;
  // Statements executed in all (loop bodies once per iteration): more than the wafer's 745,500
  // PEs, so that even a statement per PE fits; a large fabric is described by rectangles.
  static constexpr int64_t kMaxStatements = int64_t(1) << 20;
  static constexpr int64_t kMaxFailures = 10000;
  int64_t executed_ = 0, failures_ = 0;
  bool over_budget_ = false;
  std::string name_, base_dir_;
  Layout layout_;
  Diagnostics diags_;
  std::set<std::string> seen_;
  bool saw_fabric_ = false;
  int fabric_line_ = 0;
};

}  // namespace

Layout ParseLayoutText(const std::string& name, const std::string& text,
                       const std::string& base_dir) {
  return FileParser(name, base_dir).Run(text);
}

Layout ParseLayoutFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Location{path, 0, 0}, "cannot open the layout file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseLayoutText(path, ss.str(), DirOf(path));
}

}  // namespace tessera::layout
