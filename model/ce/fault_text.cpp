#include "ce/fault_text.h"

#include <fmt/format.h>

#include "arch/arch.h"
#include "ce/mmio.h"
#include "isa/decode.h"
#include "util/enum_names.h"

namespace tessera::ce {
namespace {

using arch::CeFault;

std::string Hex4(uint32_t v) { return fmt::format("0x{:04X}", v); }
// A 16-bit address in 4 digits; anything wider in 8.
std::string Addr(uint32_t v) { return v <= 0xFFFF ? Hex4(v) : fmt::format("0x{:08X}", v); }
std::string SignedAddr(uint32_t v) {
  const auto s = static_cast<int32_t>(v);
  return s < 0 ? "-" + Addr(static_cast<uint32_t>(-static_cast<int64_t>(s))) : Addr(v);
}

const char* SizeText(unsigned size) {
  static const char* kText[] = {"8-bit", "16-bit", "32-bit", "descriptor"};
  return kText[size & 3];
}

const char* KindText(uint8_t kind) {
  const auto k = static_cast<arch::TaskKind>(kind & 3);
  return k == arch::TaskKind::kNone ? "unbound" : arch::ToString(k);
}

const char* RoleText(unsigned role) {
  const auto r = static_cast<arch::DsdRole>(role);
  return r == arch::DsdRole::kNone || role > static_cast<unsigned>(arch::DsdRole::kScalar)
             ? "operand"
             : arch::ToString(r);
}

std::string ElemText(unsigned elem) {
  const auto t = static_cast<arch::ElemType>(elem & 7);
  const std::string text = arch::ToString(t);
  return text == "?" ? fmt::format("type {}", elem & 7) : text;
}

constexpr util::EnumName<arch::ElemClass> kClassTextTable[] = {
    {arch::ElemClass::kF32, "f32"},           {arch::ElemClass::kF16, "f16"},
    {arch::ElemClass::kI32, "i32 or u32"},    {arch::ElemClass::kI16, "i16 or u16"},
    {arch::ElemClass::kX32, "a 32-bit type"}, {arch::ElemClass::kX16, "a 16-bit type"},
};

const char* ClassText(arch::ElemClass c) {
  return util::NameOf(kClassTextTable, c, "no descriptor");
}

std::string DsdKindText(unsigned kind) {
  const std::string text = arch::ToString(static_cast<arch::DsdKind>(kind & 7));
  return text == "?" ? fmt::format("kind {}", kind & 7) : text;
}

struct Info {
  unsigned role, size, write, ut, dsr, index;
  explicit Info(uint32_t v)
      : role(arch::FaultInfo::Role(v)),
        size(arch::FaultInfo::Size(v)),
        write(arch::FaultInfo::Write(v)),
        ut(arch::FaultInfo::Ut(v)),
        dsr(arch::FaultInfo::Dsr(v)),
        index(arch::FaultInfo::Index(v)) {}
};

// The DSR an operand role names in a D-format word.
unsigned RoleDsr(uint32_t word, unsigned role) {
  const isa::Fields f = isa::SplitFields(word);
  switch (static_cast<arch::DsdRole>(role)) {
    case arch::DsdRole::kDst:
      return f.dst;
    case arch::DsdRole::kSrc0:
      return f.src0;
    default:
      return f.src1;
  }
}

std::string Body(const FaultContext& f) {
  const auto cause = static_cast<CeFault>(f.status & 0x1F);
  const Info in(f.info);
  const arch::InsnInfo* n = isa::Decode(f.word);
  const std::string mn = n ? n->mnemonic : "instruction";
  const std::string at = "at pc " + Hex4(f.pc);
  const std::string op = fmt::format("{} (d{})", RoleText(in.role), in.dsr);
  const uint32_t w1 = f.addr;  // a descriptor's word 1, for DSD issue faults
  switch (cause) {
    case CeFault::kNone:
      return "";
    case CeFault::kIllegal:
      return fmt::format("illegal instruction 0x{:08X} {}", f.addr, at);
    case CeFault::kMisaligned:
      return fmt::format("misaligned {} {} {} (address {})", SizeText(in.size),
                         in.write ? "store" : "load", at, Addr(f.addr));
    case CeFault::kOutOfRange:
      if (n && n->cls == arch::InsnClass::kDsr)
        return fmt::format("out-of-range base address in {} {} (address 0x{:08X})", mn, at, f.addr);
      return fmt::format("out-of-range {} {} {} (address 0x{:08X})", SizeText(in.size),
                         in.write ? "store" : "load", at, f.addr);
    case CeFault::kMmioAccess: {
      const std::string size = in.size == static_cast<unsigned>(arch::AccSize::kWord)
                                   ? ""
                                   : SizeText(in.size) + std::string(" ");
      const std::string dir = in.write ? "store to" : "load from";
      const RegRef r = FindReg(static_cast<uint16_t>(f.addr));
      if (!r.valid())
        return fmt::format("{}{} unmapped address {} {}", size, dir, Addr(f.addr), at);
      return fmt::format("{}{} {}register {} {} (address {})", size, dir,
                         r.access == RegAccess::kHost ? "host-only " : "", RegName(r), at,
                         Addr(f.addr));
    }
    case CeFault::kReadOnly:
      return fmt::format("store to read-only register {} {} (address {})",
                         RegName(FindReg(static_cast<uint16_t>(f.addr))), at, Addr(f.addr));
    case CeFault::kPcRange: {
      if (f.pc >= arch::kMmioBase) return fmt::format("pc ran past the end of SRAM {}", at);
      const bool branch = n && n->cls == arch::InsnClass::kBr;
      return fmt::format("{} to {} {}: target {}", branch ? "branch" : "jump", SignedAddr(f.addr),
                         at, (f.addr & 3) ? "not 4-byte aligned" : "outside SRAM");
    }
    case CeFault::kTaskId:
      return fmt::format("{} of task {} {} (task IDs are 0-31)", mn, f.addr, at);
    case CeFault::kTaskKind: {
      const uint32_t t = f.addr & 31;
      const char* kind = KindText(f.task_kind[t]);
      if (in.ut != 15)
        return fmt::format("{} {} on ut{}: its completion activates {} task {}", mn, at, in.ut,
                           kind, t);
      if (in.write) {  // the control dispatcher (FaultInfo.Write marks it)
        const bool bound = f.task_kind[t] != 0;
        return fmt::format("control wavelet on color {} names task {}, which is {}{} task",
                           in.index, t, bound ? "a " : "an ", kind);
      }
      return fmt::format("activate of {} task {} {}", kind, t, at);
    }
    case CeFault::kTaskEntry: {
      const uint32_t t = in.index & 31;
      return fmt::format("task {} ({}) has entry {}, which is {}", t, KindText(f.task_kind[t]),
                         Hex4(f.addr), (f.addr & 3) ? "not 4-byte aligned" : "outside SRAM");
    }
    case CeFault::kDsdInvalid: {
      if (n && n->cls == arch::InsnClass::kDsr)
        return fmt::format("{} {}: length 0x{:X} is outside 0..0x7FFF", mn, at, f.addr);
      const unsigned kind = (w1 >> 24) & 7, elem = (w1 >> 21) & 7;
      switch (static_cast<DsdInvalidWhy>(in.index)) {
        case DsdInvalidWhy::kKind:
          return fmt::format("{} {}: {} is not a valid descriptor (kind {})", mn, at, op, kind);
        case DsdInvalidWhy::kType:
          return fmt::format("{} {}: {} is not a valid descriptor (type {})", mn, at, op, elem);
        case DsdInvalidWhy::kReserved:
          return fmt::format("{} {}: {} is not a valid descriptor (reserved bits set)", mn, at, op);
        case DsdInvalidWhy::kRole:
          return fmt::format("{} {}: {} is a {} descriptor, which {} cannot be", mn, at, op,
                             DsdKindText(kind), RoleText(in.role));
        case DsdInvalidWhy::kSameColor:
          return fmt::format("{} {}: src0 (d{}) and {} both read {} {}", mn, at,
                             RoleDsr(f.word, static_cast<unsigned>(arch::DsdRole::kSrc0)), op,
                             kind == static_cast<unsigned>(arch::DsdKind::kFifo) ? "FIFO" : "color",
                             (w1 >> 16) & 0x1F);
        case DsdInvalidWhy::kPair:
          return fmt::format(
              "{} {}: {} is a mem4d descriptor in an odd register (it needs an even one, with its "
              "extension in the next)",
              mn, at, op);
        case DsdInvalidWhy::kFifo:
          return fmt::format(
              "{} {}: {} is a fifo descriptor of number {} or of capacity 0 or "
              "0x7FFF (a FIFO is number 0..{} and holds 1..0x7FFE elements)",
              mn, at, op, (w1 >> 16) & 0x1F, arch::kNumFifos - 1);
        case DsdInvalidWhy::kShape:
          return fmt::format("{} {}: {} is a mem4d descriptor of {}{} elements, more than 0x7FFE",
                             mn, at, op, f.addr == ~0u ? "at least " : "", f.addr);
      }
      return fmt::format("{} {}: {} is not a valid descriptor", mn, at, op);
    }
    case CeFault::kDsdType: {
      const arch::ElemClass need =
          n && in.role >= 1 && in.role <= 3 ? n->types[in.role - 1] : arch::ElemClass::kNone;
      return fmt::format("{} {}: {} has type {}, {} needs {}", mn, at, op, ElemText((w1 >> 21) & 7),
                         mn, ClassText(need));
    }
    case CeFault::kDsdRange:
      return fmt::format("{} {} on ut{}: element {} of {} at address {} is outside SRAM", mn, at,
                         in.ut, in.index, op, SignedAddr(f.addr));
    case CeFault::kDsdMisaligned: {
      // The base alone is in FaultAddr; the element size follows from the operation's types.
      const arch::ElemClass c =
          n && in.role >= 1 && in.role <= 3 ? n->types[in.role - 1] : arch::ElemClass::kNone;
      const bool half =
          c == arch::ElemClass::kF16 || c == arch::ElemClass::kI16 || c == arch::ElemClass::kX16;
      return fmt::format("{} {}: {} base {} is not aligned to its {}-byte elements", mn, at, op,
                         Hex4(f.addr), half ? 2 : 4);
    }
    case CeFault::kBadColor: {
      const bool dsd = n && n->cls == arch::InsnClass::kDsd;
      const bool out = !dsd || in.role == static_cast<unsigned>(arch::DsdRole::kDst);
      const char* why = f.addr >= arch::kNumColors ? "is not a routable color (0-23)"
                        : out                      ? "no route of this PE accepts from the CE"
                                                   : "no route of this PE delivers to the CE";
      if (!dsd) return fmt::format("{} {}: color {}, which {}", mn, at, f.addr, why);
      return fmt::format("{} {}: {} {} color {}, which {}", mn, at, op, out ? "sends on" : "reads",
                         f.addr, why);
    }
    case CeFault::kTrap:
      return fmt::format("trap {} {}", Hex4(f.addr), at);
  }
  return fmt::format("fault cause {} {}", f.status, at);
}

}  // namespace

std::string DescribeCeFault(const FaultContext& f) {
  const std::string body = Body(f);
  if (body.empty()) return body;
  return fmt::format("PE({},{}) fault: {}", f.x, f.y, body);
}

}  // namespace tessera::ce
