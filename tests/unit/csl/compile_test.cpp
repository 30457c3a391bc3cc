// The CSL compiler on whole programs written to a temporary folder: what bad programs are told
// (file:line:col, the source line and a caret), and what good ones produce (out/: the image,
// out.json, assembly whose every instruction names its CSL line).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "csl/compiler.h"

namespace tessera::csl {
namespace {

namespace fs = std::filesystem;

class CslCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("tessera_csl_{}_{}",
                       ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                       static_cast<long>(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  // A one-PE layout running pe.csl that exports `f`, and pe.csl = `pe`.
  void OnePe(const std::string& pe) {
    Write("layout.csl",
          "layout {\n  @set_rectangle(1, 1);\n  @set_tile_code(0, 0, \"pe.csl\", .{});\n"
          "  @export_name(\"f\", fn()void);\n}\n");
    Write("pe.csl", pe + "\ncomptime { @export_symbol(f); }\n");
  }
  Options Opt() {
    Options o;
    o.layout_file = (dir_ / "layout.csl").string();
    o.out_dir = (dir_ / "out").string();
    return o;
  }
  // The error of compiling, or "" when it compiles.
  std::string ErrorOf(Options o) {
    try {
      Compiler(o).Run();
    } catch (const Error& e) {
      // Paths are the temporary folder's: keep the file names only.
      std::string m = e.what();
      const std::string d = dir_.string() + "/";
      for (size_t at; (at = m.find(d)) != std::string::npos;) m.erase(at, d.size());
      return m;
    }
    return "";
  }
  std::string ErrorOf() { return ErrorOf(Opt()); }
  std::string Read(const std::string& name) {
    std::ifstream in(dir_ / name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  fs::path dir_;
};

TEST_F(CslCompile, AGoodProgramWritesTheImageJsonAndAssemblyWithCslLines) {
  OnePe(
      "var y: [4]f32;\nconst y_ptr: [*]f32 = &y;\nfn f() void {\n  y[1] = 2.5;\n}\n"
      "comptime { @export_symbol(y_ptr, \"y\"); }");
  Write("layout.csl",
        "layout {\n  @set_rectangle(1, 1);\n  @set_tile_code(0, 0, \"pe.csl\", .{});\n"
        "  @export_name(\"f\", fn()void);\n  @export_name(\"y\", [*]f32, false);\n}\n");
  ASSERT_EQ(ErrorOf(), "");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "out.timg"));
  const std::string json = Read("out/out.json");
  EXPECT_NE(json.find("\"functions\": {\"f\": 0}"), std::string::npos) << json;
  EXPECT_NE(json.find("{\"name\": \"y\", \"symbol\": \"y\", \"type\": \"f32\", \"count\": 4}"),
            std::string::npos)
      << json;
  const std::string s = Read("out/pe_0.s");
  EXPECT_NE(s.find(".loc    \"" + (dir_ / "pe.csl").string() + "\", 4\n        li"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find(".task   __launch, local, 30"), std::string::npos) << s;
}

TEST_F(CslCompile, TypeErrorsPointAtTheValue) {
  OnePe("var a: [10]i16;\nfn f() void { var x: i32 = 3; a[0] = x; }");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:2:38: error: the assigned value must be i16, found i32 (convert with @as)\n"
            "  fn f() void { var x: i32 = 3; a[0] = x; }\n"
            "                                       ^");
  OnePe("fn f() void { var x: i16 = 1; var y: i32 = 2; _ = x + y; }");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:1:53: error: the operands of '+' have different types, i16 and i32; convert "
            "one with @as\n"
            "  fn f() void { var x: i16 = 1; var y: i32 = 2; _ = x + y; }\n"
            "                                                      ^");
  OnePe("var u: u16 = 70000;\nfn f() void { u = 1; }");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:1:14: error: the initial value of 'u' (globals are initialized at compile "
            "time): 70000 does not fit in u16\n"
            "  var u: u16 = 70000;\n"
            "               ^");
}

TEST_F(CslCompile, UnknownNamesBuiltinsAndModules) {
  OnePe("fn f() void { @foo(3); }");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:1:15: error: unknown builtin '@foo' (or one Tessera's cslc does not implement "
            "yet; see docs/csl.md)\n"
            "  fn f() void { @foo(3); }\n"
            "                ^");
  OnePe("const m = @import_module(\"nothere.csl\");\nfn f() void {}");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:1:11: error: cannot find module 'nothere.csl' (looked for nothere.csl)\n"
            "  const m = @import_module(\"nothere.csl\");\n"
            "            ^");
  OnePe("const m = @import_module(\"<collectives_2d>\");\nfn f() void {}");
  EXPECT_NE(ErrorOf().find("unknown library <collectives_2d>"), std::string::npos);
  OnePe("fn f() void { y = 1; }");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:1:15: error: no variable, constant or function named 'y' here\n"
            "  fn f() void { y = 1; }\n"
            "                ^");
}

