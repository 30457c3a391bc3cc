#include "fp/vector_check.h"

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <limits>

#include "fp/execute.h"
#include "fp/flags.h"
#include "fp/value_text.h"

namespace tessera::fp {
namespace {

constexpr size_t kNoVector = std::numeric_limits<size_t>::max();

// True when the operation reads only bits 15:0 of its f16 operands.
bool ReadsLane0Only(const TestFloatOp& op) {
  return op.operand_type == ValueType::kF16 && !IsTwoLane(op.op, op.fmt);
}

}  // namespace

std::vector<size_t> SelectVectors(size_t total, size_t sample) {
  std::vector<size_t> chosen;
  if (sample == 0 || sample >= total) {
    for (size_t i = 0; i < total; ++i) chosen.push_back(i);
  } else {
    for (size_t k = 0; k < sample; ++k) chosen.push_back(k * total / sample);
  }
  return chosen;
}

FpCase PackCase(const TestFloatOp& op, const TestFloatVector& lo, const TestFloatVector* hi) {
  FpCase c = lo.in;
  uint32_t* const words[3] = {&c.a, &c.b, &c.c};
  if (IsTwoLane(op.op, op.fmt)) {
    const uint32_t hi_words[3] = {hi ? hi->in.a : 0u, hi ? hi->in.b : 0u, hi ? hi->in.c : 0u};
    for (int i = 0; i < 3; ++i) *words[i] = (*words[i] & 0xFFFFu) | hi_words[i] << 16;
  } else if (ReadsLane0Only(op)) {
    for (int i = 0; i < op.operands; ++i) {
      *words[i] = (*words[i] & 0xFFFFu) | uint32_t{kUnusedLanePoison} << 16;
    }
  }
  return c;
}

VectorCheckReport CheckVectors(FpBackend& backend, const TestFloatFile& file,
                               const VectorCheckOptions& options) {
  const TestFloatOp& op = file.op;
  const bool two_lane = IsTwoLane(op.op, op.fmt);
  VectorCheckReport report;
  report.lanes = two_lane ? 2 : 1;

  // Cases to run, and which vector fills each lane of each.
  const std::vector<size_t> chosen = SelectVectors(file.vectors.size(), options.sample);
  report.checked = chosen.size();
  std::vector<FpCase> in;
  std::vector<std::array<size_t, 2>> lane_vector;
  in.reserve((chosen.size() + 1) / report.lanes);
  for (size_t k = 0; k < chosen.size(); k += report.lanes) {
    std::array<size_t, 2> which = {chosen[k], kNoVector};
    if (two_lane && k + 1 < chosen.size()) which[1] = chosen[k + 1];
    const TestFloatVector* hi = which[1] == kNoVector ? nullptr : &file.vectors[which[1]];
    in.push_back(PackCase(op, file.vectors[which[0]], hi));
    lane_vector.push_back(which);
  }
  report.cases = in.size();

  std::vector<FpOut> out(in.size());
  const auto start = std::chrono::steady_clock::now();
  backend.Run(in.data(), out.data(), in.size());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (size_t i = 0; i < in.size(); ++i) {
    for (int lane = 0; lane < report.lanes; ++lane) {
      const size_t vi = lane_vector[i][lane];
      if (vi == kNoVector) continue;
      const TestFloatVector& v = file.vectors[vi];
      VectorMismatch got{vi, lane, out[i].result, out[i].flags[lane], 0};
      if (two_lane) got.result = (out[i].result >> (16 * lane)) & 0xFFFFu;
      if (!two_lane) got.other_lane_flags = out[i].flags[1];
      if (got.result == v.result && got.flags == v.flags && got.other_lane_flags == 0) {
        ++report.passed;
      } else {
        ++report.failed;
        if (report.mismatches.size() < options.show) report.mismatches.push_back(got);
      }
    }
  }
  return report;
}

std::string FormatMismatch(const TestFloatFile& file, const VectorMismatch& m) {
  const TestFloatOp& op = file.op;
  const TestFloatVector& v = file.vectors[m.vector];
  const uint32_t words[3] = {v.in.a, v.in.b, v.in.c};
  const std::string lane = IsTwoLane(op.op, op.fmt) ? fmt::format(" (lane {})", m.lane) : "";
  std::string s = fmt::format("FAIL {}:{}{}: {}", file.path, v.line, lane, op.name);
  for (int i = 0; i < 3; ++i) {
    const char name = static_cast<char>('a' + i);
    if (i < op.operands) {
      s += fmt::format(" {}={}", name, FormatValue(op.operand_type, words[i]));
    } else if (words[i] != 0) {
      s += fmt::format(" {}=0x{:08X} (not an operand, ignored)", name, words[i]);
    }
  }
  if (ReadsLane0Only(op)) {
    s += fmt::format(", bits 31:16 of each operand {}",
                     FormatValue(ValueType::kF16, kUnusedLanePoison));
  }
  s += fmt::format("\n  expected {} flags {}\n", FormatValue(op.result_type, v.result),
                   FlagNames(v.flags));
  s += fmt::format("  got      {} flags {}\n", FormatValue(op.result_type, m.result),
                   FlagNames(m.flags));
  if (m.other_lane_flags) {
    s += fmt::format("  and lane 1 flags {} (a one-lane operation must leave them 0)\n",
                     FlagNames(m.other_lane_flags));
  }
  return s;
}

}  // namespace tessera::fp
