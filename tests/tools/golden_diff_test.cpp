// tessera_golden_diff names the first difference: element index and values for .npy, line for
// text, byte otherwise; equal files give "".
#include "golden_diff.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/npy.h"

namespace tessera::test {
namespace {

std::string Tmp(const std::string& name) { return (::testing::TempDir() + "/golden_diff_") + name; }

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(GoldenDiff, EqualFilesAgree) {
  const std::vector<float> v = {1, 2, 3, 4, 5, 6};
  runtime::WriteNpy(Tmp("a.npy"), "<f4", {2, 3}, v.data(), 24);
  runtime::WriteNpy(Tmp("b.npy"), "<f4", {2, 3}, v.data(), 24);
  EXPECT_EQ(GoldenDiff(Tmp("a.npy"), Tmp("b.npy")), "");
  WriteText(Tmp("a.csv"), "x\n1\n");
  WriteText(Tmp("b.csv"), "x\n1\n");
  EXPECT_EQ(GoldenDiff(Tmp("a.csv"), Tmp("b.csv")), "");
}

TEST(GoldenDiff, NpyNamesTheFirstDifferingElement) {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 2, 3, 4, 5.5f, -6};
  runtime::WriteNpy(Tmp("w.npy"), "<f4", {2, 3}, a.data(), 24);
  runtime::WriteNpy(Tmp("g.npy"), "<f4", {2, 3}, b.data(), 24);
  const std::string d = GoldenDiff(Tmp("w.npy"), Tmp("g.npy"));
  EXPECT_NE(d.find("in 2 of 6 elements"), std::string::npos) << d;
  EXPECT_NE(d.find("the first is [1, 1]: 0x40A00000 (5) written, 0x40B00000 (5.5) golden"),
            std::string::npos)
      << d;
}

TEST(GoldenDiff, NpyShapeAndDtype) {
  const std::vector<int32_t> v = {1, 2, 3, 4};
  runtime::WriteNpy(Tmp("s1.npy"), "<i4", {4}, v.data(), 16);
  runtime::WriteNpy(Tmp("s2.npy"), "<i4", {2, 2}, v.data(), 16);
  runtime::WriteNpy(Tmp("s3.npy"), "<u4", {4}, v.data(), 16);
  EXPECT_NE(GoldenDiff(Tmp("s1.npy"), Tmp("s2.npy")).find("has shape (4), the golden"),
            std::string::npos);
  EXPECT_NE(GoldenDiff(Tmp("s1.npy"), Tmp("s3.npy")).find("has dtype <i4, the golden"),
            std::string::npos);
}

TEST(GoldenDiff, TextNamesTheFirstDifferingLine) {
  WriteText(Tmp("w.csv"), "cycle,pe\n3,0\n4,1\n");
  WriteText(Tmp("g.csv"), "cycle,pe\n3,0\n5,1\n");
  const std::string d = GoldenDiff(Tmp("w.csv"), Tmp("g.csv"));
  EXPECT_NE(d.find("w.csv:3 differs"), std::string::npos) << d;
  EXPECT_NE(d.find("written: 4,1"), std::string::npos) << d;
  EXPECT_NE(d.find("golden:  5,1"), std::string::npos) << d;
  WriteText(Tmp("g2.csv"), "cycle,pe\n3,0\n");
  EXPECT_NE(GoldenDiff(Tmp("w.csv"), Tmp("g2.csv")).find("has 3 lines, the golden"),
            std::string::npos);
}

TEST(GoldenDiff, BinaryNamesTheFirstDifferingByte) {
  WriteText(Tmp("w.bin"), std::string("ab\0cd", 5));
  WriteText(Tmp("g.bin"), std::string("ab\0ce", 5));
  EXPECT_NE(GoldenDiff(Tmp("w.bin"), Tmp("g.bin")).find("first at byte 4: 0x64 written, 0x65"),
            std::string::npos);
}

}  // namespace
}  // namespace tessera::test
