#include "csl/dsd_ops.h"

#include <algorithm>
#include <map>

#include "arch/arch.h"
#include "csl/compiler.h"

namespace tessera::csl {
namespace {

// The Trap fault's code for a fabric operation on a queue without a color (Materialize); a
// failed @assert traps with 1.
constexpr int kUnboundQueueTrap = 2;

// What an operation accepts per element: the instruction-set type classes (docs/isa.md 4.11).
enum class Cls : uint8_t { kF32, kF16, kI32, kI16, kX32, kX16 };

struct OpInfo {
  const char* mnemonic;
  Cls cls;
  int dsd_srcs;       // source operands (besides dst) that may be DSDs: 0 (fill), 1 (V2) or 2
  bool scalar_ok;     // a scalar may replace the second source (VS) or the only one (Fill)
  bool commutes;      // a scalar first source may swap with the second
  bool needs_scalar;  // V4: dst, src0, src1, scalar
};

const std::map<std::string, OpInfo>& Ops() {
  static const std::map<std::string, OpInfo> m = {
      {"fadds", {"fadds", Cls::kF32, 2, true, true, false}},
      {"faddh", {"faddh", Cls::kF16, 2, true, true, false}},
      {"fsubs", {"fsubs", Cls::kF32, 2, true, false, false}},
      {"fsubh", {"fsubh", Cls::kF16, 2, true, false, false}},
      {"fmuls", {"fmuls", Cls::kF32, 2, true, true, false}},
      {"fmulh", {"fmulh", Cls::kF16, 2, true, true, false}},
      {"fmaxs", {"fmaxs", Cls::kF32, 2, true, true, false}},
      {"fmaxh", {"fmaxh", Cls::kF16, 2, true, true, false}},
      {"fmins", {"fmins", Cls::kF32, 2, true, true, false}},
      {"fminh", {"fminh", Cls::kF16, 2, true, true, false}},
      {"fmacs", {"fmacs", Cls::kF32, 2, false, false, true}},
      {"fmach", {"fmach", Cls::kF16, 2, false, false, true}},
      {"fmovs", {"mov32", Cls::kX32, 1, true, false, false}},
      {"fmovh", {"mov16", Cls::kX16, 1, true, false, false}},
      {"mov32", {"mov32", Cls::kX32, 1, true, false, false}},
      {"mov16", {"mov16", Cls::kX16, 1, true, false, false}},
      {"add16", {"add16", Cls::kI16, 2, true, true, false}},
      {"add32", {"add32", Cls::kI32, 2, true, true, false}},
      {"sub16", {"sub16", Cls::kI16, 2, false, false, false}},
      {"sub32", {"sub32", Cls::kI32, 2, false, false, false}},
      {"and16", {"and16", Cls::kI16, 2, true, true, false}},
      {"or16", {"or16", Cls::kI16, 2, true, true, false}},
      {"xor16", {"xor16", Cls::kI16, 2, true, true, false}},
      {"fnegs", {"fnegs", Cls::kF32, 1, false, false, false}},
      {"fnegh", {"fnegh", Cls::kF16, 1, false, false, false}},
      {"fabss", {"fabss", Cls::kF32, 1, false, false, false}},
      {"fabsh", {"fabsh", Cls::kF16, 1, false, false, false}},
  };
  return m;
}

const char* ClsName(Cls c) {
  static const char* const n[] = {"f32",        "f16",           "i32 or u32",
                                  "i16 or u16", "a 32-bit type", "a 16-bit type"};
  return n[static_cast<int>(c)];
}

// The element type a fabric DSD takes in an operation of class c.
TypeP DefaultElem(Cls c) {
  switch (c) {
    case Cls::kF32:
      return types::Float(32);
    case Cls::kF16:
      return types::Float(16);
    case Cls::kI32:
      return types::Int(32, true);
    case Cls::kI16:
      return types::Int(16, true);
    case Cls::kX32:
      return types::Int(32, false);
    case Cls::kX16:
      return types::Int(16, false);
  }
  return types::Float(32);
}

bool Accepts(Cls c, const TypeP& t) {
  switch (c) {
    case Cls::kF32:
      return t->kind == TypeKind::kFloat && t->bits == 32;
    case Cls::kF16:
      return t->kind == TypeKind::kFloat && t->bits == 16;
    case Cls::kI32:
      return t->kind == TypeKind::kInt && t->bits == 32;
    case Cls::kI16:
      return t->kind == TypeKind::kInt && t->bits == 16;
    case Cls::kX32:
      return SizeOf(t) == 4 && t->kind != TypeKind::kPtr;
    case Cls::kX16:
      return SizeOf(t) == 2;
  }
  return false;
}

TypeP ScalarType(Cls c) { return DefaultElem(c == Cls::kX32 ? Cls::kF32 : c); }

Value DsdVal(std::shared_ptr<const DsdValue> d) {
  Value v;
  v.k = Value::K::kDsd;
  v.dsd = std::move(d);
  v.type = types::Dsd(v.dsd->kind);
  return v;
}

class DsdGen {
 public:
  DsdGen(Sema& s, const Node* call, const std::vector<const Node*>& a)
      : s_(s), call_(call), a_(a) {}

