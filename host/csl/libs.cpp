#include "csl/libs.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "arch/arch.h"
#include "csl/compiler.h"

namespace tessera::csl {
namespace {

constexpr uint32_t kDebugChar = 0xC054;  // DebugPort[5]: character records (docs/isa.md 2.6)
constexpr int64_t kSwitchAdv = 1;        // <control>'s opcode: advance the switch

const char* const kStreamNames[] = {"MEMCPYH2D_1", "MEMCPYH2D_2", "MEMCPYH2D_3", "MEMCPYH2D_4",
                                    "MEMCPYD2H_1", "MEMCPYD2H_2", "MEMCPYD2H_3", "MEMCPYD2H_4"};

bool IsStreamName(const std::string& n) {
  for (const char* s : kStreamNames)
    if (n == s) return true;
  return false;
}

Value NativeFn(ModuleInst* m, const std::string& name) {
  Value v;
  v.k = Value::K::kFn;
  v.s = name;
  v.mod = m;
  v.type = types::Fn({}, types::Void(), false);
  return v;
}

void CheckArgs(Sema& s, const Node* call, const std::string& name,
               const std::vector<const Node*>& args, size_t n) {
  if (args.size() != n)
    s.Fail(call, fmt::format("{} takes {} argument{}, found {}", name, n, n == 1 ? "" : "s",
                             args.size()));
}

}  // namespace

std::string LibraryDir() {
  if (const char* d = std::getenv("TESSERA_CSL_LIB")) return d;
  return TESSERA_CSL_LIB_DIR;
}

std::string LibraryNames() {
  std::vector<std::string> names = {"<memcpy/get_params>", "<memcpy/memcpy>", "<layout>",
                                    "<simprint>",          "<control>",       "<tile_config>"};
  const size_t native = names.size();
  // Every .csl file under the folder, by its path without the extension (<collectives_2d/pe>).
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(LibraryDir(), ec))
    if (e.path().extension() == ".csl")
      names.push_back(
          "<" + fs::relative(e.path(), LibraryDir(), ec).replace_extension().generic_string() +
          ">");
  std::sort(names.begin() + static_cast<std::ptrdiff_t>(native), names.end());
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

bool IsLibrary(const std::string& path) {
  return path == "<memcpy/get_params>" || path == "<memcpy/memcpy>" || path == "<layout>" ||
         path == "<simprint>" || path == "<control>" || path == "<tile_config>" ||
         path == "<tile_config/input_queue_config>" || path == "<tile_config/output_queue_config>";
}

Value LibMember(Sema& s, ModuleInst* m, const std::string& name, const Node* at) {
  const std::string& lib = m->native;
  if (lib == "<memcpy/get_params>") {
    if (name == "get_params") return NativeFn(m, name);
    if (const Value* f = m->binding.Field(name)) return *f;
  } else if (lib == "<memcpy/memcpy>") {
    if (name == "unblock_cmd_stream" || name == "get_streaming_fabout_dsd")
      return NativeFn(m, name);
    if (IsStreamName(name)) {
      const Value* f = m->binding.Field(name);
      if (f && f->k != Value::K::kVoid) return *f;
      s.Fail(at, fmt::format("memcpy stream {} was not given to <memcpy/get_params> in the layout "
                             "(.{} = ...)",
                             name, name));
    }
  } else if (lib == "<control>") {
    // Control wavelets (docs/csl.md, "Control wavelets"): Tessera's routers advance a color's
    // switch on every control wavelet, and its payload is task << 16 | data (task 31: none).
    if (name == "encode_single_payload" || name == "encode_control_task_payload")
      return NativeFn(m, name);
    if (name == "opcode") {
      Value v;
      v.k = Value::K::kAgg;
      v.type = types::CStruct();
      v.names = {"SWITCH_ADV"};
      v.elems = {Value::CInt(kSwitchAdv)};
      return v;
    }
  } else if (lib == "<layout>") {
    if (name == "get_x_coord" || name == "get_y_coord") return NativeFn(m, name);
  } else if (lib == "<tile_config>") {
    // Run-time queue colors (docs/csl.md, "<tile_config>"). queue_flush is WSE-3's: Tessera's
    // output queues hold no wavelets of their own to flush.
    if (name == "input_queue_config" || name == "output_queue_config") {
      Value v;
      v.k = Value::K::kModule;
      v.type = types::Module();
      v.mod =
          s.compiler().Import("<tile_config/" + name + ">", at->loc, Value::Void(), m->program, m);
      return v;
    }
  } else if (lib == "<tile_config/input_queue_config>") {
    if (name == "encode_input_queue") return NativeFn(m, name);
  } else if (lib == "<tile_config/output_queue_config>") {
    if (name == "encode_output_queue") return NativeFn(m, name);
  } else if (lib == "<simprint>") {
    if (name == "print_string" || name == "print_u16_decimal" || name == "print_u32_decimal" ||
        name == "print_u16_hex" || name == "print_u32_hex" || name == "print_i16_decimal" ||
        name == "print_i32_decimal")
      return NativeFn(m, name);
  }
  s.Fail(at,
         fmt::format("library {} has no member '{}' (Tessera implements: {})", lib, name,
                     lib == "<memcpy/memcpy>"
                         ? "unblock_cmd_stream, get_streaming_fabout_dsd, MEMCPYH2D_1..4, "
                           "MEMCPYD2H_1..4"
                     : lib == "<layout>" ? "get_x_coord, get_y_coord"
                     : lib == "<tile_config>"
                         ? "input_queue_config, output_queue_config (queue_flush is WSE-3's)"
                     : lib == "<tile_config/input_queue_config>"  ? "encode_input_queue"
                     : lib == "<tile_config/output_queue_config>" ? "encode_output_queue"
                     : lib == "<control>"
                         ? "opcode.SWITCH_ADV, encode_single_payload, encode_control_task_payload"
                     : lib == "<simprint>"
                         ? "print_string, print_u16_decimal, print_u32_decimal, "
                           "print_i16_decimal, print_i32_decimal, print_u16_hex, print_u32_hex"
                         : "get_params"));
}

RV LibCall(Sema& s, ModuleInst* m, const std::string& name, const Node* call,
           const std::vector<const Node*>& args) {
  const std::string& lib = m->native;
  Compiler& c = s.compiler();
  if (name == "get_params") {
    CheckArgs(s, call, name, args, 1);
    const Value x = s.Const(args[0], "get_params' column");
    if (x.k != Value::K::kInt) s.Fail(args[0], "get_params takes the PE's column");
    Value v = m->binding;
    v.k = Value::K::kAgg;
    v.type = types::CStruct();
    v.names.push_back("column");
    v.elems.push_back(Value::CInt(x.i));
    // Streams the layout did not give are there as {} (void), as in the SDK, so a module can
    // test them with @type_of(...) != void.
    for (const char* n : kStreamNames)
      if (!v.Field(n)) {
        v.names.push_back(n);
        v.elems.push_back(Value::Void());
      }
    return s.Known(v);
  }
  if (name == "unblock_cmd_stream") {
    CheckArgs(s, call, name, args, 0);
    s.NeedRuntime(call, "unblock_cmd_stream()");
    Program* p = s.module()->program;
    p->uses_memcpy = true;
    const int t = s.Temp(call);
    s.Emit("lw      r{}, {}", t, p->unblock_counter);
    s.Emit("addi    r{0}, r{0}, 1", t);
    s.Emit("sw      r{}, {}", t, p->unblock_counter);
    s.FreeReg(t);
    return s.Known(Value::Void());
  }
  if (name == "get_streaming_fabout_dsd") {
    CheckArgs(s, call, name, args, 3);
    const Value col = s.Const(args[0], "the stream's color");
    const Value ext = s.Const(args[1], "the extent");
    const Value oq = s.Const(args[2], "the output queue");
    if (col.k != Value::K::kInt || col.type->kind != TypeKind::kColor)
      s.Fail(args[0], "get_streaming_fabout_dsd's first argument is a color (@get_color)");
    if (oq.type->kind != TypeKind::kOutQueue)
      s.Fail(args[2], "get_streaming_fabout_dsd's third argument is an output queue");
    auto d = std::make_shared<DsdValue>();
    d->kind = DsdKind::kFabout;
    d->color = static_cast<int>(col.i);
    d->length = ext.i;
    d->queue = static_cast<int>(oq.i);
    Value v;
    v.k = Value::K::kDsd;
    v.dsd = d;
    v.type = types::Dsd(DsdKind::kFabout);
    return s.Known(v);
  }
  if (name == "encode_control_task_payload") {
    // The payload that activates a control task at the receiving CE, with data 0.
    CheckArgs(s, call, name, args, 1);
    const Value entry = s.Const(args[0], "the control task ID");
    if (entry.k != Value::K::kInt ||
        (entry.type->kind != TypeKind::kControlTask && entry.type->kind != TypeKind::kLocalTask))
      s.Fail(args[0], fmt::format("encode_control_task_payload takes a control task ID, found {}",
                                  ValueText(entry)));
    return s.Known(Value::Int(entry.i << 16, types::Int(32, false)));
  }
  if (name == "encode_single_payload") {
    CheckArgs(s, call, name, args, 4);
    const Value op = s.Const(args[0], "the opcode");
    if (op.k != Value::K::kInt || op.i != kSwitchAdv)
      s.Fail(args[0],
             "Tessera's control wavelets all advance the switch: the opcode is "
             "ctrl.opcode.SWITCH_ADV");
    const Value filter = s.Const(args[1], "the CE filter flag");
    if (filter.k != Value::K::kBool) s.Fail(args[1], "the second argument is a bool");
    const Value entry = s.Const(args[2], "the entry point");
    // A set CE filter keeps the wavelet from the receiving compute engine: task 31 (none).
    int task = 31;
    if (filter.i != 0) {
      if (entry.k != Value::K::kVoid)
        s.Fail(args[2],
               "a control wavelet filtered from the CE (second argument true) runs no "
               "task: pass {} as the entry point");
    } else if (entry.k == Value::K::kInt && (entry.type->kind == TypeKind::kControlTask ||
                                             entry.type->kind == TypeKind::kLocalTask))
      task = static_cast<int>(entry.i);
    else if (entry.k != Value::K::kVoid)
      s.Fail(args[2], fmt::format("the entry point is a control task ID or {{}}, found {}",
                                  ValueText(entry)));
    RV data = s.Coerce(s.Expr(args[3], types::Int(16, false)), types::Int(16, false), args[3],
                       "the payload's data");
    if (data.known)
      return s.Known(
          Value::Int((int64_t(task) << 16) | (data.v.i & 0xFFFF), types::Int(32, false)));
    const int r = s.ToReg(data, args[3]);
    const int t = s.Temp(call);
    s.Emit("li      r{}, 0x{:x}", t, uint32_t(task) << 16);
    s.Emit("or      r{}, r{}, r{}", t, t, r);
    s.Free(data);
    RV out;
    out.type = types::Int(32, false);
    out.reg = t;
    out.temp = true;
    return out;
  }
  if (name == "encode_input_queue" || name == "encode_output_queue") {
    // A queue's color from now on: every fabric operand that names the queue takes its color
    // from __queue_colors (Program::runtime_queue_colors). encode_input_queue's third argument
    // turns the color's filter (set with @set_local_color_config) on or off: SwitchCfg.Filter.
    const bool in = name == "encode_input_queue";
    CheckArgs(s, call, name, args, in ? 3 : 2);
    s.NeedRuntime(call, name + "()");
    Program* p = s.module()->program;
    const Value q = s.Const(args[0], "the queue's number");
    if (q.k != Value::K::kInt || q.i < 0 || q.i > 7)
      s.Fail(args[0], fmt::format("{} takes a queue number 0..7", name));
    if (!p->runtime_queue_colors)
      s.Fail(call, fmt::format("{} needs <tile_config> imported by this PE file", name));
    RV col = s.Coerce(s.Expr(args[1], types::Int(16, false)), types::Int(16, false), args[1],
                      "the queue's color");
    if (col.known && (col.v.i < 0 || col.v.i > 23))
      s.Fail(args[1], fmt::format("color {} is out of range (0..23)", col.v.i));
    const int r = s.ToReg(col, args[1]);
    s.Emit("sw      r{}, __queue_colors+{}", r, 4 * (q.i + (in ? 0 : 8)));
    if (in) {
      const Value en = s.Const(args[2], "the filter's enable");
      if (en.k != Value::K::kBool) s.Fail(args[2], "the third argument is a bool");
      const int a = s.Temp(call);
      const int t = s.Temp(call);
      const int m = s.Temp(call);
      s.Emit("shli    r{}, r{}, 2", a, r);
      s.Emit("li      r{}, 0x{:x}", m, arch::SwitchCfg::kAddr);
      s.Emit("add     r{0}, r{0}, r{1}", a, m);
      s.Emit("lw      r{}, 0(r{})", t, a);
      s.Emit("li      r{}, 0x{:x}", m, 1u << arch::SwitchCfg::kFilterLsb);
      if (en.i) {
        s.Emit("or      r{0}, r{0}, r{1}", t, m);
      } else {
        s.Emit("not     r{0}, r{0}", m);
        s.Emit("and     r{0}, r{0}, r{1}", t, m);
      }
      s.Emit("sw      r{}, 0(r{})", t, a);
      s.FreeReg(m);
      s.FreeReg(t);
      s.FreeReg(a);
    }
    s.Free(col);
    return s.Known(Value::Void());
  }
  if (name == "get_x_coord" || name == "get_y_coord") {
    CheckArgs(s, call, name, args, 0);
    s.NeedRuntime(call, name + "()");
    const int t = s.Temp(call);
    s.Emit("lw      r{}, 0xc000", t);  // PeCoord: X 15:0, Y 31:16
    if (name == "get_x_coord") {
      s.Emit("andi    r{0}, r{0}, 0xffff", t);
      s.Emit("addi    r{0}, r{0}, {1}", t, -c.options().offset_x);
    } else {
      s.Emit("shri    r{0}, r{0}, 16", t);
      s.Emit("addi    r{0}, r{0}, {1}", t, -c.options().offset_y);
    }
    RV out;
    out.type = types::Int(16, false);
    out.reg = t;
    out.temp = true;
    return out;
  }
  if (lib == "<simprint>") {
    s.NeedRuntime(call, name + "()");
    if (name == "print_string") {
      CheckArgs(s, call, name, args, 1);
      const Value str = s.Const(args[0], "print_string's text");
      if (str.k != Value::K::kString) s.Fail(args[0], "print_string takes a comptime string");
      const int t = s.Temp(call);
      for (unsigned char ch : str.s) {
        s.Emit("li      r{}, {}", t, static_cast<int>(ch));
        s.Emit("sw      r{}, 0x{:x}", t, kDebugChar);
      }
      s.FreeReg(t);
      return s.Known(Value::Void());
    }
    CheckArgs(s, call, name, args, 1);
    const bool is32 = name.find("32") != std::string::npos;
    const bool is_signed = name.find("_i") != std::string::npos;
    const TypeP want = types::Int(is32 ? 32 : 16, is_signed);
    RV v = s.Coerce(s.Expr(args[0], want), want, args[0], fmt::format("{}'s value", name).c_str());
    const int r = s.ToReg(v, args[0]);
    // The routine takes r1 and clobbers r1..r7.
    const std::string slot = s.FrameSlot(4, 4);
    s.Emit("sw      r{}, {}", r, slot);
    s.Free(v);
    std::vector<std::pair<int, std::string>> saved;
    s.SpillTemps(saved);
    s.Emit("lw      r1, {}", slot);
    const bool hex = name.find("hex") != std::string::npos;
    if (hex) {
      s.Emit("li      r2, {}", is32 ? 8 : 4);
      s.Emit("call    __csl_print_hex");
    } else {
      s.Emit("call    {}", is_signed ? "__csl_print_signed" : "__csl_print_unsigned");
    }
    s.fn()->calls = true;
    Program* p = s.module()->program;
    p->uses_div = true;
    p->uses_print = true;
    s.RestoreTemps(saved);
    return s.Known(Value::Void());
  }
  s.Fail(call, fmt::format("{} of {} cannot be called here", name, lib));
}

std::string RuntimeRoutines(const Program& p) {
  std::string out;
  if (p.uses_div || p.uses_print) {
    out += R"(
; Integer division (cslc's runtime): r1 / r2 -> r1 quotient, r2 remainder. __csl_udiv is
; unsigned; __csl_sdiv signed, the quotient rounded toward zero and the remainder with the
; dividend's sign. Both clobber r3..r7.
__csl_udiv:
        li      r3, 0
        li      r4, 32
__csl_udiv_loop:
        shli    r3, r3, 1
        shri    r5, r1, 31
        or      r3, r3, r5
        shli    r1, r1, 1
        bltu    r3, r2, __csl_udiv_next
        sub     r3, r3, r2
        ori     r1, r1, 1
__csl_udiv_next:
        addi    r4, r4, -1
        bnez    r4, __csl_udiv_loop
        mov     r2, r3
        ret
__csl_sdiv:
        mov     r6, r1
        xor     r7, r1, r2
        bgez    r1, __csl_sdiv_a
        neg     r1, r1
__csl_sdiv_a:
        bgez    r2, __csl_sdiv_b
        neg     r2, r2
__csl_sdiv_b:
        mov     r5, lr
        sw      r5, __csl_div_lr
        call    __csl_udiv
        lw      r5, __csl_div_lr
        mov     lr, r5
        bgez    r7, __csl_sdiv_c
        neg     r1, r1
__csl_sdiv_c:
        bgez    r6, __csl_sdiv_d
        neg     r2, r2
__csl_sdiv_d:
        ret
)";
  }
  if (p.uses_print) {
    out += R"(
; simprint: the number in r1 as decimal (or r2 hex digits) to the debug port's character
; records (DebugPort[5]). Clobbers r1..r7.
__csl_print_signed:
        bgez    r1, __csl_print_unsigned
        li      r2, 45
        sw      r2, 0xc054
        neg     r1, r1
__csl_print_unsigned:
        mov     r5, lr
        sw      r5, __csl_print_lr
        la      r6, __csl_print_buf
__csl_print_digit:
        li      r2, 10
        call    __csl_udiv
        addi    r2, r2, 48
        sb      r2, 0(r6)
        addi    r6, r6, 1
        bnez    r1, __csl_print_digit
__csl_print_out:
        addi    r6, r6, -1
        lbu     r2, 0(r6)
        sw      r2, 0xc054
        la      r3, __csl_print_buf
        bne     r6, r3, __csl_print_out
        lw      r5, __csl_print_lr
        mov     lr, r5
        ret
__csl_print_hex:
        shli    r3, r2, 2
__csl_print_hex_digit:
        addi    r3, r3, -4
        shr     r4, r1, r3
        andi    r4, r4, 15
        slti    r5, r4, 10
        addi    r4, r4, 48
        bnez    r5, __csl_print_hex_put
        addi    r4, r4, 7
__csl_print_hex_put:
        sw      r4, 0xc054
        bnez    r3, __csl_print_hex_digit
        ret
)";
  }
  return out;
}

}  // namespace tessera::csl
