// Sema's plumbing: errors, emitting instructions with their CSL line, labels, temporary
// registers, the function's static frame, and turning known values into registers.
#include <cstring>

#include "csl/compiler.h"
#include "csl/sema.h"
#include "fp/scalar_ops.h"

namespace tessera::csl {

void Sema::Fail(const Node* at, const std::string& msg) const { Fail(at->loc, msg); }
void Sema::Fail(Loc at, const std::string& msg) const { c_.sources().Fail(at, msg); }

void Sema::NeedRuntime(const Node* at, const std::string& what) {
  if (!fn_)
    Fail(at, fmt::format("{} is not known at compile time (here everything must be: a layout "
                         "block, a comptime block or a global's initializer)",
                         what));
}

void Sema::MarkLine(const Node* n) {
  if (!fn_ || !n || n->loc.file < 0) return;
  const SourceFile& f = c_.sources().file(n->loc.file);
  const int line = f.Line(n->loc.offset);
  if (line == fn_->last_line) return;
  fn_->last_line = line;
  fn_->body += fmt::format("        .loc    \"{}\", {}\n", f.path, line);
}

void Sema::EmitText(const std::string& insn) {
  if (!fn_) throw Error("cslc: internal error: code emitted outside a function");
  fn_->body += "        " + insn + "\n";
}

void Sema::EmitLabel(const std::string& label) { fn_->body += label + ":\n"; }

std::string Sema::NewLabel() { return fmt::format("{}_L{}", fn_->symbol, fn_->next_label++); }

int Sema::Temp(const Node* at) {
  for (int r = 1; r <= 7; ++r) {
    if (!(fn_->temps & (1u << r))) {
      fn_->temps |= 1u << r;
      return r;
    }
  }
  Fail(at,
       "expression too complex: it needs more than 7 registers at once; split it with a "
       "const");
}

void Sema::FreeReg(int r) {
  if (fn_ && r >= 1 && r <= 7) fn_->temps &= ~(1u << r);
}

void Sema::Free(RV& v) {
  if (v.temp) FreeReg(v.reg);
  v.temp = false;
}

RV Sema::Known(Value v) {
  RV r;
  r.type = v.type;
  r.known = true;
  r.v = std::move(v);
  return r;
}

std::string Sema::FrameSlot(int64_t bytes, int64_t align) {
  fn_->frame_size = (fn_->frame_size + align - 1) / align * align;
  const std::string s = fmt::format("{}+{}", fn_->frame, fn_->frame_size);
  fn_->frame_size += bytes;
  return s;
}

namespace {
// The bits of a known scalar as the machine holds it in a register.
uint32_t RegisterBits(const Value& v, const TypeP& t) {
  switch (v.k) {
    case Value::K::kBool:
      return static_cast<uint32_t>(v.i);
    case Value::K::kInt:
      return static_cast<uint32_t>(static_cast<uint64_t>(v.i));
    case Value::K::kFloat: {
      const float f = static_cast<float>(v.f);
      uint32_t b = 0;
      std::memcpy(&b, &f, 4);
      if (t->kind == TypeKind::kFloat && t->bits == 16) {
        uint8_t flags = 0;
        return fp::F32ToF16(b, flags);
      }
      return b;
    }
    default:
      return 0;
  }
}
}  // namespace

int Sema::ToReg(RV& v, const Node* at) {
  if (!v.known) {
    if (v.reg < 0)
      Fail(at, fmt::format("a value of type {} cannot be used here", TypeName(v.type)));
    return v.reg;
  }
  NeedRuntime(at, "this value");
  const Value& k = v.v;
  if (k.k == Value::K::kPtr) {
    const int r = Temp(at);
    Emit("la      r{}, {}+{}", r, k.s, k.i);
    v.known = false;
    v.reg = r;
    v.temp = true;
    return r;
  }
  if (k.k != Value::K::kBool && k.k != Value::K::kInt && k.k != Value::K::kFloat)
    Fail(at, fmt::format("{} ({}) exists only at compile time and cannot be used by the running "
                         "program",
                         ValueText(k), TypeName(v.type)));
  if (v.type->kind == TypeKind::kCInt)
    Fail(at, fmt::format("the integer {} needs a type here; write @as(i16, {}) or give the "
                         "variable a type",
                         k.i, k.i));
  if (v.type->kind == TypeKind::kCFloat)
    Fail(at, "the floating-point literal needs a type here; write @as(f32, ...)");
  const int r = Temp(at);
  const uint32_t bits = RegisterBits(k, v.type);
  Emit("li      r{}, 0x{:x}", r, bits);
  v.known = false;
  v.reg = r;
  v.temp = true;
  return r;
}

void Sema::Normalize(int reg, const TypeP& t) {
  if (t->kind != TypeKind::kInt || t->bits >= 32) return;
  const int sh = 32 - t->bits;
  if (t->is_signed) {
    Emit("shli    r{0}, r{0}, {1}", reg, sh);
    Emit("srai    r{0}, r{0}, {1}", reg, sh);
  } else if (t->bits == 16) {
    Emit("andi    r{0}, r{0}, 0xffff", reg);
  } else {
    Emit("andi    r{0}, r{0}, 0xff", reg);
  }
}

void Sema::SpillTemps(std::vector<std::pair<int, std::string>>& saved) {
  for (int r = 1; r <= 7; ++r) {
    if (fn_->temps & (1u << r)) {
      const std::string slot = FrameSlot(4, 4);
      Emit("sw      r{}, {}", r, slot);
      saved.emplace_back(r, slot);
    }
  }
}

void Sema::RestoreTemps(const std::vector<std::pair<int, std::string>>& saved) {
  for (const auto& [r, slot] : saved) Emit("lw      r{}, {}", r, slot);
}

}  // namespace tessera::csl

