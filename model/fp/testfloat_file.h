// Berkeley TestFloat vector files (testfloat_gen output, plain or gzip): one case a line, the
// operands then the expected result and flags, every field in hex. ReadTestFloatFile
// turns a file into FpCases with their expected results, for `tessera fpcheck` and the tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arch/arch.h"
#include "fp/fp_backend.h"
#include "fp/value_text.h"

namespace tessera::fp {

// One TestFloat function the FMAC implements, named as testfloat_gen names it (the file stem).
struct TestFloatOp {
  const char* name;  // "f32_mulAdd", "f16_to_i32_rminMag", ...
  arch::FpOp op;
  arch::FpFmt fmt;  // the FpCase format: the source's for CvtF2F/CvtF2I, the destination's for I2F
  int operands;     // 1, 2 or 3
  ValueType operand_type;
  ValueType result_type;
};

// The operation called `name`, or nullptr. Besides TestFloat's functions the table has
// f16/f32 _min, _max, _neg and _abs (not TestFloat functions) so that every FpOp has a name.
const TestFloatOp* FindTestFloatOp(std::string_view name);
// All names, comma separated, for error messages.
std::string TestFloatOpNames();

struct TestFloatVector {
  FpCase in;  // f16 operands in lane 0 (bits 15:0), the other bits 0
  uint32_t result;
  uint8_t flags;
  int line;  // 1-based line number in the file
};

struct TestFloatFile {
  std::string path;
  TestFloatOp op;
  std::vector<TestFloatVector> vectors;
};

// Reads `path`, plain or gzip. `op_name` names the operation (TestFloat spelling); empty means
// the file name's stem (the part before the first '.', "f16_add" for "f16_add.tv.gz"). Blank
// lines and lines starting with '#' are skipped. Throws std::runtime_error naming file:line and
// what is wrong on bad input (unreadable file, unknown operation, wrong field count, bad or
// too-wide hex, no vectors).
TestFloatFile ReadTestFloatFile(const std::string& path, const std::string& op_name = "");

}  // namespace tessera::fp
