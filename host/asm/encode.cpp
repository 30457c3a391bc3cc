// Pass 2, encoding (asm/assembler_impl.h): each Stmt of pass 1 becomes its bytes, now that every
// label is known. Instructions: the operands bound to the form pass 1 chose, each put into its
// field of the instruction word (isa.def's formats, through SetField); immediates checked against
// their range. Data items and descriptor records likewise. What only the linker knows (a label of
// another section, a param, a symbol of another object) becomes a relocation. The driver
// (assembler.cpp) appends the bytes to the object.
#include <fmt/core.h>

#include "asm/assembler_impl.h"

namespace tessera::assembler::internal {
namespace {

// An instruction word in memory order (little endian).
std::vector<uint8_t> Le32(uint32_t w) {
  return {uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24)};
}

}  // namespace

// The bytes of one statement (fewer than its size are padded with zeros by the driver).
std::vector<uint8_t> Assembler::Encode(const Stmt& s) {
  switch (s.op) {
    case Stmt::Op::kNone:
      return {};
    case Stmt::Op::kBytes:
      return s.bytes;
    case Stmt::Op::kReg:
      ApplyReg(s);
      return {};
    case Stmt::Op::kEqu: {
      // The value from this line on (a constant may be redefined).
      Sym& sym = syms_[s.name];
      if (!sym.failed) {
        try {
          sym.value = Evaluate(s.toks, s.args, s.end, *this);
        } catch (const LineError&) {
          // Reported when it was first computed.
        }
      }
      return {};
    }
    case Stmt::Op::kInsn:
      return Le32(EncodeInsn(s));
    case Stmt::Op::kData:
      return EncodeData(s);
    case Stmt::Op::kReal: {
      std::vector<uint8_t> out;
      const RealFormat f = s.width == 4 ? RealFormat::kF32 : RealFormat::kF16;
      for (const Item& it : Items(s.toks, s.args, s.end)) {
        const uint32_t bits = EvaluateReal(s.toks, it.b, it.e, *this, f);
        for (int k = 0; k < s.width; ++k) out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
      }
      return out;
    }
    case Stmt::Op::kDsd:
      return EncodeDsd(s);
  }
  return {};
}

void Assembler::AddReloc(const Stmt& s, uint32_t offset, RelocKind kind, const Value& v) {
  relocs_.push_back(ObjReloc{SectionId(s.section), offset, kind, SymRef{v.sym, v.num}});
}

// The form pass 1 chose: its fixed bits, then each operand in its field.
uint32_t Assembler::EncodeInsn(const Stmt& s) {
  const std::vector<Item> items = Items(s.toks, s.args, s.end);
  BindFailure f;
  const auto bound = Bind(KindsOf(*s.info), items, &f);
  if (!bound) throw LineError(0, "internal error: the operands no longer match");
  uint32_t word = s.info->fixed_bits;
  for (const Bound& b : *bound) EncodeOperand(s, word, b, items);
  return word;
}