TEST_F(CslCompile, ColorsTaskIdsAndQueuesOutOfRange) {
  OnePe("const c = @get_color(24);\nfn f() void { @block(c); }");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:1:22: error: color 24 is out of range (0..23 are routable)\n"
            "  const c = @get_color(24);\n"
            "                       ^");
  OnePe(
      "task t() void {}\nfn f() void {}\ncomptime { @bind_local_task(t, @get_local_task_id(31)); "
      "}");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:3:51: error: task ID 31 is out of range (0..30)\n"
            "  comptime { @bind_local_task(t, @get_local_task_id(31)); }\n"
            "                                                    ^");
  OnePe("const q = @get_output_queue(6);\nfn f() void { _ = q; }");
  EXPECT_NE(ErrorOf().find("output queue 6 is out of range (0..5)"), std::string::npos);
}

TEST_F(CslCompile, AProgramThatDoesNotFitSaysByHowMuch) {
  OnePe("var a: [13000]f32;\nfn f() void { a[0] = 1.0; }");
  EXPECT_EQ(ErrorOf(),
            "layout.csl:3:3: error: the program pe.csl does not fit in a PE's 48 KiB of SRAM: it "
            "needs 52000 bytes, 2848 too many (its "
            "variables take 52000 bytes, the largest 'a' 52000)\n"
            "    @set_tile_code(0, 0, \"pe.csl\", .{});\n"
            "    ^");
}

TEST_F(CslCompile, RecursionIsRefused) {
  OnePe("fn g(n: i16) i16 { if (n == 0) return 0; return g(n - 1); }\nfn f() void { _ = g(3); }");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:1:50: error: recursion (g -> g): functions here have static frames; write it "
            "as a loop\n"
            "  fn g(n: i16) i16 { if (n == 0) return 0; return g(n - 1); }\n"
            "                                                   ^");
}

TEST_F(CslCompile, RunawayCompileTimeWorkIsAnErrorNotACrashOrAHang) {
  OnePe("fn down(n: i16) i16 { return down(n + 1); }\nconst x = down(0);\nfn f() void { _ = x; }");
  EXPECT_NE(ErrorOf().find("compile-time calls nested deeper than 500"), std::string::npos);
  OnePe(
      "fn spin() i16 { var i: i16 = 0; while (true) { i = 1; } return i; }\n"
      "const x = spin();\nfn f() void { _ = x; }");
  EXPECT_NE(ErrorOf().find("compile-time loop ran more than"), std::string::npos);
  Write("loop.csl", "const again = @import_module(\"loop.csl\");\n");
  OnePe("const m = @import_module(\"loop.csl\");\nfn f() void {}");
  EXPECT_NE(ErrorOf().find("modules imported 65 deep (does a module import itself?)"),
            std::string::npos);
}