  RV GetDsd() {
    if (a_.size() != 2) s_.Fail(call_, "@get_dsd takes (kind, .{ fields })");
    const TypeP kind = s_.TypeOf(a_[0], "the DSD kind");
    if (kind->kind != TypeKind::kDsd)
      s_.Fail(a_[0], "@get_dsd's kind is mem1d_dsd, mem4d_dsd, fabin_dsd or fabout_dsd");
    const Value f = s_.Const(a_[1], "the DSD's fields");
    if (f.k != Value::K::kAgg) s_.Fail(a_[1], "@get_dsd's fields are a struct: .{ .extent = ... }");
    auto d = std::make_shared<DsdValue>();
    d->kind = kind->dsd;
    auto field_int = [&](const char* name, int64_t lo, int64_t hi) -> std::optional<int64_t> {
      const Value* v = f.Field(name);
      if (!v) return std::nullopt;
      if (v->k != Value::K::kInt) s_.Fail(a_[1], fmt::format(".{} must be an integer", name));
      if (v->i < lo || v->i > hi)
        s_.Fail(a_[1], fmt::format(".{} = {} is out of range ({}..{})", name, v->i, lo, hi));
      return v->i;
    };
    auto allowed = [&](std::initializer_list<const char*> names) {
      for (const std::string& n : f.names) {
        bool ok = false;
        for (const char* x : names) ok |= n == x;
        if (!ok)
          s_.Fail(a_[1], fmt::format("{} has no field '{}' (Tessera's cslc knows: {})",
                                     TypeName(kind), n, [&] {
                                       std::string l;
                                       for (const char* x : names)
                                         l += (l.empty() ? "" : ", ") + std::string(x);
                                       return l;
                                     }()));
      }
    };
    switch (d->kind) {
      case DsdKind::kMem1d: {
        allowed({"tensor_access", "base_address", "extent", "stride", "offset",
                 "wavelet_index_offset"});
        // An operation's .index then offsets the DSD by that many elements (Op).
        if (const Value* w = f.Field("wavelet_index_offset")) d->index = w->i != 0;
        if (const Value* ta = f.Field("tensor_access")) {
          if (ta->k != Value::K::kTensor) s_.Fail(a_[1], ".tensor_access takes |i|{N} -> A[...]");
          if (f.Field("base_address") || f.Field("extent") || f.Field("stride") ||
              f.Field("offset"))
            s_.Fail(a_[1],
                    ".tensor_access gives base, extent, stride and offset; do not give them again");
          Tensor(ta->node, *d);
        } else {
          const Value* b = f.Field("base_address");
          if (!b) s_.Fail(a_[1], "a mem1d DSD needs .tensor_access or .base_address");
          Base(*b, *d, a_[1]);
          d->length = field_int("extent", 0, 0x7FFE).value_or(-1);
          if (d->length < 0) s_.Fail(a_[1], "a mem1d DSD needs .extent");
          d->stride = field_int("stride", -128, 127).value_or(1);
          d->base_offset += field_int("offset", -32768, 32767).value_or(0) * SizeOf(d->elem);
        }
        break;
      }
      case DsdKind::kFabin:
      case DsdKind::kFabout: {
        const bool in = d->kind == DsdKind::kFabin;
        if (in)
          allowed({"extent", "fabric_color", "input_queue"});
        else
          allowed({"extent", "fabric_color", "output_queue", "control", "wavelet_index_offset"});
        d->length = field_int("extent", 1, 0x7FFF).value_or(-1);
        if (d->length < 0) s_.Fail(a_[1], fmt::format("a {} needs .extent", TypeName(kind)));
        if (const Value* c = f.Field("fabric_color")) {
          if (c->k != Value::K::kInt || c->type->kind != TypeKind::kColor)
            s_.Fail(a_[1], ".fabric_color takes a color (@get_color(n))");
          d->color = static_cast<int>(c->i);
        }
        if (const Value* q = f.Field(in ? "input_queue" : "output_queue")) {
          if (q->k != Value::K::kInt ||
              q->type->kind != (in ? TypeKind::kInQueue : TypeKind::kOutQueue))
            s_.Fail(a_[1],
                    fmt::format(".{} takes an {} (@get_{}(n))", in ? "input_queue" : "output_queue",
                                in ? "input_queue" : "output_queue",
                                in ? "input_queue" : "output_queue"));
          d->queue = static_cast<int>(q->i);
        }
        if (d->color < 0 && d->queue < 0)
          s_.Fail(a_[1], fmt::format("a {} needs .fabric_color or .{}", TypeName(kind),
                                     in ? "input_queue" : "output_queue"));
        if (const Value* c = f.Field("control")) d->control = c->i != 0;
        if (const Value* w = f.Field("wavelet_index_offset")) d->index = w->i != 0;
        break;
      }
      case DsdKind::kMem4d:
        s_.Fail(a_[0], "mem4d_dsd is not supported by Tessera's cslc yet");
    }
    return s_.Known(DsdVal(d));
  }

  // @allocate_fifo(buffer): a FIFO descriptor over a global array (docs/isa.md 2.3): the array's
  // elements are its slots, and the PE's next FIFO number is its own (the same array gives the
  // same FIFO). The SDK's options (.activate_push, ...) are refused.
  RV AllocateFifo() {
    if (a_.size() != 1)
      s_.Fail(a_.size() > 1 ? a_[1] : call_,
              "@allocate_fifo takes one array (Tessera's cslc has no FIFO options: .activate_push "
              "and .activate_pop are not supported)");
    Program* p = s_.module()->program;
    if (!p) s_.Fail(call_, "@allocate_fifo belongs in a PE's code, not in the layout");
    FnState* saved = s_.fn();
    s_.SetFn(nullptr);
    const Place arr = s_.PlaceOf(a_[0]);
    s_.SetFn(saved);
    if (arr.where != Place::W::kMem || arr.base >= 0 || arr.sym.empty() || !arr.type ||
        arr.type->kind != TypeKind::kArray || arr.type->dims.size() != 1)
      s_.Fail(a_[0],
              "@allocate_fifo takes a global one-dimensional array: its elements are the "
              "FIFO's slots");
    const int64_t n = arr.type->dims[0];
    if (n < 1 || n > 0x7FFE)
      s_.Fail(a_[0], fmt::format("a FIFO holds 1..32766 elements; this array has {}", n));
    const TypeP elem = arr.type->elem;
    if (SizeOf(elem) != 2 && SizeOf(elem) != 4)
      s_.Fail(a_[0], fmt::format("a FIFO's elements are 16 or 32 bits, not {}", TypeName(elem)));
    if (arr.global) arr.global->address_taken = true;
    const std::string key = fmt::format("{}+{}", arr.sym, arr.off);
    auto it = p->fifos.find(key);
    if (it == p->fifos.end()) {
      const int k = static_cast<int>(p->fifos.size());
      if (k >= arch::kNumFifos)
        s_.Fail(call_, fmt::format("a PE has {} FIFOs; this is one more", arch::kNumFifos));
      it = p->fifos.emplace(key, k).first;
    }
    auto d = std::make_shared<DsdValue>();
    d->kind = DsdKind::kFifo;
    d->base_symbol = arr.sym;
    d->base_offset = arr.off;
    d->elem = elem;
    d->length = n;
    d->color = it->second;
    return s_.Known(DsdVal(d));
  }

