// Checking an FMAC backend against expected results, the one checking loop behind
// `tessera fpcheck` (and so behind the RTL FMAC's TestFloat tests): a TestFloatFile's vectors
// (from a TestFloat file, testfloat_file.h, or generated, directed_vectors.h) become FpCases, run
// back to back through the backend in one Run, and every result and both lanes' flags are compared.
//
// How vectors become cases (the word-level contract, fp_backend.h):
// - f16 two-lane operations (IsTwoLane): consecutive vectors fill lane 0 and lane 1 of one case,
//   each checked in its own lane with its own flags (an odd last vector leaves lane 1 zero and
//   unchecked);
// - f16 operations that read lane 0 only (comparisons, f16 -> f32 and f16 -> i32): each f16
//   operand carries the signaling NaN kUnusedLanePoison in bits 31:16, so a lane-1 leak shows as
//   a wrong result or an invalid flag;
// - everything else: the vector's words as they are.
// A one-lane operation's result is compared on all 32 bits (zero extension included), and its
// lane 1 flags must be 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fp/fp_backend.h"
#include "fp/testfloat_file.h"

namespace tessera::fp {

// An f16 signaling NaN, in bits 31:16 of the f16 operands of lane-0-only operations.
inline constexpr uint16_t kUnusedLanePoison = 0x7D00;

// Indices of the vectors to check: all (sample 0 or at least total), or `sample` evenly spaced.
std::vector<size_t> SelectVectors(size_t total, size_t sample);

// The case that carries vector `lo` (and `hi` in lane 1 of a two-lane operation; null for none).
FpCase PackCase(const TestFloatOp& op, const TestFloatVector& lo, const TestFloatVector* hi);

struct VectorCheckOptions {
  size_t sample = 0;  // check this many evenly spaced vectors; 0: all
  size_t show = 5;    // keep the first `show` mismatches
};

// One vector whose result or flags differ: what the backend gave for it.
struct VectorMismatch {
  size_t vector;  // index into TestFloatFile::vectors
  int lane;       // 0, or 1 for the upper lane of a two-lane case
  uint32_t result;
  uint8_t flags;
  uint8_t other_lane_flags;  // lane 1's flags for a one-lane operation (must be 0)
};

struct VectorCheckReport {
  size_t checked = 0;  // vectors checked
  size_t cases = 0;    // FpCases issued (two vectors a case for a two-lane operation)
  int lanes = 1;       // vectors a case carries
  size_t passed = 0;
  size_t failed = 0;
  std::vector<VectorMismatch> mismatches;  // the first `show` failures, in vector order
  double seconds = 0;                      // time spent in backend.Run
};

// Runs the selected vectors of `file` through `backend` (one Run, one case per vector or lane
// pair, back to back) and compares. Exceptions from the backend propagate.
VectorCheckReport CheckVectors(FpBackend& backend, const TestFloatFile& file,
                               const VectorCheckOptions& options = {});

// What differs, for people: "FAIL <path>:<line> (lane 1): f16_mul a=0x.. (..) b=..", then
// "  expected <value> flags <names>" and "  got      <value> flags <names>", values by
// FormatValue and flags by FlagNames; a note if lane 1 raised flags for a one-lane operation,
// words the case carried beyond the operation's operands, and the poison of lane-0-only f16
// operands. Every line ends with '\n'.
std::string FormatMismatch(const TestFloatFile& file, const VectorMismatch& m);

}  // namespace tessera::fp
