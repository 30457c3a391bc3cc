#include "asm/operands.h"

#include <fmt/core.h>

#include <iterator>

#include "asm/lexer.h"

namespace tessera::assembler {
namespace {

using K = arch::OperandKind;

std::optional<int> Numbered(const std::string& lower, const char* prefix, int count) {
  const size_t n = std::char_traits<char>::length(prefix);
  if (lower.size() <= n || lower.compare(0, n, prefix) != 0) return std::nullopt;
  const std::string digits = lower.substr(n);
  if (digits.size() > 2 || (digits.size() == 2 && digits[0] == '0')) return std::nullopt;
  int v = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v >= count) return std::nullopt;
  return v;
}

}  // namespace

std::optional<int> ParseGpr(const std::string& name) {
  const std::string l = ToLower(name);
  if (l == "wv") return 0;
  if (l == "sp") return 14;
  if (l == "lr") return 15;
  return Numbered(l, "r", static_cast<int>(arch::kNumGprs));
}

std::optional<int> ParseDsr(const std::string& name) {
  return Numbered(ToLower(name), "d", static_cast<int>(arch::kNumDsrs));
}

std::optional<int> ParseUt(const std::string& name) {
  return Numbered(ToLower(name), "ut", static_cast<int>(arch::kNumMicrothreads));
}

bool IsRegisterName(const std::string& name) {
  return ParseGpr(name) || ParseDsr(name) || ParseUt(name);
}

const char* KindName(arch::OperandKind k) { return arch::kOperandKinds[static_cast<int>(k)].name; }

std::string KindExpectation(arch::OperandKind k) {
  using K = arch::OperandKind;
  switch (k) {
    case K::kRd:
    case K::kRa:
    case K::kRc:
    case K::kRe:
    case K::kS:
    case K::kAcc:
      return "a general register r0..r15";
    case K::kRb:
      return "a general register r0..r15 or 0";
    case K::kSimm:
      return "an expression -32768..32767";
    case K::kUimm:
      return "an expression 0..65535";
    case K::kSh:
      return "a shift amount 0..31";
    case K::kOff:
      return "a branch target (a label)";
    case K::kMem:
    case K::kTgt:
      return "an address: offset(rN), (rN) or an absolute address 0..0xFFFF";
    case K::kTid:
      return "a task: rN, an ID 0..31 or a task's entry label";
    case K::kCol:
      return "a color: rN or 0..23";
    case K::kMsk:
      return "a microthread mask 0..255";
    case K::kW:
      return "a descriptor word, 0 or 1";
    case K::kBval:
      return "rN, rN plus a constant (rN, simm) or a constant -32768..32767";
    case K::kDa:
    case K::kDb:
    case K::kDst:
    case K::kSrc0:
    case K::kSrc1:
      return "a descriptor register d0..d15";
    case K::kDone:
      return "a completion clause: utN [async | activate T | unblock T]";
  }
  return "?";
}

std::string Syntax(const arch::InsnInfo& info) {
  std::string s = info.mnemonic;
  for (int i = 0; i < info.num_operands; ++i) {
    const arch::OperandKind k = info.operands[i];
    const bool optional = k == arch::OperandKind::kDone || k == arch::OperandKind::kMsk;
    if (optional) {
      s += i == 0 ? " [" : "[, ";
      s += std::string(KindName(k)) + "]";
    } else {
      s += i == 0 ? " " : ", ";
      s += KindName(k);
    }
  }
  return s;
}

FieldPos Field(arch::InsnFormat format, const char* name) {
  for (const arch::InsnField& f : arch::kInsnFields) {
    if (f.format == format && std::string(f.name) == name) {
      return FieldPos{f.lsb, static_cast<unsigned>(f.msb - f.lsb + 1)};
    }
  }
  return FieldPos{};
}

uint32_t SetField(uint32_t word, arch::InsnFormat format, const char* name, uint32_t value) {
  const FieldPos f = Field(format, name);
  const uint32_t mask = f.width >= 32 ? ~0u : ((1u << f.width) - 1);
  return (word & ~(mask << f.lsb)) | ((value & mask) << f.lsb);
}

uint32_t GetField(uint32_t word, arch::InsnFormat format, const char* name) {
  const FieldPos f = Field(format, name);
  const uint32_t mask = f.width >= 32 ? ~0u : ((1u << f.width) - 1);
  return (word >> f.lsb) & mask;
}