  // `|i|{N} -> A[f(i)]` with f affine: base = &A[f(0)], stride = f(1) - f(0).
  void Tensor(const Node* t, DsdValue& d) {
    if (t->names.size() != 1) s_.Fail(t, "a mem1d tensor access has one index: |i|{N} -> A[...]");
    const Value n = s_.Const(t->kid(0), "the tensor access's extent");
    if (n.k != Value::K::kInt || n.i < 0 || n.i > 0x7FFE)
      s_.Fail(t->kid(0), fmt::format("the extent must be 0..32766, found {}", ValueText(n)));
    d.length = n.i;
    const Node* acc = t->kids.back().get();
    if (acc->kind != NodeKind::kIndex)
      s_.Fail(acc, "a tensor access indexes an array: A[i], A[i*N + k] or A[i, j]");
    // The array, then its linear index for i = 0, 1, 2 (an affine access gives equal steps;
    // i may run past the array's end, as the DSD's extent says).
    FnState* saved = s_.fn();
    s_.SetFn(nullptr);
    Place arr = s_.PlaceOf(acc->kid(0));
    // A const array a DSD reads is placed in memory, initialised with its value.
    if (arr.where == Place::W::kComptime && arr.type && arr.type->kind == TypeKind::kArray &&
        acc->kid(0)->kind == NodeKind::kIdent && s_.module()->program) {
      if (GlobalVar* g =
              s_.compiler().ConstArrayGlobal(s_.module(), acc->kid(0)->text, *arr.cvalue)) {
        arr = Place();
        arr.where = Place::W::kMem;
        arr.sym = g->symbol;
        arr.type = g->type;
        arr.global = g;
      }
    }
    // A known pointer to an array (a param `X: *[N]T` given `&A`) indexes that array.
    if (arr.where == Place::W::kComptime && arr.cvalue->k == Value::K::kPtr && arr.type &&
        arr.type->kind == TypeKind::kPtr && !arr.type->many && arr.type->elem &&
        arr.type->elem->kind == TypeKind::kArray) {
      const Value ptr = *arr.cvalue;
      arr = Place();
      arr.where = Place::W::kMem;
      arr.sym = ptr.s;
      arr.off = ptr.i;
      arr.type = ptr.type->elem;
    }
    if (arr.where != Place::W::kMem || arr.base >= 0 || arr.sym.empty() ||
        arr.type->kind != TypeKind::kArray)
      s_.Fail(acc, "a tensor access must index a global array");
    if (arr.global) arr.global->address_taken = true;
    if (acc->kids.size() - 1 != arr.type->dims.size())
      s_.Fail(acc, fmt::format("{} takes {} indices", TypeName(arr.type), arr.type->dims.size()));
    int64_t off[3];
    for (int i = 0; i < 3; ++i) {
      s_.PushScope();
      s_.BindConst(t->names[0], Value::CInt(i));
      int64_t lin = 0;
      for (size_t k = 1; k < acc->kids.size(); ++k) {
        const Value iv = s_.Const(acc->kid(k), "a tensor access's index");
        if (iv.k != Value::K::kInt) s_.Fail(acc->kid(k), "an index must be an integer");
        lin = lin * arr.type->dims[k - 1] + iv.i;
      }
      s_.PopScopeFreeing();
      off[i] = arr.off + lin * SizeOf(arr.type->elem);
    }
    s_.SetFn(saved);
    const std::string sym = arr.sym;
    const TypeP elem = arr.type->elem;
    const int64_t es = SizeOf(elem);
    if (off[1] - off[0] != off[2] - off[1])
      s_.Fail(acc, "a tensor access must be affine in its index (as A[i*N + k])");
    d.base_symbol = sym;
    d.base_offset = off[0];
    d.elem = elem;
    d.stride = (off[1] - off[0]) / es;
    if (d.stride < -32768 || d.stride > 32767)
      s_.Fail(acc, fmt::format("the tensor access's stride {} is out of range", d.stride));
  }

  void Base(const Value& b, DsdValue& d, const Node* at) {
    if (b.k != Value::K::kPtr) s_.Fail(at, ".base_address takes a pointer to a global array (&A)");
    d.base_symbol = b.s;
    d.base_offset = b.i;
    d.elem = b.type->elem->kind == TypeKind::kArray ? b.type->elem->elem : b.type->elem;
  }

