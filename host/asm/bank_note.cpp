// The bank note (docs/isa.md 6.7), a warning of pass 2 (asm/assembler_impl.h): SRAM is eight
// 16-bit banks (bank = address bits 3:1), and a DSD step whose two sources read one bank splits
// over two cycles. Pass 2 calls TrackDescriptors on each instruction before encoding it; it
// follows which .dsd record each descriptor register was loaded from and, for a two-source DSD
// operation whose mem1d sources always meet in one bank, adds a Diagnostic with warning set to
// AssembleResult::warnings. Nothing here changes the object.
#include <fmt/core.h>

#include "asm/assembler_impl.h"

namespace tessera::assembler::internal {

void Assembler::TrackDescriptors(const Stmt& s, const std::map<std::string, const Stmt*>& dsd_stmts,
                                 std::array<const Stmt*, 16>& loaded) {
  const InsnInfo& n = *s.info;
  if (n.cls == arch::InsnClass::kJump) {  // a call may change them; a jump leaves this code
    loaded.fill(nullptr);
    return;
  }
  // A write of a descriptor register: `ldd dN, record` loads a known record (the label of a .dsd
  // line, without offset); any other write makes dN unknown. std and drd only read.
  if (n.cls == arch::InsnClass::kDsr) {
    const std::vector<Item> items = Items(s.toks, s.args, s.end);
    const auto op = static_cast<arch::DsrOp>(n.subop);
    if (op == arch::DsrOp::kStd || op == arch::DsrOp::kDrd || items.empty()) return;
    const std::optional<int> reg = Dsr(s.toks[items[0].b].text);
    if (!reg) return;
    loaded[*reg] = nullptr;
    if (op == arch::DsrOp::kLdd && items.size() == 2) {
      const Value v = Eval(s, items[1].b, items[1].e);
      const auto it = dsd_stmts.find(v.sym);
      if (v.num == 0 && v.wrap == Wrap::kNone && it != dsd_stmts.end()) loaded[*reg] = it->second;
    }
    return;
  }
  // A DSD operation with two sources: which registers, as encoded.
  if (n.cls != arch::InsnClass::kDsd || !arch::HasSrc0(n.form) || !arch::HasSrc1(n.form)) return;
  const uint32_t word = EncodeInsn(s);
  const uint32_t r0 = GetField(word, n.format, RegisterField(K::kSrc0));
  const uint32_t r1 = GetField(word, n.format, RegisterField(K::kSrc1));
  const Stmt* a = loaded[r0];
  const Stmt* b = loaded[r1];
  if (!a || !b || a == b || a->dsd_kind != arch::DsdKind::kMem1d ||
      b->dsd_kind != arch::DsdKind::kMem1d || ElemBytes(a->dsd_type) != ElemBytes(b->dsd_type))
    return;
  // Two mem1d records of one element size whose every step reads addresses 16k bytes apart: the
  // same stride, bases known in one section (or both absolute), a nonzero multiple of 16 apart.
  const auto base_a = DsdPlace(*a), base_b = DsdPlace(*b);
  const auto stride_a = DsdStride(*a), stride_b = DsdStride(*b);
  if (!base_a || !base_b || !stride_a || !stride_b || *stride_a != *stride_b) return;
  if (base_a->first != base_b->first) return;
  const int64_t diff = base_b->second - base_a->second;
  if (diff == 0 || diff % 16 != 0) return;
  Diagnostic d = s.line->Error(
      s.toks[s.args ? s.args - 1 : 0].pos,
      fmt::format(
          "{}: src0 (d{}, {}) and src1 (d{}, {}) start {} bytes apart, a multiple of 16, with "
          "equal strides: both read the same SRAM bank in every step, so every step splits over "
          "two cycles (half throughput; docs/isa.md 6.7). Move one array by 4 bytes (for example "
          "`.space 4` before it) so that the bases differ by 16k + 4..12",
          s.mnemonic, r0, a->name, r1, b->name, diff < 0 ? -diff : diff));
  d.warning = true;
  d.order = s.seq;
  warnings_.push_back(d);
}

std::optional<std::pair<std::string, int64_t>> Assembler::DsdPlace(const Stmt& d) {
  const auto k = d.keys.find("base");
  if (k == d.keys.end()) return std::nullopt;
  const Value v = Eval(d, k->second.first, k->second.second);
  if (v.wrap != Wrap::kNone) return std::nullopt;
  if (v.IsConst()) return std::make_pair(std::string(), v.num);
  const auto it = syms_.find(v.sym);
  if (it == syms_.end() || it->second.kind != Sym::Kind::kLabel) return std::nullopt;
  return std::make_pair(SectionName(SectionId(it->second.section)),
                        v.num + static_cast<int64_t>(it->second.offset));
}

// A .dsd record's stride if it is a constant (1 when not given).
std::optional<int64_t> Assembler::DsdStride(const Stmt& d) {
  const auto k = d.keys.find("stride");
  if (k == d.keys.end()) return 1;
  const Value v = Eval(d, k->second.first, k->second.second);
  if (!v.IsConst()) return std::nullopt;
  return v.num;
}

}  // namespace tessera::assembler::internal
