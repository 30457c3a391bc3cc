#include "csl/parser.h"

#include <fmt/format.h>

#include <utility>

#include "csl/lexer.h"

namespace tessera::csl {
namespace {

constexpr int kMaxDepth = 200;  // nesting of expressions and blocks

// Binary operators by precedence level, lowest first (Zig's table).
int BinaryLevel(const Token& t) {
  if (t.kind == Tok::kKeyword) {
    if (t.text == "or") return 1;
    if (t.text == "and") return 2;
    return 0;
  }
  if (t.kind != Tok::kPunct) return 0;
  const std::string& s = t.text;
  if (s == "==" || s == "!=" || s == "<" || s == ">" || s == "<=" || s == ">=") return 3;
  if (s == "&" || s == "^" || s == "|") return 4;
  if (s == "<<" || s == ">>") return 5;
  if (s == "+" || s == "-") return 6;
  if (s == "*" || s == "/" || s == "%") return 7;
  return 0;
}

bool IsAssignOp(const Token& t) {
  if (t.kind != Tok::kPunct) return false;
  static const char* const ops[] = {
      "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  for (const char* o : ops)
    if (t.text == o) return true;
  return false;
}

std::string Describe(const Token& t) {
  switch (t.kind) {
    case Tok::kEof:
      return "the end of the file";
    case Tok::kIdent:
      return fmt::format("'{}'", t.text);
    case Tok::kKeyword:
      return fmt::format("keyword '{}'", t.text);
    case Tok::kBuiltin:
      return fmt::format("'@{}'", t.text);
    case Tok::kInt:
      return fmt::format("number {}", t.ival);
    case Tok::kFloat:
      return "a floating-point number";
    case Tok::kString:
      return "a string";
    case Tok::kPunct:
      return fmt::format("'{}'", t.text);
  }
  return "?";
}

class Parser {
 public:
  Parser(const Sources& s, int file) : src_(s), toks_(Lex(s, file)) {}

  NodePtr File() {
    auto f = Make(NodeKind::kFile, Peek().loc);
    while (Peek().kind != Tok::kEof) f->kids.push_back(TopLevel());
    return f;
  }

 private:
  // Tokens.
  const Token& Peek(size_t ahead = 0) const {
    const size_t i = std::min(pos_ + ahead, toks_.size() - 1);
    return toks_[i];
  }
  Token Take() {
    Token t = Peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool IsP(const char* p, size_t ahead = 0) const {
    return Peek(ahead).kind == Tok::kPunct && Peek(ahead).text == p;
  }
  bool IsK(const char* k, size_t ahead = 0) const {
    return Peek(ahead).kind == Tok::kKeyword && Peek(ahead).text == k;
  }
  bool AcceptP(const char* p) {
    if (!IsP(p)) return false;
    Take();
    return true;
  }
  bool AcceptK(const char* k) {
    if (!IsK(k)) return false;
    Take();
    return true;
  }
  [[noreturn]] void Fail(const Token& at, const std::string& message) const {
    src_.Fail(at.loc, message);
  }
  void ExpectP(const char* p, const char* context) {
    if (!AcceptP(p))
      Fail(Peek(), fmt::format("expected '{}' {}, found {}", p, context, Describe(Peek())));
  }
  std::string ExpectIdent(const char* what) {
    if (Peek().kind != Tok::kIdent) {
      if (Peek().kind == Tok::kKeyword)
        Fail(Peek(), fmt::format("expected {}, found keyword '{}' (a keyword cannot be a name)",
                                 what, Peek().text));
      Fail(Peek(), fmt::format("expected {}, found {}", what, Describe(Peek())));
    }
    return Take().text;
  }
  NodePtr Make(NodeKind k, Loc at) { return std::make_unique<Node>(k, at); }

  struct DepthGuard {
    Parser* p;
    explicit DepthGuard(Parser* parser) : p(parser) {
      if (++p->depth_ > kMaxDepth)
        p->Fail(p->Peek(), fmt::format("nesting deeper than {} levels", kMaxDepth));
    }
    ~DepthGuard() { --p->depth_; }
  };

  // Top level.
  NodePtr TopLevel() {
    const Token& t = Peek();
    if (IsK("comptime") && IsP("{", 1)) {
      Take();
      auto n = Make(NodeKind::kComptimeBlock, t.loc);
      n->kids.push_back(Block(""));
      return n;
    }
    if (IsK("layout")) {
      Take();
      auto n = Make(NodeKind::kLayoutBlock, t.loc);
      if (!IsP("{")) Fail(Peek(), "expected '{' after 'layout'");
      n->kids.push_back(Block(""));
      return n;
    }
    uint32_t flags = 0;
    if (AcceptK("export"))
      flags |= kFlagExport;
    else if (AcceptK("extern"))
      flags |= kFlagExtern;
    if (AcceptK("inline")) flags |= kFlagInline;
    if (IsK("fn") || IsK("task")) return FnDecl(flags);
    if (flags & kFlagInline) Fail(Peek(), "'inline' must be followed by 'fn'");
    if (IsK("const") || IsK("var") || IsK("param")) return VarDecl(flags, true);
    Fail(t, fmt::format("expected a declaration (const, var, param, fn, task), a comptime block "
                        "or a layout block, found {}",
                        Describe(t)));
  }

  NodePtr FnDecl(uint32_t flags) {
    const Token kw = Take();
    if (kw.text == "task") flags |= kFlagTask;
    const Loc at = Peek().loc;
    auto n = Make(NodeKind::kFnDecl, kw.loc);
    n->flags = flags;
    n->text = ExpectIdent(kw.text == "task" ? "the task's name" : "the function's name");
    n->loc = at;
    ExpectP("(", "to start the parameter list");
    while (!IsP(")")) {
      auto p = Make(NodeKind::kParam, Peek().loc);
      if (AcceptK("comptime")) p->flags |= kFlagComptime;
      p->loc = Peek().loc;
      if (Peek().kind == Tok::kIdent && IsP(":", 1)) {
        p->text = Take().text;
        Take();
      } else if (!(flags & kFlagExtern)) {
        p->text = ExpectIdent("a parameter name");
        ExpectP(":", "after the parameter's name (every parameter has a type)");
      }
      p->kids.push_back(Expr(true));
      n->kids.push_back(std::move(p));
      ++n->ival;
      if (!AcceptP(",")) break;
    }
    ExpectP(")", "to end the parameter list");
    n->kids.push_back(Expr(false));  // the return type: `void {` is not an initializer
    if (flags & kFlagExtern) {
      ExpectP(";", "after an extern function's declaration");
      n->kids.push_back(nullptr);
    } else {
      if (!IsP("{"))
        Fail(Peek(), fmt::format("expected the body '{{' of {} '{}', found {}", kw.text, n->text,
                                 Describe(Peek())));
      n->kids.push_back(Block(""));
    }
    return n;
  }

  NodePtr VarDecl(uint32_t flags, bool top) {
    const Token kw = Take();
    if (kw.text == "const") flags |= kFlagConst;
    if (kw.text == "var") flags |= kFlagVar;
    if (kw.text == "param") {
      if (!top) Fail(kw, "'param' declarations belong at the top level of a file");
      flags |= kFlagParam;
    }
    auto n = Make(NodeKind::kVarDecl, Peek().loc);
    n->flags = flags;
    n->text = ExpectIdent("a name");
    n->kids.resize(4);
    if (AcceptP(":")) n->kids[0] = Expr(true);
    for (;;) {
      if (AcceptK("align")) {
        ExpectP("(", "after 'align'");
        n->kids[2] = Expr(true);
        ExpectP(")", "to end 'align('");
      } else if (IsK("linksection") || IsK("linkname")) {
        const Token k = Take();
        ExpectP("(", fmt::format("after '{}'", k.text).c_str());
        auto e = Expr(true);
        ExpectP(")", fmt::format("to end '{}('", k.text).c_str());
        if (k.text == "linksection") n->kids[3] = std::move(e);
      } else {
        break;
      }
    }
    if (AcceptP("=")) n->kids[1] = Expr(true);
    if ((flags & kFlagConst) && !n->kids[1] && !(flags & kFlagExtern))
      Fail(Peek(), fmt::format("const '{}' needs a value ('= ...')", n->text));
    ExpectP(";", "after a declaration");
    return n;
  }

  // Statements.
  NodePtr Block(std::string label) {
    DepthGuard g(this);
    auto b = Make(NodeKind::kBlock, Peek().loc);
    b->text = std::move(label);
    ExpectP("{", "to open a block");
    while (!IsP("}")) {
      if (Peek().kind == Tok::kEof) Fail(Peek(), "the block opened here is not closed");
      b->kids.push_back(Statement());
    }
    Take();
    return b;
  }

  bool AtLabel() const { return Peek().kind == Tok::kIdent && IsP(":", 1); }

  NodePtr Statement() {
    DepthGuard g(this);
    const Token& t = Peek();
    if (IsK("const") || IsK("var")) return VarDecl(0, false);
    if (IsK("param")) Fail(t, "'param' declarations belong at the top level of a file");
    if (IsK("comptime")) {
      if (IsP("{", 1)) {
        Take();
        auto n = Make(NodeKind::kComptimeBlock, t.loc);
        n->kids.push_back(Block(""));
        return n;
      }
      if (IsK("var", 1) || IsK("const", 1)) {
        Take();
        return VarDecl(kFlagComptime, false);
      }
    }
    if (IsP("{")) return Block("");
    std::string label;
    if (AtLabel() && (IsK("while", 2) || IsK("for", 2) || IsK("inline", 2) || IsP("{", 2))) {
      label = Take().text;
      Take();
      if (IsP("{")) return Block(label);
    }
    if (IsK("inline") || IsK("while") || IsK("for")) return Loop(label);
    if (IsK("if")) return IfStatement();
    if (IsK("return") || IsK("break") || IsK("continue")) {
      auto n = Jump();
      ExpectP(";", fmt::format("after '{}'", t.text).c_str());
      return n;
    }
    if (IsK("switch")) {
      auto n = Make(NodeKind::kExprStmt, t.loc);
      n->kids.push_back(Expr(true));
      AcceptP(";");
      return n;
    }
    auto n = SimpleStatement();
    ExpectP(";", "after a statement");
    return n;
  }

  // An assignment or an expression, without the ';' (also a while loop's continue statement).
  NodePtr SimpleStatement() {
    const Loc at = Peek().loc;
    auto e = Expr(true);
    if (IsAssignOp(Peek())) {
      auto n = Make(NodeKind::kAssign, Peek().loc);
      n->text = Take().text;
      n->kids.push_back(std::move(e));
      n->kids.push_back(Expr(true));
      return n;
    }
    auto n = Make(NodeKind::kExprStmt, at);
    n->kids.push_back(std::move(e));
    return n;
  }

  // return, break or continue, without the ';'.
  NodePtr Jump() {
    const Token k = Take();
    if (k.text == "return") {
      auto n = Make(NodeKind::kReturn, k.loc);
      if (!IsP(";") && !IsK("else")) n->kids.push_back(Expr(true));
      return n;
    }
    auto n = Make(k.text == "break" ? NodeKind::kBreak : NodeKind::kContinue, k.loc);
    if (AcceptP(":")) n->text = ExpectIdent("a label");
    if (k.text == "break" && !IsP(";") && !IsK("else")) n->kids.push_back(Expr(true));
    return n;
  }

  // The body of an if, else, while or for, as Zig has it: a block, an if or a loop (each ends
  // itself), or an assignment, expression or jump whose ';' comes after any `else` branch:
  // `if (c) x = 1 else y = 2;`. *semi says whether the caller must take a ';'.
  NodePtr Body(bool* semi) {
    *semi = false;
    if (IsP("{")) return Block("");
    if (IsK("if")) return IfStatement();
    if (IsK("while") || IsK("for") || IsK("inline")) return Loop("");
    *semi = true;
    if (IsK("return") || IsK("break") || IsK("continue")) return Jump();
    return SimpleStatement();
  }

  NodePtr IfStatement() {
    auto n = Make(NodeKind::kIf, Take().loc);
    ExpectP("(", "after 'if'");
    n->kids.push_back(Expr(true));
    ExpectP(")", "to end the if's condition");
    bool semi = false;
    n->kids.push_back(Body(&semi));
    if (AcceptK("else")) n->kids.push_back(Body(&semi));
    if (semi) ExpectP(";", "after the if's statement");
    return n;
  }

  NodePtr Loop(std::string label) {
    uint32_t flags = 0;
    if (AcceptK("inline")) flags |= kFlagInline;
    if (!IsK("while") && !IsK("for"))
      Fail(Peek(),
           fmt::format("expected 'for' or 'while' after 'inline', found {}", Describe(Peek())));
    const Token k = Take();
    if (k.text == "while") {
      auto n = Make(NodeKind::kWhile, k.loc);
      n->text = std::move(label);
      n->flags = flags;
      ExpectP("(", "after 'while'");
      n->kids.push_back(Expr(true));
      ExpectP(")", "to end the while's condition");
      if (AcceptP(":")) {
        ExpectP("(", "to open the while's continue statement");
        n->kids.push_back(SimpleStatement());
        ExpectP(")", "to end the while's continue statement");
      } else {
        n->kids.push_back(nullptr);
      }
      bool semi = false;
      n->kids.push_back(Body(&semi));
      if (semi) ExpectP(";", "after the loop's statement");
      return n;
    }
    auto n = Make(NodeKind::kFor, k.loc);
    n->text = std::move(label);
    n->flags = flags;
    ExpectP("(", "after 'for'");
    n->kids.push_back(Expr(true));
    ExpectP(")", "to end what the for loop runs over");
    ExpectP("|", "to open the for loop's captures, as in |x| or |x, i|");
    n->names.push_back(ExpectIdent("a capture name"));
    if (AcceptP(",")) n->names.push_back(ExpectIdent("the index capture's name"));
    ExpectP("|", "to close the for loop's captures");
    bool semi = false;
    n->kids.push_back(Body(&semi));
    if (semi) ExpectP(";", "after the loop's statement");
    return n;
  }

  // Expressions. `init` false: `T {` after a type does not start an initializer (a function's
  // return type before its body).
  NodePtr Expr(bool init) { return Binary(1, init); }

  NodePtr Binary(int level, bool init) {
    if (level > 7) return Unary(init);
    DepthGuard g(this);
    auto lhs = Binary(level + 1, init);
    while (BinaryLevel(Peek()) == level) {
      const Token op = Take();
      auto n = Make(NodeKind::kBinary, op.loc);
      n->text = op.text;
      n->kids.push_back(std::move(lhs));
      n->kids.push_back(Binary(level + 1, init));
      if (level == 3 && BinaryLevel(Peek()) == 3)
        Fail(Peek(), "comparisons cannot be chained; use 'and' between two comparisons");
      lhs = std::move(n);
    }
    return lhs;
  }

  NodePtr Unary(bool init) {
    DepthGuard g(this);
    const Token& t = Peek();
    if (t.kind == Tok::kPunct &&
        (t.text == "-" || t.text == "!" || t.text == "~" || t.text == "&")) {
      auto n = Make(NodeKind::kUnary, t.loc);
      n->text = Take().text;
      n->kids.push_back(Unary(init));
      return n;
    }
    if (IsP("*")) {  // pointer type
      auto n = Make(NodeKind::kPtrType, Take().loc);
      if (AcceptK("const")) n->flags |= kFlagConst;
      n->kids.push_back(Unary(init));
      return n;
    }
    if (IsK("comptime")) {
      auto n = Make(NodeKind::kComptimeExpr, Take().loc);
      n->kids.push_back(Unary(init));
      return n;
    }
    return Postfix(init);
  }

  NodePtr Postfix(bool init) {
    NodePtr e = Primary(init);
    for (;;) {
      const Token& t = Peek();
      if (IsP("(")) {
        auto n = Make(NodeKind::kCall, Take().loc);
        n->kids.push_back(std::move(e));
        Args(n.get(), ")", "to end the call's arguments");
        e = std::move(n);
      } else if (IsP("[")) {
        auto n = Make(NodeKind::kIndex, Take().loc);
        n->kids.push_back(std::move(e));
        Args(n.get(), "]", "to end the index");
        if (n->kids.size() < 2) Fail(t, "an index needs a value between '[' and ']'");
        e = std::move(n);
      } else if (IsP(".*")) {
        auto n = Make(NodeKind::kDeref, Take().loc);
        n->kids.push_back(std::move(e));
        e = std::move(n);
      } else if (IsP(".") && Peek(1).kind == Tok::kIdent) {
        Take();
        auto n = Make(NodeKind::kField, Peek().loc);
        n->text = Take().text;
        n->kids.push_back(std::move(e));
        e = std::move(n);
      } else if (IsP(".")) {
        Fail(Peek(1), fmt::format("expected a field name after '.', found {}", Describe(Peek(1))));
      } else if (init && IsP("{") &&
                 (e->kind == NodeKind::kIdent || e->kind == NodeKind::kField ||
                  e->kind == NodeKind::kArrayType)) {
        auto n = Make(NodeKind::kInitList, t.loc);
        n->kids.push_back(std::move(e));
        InitItems(n.get());
        e = std::move(n);
      } else {
        return e;
      }
    }
  }

  void Args(Node* n, const char* close, const char* context) {
    while (!IsP(close)) {
      n->kids.push_back(Expr(true));
      if (!AcceptP(",")) break;
    }
    ExpectP(close, context);
  }

  // `{ .a = 1, .b = 2 }` or `{ 1, 2, 3 }` (after `.` or a type).
  void InitItems(Node* n) {
    ExpectP("{", "to open the initializer");
    while (!IsP("}")) {
      if (IsP(".") && Peek(1).kind == Tok::kIdent && IsP("=", 2)) {
        Take();
        auto f = Make(NodeKind::kFieldInit, Peek().loc);
        f->text = Take().text;
        Take();
        f->kids.push_back(Expr(true));
        n->kids.push_back(std::move(f));
      } else {
        n->kids.push_back(Expr(true));
      }
      if (!AcceptP(",")) break;
    }
    ExpectP("}", "to close the initializer (or ',' between its items)");
  }

  NodePtr Primary(bool init) {
    DepthGuard g(this);
    const Token t = Peek();
    switch (t.kind) {
      case Tok::kInt: {
        auto n = Make(NodeKind::kIntLit, t.loc);
        n->ival = Take().ival;
        return n;
      }
      case Tok::kFloat: {
        auto n = Make(NodeKind::kFloatLit, t.loc);
        n->fval = Take().fval;
        return n;
      }
      case Tok::kString: {
        auto n = Make(NodeKind::kStringLit, t.loc);
        n->text = Take().text;
        return n;
      }
      case Tok::kBuiltin: {
        Take();
        auto n = Make(NodeKind::kBuiltinCall, t.loc);
        n->text = t.text;
        ExpectP("(", fmt::format("after '@{}'", t.text).c_str());
        Args(n.get(), ")", "to end the builtin's arguments");
        return n;
      }
      case Tok::kIdent: {
        if (IsP(":", 1) && IsP("{", 2)) {  // a labeled block expression
          Take();
          Take();
          return Block(t.text);
        }
        auto n = Make(NodeKind::kIdent, t.loc);
        n->text = Take().text;
        return n;
      }
      case Tok::kKeyword:
        return KeywordPrimary(init);
      case Tok::kPunct:
        break;
      case Tok::kEof:
        Fail(t, "expected an expression, found the end of the file");
    }
    if (IsP("(")) {
      Take();
      auto e = Expr(true);
      ExpectP(")", "to close the parenthesis");
      return e;
    }
    if (IsP(".") && IsP("{", 1)) {
      auto n = Make(NodeKind::kInitList, Take().loc);
      n->kids.push_back(nullptr);
      InitItems(n.get());
      return n;
    }
    if (IsP(".") && Peek(1).kind == Tok::kIdent) {
      auto n = Make(NodeKind::kEnumLit, Take().loc);
      n->text = Take().text;
      return n;
    }
    if (IsP("[")) return ArrayOrManyPointerType(init);
    if (IsP("|")) return TensorAccess();
    if (IsP("{")) return Block("");  // a switch case's body
    Fail(t, fmt::format("expected an expression, found {}", Describe(t)));
  }

  NodePtr KeywordPrimary(bool init) {
    const Token t = Peek();
    if (t.text == "true" || t.text == "false") {
      auto n = Make(NodeKind::kBoolLit, Take().loc);
      n->ival = t.text == "true";
      return n;
    }
    if (t.text == "undefined") return Make(NodeKind::kUndefined, Take().loc);
    if (t.text == "if") {
      auto n = Make(NodeKind::kIfExpr, Take().loc);
      ExpectP("(", "after 'if'");
      n->kids.push_back(Expr(true));
      ExpectP(")", "to end the if's condition");
      n->kids.push_back(Expr(init));
      if (AcceptK("else")) n->kids.push_back(Expr(init));
      return n;
    }
    if (t.text == "switch") {
      auto n = Make(NodeKind::kSwitch, Take().loc);
      ExpectP("(", "after 'switch'");
      n->kids.push_back(Expr(true));
      ExpectP(")", "to end the switch's subject");
      ExpectP("{", "to open the switch's cases");
      while (!IsP("}")) {
        auto c = Make(NodeKind::kSwitchCase, Peek().loc);
        if (AcceptK("else")) {
          c->flags |= kFlagElse;
        } else {
          for (;;) {
            c->kids.push_back(Expr(true));
            if (!AcceptP(",") || IsP("=>")) break;
          }
        }
        ExpectP("=>", "after the case's values");
        c->kids.push_back(Expr(true));
        n->kids.push_back(std::move(c));
        if (!AcceptP(",")) break;
      }
      ExpectP("}", "to close the switch (or ',' between its cases)");
      return n;
    }
    if (t.text == "struct") {
      auto n = Make(NodeKind::kStructType, Take().loc);
      ExpectP("{", "after 'struct'");
      while (!IsP("}")) {
        auto f = Make(NodeKind::kParam, Peek().loc);
        f->text = ExpectIdent("a field name");
        ExpectP(":", "after the field's name");
        f->kids.push_back(Expr(true));
        if (AcceptP("=")) f->kids.push_back(Expr(true));
        n->kids.push_back(std::move(f));
        if (!AcceptP(",")) break;
      }
      ExpectP("}", "to close the struct (or ',' between its fields)");
      return n;
    }
    if (t.text == "enum") {
      auto n = Make(NodeKind::kEnumType, Take().loc);
      if (AcceptP("(")) {
        n->kids.push_back(Expr(true));
        ExpectP(")", "after the enum's tag type");
      } else {
        n->kids.push_back(nullptr);
      }
      ExpectP("{", "to open the enum's values");
      while (!IsP("}")) {
        auto f = Make(NodeKind::kParam, Peek().loc);
        f->text = ExpectIdent("an enum value's name");
        f->kids.push_back(nullptr);
        if (AcceptP("=")) f->kids.push_back(Expr(true));
        n->kids.push_back(std::move(f));
        if (!AcceptP(",")) break;
      }
      ExpectP("}", "to close the enum (or ',' between its values)");
      return n;
    }
    if (t.text == "fn" || t.text == "task") {  // `fn(i16) void`, `task() void`
      auto n = Make(NodeKind::kFnType, Take().loc);
      if (t.text == "task") n->flags |= kFlagTask;
      ExpectP("(", fmt::format("after '{}' in a function type", t.text).c_str());
      while (!IsP(")")) {
        if (Peek().kind == Tok::kIdent && IsP(":", 1)) {  // a named parameter: `fn(a: i16) void`
          Take();
          Take();
        }
        n->kids.push_back(Expr(true));
        if (!AcceptP(",")) break;
      }
      ExpectP(")", "to end the function type's parameters");
      n->kids.push_back(Unary(false));
      return n;
    }
    if (t.text == "comptime") {
      auto n = Make(NodeKind::kComptimeExpr, Take().loc);
      n->kids.push_back(Unary(init));
      return n;
    }
    Fail(t, fmt::format("expected an expression, found keyword '{}'", t.text));
  }

  // `[*]T`, `[*]const T` (kPtrType), `[N]T`, `[M, N]T` (kArrayType).
  NodePtr ArrayOrManyPointerType(bool init) {
    const Token open = Take();
    if (AcceptP("*")) {
      ExpectP("]", "after '[*'");
      auto n = Make(NodeKind::kPtrType, open.loc);
      n->ival = 1;
      if (AcceptK("const")) n->flags |= kFlagConst;
      n->kids.push_back(Unary(init));
      return n;
    }
    auto n = Make(NodeKind::kArrayType, open.loc);
    n->kids.push_back(nullptr);
    Args(n.get(), "]", "to end the array's dimensions");
    if (n->kids.size() < 2) Fail(open, "an array type needs a length, as in [4]f32");
    n->kids[0] = Unary(false);
    (void)init;
    return n;
  }

  // `|i|{M} -> A[i*N]`: a tensor access (a DSD's `tensor_access` field).
  NodePtr TensorAccess() {
    auto n = Make(NodeKind::kTensorAccess, Take().loc);
    do {
      n->names.push_back(ExpectIdent("an index name"));
    } while (AcceptP(","));
    ExpectP("|", "to close the tensor access's indices");
    ExpectP("{", "to open the tensor access's extents, as in |i|{M} -> A[i]");
    Args(n.get(), "}", "to close the extents");
    if (n->kids.size() != n->names.size())
      Fail(Peek(), fmt::format("the tensor access names {} indices but gives {} extents",
                               n->names.size(), n->kids.size()));
    ExpectP("->", "after the extents");
    n->kids.push_back(Expr(true));
    return n;
  }

  const Sources& src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

NodePtr ParseFile(const Sources& sources, int file) { return Parser(sources, file).File(); }

}  // namespace tessera::csl