  // Loads operand `v` into a descriptor register for an operation of class c (one register
  // for operands loaded from the same place: `@fadds(y, y, x)` loads y once).
  std::string Operand(RV& v, Cls c, int dreg, const Node* at, const char* role) {
    auto load = [&](const std::string& from) {
      for (const auto& [src, reg] : loaded_)
        if (src == from) return reg;
      s_.Emit("ldd     d{}, {}", dreg, from);
      loaded_.emplace_back(from, fmt::format("d{}", dreg));
      return loaded_.back().second;
    };
    if (v.known) {
      if (v.v.k != Value::K::kDsd)
        s_.Fail(at, fmt::format("{} must be a DSD, found {}", role, ValueText(v.v)));
      if (v.v.dsd->dsr >= 0) {  // a register of @get_dsr, loaded by @load_to_dsr
        const int k = v.v.dsd->dsr;
        if (std::find(named_dsrs_.begin(), named_dsrs_.end(), k) == named_dsrs_.end())
          named_dsrs_.push_back(k);
        return fmt::format("d{}", k);
      }
      DsdValue d = *v.v.dsd;
      const bool by_queue = QueueColored(d);
      Materialize(d, c, at, role);
      NoteSource(d, role);
      const std::string sym = s_.compiler().DsdConstant(s_.module()->program, d, at->loc);
      if (by_queue && !unbound_queue_) {
        s_.Emit("ldd     d{}, {}", dreg, sym);
        PatchQueueColor(dreg, d, at);
        return fmt::format("d{}", dreg);
      }
      if (index_reg_ >= 0 && d.kind == DsdKind::kMem1d && d.index) {
        // Its own register, moved by the wavelet's index (in elements: dincb scales).
        s_.Emit("ldd     d{}, {}", dreg, sym);
        s_.Emit("dincb   d{}, r{}", dreg, index_reg_);
        indexed_ = true;
        return fmt::format("d{}", dreg);
      }
      return load(sym);
    }
    if (v.dreg >= 0) return fmt::format("d{}", v.dreg);
    if (!v.mem.empty()) {
      // A DSD variable: its initial value says which array it walks.
      for (const auto& [sym, g] : s_.module()->program->globals)
        if (g.symbol == v.mem && g.init.k == Value::K::kDsd) {
          NoteSource(*g.init.dsd, role);
          if (QueueColored(*g.init.dsd)) {
            s_.Emit("ldd     d{}, {}", dreg, v.mem);
            PatchQueueColor(dreg, *g.init.dsd, at);
            return fmt::format("d{}", dreg);
          }
        }
      return load(v.mem);
    }
    s_.Fail(at, fmt::format("{} must be a DSD, found {}", role, TypeName(v.type)));
  }

  // A fabric DSD that names its color by a queue, in a program whose queues can change color at
  // run time (<tile_config>).
  bool QueueColored(const DsdValue& d) const {
    return s_.module()->program->runtime_queue_colors &&
           (d.kind == DsdKind::kFabin || d.kind == DsdKind::kFabout) && d.color < 0 && d.queue >= 0;
  }

  // Replaces the color of the descriptor in register dreg by its queue's current one
  // (__queue_colors: input queues, then output queues at 8..15).
  void PatchQueueColor(int dreg, const DsdValue& d, const Node* at) {
    static_assert(arch::Dsd::kColorLsb >= 32 && arch::Dsd::kColorWidth == 5,
                  "Dsd.Color lies in the descriptor's word 1");
    constexpr unsigned kShift = arch::Dsd::kColorLsb - 32;
    const int q = d.queue + (d.kind == DsdKind::kFabout ? 8 : 0);
    const int t = s_.Temp(at);
    const int w = s_.Temp(at);
    const int m = s_.Temp(at);
    s_.Emit("lw      r{}, __queue_colors+{}", t, 4 * q);
    s_.Emit("shli    r{0}, r{0}, {1}", t, kShift);
    s_.Emit("drd     r{}, d{}, 1", w, dreg);
    s_.Emit("li      r{}, 0x{:x}", m, ~(0x1Fu << kShift));
    s_.Emit("and     r{0}, r{0}, r{1}", w, m);
    s_.Emit("or      r{0}, r{0}, r{1}", w, t);
    s_.Emit("dwr     d{}, r{}, 1", dreg, w);
    s_.FreeReg(m);
    s_.FreeReg(w);
    s_.FreeReg(t);
  }

  // The memory arrays an operation reads as its two sources, for bank-aware placement
  // (Compiler::PlaceArrays): their bases should differ modulo 16 (docs/isa.md 6.7).
  void NoteSource(const DsdValue& d, const char* role) {
    if (d.kind != DsdKind::kMem1d || d.base_symbol.empty() ||
        std::string(role) == "the destination")
      return;
    sources_.emplace_back(d.base_symbol, d.base_offset);
    if (sources_.size() == 2 && sources_[0].first != sources_[1].first)
      s_.module()->program->bank_pairs.push_back(
          {sources_[0].first, sources_[0].second, sources_[1].first, sources_[1].second});
  }

  // Gives a DSD its element type and resolves its color from the queue it names.
  void Materialize(DsdValue& d, Cls c, const Node* at, const char* role) {
    Program* p = s_.module()->program;
    if (d.kind == DsdKind::kFabin || d.kind == DsdKind::kFabout) {
      d.elem = DefaultElem(c);
      if (d.color < 0) {
        const auto& m = d.kind == DsdKind::kFabin ? p->in_queue_color : p->out_queue_color;
        const auto it = m.find(d.queue);
        if (it == m.end()) {
          // Programs leave a queue unbound on PEs that never reach the operation (residual's
          // `if (0 == _px)`): the operation compiles to the Trap fault with code
          // kUnboundQueueTrap, which stops the PE at this line if it does run (docs/csl.md).
          if (s_.fn()) {
            unbound_queue_ = true;
            d.color = 0;
            return;
          }
          s_.Fail(at, fmt::format("{}: {} queue {} has no color: give the DSD .fabric_color or "
                                  "@initialize_queue(@get_{}_queue({}), .{{ .color = ... }})",
                                  role, d.kind == DsdKind::kFabin ? "input" : "output", d.queue,
                                  d.kind == DsdKind::kFabin ? "input" : "output", d.queue));
        }
        d.color = it->second;
      }
      return;
    }
    // A 16-bit move over a 32-bit array takes each element's low half (the SDK does the same,
    // topic-14): the descriptor becomes 16-bit with twice the stride, from the same address.
    if ((c == Cls::kX16 || c == Cls::kI16) && d.kind == DsdKind::kMem1d && SizeOf(d.elem) == 4 &&
        d.elem->kind == TypeKind::kInt) {
      d.elem = DefaultElem(c);
      d.stride *= 2;
      return;
    }
    if (!Accepts(c, d.elem))
      s_.Fail(at, fmt::format("{}: @{} needs elements of {}, this DSD's array holds {}", role,
                              call_->text, ClsName(c), TypeName(d.elem)));
  }