const char* RegisterField(arch::OperandKind k) {
  using K = arch::OperandKind;
  switch (k) {
    case K::kRd:
    case K::kRa:
    case K::kDa:
      return "A";
    case K::kRb:
    case K::kDb:
      return "B";
    case K::kRc:
      return "C";
    case K::kRe:
      return "D";
    case K::kDst:
      return "Dst";
    case K::kSrc0:
      return "Src0";
    case K::kSrc1:
      return "Src1";
    case K::kS:
    case K::kAcc:
      return "S";
    default:
      return nullptr;
  }
}

bool IsGprKind(arch::OperandKind k) {
  using K = arch::OperandKind;
  return k == K::kRd || k == K::kRa || k == K::kRc || k == K::kRe || k == K::kS || k == K::kAcc;
}

bool IsDsrKind(arch::OperandKind k) {
  using K = arch::OperandKind;
  return k == K::kDa || k == K::kDb || k == K::kDst || k == K::kSrc0 || k == K::kSrc1;
}

// ---- matching written operands to kinds ----

bool Accepts(K k, Shape s) {
  switch (k) {
    case K::kRd:
    case K::kRa:
    case K::kRc:
    case K::kRe:
    case K::kS:
    case K::kAcc:
      return s == Shape::kGpr;
    case K::kRb:
    case K::kTid:
    case K::kCol:
    case K::kBval:
      return s == Shape::kGpr || s == Shape::kExpr;
    case K::kSimm:
    case K::kUimm:
    case K::kSh:
    case K::kOff:
    case K::kMsk:
    case K::kW:
      return s == Shape::kExpr;
    case K::kMem:
    case K::kTgt:
      return s == Shape::kMem || s == Shape::kExpr;
    case K::kDa:
    case K::kDb:
    case K::kDst:
    case K::kSrc0:
    case K::kSrc1:
      return s == Shape::kDsr;
    case K::kDone:
      return s == Shape::kDone;
  }
  return false;
}

bool IsOptional(K k) { return k == K::kDone || k == K::kMsk; }

std::optional<std::vector<Bound>> Bind(const std::vector<K>& kinds, const std::vector<Item>& items,
                                       BindFailure* fail) {
  std::vector<Bound> out;
  size_t i = 0;
  for (size_t k = 0; k < kinds.size(); ++k) {
    const K kind = kinds[k];
    if (IsOptional(kind) && i == items.size()) {
      out.push_back(Bound{kind, -1, 0});
      continue;
    }
    if (i >= items.size()) {
      fail->count = true;
      return std::nullopt;
    }
    if (!Accepts(kind, items[i].shape)) {
      fail->item = static_cast<int>(i);
      fail->kind_index = static_cast<int>(k);
      return std::nullopt;
    }
    if (kind == K::kBval && items[i].shape == Shape::kGpr && k + 1 == kinds.size() &&
        i + 2 == items.size() && items[i + 1].shape == Shape::kExpr) {
      out.push_back(Bound{kind, static_cast<int>(i), 2});
      i += 2;
      continue;
    }
    out.push_back(Bound{kind, static_cast<int>(i), 1});
    ++i;
  }
  if (i != items.size()) {
    fail->count = true;
    return std::nullopt;
  }
  return out;
}

std::vector<K> KindsOf(const arch::InsnInfo& info) {
  return std::vector<K>(info.operands, info.operands + info.num_operands);
}

void PseudoOperands(const arch::InsnPseudo& p, std::vector<K>* kinds,
                    std::vector<std::string>* names) {
  const std::string ops = p.operands;
  if (ops == "-") return;
  size_t start = 0;
  while (start <= ops.size()) {
    size_t comma = ops.find(',', start);
    if (comma == std::string::npos) comma = ops.size();
    const std::string name = ops.substr(start, comma - start);
    K kind = K::kUimm;
    for (size_t k = 0; k < std::size(arch::kOperandKinds); ++k) {
      if (name == arch::kOperandKinds[k].name) kind = static_cast<K>(k);
    }
    kinds->push_back(kind);
    names->push_back(name);
    start = comma + 1;
  }
}

std::string PseudoSyntax(const arch::InsnPseudo& p) {
  std::string ops = p.operands;
  if (ops == "-") return p.mnemonic;
  for (size_t k = 0; (k = ops.find(',', k)) != std::string::npos; k += 2) ops.replace(k, 1, ", ");
  return std::string(p.mnemonic) + " " + ops;
}

std::vector<std::string> SplitExpansion(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t semi = text.find(';', start);
    if (semi == std::string::npos) semi = text.size();
    std::string part = text.substr(start, semi - start);
    const size_t b = part.find_first_not_of(' ');
    const size_t e = part.find_last_not_of(' ');
    if (b != std::string::npos) parts.push_back(part.substr(b, e - b + 1));
    start = semi + 1;
  }
  return parts;
}

}  // namespace tessera::assembler