// One operand of kind b.kind (isa.def's operand kinds, docs/isa.md 4.2) into the word w. Kinds
// that take a register or an immediate (rb, mem, tid, col, bval) set Z for the immediate form.
void Assembler::EncodeOperand(const Stmt& s, uint32_t& w, const Bound& b,
                              const std::vector<Item>& items) {
  const InsnFormat f = s.info->format;
  const Item* it = b.count ? &items[b.item] : nullptr;
  auto set = [&](const char* field, uint32_t v) { w = SetField(w, f, field, v); };
  if (IsGprKind(b.kind) || IsDsrKind(b.kind)) {
    set(RegisterField(b.kind), static_cast<uint32_t>(it->reg));
    return;
  }
  switch (b.kind) {
    case K::kRb:
      if (it->shape == Shape::kGpr) {
        set("B", static_cast<uint32_t>(it->reg));
      } else {
        const Value v = Eval(s, it->b, it->e);
        if (!v.IsConst() || v.num != 0) {
          throw LineError(it->pos, fmt::format("operand {} of '{}' (rb) must be a register or "
                                               "0, not '{}'",
                                               b.item + 1, s.mnemonic, ItemText(*it)));
        }
        set("Z", 1);
      }
      return;
    case K::kSimm:
      Imm(s, w, Eval(s, it->b, it->e), ImmRule::kSigned, *it);
      return;
    case K::kUimm:
      Imm(s, w, Eval(s, it->b, it->e), ImmRule::kUnsigned, *it);
      return;
    case K::kSh:
      Imm(s, w, Eval(s, it->b, it->e), ImmRule::kShift, *it);
      return;
    case K::kW:
      Imm(s, w, Eval(s, it->b, it->e), ImmRule::kWord, *it);
      return;
    case K::kOff:
      Imm(s, w, Eval(s, it->b, it->e), ImmRule::kBranch, *it);
      return;
    case K::kMsk:
      if (it) {
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kMask, *it);
      } else {
        set("Imm", (1u << arch::kNumMicrothreads) - 1);  // `utwait` alone: every microthread
      }
      return;
    case K::kMem:
    case K::kTgt:
      if (it->shape == Shape::kMem) {
        set("B", static_cast<uint32_t>(it->reg));
        // offset(rN): the tokens before the parentheses; (rN) alone has offset 0.
        if (it->e - it->b > 3) Imm(s, w, Eval(s, it->b, it->e - 3), ImmRule::kOffset, *it);
      } else {
        set("Z", 1);
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kAbsolute, *it);
      }
      return;
    case K::kTid:
    case K::kCol:
      if (it->shape == Shape::kGpr) {
        set("B", static_cast<uint32_t>(it->reg));
      } else {
        set("Z", 1);
        const bool task = b.kind == K::kTid;
        Imm(s, w, Eval(s, it->b, it->e, task), task ? ImmRule::kTask : ImmRule::kColor, *it);
      }
      return;
    case K::kBval:
      if (it->shape == Shape::kGpr) {
        set("B", static_cast<uint32_t>(it->reg));
        if (b.count == 2) {
          const Item& c = items[b.item + 1];
          Imm(s, w, Eval(s, c.b, c.e), ImmRule::kSigned, c);
        }
      } else {
        set("Z", 1);
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kSigned, *it);
      }
      return;
    case K::kDone:
      Done(s, w, it);
      return;
    default:
      return;
  }
}