// What real SDK programs do with DSDs (residual, bandwidth-test, fft): an operation on a queue
// this PE never bound compiles to a trap (it sits in a branch the PE does not take); an async
// operation on a `var` fabin takes its queue's microthread from the initializer; strides set
// at run time read and rewrite the descriptor's upper word.
TEST_F(CslCompile, DsdsKnownOnlyAtRunTime) {
  OnePe(
      "var buf: [4]u32;\n"
      "var on: i16 = 0;\n"
      "const t = @get_local_task_id(9);\n"
      "task done() void {}\n"
      "const unbound = @get_dsd(fabin_dsd, .{ .extent = 4, .input_queue = "
      "@get_input_queue(6) });\n"
      "var bound = @get_dsd(fabin_dsd, .{ .extent = 4, .input_queue = @get_input_queue(3) });\n"
      "const mem = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{4} -> buf[i] });\n"
      "fn f() void {\n"
      "  if (on == 1) { @mov32(mem, unbound, .{ .async = true, .activate = t }); }\n"
      "  @mov32(mem, bound, .{ .async = true, .activate = t });\n"
      "  var s: i16 = 2;\n"
      "  @mov32(mem, @set_dsd_stride(mem, s));\n"
      "}\n"
      "comptime {\n  @bind_local_task(done, t);\n"
      "  @initialize_queue(@get_input_queue(3), .{ .color = @get_color(4) });\n}");
  ASSERT_EQ(ErrorOf(), "");
  const std::string s = Read("out/pe_0.s");
  EXPECT_NE(s.find("trap    2"), std::string::npos) << s;
  EXPECT_NE(s.find(", ut3 activate"), std::string::npos) << s;
  EXPECT_NE(s.find("drd     r"), std::string::npos) << s;
  EXPECT_NE(s.find("dwr     d"), std::string::npos) << s;
}

// @map over a DSD var reads its initializer, so a program that assigns the var is refused;
// @get_dsr names the SDK's three register files only.
TEST_F(CslCompile, MapOverAnAssignedDsdVarAndBadDsrs) {
  OnePe(
      "var buf: [4]f32;\n"
      "var d = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{4} -> buf[i] });\n"
      "fn g(x: f32) void { buf[0] = x; }\n"
      "fn f() void {\n  @map(g, d);\n  d = @set_dsd_length(d, 2);\n}");
  EXPECT_NE(ErrorOf().find("pe.csl:5:11: error: @map took 'd' as its initializer, but the "
                           "program assigns it at run time"),
            std::string::npos)
      << ErrorOf();
  OnePe("const r = @get_dsr(dsr_other, 0);\nfn f() void { _ = r; }");
  EXPECT_NE(ErrorOf().find("@get_dsr's first argument is dsr_dest, dsr_src0 or dsr_src1"),
            std::string::npos)
      << ErrorOf();
}

TEST_F(CslCompile, CommandLineParamsAndExports) {
  OnePe("fn f() void {}");
  Options o = Opt();
  o.params = {{"M", "4"}};
  EXPECT_EQ(ErrorOf(o), "cslc: --params: layout.csl has no param 'M'");
  Write("layout.csl", "param M: i16;\nlayout {\n  @set_rectangle(M, 1);\n}\n");
  EXPECT_EQ(ErrorOf(),
            "layout.csl:1:7: error: param 'M' is not given a value (--params=M:VALUE)\n"
            "  param M: i16;\n"
            "        ^");
  o.params = {{"M", "x4"}};
  EXPECT_EQ(ErrorOf(o), "cslc: --params: the value of 'M' must be an integer, found 'x4'");
  // An export the layout does not name.
  Write("layout.csl",
        "layout {\n  @set_rectangle(1, 1);\n  @set_tile_code(0, 0, \"pe.csl\", .{});\n}\n");
  EXPECT_EQ(ErrorOf(),
            "pe.csl:2:12: error: 'f' is exported by the PE code but the layout has no "
            "@export_name(\"f\", ...)\n"
            "  comptime { @export_symbol(f); }\n"
            "             ^");
  // A PE of the rectangle without code.
  Write("layout.csl",
        "layout {\n  @set_rectangle(2, 1);\n  @set_tile_code(0, 0, \"pe.csl\", .{});\n}\n");
  EXPECT_NE(ErrorOf().find("PE(1, 0) of the 2x1 rectangle has no code"), std::string::npos);
}

TEST_F(CslCompile, TheFabricMustHoldTheProgramAndMemcpy) {
  OnePe("fn f() void {}");
  Options o = Opt();
  o.memcpy = true;
  o.fabric_w = 7;
  o.fabric_h = 3;
  EXPECT_EQ(ErrorOf(o),
            "cslc: --fabric-dims=7,3 is too small for the 1x1 program at offset 4,1: it needs at "
            "least 8,3");
}

