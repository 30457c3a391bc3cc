// Reading TestFloat vector files: the operation from the file name or an explicit name, plain
// and gzip files, and error messages that name file:line and what is wrong.
#include "fp/testfloat_file.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "fp/flags.h"
#include "fp/value_text.h"

namespace tessera::fp {
namespace {

using arch::FpFmt;
using arch::FpOp;

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string WriteGzip(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  return path;
}

// The message ReadTestFloatFile throws, or "" if it does not.
std::string ErrorOf(const std::string& path, const std::string& op = "") {
  try {
    ReadTestFloatFile(path, op);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(TestFloatOpFromFileName, EveryVectorFileOfTheSharedSet) {
  struct Want {
    const char* file;
    FpOp op;
    FpFmt fmt;
    int operands;
    ValueType result;
  };
  const Want wants[] = {
      {"f16_add.tv.gz", FpOp::kAdd, FpFmt::kF16, 2, ValueType::kF16},
      {"f16_sub.tv.gz", FpOp::kSub, FpFmt::kF16, 2, ValueType::kF16},
      {"f16_mul.tv.gz", FpOp::kMul, FpFmt::kF16, 2, ValueType::kF16},
      {"f16_mulAdd.tv.gz", FpOp::kMulAdd, FpFmt::kF16, 3, ValueType::kF16},
      {"f16_lt.tv.gz", FpOp::kLt, FpFmt::kF16, 2, ValueType::kBool},
      {"f16_le.tv.gz", FpOp::kLe, FpFmt::kF16, 2, ValueType::kBool},
      {"f16_eq.tv.gz", FpOp::kEq, FpFmt::kF16, 2, ValueType::kBool},
      {"f16_to_f32.tv.gz", FpOp::kCvtF2F, FpFmt::kF16, 1, ValueType::kF32},
      {"f16_to_i32_rminMag.tv.gz", FpOp::kCvtF2I, FpFmt::kF16, 1, ValueType::kI32},
      {"f32_add.tv.gz", FpOp::kAdd, FpFmt::kF32, 2, ValueType::kF32},
      {"f32_mulAdd.tv.gz", FpOp::kMulAdd, FpFmt::kF32, 3, ValueType::kF32},
      {"f32_eq.tv.gz", FpOp::kEq, FpFmt::kF32, 2, ValueType::kBool},
      {"f32_to_f16.tv.gz", FpOp::kCvtF2F, FpFmt::kF32, 1, ValueType::kF16},
      {"f32_to_i32_rminMag.tv.gz", FpOp::kCvtF2I, FpFmt::kF32, 1, ValueType::kI32},
      {"i32_to_f16.tv.gz", FpOp::kCvtI2F, FpFmt::kF16, 1, ValueType::kF16},
      {"i32_to_f32.tv.gz", FpOp::kCvtI2F, FpFmt::kF32, 1, ValueType::kF32},
  };
  for (const Want& w : wants) {
    SCOPED_TRACE(w.file);
    const std::string line = w.operands == 3   ? "0 0 0 0 00\n"
                             : w.operands == 2 ? "0 0 0 00\n"
                                               : "0 0 00\n";
    const TestFloatFile f = ReadTestFloatFile(WriteGzip(w.file, line));
    EXPECT_EQ(f.op.op, w.op);
    EXPECT_EQ(f.op.fmt, w.fmt);
    EXPECT_EQ(f.op.operands, w.operands);
    EXPECT_EQ(f.op.result_type, w.result);
    ASSERT_EQ(f.vectors.size(), 1u);
    EXPECT_EQ(f.vectors[0].in.op, w.op);
    EXPECT_EQ(f.vectors[0].in.fmt, w.fmt);
  }
}

TEST(TestFloatFileRead, PlainFileWithCommentsBlankLinesAndCrlf) {
  const std::string path = WriteFile("plain.tv",
                                     "# made by hand\n"
                                     "\n"
                                     "3F800000 3F800000 BF800000 00000000 00\r\n"
                                     "  00000000 7F800000 7FC00000 7FC00000 10\n"
                                     "1 2 3 4 1");  // no final newline
  const TestFloatFile f = ReadTestFloatFile(path, "f32_mulAdd");
  ASSERT_EQ(f.vectors.size(), 3u);
  EXPECT_EQ(f.vectors[0].line, 3);
  EXPECT_EQ(f.vectors[0].in.a, 0x3F800000u);
  EXPECT_EQ(f.vectors[0].in.c, 0xBF800000u);
  EXPECT_EQ(f.vectors[0].result, 0u);
  EXPECT_EQ(f.vectors[1].line, 4);
  EXPECT_EQ(f.vectors[1].in.b, 0x7F800000u);
  EXPECT_EQ(f.vectors[1].flags, kFlagInvalid);
  EXPECT_EQ(f.vectors[2].line, 5);
  EXPECT_EQ(f.vectors[2].result, 4u);
  EXPECT_EQ(f.path, path);
  EXPECT_STREQ(f.op.name, "f32_mulAdd");
}

TEST(TestFloatFileRead, OneOperandCasesHaveZeroBAndC) {
  const TestFloatFile f =
      ReadTestFloatFile(WriteFile("cvt.tv", "C07F3FFF C3FA 01\n"), "f32_to_f16");
  ASSERT_EQ(f.vectors.size(), 1u);
  EXPECT_EQ(f.vectors[0].in.a, 0xC07F3FFFu);
  EXPECT_EQ(f.vectors[0].in.b, 0u);
  EXPECT_EQ(f.vectors[0].in.c, 0u);
  EXPECT_EQ(f.vectors[0].result, 0xC3FAu);
  EXPECT_EQ(f.vectors[0].flags, kFlagInexact);
}

TEST(TestFloatFileRead, ExplicitOpOverridesTheFileName) {
  const TestFloatFile f = ReadTestFloatFile(WriteFile("f32_add.tv", "3C00 3C00 1 00\n"), "f16_eq");
  EXPECT_EQ(f.op.op, FpOp::kEq);
  EXPECT_EQ(f.op.fmt, FpFmt::kF16);
}

TEST(TestFloatFileErrors, WrongFieldCountNamesFileAndLine) {
  const std::string path = WriteFile("f32_add.tv", "3F800000 3F800000 40000000 00\n1 2 3\n");
  const std::string e = ErrorOf(path);
  EXPECT_NE(e.find(path + ":2:"), std::string::npos) << e;
  EXPECT_NE(e.find("expected 4 fields"), std::string::npos) << e;
  EXPECT_NE(e.find("found 3"), std::string::npos) << e;
}

TEST(TestFloatFileErrors, BadHexNamesTheField) {
  const std::string e = ErrorOf(WriteFile("f32_mul.tv", "3F800000 3F80000G 40000000 00\n"));
  EXPECT_NE(e.find(":1: bad operand 2"), std::string::npos) << e;
  EXPECT_NE(e.find("'3F80000G' is not hex"), std::string::npos) << e;
}

TEST(TestFloatFileErrors, TooWideValue) {
  const std::string e = ErrorOf(WriteFile("f16_mul.tv", "3C00 3C000 3C00 00\n"));
  EXPECT_NE(e.find("more than 4 hex digits"), std::string::npos) << e;
}

TEST(TestFloatFileErrors, BadFlagsAndComparisonResult) {
  EXPECT_NE(ErrorOf(WriteFile("f16_add.tv", "3C00 3C00 4000 20\n")).find("bad flags"),
            std::string::npos);
  EXPECT_NE(ErrorOf(WriteFile("f16_lt.tv", "3C00 3C00 2 00\n")).find("0 or 1"), std::string::npos);
}

TEST(TestFloatFileErrors, UnknownOpListsTheValidOnes) {
  const std::string e = ErrorOf(WriteFile("x.tv", "0 0 0 00\n"), "f32_rem");
  EXPECT_NE(e.find("unknown operation 'f32_rem'"), std::string::npos) << e;
  EXPECT_NE(e.find("f32_mulAdd"), std::string::npos) << e;
  EXPECT_NE(e.find("i32_to_f16"), std::string::npos) << e;
}

TEST(TestFloatFileErrors, FileNameThatIsNoOperationAsksForOp) {
  const std::string e = ErrorOf(WriteFile("vectors.tv", "0 0 0 00\n"));
  EXPECT_NE(e.find("--op"), std::string::npos) << e;
  EXPECT_NE(e.find("'vectors'"), std::string::npos) << e;
}

TEST(TestFloatFileErrors, MissingEmptyAndTruncatedFiles) {
  EXPECT_NE(ErrorOf(::testing::TempDir() + "no_such_file.tv", "f32_add").find("cannot open"),
            std::string::npos);
  EXPECT_NE(ErrorOf(WriteFile("empty.tv", "# nothing\n"), "f32_add").find("no test vectors"),
            std::string::npos);
  // A gzip stream cut short is a read error, not a silently shorter file.
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "3F800000 3F800000 40000000 00\n";
  const std::string full = WriteGzip("full.tv.gz", text);
  std::ifstream in(full, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = WriteFile("f32_add.tv.gz", bytes.substr(0, bytes.size() - 12));
  EXPECT_NE(ErrorOf(cut).find("read error"), std::string::npos) << ErrorOf(cut);
}

}  // namespace
}  // namespace tessera::fp