// The Imm field from v under `rule`. A branch to a label of this section is resolved here, any
// other branch relocated (PC16); another link-time value is relocated into the field (lo() and
// hi() as LO16 and HI16), where the field can take it; a constant is checked against the rule's
// range.
void Assembler::Imm(const Stmt& s, uint32_t& w, const Value& v, ImmRule rule, const Item& it) {
  const InsnFormat f = s.info->format;
  const std::string& mn = s.mnemonic;
  if (rule == ImmRule::kBranch) {
    if (v.IsConst()) {
      throw LineError(it.pos, fmt::format("branch target {} is a constant: a branch needs a "
                                          "label (or '.' plus an offset); jr takes an absolute "
                                          "address",
                                          v.num));
    }
    if (v.wrap != Wrap::kNone) throw LineError(it.pos, "lo() or hi() is not a branch target");
    const auto p = Position(v.sym);
    if (p && p->first == s.section) {
      const int64_t delta = p->second + v.num - int64_t(s.offset);
      if (delta % 4 != 0) {
        throw LineError(it.pos, fmt::format("branch target is {} bytes away, not a multiple of "
                                            "4",
                                            delta));
      }
      if (delta / 4 < -32768 || delta / 4 > 32767) {
        throw LineError(it.pos, fmt::format("branch target is {} bytes away; '{}' reaches "
                                            "-131072..+131068",
                                            delta, mn));
      }
      w = SetField(w, f, "Imm", static_cast<uint32_t>(delta / 4) & 0xFFFF);
      return;
    }
    AddReloc(s, s.offset, RelocKind::kPC16, v);
    return;
  }
  if (!v.IsConst()) {
    const bool sixteen = rule == ImmRule::kSigned || rule == ImmRule::kUnsigned ||
                         rule == ImmRule::kOffset || rule == ImmRule::kAbsolute;
    if (v.wrap != Wrap::kNone) {
      if (!sixteen) {
        throw LineError(it.pos, fmt::format("lo() and hi() fill a 16-bit immediate; '{}' has "
                                            "none here",
                                            mn));
      }
      Value base = v;
      base.wrap = Wrap::kNone;
      AddReloc(s, s.offset, v.wrap == Wrap::kLo ? RelocKind::kLO16 : RelocKind::kHI16, base);
      return;
    }
    switch (rule) {
      case ImmRule::kSigned:
      case ImmRule::kOffset:
        AddReloc(s, s.offset, RelocKind::kS16, v);
        return;
      case ImmRule::kUnsigned:
      case ImmRule::kAbsolute:
        AddReloc(s, s.offset, RelocKind::kU16, v);
        return;
      case ImmRule::kTask:
      case ImmRule::kColor:
        AddReloc(s, s.offset, RelocKind::kU5, v);
        return;
      default:
        throw LineError(it.pos, fmt::format("this operand of '{}' must be an assembly-time "
                                            "constant, but '{}' is a link-time value",
                                            mn, v.sym));
    }
  }
  const int64_t n = v.num;
  auto check = [&](int64_t lo, int64_t hi, const std::string& msg) {
    if (n < lo || n > hi) throw LineError(it.pos, msg);
  };
  switch (rule) {
    case ImmRule::kSigned:
      check(-32768, 32767,
            fmt::format("immediate {} does not fit in 16 bits ({} takes "
                        "-32768..32767)",
                        n, mn));
      break;
    case ImmRule::kUnsigned:
      check(0, 65535,
            fmt::format("immediate {} does not fit in 16 bits ({} takes 0..65535)", n, mn));
      break;
    case ImmRule::kOffset:
      check(-32768, 32767,
            fmt::format("offset {} does not fit in 16 bits ({} takes "
                        "-32768..32767 from a base register)",
                        n, mn));
      break;
    case ImmRule::kAbsolute:
      check(0, 0xFFFF,
            fmt::format("absolute address {} is out of range ({} takes 0..0xFFFF; "
                        "an offset from a register is written offset(rN))",
                        n, mn));
      break;
    case ImmRule::kShift:
      check(0, 31, fmt::format("shift amount {} is out of range ({} takes 0..31)", n, mn));
      break;
    case ImmRule::kMask:
      check(0, 255, fmt::format("microthread mask {} is out of range ({} takes 0..255)", n, mn));
      break;
    case ImmRule::kWord:
      check(0, 1, fmt::format("descriptor word {} is out of range ({} takes 0 or 1)", n, mn));
      break;
    case ImmRule::kTask:
      check(0, 31,
            fmt::format("task ID {} is out of range ({} takes 0..31; 31 names no task)", n, mn));
      break;
    case ImmRule::kColor:
      // Colors 24..31 are reserved: a wavelet of one faults where it enters a router, and a
      // send or a fabric descriptor naming one faults (BadColor), so a constant one is an error.
      check(0, arch::kNumColors - 1,
            fmt::format("color {} is out of range ({} takes 0..{}; colors {}..31 are reserved "
                        "and a send on one can only fault)",
                        n, mn, arch::kNumColors - 1, arch::kNumColors));
      break;
    case ImmRule::kBranch:
      break;
  }
  w = SetField(w, f, "Imm", static_cast<uint32_t>(n) & 0xFFFF);
}

void Assembler::Done(const Stmt& s, uint32_t& w, const Item* it) {
  const InsnFormat f = s.info->format;
  // Without a clause: synchronous on ut0 (U = 1 with no task to unblock).
  uint32_t ut = 0, u = 1, tid = arch::kNoTask;
  if (it) {
    const std::vector<Token>& t = s.toks;
    const auto parsed = ParseUt(t[it->b].text);
    if (!parsed) {
      throw LineError(it->pos, fmt::format("'{}' is not a microthread: they are ut0..ut{}",
                                           t[it->b].text, arch::kNumMicrothreads - 1));
    }
    ut = static_cast<uint32_t>(*parsed);
    if (it->e > it->b + 1) {
      const Token& word = t[it->b + 1];
      const std::string action = ToLower(word.text);
      if (action == "async" && it->e == it->b + 2) {
        u = 0;
      } else if ((action == "activate" || action == "unblock") && word.IsIdent()) {
        u = action == "unblock" ? 1 : 0;
        if (it->e == it->b + 2) {
          throw LineError(word.end, fmt::format("{} needs a task: {} T", action, action));
        }
        const Value v = Eval(s, it->b + 2, it->e, true);
        const size_t pos = t[it->b + 2].pos;
        if (v.IsConst()) {
          if (v.num == arch::kNoTask) {
            throw LineError(pos, action == "unblock"
                                     ? "'unblock 31' would be the synchronous code; name a "
                                       "task 0..30"
                                     : "task 31 names no task; write 'async' for no "
                                       "completion action");
          }
          if (v.num < 0 || v.num > 30) {
            throw LineError(
                pos, fmt::format("task ID {} is out of range ({} takes 0..30)", v.num, action));
          }
          tid = static_cast<uint32_t>(v.num);
        } else {
          if (v.wrap != Wrap::kNone) throw LineError(pos, "lo() and hi() are not task IDs");
          AddReloc(s, s.offset, RelocKind::kTID5, v);
          tid = 0;
        }
      } else {
        throw LineError(word.pos,
                        fmt::format("expected 'async', 'activate T' or 'unblock T' "
                                    "after {}, got '{}'",
                                    t[it->b].text, ItemText(*it).substr(word.pos - it->pos)));
      }
    }
  }
  w = SetField(w, f, "Ut", ut);
  w = SetField(w, f, "U", u);
  w = SetField(w, f, "Tid", tid);
}