TEST_F(CslCompile, RectangleTuplesCounterFiltersAndQueueColors) {
  // @get_rectangle in a PE file; a tuple's element by a known index, and one out of range.
  OnePe(
      "const t = .{ 4, 9 };\nvar w: u16 = 0;\n"
      "fn f() void { w = @get_rectangle().width + t[1]; }");
  ASSERT_EQ(ErrorOf(), "");
  EXPECT_NE(Read("out/pe_0.s").find("li      r1, 0xa"), std::string::npos) << Read("out/pe_0.s");
  OnePe("const t = .{ 4, 9 };\nvar w: u16 = 0;\nfn f() void { w = t[2]; }");
  EXPECT_NE(ErrorOf().find("pe.csl:3:21: error: index 2 is out of range"), std::string::npos)
      << ErrorOf();
  // A counter filter becomes the route's counter= and count=; a field of the other kind is
  // refused.
  OnePe(
      "fn f() void {}\ncomptime {\n"
      "  @set_local_color_config(@get_color(3), .{ .routes = .{ .rx = .{WEST}, .tx = .{RAMP} },\n"
      "    .filter = .{ .kind = .{ .counter = true }, .count_data = true, .count_control = true,\n"
      "                 .init_counter = 2, .max_counter = 1, .limit1 = 14 } });\n}");
  ASSERT_EQ(ErrorOf(), "");
  EXPECT_NE(Read("out/out.tlayout").find("filter=0..1 counter=2..14 count=data,ctrl"),
            std::string::npos)
      << Read("out/out.tlayout");
  OnePe(
      "fn f() void {}\ncomptime {\n"
      "  @set_local_color_config(@get_color(3), .{ .routes = .{ .rx = .{WEST}, .tx = .{RAMP} },\n"
      "    .filter = .{ .kind = .{ .counter = true }, .min_idx = 1, .max_counter = 1,\n"
      "                 .init_counter = 0, .limit1 = 3 } });\n}");
  EXPECT_NE(ErrorOf().find(".filter.min_idx is not a counter filter's"), std::string::npos)
      << ErrorOf();
  // A queue's color from the table, in a file that imports <tile_config>; without it, refused.
  OnePe(
      "const tc = @import_module(\"<tile_config>\");\n"
      "const in = @get_dsd(fabin_dsd, .{ .extent = 2, .input_queue = @get_input_queue(2) });\n"
      "var b = @zeros([2]u32);\n"
      "const m = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{2} -> b[i] });\n"
      "fn f() void { tc.input_queue_config.encode_input_queue(2, 7, true); @mov32(m, in); }\n"
      "comptime {\n  @initialize_queue(@get_input_queue(2), .{ .color = @get_color(5) });\n"
      "  @set_local_color_config(@get_color(5), .{ .routes = .{ .rx = .{WEST}, .tx = .{RAMP} } "
      "});\n}");
  ASSERT_EQ(ErrorOf(), "");
  const std::string s = Read("out/pe_0.s");
  EXPECT_NE(s.find("__queue_colors+8"), std::string::npos) << s;  // the store and the load
  EXPECT_NE(s.find("__queue_colors:\n        .word   0\n        .word   0\n        .word   5"),
            std::string::npos)
      << s;
  OnePe(
      "const tc = @import_module(\"<tile_config>\");\n"
      "fn f() void { tc.output_queue_config.encode_output_queue(8, 3); }");
  EXPECT_NE(ErrorOf().find("encode_output_queue takes a queue number 0..7"), std::string::npos)
      << ErrorOf();
}