  RV Op(const OpInfo& info) {
    // Options: a final comptime struct with .async, .activate, .unblock.
    std::vector<const Node*> ops = a_;
    Value opts = Value::Void();
    const Node* index_node = nullptr;  // .index: a wavelet's index, known at run time
    if (!ops.empty() && ops.back()->kind == NodeKind::kInitList && !ops.back()->kid(0)) {
      const Node* list = ops.back();
      for (size_t k = 1; k < list->kids.size(); ++k)
        if (list->kid(k) && list->kid(k)->kind == NodeKind::kFieldInit &&
            list->kid(k)->text == "index")
          index_node = list->kid(k)->kid(0);
      if (!index_node) {
        opts = s_.Const(list, "the operation's options");
      } else {
        opts.k = Value::K::kAgg;
        for (size_t k = 1; k < list->kids.size(); ++k) {
          const Node* fi = list->kid(k);
          if (!fi || fi->kind != NodeKind::kFieldInit || fi->text == "index") continue;
          opts.names.push_back(fi->text);
          opts.elems.push_back(s_.Const(fi->kid(0), fmt::format("option .{}", fi->text)));
        }
      }
      ops.pop_back();
    }
    if (index_node) {
      // `.index = i` offsets every operand made with .wavelet_index_offset by i elements.
      RV ix = s_.Coerce(s_.Expr(index_node, types::Int(16, false)), types::Int(16, false),
                        index_node, "the option .index");
      index_reg_ = s_.ToReg(ix, index_node);
      index_rv_ = ix;
    }
    const size_t want = 1 + static_cast<size_t>(info.dsd_srcs) + (info.needs_scalar ? 1 : 0);
    if (ops.size() != want && !(info.dsd_srcs == 1 && ops.size() == 2) &&
        !(info.dsd_srcs == 2 && ops.size() == 3))
      s_.Fail(call_, fmt::format("@{} takes {} operands, found {}", call_->text, want, ops.size()));
    s_.NeedRuntime(call_, fmt::format("@{}", call_->text));
    // Evaluate the operands: DSDs and at most one scalar.
    std::vector<RV> v;
    for (const Node* o : ops) v.push_back(s_.Expr(o, ScalarType(info.cls)));
    auto is_dsd = [&](const RV& r) { return r.type->kind == TypeKind::kDsd; };
    if (!is_dsd(v[0])) s_.Fail(ops[0], fmt::format("@{}'s destination must be a DSD", call_->text));
    // A scalar in the first source slot of a commutative operation moves to the second.
    if (info.dsd_srcs == 2 && ops.size() == 3 && !is_dsd(v[1]) && is_dsd(v[2])) {
      if (!info.commutes)
        s_.Fail(ops[1], fmt::format("@{} takes a scalar only as its last source", call_->text));
      std::swap(v[1], v[2]);
      std::swap(ops[1], ops[2]);
    }
    std::string mnemonic = info.mnemonic;
    std::vector<std::string> regs;
    const std::string dst = Operand(v[0], info.cls, 0, ops[0], "the destination");
    regs.push_back(dst);
    int scalar_reg = -1;
    int scalar_index = -1;
    for (size_t i = 1; i < ops.size(); ++i) {
      const bool last = i + 1 == ops.size();
      if (is_dsd(v[i])) {
        regs.push_back(Operand(v[i], info.cls, static_cast<int>(i), ops[i],
                               i == 1 ? "the first source" : "the second source"));
        continue;
      }
      const bool scalar_slot = (info.needs_scalar && last) || (info.scalar_ok && last);
      if (!scalar_slot)
        s_.Fail(ops[i],
                fmt::format("@{} needs a DSD here, found {}", call_->text, TypeName(v[i].type)));
      // An untyped integer moved by @mov32/@mov16 keeps its bits (u32/u16); other untyped
      // numbers take the operation's element type.
      const bool raw = info.cls == Cls::kX32 || info.cls == Cls::kX16;
      const TypeP st = raw && v[i].type->kind == TypeKind::kCInt ? DefaultElem(info.cls)
                       : info.cls == Cls::kX16                   ? types::Float(16)
                                                                 : ScalarType(info.cls);
      RV sc = v[i];
      if (sc.type->kind == TypeKind::kCInt || sc.type->kind == TypeKind::kCFloat ||
          sc.type->IsNumeric())
        sc = s_.Coerce(sc, Accepts(info.cls, sc.type) ? sc.type : st, ops[i], "the scalar");
      if (!Accepts(info.cls, sc.type) && !(info.cls == Cls::kX32 && SizeOf(sc.type) == 4) &&
          !(info.cls == Cls::kX16 && SizeOf(sc.type) == 2))
        s_.Fail(ops[i], fmt::format("@{}'s scalar must be {}, found {}", call_->text,
                                    ClsName(info.cls), TypeName(sc.type)));
      scalar_reg = s_.ToReg(sc, ops[i]);
      v[i] = sc;
      scalar_index = static_cast<int>(i);
      // Subtracting a scalar is adding its negation (docs/isa.md 4.11).
      if (mnemonic == "fsubs" || mnemonic == "fsubh") {
        const int t = sc.temp ? scalar_reg : s_.Temp(ops[i]);
        s_.Emit("fneg.{}  r{}, r{}", mnemonic == "fsubs" ? 's' : 'h', t, scalar_reg);
        if (t != scalar_reg) {
          v[i].reg = t;
          v[i].temp = true;
          scalar_reg = t;
        }
        mnemonic = mnemonic == "fsubs" ? "fadds" : "faddh";
      }
      regs.push_back(fmt::format("r{}", scalar_reg));
    }
    // The microthread: an async operation runs on its fabout's output queue, else its fabin's
    // input queue; a synchronous one on ut0 (docs/csl.md).
    if (index_reg_ >= 0) {
      if (!indexed_)
        s_.Fail(index_node, ".index needs an operand made with .wavelet_index_offset = true");
      s_.Free(index_rv_);
    }
    const bool async = opts.Field("async") && opts.Field("async")->i != 0;
    int ut = 0;
    if (async) {
      // A DSD known only at run time (a `var`) still has its type's kind, and a global's
      // initializer gives the queue the program set up for it.
      auto shape = [&](size_t i) -> const DsdValue* {
        if (v[i].v.k == Value::K::kDsd && v[i].known) return v[i].v.dsd.get();
        if (v[i].dsd_init) return v[i].dsd_init.get();
        return nullptr;
      };
      auto kind_of = [&](size_t i) {
        const DsdValue* d = shape(i);
        if (d) return d->kind;
        return v[i].type && v[i].type->kind == TypeKind::kDsd ? v[i].type->dsd : DsdKind::kMem1d;
      };
      ut = -1;
      for (DsdKind want : {DsdKind::kFabout, DsdKind::kFabin}) {
        for (size_t i = 0; i < ops.size() && ut < 0; ++i) {
          const DsdValue* d = shape(i);
          if (d && kind_of(i) == want && d->queue >= 0) ut = d->queue;
        }
      }
      if (ut < 0) {
        bool fabric = false;
        int push = -1, pop = -1;  // FIFO numbers pushed (the destination) and popped
        for (size_t i = 0; i < ops.size(); ++i) {
          fabric |=
              is_dsd(v[i]) && (kind_of(i) == DsdKind::kFabin || kind_of(i) == DsdKind::kFabout);
          const DsdValue* d = shape(i);
          if (d && d->kind == DsdKind::kFifo) (i == 0 ? push : pop) = d->color;
        }
        if (fabric) {
          ut = 7;  // fabric operands given by color only
        } else if (push >= 0 || pop >= 0) {
          // FIFOs without the fabric: the pusher into FIFO k runs on ut 7-k, a popper that
          // pushes nothing on ut 3-k (mod 8), so that the two ends of a FIFO and a chain of
          // FIFOs run side by side (docs/csl.md).
          ut = push >= 0 ? (7 - push) & 7 : (3 - pop) & 7;
        } else {
          s_.Fail(call_, ".async needs a fabric DSD operand (fabin or fabout) or a FIFO");
        }
      }
    }
    std::string done;
    const Value* act = opts.Field("activate");
    const Value* unb = opts.Field("unblock");
    for (const std::string& n : opts.names)
      if (n != "async" && n != "activate" && n != "unblock")
        s_.Fail(call_,
                fmt::format("option .{} is not supported by Tessera's cslc yet (only .async, "
                            ".activate, .unblock)",
                            n));
    if (act && unb) s_.Fail(call_, "give .activate or .unblock, not both");
    if ((act || unb) && !async) s_.Fail(call_, ".activate and .unblock need .async = true");
    if (act)
      done = fmt::format(", ut{} activate {}", ut, s_.TaskIdOf(*act, call_, ".activate"));
    else if (unb)
      done = fmt::format(", ut{} unblock {}", ut, s_.TaskIdOf(*unb, call_, ".unblock"));
    else if (async)
      done = fmt::format(", ut{} async", ut);
    else
      done = ", ut0";
    std::string line = fmt::format("{:<7} ", mnemonic);
    for (size_t i = 0; i < regs.size(); ++i) line += (i ? ", " : "") + regs[i];
    if (unbound_queue_)
      s_.Emit("trap    {}", kUnboundQueueTrap);
    else
      s_.EmitText(line + done);
    SaveAddresses();
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i].dreg >= 0) s_.FreeDsr(v[i].dreg);
      if (static_cast<int>(i) == scalar_index || !is_dsd(v[i])) s_.Free(v[i]);
    }
    return s_.Known(Value::Void());
  }

  // A DSD builtin that returns a changed DSD: known in, known out; else computed in a register.
  RV Change(const std::string& n) {
    if (a_.size() != (n == "increment_dsd_offset" ? 3u : 2u))
      s_.Fail(call_, fmt::format("@{} takes {} arguments", n, n == "increment_dsd_offset" ? 3 : 2));
    RV d = s_.Expr(a_[0]);
    if (d.type->kind != TypeKind::kDsd) s_.Fail(a_[0], fmt::format("@{} takes a DSD first", n));
    if (d.type->dsd == DsdKind::kFifo)
      s_.Fail(a_[0], fmt::format("@{} does not take a FIFO: its buffer and capacity are fixed "
                                 "by @allocate_fifo",
                                 n));
    const TypeP xt = n == "set_dsd_base_addr" ? nullptr : types::Int(16, n != "set_dsd_length");
    // The SDK takes an array as a new base too (topic-16: @set_dsd_base_addr(d, data2)): its
    // address.
    const bool array_base =
        n == "set_dsd_base_addr" && a_[1]->kind == NodeKind::kIdent && s_.PlaceTypeIsArray(a_[1]);
    RV x = array_base ? s_.AddressOf(a_[1]) : s_.Expr(a_[1], xt);
    if (xt) x = s_.Coerce(x, xt, a_[1], fmt::format("@{}'s value", n).c_str());
    if (n == "increment_dsd_offset") {
      const TypeP et = s_.TypeOf(a_[2], "the element type");
      if (SizeOf(et) != 2 && SizeOf(et) != 4)
        s_.Fail(a_[2], "the element type must be 16 or 32 bits");
      if (d.known && x.known) {
        auto nd = std::make_shared<DsdValue>(*d.v.dsd);
        nd->base_offset += x.v.i * SizeOf(et);
        return s_.Known(DsdVal(nd));
      }
      const int dr = InDsr(d, a_[0]);
      // dincb scales by the descriptor's element size; CSL's offset counts elemT.
      const int64_t desc_size = d.known && d.v.dsd->elem ? SizeOf(d.v.dsd->elem) : SizeOf(et);
      if (x.known) {
        const int64_t bytes = x.v.i * SizeOf(et);
        if (bytes % desc_size)
          s_.Fail(a_[1], "the offset is not a whole number of the DSD's elements");
        s_.Emit("dincb   d{}, {}", dr, bytes / desc_size);
      } else {
        const int r = s_.ToReg(x, a_[1]);
        if (SizeOf(et) != desc_size)
          s_.Fail(a_[2], "@increment_dsd_offset at run time needs elemT of the DSD's element size");
        s_.Emit("dincb   d{}, r{}", dr, r);
        s_.Free(x);
      }
      RV out;
      out.type = d.type;
      out.dreg = dr;
      out.dsd_init = Shape(d);
      return out;
    }
    if (d.known && x.known) {
      auto nd = std::make_shared<DsdValue>(*d.v.dsd);
      if (n == "set_dsd_length") {
        if (x.v.i < 0 || x.v.i > 0x7FFF) s_.Fail(a_[1], "a DSD's length is 0..32767");
        nd->length = x.v.i;
      } else if (n == "set_dsd_stride") {
        nd->stride = x.v.i;
      } else {
        Base(x.v, *nd, a_[1]);
        nd->base_offset = x.v.i;
      }
      return s_.Known(DsdVal(nd));
    }
    // A new base of another element type: the descriptor takes the pointee's type (the SDK's
    // memory DSDs have no element type of their own; Tessera's do, docs/isa.md).
    if (n == "set_dsd_base_addr" && d.known && d.v.k == Value::K::kDsd &&
        d.v.dsd->kind == DsdKind::kMem1d && x.type && x.type->kind == TypeKind::kPtr &&
        x.type->elem) {
      const TypeP pointee =
          x.type->elem->kind == TypeKind::kArray ? x.type->elem->elem : x.type->elem;
      if (pointee && (SizeOf(pointee) == 2 || SizeOf(pointee) == 4) &&
          (pointee->kind == TypeKind::kInt || pointee->kind == TypeKind::kFloat)) {
        auto nd = std::make_shared<DsdValue>(*d.v.dsd);
        if (SizeOf(pointee) != SizeOf(nd->elem ? nd->elem : types::Float(32))) {
          nd->base_symbol.clear();  // dsetb replaces the base: the old one need not align
          nd->base_offset = 0;
        }
        nd->elem = pointee;
        d.v = DsdVal(nd);
      }
    }
    const int dr = InDsr(d, a_[0]);
    if (n == "set_dsd_length") {
      const int r = s_.ToReg(x, a_[1]);
      s_.Emit("dsetl   d{}, r{}", dr, r);
      s_.Free(x);
    } else if (n == "set_dsd_base_addr") {
      if (x.known) {
        if (x.v.k != Value::K::kPtr) s_.Fail(a_[1], "the base must be a pointer");
        s_.Emit("dsetb   d{}, {}+{}", dr, x.v.s, x.v.i);
      } else {
        const int r = s_.ToReg(x, a_[1]);
        s_.Emit("dsetb   d{}, 0(r{})", dr, r);
        s_.Free(x);
      }
    } else {
      // No instruction sets the stride alone: read the descriptor's upper word (drd), replace
      // its low half (Dsd.Stride, bits 47:32) and write it back (dwr).
      static_assert(arch::Dsd::kStrideLsb == 32 && arch::Dsd::kStrideWidth == 16,
                    "Dsd.Stride is the low half of the descriptor's word 1");
      const int t = s_.Temp(call_);
      const int m = s_.Temp(call_);
      s_.Emit("drd     r{}, d{}, 1", t, dr);
      s_.Emit("li      r{}, 0xffff0000", m);
      s_.Emit("and     r{0}, r{0}, r{1}", t, m);
      if (x.known) {
        s_.Emit("li      r{}, 0x{:x}", m, static_cast<uint32_t>(x.v.i) & 0xFFFFu);
      } else {
        const int r = s_.ToReg(x, a_[1]);
        s_.Emit("andi    r{}, r{}, 0xffff", m, r);
        s_.Free(x);
      }
      s_.Emit("or      r{0}, r{0}, r{1}", t, m);
      s_.Emit("dwr     d{}, r{}, 1", dr, t);
      s_.FreeReg(t);
      s_.FreeReg(m);
    }
    RV out;
    out.type = d.type;
    out.dreg = dr;
    out.dsd_init = Shape(d);
    return out;
  }

  // @get_dsr(dsr_dest | dsr_src0 | dsr_src1, i): a descriptor register the program manages
  // itself. The SDK has a file per role; Tessera has one file, and each (role, index) the
  // program names gets its own register of d3..d7 (cslc uses d0..d2 for operands and d8..d15
  // for DSDs it computes).
  RV GetDsr() {
    if (a_.size() != 2) s_.Fail(call_, "@get_dsr takes (dsr_dest | dsr_src0 | dsr_src1, index)");
    const std::string role = a_[0]->kind == NodeKind::kIdent ? a_[0]->text : "";
    if (role != "dsr_dest" && role != "dsr_src0" && role != "dsr_src1")
      s_.Fail(a_[0], "@get_dsr's first argument is dsr_dest, dsr_src0 or dsr_src1");
    const Value ix = s_.Const(a_[1], "@get_dsr's index");
    if (ix.k != Value::K::kInt || ix.i < 0 || ix.i > 31)
      s_.Fail(a_[1], "@get_dsr's index is 0..31");
    // Whether a register saves its address is known only at run time (its loads may be
    // compiled after the operations that name it), so every program naming one keeps the bits.
    s_.module()->program->uses_dsr_save = true;
    std::map<std::string, int>& m = s_.module()->program->dsrs;
    const std::string key = fmt::format("{} {}", role, ix.i);
    auto it = m.find(key);
    if (it == m.end()) {
      if (m.size() >= 5)
        s_.Fail(call_, "Tessera's cslc gives a program at most 5 DSRs of its own (d3..d7)");
      it = m.emplace(key, 3 + static_cast<int>(m.size())).first;
    }
    auto d = std::make_shared<DsdValue>();
    d->dsr = it->second;
    return s_.Known(DsdVal(d));
  }

  // @load_to_dsr(dsr, dsd, .{ .save_address = b }): the DSD into the register. With
  // .save_address, every operation that names the register moves it past the elements it took
  // (length times stride), so the next one goes on from there; __dsr_save keeps a bit per
  // register, as the loads at run time set it.
  RV LoadToDsr() {
    if (a_.size() != 2 && a_.size() != 3)
      s_.Fail(call_, "@load_to_dsr takes (dsr, dsd) or (dsr, dsd, .{ .save_address = b })");
    const Value dv = s_.Const(a_[0], "@load_to_dsr's register");
    if (dv.k != Value::K::kDsd || dv.dsd->dsr < 0)
      s_.Fail(a_[0], "@load_to_dsr loads a register from @get_dsr");
    bool save = false;
    if (a_.size() == 3) {
      const Value o = s_.Const(a_[2], "@load_to_dsr's options");
      for (const std::string& n : o.names)
        if (n != "save_address")
          s_.Fail(a_[2], fmt::format("@load_to_dsr has no option .{} (only .save_address)", n));
      if (const Value* sa = o.Field("save_address")) save = sa->i != 0;
    }
    s_.NeedRuntime(call_, "@load_to_dsr");
    const int k = dv.dsd->dsr;
    RV d = s_.Expr(a_[1]);
    if (d.type->kind != TypeKind::kDsd || (d.known && d.v.dsd->dsr >= 0))
      s_.Fail(a_[1], "@load_to_dsr loads a DSD");
    const int from = InDsr(d, a_[1]);
    s_.Emit("dmov    d{}, d{}", k, from);
    s_.FreeDsr(from);
    const int t = s_.Temp(call_);
    s_.Emit("lw      r{}, __dsr_save", t);
    if (save)
      s_.Emit("ori     r{0}, r{0}, {1}", t, 1 << k);
    else
      s_.Emit("andi    r{0}, r{0}, {1}", t, 0xFFFF & ~(1 << k));
    s_.Emit("sw      r{}, __dsr_save", t);
    s_.FreeReg(t);
    return s_.Known(Value::Void());
  }

  // After an operation: each register of @get_dsr loaded with .save_address moves past what
  // the operation took (the hardware's saved address; a copy was made at issue).
  void SaveAddresses() {
    for (int k : named_dsrs_) {
      const int t = s_.Temp(call_);
      const int u = s_.Temp(call_);
      const std::string skip = s_.NewLabel();
      s_.Emit("lw      r{}, __dsr_save", t);
      s_.Emit("andi    r{0}, r{0}, {1}", t, 1 << k);
      s_.Emit("beqz    r{}, {}", t, skip);
      s_.Emit("drd     r{}, d{}, 0", t, k);  // Length 30:16
      s_.Emit("shri    r{0}, r{0}, 16", t);
      s_.Emit("andi    r{0}, r{0}, 0x7fff", t);
      s_.Emit("drd     r{}, d{}, 1", u, k);  // Stride 47:32, signed
      s_.Emit("mul     r{0}, r{0}, r{1}", t, u);
      s_.Emit("dincb   d{}, r{}", k, t);
      s_.EmitLabel(skip);
      s_.FreeReg(t);
      s_.FreeReg(u);
    }
  }

  // What stays of a DSD through the builtins that change it: kind, queue and color.
  static std::shared_ptr<const DsdValue> Shape(const RV& d) {
    if (d.known && d.v.k == Value::K::kDsd) return d.v.dsd;
    return d.dsd_init;
  }

  // The DSD in a descriptor register of its own (for changing it).
  int InDsr(RV& d, const Node* at) {
    s_.NeedRuntime(at, "this DSD");
    if (d.dreg >= 0) return d.dreg;
    const int dr = s_.NewDsr(at);
    if (d.known) {
      DsdValue v = *d.v.dsd;
      if (!v.elem) v.elem = types::Float(32);
      const std::string sym = s_.compiler().DsdConstant(s_.module()->program, v, at->loc);
      s_.Emit("ldd     d{}, {}", dr, sym);
    } else {
      s_.Emit("ldd     d{}, {}", dr, d.mem);
    }
    return dr;
  }

 private:
  Sema& s_;
  const Node* call_;
  const std::vector<const Node*>& a_;
  std::vector<std::pair<std::string, std::string>> loaded_;  // where from -> descriptor register
  std::vector<std::pair<std::string, int64_t>> sources_;     // memory sources: array, offset
  bool unbound_queue_ = false;   // an operand names a queue the program gave no color
  std::vector<int> named_dsrs_;  // registers of @get_dsr the operation names
  int index_reg_ = -1;           // .index: the register holding it
  RV index_rv_;
  bool indexed_ = false;  // an operand was offset by it
};

}  // namespace

DsdOpResult DsdBuiltin(Sema& s, const Node* call, const std::vector<const Node*>& args) {
  DsdOpResult r;
  const std::string& n = call->text;
  DsdGen g(s, call, args);
  if (n == "get_dsd") {
    r.handled = true;
    r.value = g.GetDsd();
    return r;
  }
  if (n == "get_dsr") {
    r.handled = true;
    r.value = g.GetDsr();
    return r;
  }
  if (n == "allocate_fifo") {
    r.handled = true;
    r.value = g.AllocateFifo();
    return r;
  }
  if (n == "load_to_dsr") {
    r.handled = true;
    r.value = g.LoadToDsr();
    return r;
  }
  if (n == "increment_dsd_offset" || n == "set_dsd_base_addr" || n == "set_dsd_length" ||
      n == "set_dsd_stride") {
    r.handled = true;
    r.value = g.Change(n);
    return r;
  }
  const auto it = Ops().find(n);
  if (it == Ops().end()) return r;
  r.handled = true;
  r.value = g.Op(it->second);
  return r;
}

}  // namespace tessera::csl
