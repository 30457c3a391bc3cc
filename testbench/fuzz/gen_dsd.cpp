// DSD units of the program generator: operations over mem1d and mem4d operands in vbuf (every
// line of the table, all element types of each role, strides including negative ones and 16-bit
// pairs, mem4d shapes of four lengths with strides of either sign in an even register pair),
// fabric streams looped back through the router (fabout producers paired with fabin readers,
// relays, two-fabin operations, unbounded readers ended by a control wavelet), fabout to data
// tasks and control-wavelet streams. Descriptors are built in several ways: `ldd` of a `.dsd`,
// `dwr` of two words, and `ldd` followed by dincb, dsetl or dsetb.
#include <fmt/format.h>

#include <algorithm>

#include "fuzz/gen_context.h"

namespace tessera::fuzz::detail {
namespace {

using arch::DsdForm;
using arch::ElemClass;
using arch::ElemType;

enum Role { kDst = 0, kSrc0 = 1, kSrc1 = 2 };

bool HasRole(DsdForm f, int role) {
  switch (role) {
    case kDst:
      return arch::HasDst(f);
    case kSrc0:
      return arch::HasSrc0(f);
    default:
      return arch::HasSrc1(f);
  }
}

const char* TypeName(ElemType t) { return arch::ToString(t); }

int Bytes(ElemType t) {
  return t == ElemType::kF16 || t == ElemType::kI16 || t == ElemType::kU16 ? 2 : 4;
}

bool Is16(ElemClass c) {
  return c == ElemClass::kF16 || c == ElemClass::kI16 || c == ElemClass::kX16;
}

// One operand of an operation being built.
struct Opnd {
  enum Kind { kNone, kMem, kFabIn, kFabOut, kFifo } kind = kNone;
  ElemType type = ElemType::kF32;
  MemOperand mem;
  int len = 0;  // the descriptor's Length
  int color = 0;
  bool ctrl = false, idx = false;
  int idx_base = 0;
  int fifo = 0, cap = 0;  // kFifo: its number and capacity
};

uint32_t DescriptorWord1(const Opnd& o) {
  using D = arch::Dsd;
  const arch::DsdKind k = o.kind == Opnd::kMem     ? arch::DsdKind::kMem1d
                          : o.kind == Opnd::kFabIn ? arch::DsdKind::kFabIn
                                                   : arch::DsdKind::kFabOut;
  uint64_t d = D::WithKind(0, static_cast<uint64_t>(k));
  d = D::WithElem(d, static_cast<uint64_t>(o.type));
  if (o.kind == Opnd::kMem) d = D::WithStride(d, static_cast<uint16_t>(o.mem.stride));
  if (o.kind != Opnd::kMem) d = D::WithColor(d, static_cast<uint64_t>(o.color));
  d = D::WithCtrl(d, o.ctrl);
  d = D::WithIdx(d, o.idx);
  return static_cast<uint32_t>(d >> 32);
}

}  // namespace

ElemType Gen::PickType(Gen& g, ElemClass c) {
  switch (c) {
    case ElemClass::kF32:
      return ElemType::kF32;
    case ElemClass::kF16:
      return ElemType::kF16;
    case ElemClass::kI32:
      return g.Chance(0.5) ? ElemType::kI32 : ElemType::kU32;
    case ElemClass::kI16:
      return g.Chance(0.5) ? ElemType::kI16 : ElemType::kU16;
    case ElemClass::kX32:
      return g.Pick(std::vector<ElemType>{ElemType::kF32, ElemType::kI32, ElemType::kU32});
    case ElemClass::kX16:
      return g.Pick(std::vector<ElemType>{ElemType::kF16, ElemType::kI16, ElemType::kU16});
    case ElemClass::kNone:
      break;
  }
  return ElemType::kF32;
}

const arch::InsnInfo& Gen::PickDsdLine(const std::function<bool(const arch::InsnInfo&)>& fits) {
  std::vector<const arch::InsnInfo*> lines;
  for (const arch::InsnInfo& n : arch::kInsns)
    if (n.cls == arch::InsnClass::kDsd && fits(n)) lines.push_back(&n);
  return *Pick(lines);
}

MemOperand Gen::PlaceMem(ElemType t, int n, bool pair, bool allow4d) {
  MemOperand m;
  m.type = t;
  const int size = Bytes(t);
  static const std::vector<int> kStrides = {1, 2, 3, 4, 0, -1, -2, -3};
  static const std::vector<int> kWeights = {50, 10, 5, 5, 5, 12, 8, 5};
  m.stride = pair ? 1 : kStrides[PickWeighted(kWeights)];
  if (allow4d && !pair && n > 0 && Chance(0.2)) {
    // mem4d: four lengths whose product is n, small strides of either sign, the base where every
    // one of the n elements lies in vbuf.
    auto divisor = [&](int x) {  // mostly a proper one, so that more than one dimension runs
      std::vector<int> d;
      for (int k = 1; k < x; ++k)
        if (x % k == 0 && (k > 1 || x == 1 || Chance(0.2))) d.push_back(k);
      return d.empty() || Chance(0.2) ? x : Pick(d);
    };
    int rest = n;
    for (int k = 0; k < 3; ++k) {
      m.dim_len[k] = divisor(rest);
      rest /= m.dim_len[k];
    }
    m.dim_len[3] = rest;
    for (int k = 0; k < 3; ++k) m.dim_stride[k] = Int(-12, 12);
    int64_t lo_off = 0, hi_off = 0;
    for (int i = 0; i < n; ++i) {
      int t0 = i, off = 0;
      for (int k = 0; k < 3; ++k) {
        off += t0 % m.dim_len[k] * (k ? m.dim_stride[k - 1] : m.stride);
        t0 /= m.dim_len[k];
      }
      off += t0 * m.dim_stride[2];
      lo_off = std::min<int64_t>(lo_off, off);
      hi_off = std::max<int64_t>(hi_off, off);
    }
    const int lo = static_cast<int>(-lo_off * size);
    const int hi = static_cast<int>(kVbufBytes - size - hi_off * size);
    if (m.dim_len[2] <= 31 && m.dim_len[3] <= 31 && lo <= hi) {
      m.four = true;
      m.base_off = (Int(lo, hi) + size - 1) / size * size;
      if (m.base_off > hi) m.base_off -= size;
      return m;
    }
    m.dim_len = {};
    m.dim_stride = {};
  }
  const int span = n > 0 ? (n - 1) * std::abs(m.stride) * size : 0;
  const int lo = m.stride < 0 ? span : 0;
  const int hi = kVbufBytes - size - (m.stride > 0 ? span : 0);
  const int align = pair ? 4 : size;
  m.base_off = (Int(lo, hi) + align - 1) / align * align;
  if (m.base_off > hi) m.base_off -= align;
  return m;
}

std::string Gen::DefineDsd(const std::string& spec) {
  const std::string name = fmt::format("dd{}", dsds_.size());
  dsds_.push_back(name + ", " + spec);
  return name;
}

void Gen::MaterializeMem(int dsr, const MemOperand& m, int len) {
  const int size = Bytes(m.type);
  if (m.four) {  // an even register and the next; Length is the length of dimension 0
    auto spec4 = [&](int base_off) {
      return fmt::format(
          "mem4d, {}, base=vbuf+{}, len={}, stride={}, len1={}, stride1={}, len2={}, stride2={}, "
          "len3={}, stride3={}",
          TypeName(m.type), base_off, m.dim_len[0], m.stride, m.dim_len[1], m.dim_stride[0],
          m.dim_len[2], m.dim_stride[1], m.dim_len[3], m.dim_stride[2]);
    };
    int k = Chance(0.3) ? Int(-8, 8) : 0;  // a base k elements off, moved by dincb
    if (m.base_off - k * size < 0 || m.base_off - k * size > 0xFFFF) k = 0;
    const std::string name = DefineDsd(spec4(m.base_off - k * size));
    Line(fmt::format("ldd     d{}, {}", dsr, name));
    Line(fmt::format("ldd     d{}, {}+8", dsr + 1, name));
    if (k) Line(fmt::format("dincb   d{}, {}", dsr, k));
    return;
  }
  auto spec = [&](int base_off, int length) {
    return fmt::format("mem1d, {}, base=vbuf+{}, len={}, stride={}", TypeName(m.type), base_off,
                       length, m.stride);
  };
  switch (Int(0, 4)) {
    case 0:
      Line(fmt::format("ldd     d{}, {}", dsr, DefineDsd(spec(m.base_off, len))));
      break;
    case 1: {  // two words through GPRs
      const int a = Int(1, 5), b = Int(6, 10);
      Opnd o;
      o.kind = Opnd::kMem;
      o.type = m.type;
      o.mem = m;
      Line(fmt::format("li      {}, vbuf+{}", Reg(a),
                       Hex(static_cast<uint32_t>(len) << 16 | static_cast<uint32_t>(m.base_off))));
      LoadConst(b, DescriptorWord1(o));
      Line(fmt::format("dwr     d{}, {}, 0", dsr, Reg(a)));
      Line(fmt::format("dwr     d{}, {}, 1", dsr, Reg(b)));
      break;
    }
    case 2: {  // a base k elements off, moved by dincb
      int k = Int(-8, 8);
      if (m.base_off - k * size < 0 || m.base_off - k * size > kVbufBytes - size) k = 0;
      Line(fmt::format("ldd     d{}, {}", dsr, DefineDsd(spec(m.base_off - k * size, len))));
      if (Chance(0.5)) {
        Line(fmt::format("dincb   d{}, {}", dsr, k));
      } else {
        const int r = FreeReg();
        LoadConst(r, static_cast<uint32_t>(k));
        Line(fmt::format("dincb   d{}, {}", dsr, Reg(r)));
      }
      break;
    }
    case 3:  // another length, set by dsetl
      Line(fmt::format("ldd     d{}, {}", dsr, DefineDsd(spec(m.base_off, Int(0, 40)))));
      Line(fmt::format("dsetl   d{}, {}", dsr, len));
      break;
    default: {  // another base, set by dsetb
      const int other = Int(0, (kVbufBytes - size) / size) * size;
      Line(fmt::format("ldd     d{}, {}", dsr, DefineDsd(spec(other, len))));
      if (Chance(0.5)) {
        Line(fmt::format("dsetb   d{}, vbuf+{}", dsr, m.base_off));
      } else {
        Line(fmt::format("dsetb   d{}, {}({})", dsr, kBufBytes + m.base_off, Reg(kBaseReg)));
      }
      break;
    }
  }
}

// A FIFO descriptor (docs/isa.md 2.3): FIFO k's buffer in fbuf, its capacity, its number.
static void MaterializeFifo(Gen& g, int dsr, const Opnd& o) {
  g.Line(fmt::format(
      "ldd     d{}, {}", dsr,
      g.DefineDsd(fmt::format("fifo, {}, base=fbuf+{}, len={}, fifo={}", TypeName(o.type),
                              4 * kFifoSlots * o.fifo, o.cap, o.fifo))));
}

// A fabin or fabout descriptor, from a `.dsd` or from two words.
static void MaterializeFabric(Gen& g, int dsr, const Opnd& o) {
  if (g.Chance(0.6)) {
    std::string spec = fmt::format(
        "{}, {}, color={}, len={}", o.kind == Opnd::kFabIn ? "fabin" : "fabout", TypeName(o.type),
        o.color, o.len == arch::kUnboundedLength ? "inf" : std::to_string(o.len));
    if (o.ctrl) spec += ", ctrl=1";
    if (o.idx) spec += fmt::format(", idx=1, base={}", o.idx_base);
    g.Line(fmt::format("ldd     d{}, {}", dsr, g.DefineDsd(spec)));
    return;
  }
  const int a = g.Int(1, 5), b = g.Int(6, 10);
  g.LoadConst(a,
              static_cast<uint32_t>(o.len) << 16 | static_cast<uint32_t>(o.idx ? o.idx_base : 0));
  g.LoadConst(b, DescriptorWord1(o));
  g.Line(fmt::format("dwr     d{}, {}, 0", dsr, Gen::Reg(a)));
  g.Line(fmt::format("dwr     d{}, {}, 1", dsr, Gen::Reg(b)));
}

std::string Gen::Completion(const Ctx& c, int ut, int mode) {
  const bool async = mode == 2 || (mode == 1 && opt_.mix.Has(Category::kDsdAsync) && Chance(0.4));
  if (!async) return Chance(0.5) && ut == 0 ? "" : fmt::format(", ut{}", ut);
  if (opt_.mix.Has(Category::kDsdAsync)) {
    const int kind = Int(0, 2);
    const std::vector<TaskPlan*> targets = ActivationTargets(c);
    if (kind == 1 && !targets.empty()) {
      TaskPlan& t = *Pick(targets);
      CountActivation(c, t);
      return fmt::format(", ut{} activate {}", ut, t.name);
    }
    const std::vector<TaskPlan*> locals = LocalTasks();
    if (kind == 2 && !locals.empty())
      return fmt::format(", ut{} unblock {}", ut, Pick(locals)->name);
  }
  return fmt::format(", ut{} async", ut);
}

uint8_t Gen::FreeUts(int n, std::vector<int>& uts) {
  std::vector<int> all = {0, 1, 2, 3, 4, 5, 6, 7};
  Shuffle(all);
  // The settling waiter's microthread goes last (a move, no draw: the rest is the same).
  if (wait_ut_ >= 0)
    std::stable_partition(all.begin(), all.end(), [&](int u) { return u != wait_ut_; });
  uts.assign(all.begin(), all.begin() + n);
  uint8_t mask = 0;
  for (int u : uts) mask |= static_cast<uint8_t>(1u << u);
  return mask;
}

// Emits the descriptors of the operands and the operation; `inplace`: dst and src0 share one
// descriptor register.
static void EmitOp(Gen& g, const arch::InsnInfo& n, const std::array<Opnd, 3>& ops,
                   const std::string& done, bool inplace) {
  // Registers: a mem4d operand takes an even one and the next (its extension), first.
  std::vector<int> dsrs = {0, 1, 2, 3, 4, 5, 6, 7};
  g.Shuffle(dsrs);
  std::array<int, 3> reg{-1, -1, -1};
  std::vector<bool> used(8, false);
  for (int pass = 0; pass < 2; ++pass) {
    for (int r = 0; r < 3; ++r) {
      const bool four = ops[r].kind == Opnd::kMem && ops[r].mem.four;
      if (reg[r] >= 0 || four != (pass == 0)) continue;
      for (int d : dsrs) {
        if (used[d] || (four && (d % 2 || used[d + 1]))) continue;
        reg[r] = d;
        used[d] = true;
        if (four) used[d + 1] = true;
        break;
      }
    }
  }
  for (int r = 0; r < 3; ++r) {
    if (ops[r].kind == Opnd::kNone) continue;
    if (r == kSrc0 && inplace) {
      reg[r] = reg[kDst];
      continue;
    }
    if (ops[r].kind == Opnd::kMem) {
      g.MaterializeMem(reg[r], ops[r].mem, ops[r].len);
    } else if (ops[r].kind == Opnd::kFifo) {
      MaterializeFifo(g, reg[r], ops[r]);
    } else {
      MaterializeFabric(g, reg[r], ops[r]);
    }
  }
  std::string s;
  if (arch::HasScalar(n.form)) {
    // An asynchronous fdot writes its accumulator when it completes, at a time no code here
    // predicts: only kAsyncAcc, which no other code writes or relies on.
    const bool async = std::count(done.begin(), done.end(), ' ') > 1;
    const bool acc = n.form == DsdForm::kDot || n.form == DsdForm::kRed;
    const int sr = acc && async ? kAsyncAcc : g.FreeReg();
    if (g.Chance(0.6))
      g.LoadFpConst(sr, n.fmt == static_cast<uint8_t>(arch::DsdFmt::kF16) ||
                            n.fmt == static_cast<uint8_t>(arch::DsdFmt::kMix));
    s = Gen::Reg(sr);
  }
  auto d = [&](int r) { return fmt::format("d{}", reg[r]); };
  std::string text = fmt::format("{:<7} ", n.mnemonic);
  switch (n.form) {
    case DsdForm::kV3:
      text += fmt::format("{}, {}, {}", d(kDst), d(kSrc0), d(kSrc1));
      break;
    case DsdForm::kVS:
      text += fmt::format("{}, {}, {}", d(kDst), d(kSrc0), s);
      break;
    case DsdForm::kV2:
      text += fmt::format("{}, {}", d(kDst), d(kSrc0));
      break;
    case DsdForm::kFill:
      text += fmt::format("{}, {}", d(kDst), s);
      break;
    case DsdForm::kV4:
      text += fmt::format("{}, {}, {}, {}", d(kDst), d(kSrc0), d(kSrc1), s);
      break;
    case DsdForm::kDot:
      text += fmt::format("{}, {}, {}", s, d(kSrc0), d(kSrc1));
      break;
    case DsdForm::kRed:
      text += fmt::format("{}, {}", s, d(kSrc0));
      break;
  }
  g.Line(text + done);
}

// The Length the operation's N comes from: src0's, else src1's, else dst's (docs/isa.md 4.11).
static int LengthRole(DsdForm f) {
  return HasRole(f, kSrc0) ? kSrc0 : HasRole(f, kSrc1) ? kSrc1 : kDst;
}

// Memory operands for every present role not set yet, placed for n elements; lengths: n for the
// role that gives N, else mostly n (other lengths are not checked).
static void FillMem(Gen& g, const arch::InsnInfo& n, std::array<Opnd, 3>& ops, int count,
                    bool pair) {
  for (int r = 0; r < 3; ++r) {
    if (!HasRole(n.form, r) || ops[r].kind != Opnd::kNone) continue;
    ops[r].kind = Opnd::kMem;
    ops[r].type = Gen::PickType(g, n.types[r]);
    ops[r].mem = g.PlaceMem(ops[r].type, count, pair, true);
    ops[r].len = r == LengthRole(n.form) || g.Chance(0.7) ? count : g.Int(0, 40);
  }
}

void Gen::DsdMem(const Ctx& c) {
  const arch::InsnInfo& n = PickDsdLine([](const arch::InsnInfo&) { return true; });
  const int count = Chance(0.05) ? 0 : Int(1, kMaxLen);
  bool all16 = true;
  for (int r = 0; r < 3; ++r)
    if (HasRole(n.form, r) && !Is16(n.types[r])) all16 = false;
  const bool pair = all16 && Chance(0.5);
  std::array<Opnd, 3> ops{};
  bool inplace = false;
  if (HasRole(n.form, kDst) && HasRole(n.form, kSrc0) && n.types[kDst] == n.types[kSrc0] &&
      Chance(0.2)) {
    inplace = true;
    ops[kDst].kind = Opnd::kMem;
    ops[kDst].type = PickType(*this, n.types[kDst]);
    ops[kDst].mem = PlaceMem(ops[kDst].type, count, pair, true);
    ops[kDst].len = count;
    ops[kSrc0] = ops[kDst];
  }
  FillMem(*this, n, ops, count, pair);
  EmitOp(*this, n, ops, Completion(c, Ut(Int(0, 7)), 1), inplace);
}

static Opnd Fabric(Gen& g, Opnd::Kind kind, ElemClass cls, int color, int len) {
  Opnd o;
  o.kind = kind;
  o.type = Gen::PickType(g, cls);
  o.color = color;
  o.len = len;
  if (kind == Opnd::kFabOut && Bytes(o.type) == 2 && g.Chance(0.3)) {
    o.idx = true;
    o.idx_base = g.Int(0, 0xFFFF);
  }
  return o;
}

// A producer: dst fabout on `color`, memory sources; count wavelets.
static void Producer(Gen& g, const Ctx& c, int color, int count, int ut, int mode) {
  const auto& n = g.PickDsdLine([](const arch::InsnInfo& i) { return HasRole(i.form, kDst); });
  std::array<Opnd, 3> ops{};
  const int dst_len = n.form == DsdForm::kFill || g.Chance(0.7) ? count : g.Int(0, 40);
  ops[kDst] = Fabric(g, Opnd::kFabOut, n.types[kDst], color, dst_len);
  FillMem(g, n, ops, count, false);
  EmitOp(g, n, ops, g.Completion(c, ut, mode), false);
}

// A reader of `count` wavelets of `color`: fabin as src0, or as src1 with N from a memory src0.
static void Reader(Gen& g, const Ctx& c, int color, int count, int ut) {
  const auto& n = g.PickDsdLine([](const arch::InsnInfo& i) { return HasRole(i.form, kSrc0); });
  std::array<Opnd, 3> ops{};
  if (HasRole(n.form, kSrc1) && g.Chance(0.3)) {
    ops[kSrc1] =
        Fabric(g, Opnd::kFabIn, n.types[kSrc1], color, g.Chance(0.5) ? count : g.Int(0, 40));
  } else {
    ops[kSrc0] = Fabric(g, Opnd::kFabIn, n.types[kSrc0], color, count);
  }
  FillMem(g, n, ops, count, false);
  EmitOp(g, n, ops, g.Completion(c, ut, 1), false);
}

// A control wavelet naming no task on `color`, sent through register r (returned).
static int SendEnd(Gen& g, int color) {
  const int r = g.FreeReg();
  g.LoadConst(r, arch::kNoTask << arch::kCtrlTaskLsb | (g.U32() & 0xFFFF));
  g.Line(fmt::format("sendc   {}, {}", Gen::Reg(r), color));
  return r;
}

void Gen::FabricStream(const Ctx& c) {
  int variant = Int(0, 3);  // 0 stream, 1 relay, 2 unbounded reader, 3 two fabin operands
  const int need = variant == 1 || variant == 3 ? 2 : 1;
  if (static_cast<int>(dsd_colors_.size()) < need) variant = 0;
  std::vector<int> cols = dsd_colors_;
  Shuffle(cols);
  const int c1 = cols[0], c2 = cols.size() > 1 ? cols[1] : cols[0];
  std::vector<int> uts;
  const uint8_t own = FreeUts(3, uts);
  color_uts_[c1] |= own;
  color_uts_[c2] |= own;
  // Streams on these colors from any other code, in whatever order tasks run, are over before
  // this one starts: wait for every microthread that any stream of the program runs on them
  // (the mask is known once the whole program is generated; Generate fills it in).
  Line(fmt::format("utwait  {}", UtsOfColorsMark(c1, c2)));
  const int count = Int(0, 24);

  if (variant == 2) {  // an unbounded reader, ended by a control wavelet after the data
    const auto& n = PickDsdLine([](const arch::InsnInfo& i) { return HasRole(i.form, kSrc0); });
    std::array<Opnd, 3> ops{};
    ops[kSrc0] = Fabric(*this, Opnd::kFabIn, n.types[kSrc0], c1, arch::kUnboundedLength);
    FillMem(*this, n, ops, count, false);
    EmitOp(*this, n, ops, fmt::format(", ut{} async", uts[1]), false);
    const bool sync = Chance(0.5);
    Producer(*this, c, c1, count, uts[0], sync ? 0 : 2);
    if (!sync) Line(fmt::format("utwait  {}", Hex(1u << uts[0])));
    const int r = SendEnd(*this, c1);
    Line(fmt::format("utwait  {}", Hex(1u << uts[1])));
    // The dispatcher pops the control wavelet once no reader is left: wait until it has.
    const std::string poll = NewLabel("L");
    Label(poll);
    Line(fmt::format("lw      {}, CeColor+4*{}", Reg(r), c1));
    Line(fmt::format("andi    {0}, {0}, 0x1f", Reg(r)));
    Line(fmt::format("bnez    {}, {}", Reg(r), poll));
    return;
  }

  Producer(*this, c, c1, count, uts[0], 2);
  if (variant == 3) Producer(*this, c, c2, count, uts[2], 2);
  int in_color = c1;
  if (variant == 1) {  // a relay: fabin c1 -> fabout c2
    const auto& n = PickDsdLine(
        [](const arch::InsnInfo& i) { return HasRole(i.form, kDst) && HasRole(i.form, kSrc0); });
    std::array<Opnd, 3> ops{};
    ops[kSrc0] = Fabric(*this, Opnd::kFabIn, n.types[kSrc0], c1, count);
    ops[kDst] = Fabric(*this, Opnd::kFabOut, n.types[kDst], c2, Chance(0.7) ? count : Int(0, 40));
    FillMem(*this, n, ops, count, false);
    EmitOp(*this, n, ops, Completion(c, uts[2], 2), false);
    in_color = c2;
  }
  if (variant != 3) {
    Reader(*this, c, in_color, count, uts[1]);
    return;
  }
  // A reader of both colors.
  const auto& n = PickDsdLine(
      [](const arch::InsnInfo& i) { return HasRole(i.form, kSrc0) && HasRole(i.form, kSrc1); });
  std::array<Opnd, 3> ops{};
  ops[kSrc0] = Fabric(*this, Opnd::kFabIn, n.types[kSrc0], c1, count);
  ops[kSrc1] = Fabric(*this, Opnd::kFabIn, n.types[kSrc1], c2, Chance(0.7) ? count : Int(0, 40));
  FillMem(*this, n, ops, count, false);
  EmitOp(*this, n, ops, Completion(c, uts[1], 1), false);
}

// The bytes of a class's elements (kNone: 0).
static int ClassBytes(ElemClass c) { return c == ElemClass::kNone ? 0 : Is16(c) ? 2 : 4; }

// FIFO k of capacity cap as an operand of type class cls.
static Opnd FifoOpnd(Gen& g, ElemClass cls, int k, int cap) {
  Opnd o;
  o.kind = Opnd::kFifo;
  o.type = Gen::PickType(g, cls);
  o.fifo = k;
  o.cap = cap;
  return o;
}

// An operation with the FIFO operands given and memory operands elsewhere; the first non-FIFO
// operand of src0, src1, dst sets N = count.
static void FifoOp(Gen& g, const arch::InsnInfo& n, std::array<Opnd, 3> ops, int count,
                   const std::string& done) {
  FillMem(g, n, ops, count, false);
  for (const int r : {kSrc0, kSrc1, kDst}) {
    if (!HasRole(n.form, r) || ops[r].kind == Opnd::kFifo) continue;
    ops[r].len = count;
    break;
  }
  EmitOp(g, n, ops, done, false);
}

// A FIFO stream: one operation pushes `count` elements into FIFO k, another pops them, on two
// microthreads, in either order, one of them possibly synchronous; a FIFO of capacity below the
// count makes the pusher wait for the popper. Both end before the unit does, so every unit finds
// its FIFO empty. Sometimes a third operation relays the elements into a second FIFO.
void Gen::FifoStream(const Ctx& c) {
  (void)c;
  auto fifo = [&](int k) {
    if (!fifo_cap_[k]) fifo_cap_[k] = Chance(0.3) ? Int(1, 3) : Int(1, kFifoSlots);
    return fifo_cap_[k];
  };
  const int k1 = Int(0, arch::kNumFifos - 1);
  const bool relay = Chance(0.3);
  const int k2 = (k1 + Int(1, arch::kNumFifos - 1)) % arch::kNumFifos;
  const int count = Chance(0.05) ? 0 : Int(1, kMaxLen);
  // The pusher: a destination, and a source to set N (not fill: its only operand is the FIFO).
  const auto& push = PickDsdLine([](const arch::InsnInfo& i) {
    return HasRole(i.form, kDst) && (HasRole(i.form, kSrc0) || HasRole(i.form, kSrc1));
  });
  const int size = ClassBytes(push.types[kDst]);
  auto holds = [&](const arch::InsnInfo& i, int r) {  // role r takes elements of that size
    return HasRole(i.form, r) && ClassBytes(i.types[r]) == size;
  };
  // A popper of elements of that size: its src0 or src1, with another operand to set N.
  const auto& pop = PickDsdLine([&](const arch::InsnInfo& i) {
    const int others = HasRole(i.form, kDst) + HasRole(i.form, kSrc0) + HasRole(i.form, kSrc1);
    return (holds(i, kSrc0) || holds(i, kSrc1)) && others >= 2;
  });
  const int pop_role = holds(pop, kSrc1) && (!holds(pop, kSrc0) || Chance(0.3)) ? kSrc1 : kSrc0;
  // The operations in the order they issue: the popper first (it waits for data) or last, each
  // on its own microthread; the last one may be synchronous (the others already run).
  enum Op { kPush, kRelay, kPop };
  std::vector<Op> order = {kPush};
  if (relay) order.push_back(kRelay);
  if (Chance(0.5)) {
    order.insert(order.begin(), kPop);
  } else {
    order.push_back(kPop);
  }
  std::vector<int> uts;
  FreeUts(3, uts);
  const bool sync_last = Chance(0.4);
  const int cap1 = fifo(k1), cap2 = relay ? fifo(k2) : 0;
  for (size_t j = 0; j < order.size(); ++j) {
    const std::string done = j + 1 == order.size() && sync_last
                                 ? fmt::format(", ut{}", uts[j])
                                 : fmt::format(", ut{} async", uts[j]);
    std::array<Opnd, 3> ops{};
    if (order[j] == kPush) {
      ops[kDst] = FifoOpnd(*this, push.types[kDst], k1, cap1);
      FifoOp(*this, push, ops, count, done);
    } else if (order[j] == kPop) {
      ops[pop_role] = FifoOpnd(*this, pop.types[pop_role], relay ? k2 : k1, relay ? cap2 : cap1);
      FifoOp(*this, pop, ops, count, done);
    } else {  // FIFO k1 -> FIFO k2, and a memory source (src1) for N
      const auto& rel = PickDsdLine([&](const arch::InsnInfo& i) {
        return holds(i, kDst) && holds(i, kSrc0) && HasRole(i.form, kSrc1);
      });
      ops[kSrc0] = FifoOpnd(*this, rel.types[kSrc0], k1, cap1);
      ops[kDst] = FifoOpnd(*this, rel.types[kDst], k2, cap2);
      FifoOp(*this, rel, ops, count, done);
    }
  }
  uint32_t mask = 0;
  for (size_t j = 0; j < order.size(); ++j) mask |= 1u << uts[j];
  Line(fmt::format("utwait  {}", Hex(mask)));
}

void Gen::FabricToTask(const Ctx& c) {
  std::vector<int> cols;
  for (int col : TaskColors())
    if (SendRoom(c, col) >= 1) cols.push_back(col);
  if (cols.empty()) {
    Line("nop");
    return;
  }
  const int col = Pick(cols);
  const int count = Int(1, std::min(SendRoom(c, col), 8));
  Spend(c, col, count);
  Producer(*this, c, col, count, Ut(Int(0, 7)), 1);
}

void Gen::CtrlStream(const Ctx& c) {
  const int room = SendRoom(c, ctrl_color_);
  if (room < 1) {
    Line("nop");
    return;
  }
  const int k = Int(1, std::min(room, kCtabWords));
  Spend(c, ctrl_color_, k);
  const int off = Int(0, kCtabWords - k);
  const int a = Int(0, 7), b = (a + Int(1, 7)) % 8;
  Line(fmt::format("ldd     d{}, {}", a,
                   DefineDsd(fmt::format("mem1d, u32, base=ctab+{}, len={}", 4 * off, k))));
  Line(
      fmt::format("ldd     d{}, {}", b,
                  DefineDsd(fmt::format("fabout, u32, color={}, len={}, ctrl=1", ctrl_color_, k))));
  Line(fmt::format("mov32   d{}, d{}{}", b, a, Completion(c, Ut(Int(0, 7)), 1)));
}

void Gen::LinkStream(const Ctx& c, const PeLinks::Stream& s) {
  const int ut = Ut(Int(0, 7));
  Producer(*this, c, s.color, s.count, ut, Int(0, 2));
  if (!s.ctrl_end) return;
  // The control wavelet after every data wavelet: an asynchronous producer finishes first.
  Line(fmt::format("utwait  {}", Hex(1u << ut)));
  SendEnd(*this, s.color);
}

void Gen::LinkRead(const Ctx& c, const PeLinks::Read& r) {
  Reader(*this, c, r.color, r.count, Ut(Int(0, 7)));
}

}  // namespace tessera::fuzz::detail