TEST_F(CslCompile, ControlWaveletsAndSwitches) {
  // The payload: task << 16 | data; {} is no task (31); IDs above 29 map onto 29, 28, ...
  OnePe(
      "const ctrl = @import_module(\"<control>\");\nvar w: [3]u32;\n"
      "fn f() void {\n"
      "  w[0] = ctrl.encode_single_payload(ctrl.opcode.SWITCH_ADV, false, "
      "@get_control_task_id(40), 7);\n"
      "  w[1] = ctrl.encode_single_payload(ctrl.opcode.SWITCH_ADV, true, {}, 5);\n"
      "  w[2] = @as(u32, @get_control_task_id(41)) + @as(u32, @get_control_task_id(12));\n}");
  ASSERT_EQ(ErrorOf(), "");
  const std::string s = Read("out/pe_0.s");
  EXPECT_NE(s.find("0x1d0007"), std::string::npos) << s;          // task 29, data 7
  EXPECT_NE(s.find("0x1f0005"), std::string::npos) << s;          // no task, data 5
  EXPECT_NE(s.find("li      r1, 0x28"), std::string::npos) << s;  // 28 + 12
  // A filtered wavelet runs no task, so it names none.
  OnePe(
      "const ctrl = @import_module(\"<control>\");\nvar w: u32 = 0;\n"
      "fn f() void { w = ctrl.encode_single_payload(ctrl.opcode.SWITCH_ADV, true, "
      "@get_control_task_id(3), 0); }");
  EXPECT_NE(ErrorOf().find("pe.csl:3:76: error: a control wavelet filtered from the CE (second "
                           "argument true) runs no task: pass {} as the entry point"),
            std::string::npos)
      << ErrorOf();
  OnePe("fn f() void { _ = @get_control_task_id(64); }");
  EXPECT_NE(ErrorOf().find("control task ID 64 is out of range (0..63)"), std::string::npos)
      << ErrorOf();
  // Switch positions name one side each.
  Write("layout.csl",
        "layout {\n  @set_rectangle(1, 1);\n  @set_tile_code(0, 0, \"pe.csl\", .{});\n"
        "  @set_color_config(0, 0, @get_color(2), .{ .routes = .{ .rx = .{RAMP}, .tx = .{EAST} },\n"
        "    .switches = .{ .pos1 = .{ .tx = WEST, .rx = EAST } } });\n"
        "  @export_name(\"f\", fn()void);\n}\n");
  Write("pe.csl", "fn f() void {}\ncomptime { @export_symbol(f); }\n");
  EXPECT_NE(ErrorOf().find(".switches.pos1 takes one of .rx = DIR or .tx = DIR"), std::string::npos)
      << ErrorOf();
  Write("layout.csl",
        "layout {\n  @set_rectangle(1, 1);\n  @set_tile_code(0, 0, \"pe.csl\", .{});\n"
        "  @set_color_config(0, 0, @get_color(2), .{ .routes = .{ .rx = .{RAMP}, .tx = .{EAST} },\n"
        "    .switches = .{ .pos1 = .{ .tx = WEST }, .current_switch_pos = 1, .ring_mode = true } "
        "});\n  @export_name(\"f\", fn()void);\n}\n");
  ASSERT_EQ(ErrorOf(), "");
  EXPECT_NE(Read("out/out.tlayout").find("rx=RAMP tx=E pos1=tx:W ring start=1"), std::string::npos)
      << Read("out/out.tlayout");
}

TEST_F(CslCompile, MapChecksItsArguments) {
  const std::string head =
      "var a: [4]f32;\nvar b: [3]f32;\n"
      "const da = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{4} -> a[i] });\n"
      "const db = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{3} -> b[i] });\n"
      "fn twice(v: f32) f32 { return 2.0 * v; }\n";
  OnePe(head + "fn f() void { @map(twice, da, db); }");
  EXPECT_NE(ErrorOf().find("pe.csl:6:31: error: @map's DSDs must have one length: this one has 3, "
                           "the one at column 27 has 4"),
            std::string::npos)
      << ErrorOf();
  OnePe(head + "fn f() void { @map(twice, da, 1.0, da); }");
  EXPECT_NE(ErrorOf().find("'twice' takes 1 arguments and @map passes it 2"), std::string::npos)
      << ErrorOf();
  OnePe(head + "fn f() void { @map(twice, da, 1.0); }");
  EXPECT_NE(ErrorOf().find("@map's last argument is where the results go: a DSD or a pointer, "
                           "found comptime_float"),
            std::string::npos)
      << ErrorOf();
  OnePe(head + "fn f() void { @map(3, da, da); }");
  EXPECT_NE(ErrorOf().find("@map's first argument must be a function"), std::string::npos)
      << ErrorOf();
  OnePe(head + "fn f() void { @map(twice, da, da); }");
  EXPECT_EQ(ErrorOf(), "");
}

