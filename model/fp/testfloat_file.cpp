#include "fp/testfloat_file.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "fp/flags.h"
#include "util/enum_names.h"

namespace tessera::fp {
namespace {

using arch::FpFmt;
using arch::FpOp;
constexpr ValueType kH = ValueType::kF16;
constexpr ValueType kS = ValueType::kF32;
constexpr ValueType kI = ValueType::kI32;
constexpr ValueType kB = ValueType::kBool;

constexpr TestFloatOp kOps[] = {
    {"f16_add", FpOp::kAdd, FpFmt::kF16, 2, kH, kH},
    {"f16_sub", FpOp::kSub, FpFmt::kF16, 2, kH, kH},
    {"f16_mul", FpOp::kMul, FpFmt::kF16, 2, kH, kH},
    {"f16_mulAdd", FpOp::kMulAdd, FpFmt::kF16, 3, kH, kH},
    {"f16_lt", FpOp::kLt, FpFmt::kF16, 2, kH, kB},
    {"f16_le", FpOp::kLe, FpFmt::kF16, 2, kH, kB},
    {"f16_eq", FpOp::kEq, FpFmt::kF16, 2, kH, kB},
    {"f16_min", FpOp::kMin, FpFmt::kF16, 2, kH, kH},
    {"f16_max", FpOp::kMax, FpFmt::kF16, 2, kH, kH},
    {"f16_neg", FpOp::kNeg, FpFmt::kF16, 1, kH, kH},
    {"f16_abs", FpOp::kAbs, FpFmt::kF16, 1, kH, kH},
    {"f16_div", FpOp::kDiv, FpFmt::kF16, 2, kH, kH},
    {"f16_sqrt", FpOp::kSqrt, FpFmt::kF16, 1, kH, kH},
    {"f16_to_f32", FpOp::kCvtF2F, FpFmt::kF16, 1, kH, kS},
    {"f16_to_i32_rminMag", FpOp::kCvtF2I, FpFmt::kF16, 1, kH, kI},
    {"f16_to_i32_r_minMag", FpOp::kCvtF2I, FpFmt::kF16, 1, kH, kI},
    {"f32_add", FpOp::kAdd, FpFmt::kF32, 2, kS, kS},
    {"f32_sub", FpOp::kSub, FpFmt::kF32, 2, kS, kS},
    {"f32_mul", FpOp::kMul, FpFmt::kF32, 2, kS, kS},
    {"f32_mulAdd", FpOp::kMulAdd, FpFmt::kF32, 3, kS, kS},
    {"f32_lt", FpOp::kLt, FpFmt::kF32, 2, kS, kB},
    {"f32_le", FpOp::kLe, FpFmt::kF32, 2, kS, kB},
    {"f32_eq", FpOp::kEq, FpFmt::kF32, 2, kS, kB},
    {"f32_min", FpOp::kMin, FpFmt::kF32, 2, kS, kS},
    {"f32_max", FpOp::kMax, FpFmt::kF32, 2, kS, kS},
    {"f32_neg", FpOp::kNeg, FpFmt::kF32, 1, kS, kS},
    {"f32_abs", FpOp::kAbs, FpFmt::kF32, 1, kS, kS},
    {"f32_div", FpOp::kDiv, FpFmt::kF32, 2, kS, kS},
    {"f32_sqrt", FpOp::kSqrt, FpFmt::kF32, 1, kS, kS},
    {"f32_to_f16", FpOp::kCvtF2F, FpFmt::kF32, 1, kS, kH},
    {"f32_to_i32_rminMag", FpOp::kCvtF2I, FpFmt::kF32, 1, kS, kI},
    {"f32_to_i32_r_minMag", FpOp::kCvtF2I, FpFmt::kF32, 1, kS, kI},
    {"i32_to_f16", FpOp::kCvtI2F, FpFmt::kF16, 1, kI, kH},
    {"i32_to_f32", FpOp::kCvtI2F, FpFmt::kF32, 1, kI, kS},
};

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<std::remove_pointer_t<gzFile>, GzCloser>;

// "f16_add" for ".../f16_add.tv.gz".
std::string Stem(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base.substr(0, base.find('.'));
}

// Parses one hex field of at most `digits` digits; a message in `error` if it is not one.
bool ParseHex(std::string_view field, int digits, uint32_t& value, std::string& error) {
  if (field.size() > static_cast<size_t>(digits)) {
    error = fmt::format("'{}' has more than {} hex digit{}", field, digits, digits > 1 ? "s" : "");
    return false;
  }
  value = 0;
  for (char ch : field) {
    int d;
    if (ch >= '0' && ch <= '9') {
      d = ch - '0';
    } else if (ch >= 'a' && ch <= 'f') {
      d = ch - 'a' + 10;
    } else if (ch >= 'A' && ch <= 'F') {
      d = ch - 'A' + 10;
    } else {
      error = fmt::format("'{}' is not hex", field);
      return false;
    }
    value = value << 4 | static_cast<uint32_t>(d);
  }
  return true;
}

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

constexpr util::EnumName<ValueType> kTypeNameTable[] = {
    {ValueType::kF16, "f16"},
    {ValueType::kF32, "f32"},
    {ValueType::kI32, "i32"},
    {ValueType::kBool, "comparison result"},
};

const char* TypeName(ValueType t) { return util::NameOf(kTypeNameTable, t); }

void ThrowIfReadError(gzFile gz, const std::string& path, int line_no) {
  int err = Z_OK;
  const char* msg = gzerror(gz, &err);
  if (err != Z_OK && err != Z_STREAM_END) {
    std::string what = err == Z_ERRNO ? std::strerror(errno) : msg;
    if (what.rfind(path + ": ", 0) == 0) what.erase(0, path.size() + 2);  // zlib names the file
    throw std::runtime_error(fmt::format("{}:{}: read error: {}", path, line_no, what));
  }
}

}  // namespace

const TestFloatOp* FindTestFloatOp(std::string_view name) {
  for (const auto& op : kOps) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

std::string TestFloatOpNames() {
  std::string out;
  for (const auto& op : kOps) {
    if (!out.empty()) out += ", ";
    out += op.name;
  }
  return out;
}

TestFloatFile ReadTestFloatFile(const std::string& path, const std::string& op_name) {
  TestFloatFile file;
  file.path = path;
  const std::string name = op_name.empty() ? Stem(path) : op_name;
  const TestFloatOp* op = FindTestFloatOp(name);
  if (op == nullptr) {
    if (op_name.empty()) {
      throw std::runtime_error(fmt::format(
          "{}: cannot tell the operation from the file name ('{}' is not one); name it with --op, "
          "one of: {}",
          path, name, TestFloatOpNames()));
    }
    throw std::runtime_error(
        fmt::format("--op: unknown operation '{}'; valid ones: {}", name, TestFloatOpNames()));
  }
  file.op = *op;

  GzFile gz(gzopen(path.c_str(), "rb"));
  if (!gz) throw std::runtime_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  const size_t fields_wanted = static_cast<size_t>(op->operands) + 2;
  char buf[512];
  int line_no = 0;
  while (gzgets(gz.get(), buf, sizeof buf) != nullptr) {
    ++line_no;
    std::string_view line(buf);
    const bool complete = !line.empty() && line.back() == '\n';
    if (!complete) {
      ThrowIfReadError(gz.get(), path, line_no);  // a truncated gzip stream ends mid-line
      if (!gzeof(gz.get())) {
        throw std::runtime_error(fmt::format("{}:{}: line too long", path, line_no));
      }
    }
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    const auto fields = SplitFields(line);
    if (fields.empty() || fields[0][0] == '#') continue;
    const auto fail = [&](const std::string& what) {
      return std::runtime_error(fmt::format("{}:{}: {}: '{}'", path, line_no, what, line));
    };
    if (fields.size() != fields_wanted) {
      throw fail(fmt::format("expected {} fields for {} ({} operand{}, result, flags), found {}",
                             fields_wanted, op->name, op->operands, op->operands > 1 ? "s" : "",
                             fields.size()));
    }
    uint32_t v[5];
    std::string error;
    for (size_t i = 0; i < fields.size(); ++i) {
      const bool is_operand = i < static_cast<size_t>(op->operands);
      const bool is_result = i == static_cast<size_t>(op->operands);
      const ValueType type = is_operand ? op->operand_type : op->result_type;
      const int digits = is_operand || is_result ? HexDigits(type) : 2;
      if (!ParseHex(fields[i], digits, v[i], error)) {
        const std::string what = is_operand  ? fmt::format("operand {} ({})", i + 1, TypeName(type))
                                 : is_result ? fmt::format("result ({})", TypeName(type))
                                             : "flags";
        throw fail(fmt::format("bad {}: {}", what, error));
      }
    }
    const uint32_t flags = v[fields.size() - 1];
    if (flags > kFlagMask) throw fail(fmt::format("bad flags: 0x{:X} is over 0x1F", flags));
    const uint32_t result = v[op->operands];
    if (op->result_type == ValueType::kBool && result > 1) {
      throw fail("bad result: a comparison gives 0 or 1");
    }
    TestFloatVector vec;
    vec.in =
        FpCase{op->op, op->fmt, v[0], op->operands > 1 ? v[1] : 0u, op->operands > 2 ? v[2] : 0u};
    vec.result = result;
    vec.flags = static_cast<uint8_t>(flags);
    vec.line = line_no;
    file.vectors.push_back(vec);
  }
  ThrowIfReadError(gz.get(), path, line_no + 1);
  if (file.vectors.empty()) throw std::runtime_error(fmt::format("{}: no test vectors", path));
  return file;
}

}  // namespace tessera::fp