namespace tessera::csl {

int Sema::NewDsr(const Node* at) {
  for (int d = 8; d <= 15; ++d) {
    if (!(fn_->dsrs & (1u << d))) {
      fn_->dsrs |= 1u << d;
      return d;
    }
  }
  Fail(at, "too many DSDs computed at once (8 descriptor registers)");
}

void Sema::FreeDsr(int d) {
  if (fn_ && d >= 8 && d <= 15) fn_->dsrs &= ~(1u << d);
}

void Sema::StoreDsd(const Place& p, RV v, const Node* at) {
  if (p.where != Place::W::kMem) Fail(at, "a DSD variable lives in memory");
  NeedRuntime(at, "assigning a DSD variable");
  if (p.global && p.global->init.k == Value::K::kDsd) {
    // Loads of the global give its initializer's kind, queue and color while every store keeps
    // them (the builtins that change a DSD do); a microthread is chosen by them.
    const DsdValue* was = p.global->init.dsd.get();
    const DsdValue* now = v.known && v.v.k == Value::K::kDsd ? v.v.dsd.get() : v.dsd_init.get();
    if (!now || now->kind != was->kind || now->queue != was->queue || now->color != was->color)
      p.global->dsd_shape_varies = true;
  }
  const std::string dst = PlaceOperand(p);
  if (v.dreg >= 0) {
    Emit("std     d{}, {}", v.dreg, dst);
    FreeDsr(v.dreg);
    return;
  }
  const int d = NewDsr(at);
  if (v.known) {
    if (v.v.k != Value::K::kDsd) Fail(at, fmt::format("expected a DSD, found {}", ValueText(v.v)));
    DsdValue dv = *v.v.dsd;
    if (!dv.elem) dv.elem = types::Float(32);
    Emit("ldd     d{}, {}", d, c_.DsdConstant(mod_->program, dv, at->loc));
  } else if (!v.mem.empty()) {
    Emit("ldd     d{}, {}", d, v.mem);
  } else {
    Fail(at, fmt::format("expected a DSD, found {}", TypeName(v.type)));
  }
  Emit("std     d{}, {}", d, dst);
  FreeDsr(d);
}

}  // namespace tessera::csl