TEST_F(CslCompile, FifosAndTheirErrors) {
  const std::string head =
      "var a: [4]f32;\nvar b: [6]f32;\nvar m: [2, 2]f32;\n"
      "const da = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{4} -> a[i] });\n";
  OnePe(head +
        "const q = @allocate_fifo(b);\nconst r = @allocate_fifo(a);\n"
        "fn f() void { @fmovs(q, da, .{ .async = true }); @fnegs(da, q, .{ .async = true }); }");
  EXPECT_EQ(ErrorOf(), "");
  const std::string s = Read("out/pe_0.s");
  EXPECT_NE(s.find(", fifo, f32, base=b+0, len=6, fifo=0"), std::string::npos) << s;
  EXPECT_NE(s.find(", ut7 async"), std::string::npos) << s;  // pushes FIFO 0
  EXPECT_NE(s.find(", ut3 async"), std::string::npos) << s;  // pops FIFO 0
  const std::string use = "\nfn f() void { @fmovs(q, da); }";
  OnePe(head + "const q = @allocate_fifo(m);" + use);
  EXPECT_NE(ErrorOf().find("@allocate_fifo takes a global one-dimensional array"),
            std::string::npos)
      << ErrorOf();
  OnePe(head + "const q = @allocate_fifo(b, .{ .activate_push = 3 });" + use);
  EXPECT_NE(ErrorOf().find(".activate_push and .activate_pop are not supported"), std::string::npos)
      << ErrorOf();
  std::string nine = head;
  for (int k = 0; k < 9; ++k)
    nine += "var f" + std::to_string(k) + ": [2]u32;\nconst q" + std::to_string(k) +
            " = @allocate_fifo(f" + std::to_string(k) + ");\n";
  nine += "fn f() void {";
  for (int k = 0; k < 8; ++k)
    nine += " @mov32(q" + std::to_string(k + 1) + ", q" + std::to_string(k) + ");";
  nine += " }";
  OnePe(nine);
  EXPECT_NE(ErrorOf().find("a PE has 8 FIFOs; this is one more"), std::string::npos) << ErrorOf();
  OnePe(head +
        "const q = @allocate_fifo(b);\n"
        "fn f() void { @increment_dsd_offset(q, 1, f32); }");
  EXPECT_NE(ErrorOf().find("@increment_dsd_offset does not take a FIFO"), std::string::npos)
      << ErrorOf();
}

TEST_F(CslCompile, LibrariesWrittenInCsl) {
  OnePe(
      "const r = @import_module(\"<random>\");\nvar v: u32 = 0;\n"
      "fn f() void { v = r.random_u32(); }");
  EXPECT_EQ(ErrorOf(), "");
  OnePe("const m = @import_module(\"<nosuch>\");\nfn f() void {}");
  EXPECT_NE(ErrorOf().find("unknown library <nosuch> (Tessera's cslc has <memcpy/get_params>, "
                           "<memcpy/memcpy>, <layout>, <simprint>, <control>, <tile_config>, "
                           "<collectives_2d/params>, <collectives_2d/pe>, <debug>, <math>, "
                           "<random> and <time>)"),
            std::string::npos)
      << ErrorOf();
  // Two traces with one key could not be told apart by read_trace.
  OnePe(
      "const a = @import_module(\"<debug>\", .{ .key = \"k\" });\n"
      "const b = @import_module(\"<debug>\", .{ .key = \"k\" });\n"
      "fn f() void { a.trace_u32(1); b.trace_u32(2); }");
  EXPECT_NE(ErrorOf().find("two <debug> modules of this program have the key \"k\""),
            std::string::npos)
      << ErrorOf();
}

TEST_F(CslCompile, SmallConstantOperandsUseTheImmediateForms) {
  // `x |= 1` and `x &= 6` assemble as ori and andi (a misspelt mnemonic once broke them).
  OnePe("var x: u32 = 8;\nfn f() void { x |= 0x1; x &= 6; }");
  ASSERT_EQ(ErrorOf(), "");
  const std::string s = Read("out/pe_0.s");
  EXPECT_NE(s.find("ori     r"), std::string::npos) << s;
  EXPECT_NE(s.find("andi    r"), std::string::npos) << s;
}

}  // namespace
}  // namespace tessera::csl
