// memcpy planning (host/runtime/memcpy.h): host array order, 16-bit packing, and the checks.
#include "runtime/memcpy.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "asm/link.h"
#include "layout/image.h"

namespace tessera::runtime {
namespace {

TEST(Memcpy, RowMajorIsHwnInCOrder) {
  const Region r{0, 0, 3, 2};
  EXPECT_EQ(HostIndex(r, 4, Order::kRowMajor, 0, 0, 0), 0u);
  EXPECT_EQ(HostIndex(r, 4, Order::kRowMajor, 0, 0, 3), 3u);
  EXPECT_EQ(HostIndex(r, 4, Order::kRowMajor, 1, 0, 0), 4u);
  EXPECT_EQ(HostIndex(r, 4, Order::kRowMajor, 0, 1, 0), 12u);
  EXPECT_EQ(HostIndex(r, 4, Order::kRowMajor, 2, 1, 3), 23u);
}

TEST(Memcpy, ColumnMajorIsHwnInFortranOrder) {
  const Region r{0, 0, 3, 2};
  EXPECT_EQ(HostIndex(r, 4, Order::kColMajor, 0, 1, 0), 1u);  // py fastest
  EXPECT_EQ(HostIndex(r, 4, Order::kColMajor, 1, 0, 0), 2u);  // then px
  EXPECT_EQ(HostIndex(r, 4, Order::kColMajor, 0, 0, 1), 6u);  // then the element
  EXPECT_EQ(HostIndex(r, 4, Order::kColMajor, 2, 1, 3), 23u);
}

TEST(Memcpy, SixteenBitElementsShareWordsAndKeepTheirNeighbours) {
  // Three elements from 0x0102: the high half of word 0x0100, then the whole word 0x0104.
  const std::vector<uint16_t> addrs{0x0102};
  const uint16_t data[3] = {0x1111, 0x2222, 0x3333};
  MemcpyOptions o;
  o.elem_bits = 16;
  const std::vector<WordTransfer> p = PlanH2D(addrs, {0, 0, 1, 1}, 3, o, data);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].addr, 0x0100);
  EXPECT_EQ(p[0].value, 0x11110000u);
  EXPECT_EQ(p[0].mask, 0xFFFF0000u);
  EXPECT_EQ(p[1].addr, 0x0104);
  EXPECT_EQ(p[1].value, 0x33332222u);
  EXPECT_EQ(p[1].mask, 0xFFFFFFFFu);
  uint16_t back[3] = {};
  ScatterD2H(addrs, {0, 0, 1, 1}, 3, o, {0x1111ABCDu, 0x33332222u}, back);
  EXPECT_EQ(back[0], 0x1111);
  EXPECT_EQ(back[1], 0x2222);
  EXPECT_EQ(back[2], 0x3333);
}

