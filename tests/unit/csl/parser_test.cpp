// The CSL lexer and parser: what each construct of the language parses to (as an S-expression,
// csl::Dump), and the messages bad input gets, with file:line:column and a caret.
#include "csl/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "csl/ast.h"
#include "csl/lexer.h"

namespace tessera::csl {
namespace {

std::string Parse(const std::string& text) {
  Sources s;
  const int f = s.Add("t.csl", text);
  return Dump(*ParseFile(s, f));
}

// The error message for `text`, or "" if it parses.
std::string ErrorOf(const std::string& text) {
  Sources s;
  const int f = s.Add("t.csl", text);
  try {
    ParseFile(s, f);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(CslLexer, LiteralsAndComments) {
  Sources s;
  const int f = s.Add("t.csl", "0x1F 0b101 1_000 2.5e3 'a' '\\x0a' \"a\\nb\" // gone\n@get_dsd .*");
  const std::vector<Token> t = Lex(s, f);
  ASSERT_EQ(t.size(), 10u);
  EXPECT_EQ(t[0].ival, 31);
  EXPECT_EQ(t[1].ival, 5);
  EXPECT_EQ(t[2].ival, 1000);
  EXPECT_EQ(t[3].kind, Tok::kFloat);
  EXPECT_DOUBLE_EQ(t[3].fval, 2500.0);
  EXPECT_EQ(t[4].ival, 'a');
  EXPECT_EQ(t[5].ival, 10);
  EXPECT_EQ(t[6].text, "a\nb");
  EXPECT_EQ(t[7].kind, Tok::kBuiltin);
  EXPECT_EQ(t[7].text, "get_dsd");
  EXPECT_EQ(t[8].text, ".*");
  EXPECT_EQ(t[9].kind, Tok::kEof);
  EXPECT_EQ(s.file(f).Line(t[7].loc.offset), 2);
}

TEST(CslParser, Declarations) {
  EXPECT_EQ(Parse("param memcpy_params;"), "(file (decl memcpy_params :param _ _ _ _))");
  EXPECT_EQ(Parse("const M: i16 = 4;"), "(file (decl M :const (ident i16) (int 4) _ _))");
  EXPECT_EQ(Parse("var A: [M*N]f32;"),
            "(file (decl A :var (arraytype (ident f32) (binary * (ident M) (ident N))) _ _ _))");
  EXPECT_EQ(Parse("const y_ptr: [*]f32 = &y;"),
            "(file (decl y_ptr :const (ptrtype [*] (ident f32)) (unary & (ident y)) _ _))");
  EXPECT_EQ(Parse("export var g: i16 align(4) = 0;"),
            "(file (decl g :var :export (ident i16) (int 0) (int 4) _))");
  EXPECT_EQ(Parse("var p: *const [2]i16 = &a;"),
            "(file (decl p :var (ptrtype * :const (arraytype (ident i16) (int 2))) "
            "(unary & (ident a)) _ _))");
}

TEST(CslParser, FunctionsTasksAndStatements) {
  EXPECT_EQ(Parse("fn f(a: i16, comptime T: type) void { var i: i16 = 0; while (i < a) : (i += 1) "
                  "{ x[i] = 1.0; } return; }"),
            "(file (fn f (param a (ident i16)) (param T :ct (ident type)) (ident void) (block "
            "(decl i :var (ident i16) (int 0) _ _) (while (binary < (ident i) (ident a)) "
            "(assign += (ident i) (int 1)) (block (assign = (index (ident x) (ident i)) "
            "(float 1)))) (return))))");
  EXPECT_EQ(Parse("task t(v: f32) void { if (v > 0.0) y += v else y = 0.0; }"),
            "(file (fn t :task (param v (ident f32)) (ident void) (block (if (binary > (ident v) "
            "(float 0)) (assign += (ident y) (ident v)) (assign = (ident y) (float 0))))))");
  EXPECT_EQ(
      Parse("fn g() void { for (@range(i16, 3)) |i| s += i; outer: while (true) { break "
            ":outer; } }"),
      "(file (fn g (ident void) (block (for |i| (builtin range (ident i16) (int 3)) "
      "(assign += (ident s) (ident i))) (while outer (bool true) _ (block (break outer))))))");
  EXPECT_EQ(Parse("extern fn h(f16, x: f16) f16;"),
            "(file (fn h :extern (param (ident f16)) (param x (ident f16)) (ident f16) _))");
  EXPECT_EQ(Parse("comptime { @bind_local_task(t, @get_local_task_id(9)); }"),
            "(file (comptimeblock (block (expr (builtin bind_local_task (ident t) (builtin "
            "get_local_task_id (int 9)))))))");
}

TEST(CslParser, Expressions) {
  // Zig's precedence: & ^ | bind tighter than comparisons, and all three share one level.
  EXPECT_EQ(Parse("const a = x & 1 == 0 or b and c;"),
            "(file (decl a :const _ (binary or (binary == (binary & (ident x) (int 1)) (int 0)) "
            "(binary and (ident b) (ident c))) _ _))");
  EXPECT_EQ(Parse("const a = 1 + 2 * 3 << 1;"),
            "(file (decl a :const _ (binary << (binary + (int 1) (binary * (int 2) (int 3))) "
            "(int 1)) _ _))");
  EXPECT_EQ(Parse("const d = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{M} -> A[i*N], });"),
            "(file (decl d :const _ (builtin get_dsd (ident mem1d_dsd) (init _ (fieldinit "
            "tensor_access (tensor |i| (ident M) (index (ident A) (binary * (ident i) (ident "
            "N))))))) _ _))");
  EXPECT_EQ(Parse("const c = .{ .routes = .{ .rx = .{WEST}, .tx = .{RAMP, EAST} } };"),
            "(file (decl c :const _ (init _ (fieldinit routes (init _ (fieldinit rx (init _ "
            "(ident WEST))) (fieldinit tx (init _ (ident RAMP) (ident EAST)))))) _ _))");
  EXPECT_EQ(Parse("var d = [3]i16 { 1, 2, 3 };"),
            "(file (decl d :var _ (init (arraytype (ident i16) (int 3)) (int 1) (int 2) (int 3)) "
            "_ _))");
  EXPECT_EQ(Parse("const id = if (@is_arch(\"wse2\")) 1 else if (@is_arch(\"wse3\")) 2;"),
            "(file (decl id :const _ (ifexpr (builtin is_arch (string \"wse2\")) (int 1) "
            "(ifexpr (builtin is_arch (string \"wse3\")) (int 2))) _ _))");
  EXPECT_EQ(Parse("fn f() void { (p.*)[0] += 1; p.*[1] = -x; }"),
            "(file (fn f (ident void) (block (assign += (index (deref (ident p)) (int 0)) (int "
            "1)) (assign = (index (deref (ident p)) (int 1)) (unary - (ident x))))))");
  EXPECT_EQ(Parse("const T = fn(i16)void; const S = struct { x: i16, y: f32 = 1.0 };"),
            "(file (decl T :const _ (fntype (ident i16) (ident void)) _ _) (decl S :const _ "
            "(struct (param x (ident i16)) (param y (ident f32) (float 1))) _ _))");
  EXPECT_EQ(Parse("const v = switch (x) { 1, 2 => 10, else => 20 };"),
            "(file (decl v :const _ (switch (ident x) (case (int 1) (int 2) (int 10)) (case "
            ":else (int 20))) _ _))");
  EXPECT_EQ(Parse("const v = blk: { break :blk 3; };"),
            "(file (decl v :const _ (block blk (break blk (int 3))) _ _))");
}

TEST(CslParser, LayoutBlock) {
  EXPECT_EQ(Parse("layout { @set_rectangle(2, 1); for (@range(i16, 2)) |x| { @set_tile_code(x, "
                  "0, \"pe.csl\", .{ .w = 2 }); } }"),
            "(file (layout (block (expr (builtin set_rectangle (int 2) (int 1))) (for |x| "
            "(builtin range (ident i16) (int 2)) (block (expr (builtin set_tile_code (ident x) "
            "(int 0) (string \"pe.csl\") (init _ (fieldinit w (int 2))))))))))");
}

TEST(CslParser, ErrorsNameTheLineAndPointAtIt) {
  EXPECT_EQ(ErrorOf("const M: i16 = 4;\nvar x: f32 = M +;\n"),
            "t.csl:2:17: error: expected an expression, found ';'\n  var x: f32 = M +;\n"
            "                  ^");
  EXPECT_EQ(ErrorOf("fn f() void {\n  x = 1\n}\n"),
            "t.csl:3:1: error: expected ';' after a statement, found '}'\n  }\n  ^");
  EXPECT_EQ(ErrorOf("fn f() void {\n  x = 1;\n"),
            "t.csl:3:1: error: the block opened here is not closed\n  \n  ^");
  EXPECT_EQ(ErrorOf("const c = a < b < c;"),
            "t.csl:1:17: error: comparisons cannot be chained; use 'and' between two "
            "comparisons\n  const c = a < b < c;\n                  ^");
  EXPECT_EQ(ErrorOf("const s = \"abc;\n"),
            "t.csl:1:11: error: string literal is not closed on its line\n  const s = \"abc;\n"
            "            ^");
  EXPECT_EQ(ErrorOf("var x = 3 # 4;"),
            "t.csl:1:11: error: unexpected character '#'\n  var x = 3 # 4;\n            ^");
  EXPECT_EQ(ErrorOf("const x;"),
            "t.csl:1:8: error: const 'x' needs a value ('= ...')\n  const x;\n         ^");
  EXPECT_EQ(ErrorOf("fn var() void {}"),
            "t.csl:1:4: error: expected the function's name, found keyword 'var' (a keyword "
            "cannot be a name)\n  fn var() void {}\n     ^");
  EXPECT_EQ(ErrorOf("const x = 99999999999999999999;"),
            "t.csl:1:11: error: integer literal does not fit in 64 bits\n  const x = "
            "99999999999999999999;\n            ^");
  // Deep nesting is refused, not a stack overflow.
  EXPECT_NE(ErrorOf("const x = " + std::string(5000, '(') + "1;").find("nesting deeper"),
            std::string::npos);
}

}  // namespace
}  // namespace tessera::csl
