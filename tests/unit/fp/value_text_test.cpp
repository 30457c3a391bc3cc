// Human-readable text of values and flags, as fpcheck prints them.
#include "fp/value_text.h"

#include <gtest/gtest.h>

#include "fp/flags.h"

namespace tessera::fp {
namespace {

TEST(ValueText, FlagNames) {
  EXPECT_EQ(FlagNames(0), "none");
  EXPECT_EQ(FlagNames(kFlagInexact | kFlagUnderflow), "inexact|underflow");
  EXPECT_EQ(FlagNames(kFlagInvalid), "invalid");
  EXPECT_EQ(FlagNames(0x1F), "inexact|underflow|overflow|infinite|invalid");
}

TEST(ValueText, FormatValue) {
  EXPECT_EQ(FormatValue(ValueType::kF32, 0xBF800000), "0xBF800000 (-1)");
  EXPECT_EQ(FormatValue(ValueType::kF32, 0x7F800001), "0x7F800001 (sNaN)");
  EXPECT_EQ(FormatValue(ValueType::kF32, 0xFF800000), "0xFF800000 (-inf)");
  EXPECT_EQ(FormatValue(ValueType::kF16, 0x7E00), "0x7E00 (qNaN)");
  EXPECT_EQ(FormatValue(ValueType::kF16, 0x3E00), "0x3E00 (1.5)");
  EXPECT_EQ(FormatValue(ValueType::kF16, 0x8000), "0x8000 (-0)");
  EXPECT_EQ(FormatValue(ValueType::kI32, 0xFFFFFFFF), "0xFFFFFFFF (-1)");
  EXPECT_EQ(FormatValue(ValueType::kBool, 1), "1 (true)");
}

}  // namespace
}  // namespace tessera::fp