// .word, .half, .byte: each item a constant in range (signed or unsigned), or a relocation.
std::vector<uint8_t> Assembler::EncodeData(const Stmt& s) {
  std::vector<uint8_t> out;
  const std::vector<Item> items = Items(s.toks, s.args, s.end);
  const int w = s.width;
  const RelocKind kind = w == 4 ? RelocKind::kW32 : w == 2 ? RelocKind::kH16 : RelocKind::kB8;
  const int64_t lo = w == 4 ? INT32_MIN : w == 2 ? -32768 : -128;
  const int64_t hi = w == 4 ? int64_t(UINT32_MAX) : w == 2 ? 65535 : 255;
  for (size_t k = 0; k < items.size(); ++k) {
    const Item& it = items[k];
    cur_offset_ = s.offset + static_cast<uint32_t>(k * w);  // '.' is the item's location
    const Value v = Eval(s, it.b, it.e);
    uint64_t bits = 0;
    if (v.IsConst()) {
      if (v.num < lo || v.num > hi) {
        throw LineError(it.pos, fmt::format("value {} does not fit in {} ({} takes {}..{})", v.num,
                                            w == 4   ? "32 bits"
                                            : w == 2 ? "16 bits"
                                                     : "8 bits",
                                            s.name, lo, hi));
      }
      bits = static_cast<uint64_t>(v.num);
    } else {
      if (v.wrap != Wrap::kNone) {
        throw LineError(it.pos,
                        "lo() and hi() of a link-time value can only be an "
                        "instruction's immediate");
      }
      AddReloc(s, s.offset + static_cast<uint32_t>(k * w), kind, v);
    }
    for (int b = 0; b < w; ++b) out.push_back(static_cast<uint8_t>(bits >> (8 * b)));
  }
  return out;
}