// A streaming copy: an element a payload, PE by PE in region order; 16-bit elements in the low
// half on the way in, taken from the low half on the way out.
TEST(Memcpy, StreamingPlansOneElementAWavelet) {
  const Region r{4, 1, 2, 2};  // 2x2 PEs, 3 elements each: host shape (2, 2, 3)
  std::vector<uint32_t> host(12);
  for (uint32_t k = 0; k < 12; ++k) host[k] = 0xA0000000u + k;
  MemcpyOptions o;
  const auto words = PlanStreamH2D(r, 3, o, host.data());
  ASSERT_EQ(words.size(), 4u);
  EXPECT_EQ(words[1], (std::vector<uint32_t>{0xA0000003u, 0xA0000004u, 0xA0000005u}))
      << "PE (5,1): elements 3..5 of the row-major array";
  o.order = Order::kColMajor;
  const auto cols = PlanStreamH2D(r, 3, o, host.data());
  EXPECT_EQ(cols[1][0], 0xA0000002u) << "PE (5,1), element 0: index px * h = 2 in Fortran order";
  std::vector<uint32_t> back(12);
  ScatterStreamD2H(r, 3, o, cols, back.data());
  EXPECT_EQ(back, host) << "a column-major round trip";

  std::vector<uint16_t> halves{0x1111, 0x2222, 0xFFFF, 0x8000};
  MemcpyOptions h;
  h.elem_bits = 16;
  const auto hw = PlanStreamH2D({0, 0, 1, 1}, 4, h, halves.data());
  EXPECT_EQ(hw[0], (std::vector<uint32_t>{0x1111u, 0x2222u, 0xFFFFu, 0x8000u}))
      << "a 16-bit element fills the low half, the high half zero";
  std::vector<uint16_t> out(4);
  ScatterStreamD2H({0, 0, 1, 1}, 4, h, {{0xDEAD1111u, 0x2222u, 0xFFFFu, 0x12348000u}}, out.data());
  EXPECT_EQ(out, halves) << "the high half of a payload is not part of a 16-bit element";
  EXPECT_THROW(ScatterStreamD2H({0, 0, 1, 1}, 4, h, {{1u, 2u}}, out.data()), std::logic_error);
}

class MemcpyCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    image.fabric_w = 2;
    image.fabric_h = 1;
    layout::ImageProgram p;
    p.program = assembler::LinkSingle({assembler::AssembleText("t.s",
                                                               "        .data\n"
                                                               "a:      .space 16\n"
                                                               "h:      .space 8\n"
                                                               "u:      .word 0\n"
                                                               "        .export a, f32, 4\n"
                                                               "        .export h, f16, 4\n"
                                                               "        .export u\n"
                                                               "        .text\n"
                                                               "        tend\n")
                                           .object},
                                      {});
    image.programs.push_back(p);
    image.pes.push_back({0, 0, 0, {}});  // PE(1,0) has no program
  }
  std::string Error(const Region& r, int n, size_t count, int bits, const std::string& sym = "a") {
    MemcpyOptions o;
    o.elem_bits = bits;
    try {
      CheckMemcpy(image, sym, r, n, count, o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  }
  layout::Image image;
};

TEST_F(MemcpyCheck, AcceptsAFittingCopy) {
  EXPECT_EQ(Error({0, 0, 1, 1}, 4, 4, 32), "");
  EXPECT_EQ(Error({0, 0, 1, 1}, 3, 3, 16, "h"), "");
}

TEST_F(MemcpyCheck, NamesWhatIsWrong) {
  EXPECT_EQ(Error({1, 0, 2, 1}, 1, 2, 32),
            "memcpy 'a': region at (1,0) of 2x1 PEs reaches outside the 2x1 fabric");
  EXPECT_EQ(Error({0, 0, 1, 1}, 4, 5, 32),
            "memcpy 'a': the host array has 5 elements, but 1x1 PEs with 4 each need 4");
  EXPECT_EQ(Error({0, 0, 1, 1}, 5, 5, 32),
            "memcpy 'a': 5 elements per PE, but PE(0,0) exports only 4");
  EXPECT_EQ(Error({0, 0, 1, 1}, 4, 4, 16),
            "memcpy 'a': 16-bit elements, but PE(0,0) exports 'a' as f32 (32-bit)");
  EXPECT_EQ(Error({0, 0, 1, 1}, 4, 4, 8), "memcpy 'a': elements are 16 or 32 bits, not 8");
  EXPECT_EQ(Error({1, 0, 1, 1}, 1, 1, 32), "memcpy 'a': PE(1,0) has no program");
  EXPECT_EQ(Error({0, 0, 1, 1}, 1, 1, 32, "zz"),
            "memcpy 'zz': the program on PE(0,0) does not export 'zz'");
  EXPECT_NE(Error({0, 0, 1, 1}, 1, 1, 32, "u").find("without a type and count"), std::string::npos);
}

}  // namespace
}  // namespace tessera::runtime