// A .dsd record: kind and element type, then base, len, stride and color (constants in range, or
// relocations), the ctrl and idx flags (checked in pass 1), and mem4d's extension word.
std::vector<uint8_t> Assembler::EncodeDsd(const Stmt& s) {
  using D = arch::Dsd;
  uint64_t d = 0;
  d = D::WithKind(d, static_cast<uint64_t>(s.dsd_kind));
  d = D::WithElem(d, static_cast<uint64_t>(s.dsd_type));
  // A key's value and where it is written; `len=inf` is the unbounded length.
  auto value = [&](const char* key) -> std::optional<std::pair<Value, size_t>> {
    const auto it = s.keys.find(key);
    if (it == s.keys.end()) return std::nullopt;
    const auto [b, e] = it->second;
    if (std::string(key) == "len" && e == b + 1 && s.toks[b].IsIdent() &&
        ToLower(s.toks[b].text) == "inf") {
      return std::make_pair(Value{arch::kUnboundedLength, ""}, s.toks[b].pos);
    }
    return std::make_pair(Eval(s, b, e), s.toks[b].pos);
  };
  struct FieldRule {
    const char* key;
    int64_t lo, hi;
    RelocKind reloc;
  };
  static const FieldRule kRules[] = {
      {"base", 0, 0xFFFF, RelocKind::kDBase},
      {"len", 0, arch::kUnboundedLength, RelocKind::kDLen},
      {"stride", -32768, 32767, RelocKind::kDStride},
      {"color", 0, arch::kNumColors - 1, RelocKind::kDColor},
      {"fifo", 0, arch::kNumFifos - 1, RelocKind::kDColor},  // the FIFO's number, in Color
  };
  const bool mem = s.dsd_kind == arch::DsdKind::kMem1d || s.dsd_kind == arch::DsdKind::kMem4d;
  const bool in_sram = mem || s.dsd_kind == arch::DsdKind::kFifo;  // Base is an SRAM address
  for (const FieldRule& r : kRules) {
    auto v = value(r.key);
    if (!v && std::string(r.key) == "stride" && mem) {
      v = std::make_pair(Value{1, ""}, size_t(0));  // default stride
    }
    if (!v) continue;
    const auto& [val, pos] = *v;
    if (!val.IsConst()) {
      if (val.wrap != Wrap::kNone) throw LineError(pos, "lo() and hi() are not descriptor fields");
      if (std::string(r.key) == "fifo")
        throw LineError(pos, "fifo= is a constant: the FIFO's number, 0..7");
      AddReloc(s, s.offset, r.reloc, val);
      continue;
    }
    if (val.num < r.lo || val.num > r.hi) {
      throw LineError(pos,
                      fmt::format("{}={} is out of range ({}..{}{})", r.key, val.num, r.lo, r.hi,
                                  std::string(r.key) == "len" ? ", or inf = 0x7FFF" : ""));
    }
    const uint64_t n = static_cast<uint64_t>(val.num);
    const std::string key = r.key;
    if (key == "base") {
      if (in_sram && n % ElemBytes(s.dsd_type) != 0) {
        throw LineError(pos, fmt::format("base=0x{:04x} is not aligned to the {}-byte {} "
                                         "elements",
                                         n, ElemBytes(s.dsd_type), ElemTypeName(s.dsd_type)));
      }
      d = D::WithBase(d, n);
    } else if (key == "len") {
      d = D::WithLength(d, n);
    } else if (key == "stride") {
      d = D::WithStride(d, n);
    } else {
      d = D::WithColor(d, n);
    }
  }
  for (const char* flag : {"ctrl", "idx"}) {
    const auto v = value(flag);
    if (!v) continue;
    const uint64_t n = static_cast<uint64_t>(v->first.num);
    d = std::string(flag) == "ctrl" ? D::WithCtrl(d, n) : D::WithIdx(d, n);
  }
  const uint64_t x = s.dsd_kind == arch::DsdKind::kMem4d ? Mem4dExtension(s, d) : 0;
  std::vector<uint8_t> out;
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<uint8_t>(d >> (8 * b)));
  if (s.dsd_kind == arch::DsdKind::kMem4d)
    for (int b = 0; b < 8; ++b) out.push_back(static_cast<uint8_t>(x >> (8 * b)));
  return out;
}

uint64_t Assembler::Mem4dExtension(const Stmt& s, uint64_t& d) {
  using X = arch::Dsd4x;
  struct Dim {
    const char* key;
    int64_t lo, hi, dflt;
  };
  static const Dim kDims[] = {{"len1", 0, 2047, 1},
                              {"len2", 0, 31, 1},
                              {"len3", 0, 31, 1},
                              {"stride1", -32768, 32767, 0},
                              {"stride2", -32768, 32767, 0},
                              {"stride3", -32768, 32767, 0}};
  int64_t v[6];
  for (int k = 0; k < 6; ++k) {
    const auto it = s.keys.find(kDims[k].key);
    if (it == s.keys.end()) {
      v[k] = kDims[k].dflt;
      continue;
    }
    const auto [b, e] = it->second;
    const Value val = Eval(s, b, e);
    if (!val.IsConst()) {
      throw LineError(s.toks[b].pos, fmt::format("{}= must be an assembly-time constant (only "
                                                 "base, len and stride may be link-time)",
                                                 kDims[k].key));
    }
    if (val.num < kDims[k].lo || val.num > kDims[k].hi) {
      throw LineError(s.toks[b].pos, fmt::format("{}={} is out of range ({}..{})", kDims[k].key,
                                                 val.num, kDims[k].lo, kDims[k].hi));
    }
    v[k] = val.num;
  }
  d = arch::Dsd::WithColor(d, static_cast<uint64_t>(v[2]));
  uint64_t x = 0;
  x = X::WithLen1(x, static_cast<uint64_t>(v[0]));
  x = X::WithLen2(x, static_cast<uint64_t>(v[1]));
  x = X::WithStride1(x, static_cast<uint16_t>(v[3]));
  x = X::WithStride2(x, static_cast<uint16_t>(v[4]));
  x = X::WithStride3(x, static_cast<uint16_t>(v[5]));
  return x;
}

}  // namespace tessera::assembler::internal
